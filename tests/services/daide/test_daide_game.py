"""Seven DAIDE clients play a hosted standard game on a real ``entente daide``, on SQLite and on
PostgreSQL: from NME through 1901 (a bounce, a dislodgement and its retreat, builds, a waive)
to a draw all seven vote for, and the SMR. Every message the server sends is checked against
the DAIDE syntax by the test client (tests/utils/daide_client.py, written from the documents),
and the game's own log shows the DAIDE seats' orders as any seat's.
"""
from __future__ import annotations

import asyncio

from shared.events import OrdersSubmitted, from_recorded
from shared.game.repository import read_game
from shared.store import EventStore
from tests.conftest import open_store
from tests.utils.daide_client import DaideClient, tree, units_in, written
from tests.utils.daide_server import entente_daide, seated_game

CODES = {"AUSTRIA": "AUS", "ENGLAND": "ENG", "FRANCE": "FRA", "GERMANY": "GER", "ITALY": "ITA", "RUSSIA": "RUS",
         "TURKEY": "TUR"}

# what each power orders, by turn; a power not named in a movement turn holds every unit
SCRIPT: dict[str, dict[str, list[str]]] = {
    "SPR 1901": {
        "AUS": ["((AUS AMY VIE) MTO GAL)"],
        "RUS": ["((RUS AMY WAR) MTO GAL)"],
        "FRA": ["((FRA AMY PAR) MTO BUR)", "((FRA FLT BRE) MTO MAO)"],
        "GER": ["((GER AMY MUN) MTO RUH)", "((GER AMY BER) MTO MUN)", "((GER FLT KIE) MTO DEN)"],
        "ENG": ["((ENG FLT EDI) MTO NWG)", "((ENG AMY LVP) MTO YOR)"],
    },
    "FAL 1901": {
        "GER": ["((GER AMY RUH) MTO BUR)", "((GER AMY MUN) SUP (GER AMY RUH) MTO BUR)"],
        # France's army in Burgundy tries Marseilles (its own army holds there): it bounces and is dislodged
        "FRA": ["((FRA FLT MAO) MTO POR)", "((FRA AMY BUR) MTO MAR)"],
        "ENG": ["((ENG FLT NWG) MTO NWY)"],
    },
    "AUT 1901": {"FRA": ["((FRA AMY BUR) RTO PIC)"]},
    "WIN 1901": {
        "ENG": ["((ENG FLT EDI) BLD)", "((ENG AMY LVP) BLD)"],  # one build allowed: the second is NMB
        "GER": ["((GER FLT KIE) BLD)"],
        "FRA": ["((FRA AMY PAR) BLD)"],
    },
}


def turn_of(now: str) -> str:
    season, year = tree(now)[1]
    return f"{season} {year}"


def orders_for(code: str, now: str) -> list[str] | None:
    turn = turn_of(now)
    scripted = SCRIPT.get(turn, {}).get(code)
    if not turn.startswith(("SPR", "FAL")):
        return scripted
    ordered = {o.split(")")[0] + ")" for o in scripted or []}
    holds = [f"({written(u)} HLD)" for u in units_in(now, code) if f"({written(u)}" not in ordered]
    return [*(scripted or []), *holds]


async def play(client: DaideClient, code: str, credential: str, retreats_asked: asyncio.Event) -> list[str]:
    """One seat's whole game: join, play every scripted turn, vote for the draw, to OFF. In the
    autumn's retreats only France orders; Austria, with nothing to order, says GOF first (it is
    accepted: a GOF is refused only before the start and after the end)."""
    await client.hello()
    client.send(f"NME ('{credential}') ('test bot 1.0')")
    assert (await client.receive()).startswith("YES (NME")
    assert await client.receive() == "MAP ('STANDARD')"
    client.send("MDF")
    assert (await client.receive()).startswith("MDF (AUS ENG FRA GER ITA RUS TUR)")
    client.send("YES (MAP ('STANDARD'))")
    seen = await client.turn()
    hlo = next(m for m in seen if m.startswith("HLO"))
    assert tree(hlo)[1] == [code]
    if code == "FRA":  # a wrong order first, then one for another power's unit: FAR, NYU, and nothing stored
        client.send("SUB ((FRA AMY PAR) MTO MUN) ((ENG FLT LON) MTO NTH)")
        assert await client.receive() == "THX ((FRA AMY PAR) MTO MUN) (FAR)"
        assert await client.receive() == "THX ((ENG FLT LON) MTO NTH) (NYU)"
        client.send("MIS")
        assert await client.receive() == "MIS (FRA AMY MAR) (FRA AMY PAR) (FRA FLT BRE)"
    while turn_of(now := [m for m in seen if m.startswith("NOW")][-1]) != "SPR 1902":
        if code == "ENG" and turn_of(now) == "WIN 1901":  # one build owed: the document's sign is -1
            client.send("MIS")
            seen.append(await client.receive())
            assert seen[-1] == "MIS (-1)"
        if turn_of(now) == "AUT 1901" and code == "AUS":
            client.send("GOF")
            seen.append(await client.receive())
            assert seen[-1] == "YES (GOF)"
            retreats_asked.set()
        if turn_of(now) == "AUT 1901" and code == "FRA":
            await asyncio.wait_for(retreats_asked.wait(), 30)
        orders = orders_for(code, now)
        if orders:
            client.send("SUB " + " ".join(orders))
        seen += await client.turn(timeout=60)
    client.send("DRW")
    seen += await client.until("OFF", timeout=60)
    return seen


