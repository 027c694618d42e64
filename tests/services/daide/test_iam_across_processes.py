"""``IAM`` on any ``entente daide`` process of one database (docs/bots.md, "Coming back: IAM";
docs/scale.md), on PostgreSQL and on one SQLite file shared by two processes:

- a bot told its passcode by process A drops and comes back by ``IAM`` on process B;
- a seat held by a connection on A, taken by ``IAM`` on B: A sends its connection OFF, and the
  rejoin is recorded as a takeover (the holder's lease in the store);
- wrong passcodes spread over A and B lock the seat at the fifth, and the lock holds on both,
  the right passcode too; the lock is logged and recorded once;
- the passcode is nowhere in the store in clear.
"""
from __future__ import annotations

from shared.events import from_recorded
from shared.events_daide import DaideRejoinLocked, DaideSeatRejoined, daide_stream
from shared.store import EventStore
from tests.conftest import open_store
from tests.services.daide.test_daide_rejoin import iam, joined
from tests.utils.daide_client import tree
from tests.utils.daide_server import entente_daide, seated_game


async def test_a_seat_told_its_passcode_on_one_process_comes_back_on_another(store_url: str) -> None:
    store: EventStore = await open_store(store_url)
    try:
        game = await seated_game(store)
        with entente_daide(store_url) as first, entente_daide(store_url) as second:
            # France's bot is told its passcode by the first process, drops, and comes back on the second
            france, passcode = await joined(first.port, game.credentials["FRANCE"])
            await france.close()
            back, answer = await iam(second.port, "FRA", passcode)
            assert answer == [f"YES (IAM (FRA) ({passcode}))"]
            again = await back.until("NOW")
            assert tree(next(m for m in again if m.startswith("HLO")))[1:3] == [["FRA"], [passcode]]
            back.send("MIS")
            assert (await back.until("MIS"))[-1].startswith("MIS")

            # England's connection on the first process still holds its seat: IAM on the second
            # takes it over, and the first process sends its connection OFF
            england, english = await joined(first.port, game.credentials["ENGLAND"])
            returned, answer = await iam(second.port, "ENG", english)
            assert answer == [f"YES (IAM (ENG) ({english}))"]
            assert (await england.until("OFF", timeout=30))[-1] == "OFF"
            for client in (back, england, returned):
                await client.close()
        logged = first.log() + second.log()
        assert logged.count("daide seat taken back by IAM") == 2
        events = [from_recorded(r) for r in await store.events.read_stream(daide_stream(game.game_id))]
        rows = [await store.rejoins.of_game(game.game_id, power) for power in ("FRANCE", "ENGLAND")]
    finally:
        await store.close()
    # England's connection on the other process held its seat: a takeover (France's had gone,
    # which its process may not have seen yet when the IAM came: not asserted)
    rejoined = [e for e in events if isinstance(e, DaideSeatRejoined)]
    assert [e.power for e in rejoined] == ["FRANCE", "ENGLAND"] and rejoined[1].took_over
    for row, code in zip(rows, (passcode, english), strict=True):  # a salt and a hash, no passcode
        assert row is not None and len(row.passcode_hash) == 32 + 1 + 64 and row.passcode_hash != str(code)


async def test_wrong_passcodes_on_both_processes_lock_the_seat_on_both(store_url: str) -> None:
    store: EventStore = await open_store(store_url)
    try:
        game = await seated_game(store)
        with entente_daide(store_url) as first, entente_daide(store_url) as second:
            france, passcode = await joined(first.port, game.credentials["FRANCE"])
            await france.close()
            wrong = [p for p in range(1, 20) if p != passcode][:5]
            for n, guess in enumerate(wrong):  # first, second, first, second, first
                thief, answer = await iam((first, second)[n % 2].port, "FRA", guess)
                assert answer[0].startswith("ADM") and answer[1] == f"REJ (IAM (FRA) ({guess}))", n
                assert ("now refuses IAM" in answer[0]) == (n == 4), n
                await thief.close()
            for served in (second, first):  # the right passcode: locked on either process
                thief, answer = await iam(served.port, "FRA", passcode)
                assert answer[1] == f"REJ (IAM (FRA) ({passcode}))" and "refuses IAM" in answer[0]
                await thief.close()
        logged = first.log() + second.log()
        assert logged.count("daide IAM refused") == 7
        events = [from_recorded(r) for r in await store.events.read_stream(daide_stream(game.game_id))]
    finally:
        await store.close()
    locked = [e for e in events if isinstance(e, DaideRejoinLocked)]
    assert [(e.power, e.player_id, e.wrong) for e in locked] == [("FRANCE", game.player_ids["FRANCE"], 5)]
    assert not [e for e in events if isinstance(e, DaideSeatRejoined)]
