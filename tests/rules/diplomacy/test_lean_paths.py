"""The engine's lean paths (docs/performance.md, 2026-12-02, "The rules engine: a numbered board
and fewer lookups", and "The rules engine: the contract writes what it reads") give the same
answers as the general ones: positions whose fields are mappings other than dicts, units in a
province the map lacks, documents keyed or listed out of the canonical order, powers met out of
turn, and convoy questions answered over bit sets of seas."""
from __future__ import annotations

from types import MappingProxyType

import pytest

from shared.rules.diplomacy import adjudicate, adjudicate_document, position_from_document, resolution_document
from shared.rules.diplomacy.adjustments import adjustment_counts, centre_counts
from shared.rules.diplomacy.document import _read_orders as read_orders
from shared.rules.diplomacy.document_fields import DocumentError, centres_by_power, power_mapping, units_by_power
from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.movement import resolve_movement
from shared.rules.diplomacy.normalise import normalise_order
from shared.rules.diplomacy.orders import Move, SupportMove, Unit, UnitType
from shared.rules.diplomacy.parser import ParseError
from shared.rules.diplomacy.phase import Phase
from shared.rules.diplomacy.position import Position, PowerUnit
from tests.rules.diplomacy.test_compiled import random_documents
from tests.rules.diplomacy.test_datc_movement import position_of, read_order

MAP = load_map("standard")


def outcome_of(position: Position, orders: dict[str, list[str]]):
    return resolve_movement(position, {p: [read_order(o) for o in os] for p, os in orders.items()}, MAP)


def summary(outcome) -> tuple:
    return ([(r.power, str(r.order), r.result, r.reason) for r in outcome.results],
            sorted((pu.power, str(pu.unit)) for pu in outcome.units.values()),
            [(d.power, str(d.unit), d.attacker_from, d.retreats) for d in outcome.dislodged],
            outcome.standoffs)


def test_a_position_of_read_only_mappings_resolves_as_one_of_dicts() -> None:
    units = {"ENGLAND": ["F LON", "F NTH", "A YOR"], "FRANCE": ["F BRE", "A PAR"], "GERMANY": ["A RUH", "F HOL"]}
    orders = {"ENGLAND": ["F NTH C A YOR - BEL", "A YOR - BEL", "F LON - ENG"],
              "FRANCE": ["F BRE - ENG", "A PAR - BEL"], "GERMANY": ["A RUH S A PAR - BEL", "F HOL S A YOR - BEL"]}
    plain = position_of({"units": units})
    proxied = Position(plain.phase, MappingProxyType(dict(plain.units)), MappingProxyType(dict(plain.centres)),
                       (), plain.variant)
    assert summary(outcome_of(proxied, orders)) == summary(outcome_of(plain, orders))
    assert dict(summary(outcome_of(plain, orders))[1])["ENGLAND"]  # the board moved on


def test_a_unit_in_a_province_the_map_lacks_holds_beside_the_rest() -> None:
    plain = position_of({"units": {"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A MUN"]}})
    odd = dict(plain.units)
    odd["XYZ"] = PowerUnit("ITALY", Unit(UnitType.ARMY, "XYZ"))  # built by hand: no such province
    position = Position(plain.phase, odd, plain.centres, (), plain.variant)
    orders = {"FRANCE": ["A PAR - BUR", "A BUR - MUN"], "GERMANY": ["A MUN H"]}
    outcome = outcome_of(position, orders)
    assert [(str(r.order), r.result) for r in outcome.results] == [
        ("A PAR - BUR", "fails"), ("A BUR - MUN", "fails"), ("A MUN H", "succeeds")]
    assert outcome.units["XYZ"] == odd["XYZ"]
    assert summary(outcome)[0] == summary(outcome_of(plain, orders))[0]


def test_convoy_legality_over_sea_bits_finds_long_chains_and_missing_links() -> None:
    units = {"ENGLAND": ["A LON", "F ENG", "F MAO", "F WES"], "ITALY": ["F TYS"]}
    long_way = outcome_of(position_of({"units": units}),
                          {"ENGLAND": ["A LON - TUN", "F ENG C A LON - TUN", "F MAO C A LON - TUN",
                                       "F WES C A LON - TUN"]})
    assert long_way.units["TUN"].unit == Unit(UnitType.ARMY, "TUN")
    broken = dict(units)
    broken["ENGLAND"] = ["A LON", "F ENG", "F WES"]  # no fleet in MAO: no chain, the move is void
    outcome = outcome_of(position_of({"units": broken}), {"ENGLAND": ["A LON - TUN"]})
    assert outcome.results[0].result == "void"
    assert "no convoy is possible" in outcome.results[0].reason
    # a support of a convoyed move may not count on the supporter's own fleet (DATC 6.B.13-like)
    alone = outcome_of(position_of({"units": {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["A BEL"]}}),
                       {"ENGLAND": ["F NTH S A LON - BEL"]})
    assert alone.results[0].result == "void"


