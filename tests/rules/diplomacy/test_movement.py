"""resolve_movement beyond the DATC: reasons, retreat options, standoffs, determinism, odd input."""
from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.movement import resolve_movement
from shared.rules.diplomacy.orders import Build, Hold, Move, Order, Unit, UnitType
from shared.rules.diplomacy.phase import Phase
from shared.rules.diplomacy.position import Position, PowerUnit
from tests.rules.diplomacy.test_datc_movement import CASES, orders_of, position_of, read_order, read_unit

MAP = load_map("standard")


def resolve(units: dict[str, list[str]], orders: dict[str, list[str]]):
    position = position_of({"units": units})
    return resolve_movement(position, {p: [read_order(o) for o in os] for p, os in orders.items()}, MAP)


def results(outcome) -> dict[str, tuple[str, str]]:
    return {str(r.order): (r.result, r.reason) for r in outcome.results}


def retreats_of(outcome, unit: str) -> list[str]:
    return next(list(d.retreats) for d in outcome.dislodged if str(d.unit) == unit)


# -- the contract examples (shared/contract/adjudicate-*.jsonl, movement phases) ----------


def test_contract_spring_bounce_and_standoff() -> None:
    outcome = resolve(
        {"ENGLAND": ["F LON", "F EDI", "A LVP"], "FRANCE": ["F BRE", "A PAR", "A MAR"],
         "GERMANY": ["F KIE", "A BER", "A MUN"]},
        {
            "ENGLAND": ["F LON - ENG", "F EDI - NTH", "A LVP - YOR"],
            "FRANCE": ["F BRE - ENG", "A PAR - BUR", "A MAR S A PAR - BUR"],
            "GERMANY": ["A MUN - BUR", "F KIE - HOL", "A BER - KIE"],
        },
    )
    assert [r.result for r in outcome.results] == [
        "fails", "succeeds", "succeeds", "fails", "succeeds", "succeeds", "fails", "succeeds", "succeeds",
    ]
    assert results(outcome)["F LON - ENG"] == ("fails", "bounced at ENG")
    after = {(pu.power, str(pu.unit)) for pu in outcome.units.values()}
    assert after == {
        ("ENGLAND", "A YOR"), ("ENGLAND", "F LON"), ("ENGLAND", "F NTH"),
        ("FRANCE", "A BUR"), ("FRANCE", "A MAR"), ("FRANCE", "F BRE"),
        ("GERMANY", "A KIE"), ("GERMANY", "A MUN"), ("GERMANY", "F HOL"),
    }
    assert outcome.dislodged == ()
    assert outcome.standoffs == frozenset({"ENG"})


def test_contract_fall_void_support_and_supported_hold() -> None:
    outcome = resolve(
        {"GERMANY": ["A RUH", "F HOL", "A MUN"], "FRANCE": ["A BEL", "A BUR"]},
        {"GERMANY": ["A RUH - BEL", "F HOL S A RUH - BEL", "A MUN S A RUH - BEL"],
         "FRANCE": ["A BEL H", "A BUR S A BEL"]},
    )
    assert [(str(r.order), r.result) for r in outcome.results] == [
        ("A RUH - BEL", "fails"),
        ("F HOL S A RUH - BEL", "succeeds"),
        ("A MUN S A RUH - BEL", "void"),
        ("A BEL H", "succeeds"),
        ("A BUR S A BEL", "succeeds"),
    ]
    assert results(outcome)["A MUN S A RUH - BEL"][1] == "void: MUN does not border BEL"


# -- reasons ---------------------------------------------------------------------------------


