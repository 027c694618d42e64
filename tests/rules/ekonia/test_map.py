"""The Tale of Ekonia map: the seed's names, the hex grid, adjacency, balance, starting setup."""
from __future__ import annotations

import copy
import re
from collections import deque
from importlib import resources
from xml.etree import ElementTree

import pytest

from shared.rules.ekonia.draw import main as draw_main
from shared.rules.ekonia.draw import render_svg
from shared.rules.ekonia.geography import (
    EkoniaMapError,
    build_ekonia_map,
    load_ekonia_map,
    read_ekonia_data,
)

SEED_NAMES = [name.replace("_", " ") for name in """
Ninerest Anesia Vieren Lonarc Paresque Thade Chalein_Coast Inesterl Metoan_Fields Thornpire
Lerforth Nikea Tios_Mountains Mernesia Dermore Kremarsh Hitillia Kienore Tralinas Eastlome
Treharn Herlorne Gedeia Clobeck Noroah Rheme Bacanae Wanefork Izina Loemarsh Sedilla Ligeska
Lenmoor Daron_Coast Fenor Miaske Flein Tenshores Helask Taslin Cateina Serlea Murlane Arelton
Meineria Ornesia Pinalta Markon_Wastes Tunport Uresea Inorn Nrein Freitan Einora
""".split()]
"""The 54 territories of the seed, in its order (two-word names joined by _ above)."""

AXIAL_STEPS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


@pytest.fixture(scope="module")
def ekonia():
    return load_ekonia_map()


@pytest.fixture(scope="module")
def raw():
    return read_ekonia_data()


def _reachable(start, graph):
    seen, queue = {start}, deque([start])
    while queue:
        here = queue.popleft()
        for there in graph[here]:
            if there not in seen:
                seen.add(there)
                queue.append(there)
    return seen


# --- the seed's territories --------------------------------------------------------------------


def test_the_seed_lists_54_territories():
    assert len(SEED_NAMES) == 54
    assert len(set(SEED_NAMES)) == 54
    assert "Chalein Coast" in SEED_NAMES and "Markon Wastes" in SEED_NAMES


def test_every_seed_name_is_exactly_one_land_territory(ekonia):
    land_names = [t.name for t in ekonia.territories.values() if t.kind == "land"]
    assert sorted(land_names) == sorted(SEED_NAMES)


def test_ids_are_slugs_of_the_display_names(ekonia):
    for tid, info in ekonia.territories.items():
        assert tid == re.sub(r"[^a-z]+", "-", info.name.lower()).strip("-")
    assert ekonia.territory("chalein-coast").name == "Chalein Coast"
    assert ekonia.territory("metoan-fields").name == "Metoan Fields"


def test_seas_are_named_in_the_same_style_and_do_not_clash(ekonia):
    sea_names = [ekonia.territory(s).name for s in ekonia.seas]
    assert len(sea_names) == 18
    assert not set(sea_names) & set(SEED_NAMES)
    assert all(re.fullmatch(r"[A-Z][a-z]+ (Sound|Narrows|Bay)", n) for n in sea_names)


# --- the grid and adjacency --------------------------------------------------------------------


def test_one_cell_per_territory_and_none_on_the_maelstrom(ekonia):
    cells = [t.hex for t in ekonia.territories.values()]
    assert len(cells) == len(set(cells)) == 72
    assert (0, 0) in ekonia.impassable_hexes and (0, 0) not in cells


def test_stored_adjacency_is_the_grid_plus_listed_changes(raw):
    at = {tuple(t["hex"]): tid for tid, t in raw["territories"].items()}
    expected = {}
    for tid, t in raw["territories"].items():
        q, r = t["hex"]
        expected[tid] = {at[(q + dq, r + dr)] for dq, dr in AXIAL_STEPS if (q + dq, r + dr) in at}
    for a, b in raw["links_added"]:
        expected[a].add(b)
        expected[b].add(a)
    for a, b in raw["links_cut"]:
        expected[a].discard(b)
        expected[b].discard(a)
    assert {tid: set(links) for tid, links in raw["adjacency"].items()} == expected


def test_adjacency_is_symmetric_and_nothing_is_isolated(ekonia):
    for tid in ekonia.territories:
        assert ekonia.neighbours(tid), tid
        for other in ekonia.neighbours(tid):
            assert tid in ekonia.neighbours(other), (tid, other)


def test_coastal_means_land_touching_a_sea(ekonia):
    for tid, info in ekonia.territories.items():
        touches_sea = bool(ekonia.sea_neighbours(tid))
        if info.kind == "land":
            assert info.coastal == touches_sea, tid
        else:
            assert not info.coastal and not info.city


def test_every_sea_touches_a_coast_and_every_lane_is_a_sea(ekonia):
    for sea in ekonia.seas:
        assert any(ekonia.is_land(n) for n in ekonia.neighbours(sea)), sea
    assert ekonia.sea_lanes and ekonia.sea_lanes <= ekonia.seas
    assert not any(ekonia.territory(t).sea_lane for t in ekonia.land_territories)


