"""The fast reader of the canonical notation gives exactly what the general parser gives, for
every text it accepts, and leaves every other text to the general parser."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.orders import Move, Unit, UnitType
from shared.rules.diplomacy.parser import _parse, parse_order
from shared.rules.diplomacy.parser.canonical import read_canonical
from shared.rules.diplomacy.parser.errors import ParseError, Stumble
from shared.rules.diplomacy.phase import PhaseType
from shared.rules.diplomacy.possible import possible_orders_all
from tests.utils.random_play import random_play

STANDARD = load_map("standard")
PHASE_TYPES = [None, PhaseType.MOVEMENT, PhaseType.RETREATS, PhaseType.ADJUSTMENTS]
LOCATIONS = sorted({loc for p in STANDARD.provinces for loc in (p, *STANDARD.fleet_locations(p))})


def general(text: str, phase_type: PhaseType | None):
    """The general parser alone (what parse_order does when the fast reader declines)."""
    try:
        return _parse(text, STANDARD, phase_type, None)
    except Stumble as stumble:
        return stumble.to_error(text)


def test_every_possible_order_of_random_games_reads_the_same_both_ways() -> None:
    checked = 0
    for position, _, _ in random_play(seed=11, phases=40):
        for menus in possible_orders_all(position, STANDARD).values():
            for orders in menus.values():
                for order in orders:
                    text = str(order)
                    fast = read_canonical(text, STANDARD, position.phase.type)
                    assert fast is not None, text
                    assert fast == general(text, position.phase.type) == order, text
                    checked += 1
    assert checked > 5_000


def test_it_declines_what_is_not_exactly_canonical() -> None:
    for text in ("a par - bur", "A PAR  - BUR", "A PAR -> BUR", "Army Paris to Burgundy", "A PAR - XYZ",
                 "A STP/NC - MOS", "F STP/XC - BOT", "D LON - NTH", "A PAR S A MAR - SPA/NC", "ENG: A LON H",
                 "(FRA AMY PAR) HLD", "A PAR", "", "WAIVE ", "F NTH C A LON - NWY/NC"):
        assert read_canonical(text, STANDARD, PhaseType.MOVEMENT) is None, text
    assert parse_order("Army Paris to Burgundy", game_map=STANDARD) == Move(Unit(UnitType.ARMY, "PAR"), "BUR")


words = st.sampled_from(["A", "F", "D", "H", "B", "R", "-", "S", "C", "VIA", "WAIVE", "XYZ", "a"] + LOCATIONS)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(words, min_size=1, max_size=7), st.sampled_from(PHASE_TYPES))
def test_whatever_it_accepts_the_general_parser_reads_the_same(tokens: list[str], phase_type) -> None:
    text = " ".join(tokens)
    fast = read_canonical(text, STANDARD, phase_type)
    if fast is not None:
        reading = general(text, phase_type)
        assert not isinstance(reading, ParseError), (text, reading)
        assert fast == reading, text


def test_shaped_like_orders_more_often() -> None:
    """Random texts of the canonical shapes, many of them with wrong pieces."""
    rng = random.Random(5)
    shapes = ["{u} {l} H", "{u} {l} - {l}", "{u} {l} - {l} VIA", "{u} {l} S {u} {l}", "{u} {l} S {u} {l} - {l}",
              "{u} {l} C {u} {l} - {l}", "{u} {l} R {l}", "{u} {l} D", "{u} {l} B"]
    for _ in range(5000):
        shape = rng.choice(shapes)
        text = shape.format_map(_Random(rng))
        phase_type = rng.choice(PHASE_TYPES)
        fast = read_canonical(text, STANDARD, phase_type)
        if fast is not None:
            assert fast == general(text, phase_type), text


class _Random(dict):
    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def __missing__(self, key: str) -> str:
        return self.rng.choice(["A", "F"]) if key == "u" else self.rng.choice(LOCATIONS)
