"""Bad input on games' own DAIDE ports (a real ``entente daide --game-ports``): NME twice, a
client that never names itself, a flood, IAM guessed at, a seat the host removes, a game that
ends while a bot is connected and a bot that comes to its port afterwards. Each is answered
(REJ with an ADM, OFF, an FM and a closed connection), no seat is taken twice, the game on the
next port plays on, and a port is not handed to another game soon after its game ended.
"""
from __future__ import annotations

import struct

from services.lobby.service import finish_game, remove_seat, start_game
from shared.game.repository import read_game
from shared.store import EventStore
from tests.conftest import open_store
from tests.services.daide.test_daide_game_ports import ALBERT, port_of, seated_by_name
from tests.utils.daide_client import DaideClient, tree
from tests.utils.daide_server import daide_game, entente_daide, game_port_range
from tests.utils.wait import until

LIMITS = ("--im-seconds", "1", "--join-seconds", "1.5", "--rate", "5", "--burst", "20", "--max-per-address", "12")


async def answers_fm(port: int) -> bool:
    """A new connection to ``port`` is sent an FM and closed (an ended game's port), before any IM."""
    client = await DaideClient.connect(port)
    try:
        return await client.closed(timeout=1) == b"\x03\x00\x00\x00"
    except TimeoutError:
        return False
    finally:
        await client.close()


async def refused(client: DaideClient, sent: str) -> str:
    """The ADM saying why, then REJ of what was sent."""
    why = await client.receive()
    assert why.startswith("ADM"), why
    assert await client.receive() == f"REJ ({sent})"
    return why


async def test_bad_input_on_game_ports_never_takes_a_seat_twice_nor_touches_another_game(sqlite_url: str) -> None:
    store: EventStore = await open_store(sqlite_url)
    try:
        first = await daide_game(store)
        second = await daide_game(store, house_bot="heuristic", bots_fill_empty_seats=True)
        with entente_daide(sqlite_url, "--game-ports", game_port_range(3), *LIMITS) as served:
            port, other = await port_of(store, first), await port_of(store, second)
            assert port != other

            # NME twice: refused, one seat
            seated = await seated_by_name(port)
            seated.send(ALBERT)
            assert "joined" in await refused(seated, ALBERT)
            assert (await read_game(store, first)).summary()["players"] == 1  # type: ignore[union-attr]
            # IAM for a seat never played: refused
            stranger = await DaideClient.connect(port)
            await stranger.hello()
            stranger.send("IAM (FRA) (1)")
            await refused(stranger, "IAM (FRA) (1)")
            # never names itself: OFF after the join timer; floods: an FM
            idle = await DaideClient.connect(port)
            await idle.hello()
            assert (await idle.until("OFF", timeout=10))[-1] == "OFF"
            assert (await idle.closed())[:1] == b"\x03"
            flood = await DaideClient.connect(port)
            await flood.hello()
            flood.raw(b"".join(struct.pack(">BBHH", 2, 0, 2, 0x480A) for _ in range(200)))
            assert (await flood.closed()).endswith(b"\x03\x00\x00\x00")

            # the other game: two bots, one removed by the host (closed), its place taken again
            bots = [await seated_by_name(other), await seated_by_name(other)]
            forming = await read_game(store, second)
            assert forming is not None and len(forming.summary()["daide_seats"]) == 2
            await remove_seat(store, second, forming.summary()["daide_seats"][0])
            gone = next(b for b in bots if not b.reader.at_eof())
            told = []
            for bot in bots:
                try:
                    told.append(await bot.until("OFF", timeout=3))
                except TimeoutError:
                    continue
            assert len(told) == 1 and any("removed" in m for m in told[0])
            kept = [b for b in bots if not b.seen or b.seen[-1] != "OFF"]
            assert len(kept) == 1 and gone is not None
            kept.append(await seated_by_name(other))
            await start_game(store, second)  # two DAIDE seats and five house bots
            powers = []
            for bot in kept:
                seen = await bot.until("NOW")
                powers.append(tree(next(m for m in seen if m.startswith("HLO")))[1][0])
            assert len(set(powers)) == 2
            started = await read_game(store, second)
            assert started is not None
            seats = started.summary()["powers"]
            assert sum(s["daide"] for s in seats.values()) == 2 and sum(s["house_bot"] for s in seats.values()) == 5

            # IAM guessed at on the game's port: five wrong, then the seat refuses even the right one
            hlo = tree(next(m for m in kept[0].seen if m.startswith("HLO")))
            code, passcode = hlo[1][0], hlo[2][0]
            for guess in [p for p in range(1, 10) if p != passcode][:5] + [passcode]:
                thief = await DaideClient.connect(other)
                await thief.hello()
                thief.send(f"IAM ({code}) ({guess})")
                await refused(thief, f"IAM ({code}) ({guess})")
                await thief.close()
            kept[0].send("NOW")
            assert (await kept[0].until("NOW"))[-1].startswith("NOW (SPR 1901)")  # the seat's own bot plays on

            # the first game ends: its bot is told and closed, its port answers FM from then on
            await finish_game(store, first, "abandoned")
            assert (await seated.until("OFF", timeout=10))[-1] == "OFF"
            assert (await seated.closed())[-4:] == b"\x03\x00\x00\x00"
            await until(lambda: answers_fm(port), what="the ended game's port to answer FM")
            ended = await read_game(store, first)
            assert ended is not None and ended.summary()["daide_port"] is None
            kept[1].send("NOW")
            assert (await kept[1].until("NOW"))[-1].startswith("NOW (SPR 1901)")
            for bot in kept:
                await bot.close()
        log = served.log()
        assert "daide IAM refused" in log
    finally:
        await store.close()


async def test_a_port_is_not_given_to_another_game_soon_after_its_game_ended(sqlite_url: str) -> None:
    store: EventStore = await open_store(sqlite_url)
    try:
        first = await daide_game(store)
        with entente_daide(sqlite_url, "--game-ports", game_port_range(1)) as served:
            port = await port_of(store, first)
            second = await daide_game(store)  # no port free for it: it waits
            bot = await seated_by_name(port)
            await finish_game(store, first, "abandoned")
            await bot.until("OFF", timeout=10)
            await bot.close()
            await until(lambda: answers_fm(port), what="the ended game's port to answer FM")  # not the new game's
            waiting = await read_game(store, second)
            assert waiting is not None and waiting.daide_port is None
        assert "no free daide game port" in served.log()
    finally:
        await store.close()
