"""Retreat phases: resolve_retreats directly, and the phase that follows through adjudicate."""
from __future__ import annotations

from shared.rules.diplomacy import adjudicate
from shared.rules.diplomacy.orders import Disband, Hold, Move, Order, Retreat, SupportMove, Unit, UnitType
from shared.rules.diplomacy.phase import Phase
from shared.rules.diplomacy.position import DislodgedUnit, Position, PowerUnit
from shared.rules.diplomacy.retreats import resolve_retreats


def army(location: str) -> Unit:
    return Unit(UnitType.ARMY, location)


def fleet(location: str) -> Unit:
    return Unit(UnitType.FLEET, location)


def board(**units: tuple[str, Unit]) -> dict[str, PowerUnit]:
    return {province: PowerUnit(power, unit) for province, (power, unit) in units.items()}


# Italy's army in Vienna and Bohemia were dislodged; Austria stands in Vienna, Germany in Bohemia.
UNITS = board(VIE=("AUSTRIA", army("VIE")), BOH=("GERMANY", army("BOH")), BUD=("AUSTRIA", army("BUD")))
VIE = DislodgedUnit("ITALY", army("VIE"), "TRI", ("GAL", "TYR"))
BOH = DislodgedUnit("ITALY", army("BOH"), "SIL", ("GAL", "TYR"))


def test_a_retreat_to_an_open_province_succeeds_and_the_unit_moves() -> None:
    outcome = resolve_retreats(UNITS, [VIE, BOH], {"ITALY": [Retreat(army("VIE"), "GAL"), Retreat(army("BOH"), "TYR")]})
    assert [r.result for r in outcome.results] == ["succeeds", "succeeds"]
    assert outcome.units["GAL"] == PowerUnit("ITALY", army("GAL"))
    assert outcome.units["TYR"] == PowerUnit("ITALY", army("TYR"))
    assert outcome.disbanded == ()


def test_two_retreats_to_one_province_both_fail_and_disband() -> None:
    outcome = resolve_retreats(UNITS, [VIE, BOH], {"ITALY": [Retreat(army("VIE"), "TYR"), Retreat(army("BOH"), "TYR")]})
    assert [r.result for r in outcome.results] == ["fails", "fails"]
    assert "TYR" not in outcome.units
    assert set(outcome.disbanded) == {VIE, BOH}


def test_retreats_of_different_powers_bounce_too() -> None:
    nwy = DislodgedUnit("ENGLAND", fleet("NWY"), "FIN", ("NTH", "SKA"))
    edi = DislodgedUnit("RUSSIA", fleet("EDI"), "LVP", ("NTH", "NWG"))
    outcome = resolve_retreats({}, [nwy, edi], {"ENGLAND": [Retreat(fleet("NWY"), "NTH")],
                                                "RUSSIA": [Retreat(fleet("EDI"), "NTH")]})
    assert [r.result for r in outcome.results] == ["fails", "fails"]
    assert outcome.units == {}


def test_an_unordered_dislodged_unit_is_disbanded() -> None:
    outcome = resolve_retreats(UNITS, [VIE, BOH], {"ITALY": [Retreat(army("VIE"), "GAL")]})
    assert outcome.disbanded == (BOH,)
    assert {p for p, pu in outcome.units.items() if pu.power == "ITALY"} == {"GAL"}


def test_a_retreat_outside_the_options_is_void_and_the_unit_disbanded() -> None:
    outcome = resolve_retreats(UNITS, [VIE], {"ITALY": [Retreat(army("VIE"), "TRI")]})
    (result,) = outcome.results
    assert result.result == "void"
    assert "GAL, TYR" in result.reason
    assert outcome.disbanded == (VIE,)


def test_a_disband_order_succeeds() -> None:
    outcome = resolve_retreats(UNITS, [VIE], {"ITALY": [Disband(army("VIE"))]})
    assert outcome.results[0].result == "succeeds"
    assert outcome.disbanded == (VIE,)


def test_movement_orders_and_orders_for_units_not_dislodged_are_void() -> None:
    orders: dict[str, list[Order]] = {
        "AUSTRIA": [SupportMove(army("BUD"), army("VIE"), "GAL"), Move(army("BUD"), "GAL"), Hold(army("BUD"))],
        "ITALY": [Retreat(army("TYR"), "VEN"), Retreat(army("VIE"), "GAL")],
    }
    outcome = resolve_retreats(UNITS, [VIE], orders)
    assert [r.result for r in outcome.results] == ["void", "void", "void", "void", "succeeds"]
    assert outcome.units["BUD"] == UNITS["BUD"]


def test_a_power_cannot_order_another_powers_dislodged_unit() -> None:
    outcome = resolve_retreats(UNITS, [VIE], {"AUSTRIA": [Retreat(army("VIE"), "GAL")]})
    assert outcome.results[0].result == "void"
    assert outcome.disbanded == (VIE,)


