"""The map PNG a notification carries (docs/social.md, "Discord"): the recipient's own view of
the game, as ``GET /games/{id}/map.png`` draws it for them (a seat's power; the public picture
for a channel), with no pending orders. The composition root hands this to the notification
worker, which never imports the visibility service itself.
"""
from __future__ import annotations

import asyncio

from shared.game.repository import read_game
from shared.store import EventStore

from ..past import checked_phase, read_past
from ..view import Viewer
from .pictures import game_layers, last_resolution
from .png import layers_to_png


async def notification_map(store: EventStore, game_id: str, power: str | None, phase: str | None) -> bytes | None:
    """The picture of ``phase`` (None: now) as ``power`` (None: the public) sees it, as PNG;
    None for a game with no board yet."""
    state = await read_game(store, game_id)
    if state is None or state.position is None:
        return None
    viewer = Viewer("power", power, powers=(power,)) if power else Viewer.public()
    number = checked_phase(state, phase)
    past = await read_past(store, state, number, history=False) if number is not None else None
    last = await last_resolution(store, state) if past is None else None
    return await asyncio.to_thread(lambda: layers_to_png(game_layers(state, {}, viewer, past, last)))
