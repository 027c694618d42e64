"""The rejoin book's rules (services/daide/rejoin.py), by the clock it is given: IAM keyed by the
game, five wrong passcodes a seat then a lock of a quarter of an hour, the right passcode from
another address counted as wrong, an hour after the HLO and no longer."""
from __future__ import annotations

from services.daide.grants import Grant
from services.daide.rejoin import LOCK_SECONDS, MAX_WRONG_PASSCODES, REJOIN_SECONDS, Held, RejoinBook


def seat(game_id: str, passcode: int = 1234, address: str = "10.0.0.1", port: int | None = None) -> Held:
    return Held(game_id, f"p_{game_id}", "FRANCE", passcode, address, Grant(f"p_{game_id}", "h"), port,
                REJOIN_SECONDS)


def test_iam_is_keyed_by_the_game_and_locks_after_five_wrong_passcodes() -> None:
    book = RejoinBook()
    book.remember(seat("g_one", port=42001), now=0)
    book.remember(seat("g_two", passcode=777, port=42002), now=0)
    # the other game's passcode on this game's port opens nothing
    assert book.attempt(game_id="g_one", port=42001, power="FRANCE", passcode=777, address="10.0.0.1",
                        now=1).held is None
    for n in range(2, MAX_WRONG_PASSCODES):
        assert book.attempt(game_id="g_one", port=42001, power="FRANCE", passcode=n, address="10.0.0.1",
                            now=n).held is None
    right_elsewhere = book.attempt(game_id="g_one", port=42001, power="FRANCE", passcode=1234, address="10.9.9.9",
                                   now=10)
    assert right_elsewhere.held is None and right_elsewhere.locked and right_elsewhere.wrong == MAX_WRONG_PASSCODES
    locked = book.attempt(game_id="g_one", port=42001, power="FRANCE", passcode=1234, address="10.0.0.1", now=11)
    assert locked.held is None and not locked.locked and "refuses IAM" in locked.why
    # the other game's seat is untouched by the lock
    assert book.attempt(game_id="g_two", port=42002, power="FRANCE", passcode=777, address="10.0.0.1",
                        now=12).held is not None
    later = book.attempt(game_id="g_one", port=42001, power="FRANCE", passcode=1234, address="10.0.0.1",
                         now=10 + LOCK_SECONDS + 1)
    assert later.held is not None and later.held.game_id == "g_one"


def test_the_one_port_needs_a_single_seat_for_the_address_and_the_hour_ends() -> None:
    book = RejoinBook()
    book.remember(seat("g_one"), now=0)
    assert book.attempt(game_id=None, port=None, power="FRANCE", passcode=1234, address="10.0.0.1",
                        now=1).held is not None
    book.remember(seat("g_two", passcode=55), now=2)
    both = book.attempt(game_id=None, port=None, power="FRANCE", passcode=1234, address="10.0.0.1", now=3)
    assert both.held is None and "several games" in both.why
    # a game port's seat is not the one port's to give back
    book = RejoinBook()
    book.remember(seat("g_three", port=42003), now=0)
    assert book.attempt(game_id=None, port=None, power="FRANCE", passcode=1234, address="10.0.0.1",
                        now=1).held is None
    assert book.attempt(game_id="g_three", port=42003, power="FRANCE", passcode=1234, address="10.0.0.1",
                        now=REJOIN_SECONDS + 1).held is None