def test_reasons_for_cut_support_and_dislodgement() -> None:
    outcome = resolve(
        {"FRANCE": ["A PAR", "A PIC"], "GERMANY": ["A BUR", "A GAS", "A RUH"]},
        {
            "GERMANY": ["A BUR - PAR", "A GAS S A BUR - PAR", "A RUH - BEL"],
            "FRANCE": ["A PAR H", "A PIC S A PAR"],
        },
    )
    assert results(outcome)["A PAR H"] == ("succeeds", "held")
    assert results(outcome)["A PIC S A PAR"] == ("succeeds", "support given")
    assert results(outcome)["A BUR - PAR"] == ("fails", "bounced at PAR")

    cut = resolve(
        {"FRANCE": ["A PAR", "A GAS"], "GERMANY": ["A BUR", "A PIC", "A BRE"]},
        {"GERMANY": ["A BUR - PAR", "A PIC S A BUR - PAR", "A BRE - GAS"], "FRANCE": ["A PAR H", "A GAS S A PAR"]},
    )
    assert results(cut)["A GAS S A PAR"] == ("fails", "support cut by A BRE")
    assert results(cut)["A PAR H"] == ("fails", "dislodged by A BUR")
    assert results(cut)["A BUR - PAR"] == ("succeeds", "moved to PAR")


def test_reasons_for_void_orders() -> None:
    outcome = resolve(
        {"ENGLAND": ["F LON"], "FRANCE": ["A PAR"]},
        {"FRANCE": ["A MAR - SPA", "F LON - NTH", "A PAR - MUN"], "ENGLAND": ["F LON - WAL"]},
    )
    assert results(outcome)["A MAR - SPA"] == ("void", "void: no unit at MAR")
    assert results(outcome)["F LON - NTH"] == ("void", "void: F LON is not your unit")
    assert results(outcome)["A PAR - MUN"][0] == "void"
    assert "PAR does not border MUN" in results(outcome)["A PAR - MUN"][1]
    assert results(outcome)["F LON - WAL"] == ("succeeds", "moved to WAL")


def test_disrupted_convoy_reason() -> None:
    outcome = resolve(
        {"ENGLAND": ["A LON", "F NTH"], "GERMANY": ["F HEL", "F SKA"]},
        {"ENGLAND": ["A LON - NWY", "F NTH C A LON - NWY"], "GERMANY": ["F SKA - NTH", "F HEL S F SKA - NTH"]},
    )
    assert results(outcome)["A LON - NWY"] == ("fails", "convoy disrupted")
    assert results(outcome)["F NTH C A LON - NWY"] == ("fails", "dislodged by F SKA")


# -- odd input ------------------------------------------------------------------------------


