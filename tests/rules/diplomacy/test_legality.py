"""Order legality at submission: what the intake refuses, and what it must let through."""
from __future__ import annotations

import pytest

from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.legality import order_problem, orders_problems
from shared.rules.diplomacy.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from shared.rules.diplomacy.position import DislodgedUnit
from tests.utils.random_play import make_position
from tests.utils.random_play import parse_unit as u

STANDARD = load_map("standard")

MOVEMENT = make_position("S1901M", {
    "FRANCE": ["A PAR", "F BRE", "F MAO", "F SPA/NC", "A BUR"],
    "ENGLAND": ["F LON", "A LVP", "F ENG", "A WAL"],
    "RUSSIA": ["A SEV", "A MOS", "F GAS"],
    "GERMANY": ["A MUN", "F NTH"],
})


def problem(order, power, position=MOVEMENT):
    return order_problem(order, power, position, STANDARD)


@pytest.mark.parametrize("order, power, expected", [
    (Move(u("A PAR"), "MOS"), "FRANCE", "A PAR cannot reach MOS"),
    (Hold(u("A PIC")), "FRANCE", "no unit at PIC"),
    (Move(u("F LON"), "NTH"), "FRANCE", "F LON is not yours"),
    (Hold(u("F PAR")), "FRANCE", "no F PAR on the board (A PAR is at PAR)"),
    (Move(u("F BRE"), "PAR"), "FRANCE", "F BRE cannot reach PAR"),
    (Move(u("A PAR"), "PAR"), "FRANCE", "A PAR cannot move to its own province"),
    (Move(u("A PAR"), "XYZ"), "FRANCE", "no place called XYZ"),
    (Move(u("F MAO"), "SPA"), "FRANCE", "F MAO - SPA: name the coast (SPA/NC or SPA/SC)"),
    (Move(u("F GAS"), "SPA/SC"), "RUSSIA", "F GAS cannot reach SPA/SC"),
    (Move(u("F BRE"), "ENG", True), "FRANCE", "F BRE cannot be convoyed: only armies are"),
    (Move(u("A MUN"), "BEL", True), "GERMANY", "A MUN cannot be convoyed to BEL"),
    (Move(u("A SEV"), "NAF"), "RUSSIA", "A SEV cannot reach NAF"),  # the Black Sea leads nowhere else
    (SupportMove(u("F BRE"), u("A PAR"), "BUR"), "FRANCE", "F BRE cannot reach BUR"),
    (SupportHold(u("A PAR"), u("A MUN")), "FRANCE", "A PAR cannot reach MUN"),
    (SupportHold(u("A PAR"), u("A PIC")), "FRANCE", "no unit at PIC"),
    (SupportHold(u("A PAR"), u("A PAR")), "FRANCE", "A PAR cannot support itself"),
    (SupportMove(u("A PAR"), u("F BRE"), "PIC"), "FRANCE", None),
    (SupportMove(u("A BUR"), u("F BRE"), "PAR"), "FRANCE", "F BRE cannot reach PAR"),
    (SupportMove(u("A PAR"), u("A MOS"), "BUR"), "FRANCE", "A MOS cannot reach BUR"),
    (SupportMove(u("F MAO"), u("F GAS"), "SPA/SC"), "FRANCE", "F GAS cannot reach SPA/SC"),
    (Convoy(u("F BRE"), u("A PAR"), "LON"), "FRANCE", "F BRE cannot convoy: only fleets in sea provinces do"),
    (Convoy(u("F ENG"), u("F LON"), "BEL"), "ENGLAND", "F LON cannot be convoyed: only armies are"),
    (Convoy(u("F ENG"), u("A MOS"), "BEL"), "ENGLAND", "A MOS cannot be convoyed to BEL"),
    (Convoy(u("F ENG"), u("A SEV"), "ANK"), "ENGLAND", "F ENG cannot be part of a convoy of A SEV to ANK"),
    (Convoy(u("F ENG"), u("A PAR"), "LON"), "ENGLAND", "A PAR cannot be convoyed to LON"),
    (Retreat(u("A PAR"), "PIC"), "FRANCE", "A PAR R PIC cannot be given in a movement phase"),
    (Build(u("A PAR")), "FRANCE", "A PAR B cannot be given in a movement phase"),
])
def test_refused_orders_say_why(order, power, expected):
    assert problem(order, power) == expected


@pytest.mark.parametrize("order, power", [
    (Hold(u("A PAR")), "FRANCE"),
    (Move(u("A PAR"), "BUR"), "FRANCE"),  # into a friendly unit: may still succeed if it moves
    (Move(u("A WAL"), "BEL"), "ENGLAND"),  # by convoy: no fleet needs to be ordered yet
    (Move(u("A WAL"), "LON", True), "ENGLAND"),  # adjacent, but the player asks for the convoy
    (Move(u("A SEV"), "ANK"), "RUSSIA"),  # across the Black Sea
    (Move(u("F MAO"), "SPA/NC"), "FRANCE"),
    (Move(u("F GAS"), "SPA"), "RUSSIA"),  # only one coast in reach (DATC 4.B.2)
    (Move(u("F SPA"), "MAO"), "FRANCE"),  # the fleet's coast may be left out
    (SupportHold(u("A PAR"), u("F BRE")), "FRANCE"),
    (SupportHold(u("F MAO"), u("F BRE")), "FRANCE"),
    (SupportMove(u("F ENG"), u("A WAL"), "BEL"), "ENGLAND"),  # support of a convoyed move
    (SupportMove(u("A PAR"), u("A MUN"), "BUR"), "FRANCE"),  # supporting a foreign attack on oneself
    (SupportMove(u("F MAO"), u("F GAS"), "SPA"), "FRANCE"),  # into the province, not the coast
    (SupportMove(u("F MAO"), u("F GAS"), "SPA/NC"), "FRANCE"),  # or to the coast the fleet can reach
    (Move(u("A PAR"), "PIC/NC"), "FRANCE"),  # a coast on an army's move is ignored (DATC 4.B.6)
    (Convoy(u("F ENG"), u("A WAL"), "BEL"), "ENGLAND"),
    (Convoy(u("F NTH"), u("A WAL"), "DEN"), "GERMANY"),  # a foreign army, through ENG and NTH
])
def test_accepted_orders(order, power):
    assert problem(order, power) is None


