"""The map PNG a notification carries (docs/social.md, "Discord"): the recipient's own view of
the game, as ``GET /games/{id}/map.png`` draws it for them (a seat's power; the public picture
for a channel), with no pending orders. The composition root hands this to the notification
worker, which never imports the visibility service itself.
"""
from __future__ import annotations

import asyncio

from shared.game.repository import full_state, read_game, with_recent_history
from shared.store import EventStore

from ..view import Viewer
from .pictures import game_layers
from .png import layers_to_png


async def notification_map(store: EventStore, game_id: str, power: str | None, phase: str | None) -> bytes | None:
    """The picture of ``phase`` (None: now) as ``power`` (None: the public) sees it, as PNG;
    None for a game with no board yet."""
    state = await read_game(store, game_id)
    if state is None or state.position is None:
        return None
    viewer = Viewer("power", power, powers=(power,)) if power else Viewer.public()
    state = await full_state(store, state) if phase else await with_recent_history(store, state)
    layers = game_layers(state, {}, viewer, phase)
    return await asyncio.to_thread(layers_to_png, layers)
