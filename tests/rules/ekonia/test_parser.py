"""The order notation (rule 70): every form read and written back, and errors that name the word."""
from __future__ import annotations

import pytest

from shared.rules.ekonia.orders import Buy, Move, Spy
from shared.rules.ekonia.parser import ParseError, parse_order
from tests.utils.ekonia_board import small_board

BOARD = small_board()

CANONICAL = [
    "BUY 2 INFANTRY AT alpha",
    "BUY 1 CAVALRY AT alpha",
    "BUY 1 TRIREME AT alpha",
    "BUY 1 TRANSPORT AT alpha -> sea-west",
    "BUY 1 AIRSHIP AT alpha",
    "FORT a-field",
    "SHIPYARD alpha",
    "GASVENT alpha",
    "MOVE 3 INFANTRY alpha -> a-field",
    "MOVE 1 CAVALRY alpha -> mid-one -> mid-two",
    "MOVE 1 TRIREME sea-west -> sea-east",
    "BOMBARD 2 TRIREME sea-west -> mid-one",
    "LOAD 2 INFANTRY alpha -> sea-west",
    "UNLOAD 1 CAVALRY sea-east -> beta",
    "DROP 3 INFANTRY alpha -> mid-three",
    "REBASE 1 AIRSHIP alpha -> a-field",
    "MORALE 2",
    "SPY INVESTIGATE beta",
    "SPY INVESTIGATE FLEET beta",
    "SPY MAP BETA",
    "SPY RECORDS GAMMA",
    "SPY COUNTER BETA",
    "SPY COUNTER ALL",
    "HIDE CITIES 3",
    "HIDE CITIES 5",
    "HIDE 2 INFANTRY AT mid-three",
    "GIVE 20 TO BETA",
    "EXPECT 15 FROM GAMMA",
    "WAR ON BETA",
    "PEACE WITH BETA",
    "TRADE WITH GAMMA",
    "END TRADE WITH GAMMA",
    "SPARE BETA",
    "HUNT BETA",
    "PRIVATEER 2 TRIREME AT sea-west",
    "RAZE mid-two",
    "DISBAND 1 INFANTRY AT alpha",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_round_trips(text):
    order = parse_order(text, BOARD)
    assert not isinstance(order, ParseError), order
    assert order.text() == text


def test_loose_spelling_reads_to_the_canonical_form():
    loose = parse_order("move 3 infantries Alpha → A Field", BOARD)
    assert not isinstance(loose, ParseError), loose
    assert loose.text() == "MOVE 3 INFANTRY alpha -> a-field"
    assert parse_order("buy cavalry at ALPHA", BOARD) == Buy(1, "CAVALRY", "alpha")
    assert parse_order("Buy 2 Triremes at Mid Two", BOARD) == Buy(2, "TRIREME", "mid-two")
    assert parse_order("spy investigate Sea_West", BOARD) == Spy("INVESTIGATE", "sea-west")
    assert parse_order("MOVE 2 CAVALRY alpha->mid-two", BOARD) == Move(2, "CAVALRY", ("alpha", "mid-two"))


@pytest.mark.parametrize("text, reason, word", [
    ("", "empty order", None),
    ("BUY 2 DRAGON AT alpha", "expected a unit type", "DRAGON"),
    ("BUY 2 INFANTRY IN alpha", "expected AT", "IN"),
    ("MOVE 3 INFANTRY alpha a-field", "no territory called 'alpha a-field'", "alpha"),
    ("MOVE 3 INFANTRY alpha -> atlantis", "no territory called 'atlantis'", "atlantis"),
    ("MOVE 0 INFANTRY alpha -> a-field", "expected a count from 1 to 1000", "0"),
    ("MOVE 1001 INFANTRY alpha -> a-field", "expected a count from 1 to 1000", "1001"),
    ("MOVE ² INFANTRY alpha -> a-field", "expected a count written with the digits 0-9", "²"),
    ("EXPECT 1000000000000000000000000000000 FROM BETA", "expected an amount of gold from 1 to 100000",
     "1000000000000000000000000000000"),
    ("EXPECT 10^30 FROM BETA", "expected an amount of gold", "10^30"),
    ("GIVE ¹⁰ TO BETA", "expected an amount of gold written with the digits 0-9", "¹⁰"),
    ("ATTACK beta", "expected PRIVATEERS", "beta"),
    ("GIVE ten TO BETA", "expected an amount of gold", "ten"),
    ("GIVE 10 TO NARNIA", "expected a state", "NARNIA"),
    ("MORALE 4", "expected a morale level from 1 to 3", "4"),
    ("HIDE CITIES 4", "hidden strength rises by 3 or by 5", "4"),
    ("HIDE 2 CAVALRY AT mid-three", "expected a unit type: INFANTRY", "CAVALRY"),
    ("SPY STEAL BETA", "expected INVESTIGATE or MAP or RECORDS or COUNTER", "STEAL"),
    ("DROP 3 CAVALRY alpha -> mid-one", "expected a unit type: INFANTRY", "CAVALRY"),
    ("FORT alpha now", "no territory called 'alpha now'", "alpha"),
    ("WAR BETA", "expected ON", "BETA"),
    ("PEACE WITH BETA please", "unexpected words after the order", "please"),
])
def test_errors_say_what_and_where(text, reason, word):
    error = parse_order(text, BOARD)
    assert isinstance(error, ParseError)
    assert error.reason.startswith(reason)
    assert error.where == word


@pytest.mark.parametrize("junk", [None, 42, "->", "MOVE", "MOVE 3", "BUY 2 INFANTRY AT", "->->->",
                                  "SPY COUNTER", "END", "END TRADE", "GIVE 5", "TRADE WITH"])
def test_the_parser_never_raises(junk):
    assert isinstance(parse_order(junk, BOARD), ParseError)
