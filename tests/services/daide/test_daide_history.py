"""`HST (turn)` against a real ``entente daide`` (docs/bots.md, "What is played"): a played turn's `ORD`
list as the turn's end told it, from the cache of resolved phases HTTP's past reads share (one
phase read, never the whole log); an unplayed turn `REJ`; and each `HST` costing ten messages
of the flood allowance, so that a burst of them is closed where as many cheap messages are not."""
from __future__ import annotations

import asyncio

from services.daide.server import HISTORY_COST, message_cost
from services.daide.tokens import TOKENS
from shared.store import EventStore
from tests.conftest import open_store
from tests.utils.daide_client import DM, DaideClient, dm, units_in, written
from tests.utils.daide_server import entente_daide, seated_game

CODES = {"AUSTRIA": "AUS", "ENGLAND": "ENG", "FRANCE": "FRA", "GERMANY": "GER", "ITALY": "ITA", "RUSSIA": "RUS",
         "TURKEY": "TUR"}


async def joined(client: DaideClient, credential: str) -> str:
    """The NOW of the first turn, once the client has its seat."""
    await client.hello()
    client.send(f"NME ('{credential}') ('history bot')")
    await client.until("MAP")
    client.send("YES (MAP ('STANDARD'))")
    return (await client.turn())[-2]


def test_an_hst_costs_ten_messages_and_any_other_one() -> None:
    assert message_cost(DM, TOKENS["HST"].to_bytes(2, "big") + b"\x40\x00") == HISTORY_COST == 10
    assert message_cost(DM, TOKENS["NOW"].to_bytes(2, "big")) == 1
    assert message_cost(DM, b"") == 1


async def test_hst_gives_a_played_turn_as_its_end_told_it_and_its_cost_counts(store_url: str) -> None:
    store: EventStore = await open_store(store_url)
    try:
        game = await seated_game(store)
        with entente_daide(store_url, "--burst", "60", "--rate", "1") as served:
            clients = {p: await DaideClient.connect(served.port) for p in CODES}
            nows = dict(zip(CODES, await asyncio.gather(
                *(joined(clients[p], game.credentials[p]) for p in CODES)), strict=True))
            for power, code in CODES.items():
                clients[power].send("SUB " + " ".join(f"({written(u)} HLD)" for u in units_in(nows[power], code)))
            france = clients["FRANCE"]
            told = await france.turn(timeout=60)
            spring = [m for m in told if m.startswith("ORD (SPR 1901)")]
            assert len(spring) == 22  # one ORD a unit of the opening

            france.send("HST (SPR 1901)")
            again = [await france.receive() for _ in spring]
            assert again == spring
            france.send("HST (FAL 1901)")  # not played yet
            refused = await france.until("REJ")
            assert refused[-1] == "REJ (HST (FAL 1901))"

            # 30 cheap messages at once fit a burst of 60; 7 HSTs (70) do not
            england, germany = clients["ENGLAND"], clients["GERMANY"]
            for client in (england, germany):
                await client.turn(timeout=60)  # the spring's end, read
            england.raw(b"".join(dm("NOW") for _ in range(30)))
            answers = [await england.receive() for _ in range(30)]
            assert all(a.startswith("NOW (FAL 1901)") for a in answers)
            germany.raw(b"".join(dm("HST (SPR 1901)") for _ in range(7)))
            assert (await germany.closed()).endswith(b"\x03\x00\x00\x00")  # an FM: a flood
            for client in clients.values():
                await client.close()
    finally:
        await store.close()
