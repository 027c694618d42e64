"""A game's DAIDE connections on any process (docs/bots.md, "Following the game"; docs/scale.md):
two ``entente daide`` processes and a clock worker on one database, France's client connected to
the first and Germany's to the second. What one orders through its process is the game's, and
the phase's resolution at the deadline reaches both clients from the log, whichever process
each is on: the same ORD lines (every unit's order and result), then the next turn's NOW with
both moves made, and a MIS asked after it answers from the new turn. A seat taken by a new
connection on the other process is taken over: the first connection is sent OFF, as on one
process (docs/bots.md)."""
from __future__ import annotations

from datetime import timedelta

from shared.store import EventStore
from tests.conftest import open_store
from tests.utils.daide_client import tree
from tests.utils.daide_server import DaideClient, clock_worker, entente_daide, joined, seated_game


def units(now: str) -> set[str]:
    """The units of a NOW, written as ``FRA AMY BUR``."""
    return {" ".join(map(str, unit[:3])) for unit in tree(now)[2:]}


def missing(mis: str) -> set[str]:
    return {" ".join(map(str, unit[:3])) for unit in tree(mis)[1:]}


async def test_orders_and_the_resolution_reach_clients_on_either_process(store_url: str) -> None:
    store: EventStore = await open_store(store_url)
    try:
        with entente_daide(store_url) as first, entente_daide(store_url) as second, clock_worker(store_url):
            # started 40 s ago: its one-minute deadline passes 20 s from now, once both have joined
            game = await seated_game(store, movement_minutes=1, retreat_minutes=1, started_ago=timedelta(seconds=40))
            france, germany = await DaideClient.connect(first.port), await DaideClient.connect(second.port)
            assert units((await joined(france, game.credentials["FRANCE"]))[-1]) >= {"FRA AMY PAR", "GER AMY MUN"}
            await joined(germany, game.credentials["GERMANY"])

            france.send("SUB ((FRA AMY PAR) MTO BUR)")
            assert await france.receive() == "THX ((FRA AMY PAR) MTO BUR) (MBV)"
            assert missing(await france.receive()) == {"FRA AMY MAR", "FRA FLT BRE"}
            germany.send("SUB ((GER AMY MUN) MTO RUH) ((GER FLT KIE) MTO HOL)")
            assert await germany.receive() == "THX ((GER AMY MUN) MTO RUH) (MBV)"
            assert await germany.receive() == "THX ((GER FLT KIE) MTO HOL) (MBV)"
            assert missing(await germany.receive()) == {"GER AMY BER"}

            # the deadline passes: the clock worker resolves the phase, each process tells its client
            told = {name: await client.until("NOW", timeout=120)
                    for name, client in (("france", france), ("germany", germany))}
            for name, messages in told.items():
                orders = [m for m in messages if m.startswith("ORD (SPR 1901)")]
                assert "ORD (SPR 1901) ((FRA AMY PAR) MTO BUR) (SUC)" in orders, name
                assert "ORD (SPR 1901) ((GER AMY MUN) MTO RUH) (SUC)" in orders, name
                assert "ORD (SPR 1901) ((GER FLT KIE) MTO HOL) (SUC)" in orders, name
                assert len(orders) == 22, name  # every unit of the board, once
                assert messages[-1].startswith("NOW (FAL 1901)"), name
                assert {"FRA AMY BUR", "GER AMY RUH", "GER FLT HOL"} <= units(messages[-1]), name
            assert [m for m in told["france"] if m.startswith("ORD")] == [m for m in told["germany"]
                                                                          if m.startswith("ORD")]
            france.send("MIS")  # (after the new turn's TME and the CCD of the powers nobody plays)
            assert missing((await france.until("MIS"))[-1]) == {"FRA AMY BUR", "FRA AMY MAR", "FRA FLT BRE"}

            # France's seat taken by a new connection on the other process: the first is sent
            # OFF and closed by its own process, the new one holds the seat
            again = await DaideClient.connect(second.port)
            assert units((await joined(again, game.credentials["FRANCE"]))[-1]) >= {"FRA AMY BUR"}
            assert (await france.until("OFF", timeout=30))[-1] == "OFF"
            await france.closed()
            again.send("MIS")
            assert missing((await again.until("MIS"))[-1]) == {"FRA AMY BUR", "FRA AMY MAR", "FRA FLT BRE"}
            for client in (france, germany, again):
                await client.close()
    finally:
        await store.close()
