"""Hidden strength values and what the placeholder views show (rules 50-53, 92-95)."""
from __future__ import annotations

from shared.rules.variants.ekonia import EkoniaVariant
from tests.utils.ekonia_board import fresh_state, small_board

VARIANT = EkoniaVariant(small_board())


def add(state, uid, unit_type, location, **extra):
    state["units"][uid] = {"id": uid, "type": unit_type, "owner": uid.rpartition("-")[0],
                           "location": location, "stored": False, "privateer": False, "built": 0,
                           "aboard": None, "hidden_until": None, **extra}
    owner, _, number = uid.rpartition("-")
    power = state["powers"][owner]
    power["next_unit"] = max(power["next_unit"], int(number) + 1)


def shown_at(state, tid):
    return [u for u in VARIANT.view(state, None)["public"]["units"] if u["location"] == tid]


def test_the_seeds_example_five_infantry_hide_in_a_fort_three_cavalry_more_show_them_all():
    state = fresh_state()
    state["territories"]["a-field"]["fort"] = True
    del state["units"]["ALPHA-2"]
    for i in range(10, 15):
        add(state, f"ALPHA-{i}", "INFANTRY", "a-field")
    assert shown_at(state, "a-field") == []  # strength 5 <= 8
    for i in range(15, 18):
        add(state, f"ALPHA-{i}", "CAVALRY", "a-field")
    assert len(shown_at(state, "a-field")) == 8  # 5 + 3 x 1.5 = 9.5 > 8


def test_cities_hide_three_capitals_five_and_espionage_raises_the_limit():
    state = fresh_state()
    for i in range(10, 14):
        add(state, f"ALPHA-{i}", "INFANTRY", "alpha")  # 5 infantry in the capital: hidden
    assert shown_at(state, "alpha") == []
    add(state, "ALPHA-14", "INFANTRY", "alpha")
    assert len(shown_at(state, "alpha")) == 6
    state["powers"]["ALPHA"]["hide_cities"] = {"turn": 1, "bonus": 3}
    assert shown_at(state, "alpha") == []
    # plain tiles hide nothing; units hidden by espionage do not show
    add(state, "BETA-9", "INFANTRY", "mid-three")
    add(state, "BETA-10", "INFANTRY", "mid-three", hidden_until=1)
    assert shown_at(state, "mid-three") == [{"type": "INFANTRY", "owner": "BETA", "location": "mid-three"}]


def test_privateers_show_without_a_flag_and_stored_ships_do_not_show():
    state = fresh_state()
    state["units"]["ALPHA-3"]["privateer"] = True
    add(state, "ALPHA-9", "TRIREME", "alpha", stored=True)
    units = VARIANT.view(state, None)["public"]["units"]
    assert {"type": "TRIREME", "owner": "PRIVATEERS", "location": "sea-west"} in units
    assert not [u for u in units if u["type"] == "TRIREME" and u["location"] == "alpha"]


def test_a_state_sees_all_of_its_own():
    state = fresh_state()
    add(state, "ALPHA-9", "TRIREME", "alpha", stored=True)
    own = VARIANT.view(state, "ALPHA")["own"]
    assert {u["id"] for u in own["units"]} == {"ALPHA-1", "ALPHA-2", "ALPHA-3", "ALPHA-9"}
    assert own["gold"] == 50


def test_rebasing_and_disbanding_refunds():
    state = fresh_state()
    state["territories"]["a-field"]["fort"] = True
    add(state, "ALPHA-9", "AIRSHIP", "alpha")
    add(state, "ALPHA-10", "TRIREME", "sea-west")
    out = VARIANT.resolve(state, {"ALPHA": ["REBASE 1 AIRSHIP alpha -> a-field",
                                            "DISBAND 1 TRIREME AT sea-west",
                                            "DISBAND 1 INFANTRY AT alpha"]}, settings={}, seed=1)
    assert out.state["units"]["ALPHA-9"]["location"] == "a-field"
    assert out.details["ledgers"]["ALPHA"]["refund"] == 5  # ships give nothing back
