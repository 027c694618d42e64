"""A port per game open to DAIDE bots, on a real ``entente daide --game-ports`` (SQLite and
PostgreSQL): seven clients that name only themselves (``NME ('Albert') ('v6.0.1')``, as the
field's bots do) take the seven seats on the game's port, are sent HLO when the host starts,
play 1901 and 1902 with every answer checked, and are told the end; the port then answers FM. The summary
shows the port and the DAIDE seats while the game is open, and a full game refuses an eighth.
"""
from __future__ import annotations

import asyncio

from services.lobby.service import start_game
from shared.game.repository import read_game
from shared.store import EventStore
from tests.conftest import open_store
from tests.services.daide.test_daide_game import CODES, orders_for, turn_of
from tests.utils.daide_client import DaideClient, tree
from tests.utils.daide_server import daide_game, entente_daide, game_port_range
from tests.utils.wait import until

ALBERT = "NME ('Albert') ('v6.0.1')"


async def port_of(store: EventStore, game_id: str) -> int:
    async def recorded() -> int | None:
        state = await read_game(store, game_id)
        return state.daide_port if state is not None else None
    return await until(recorded, 15, "the DAIDE server to open the game's port")


async def seated_by_name(port: int) -> DaideClient:
    client = await DaideClient.connect(port)
    await client.hello()
    client.send(ALBERT)
    assert await client.receive() == f"YES ({ALBERT})"
    assert await client.receive() == "MAP ('STANDARD')"
    client.send("YES (MAP ('STANDARD'))")
    return client


async def play_1901(client: DaideClient) -> tuple[str, list[str]]:
    """From HLO to the first NOW of 1903, 1901 scripted (every unit holds in 1902); then DRW, to OFF."""
    seen = await client.until("NOW", timeout=60)
    hlo = tree(next(m for m in seen if m.startswith("HLO")))
    code = hlo[1][0]
    assert 1 <= hlo[2][0] <= 8190
    while turn_of(seen[-1]) != "SPR 1903":
        orders = orders_for(code, seen[-1])
        if orders:
            client.send("SUB " + " ".join(orders))
        seen += await client.until("NOW", timeout=60)
    client.send("DRW")
    seen += await client.until("OFF", timeout=60)
    return code, seen


async def test_seven_unmodified_bots_take_the_seats_on_the_games_port_and_play_to_1903(store_url: str) -> None:
    store: EventStore = await open_store(store_url)
    try:
        game_id = await daide_game(store)
        with entente_daide(store_url, "--game-ports", game_port_range(4)) as served:
            port = await port_of(store, game_id)
            assert port != served.port and 42000 <= port < 43000
            bots = [await seated_by_name(port) for _ in CODES]
            full = await DaideClient.connect(port)
            await full.hello()
            full.send(ALBERT)
            why = await full.receive()
            assert why.startswith("ADM") and "full" in why
            assert await full.receive() == f"REJ ({ALBERT})"
            await full.close()
            watcher = await DaideClient.connect(port)
            await watcher.hello()
            watcher.send("OBS")
            assert await watcher.receive() == "YES (OBS)"
            await watcher.until("MAP")
            watcher.send("YES (MAP ('STANDARD'))")

            forming = await read_game(store, game_id)
            assert forming is not None
            summary = forming.summary()
            assert summary["daide_port"] == port and summary["players"] == 7
            assert summary["daide_seats"] == summary["codenames"]
            await start_game(store, game_id)
            played = dict(await asyncio.gather(*(play_1901(bot) for bot in bots)))
            assert sorted(played) == sorted(CODES.values())
            for bot in bots:
                assert await bot.closed() == b"\x03\x00\x00\x00"
                await bot.close()
            assert any(m.startswith("NOW (SPR 1903)") for m in await watcher.until("OFF", timeout=30))
            await watcher.close()

            late = await DaideClient.connect(port)  # the game has ended: the port answers FM
            assert (await late.closed())[:4] == b"\x03\x00\x00\x00"
            await late.close()
        ended = await read_game(store, game_id)
    finally:
        await store.close()
    assert ended is not None and ended.status == "finished" and ended.finish_reason == "draw"
    assert ended.summary()["daide_port"] is None
    assert all(seat["daide"] for seat in ended.summary()["powers"].values())
    france = played["FRA"]
    assert "ORD (SPR 1901) ((FRA AMY PAR) MTO BUR) (SUC)" in france
    assert "ORD (FAL 1901) ((GER AMY MUN) SUP (GER AMY RUH) MTO BUR) (SUC)" in france
    assert "ORD (AUT 1901) ((FRA AMY BUR) RTO PIC) (SUC)" in france
    assert "THX ((ENG AMY LVP) BLD) (NMB)" in played["ENG"]
    assert "ORD (FAL 1902) ((FRA AMY PIC) HLD) (SUC)" in france
    assert any(m.startswith("NOW (SPR 1903)") and "(FRA AMY PIC)" in m for m in france)
    smr = tree(next(m for m in france if m.startswith("SMR")))
    assert {entry[0]: entry[3] for entry in smr[2:]} == {
        "AUS": 3, "ENG": 4, "FRA": 4, "GER": 4, "ITA": 3, "RUS": 4, "TUR": 3}
    assert all("Albert" not in m for messages in played.values() for m in messages)  # a bot's name is never shown
