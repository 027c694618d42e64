"""Bad input to a real ``entente daide``: malformed frames, unknown tokens, messages out of order,
silence, floods, too many connections from one address, credentials that open nothing, the
other games. Each is answered as docs/bots.md says (EM and a closed connection for a breach of
the protocol, HUH or PRN for a message the server cannot follow, REJ for one it refuses), and
a game played beside all of it is never disturbed. Nothing a refused client sent is stored.
"""
from __future__ import annotations

import asyncio
import struct

from shared.store import EventStore
from tests.conftest import open_store
from tests.utils.daide_client import DaideClient, tree
from tests.utils.daide_server import entente_daide, seated_game
from tests.utils.wait import until

LIMITS = ("--im-seconds", "1", "--join-seconds", "1.5", "--rate", "5", "--burst", "20", "--max-per-address", "4")


async def error_of(client: DaideClient) -> int:
    """The EM the server answers with, after which it closes the connection."""
    found = await client.frame()
    assert found.kind == 4 and len(found.body) == 2, found
    assert await client.closed() == b""
    return int(struct.unpack(">H", found.body)[0])


async def playing(port: int, credential: str) -> DaideClient:
    client = await DaideClient.connect(port)
    await client.hello()
    client.send(f"NME ('{credential}') ('steady')")
    await client.until("MAP")
    client.send("YES (MAP ('STANDARD'))")
    await client.turn()
    return client


async def still_playing(client: DaideClient) -> None:
    client.send("NOW")
    assert (await client.receive()).startswith("NOW (SPR 1901)")


async def test_bad_input_is_answered_and_never_disturbs_another_game(sqlite_url: str) -> None:
    store: EventStore = await open_store(sqlite_url)
    try:
        game = await seated_game(store)
        other = await seated_game(store, "dirigible")
        forming = await seated_game(store, start=False)
        with entente_daide(sqlite_url, *LIMITS) as served:
            port = served.port
            steady = await playing(port, game.credentials["FRANCE"])

            # the frames: silence, a DM first, a wrong magic number, the wrong byte order, version 2
            silent = await DaideClient.connect(port)
            assert await error_of(silent) == 0x01
            first = await DaideClient.connect(port)
            first.send("NME ('x') ('y')")
            assert await error_of(first) == 0x02
            for magic, version, code in ((0xBEEF, 1, 0x04), (0x10DA, 1, 0x03), (0xDA10, 2, 0x05)):
                wrong = await DaideClient.connect(port)
                wrong.initial(version, magic)
                assert await error_of(wrong) == code
            await still_playing(steady)

            # after the IM: an unknown token, an odd length, an unknown type, an RM, a second IM
            breaches = ((struct.pack(">BBHH", 2, 0, 2, 0x4E99), 0x0E), (struct.pack(">BBH3s", 2, 0, 3, b"abc"), 0x09),
                        (struct.pack(">BBH", 9, 0, 0), 0x08), (struct.pack(">BBH", 1, 0, 0), 0x0D),
                        (struct.pack(">BBHHH", 0, 0, 4, 1, 0xDA10), 0x06))
            for raw, code in breaches:
                bad = await DaideClient.connect(port)
                await bad.hello()
                bad.raw(raw)
                assert await error_of(bad) == code, hex(code)

            # what the server cannot follow: PRN, HUH; what it refuses: REJ; the connection stays
            talker = await DaideClient.connect(port)
            await talker.hello()
            talker.send("NME ((")
            assert await talker.receive() == "PRN (NME (()"
            talker.send("NME (1)")
            assert await talker.receive() == "HUH (NME ERR (1))"
            talker.send("BUR")
            assert await talker.receive() == "HUH (ERR BUR)"
            talker.send("SUB ((FRA AMY PAR) MTO BUR)")
            assert (await talker.receive()).startswith("ADM")
            assert await talker.receive() == "REJ (SUB ((FRA AMY PAR) MTO BUR))"
            talker.send("MDF")
            assert (await talker.receive()).startswith("MDF")

            # credentials that open nothing, three times: OFF and closed
            for credential in ("nobody", f"{game.game_id}/wrong-token", f"{other.game_id}/x"):
                talker.send(f"NME ('{credential}') ('v')")
                assert (await talker.receive()).startswith("ADM")
                assert (await talker.receive()).startswith("REJ (NME")
            assert await talker.receive() == "OFF"
            assert (await talker.closed())[:1] == b"\x03"

            # another variant's seat: refused with the reason
            dirigible = await DaideClient.connect(port)
            await dirigible.hello()
            dirigible.send(f"NME ('{next(iter(other.credentials.values()))}') ('v')")
            reason = await dirigible.receive()
            assert reason.startswith("ADM") and "dirigible" in reason
            assert (await dirigible.receive()).startswith("REJ (NME")
            await dirigible.close()

            # a seat of a game not yet started: YES and MAP, then nothing until the start
            waiting = await DaideClient.connect(port)
            await waiting.hello()
            waiting.send(f"NME ('{next(iter(forming.credentials.values()))}') ('v')")
            assert (await waiting.until("MAP"))[0].startswith("YES (NME")
            waiting.send("YES (MAP ('STANDARD'))")
            waiting.send("HLO")
            assert (await waiting.until("REJ"))[-1] == "REJ (HLO)"
            await waiting.close()

            # a client that never joins a game: OFF after the join timer
            idle = await DaideClient.connect(port)
            await idle.hello()
            assert (await idle.until("OFF", timeout=10))[-1] == "OFF"
            assert (await idle.closed())[:1] == b"\x03"

            # a flood: an FM and a closed connection
            flood = await DaideClient.connect(port)
            await flood.hello()
            flood.raw(b"".join(struct.pack(">BBHH", 2, 0, 2, 0x480A) for _ in range(200)))  # MDF, 200 times
            rest = await flood.closed()
            assert rest.endswith(b"\x03\x00\x00\x00")

            # connections per address: four at once (steady is one), the fifth is refused
            extra = [await DaideClient.connect(port) for _ in range(3)]
            for client in extra:
                await client.hello()
            fifth = await DaideClient.connect(port)
            assert await fifth.closed() == b"\x03\x00\x00\x00"
            await extra[0].close()

            async def admitted() -> DaideClient | None:
                """A connection the server takes (an RM for its IM), or None while it refuses."""
                client = await DaideClient.connect(port)
                try:
                    await client.hello()
                except (AssertionError, asyncio.IncompleteReadError, ConnectionError):
                    await client.close()
                    return None
                return client

            again = await until(admitted, what="the server to free the closed connection's place")
            await again.close()
            for client in extra[1:]:
                await client.close()

            # the game beside it all plays on, and a seat may not order for another power
            await still_playing(steady)
            steady.send("SUB ((ENG FLT LON) MTO NTH)")
            assert await steady.receive() == "THX ((ENG FLT LON) MTO NTH) (NYU)"
            steady.send("HLO")
            assert tree(await steady.receive())[1] == ["FRA"]
            await steady.close()
        streams = await store.events.read_streams(f"orders-{game.game_id}-")
        assert streams == {}  # nothing refused was stored
    finally:
        await store.close()