def test_power_mapping_returns_a_canonical_document_object_itself_and_reads_others() -> None:
    given = {"ENGLAND": ["A LON"], "FRANCE": []}
    assert power_mapping(given, "units", MAP) is given
    written_loosely = {" england ": ["A LON"]}
    read = power_mapping(written_loosely, "units", MAP)
    assert read == {"ENGLAND": ["A LON"]} and read is not written_loosely
    proxied = MappingProxyType({"ENGLAND": ["A LON"]})
    assert power_mapping(proxied, "units", MAP) == {"ENGLAND": ["A LON"]}


def test_output_groups_powers_met_out_of_turn_and_sorts_what_came_unsorted() -> None:
    def unit(power: str, text: str) -> PowerUnit:
        kind, location = text.split(" ")
        return PowerUnit(power, Unit(UnitType(kind), location))
    listed = [unit("FRANCE", "F BRE"), unit("ENGLAND", "F LON"), unit("FRANCE", "A MAR"), unit("ENGLAND", "A LVP"),
              unit("FRANCE", "A PAR")]
    assert units_by_power(listed) == {"ENGLAND": ["A LVP", "F LON"], "FRANCE": ["A MAR", "A PAR", "F BRE"]}
    centres = {"PAR": "FRANCE", "LON": "ENGLAND", "BRE": "FRANCE", "EDI": "ENGLAND", "MAR": "FRANCE"}
    assert centres_by_power(centres) == {"ENGLAND": ["EDI", "LON"], "FRANCE": ["BRE", "MAR", "PAR"]}
    assert centres_by_power(MappingProxyType(centres)) == centres_by_power(centres)
    assert centre_counts(centres) == {"FRANCE": 3, "ENGLAND": 2}
    board = {pu.unit.province: pu for pu in listed}
    assert adjustment_counts(board, centres) == {"FRANCE": 0, "ENGLAND": 0}
    assert adjustment_counts({"LON": listed[1]}, centres) == {"FRANCE": 3, "ENGLAND": 1}


def test_a_document_out_of_order_comes_back_in_order() -> None:
    document = {"phase": "S1901M", "units": {"FRANCE": ["A PAR", "F BRE"], "ENGLAND": ["F LON"]},
                "centers": {"FRANCE": ["PAR", "BRE"], "ENGLAND": ["LON"]},
                "orders": {"france": ["F BRE - MAO"], "ENGLAND": ["F LON - NTH"], "France": ["A PAR - BUR"]}}
    with pytest.raises(DocumentError, match="orders: 'France' names FRANCE again"):
        adjudicate_document(document)  # two spellings of one power: refused, not one of them dropped
    document["orders"] = {"france": ["F BRE - MAO", "A PAR - BUR"], "ENGLAND": ["F LON - NTH"]}
    out = adjudicate_document(document)
    assert out["centers"] == {"ENGLAND": ["LON"], "FRANCE": ["BRE", "PAR"]}
    assert out["units"] == {"ENGLAND": ["F NTH"], "FRANCE": ["A BUR", "F MAO"]}
    assert [item["order"] for item in out["orders"]["FRANCE"]] == ["F BRE - MAO", "A PAR - BUR"]


def test_normalise_keeps_an_order_already_normal_and_fills_in_one_that_is_not() -> None:
    position = position_of({"units": {"FRANCE": ["F GAS", "A PAR"], "SPAIN": []}})
    standing = position.units["GAS"].unit
    exact = Move(standing, "SPA/NC")
    assert normalise_order(exact, position, MAP) is exact
    bare = Move(standing, "SPA")  # one coast reachable from GAS: filled in
    assert normalise_order(bare, position, MAP) == Move(standing, "SPA/NC")
    army = position.units["PAR"].unit
    support = SupportMove(army, standing, "SPA/NC")  # a fleet supported: the coast stays
    assert normalise_order(support, position, MAP) is support
    wrong_type = Move(Unit(UnitType.ARMY, "GAS"), "SPA")
    assert normalise_order(wrong_type, position, MAP) == Move(standing, "SPA/NC")
    assert Phase.parse("S1901M") == position.phase


CENTRES_AS_LISTED = {"RUSSIA": ["war", "MOS"], "ENGLAND": ["LVP", "EDI", "LON"], "FRANCE": [], "GERMANY": ["MUN"]}


