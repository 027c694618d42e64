"""The map PNG a notification carries (docs/social.md, "Discord"): the recipient's own view of
the game, as ``GET /games/{id}/map.png`` draws it for them (a seat's power; the public picture
for a channel), with no pending orders. The composition root hands this to the notification
worker, which never imports the visibility service itself.

Each picture is remembered as the HTTP pictures are (cache.py), under the game, the version
others can see, the phase and the viewer, so that every delivery attempt and every recipient
with the same view shares one drawing (the public one with ``GET .../map.png`` itself); one not
remembered is drawn in the render queue's others' lane, in turn with everyone's pictures (a
full queue: no picture this attempt, the notification goes without it).
"""
from __future__ import annotations

from typing import Any

import anyio
import orjson

from shared.game.repository import read_game
from shared.store import EventStore

from ..past import checked_phase, read_past
from ..view import Viewer
from .cache import Picture, etag_of, pictures_of
from .pictures import last_resolution


async def notification_map(store: EventStore, settings: Any, game_id: str, power: str | None,
                           phase: str | None) -> bytes | None:
    """The picture of ``phase`` (None: now) as ``power`` (None: the public) sees it, as PNG;
    None for a game with no board yet. Raises ``RenderQueueFull`` when too many pictures wait."""
    state = await read_game(store, game_id)
    if state is None or state.position is None:
        return None
    viewer = Viewer("power", power, powers=(power,)) if power else Viewer.public()
    number = checked_phase(state, phase)
    key = ("png", game_id, state.shown_version, number, viewer, orjson.dumps({}))  # no pending orders
    pictures = pictures_of(store, settings)
    found = pictures.remembered(key)
    if found is not None:
        return found[1]
    async with pictures.queue.turn("others"):
        found = pictures.remembered(key)  # drawn by another delivery while this one waited
        if found is not None:
            return found[1]
        past = await read_past(store, state, number, history=False) if number is not None else None
        last = await last_resolution(store, state) if past is None else None
        digest, body = await anyio.to_thread.run_sync(pictures.drawer.draw, "png", state, {}, viewer, past, last)
        pictures.bodies.put(digest, body, len(body))
        pictures.remember(key, Picture(etag_of("png", viewer, digest), digest))
    return body