async def test_seven_daide_clients_play_1901_to_a_draw(store_url: str) -> None:
    url = store_url
    store: EventStore = await open_store(url)
    try:
        game = await seated_game(store)
        with entente_daide(url) as served:
            clients = {power: await DaideClient.connect(served.port) for power in CODES}
            asked = asyncio.Event()
            seen = dict(zip(CODES, await asyncio.gather(
                *(play(clients[p], CODES[p], game.credentials[p], asked) for p in CODES)), strict=True))
            for client in clients.values():
                assert await client.closed() == b"\x03\x00\x00\x00"  # the server's FM, then it closes
                await client.close()
        state = await read_game(store, game.game_id)
        assert state is not None and state.status == "finished" and state.finish_reason == "draw"
        records = await store.events.read_streams(f"orders-{game.game_id}-")
    finally:
        await store.close()

    france = seen["FRANCE"]
    assert "ORD (SPR 1901) ((AUS AMY VIE) MTO GAL) (BNC)" in france
    assert "ORD (SPR 1901) ((RUS AMY WAR) MTO GAL) (BNC)" in france
    assert "ORD (SPR 1901) ((FRA AMY PAR) MTO BUR) (SUC)" in france
    assert "ORD (FAL 1901) ((GER AMY MUN) SUP (GER AMY RUH) MTO BUR) (SUC)" in france
    assert "ORD (FAL 1901) ((FRA AMY BUR) MTO MAR) (BNC RET)" in france  # a move's own province is BUR
    # one ORD for each unit: a unit that moved is not also reported holding
    assert "ORD (SPR 1901) ((FRA AMY PAR) HLD) (SUC)" not in france
    assert len([m for m in france if m.startswith("ORD (SPR 1901)")]) == 22
    assert len([m for m in france if m.startswith("ORD (FAL 1901)")]) == 22
    for code, messages in zip(CODES.values(), seen.values(), strict=True):
        # MIS only when asked, never the next turn's after the SUB that completed a turn
        wanted = ["MIS (-1)"] if code == "ENG" else []
        assert [m for m in messages if m.startswith("MIS")] == wanted, code
    retreat_now = next(m for m in france if m.startswith("NOW (AUT 1901)"))
    assert "(FRA AMY BUR MRT (" in retreat_now and "PIC" in retreat_now
    assert "ORD (AUT 1901) ((FRA AMY BUR) RTO PIC) (SUC)" in france
    assert "THX ((ENG AMY LVP) BLD) (NMB)" in seen["ENGLAND"]
    assert "THX ((ENG FLT EDI) BLD) (MBV)" in seen["ENGLAND"]
    assert "ORD (WIN 1901) ((GER FLT KIE) BLD) (SUC)" in france
    winter_sco = [m for m in france if m.startswith("SCO")][-1]
    assert "(ENG EDI LON LVP NWY)" in winter_sco and "(FRA BRE MAR PAR POR)" in winter_sco
    spring = next(m for m in france if m.startswith("NOW (SPR 1902)"))
    assert "(ENG FLT EDI)" in spring and "(FRA AMY PAR)" in spring and "(GER FLT KIE)" in spring
    for messages in seen.values():
        assert "YES (DRW)" in messages
        end = messages[messages.index("DRW"):]
        assert end[0] == "DRW" and end[1].startswith("SMR (SPR 1902)") and end[2] == "OFF"
        smr = tree(end[1])
        assert {entry[0]: entry[3] for entry in smr[2:]} == {
            "AUS": 3, "ENG": 4, "FRA": 4, "GER": 4, "ITA": 3, "RUS": 4, "TUR": 3}
        names = {entry[1][0].strip("'") for entry in smr[2:]}
        assert names == set(state.codenames_by_power().values())  # codenames, never a player's name
        assert all("test bot" not in m for m in messages)  # nor the version a client gave
    # the DAIDE seats' orders are the log's OrdersSubmitted, in our notation
    # and a seat whose every unit is ordered is done: the SUB that completes its orders is one
    # append saying so (a crash between the orders and a separate flag cannot strand the turn)
    spring_france = [from_recorded(r) for r in records[f"orders-{game.game_id}-S1901M-FRANCE"]]
    assert all(isinstance(e, OrdersSubmitted) for e in spring_france)
    last = spring_france[-1]
    assert isinstance(last, OrdersSubmitted) and last.complete
    assert sorted(last.orders) == ["A MAR H", "A PAR - BUR", "F BRE - MAO"]
