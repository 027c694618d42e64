"""Coming back with IAM, and revocation, on a real ``entente daide`` (SQLite and PostgreSQL):

- a seat's owner takes it back with its HLO's passcode, and the takeover is recorded for it;
- a guesser behind the same address (the NAT of the security report) never gets the seat: five
  wrong passcodes lock the seat's IAM (the right passcode too), logged and recorded;
- a seat played in two games from one address cannot be taken by IAM on the one port;
- a revoked bot token's connection is closed within a second, and IAM with its passcode refused;
- a seat the host removes before the start loses its DAIDE connection.
"""
from __future__ import annotations

import asyncio
import time

from services.accounts.service import issue_bot_token, revoke_bot_token
from services.lobby.service import remove_seat
from shared.events import from_recorded
from shared.events_daide import DaideRejoinLocked, DaideSeatRejoined, daide_stream
from shared.store import EventStore
from tests.conftest import open_store
from tests.utils.daide_client import DaideClient, tree
from tests.utils.daide_server import entente_daide, seated_game


async def joined(port: int, credential: str) -> tuple[DaideClient, int]:
    """A seat's connection that has its HLO: the client and the passcode."""
    client = await DaideClient.connect(port)
    await client.hello()
    client.send(f"NME ('{credential}') ('owner 1.0')")
    await client.until("MAP")
    client.send("YES (MAP ('STANDARD'))")
    seen = await client.until("NOW")
    hlo = tree(next(m for m in seen if m.startswith("HLO")))
    return client, int(hlo[2][0])


async def iam(port: int, power: str, passcode: int) -> tuple[DaideClient, list[str]]:
    client = await DaideClient.connect(port)
    await client.hello()
    client.send(f"IAM ({power}) ({passcode})")
    first = await client.receive()
    return client, [first] if first.startswith("YES") else [first, await client.receive()]


async def daide_events(store: EventStore, game_id: str) -> list[object]:
    return [from_recorded(r) for r in await store.events.read_stream(daide_stream(game_id))]


async def test_iam_takes_a_seat_back_once_and_a_guesser_is_locked_out(store_url: str) -> None:
    store: EventStore = await open_store(store_url)
    try:
        game = await seated_game(store)
        with entente_daide(store_url) as served:
            owner, passcode = await joined(served.port, game.credentials["FRANCE"])
            back, answer = await iam(served.port, "FRA", passcode)
            assert answer == [f"YES (IAM (FRA) ({passcode}))"]
            again = await back.until("NOW")
            assert tree(next(m for m in again if m.startswith("HLO")))[1:3] == [["FRA"], [passcode]]
            told = await owner.until("OFF")
            assert any("taken over" in m for m in told)  # the first connection is told, then OFF
            await back.close()

            wrong = [p for p in range(1, 20) if p != passcode][:5]
            for guess in wrong:
                thief, answer = await iam(served.port, "FRA", guess)
                assert answer[0].startswith("ADM") and answer[1] == f"REJ (IAM (FRA) ({guess}))"
                await thief.close()
            thief, answer = await iam(served.port, "FRA", passcode)  # the right one: the seat is locked
            assert answer[1] == f"REJ (IAM (FRA) ({passcode}))" and "refuses IAM" in answer[0]
            await thief.close()
            # the rest of the game is untouched: another seat comes back with its own passcode
            england, english = await joined(served.port, game.credentials["ENGLAND"])
            await england.close()
            returned, answer = await iam(served.port, "ENG", english)
            assert answer == [f"YES (IAM (ENG) ({english}))"]
            await returned.close()
        logged = served.log()
        assert logged.count("daide IAM refused") >= 6 and "daide seat taken back by IAM" in logged
        events = await daide_events(store, game.game_id)
    finally:
        await store.close()
    rejoined = [e for e in events if isinstance(e, DaideSeatRejoined)]
    assert [(e.power, e.took_over) for e in rejoined] == [("FRANCE", True), ("ENGLAND", False)]
    locked = [e for e in events if isinstance(e, DaideRejoinLocked)]
    assert [(e.power, e.player_id, e.wrong) for e in locked] == [("FRANCE", game.player_ids["FRANCE"], 5)]


async def test_iam_on_the_one_port_needs_a_single_game_for_the_address(sqlite_url: str) -> None:
    store: EventStore = await open_store(sqlite_url)
    try:
        first, second = await seated_game(store), await seated_game(store)
        with entente_daide(sqlite_url) as served:
            one, code_one = await joined(served.port, first.credentials["FRANCE"])
            two, _ = await joined(served.port, second.credentials["FRANCE"])
            client, answer = await iam(served.port, "FRA", code_one)
            assert answer[1].startswith("REJ (IAM") and "several games" in answer[0]
            for connection in (client, one, two):
                await connection.close()
    finally:
        await store.close()


async def test_revocation_closes_the_daide_connection_and_iam_rechecks(store_url: str) -> None:
    store: EventStore = await open_store(store_url)
    try:
        game = await seated_game(store)
        issued = await issue_bot_token(store, game.game_id, game.player_ids["GERMANY"], "daide bot")
        forming = await seated_game(store, start=False)
        with entente_daide(store_url) as served:
            bot, passcode = await joined(served.port, issued.token)
            await revoke_bot_token(store, game.game_id, game.player_ids["GERMANY"], issued.bot.token_id)
            revoked_at = time.monotonic()
            told = await bot.until("OFF", timeout=5)
            assert any("revoked" in m for m in told)
            assert (await bot.closed())[:1] == b"\x03"  # the FM, then closed
            assert time.monotonic() - revoked_at < 1.5
            again, answer = await iam(served.port, "GER", passcode)
            assert answer[1] == f"REJ (IAM (GER) ({passcode}))" and "revoked" in answer[0]
            await again.close()

            waiting = await DaideClient.connect(served.port)
            await waiting.hello()
            credential = next(iter(forming.credentials.values()))
            waiting.send(f"NME ('{credential}') ('v')")
            await waiting.until("MAP")
            waiting.send("YES (MAP ('STANDARD'))")
            await asyncio.sleep(0.3)
            await remove_seat(store, forming.game_id, next(iter(forming.player_ids.values())))
            told = await waiting.until("OFF", timeout=5)
            assert any("removed" in m for m in told)
            assert (await waiting.closed())[:1] == b"\x03"
    finally:
        await store.close()
