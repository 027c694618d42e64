"""A victory ends the game: PhaseResolved names the winner, GameFinished follows, orders stop."""
from __future__ import annotations

import pytest

from services.lobby.service import create_game, join_game
from shared.errors import Conflict
from shared.events import GameSettings, GameStarted, game_stream, to_new_event
from shared.game.intake import submit_orders
from shared.game.repository import fold_records, game_row
from shared.game.resolution import resolve_phase
from shared.store import open_store

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
FRENCH_CENTRES = ["BEL", "BRE", "DEN", "EDI", "HOL", "KIE", "LON", "LVP", "MAR", "NAP", "NWY",
                  "PAR", "POR", "ROM", "SPA", "SWE", "TUN"]  # 17: one more wins


async def test_the_eighteenth_centre_finishes_the_game(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        created = await create_game(store, name="Endgame", variant="standard", settings=GameSettings())
        game_id = created.state.game_id
        seats = [await join_game(store, game_id) for _ in POWERS]
        position: dict[str, object] = {"variant": "standard", "phase": "F1910M",
                                       "units": {"FRANCE": ["A BUR"], "GERMANY": ["A BER"]},
                                       "centers": {"FRANCE": FRENCH_CENTRES, "GERMANY": ["BER", "MUN"]}}
        started = GameStarted(seed=1, powers={s.player_id: [p] for s, p in zip(seats, POWERS, strict=True)},
                              phase="F1910M", position=position, must_act=["FRANCE", "GERMANY"])
        async with store.transaction(game_id, lock="exclusive") as tx:
            await tx.events.append(game_stream(game_id), [to_new_event(started)], expected_version=8)
            await tx.games.put_game(game_row(fold_records(await tx.events.read_stream(game_stream(game_id)))))

        france = seats[POWERS.index("FRANCE")].player_id
        submission = await submit_orders(store, game_id, france, ["A BUR - MUN"])
        assert [c.order for c in submission.checks] == ["A BUR - MUN"]
        resolved = await resolve_phase(store, game_id, "F1910M")
        assert resolved.winners == ["FRANCE"]

        state = fold_records(await store.events.read_stream(game_stream(game_id)))
        assert state.status == "finished" and state.winners == ["FRANCE"]
        row = await store.games.get_game(game_id)
        assert row is not None and row.status == "finished"
        types = [r.type for r in await store.events.read_stream(game_stream(game_id))]
        assert types[-2:] == ["PhaseResolved", "GameFinished"]
        with pytest.raises(Conflict) as refused:
            await submit_orders(store, game_id, france, ["A MUN H"])
        assert refused.value.code == "game_finished"
    finally:
        await store.close()
