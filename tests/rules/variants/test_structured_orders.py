"""Structured orders, menus and order subjects of every variant (docs/api.md, "Structured
orders"): one shape everywhere, each order's text the canonical one the menu offers."""
from __future__ import annotations

import pytest

from shared.rules.diplomacy import initial_position, position_to_document
from shared.rules.variants import get_variant
from shared.rules.variants.documents import StructuredOrder

COMMON = ("text", "type", "unit", "to")
BOARD_TYPES = {"hold", "move", "support_hold", "support_move", "convoy", "retreat", "disband", "build",
               "remove", "waive", "devastate"}
EKONIA_TYPES = {"move", "load", "unload", "bombard", "drop", "rebase", "disband", "hide_units", "privateer",
                "buy", "improve", "raze", "attack_privateers", "morale", "hide_cities", "spy", "give", "expect",
                "diplomacy"}


@pytest.mark.parametrize("name", ["standard", "dirigible", "ekonia"])
def test_every_menu_is_the_text_menu_structured_in_one_shape(name: str) -> None:
    variant = get_variant(name)
    opening = variant.opening(variant.default_settings, 5)
    for power in opening.must_act:
        text_menu = variant.possible_orders(opening.state, power)
        menu = variant.order_menu(opening.state, power)
        assert {g["key"]: [o["text"] for o in g["orders"]] for g in menu} == {k: v for k, v in text_menu.items() if v}
        for group in menu:
            assert set(group) == {"key", "kind", "unit", "location", "orders"}
            assert group["kind"] in ("unit", "site", "power")
            assert (group["unit"] is None) == (group["kind"] != "unit")
            for order in group["orders"]:
                assert tuple(order)[:4] == COMMON
                assert order["type"] in (EKONIA_TYPES if name == "ekonia" else BOARD_TYPES)
                assert variant.describe_order(order["text"], opening.phase, power) == order
                if group["kind"] == "unit" and name != "ekonia":
                    assert order["unit"] == group["unit"]


def test_the_shapes_of_the_standard_orders() -> None:
    standard = get_variant("standard")

    def shape(text: str, phase: str = "S1901M") -> StructuredOrder:
        return standard.describe_order(text, phase, "ENGLAND")

    assert shape("A LVP - WAL") == {"text": "A LVP - WAL", "type": "move", "unit": "A LVP", "to": "WAL",
                                    "via_convoy": False}
    assert shape("A LVP - NWY VIA")["via_convoy"] is True
    assert shape("F LON H") == {"text": "F LON H", "type": "hold", "unit": "F LON", "to": None}
    assert shape("F NTH S A LVP - YOR") == {"text": "F NTH S A LVP - YOR", "type": "support_move", "unit": "F NTH",
                                            "to": "YOR", "supported": "A LVP"}
    assert shape("F NTH S F LON")["type"] == "support_hold" and shape("F NTH S F LON")["supported"] == "F LON"
    assert shape("F NTH C A LVP - NWY") == {"text": "F NTH C A LVP - NWY", "type": "convoy", "unit": "F NTH",
                                            "to": "NWY", "convoyed": "A LVP"}
    assert shape("F BUL/SC - CON")["unit"] == "F BUL/SC"
    assert shape("A LVP R YOR", "F1901R") == {"text": "A LVP R YOR", "type": "retreat", "unit": "A LVP",
                                              "to": "YOR"}
    assert shape("A LVP D", "F1901R")["type"] == "disband"
    assert shape("F LON B", "W1901A") == {"text": "F LON B", "type": "build", "unit": "F LON", "to": None,
                                          "location": "LON"}
    assert shape("F STP/NC B", "W1901A")["location"] == "STP"
    assert shape("A LVP D", "W1901A")["type"] == "remove"
    assert shape("WAIVE", "W1901A") == {"text": "WAIVE", "type": "waive", "unit": None, "to": None}
    assert shape("not an order") == {"text": "not an order", "type": "unknown", "unit": None, "to": None}
    assert get_variant("dirigible").describe_order("D LON DEVASTATE", "F1901R", "ENGLAND")["type"] == "devastate"
    assert get_variant("dirigible").describe_order("D LON - NTH", "S1901M", "ENGLAND")["unit"] == "D LON"


def test_subjects_name_the_unit_site_or_matter_an_order_is_about() -> None:
    standard, dirigible, ekonia = (get_variant(n) for n in ("standard", "dirigible", "ekonia"))
    for text in ("A LVP - WAL", "A LVP", "LVP", "Army Liverpool", "A LVP S F LON - NTH"):
        assert standard.order_subject(text, "S1901M", "ENGLAND") == "LVP"
    assert standard.order_subject("F STP/SC - BOT", "S1901M", "RUSSIA") == "STP"
    assert standard.order_subject("F LON B", "W1901A", "ENGLAND") == "LON"
    assert standard.order_subject("WAIVE", "W1901A", "ENGLAND") == "WAIVE"
    assert standard.order_subject("Atlantis", "S1901M", "ENGLAND") is None
    # a dirigible flies above the army of its province: two subjects
    assert dirigible.order_subject("D LON - NTH", "S1901M", "ENGLAND") == "D LON"
    assert dirigible.order_subject("F LON - NTH", "S1901M", "ENGLAND") == "LON"
    # Tale of Ekonia: a group's orders are about its type and place; others about their matter
    assert ekonia.order_subject("MOVE 2 INFANTRY anesia -> vieren", "T01", "VIEREN") == "INFANTRY at anesia"
    assert ekonia.order_subject("LOAD 1 INFANTRY anesia -> pellish-bay", "T01", "VIEREN") == "INFANTRY at anesia"
    assert ekonia.order_subject("3 INFANTRY at anesia", "T01", "VIEREN") == "INFANTRY at anesia"
    assert ekonia.order_subject("MORALE 2", "T01", "VIEREN") == ekonia.order_subject("MORALE 3", "T01", "VIEREN")
    assert ekonia.order_subject("WAR ON ARELTON", "T01", "VIEREN") == ekonia.order_subject(
        "PEACE WITH ARELTON", "T01", "VIEREN") != ekonia.order_subject("TRADE WITH ARELTON", "T01", "VIEREN")
    assert ekonia.order_subject("BUY 1 INFANTRY AT vieren", "T01", "VIEREN") != ekonia.order_subject(
        "BUY 1 CAVALRY AT vieren", "T01", "VIEREN")
    assert ekonia.order_subject("nonsense", "T01", "VIEREN") is None


def test_a_winter_menu_has_sites_and_the_power_itself() -> None:
    standard = get_variant("standard")
    position = initial_position("standard")
    state = position_to_document(position)
    state = {**state, "phase": "W1901A", "units": {**state["units"], "ENGLAND": ["F NTH", "A YOR", "F LON"]},
             "centers": {**state["centers"], "ENGLAND": ["EDI", "LON", "LVP", "NWY"]}}
    menu = standard.order_menu(state, "ENGLAND")
    kinds = {g["key"]: g["kind"] for g in menu}
    assert kinds == {"EDI": "site", "LVP": "site", "WAIVE": "power"}
    edinburgh = next(g for g in menu if g["key"] == "EDI")
    assert edinburgh["location"] == "EDI" and {o["text"] for o in edinburgh["orders"]} == {"A EDI B", "F EDI B"}
