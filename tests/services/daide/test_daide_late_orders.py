"""A DAIDE game whose orders come late, on PostgreSQL with a real ``entente daide`` and a real
clock worker (``entente worker``): a seat that orders one unit of three is told MIS with the
others, a seat that orders nothing is put in civil disorder at the deadline (every client is
told CCD (TUR), and the unordered units hold in the ORD), TME tells the time left and a time
mark is kept, and once Turkey orders again every client is told NOT (CCD (TUR)).
"""
from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from shared.store import EventStore
from tests.conftest import open_store
from tests.utils.daide_client import DaideClient, tree, units_in, written
from tests.utils.daide_server import clock_worker, entente_daide, joined, seated_game

CODES = {"AUSTRIA": "AUS", "ENGLAND": "ENG", "FRANCE": "FRA", "GERMANY": "GER", "ITALY": "ITA", "RUSSIA": "RUS",
         "TURKEY": "TUR"}


def holds(now: str, code: str) -> str:
    return "SUB " + " ".join(f"({written(u)} HLD)" for u in units_in(now, code))


@pytest.mark.postgres
async def test_late_orders_missing_units_and_civil_disorder(postgres_url: str) -> None:
    store: EventStore = await open_store(postgres_url)
    try:
        # started 35 s ago: the one-minute deadline passes 25 s into the test
        game = await seated_game(store, movement_minutes=1, retreat_minutes=1, started_ago=timedelta(seconds=35))
        with entente_daide(postgres_url) as served, clock_worker(postgres_url):
            clients = {p: await DaideClient.connect(served.port) for p in CODES}
            starts = dict(zip(CODES, await asyncio.gather(
                *(joined(clients[p], game.credentials[p]) for p in CODES)), strict=True))
            italy, turkey = clients["ITALY"], clients["TURKEY"]

            italy.send("SUB ((ITA AMY ROM) HLD)")
            assert await italy.receive() == "THX ((ITA AMY ROM) HLD) (MBV)"
            assert await italy.receive() == "MIS (ITA AMY VEN) (ITA FLT NAP)"
            italy.send("MIS")
            assert await italy.receive() == "MIS (ITA AMY VEN) (ITA FLT NAP)"
            italy.send("TME")
            left = tree(await italy.receive())[1][0]
            assert 0 < left <= 60
            italy.send("TME (20)")
            assert await italy.receive() == "YES (TME (20))"
            for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA"):
                clients[power].send(holds(starts[power][-1], CODES[power]))
            # Turkey says nothing; the deadline passes and the clock worker resolves the phase
            told = await italy.until("CCD", timeout=120)
            assert "TME (20)" in told
            assert "ORD (SPR 1901) ((ITA AMY VEN) HLD) (SUC)" in told
            assert "ORD (SPR 1901) ((TUR FLT ANK) HLD) (SUC)" in told
            assert told[-1] == "CCD (TUR)" and told[-3].startswith("NOW (FAL 1901)") and told[-2].startswith("TME (")
            seen_by_turkey = await turkey.until("CCD", timeout=30)
            assert seen_by_turkey[-1] == "CCD (TUR)"

            # Fall: every power orders, Turkey too: it resolves at once and Turkey is back
            fall = seen_by_turkey[-3]
            for power, code in CODES.items():
                clients[power].send(holds(fall, code))
            for client in clients.values():
                back = await client.until("NOT", timeout=60)
                assert back[-1] == "NOT (CCD (TUR))"
                assert any(m.startswith("NOW (SPR 1902)") for m in back)
            for client in clients.values():
                await client.close()
    finally:
        await store.close()