def test_units_without_orders_hold_and_get_no_result() -> None:
    outcome = resolve({"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]}, {"GERMANY": ["A MUN - BUR"]})
    assert len(outcome.results) == 1
    assert {str(pu.unit) for pu in outcome.units.values()} == {"A PAR", "A MAR", "A BUR"}


def test_two_different_orders_leave_the_unit_holding() -> None:
    """DATC 4.D.3: two legal but different orders for one unit: neither counts."""
    outcome = resolve({"FRANCE": ["A PAR", "A BRE"]}, {"FRANCE": ["A PAR - BUR", "A PAR - PIC", "A BRE S A PAR"]})
    assert results(outcome)["A PAR - BUR"][0] == "void"
    assert results(outcome)["A PAR - PIC"][0] == "void"
    assert results(outcome)["A BRE S A PAR"] == ("succeeds", "support given")
    assert "PAR" in outcome.units


def test_an_illegal_second_order_does_not_cancel_the_legal_one() -> None:
    outcome = resolve({"FRANCE": ["A PAR"]}, {"FRANCE": ["A PAR - BUR", "A PAR - MUN"]})
    assert results(outcome)["A PAR - BUR"] == ("succeeds", "moved to BUR")
    assert results(outcome)["A PAR - MUN"][0] == "void"


def test_the_same_order_twice_is_obeyed_once() -> None:
    outcome = resolve({"FRANCE": ["A PAR"]}, {"FRANCE": ["A PAR - BUR", "A PAR - BUR"]})
    assert [r.result for r in outcome.results] == ["succeeds", "succeeds"]
    assert "BUR" in outcome.units and "PAR" not in outcome.units


def test_orders_of_other_phases_are_void() -> None:
    position = position_of({"units": {"FRANCE": ["A PAR"]}})
    outcome = resolve_movement(position, {"FRANCE": [Build(Unit(UnitType.ARMY, "MAR"))]}, MAP)
    assert outcome.results[0].result == "void"


def test_wrong_unit_type_in_an_order_is_ignored() -> None:
    """DATC 4.C.2: the order is read for the unit that is there."""
    outcome = resolve_movement(
        position_of({"units": {"FRANCE": ["A PAR"]}}), {"FRANCE": [Move(Unit(UnitType.FLEET, "PAR"), "BUR")]}, MAP
    )
    assert outcome.results[0].result == "succeeds"
    assert str(outcome.units["BUR"].unit) == "A BUR"


def test_the_position_is_not_changed() -> None:
    position = position_of({"units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}})
    before = dict(position.units)
    resolve_movement(position, {"FRANCE": [read_order("A PAR - BUR")], "GERMANY": [read_order("A MUN - BUR")]}, MAP)
    assert dict(position.units) == before


def test_fleet_move_to_a_split_coast_province_lands_on_the_coast() -> None:
    outcome = resolve({"FRANCE": ["F GAS"]}, {"FRANCE": ["F GAS - SPA"]})
    assert str(outcome.units["SPA"].unit) == "F SPA/NC"


# -- retreat options and standoffs (the movement half of DATC 6.H) -------------------------


def test_no_retreat_to_the_attackers_province() -> None:  # 6.H.5
    outcome = resolve(
        {"RUSSIA": ["F CON", "F BLA"], "TURKEY": ["F ANK"]},
        {"RUSSIA": ["F CON S F BLA - ANK", "F BLA - ANK"], "TURKEY": ["F ANK H"]},
    )
    assert retreats_of(outcome, "F ANK") == ["ARM"]
    assert outcome.dislodged[0].attacker_from == "BLA"


def test_no_retreat_to_a_standoff() -> None:  # 6.H.6
    outcome = resolve(
        {"AUSTRIA": ["A BUD", "A TRI"], "GERMANY": ["A MUN", "A SIL"], "ITALY": ["A VIE"]},
        {"AUSTRIA": ["A BUD S A TRI - VIE", "A TRI - VIE"], "GERMANY": ["A MUN - BOH", "A SIL - BOH"],
         "ITALY": ["A VIE H"]},
    )
    assert outcome.standoffs == frozenset({"BOH"})
    assert retreats_of(outcome, "A VIE") == ["GAL", "TYR"]


def test_a_dislodged_unit_does_not_make_the_attackers_province_a_standoff() -> None:  # 6.H.9
    outcome = resolve(
        {"ENGLAND": ["F HEL", "F DEN"], "GERMANY": ["A BER", "F KIE", "A SIL"], "RUSSIA": ["A PRU"]},
        {
            "ENGLAND": ["F HEL - KIE", "F DEN S F HEL - KIE"],
            "GERMANY": ["A BER - PRU", "F KIE H", "A SIL S A BER - PRU"],
            "RUSSIA": ["A PRU - BER"],
        },
    )
    assert "BER" not in outcome.standoffs
    assert "BER" in retreats_of(outcome, "F KIE")
    assert "BER" not in retreats_of(outcome, "A PRU")  # dislodged by the army from Berlin


def test_retreat_options_after_a_head_to_head_loss() -> None:  # 6.H.9 continued, 6.H.10
    outcome = resolve(
        {"ENGLAND": ["A KIE"], "GERMANY": ["A BER", "A MUN", "A PRU"], "RUSSIA": ["A WAR", "A SIL"]},
        {
            "ENGLAND": ["A KIE H"],
            "GERMANY": ["A BER - KIE", "A MUN S A BER - KIE", "A PRU H"],
            "RUSSIA": ["A WAR - PRU", "A SIL S A WAR - PRU"],
        },
    )
    assert "BER" not in retreats_of(outcome, "A KIE")
    assert "BER" in retreats_of(outcome, "A PRU")


def test_retreat_to_the_origin_of_an_attack_by_convoy() -> None:  # 6.H.11, DATC 4.A.5
    outcome = resolve(
        {"FRANCE": ["A GAS", "A BUR", "F MAO", "F WES", "F LYO"], "ITALY": ["A MAR"]},
        {
            "FRANCE": [
                "A GAS - MAR VIA", "A BUR S A GAS - MAR", "F MAO C A GAS - MAR",
                "F WES C A GAS - MAR", "F LYO C A GAS - MAR",
            ],
            "ITALY": ["A MAR H"],
        },
    )
    assert outcome.dislodged[0].attacker_from == "GAS"
    assert "GAS" in retreats_of(outcome, "A MAR")


def test_retreat_when_both_armies_tried_to_convoy() -> None:  # 6.H.12
    outcome = resolve(
        {
            "ENGLAND": ["A LVP", "F IRI", "F ENG", "F NTH"],
            "FRANCE": ["F BRE", "F MAO"],
            "RUSSIA": ["A EDI", "F NWG", "F NAO", "A CLY"],
        },
        {
            "ENGLAND": ["A LVP - EDI VIA", "F IRI C A LVP - EDI", "F ENG C A LVP - EDI", "F NTH C A LVP - EDI"],
            "FRANCE": ["F BRE - ENG", "F MAO S F BRE - ENG"],
            "RUSSIA": ["A EDI - LVP VIA", "F NWG C A EDI - LVP", "F NAO C A EDI - LVP", "A CLY S A EDI - LVP"],
        },
    )
    assert results(outcome)["A EDI - LVP VIA"][0] == "succeeds"
    assert "EDI" in retreats_of(outcome, "A LVP")


def test_no_coastal_crawl_in_retreat() -> None:  # 6.H.15
    outcome = resolve(
        {"ENGLAND": ["F POR"], "FRANCE": ["F SPA/SC", "F MAO"]},
        {"ENGLAND": ["F POR H"], "FRANCE": ["F SPA/SC - POR", "F MAO S F SPA/SC - POR"]},
    )
    assert retreats_of(outcome, "F POR") == []


def test_a_standoff_closes_both_coasts() -> None:  # 6.H.16
    outcome = resolve(
        {"FRANCE": ["F MAO", "F GAS", "F WES"], "ITALY": ["F TUN", "F TYS"]},
        {"FRANCE": ["F MAO - SPA/NC", "F GAS - SPA/NC", "F WES H"], "ITALY": ["F TUN S F TYS - WES", "F TYS - WES"]},
    )
    assert "SPA" in outcome.standoffs
    assert retreats_of(outcome, "F WES") == ["LYO", "NAF"]


def test_a_disrupted_convoy_causes_no_standoff() -> None:  # 6.F.7
    outcome = resolve(
        {"ENGLAND": ["F NTH", "A LON"], "GERMANY": ["F HEL", "F SKA"]},
        {"ENGLAND": ["F NTH C A LON - HOL", "A LON - HOL"], "GERMANY": ["F HEL S F SKA - NTH", "F SKA - NTH"]},
    )
    assert outcome.standoffs == frozenset()
    assert "HOL" in retreats_of(outcome, "F NTH")


# -- determinism --------------------------------------------------------------------------


HARD_CASES = [c for c in CASES if c["id"] in {"6.C.2", "6.E.15", "6.F.16", "6.F.17", "6.F.22", "6.F.24", "6.G.18"}]


@pytest.mark.parametrize("case", HARD_CASES, ids=[c["id"] for c in HARD_CASES])
def test_shuffled_input_gives_the_same_adjudication(case: dict) -> None:
    position = position_of(case)
    orders = orders_of(case)
    reference = resolve_movement(position, orders, MAP)
    expected = sorted((r.power, str(r.order), r.result, r.reason) for r in reference.results)
    rng = random.Random(case["id"])
    for powers in itertools.islice(itertools.permutations(orders), 6):
        shuffled = {p: rng.sample(orders[p], len(orders[p])) for p in powers}
        outcome = resolve_movement(position, shuffled, MAP)
        assert sorted((r.power, str(r.order), r.result, r.reason) for r in outcome.results) == expected
        assert outcome.units == reference.units
        assert outcome.dislodged == reference.dislodged
        assert outcome.standoffs == reference.standoffs


def test_results_come_back_in_input_order() -> None:
    outcome = resolve(
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
        {"GERMANY": ["A MUN - BUR"], "FRANCE": ["A MAR - BUR", "A PAR H"]},
    )
    assert [str(r.order) for r in outcome.results] == ["A MUN - BUR", "A MAR - BUR", "A PAR H"]


def test_holds_are_orders_too() -> None:
    position = position_of({"units": {"FRANCE": ["A PAR"]}})
    outcome = resolve_movement(position, {"FRANCE": [Hold(read_unit("A PAR"))]}, MAP)
    assert outcome.results[0].result == "succeeds"
    assert outcome.units["PAR"] == PowerUnit("FRANCE", read_unit("A PAR"))


# -- a full board (its speed is measured in benchmarks/adjudicate.py, not here) ----------------

FULL_BOARD = {
    "AUSTRIA": ["A VIE", "A BUD", "F TRI", "A SER", "A GAL"],
    "ENGLAND": ["F LON", "F EDI", "A LVP", "F NTH", "F NWG"],
    "FRANCE": ["F BRE", "A PAR", "A MAR", "A BUR", "F MAO"],
    "GERMANY": ["F KIE", "A BER", "A MUN", "A HOL", "F DEN"],
    "ITALY": ["F NAP", "A ROM", "A VEN", "F ION", "A TUN"],
    "RUSSIA": ["F STP/SC", "A MOS", "A WAR", "F SEV", "A UKR"],
    "TURKEY": ["F ANK", "A CON", "A SMY", "A BUL"],
}
FULL_BOARD_ORDERS = {
    "AUSTRIA": ["A VIE - TYR", "A BUD S A SER - RUM", "F TRI - ADR", "A SER - RUM", "A GAL H"],
    "ENGLAND": ["F LON - ENG", "F EDI S F NTH", "A LVP - YOR", "F NTH C A YOR - NWY", "F NWG S F NTH"],
    "FRANCE": ["F BRE - ENG", "A PAR - PIC", "A MAR S A BUR", "A BUR - BEL", "F MAO - SPA/NC"],
    "GERMANY": ["F KIE - HEL", "A BER - SIL", "A MUN S A BER - SIL", "A HOL S A BUR - BEL", "F DEN - SKA"],
    "ITALY": ["F NAP - TYS", "A ROM - APU", "A VEN S A VIE - TYR", "F ION C A TUN - GRE", "A TUN - GRE"],
    "RUSSIA": ["F STP/SC - BOT", "A MOS - SEV", "A WAR - GAL", "F SEV - BLA", "A UKR S A WAR - GAL"],
    "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY - ARM", "A BUL - GRE"],
}


def test_a_full_board_resolves() -> None:
    """34 units, 34 orders at once."""
    position = position_of({"units": FULL_BOARD})
    orders = {p: [read_order(o) for o in os] for p, os in FULL_BOARD_ORDERS.items()}
    outcome = resolve_movement(position, orders, MAP)
    assert results(outcome)["A BUR - BEL"] == ("succeeds", "moved to BEL")
    assert results(outcome)["A TUN - GRE"] == ("fails", "bounced at GRE")


# -- invariants over random legal play ----------------------------------------------------------


def _random_movement_phases(count: int) -> list[tuple[Any, ...]]:
    from shared.rules.diplomacy.phase import PhaseType
    from tests.utils.random_play import random_play

    phases: list[tuple[Any, ...]] = []
    seed = 0
    while len(phases) < count:
        for position, orders, _ in random_play(seed, phases=30):
            if position.phase.type is PhaseType.MOVEMENT:
                phases.append((position, orders))
        seed += 1
    return phases[:count]


@pytest.fixture(scope="module")
def random_phases() -> list[tuple]:
    return _random_movement_phases(120)


def test_invariants_over_random_legal_play(random_phases: list[tuple]) -> None:
    """Orders offered as possible are never void; no unit is lost or doubled; dislodged units
    lost their province to the unit that attacked them and may retreat only to empty places."""
    for position, orders in random_phases:
        outcome = resolve_movement(position, orders, MAP)
        assert len(outcome.results) == sum(len(o) for o in orders.values())
        assert [r for r in outcome.results if r.result == "void"] == []
        before = sorted(pu.power for pu in position.units.values())
        after = sorted([pu.power for pu in outcome.units.values()] + [d.power for d in outcome.dislodged])
        assert before == after
        for province, pu in outcome.units.items():
            assert pu.unit.province == province
        for dislodged in outcome.dislodged:
            taker = outcome.units[dislodged.unit.province]
            assert taker.power != dislodged.power
            for option in dislodged.retreats:
                assert option.split("/")[0] not in outcome.units
                assert option.split("/")[0] not in outcome.standoffs
        for province in outcome.standoffs:
            assert province not in outcome.units


def test_random_play_does_not_depend_on_order_of_input(random_phases: list[tuple]) -> None:
    for position, orders in random_phases[::6]:
        reference = resolve_movement(position, orders, MAP)
        reversed_orders = {p: list(reversed(orders[p])) for p in reversed(list(orders))}
        outcome = resolve_movement(position, reversed_orders, MAP)
        assert outcome.units == reference.units
        assert outcome.dislodged == reference.dislodged
        assert sorted(map(str, outcome.results)) == sorted(map(str, reference.results))


def test_arbitrary_orders_never_break_the_resolver() -> None:
    """Random boards with random orders, legal or not (wrong units, far destinations, foreign
    units, coasts, convoys of anything): every order gets a result and the invariants hold."""
    from shared.rules.diplomacy.orders import Convoy, SupportHold, SupportMove

    rng = random.Random(20240223)
    provinces = sorted(MAP.provinces)
    locations = sorted({loc for p in provinces for loc in MAP.fleet_locations(p)} | set(provinces))
    powers = sorted(MAP.powers)
    for _ in range(150):
        board = {}
        for province in rng.sample(provinces, 30):
            if MAP.is_sea(province) or (MAP.is_coastal(province) and rng.random() < 0.4):
                location = rng.choice(MAP.fleet_locations(province))
                unit = Unit(UnitType.FLEET, location)
            elif MAP.is_land(province):
                unit = Unit(UnitType.ARMY, province)
            else:
                continue
            board[province] = PowerUnit(rng.choice(powers), unit)
        position = Position(Phase.parse("F1905M"), board, {})
        units = [pu.unit for pu in board.values()]

        def near(unit: Unit) -> str:
            nbrs = sorted(MAP.army_neighbours(unit.province) | MAP.fleet_neighbours(unit.location))
            return rng.choice(nbrs) if nbrs and rng.random() < 0.8 else rng.choice(locations)

        orders: dict[str, list] = {}
        for pu in board.values():
            unit = pu.unit
            other = rng.choice(units)
            kind = rng.random()
            order: Order
            if kind < 0.35:
                order = Move(unit, near(unit), via_convoy=rng.random() < 0.1)
            elif kind < 0.55:
                order = SupportMove(unit, other, province_of_any(near(other)))
            elif kind < 0.7:
                order = SupportHold(unit, other)
            elif kind < 0.85:
                order = Convoy(unit, other, province_of_any(rng.choice(locations)))
            else:
                order = Hold(unit)
            power = pu.power if rng.random() < 0.95 else rng.choice(powers)
            orders.setdefault(power, []).append(order)
        outcome = resolve_movement(position, orders, MAP)
        assert len(outcome.results) == len(board)
        assert len(outcome.units) + len(outcome.dislodged) == len(board)
        shuffled = {p: rng.sample(os, len(os)) for p, os in reversed(list(orders.items()))}
        again = resolve_movement(position, shuffled, MAP)
        assert again.units == outcome.units and again.dislodged == outcome.dislodged


def province_of_any(location: str) -> str:
    return location.split("/")[0]