@pytest.mark.parametrize("phase", ["S1901M", "F1901M"])
def test_centres_listed_out_of_order_come_back_sorted_whether_or_not_they_change_hands(phase: str) -> None:
    document = {"phase": phase, "centers": dict(CENTRES_AS_LISTED),
                "units": {"ENGLAND": ["F LON"], "GERMANY": ["A BER"], "RUSSIA": ["A WAR"]},
                "orders": {"GERMANY": ["A BER - KIE"], "ENGLAND": ["F LON H"], "RUSSIA": ["A WAR H"]}}
    centres = adjudicate_document(document)["centers"]
    if phase == "S1901M":  # nobody takes a centre in the spring
        assert centres == {"ENGLAND": ["EDI", "LON", "LVP"], "GERMANY": ["MUN"], "RUSSIA": ["MOS", "WAR"]}
    else:  # Germany takes Kiel in the fall
        assert centres == {"ENGLAND": ["EDI", "LON", "LVP"], "GERMANY": ["KIE", "MUN"], "RUSSIA": ["MOS", "WAR"]}
    assert list(centres) == sorted(centres)
    assert document["centers"] == CENTRES_AS_LISTED  # the input is left as it was


def test_unchanged_centres_are_fresh_lists_not_the_documents_own() -> None:
    document = {"phase": "S1901M", "centers": {"FRANCE": ["BRE", "PAR"]}, "units": {"FRANCE": ["A PAR"]},
                "orders": {"FRANCE": ["A PAR H"]}}
    output = adjudicate_document(document)
    output["centers"]["FRANCE"].append("MAR")
    assert document["centers"] == {"FRANCE": ["BRE", "PAR"]}


def generic_output(document: dict) -> dict:
    """The document through ``adjudicate`` and ``resolution_document``: the general path the
    contract's movement phases leave (docs/performance.md, 2026-12-02, "The rules engine: the
    contract writes what it reads")."""
    position = position_from_document(document)
    entries, _ = read_orders(document.get("orders", {}), position, MAP)
    parsed: dict[str, list] = {}
    for power, _text, order in entries:
        if not isinstance(order, ParseError):
            parsed.setdefault(power, []).append(order)
    return resolution_document(adjudicate(position, parsed), entries, printed=True)


def test_movement_documents_are_written_as_the_general_path_writes_them() -> None:
    documents = [d for d in random_documents(1_500)  # (powers in civil disorder take the general path)
                 if str(d.get("phase", "")).endswith("M") and not d.get("civil_disorder")]
    compared = 0
    for document in documents:
        try:
            expected = generic_output(document)
        except ValueError:
            continue  # a mangled document: refused the same way (test_compiled.py)
        assert adjudicate_document(document) == expected, document
        compared += 1
    assert compared > 400


@pytest.mark.parametrize("given", [None, "", 0, {}, "FRANCE"])
def test_a_civil_disorder_field_that_is_not_a_list_is_refused_even_when_empty(given: object) -> None:
    document = {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A PAR H"]},
                "civil_disorder": given}
    with pytest.raises(DocumentError, match="civil_disorder: expected a list"):
        adjudicate_document(document)


def test_units_built_by_hand_resolve_as_the_maps_shared_ones() -> None:
    """The map's shared units know their place on its board (orders.py, ``Place``); units
    built anywhere else are looked up by province, to the same outcome."""
    shared = position_from_document({"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A BUR", "F MAO"],
                                                                  "GERMANY": ["A MUN", "A RUH"]}})
    assert all(pu.unit.place.slot >= 0 for pu in shared.units.values())
    by_hand = {province: PowerUnit(pu.power, Unit(pu.unit.type, pu.unit.location))
               for province, pu in shared.units.items()}
    assert all(pu.unit.place.slot == -1 for pu in by_hand.values())
    position = Position(shared.phase, by_hand, shared.centres, (), shared.variant)
    orders = {"FRANCE": ["A PAR - BUR", "A BUR - MUN", "F MAO - SPA/NC"], "GERMANY": ["A MUN H", "A RUH S A MUN"]}
    assert summary(outcome_of(position, orders)) == summary(outcome_of(shared, orders))
    orders_by_hand = {"FRANCE": [Move(Unit(UnitType.ARMY, "PAR"), "BUR"), Move(Unit(UnitType.ARMY, "BUR"), "MUN")]}
    outcome = resolve_movement(shared, orders_by_hand, MAP)
    assert [(r.result, r.reason) for r in outcome.results] == [("fails", "cannot dislodge own unit at BUR"),
                                                              ("fails", "bounced at MUN")]
