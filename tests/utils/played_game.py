"""A game played through the services' own code (lobby and adjudication), random legal orders."""
from __future__ import annotations

import random

from services.lobby.service import create_game, join_game, start_game
from shared.events import GameSettings, game_stream
from shared.game.intake import submit_orders
from shared.game.repository import fold_records
from shared.game.resolution import resolve_phase
from shared.rules.diplomacy import load_map, position_from_document
from shared.store import EventStore
from tests.utils.random_play import random_orders


async def play_game(store: EventStore, phases: int, seed: int = 1) -> str:
    """Create, seat seven players, start, then submit and resolve ``phases`` phases; the game id."""
    created = await create_game(store, name="Ops test game", variant="standard", settings=GameSettings())
    game_id = created.state.game_id
    players = [(await join_game(store, game_id)).player_id for _ in range(7)]
    state = await start_game(store, game_id)
    player_of = {seat.power: seat.player_id for seat in state.seats}
    assert sorted(player_of.values()) == sorted(players)
    rng = random.Random(seed)
    game_map = load_map("standard")
    for _ in range(phases):
        state = fold_records(await store.events.read_stream(game_stream(game_id)))
        if state.status != "active":
            break
        position = position_from_document(state.position)
        for power, orders in random_orders(position, game_map, rng).items():
            if orders and power in state.must_act:
                await submit_orders(store, game_id, player_of[power], [str(order) for order in orders])
        await resolve_phase(store, game_id, state.phase)
    return game_id
