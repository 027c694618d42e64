"""DAIDE's ``DRW (powers)`` on a real ``entente daide``, on both back ends: in a game with
partial_draws it is the seat's vote for that draw, which passes once every surviving seat (here
the others over HTTP) votes for the same powers, and every DAIDE seat is told ``DRW (powers)``,
then SMR and OFF; a game without partial_draws refuses it (REJ, nothing written); a malformed
one is HUH (docs/bots.md, "Draws")."""
from __future__ import annotations

import asyncio

import httpx

from shared.events import game_stream
from shared.game.repository import read_game
from shared.store import EventStore
from tests.conftest import open_store
from tests.services.daide.test_daide_press import joined
from tests.utils.daide_client import DaideClient, tree
from tests.utils.daide_server import entente_daide, seated_game
from tests.utils.http import bearer

DAIDE_SEATS = {"FRANCE": "FRA", "ENGLAND": "ENG"}


async def test_drw_with_powers_is_a_vote_for_that_partial_draw(store_url: str, client: httpx.AsyncClient) -> None:
    store: EventStore = await open_store(store_url)
    try:
        game = await seated_game(store, partial_draws=True)
        plain = await seated_game(store)
        with entente_daide(store_url) as served:
            seats = {power: await DaideClient.connect(served.port) for power in DAIDE_SEATS}
            hellos = await asyncio.gather(*(joined(seats[p], game.credentials[p]) for p in DAIDE_SEATS))
            assert all(["PDA"] in tree(hlo)[3] for hlo in hellos)  # partial draws announced
            france, england = seats["FRANCE"], seats["ENGLAND"]
            france.send("DRW (FRA) (ENG)")
            assert (await france.receive()).startswith("HUH")
            france.send("DRW (FRA ENG)")
            assert await france.receive() == "YES (DRW (FRA ENG))"
            england.send("DRW (ENG FRA)")
            assert await england.receive() == "YES (DRW (ENG FRA))"
            others = [p for p in game.credentials if p not in DAIDE_SEATS]
            for power in others:
                token = game.credentials[power].partition("/")[2]
                voted = await client.post(f"/games/{game.game_id}/draw", headers=bearer(token),
                                          json={"vote": True, "powers": ["FRANCE", "ENGLAND"]})
                assert voted.status_code == 200, voted.text
            for seat in seats.values():
                ending = await seat.until("OFF", timeout=30)
                draw = next(m for m in ending if m.startswith("DRW"))
                assert draw == "DRW (ENG FRA)"

            other = await DaideClient.connect(served.port)
            await joined(other, plain.credentials["FRANCE"])
            before = await store.events.stream_version(game_stream(plain.game_id))
            other.send("DRW (FRA ENG)")
            refused = [await other.receive(), await other.receive()]
            assert refused[-1] == "REJ (DRW (FRA ENG))", refused
            assert await store.events.stream_version(game_stream(plain.game_id)) == before
        state = await read_game(store, game.game_id)
        assert state is not None and state.finish_reason == "draw" and state.drawn == ["ENGLAND", "FRANCE"]
    finally:
        await store.close()
