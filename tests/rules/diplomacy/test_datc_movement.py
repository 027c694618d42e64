"""DATC 3.0 movement cases 6.A to 6.G, as data in tests/rules/diplomacy/datc/movement.json.

Each case gives the units, every order with its expected result, and (where the document
says) the units after the moves and the dislodged units. Orders are written in the
canonical short notation and read by the small structural reader below, so these cases
do not depend on the order parser.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.movement import resolve_movement
from shared.rules.diplomacy.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
)
from shared.rules.diplomacy.phase import Phase
from shared.rules.diplomacy.position import Position, PowerUnit
from tests.utils.random_play import readable

DATA = Path(__file__).parent / "datc" / "movement.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))

_UNIT = r"([AF]) ([A-Z]{3}(?:/[NSE]C)?)"
_LOC = r"([A-Z]{3}(?:/[NSE]C)?)"
_PATTERNS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Order]]] = [
    (re.compile(rf"^{_UNIT} H$"), lambda m: Hold(_unit(m, 1))),
    (re.compile(rf"^{_UNIT} - {_LOC}( VIA)?$"), lambda m: Move(_unit(m, 1), m[3], via_convoy=bool(m[4]))),
    (re.compile(rf"^{_UNIT} S {_UNIT}$"), lambda m: SupportHold(_unit(m, 1), _unit(m, 3))),
    (re.compile(rf"^{_UNIT} S {_UNIT} - {_LOC}$"), lambda m: SupportMove(_unit(m, 1), _unit(m, 3), m[5])),
    (re.compile(rf"^{_UNIT} C {_UNIT} - {_LOC}$"), lambda m: Convoy(_unit(m, 1), _unit(m, 3), m[5])),
]


def _unit(match: re.Match[str], group: int) -> Unit:
    return Unit(UnitType(match[group]), match[group + 1])


def read_order(text: str) -> Order:
    """The canonical short notation, nothing more: 'A PAR - BUR', 'F NTH C A LON - BEL'."""
    for pattern, build in _PATTERNS:
        match = pattern.match(text)
        if match:
            return build(match)
    raise ValueError(f"not a canonical movement order: {text!r}")


def read_unit(text: str) -> Unit:
    kind, location = text.split()
    return Unit(UnitType(kind), location)


def position_of(case: dict) -> Position:
    units = {}
    for power, texts in case["units"].items():
        for text in texts:
            unit = read_unit(text)
            units[unit.province] = PowerUnit(power, unit)
    return Position(phase=Phase.parse("S1901M"), units=units, centres={})


def orders_of(case: dict) -> dict[str, list[Order]]:
    return {power: [read_order(o["order"]) for o in items] for power, items in case["orders"].items()}


def unit_set(units_by_power: dict[str, list[str]]) -> set[tuple[str, str]]:
    return {(power, text) for power, texts in units_by_power.items() for text in texts}


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_datc(case: dict) -> None:
    outcome = resolve_movement(position_of(case), orders_of(case), load_map("standard"))

    expected = [(power, o["order"], o["result"]) for power, items in case["orders"].items() for o in items]
    actual = [(r.power, str(r.order), r.result) for r in outcome.results]
    assert actual == expected

    if "units_after" in case:
        after = {(pu.power, str(pu.unit)) for pu in outcome.units.values()}
        assert after == unit_set(case["units_after"])
    if "dislodged_after" in case:
        dislodged = [
            {"unit": str(d.unit), "power": d.power, "attacker_from": d.attacker_from} for d in outcome.dislodged
        ]
        expected_dislodged = [
            {key: d[key] for key in ("unit", "power", "attacker_from")} for d in case["dislodged_after"]
        ]
        assert sorted(dislodged, key=str) == sorted(expected_dislodged, key=str)
        for want in case["dislodged_after"]:
            if "retreats" in want:
                got = next(d for d in outcome.dislodged if str(d.unit) == want["unit"])
                assert list(got.retreats) == want["retreats"]


def test_canonical_notation_round_trips() -> None:
    """The reader gives back the text it read: the data is in canonical notation."""
    for case in CASES:
        for items in case["orders"].values():
            for item in items:
                assert str(read_order(item["order"])) == item["order"]


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_datc_through_the_parser(case: dict) -> None:
    """The same cases with the orders read by the real order parser give the same results."""
    from shared.rules.diplomacy.parser import parse_order
    from shared.rules.diplomacy.phase import PhaseType

    game_map = load_map("standard")
    orders = {
        power: [readable(parse_order(o["order"], game_map=game_map, phase_type=PhaseType.MOVEMENT, power=power))
                for o in items]
        for power, items in case["orders"].items()
    }
    outcome = resolve_movement(position_of(case), orders, game_map)
    expected = [o["result"] for items in case["orders"].values() for o in items]
    assert [r.result for r in outcome.results] == expected
