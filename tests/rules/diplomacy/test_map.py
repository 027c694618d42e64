"""The standard map: counts, symmetric graphs, coasts, tricky adjacencies, the 1901 start."""
from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from shared.rules.diplomacy.geography import MapDataError, build_map, load_map
from shared.rules.diplomacy.orders import UnitType

A, F = UnitType.ARMY, UnitType.FLEET


@pytest.fixture(scope="module")
def game_map():
    return load_map("standard")


@pytest.fixture(scope="module")
def raw_data():
    text = resources.files("shared.variants").joinpath("standard", "map.json").read_text("utf-8")
    return json.loads(text)


def test_seventy_five_provinces_plus_impassable_switzerland(game_map):
    assert len(game_map.provinces) == 76
    passable = [p for p in game_map.provinces.values() if p.kind != "impassable"]
    assert len(passable) == 75
    assert [p.code for p in game_map.provinces.values() if p.kind == "impassable"] == ["SWI"]


def test_kinds_counts(game_map):
    kinds = [p.kind for p in game_map.provinces.values()]
    assert kinds.count("sea") == 19
    assert kinds.count("land") == 14
    assert kinds.count("coast") == 42


def test_thirty_four_centres_and_twenty_two_homes(game_map):
    assert len(game_map.supply_centres) == 34
    assert sum(len(h) for h in game_map.home_centres.values()) == 22
    assert game_map.home_centres["RUSSIA"] == {"MOS", "SEV", "STP", "WAR"}
    assert game_map.provinces["VIE"].home_of == "AUSTRIA"
    assert game_map.provinces["BEL"].home_of is None and game_map.provinces["BEL"].supply_centre


def test_powers_sorted(game_map):
    assert game_map.powers == ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def test_graphs_are_symmetric(game_map):
    for province in game_map.provinces:
        for other in game_map.army_neighbours(province):
            assert province in game_map.army_neighbours(other)
    for location in game_map.locations:
        for other in game_map.fleet_neighbours(location):
            assert location in game_map.fleet_neighbours(other), (location, other)


def test_the_six_coasts(game_map):
    coasts = {loc for loc in game_map.locations if "/" in loc}
    assert coasts == {"STP/NC", "STP/SC", "SPA/NC", "SPA/SC", "BUL/EC", "BUL/SC"}
    assert game_map.fleet_locations("STP") == ("STP/NC", "STP/SC")
    assert game_map.fleet_locations("BRE") == ("BRE",)
    assert game_map.fleet_locations("NTH") == ("NTH",)
    assert game_map.fleet_locations("PAR") == ()
    # a split-coast province is in the fleet graph only through its coasts
    assert game_map.fleet_neighbours("STP") == frozenset()


@pytest.mark.parametrize(
    "a, b",
    [
        ("STP/NC", "BAR"), ("STP/NC", "NWY"), ("STP/SC", "BOT"), ("STP/SC", "FIN"), ("STP/SC", "LVN"),
        ("SPA/NC", "MAO"), ("SPA/NC", "GAS"), ("SPA/NC", "POR"), ("SPA/SC", "MAO"), ("SPA/SC", "LYO"),
        ("SPA/SC", "WES"), ("SPA/SC", "MAR"), ("BUL/EC", "BLA"), ("BUL/EC", "RUM"), ("BUL/EC", "CON"),
        ("BUL/SC", "AEG"), ("BUL/SC", "GRE"), ("BUL/SC", "CON"), ("KIE", "BER"), ("KIE", "BAL"),
        ("BER", "BAL"), ("DEN", "SWE"), ("CON", "BLA"), ("CON", "AEG"), ("DEN", "KIE"),
    ],
)
def test_fleet_adjacent(game_map, a, b):
    assert b in game_map.fleet_neighbours(a)
    assert a in game_map.fleet_neighbours(b)


@pytest.mark.parametrize(
    "a, b",
    [
        ("STP/NC", "BOT"), ("STP/SC", "BAR"), ("SPA/NC", "LYO"), ("SPA/NC", "MAR"), ("SPA/SC", "GAS"),
        ("BUL/EC", "AEG"), ("BUL/SC", "BLA"), ("ROM", "VEN"), ("VEN", "TUS"), ("APU", "ROM"),
        ("BAL", "SKA"), ("NTH", "BAL"), ("MUN", "KIE"),
    ],
)
def test_fleet_not_adjacent(game_map, a, b):
    assert b not in game_map.fleet_neighbours(a)