def test_land_and_sea_neighbours_split_the_neighbours(ekonia):
    for tid in ekonia.land_territories:
        assert ekonia.land_neighbours(tid) | ekonia.sea_neighbours(tid) == ekonia.neighbours(tid)
        assert ekonia.land_neighbours(tid) <= ekonia.land_territories
    for sea in ekonia.seas:
        assert ekonia.land_neighbours(sea) == frozenset()
        assert ekonia.sea_neighbours(sea) <= ekonia.seas


def test_a_known_corner_of_the_map(ekonia):
    assert ekonia.neighbours("vieren") == {
        "ardel-narrows", "chalein-coast", "lonarc", "metoan-fields", "ninerest", "vesk-bay"}
    assert ekonia.land_neighbours("anesia") == {"lonarc", "nrein"}
    assert ekonia.sea_neighbours("serane-sound") == {"ardel-narrows", "ilmara-sound", "morvish-sound"}


def test_all_land_is_one_continent_and_all_water_one_sea(ekonia):
    land = {t: ekonia.land_neighbours(t) for t in ekonia.land_territories}
    assert _reachable("vieren", land) == set(ekonia.land_territories)
    water = {t: ekonia.sea_neighbours(t) for t in ekonia.seas}
    assert _reachable("vesk-bay", water) == set(ekonia.seas)


# --- states and balance ------------------------------------------------------------------------


def test_five_to_seven_states_named_after_their_capitals(ekonia):
    assert 5 <= len(ekonia.states) <= 7
    for sid, state in ekonia.states.items():
        assert state.name == sid
        assert ekonia.territory(state.capital).name.upper() == sid
        assert state.display_name == ekonia.territory(state.capital).name


def test_each_state_starts_with_50_gold(ekonia):
    assert {state.gold for state in ekonia.states.values()} == {50}


def test_capitals_and_cities_lie_inside_their_state(ekonia):
    for state in ekonia.states.values():
        assert state.capital in state.territories
        assert state.cities[0] == state.capital
        assert set(state.cities) <= set(state.territories)
        assert all(ekonia.territory(c).city for c in state.cities)
        assert {t for t in state.territories if ekonia.territory(t).city} == set(state.cities)


def test_no_territory_has_two_starting_owners(ekonia):
    owned = [t for state in ekonia.states.values() for t in state.territories]
    assert len(owned) == len(set(owned))
    assert all(ekonia.is_land(t) for t in owned)


def test_base_income_of_capital_city_tile_and_sea(ekonia):
    assert ekonia.base_income("vieren") == 25
    assert ekonia.base_income("inesterl") == 15
    assert ekonia.base_income("ninerest") == 15  # a neutral city
    assert ekonia.base_income("lonarc") == 10
    assert ekonia.base_income("serane-sound") == 0


def test_starting_incomes_are_within_ten_percent_of_each_other(ekonia):
    incomes = {sid: ekonia.starting_income(sid) for sid in ekonia.states}
    assert min(incomes.values()) >= 0.9 * max(incomes.values()), incomes
    assert incomes["VIEREN"] == 25 + 15 + 4 * 10


def test_states_are_equal_in_size_coast_and_reach(ekonia):
    """Beyond income: the same number of territories, coasts, and lanes within two moves."""
    def profile(state):
        coasts = sum(ekonia.territory(t).coastal for t in state.territories)
        lanes = {lane for lane in ekonia.sea_lanes
                 if min(ekonia.distance(t, lane, sea_cost=1) for t in state.territories) <= 2}
        return len(state.territories), coasts, len(lanes)
    assert len({profile(s) for s in ekonia.states.values()}) == 1


def test_every_state_reaches_every_other(ekonia):
    graph = {t: ekonia.neighbours(t) for t in ekonia.territories}
    land = {t: ekonia.land_neighbours(t) for t in ekonia.land_territories}
    for state in ekonia.states.values():
        by_land_or_sea = _reachable(state.capital, graph)
        by_land = _reachable(state.capital, land)
        for other in ekonia.states.values():
            assert other.capital in by_land_or_sea
            assert other.capital in by_land


def test_neutral_land_and_cities_exist(ekonia):
    neutral = {t for t in ekonia.land_territories if ekonia.owner_at_start(t) is None}
    assert len(neutral) == 54 - sum(len(s.territories) for s in ekonia.states.values())
    assert any(ekonia.territory(t).city for t in neutral)
    assert ekonia.owner_at_start("ninerest") is None
    assert ekonia.owner_at_start("vieren") == "VIEREN"
    assert ekonia.owner_at_start("vesk-bay") is None
    assert ekonia.neutral_capture_strength == 2.5