def test_a_second_order_for_the_same_unit_is_void() -> None:
    outcome = resolve_retreats(UNITS, [VIE], {"ITALY": [Retreat(army("VIE"), "GAL"), Retreat(army("VIE"), "TYR")]})
    assert [r.result for r in outcome.results] == ["succeeds", "void"]
    assert outcome.units["GAL"].power == "ITALY"


def test_a_void_retreat_does_not_bounce_a_legal_one() -> None:
    """DATC 6.H.10: a retreat to the attacker's province is void; it contests nothing."""
    kie = DislodgedUnit("ENGLAND", army("KIE"), "BER", ("DEN", "HOL", "RUH"))
    pru = DislodgedUnit("GERMANY", army("PRU"), "WAR", ("BER", "LVN"))
    outcome = resolve_retreats({}, [kie, pru], {"ENGLAND": [Retreat(army("KIE"), "BER")],
                                                "GERMANY": [Retreat(army("PRU"), "BER")]})
    assert [r.result for r in outcome.results] == ["void", "succeeds"]
    assert outcome.units == {"BER": PowerUnit("GERMANY", army("BER"))}


def test_a_fleet_retreat_without_coast_takes_the_only_open_coast() -> None:
    por = DislodgedUnit("ENGLAND", fleet("POR"), "MAO", ("SPA/NC",))
    outcome = resolve_retreats({}, [por], {"ENGLAND": [Retreat(fleet("POR"), "SPA")]})
    assert outcome.results[0].result == "succeeds"
    assert outcome.units["SPA"] == PowerUnit("ENGLAND", fleet("SPA/NC"))


def test_a_fleet_retreat_without_coast_is_void_when_both_coasts_are_open() -> None:
    wes = DislodgedUnit("FRANCE", fleet("MAO"), "NAO", ("SPA/NC", "SPA/SC"))
    outcome = resolve_retreats({}, [wes], {"FRANCE": [Retreat(fleet("MAO"), "SPA")]})
    assert outcome.results[0].result == "void"


def test_civil_disorder_ignores_the_orders_and_disbands_the_units() -> None:
    outcome = resolve_retreats(UNITS, [VIE], {"ITALY": [Retreat(army("VIE"), "GAL")]},
                               civil_disorder=frozenset({"ITALY"}))
    assert outcome.results[0].result == "void"
    assert outcome.disbanded == (VIE,)


def test_the_outcome_does_not_depend_on_the_order_of_the_input() -> None:
    forward: dict[str, list[Order]] = {
        "ITALY": [Retreat(army("VIE"), "TYR"), Retreat(army("BOH"), "GAL")], "AUSTRIA": [Hold(army("BUD"))]}
    backward: dict[str, list[Order]] = {
        "AUSTRIA": [Hold(army("BUD"))], "ITALY": [Retreat(army("BOH"), "GAL"), Retreat(army("VIE"), "TYR")]}
    assert resolve_retreats(UNITS, [VIE, BOH], forward).units == resolve_retreats(UNITS, [BOH, VIE], backward).units


# --- the phase after a retreat phase ----------------------------------------------------------


def test_after_spring_retreats_comes_fall_movement_and_centres_do_not_change() -> None:
    position = Position(Phase.parse("S1902R"), UNITS, {"VIE": "ITALY", "BUD": "AUSTRIA"}, (VIE,))
    resolution = adjudicate(position, {"ITALY": [Retreat(army("VIE"), "GAL")]})
    assert str(resolution.next_phase) == "F1902M"
    assert resolution.position.phase == resolution.next_phase
    assert resolution.position.centres == {"VIE": "ITALY", "BUD": "AUSTRIA"}
    assert resolution.position.dislodged == ()
    assert resolution.must_act == {"AUSTRIA", "GERMANY", "ITALY"}


def test_after_fall_retreats_centres_change_hands_and_winter_follows() -> None:
    # Italy owned Vienna; Austria now stands there and owns it, so Italy must remove one unit.
    units = board(VIE=("AUSTRIA", army("VIE")), BUD=("AUSTRIA", army("BUD")), APU=("ITALY", army("APU")))
    position = Position(Phase.parse("F1902R"), units, {"VIE": "ITALY", "BUD": "AUSTRIA"}, (VIE,))
    resolution = adjudicate(position, {"ITALY": [Retreat(army("VIE"), "TYR")]})
    assert resolution.position.centres == {"VIE": "AUSTRIA", "BUD": "AUSTRIA"}
    assert str(resolution.next_phase) == "W1902A"
    assert resolution.must_act == {"ITALY"}  # two units, no centre left; Austria has no room to build


def test_after_fall_retreats_a_winter_with_nothing_to_do_is_skipped() -> None:
    units = board(VIE=("AUSTRIA", army("VIE")), BUD=("AUSTRIA", army("BUD")))
    position = Position(Phase.parse("F1902R"), units, {"VIE": "AUSTRIA", "BUD": "AUSTRIA"}, (VIE,))
    resolution = adjudicate(position, {})
    assert str(resolution.next_phase) == "S1903M"
    assert resolution.position.units == units
    assert resolution.must_act == {"AUSTRIA"}