RETREATS = make_position(
    "F1901R",
    {"GERMANY": ["A BEL", "F HOL"], "FRANCE": ["A BUR"]},
    dislodged=[DislodgedUnit("FRANCE", u("A PIC"), "BEL", ("BRE", "PAR"))],
)


@pytest.mark.parametrize("order, power, expected", [
    (Retreat(u("A PIC"), "PAR"), "FRANCE", None),
    (Disband(u("A PIC")), "FRANCE", None),
    (Retreat(u("A PIC"), "BEL"), "FRANCE", "A PIC cannot retreat to BEL (only BRE, PAR)"),
    (Retreat(u("A PIC"), "PAR"), "GERMANY", "A PIC is not yours"),
    (Retreat(u("A BUR"), "PAR"), "FRANCE", "no dislodged unit A BUR"),
    (Hold(u("A BUR")), "FRANCE", "A BUR H cannot be given in a retreat phase"),
])
def test_retreats(order, power, expected):
    assert problem(order, power, RETREATS) == expected


ADJUSTMENTS = make_position(
    "W1901A",
    {"GERMANY": ["A BEL", "F HOL", "A RUH", "A BER"], "FRANCE": ["A PAR", "A BUR", "F MAO"],
     "RUSSIA": ["A WAR"]},
    {"GERMANY": ["BER", "KIE", "MUN", "HOL", "BEL", "DEN"], "FRANCE": ["BRE", "PAR"],
     "RUSSIA": ["STP", "MOS", "WAR", "SEV"]},
)


@pytest.mark.parametrize("order, power, expected", [
    (Build(u("F KIE")), "GERMANY", None),
    (Build(u("A MUN")), "GERMANY", None),
    (Waive(), "GERMANY", None),
    (Build(u("F MUN")), "GERMANY", "MUN is inland: fleets are built only on coasts"),
    (Build(u("A BER")), "GERMANY", "BER is occupied by A BER"),
    (Build(u("A HOL")), "GERMANY", "HOL is not a home centre of GERMANY"),
    (Build(u("F STP")), "RUSSIA", "a fleet at STP needs a coast: STP/NC or STP/SC"),
    (Build(u("F STP/SC")), "RUSSIA", None),
    (Build(u("A STP")), "RUSSIA", None),
    (Build(u("F BRE")), "FRANCE", "FRANCE has no build"),
    (Waive(), "FRANCE", "FRANCE has no build to waive"),
    (Remove(u("F MAO")), "FRANCE", None),
    (Remove(u("A BEL")), "FRANCE", "A BEL is not yours"),
    (Remove(u("A BEL")), "GERMANY", "GERMANY has no unit to remove"),
    (Hold(u("A PAR")), "FRANCE", "A PAR H cannot be given in an adjustment phase"),
])
def test_adjustments(order, power, expected):
    assert problem(order, power, ADJUSTMENTS) == expected


def test_unowned_home_centre_is_no_build_site():
    position = make_position("W1901A", {"GERMANY": ["A RUH"]}, {"GERMANY": ["KIE", "HOL"], "FRANCE": ["MUN"]})
    assert problem(Build(u("A MUN")), "GERMANY", position) == "GERMANY does not own MUN"


def test_no_waive_without_a_place_to_build():
    position = make_position("W1901A", {"GERMANY": ["A KIE"]}, {"GERMANY": ["KIE", "HOL"]})
    assert problem(Waive(), "GERMANY", position) == "GERMANY has nowhere to build"


def test_a_submission_gives_one_order_per_unit():
    orders: list[Order] = [Hold(u("A PAR")), Move(u("A PAR"), "BUR"), Move(u("F BRE"), "PIC")]
    assert orders_problems(orders, "FRANCE", MOVEMENT, STANDARD) == [
        None, "A PAR already has an order", None,
    ]


def test_a_submission_builds_no_more_than_allowed_and_once_per_place():
    # GERMANY owns 6 centres with 4 units: two builds (or waives).
    orders: list[Order] = [Build(u("A KIE")), Build(u("F KIE")), Waive(), Build(u("A MUN")), Build(u("F HOL"))]
    assert orders_problems(orders, "GERMANY", ADJUSTMENTS, STANDARD) == [
        None,
        "a unit is already built at KIE",
        None,
        "GERMANY may build only 2",
        "HOL is not a home centre of GERMANY",
    ]


def test_a_submission_removes_no_more_than_owed():
    orders = [Remove(u("A PAR")), Remove(u("A BUR")), Remove(u("A PAR"))]
    assert orders_problems(orders, "FRANCE", ADJUSTMENTS, STANDARD) == [
        None, "FRANCE must remove only 1", "A PAR already has an order",
    ]
