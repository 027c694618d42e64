"""Adjustment phases: builds, removals, waives, civil disorder and what follows them."""
from __future__ import annotations

import pytest

from shared.rules.diplomacy import adjudicate, load_map
from shared.rules.diplomacy.adjustments import adjustment_counts, powers_to_adjust, resolve_adjustments
from shared.rules.diplomacy.civil_disorder import forced_removals, unit_distance
from shared.rules.diplomacy.orders import Build, Hold, Remove, Unit, UnitType, Waive
from shared.rules.diplomacy.phase import Phase
from shared.rules.diplomacy.position import Position, PowerUnit

MAP = load_map("standard")
WINTER = Phase.parse("W1905A")


def army(location: str) -> Unit:
    return Unit(UnitType.ARMY, location)


def fleet(location: str) -> Unit:
    return Unit(UnitType.FLEET, location)


def position(units: dict[str, list[Unit]], centres: dict[str, list[str]]) -> Position:
    return Position(
        WINTER,
        {u.province: PowerUnit(power, u) for power, us in units.items() for u in us},
        {c: power for power, cs in centres.items() for c in cs},
    )


RUSSIA_TWO_BUILDS = position({"RUSSIA": [fleet("SEV"), army("UKR")]}, {"RUSSIA": ["MOS", "SEV", "STP", "WAR"]})


def results(pos: Position, orders: dict, **kwargs) -> list[str]:
    return [r.result for r in resolve_adjustments(pos, orders, MAP, **kwargs).results]


def test_counts_are_centres_minus_units() -> None:
    pos = position({"RUSSIA": [fleet("SEV"), army("UKR")], "TURKEY": [army("ANK"), army("CON")]},
                   {"RUSSIA": ["MOS", "SEV", "STP", "WAR"], "TURKEY": ["ANK"]})
    assert adjustment_counts(pos.units, pos.centres) == {"RUSSIA": 2, "TURKEY": -1}


def test_builds_in_vacant_owned_home_centres_succeed() -> None:
    outcome = resolve_adjustments(RUSSIA_TWO_BUILDS, {"RUSSIA": [Build(army("MOS")), Build(fleet("STP/NC"))]}, MAP)
    assert [r.result for r in outcome.results] == ["succeeds", "succeeds"]
    assert outcome.units["MOS"] == PowerUnit("RUSSIA", army("MOS"))
    assert outcome.units["STP"] == PowerUnit("RUSSIA", fleet("STP/NC"))


def test_a_fleet_build_on_a_two_coast_province_must_name_the_coast() -> None:
    outcome = resolve_adjustments(RUSSIA_TWO_BUILDS, {"RUSSIA": [Build(fleet("STP"))]}, MAP)
    assert outcome.results[0].result == "void"
    assert "coast" in outcome.results[0].reason
    assert "STP" not in outcome.units


def test_an_army_build_named_with_a_coast_stands_in_the_province() -> None:
    outcome = resolve_adjustments(RUSSIA_TWO_BUILDS, {"RUSSIA": [Build(army("STP/NC"))]}, MAP)
    assert outcome.units["STP"] == PowerUnit("RUSSIA", army("STP"))


def test_a_void_build_uses_up_nothing() -> None:
    orders = {"RUSSIA": [Build(fleet("MOS")), Build(army("BER")), Build(army("MOS")), Build(army("WAR")),
                         Build(army("STP"))]}
    assert results(RUSSIA_TWO_BUILDS, orders) == ["void", "void", "succeeds", "succeeds", "fails"]


def test_a_waive_uses_up_one_build() -> None:
    orders = {"RUSSIA": [Waive(), Build(army("MOS")), Build(army("WAR"))]}
    assert results(RUSSIA_TWO_BUILDS, orders) == ["succeeds", "succeeds", "fails"]


def test_builds_are_void_for_a_power_without_builds() -> None:
    pos = position({"TURKEY": [army("SMY")]}, {"TURKEY": ["SMY"]})
    assert results(pos, {"TURKEY": [Build(army("ANK")), Waive()]}) == ["void", "void"]


def test_movement_orders_are_void_in_an_adjustment_phase() -> None:
    assert results(RUSSIA_TWO_BUILDS, {"RUSSIA": [Hold(fleet("SEV"))]}) == ["void"]


def test_removals_of_own_units_up_to_the_number_required() -> None:
    pos = position({"TURKEY": [army("ANK"), army("CON"), fleet("BLA")], "RUSSIA": [army("SEV")]},
                   {"TURKEY": ["ANK"], "RUSSIA": ["SEV"]})
    removals = [Remove(army("SEV")), Remove(fleet("BLA")), Remove(army("CON")), Remove(army("ANK"))]
    outcome = resolve_adjustments(pos, {"TURKEY": removals}, MAP)
    assert [r.result for r in outcome.results] == ["void", "succeeds", "succeeds", "fails"]
    assert set(outcome.units) == {"ANK", "SEV"}
    assert outcome.forced == ()


def test_missing_removals_are_made_by_the_civil_disorder_rule_and_builds_are_waived() -> None:
    pos = position({"TURKEY": [army("ANK"), army("CON"), fleet("NAF")], "RUSSIA": [army("MOS")]},
                   {"TURKEY": ["ANK", "CON"], "RUSSIA": ["MOS", "SEV"]})
    outcome = resolve_adjustments(pos, {}, MAP)
    assert outcome.forced == (PowerUnit("TURKEY", fleet("NAF")),)
    assert set(outcome.units) == {"ANK", "CON", "MOS"}