def test_army_adjacency_spot_checks(game_map):
    assert game_map.army_neighbours("KIE") == {"BER", "DEN", "HOL", "MUN", "RUH"}
    assert "SWE" in game_map.army_neighbours("DEN")
    assert game_map.army_neighbours("BUL") == {"CON", "GRE", "RUM", "SER"}
    assert game_map.army_neighbours("STP/NC") == game_map.army_neighbours("STP")
    assert "SWI" not in {n for p in game_map.provinces for n in game_map.army_neighbours(p)}
    assert game_map.army_neighbours("NTH") == frozenset()


def test_fleet_adjacency_spot_checks(game_map):
    assert "MUN" not in game_map.fleet_neighbours("KIE")
    assert "VEN" not in game_map.fleet_neighbours("ROM")  # the coasts do not touch
    assert "BOT" in game_map.fleet_neighbours("STP/SC")
    assert "BOT" not in game_map.fleet_neighbours("STP/NC")
    assert "SPA/NC" in game_map.fleet_neighbours("MAO")
    assert "SPA" not in game_map.fleet_neighbours("MAO")  # a fleet steps to a coast


def test_fleets_never_reach_inland_provinces(game_map):
    inland = {c for c, p in game_map.provinces.items() if p.kind in ("land", "impassable")}
    for location in game_map.locations:
        assert not (game_map.fleet_neighbours(location) & inland)


def test_fleet_destinations_in_a_split_province(game_map):
    assert game_map.fleet_destinations_in("MAR", "SPA") == ("SPA/SC",)
    assert game_map.fleet_destinations_in("GAS", "SPA") == ("SPA/NC",)
    assert game_map.fleet_destinations_in("MAO", "SPA") == ("SPA/NC", "SPA/SC")


def test_kind_helpers(game_map):
    assert game_map.is_sea("NTH") and not game_map.is_land("NTH")
    assert game_map.is_land("PAR") and not game_map.is_coastal("PAR")
    assert game_map.is_land("BRE") and game_map.is_coastal("BRE")
    assert game_map.is_coastal("STP/NC")
    assert not game_map.is_land("SWI") and not game_map.is_sea("SWI")


def test_starting_position(game_map):
    units = {power: {str(u) for u in us} for power, us in game_map.starting_units.items()}
    assert sum(len(u) for u in units.values()) == 22
    assert units["RUSSIA"] == {"A MOS", "F SEV", "F STP/SC", "A WAR"}
    assert units["ENGLAND"] == {"F EDI", "F LON", "A LVP"}
    assert units["TURKEY"] == {"F ANK", "A CON", "A SMY"}
    for power, us in game_map.starting_units.items():
        assert {u.province for u in us} == game_map.home_centres[power]


def test_names_and_daide_codes(game_map):
    assert game_map.provinces["NTH"].names["da"] == "Nordsøen"
    assert game_map.provinces["MUN"].names["da"] == "München"
    assert game_map.provinces["ENG"].daide == "ECH"
    assert game_map.provinces["BOT"].daide == "GOB"
    assert game_map.provinces["LYO"].daide == "GOL"
    assert "MID" in game_map.provinces["MAO"].aliases
    assert game_map.power_info["AUSTRIA"].daide == "AUS"
    assert all(p.names.get("da") for p in game_map.provinces.values())


def test_load_map_is_cached(game_map):
    assert load_map() is game_map


def test_unknown_variant_is_a_clear_error():
    with pytest.raises(MapDataError, match="no map data"):
        load_map("no_such_variant")
    with pytest.raises(MapDataError):
        load_map("../etc")


def test_one_way_adjacency_is_refused(raw_data):
    data = copy.deepcopy(raw_data)
    data["army_adjacency"]["PAR"].append("MUN")
    with pytest.raises(MapDataError, match="not symmetric"):
        build_map(data)


def test_unknown_code_is_refused(raw_data):
    data = copy.deepcopy(raw_data)
    data["fleet_adjacency"]["XYZ"] = ["NTH"]
    data["fleet_adjacency"]["NTH"].append("XYZ")
    with pytest.raises(MapDataError, match="XYZ"):
        build_map(data)


def test_bare_split_coast_in_fleet_graph_is_refused(raw_data):
    data = copy.deepcopy(raw_data)
    data["fleet_adjacency"]["STP"] = ["BAR"]
    data["fleet_adjacency"]["BAR"].append("STP")
    with pytest.raises(MapDataError, match="STP"):
        build_map(data)


def test_malformed_data_is_a_map_error(raw_data):
    data = copy.deepcopy(raw_data)
    del data["provinces"]["PAR"]["kind"]
    with pytest.raises(MapDataError):
        build_map(data)


def test_the_split_provinces(game_map):
    assert [p for p in game_map.provinces if game_map.is_split(p)] == ["BUL", "SPA", "STP"]
