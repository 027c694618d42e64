"""normalise_order: the position fills in what order text leaves out (coasts, unit types)."""
from __future__ import annotations

import pytest

from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.normalise import normalise_order
from shared.rules.diplomacy.orders import Build, Move, Unit, UnitType
from shared.rules.diplomacy.parser import parse_order
from shared.rules.diplomacy.phase import Phase
from shared.rules.diplomacy.position import DislodgedUnit, Position, PowerUnit

GAME_MAP = load_map()
A, F = UnitType.ARMY, UnitType.FLEET


def position(*units: str, phase: str = "F1901M", dislodged: tuple[DislodgedUnit, ...] = ()) -> Position:
    """``position("RUSSIA F STP/SC", "ENGLAND A LON")``"""
    placed = {}
    for text in units:
        power, kind, location = text.split()
        unit = Unit(UnitType(kind), location)
        placed[unit.province] = PowerUnit(power, unit)
    return Position(Phase.parse(phase), placed, {}, dislodged)


def normalised(text: str, pos: Position) -> str:
    order = parse_order(text, game_map=GAME_MAP, phase_type=pos.phase.type)
    return str(normalise_order(order, pos, GAME_MAP))


def test_coast_of_the_ordering_fleet_comes_from_the_position():
    pos = position("RUSSIA F STP/SC")
    assert normalised("F STP - BOT", pos) == "F STP/SC - BOT"
    assert normalised("F STP H", pos) == "F STP/SC H"


def test_a_wrong_coast_of_the_ordering_fleet_is_ignored():
    # DATC 4.B.5
    assert normalised("F STP/NC - BOT", position("RUSSIA F STP/SC")) == "F STP/SC - BOT"


def test_single_reachable_coast_is_filled_in():
    # DATC 4.B.2
    assert normalised("F GAS - SPA", position("FRANCE F GAS")) == "F GAS - SPA/NC"
    assert normalised("F MAR - SPA", position("FRANCE F MAR")) == "F MAR - SPA/SC"
    assert normalised("F BLA - BUL", position("RUSSIA F BLA")) == "F BLA - BUL/EC"
    assert normalised("F BOT - STP", position("RUSSIA F BOT")) == "F BOT - STP/SC"


def test_two_reachable_coasts_stay_ambiguous():
    # DATC 4.B.1: the move has no coast and is void
    assert normalised("F MAO - SPA", position("FRANCE F MAO")) == "F MAO - SPA"
    assert normalised("F CON - BUL", position("TURKEY F CON")) == "F CON - BUL"


def test_an_impossible_coast_is_kept_so_that_the_move_fails():
    # DATC 4.B.3
    assert normalised("F GAS - SPA/SC", position("FRANCE F GAS")) == "F GAS - SPA/SC"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("A LON - NTH", "F LON - NTH"),  # wrong type: DATC 4.C.2, the real unit is taken
        ("LON - NTH", "F LON - NTH"),  # omitted type: DATC 4.C.1
        ("F LVP - YOR", "A LVP - YOR"),
        ("A EDI S A LON - NTH", "F EDI S F LON - NTH"),  # supported unit too
        ("F NTH C LVP - NWY", "F NTH C A LVP - NWY"),
    ],
)
def test_unit_type_comes_from_the_position(text, expected):
    pos = position("ENGLAND F LON", "ENGLAND F EDI", "ENGLAND A LVP", "ENGLAND F NTH")
    assert normalised(text, pos) == expected


def test_supported_fleet_gets_its_coast():
    pos = position("RUSSIA F STP/NC", "RUSSIA A FIN")
    assert normalised("A FIN S F STP - NWY", pos) == "A FIN S F STP/NC - NWY"


def test_support_destination_keeps_a_fleets_coast_only():
    pos = position("FRANCE F POR", "FRANCE F MAO", "FRANCE A GAS", "FRANCE A MAR")
    assert normalised("F POR S F MAO - SPA/NC", pos) == "F POR S F MAO - SPA/NC"  # DATC 6.B.9 needs it
    assert normalised("F POR S MAO - SPA/NC", pos) == "F POR S F MAO - SPA/NC"
    # the text named a fleet, the position has an army: the army's support target is a province
    assert normalised("A GAS S F MAR - SPA/SC", pos) == "A GAS S A MAR - SPA"


def test_unknown_units_are_left_as_written():
    assert normalised("A PAR - BUR", position()) == "A PAR - BUR"
    assert normalised("F MAO - SPA", position()) == "F MAO - SPA"


def test_retreats_look_up_the_dislodged_unit():
    dislodged = (DislodgedUnit("RUSSIA", Unit(F, "STP/SC"), attacker_from="LVN", retreats=("BOT",)),)
    pos = position("GERMANY A STP", phase="F1901R", dislodged=dislodged)
    assert normalised("F STP R BOT", pos) == "F STP/SC R BOT"
    assert normalised("F STP - BOT", pos) == "F STP/SC R BOT"
    assert normalised("A STP D", pos) == "F STP/SC D"


def test_builds_are_left_alone():
    # DATC 4.B.7: a fleet built on St Petersburg without a coast must fail, so no coast is guessed
    order = Build(Unit(F, "STP"))
    assert normalise_order(order, position(phase="W1901A"), GAME_MAP) == order


def test_armies_lose_destination_coasts():
    order = Move(Unit(A, "NWY"), "STP/NC")
    assert str(normalise_order(order, position("RUSSIA A NWY"), GAME_MAP)) == "A NWY - STP"


def test_never_raises_on_nonsense():
    assert normalise_order("not an order", position(), GAME_MAP) == "not an order"  # on purpose
    assert normalise_order(Move(Unit(F, "XXX"), "YYY"), None, GAME_MAP) == Move(Unit(F, "XXX"), "YYY")  # on purpose