def test_a_power_in_civil_disorder_has_its_orders_ignored() -> None:
    pos = position({"TURKEY": [army("ANK"), army("CON"), fleet("NAF")]}, {"TURKEY": ["ANK", "CON"]})
    outcome = resolve_adjustments(pos, {"TURKEY": [Remove(army("ANK"))]}, MAP, civil_disorder=frozenset({"TURKEY"}))
    assert outcome.results[0].result == "void"
    assert outcome.forced == (PowerUnit("TURKEY", fleet("NAF")),)


def test_powers_to_adjust_leaves_out_a_power_with_nowhere_to_build() -> None:
    pos = position({"RUSSIA": [army("MOS"), army("SEV"), army("STP"), army("WAR")],
                    "TURKEY": [army("ANK"), army("CON")]},
                   {"RUSSIA": ["MOS", "SEV", "STP", "WAR", "RUM"], "TURKEY": ["ANK"]})
    assert powers_to_adjust(pos.units, pos.centres, MAP) == {"TURKEY"}


# --- civil disorder: distance and the order of removal -----------------------------------------


@pytest.mark.parametrize(
    ("unit", "edition", "distance"),
    [
        (fleet("BOT"), "2000", 1),  # next to St Petersburg's south coast
        (fleet("NTH"), "2000", 2),  # Norway, then St Petersburg's north coast
        (fleet("BOT"), "2023", 3),  # to Munich, the only centre Russia owns
        (army("GRE"), "2000", 3),  # Bulgaria, Rumania (or the Black Sea), Sevastopol
        (fleet("STP/NC"), "2000", 0),
    ],
)
def test_russian_distances(unit: Unit, edition: str, distance: int) -> None:
    assert unit_distance(unit, power="RUSSIA", owned_centres=["MUN"], game_map=MAP, edition=edition) == distance


def test_an_army_may_count_its_distance_over_sea_in_both_editions() -> None:
    # Greece to Naples: over the Ionian Sea in two steps, not five over land (DATC 6.J.10).
    for edition in ("2000", "2023"):
        assert unit_distance(army("GRE"), power="ITALY", owned_centres=["NAP"], game_map=MAP, edition=edition) == 2


def test_farthest_first_then_fleets_then_alphabetical_by_english_name() -> None:
    units = [army("BOH"), fleet("SKA"), fleet("NTH"), army("UKR")]
    removed = forced_removals(units, 3, power="RUSSIA", owned_centres=["STP", "WAR"], game_map=MAP, edition="2023")
    # BOH, SKA and NTH are all two steps from an owned centre, UKR one: fleets first, North Sea before Skagerrak.
    assert removed == [fleet("NTH"), fleet("SKA"), army("BOH")]


def test_alphabetical_order_is_by_english_name_not_by_code() -> None:
    # Marseilles (MAR) comes before Mid-Atlantic Ocean (MAO) in English, not by code.
    units = [fleet("MAO"), fleet("MAR")]  # both one step from Spain
    removed = forced_removals(units, 1, power="RUSSIA", owned_centres=["SPA"], game_map=MAP, edition="2023")
    assert removed == [fleet("MAR")]


def test_unknown_edition_is_refused() -> None:
    with pytest.raises(ValueError, match="edition"):
        unit_distance(army("MOS"), power="RUSSIA", owned_centres=[], game_map=MAP, edition="1971")


# --- the phase after an adjustment phase -------------------------------------------------------


def test_after_winter_comes_the_next_spring_and_forced_removals_are_reported() -> None:
    pos = position({"TURKEY": [army("ANK"), army("CON"), fleet("NAF")], "RUSSIA": [army("MOS")]},
                   {"TURKEY": ["ANK", "CON"], "RUSSIA": ["MOS", "SEV"]})
    resolution = adjudicate(pos, {"RUSSIA": [Build(army("SEV"))]})
    assert str(resolution.next_phase) == "S1906M"
    assert [(r.power, str(r.order), r.result) for r in resolution.results] == [
        ("RUSSIA", "A SEV B", "succeeds"),
        ("TURKEY", "F NAF D", "succeeds"),  # forced, after the orders given
    ]
    assert resolution.results[1].reason.startswith("removal not ordered")  # not in civil disorder: see below
    assert resolution.must_act == {"RUSSIA", "TURKEY"}
    assert set(resolution.position.units) == {"ANK", "CON", "MOS", "SEV"}
    assert resolution.position.centres == pos.centres


def test_the_2023_edition_is_an_option_of_adjudicate() -> None:
    pos = position({"ITALY": [army("WAR"), army("TUS")]}, {"ITALY": ["WAR"]})
    kept_2000 = set(adjudicate(pos, {}).position.units)
    kept_2023 = set(adjudicate(pos, {}, edition="2023").position.units)
    assert (kept_2000, kept_2023) == ({"TUS"}, {"WAR"})


def test_a_removal_the_power_did_not_order_is_made_by_the_rules_and_says_so() -> None:
    """A power that submitted (here an empty list) but ordered no removal is not in civil
    disorder: the history says the rules removed the unit (docs/rules/standard.md)."""
    pos = position({"TURKEY": [army("ANK"), army("CON"), fleet("NAF")]}, {"TURKEY": ["ANK", "CON"]})
    submitted = adjudicate(pos, {"TURKEY": []})
    assert [(str(r.order), r.result, r.reason) for r in submitted.results] == [
        ("F NAF D", "succeeds", "removal not ordered: removed by the rules, farthest from home")]
    missed = adjudicate(pos, {}, civil_disorder=frozenset({"TURKEY"}))
    assert [(str(r.order), r.result, r.reason) for r in missed.results] == [
        ("F NAF D", "succeeds", "civil disorder: removed, farthest from home")]