def test_starting_units_stand_where_they_may(ekonia):
    for sid, state in ekonia.states.items():
        assert state.starting_units
        for unit_type, where in state.starting_units:
            if unit_type in ("infantry", "cavalry"):
                assert ekonia.owner_at_start(where) == sid
            elif unit_type in ("trireme", "transport"):
                assert ekonia.is_sea(where)
                assert ekonia.neighbours(where) & set(state.territories)
            else:
                assert unit_type == "airship" and where == state.capital


# --- distances ---------------------------------------------------------------------------------


def test_distance_counts_a_sea_as_two(ekonia):
    assert ekonia.distance("vieren", "vieren") == 0
    assert ekonia.distance("vieren", "lonarc") == 1
    assert ekonia.distance("vieren", "vesk-bay") == 2
    assert ekonia.distance("vieren", "vesk-bay", sea_cost=1) == 1
    # Vieren to Nikea: over Ninerest and a sea (1 + 2 + 1), shorter than the long way by land
    assert ekonia.distance("vieren", "nikea") == 4
    assert ekonia.distance("vieren", "nikea", sea_cost=5) == 6  # then the long way by land is shorter


def test_distance_is_symmetric_between_lands(ekonia):
    lands = sorted(ekonia.land_territories)[:12]
    for a in lands:
        for b in lands:
            assert ekonia.distance(a, b) == ekonia.distance(b, a)



def test_unknown_territory_is_a_clear_error(ekonia):
    with pytest.raises(KeyError, match="no territory 'atlantis'"):
        ekonia.neighbours("atlantis")


def test_the_map_is_loaded_once():
    assert load_ekonia_map() is load_ekonia_map()


# --- bad data is refused with a reason -----------------------------------------------------------


def _broken(raw, change):
    data = copy.deepcopy(raw)
    change(data)
    return data


def _one_way(data):
    data["adjacency"]["vieren"].remove("lonarc")


def _link_not_on_grid(data):
    data["adjacency"]["vieren"].append("nikea")
    data["adjacency"]["nikea"].append("vieren")


def _ship_on_land(data):
    data["states"]["VIEREN"]["starting_units"].append(["trireme", "lonarc"])


def _capital_outside(data):
    data["states"]["VIEREN"]["capital"] = "ninerest"


def _wrong_coast(data):
    data["territories"]["metoan-fields"]["coastal"] = True


def _land_lane(data):
    data["territories"]["lonarc"]["sea_lane"] = True


def _shared_cell(data):
    data["territories"]["lonarc"]["hex"] = data["territories"]["vieren"]["hex"]


def _doubly_owned(data):
    data["states"]["PARESQUE"]["territories"].append("lonarc")


@pytest.mark.parametrize("change, message", [
    (_one_way, "one-way link"),
    (_link_not_on_grid, "differs from the hex grid"),
    (_ship_on_land, "trireme in lonarc must stand at sea"),
    (_capital_outside, "capital ninerest is not inside"),
    (_wrong_coast, "metoan-fields: coastal is True"),
    (_land_lane, "only a sea can be a sea lane"),
    (_shared_cell, "share the hex cell"),
    (_doubly_owned, "lonarc belongs to both"),
], ids=lambda v: getattr(v, "__name__", "")[1:] if callable(v) else "")
def test_bad_data_is_refused(raw, change, message):
    with pytest.raises(EkoniaMapError, match=message):
        build_ekonia_map(_broken(raw, change))


def test_a_designer_may_add_a_link_by_listing_it(raw):
    def bridge(data):
        data["links_added"].append(["vieren", "nikea"])
        _link_not_on_grid(data)
    bridged = build_ekonia_map(_broken(raw, bridge))
    assert bridged.adjacent("vieren", "nikea")


# --- the drawing -----------------------------------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def committed_svg():
    return resources.files("shared.variants").joinpath("ekonia", "map.svg").read_text("utf-8")


def test_the_committed_svg_is_what_the_data_draws(ekonia, committed_svg):
    assert committed_svg == render_svg(ekonia), (
        "map.svg is stale: run python -m shared.rules.ekonia.draw")


def test_the_svg_is_well_formed_and_draws_every_territory(ekonia, committed_svg):
    root = ElementTree.fromstring(committed_svg.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    polygons = {p.get("id"): p for p in root.iter(f"{SVG}polygon") if p.get("id")}
    assert set(polygons) == set(ekonia.territories)
    fills = {tid: p.get("fill") for tid, p in polygons.items()}
    assert fills["ninerest"] == fills["tios-mountains"]  # neutral grey
    assert fills["vieren"] == fills["thade"] != fills["paresque"]
    assert fills["vesk-bay"] != fills["vieren"]
    dashed = [p for p in root.iter(f"{SVG}polygon") if p.get("stroke-dasharray")]
    assert len(dashed) == len(ekonia.sea_lanes)
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "Metoan" in texts and "Fields" in texts and "Vieren: 80 gold" in texts


def test_the_generator_writes_the_file(tmp_path, ekonia):
    target = tmp_path / "map.svg"
    assert draw_main([str(target)]) == 0
    assert target.read_text("utf-8") == render_svg(ekonia)
