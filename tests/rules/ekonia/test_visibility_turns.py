"""What a resolved turn tells whom (docs/rules/ekonia.md section 14): orders,
battles, privateers in battle, events, ledgers, lanes. Viewers: ALPHA ("owner", the attacker
or the privateers' owner), BETA ("other", the defender), GAMMA (a bystander, "spy" in the
helpers) and the public."""
from __future__ import annotations

from tests.utils.ekonia_viewers import add_unit, fresh_state, resolved_event, text, turn_views


def battle_of_b_field():
    state = fresh_state()
    state["wars"] = [["ALPHA", "BETA"]]
    state["territories"]["mid-two"]["owner"] = "ALPHA"
    for i in range(7, 11):
        add_unit(state, f"ALPHA-{i}", "INFANTRY", "mid-two")
    return resolved_event(state, {"ALPHA": ["MOVE 4 INFANTRY mid-two -> b-field"], "BETA": ["MORALE 1"]})


def test_orders_and_their_results_reach_their_state_only():
    history = turn_views(battle_of_b_field())
    assert list(history["owner"]["orders"]) == ["ALPHA"] and list(history["other"]["orders"]) == ["BETA"]
    assert history["spy"]["orders"] == {"GAMMA": []} and history["public"]["orders"] == {}
    assert "MORALE" not in text(history["owner"]) and "MOVE" not in text(history["other"])


def test_the_sides_of_a_battle_learn_it_all_and_bystanders_only_where_it_was():
    event = battle_of_b_field()
    history = turn_views(event)
    for name in ("spy", "public"):
        assert history[name]["details"]["battles"] == [{"territory": "b-field"}]
        assert history[name]["details"]["rolls"] == []
    mine, theirs = history["owner"]["details"]["battles"][0], history["other"]["details"]["battles"][0]
    assert sorted(s["powers"] for s in mine["sides"]) == [["ALPHA"], ["BETA"]] == \
        sorted(s["powers"] for s in theirs["sides"])
    beta_side = next(s for s in mine["sides"] if s["powers"] == ["BETA"])
    assert "morale 1" in beta_side["units"][0]["modifiers"]  # the battle shows BETA's morale to ALPHA
    assert all("unit" not in u for u in beta_side["units"])  # but not BETA's unit ids
    assert all("unit" in u for u in next(s for s in mine["sides"] if s["powers"] == ["ALPHA"])["units"])
    assert mine["winner"] == theirs["winner"] == event["details"]["battles"][0]["winner"]
    assert mine["destroyed"].get("BETA") == ["INFANTRY"] and theirs["destroyed"]["BETA"] == ["BETA-2"]
    assert sorted(r["powers"] for r in history["owner"]["details"]["rolls"]) == [["ALPHA"], ["BETA"]]


def privateers_and_a_transport():
    """ALPHA's privateer trireme holds the sea-west lane; BETA sails a trireme and, alone, a
    transport into it (two battles on two turns: a fight, then an overrun)."""
    state = fresh_state()
    state["units"]["ALPHA-3"]["privateer"] = True
    state["sea_lanes"]["sea-west"] = {"controller": "ALPHA", "privateer": True}
    add_unit(state, "BETA-7", "TRIREME", "sea-east")
    first = resolved_event(state, {"BETA": ["MOVE 1 TRIREME sea-east -> sea-west"]}, seed=0)
    after = first["position"]
    add_unit(after, "BETA-9", "TRANSPORT", "sea-east")
    second = resolved_event(after, {"BETA": ["MOVE 1 TRANSPORT sea-east -> sea-west"]}, seed=0)
    return first, second


def test_privateers_fight_without_a_name_and_their_bounty_is_their_owners_secret():
    first, second = privateers_and_a_transport()
    for event in (first, second):
        history = turn_views(event)
        battle = event["details"]["battles"][0]
        for name in ("other", "spy", "public"):
            assert "ALPHA" not in text(history[name]["details"]["battles"])
            assert "ALPHA" not in text(history[name]["details"]["rolls"])
            assert "ALPHA" not in text(history[name]["details"]["sea_lanes"])
        seen_by_beta = history["other"]["details"]["battles"][0]
        assert battle["winner"] == ["ALPHA"] and seen_by_beta["winner"] == ["PRIVATEERS"]
        assert history["owner"]["details"]["battles"][0]["bounty"] == battle["bounty"] == {"ALPHA": 20}
        assert seen_by_beta["bounty"] == {}
        assert history["owner"]["details"]["battles"][0]["winner"] == battle["winner"]
    assert second["details"]["battles"][0]["overrun"] == ["BETA"]
    assert turn_views(second)["other"]["details"]["battles"][0]["overrun"] == ["BETA"]


def test_hidden_improvements_built_are_the_builders_news_forts_everyones():
    state = fresh_state()
    state["powers"]["ALPHA"]["gold"] = 200
    event = resolved_event(state, {"ALPHA": ["SHIPYARD alpha", "GASVENT alpha", "FORT a-field"]})
    history = turn_views(event)
    built = [(e["what"], e["territory"]) for e in history["owner"]["details"]["events"] if e["event"] == "built"]
    assert built == [("SHIPYARD", "alpha"), ("GASVENT", "alpha"), ("FORT", "a-field")]
    for name in ("other", "spy", "public"):
        events = history[name]["details"]["events"]
        assert [(e["what"], e["territory"]) for e in events if e["event"] == "built"] == [("FORT", "a-field")]
        assert "ALPHA" not in history[name]["details"]["ledgers"]
    assert history["owner"]["details"]["ledgers"]["ALPHA"]["end_gold"] == event["position"]["powers"]["ALPHA"]["gold"]


def test_a_fallen_forts_lost_fleet_is_news_to_its_owner_only():
    state = fresh_state()
    state["wars"] = [["ALPHA", "BETA"]]
    state["territories"]["beta"].update({"fort": True, "shipyard": True})
    state["units"]["BETA-1"]["location"] = "b-town"
    add_unit(state, "BETA-7", "TRIREME", "beta", stored=True)
    state["territories"]["mid-two"]["owner"] = "ALPHA"
    for i in range(4, 8):
        add_unit(state, f"ALPHA-{i}", "INFANTRY", "mid-two")
    event = resolved_event(state, {"ALPHA": ["MOVE 4 INFANTRY mid-two -> beta"]})
    kinds = {name: {e["event"] for e in h["details"]["events"]} for name, h in turn_views(event).items()}
    assert {"stored units lost", "improvements razed"} <= kinds["other"]
    for name in ("owner", "spy", "public"):
        assert not {"stored units lost", "improvements razed"} & kinds[name]
        assert "capital moved" in kinds[name] and "neutralised" in kinds[name]


# -- what a player could learn that the rules hide (docs/rules/ekonia.md V4, V8, D30, D31) ----


def test_v4_privateers_of_two_owners_swapping_lanes_change_nothing_anyone_else_sees():
    def game(swap: bool):
        state = fresh_state()
        state["units"]["ALPHA-3"]["privateer"] = True  # on the sea-west lane
        add_unit(state, "BETA-7", "TRIREME", "sea-east", privateer=True)
        state["sea_lanes"]["sea-west"] = {"controller": "ALPHA", "privateer": True}
        state["sea_lanes"]["sea-east"] = {"controller": "BETA", "privateer": True}
        state["powers"]["ALPHA"]["spared"], state["powers"]["BETA"]["spared"] = ["BETA"], ["ALPHA"]
        orders = {"ALPHA": ["MOVE 1 TRIREME sea-west -> sea-east"],
                  "BETA": ["MOVE 1 TRIREME sea-east -> sea-west"]} if swap else {}
        return resolved_event(state, orders)

    swapped, stayed = game(True), game(False)
    assert swapped["details"]["sea_lanes"]  # the engine records who holds each lane now
    for name in ("spy", "public"):  # GAMMA and the public: privateers held both lanes, and still do
        assert text(turn_views(swapped)[name]) == text(turn_views(stayed)[name]), name
        assert turn_views(swapped)[name]["details"]["sea_lanes"] == []


def privateer_battle(owner: str):
    """BETA's trireme sails into sea-west, where privateers of ``owner`` hold the lane."""
    state = fresh_state()
    state["units"]["ALPHA-3"]["location"] = "sea-east"  # out of the way
    add_unit(state, f"{owner}-8", "TRIREME", "sea-west", privateer=True)
    state["sea_lanes"]["sea-west"] = {"controller": owner, "privateer": True}
    add_unit(state, "BETA-7", "TRIREME", "sea-east")
    return resolved_event(state, {"BETA": ["MOVE 1 TRIREME sea-east -> sea-west"]}, seed=5)


def test_v8_where_privateers_stand_in_a_battle_report_says_nothing_of_their_owner():
    # owned by ALPHA (whose name sorts before BETA's) or by GAMMA (after): BETA, the other side,
    # gets the same report, the same rolls, the same outcome
    by_alpha, by_gamma = privateer_battle("ALPHA"), privateer_battle("GAMMA")
    assert by_alpha["details"]["battles"][0]["sides"] != []
    beta_sees = [turn_views(e)["other"] for e in (by_alpha, by_gamma)]
    assert text(beta_sees[0]) == text(beta_sees[1])
    assert "PRIVATEERS" in text(beta_sees[0]["details"]["battles"])
    assert text(turn_views(by_alpha)["public"]) == text(turn_views(by_gamma)["public"])


def test_d6_privateers_attacks_are_unexpected_whoever_owns_them():
    # ALPHA's trireme defends sea-west against privateers; whether their owner is BETA, at war
    # with ALPHA, or GAMMA, at peace with it, the modifiers ALPHA sees are the same
    def game(owner):
        state = fresh_state()
        state["wars"] = [["ALPHA", "BETA"]]
        add_unit(state, f"{owner}-8", "TRIREME", "sea-east", privateer=True)
        return resolved_event(state, {owner: ["MOVE 1 TRIREME sea-east -> sea-west"]}, seed=5)

    seen = [turn_views(game(owner))["owner"]["details"]["battles"] for owner in ("BETA", "GAMMA")]
    assert text(seen[0]) == text(seen[1])
    alpha_side = next(s for s in seen[0][0]["sides"] if s["powers"] == ["ALPHA"])
    assert alpha_side["units"][0]["modifiers"]["unprepared"] == -0.1


def test_d31_a_battle_report_never_shows_a_hidden_ship_yard():
    def game(yard: bool):
        state = fresh_state()
        state["wars"] = [["ALPHA", "BETA"]]
        state["territories"]["alpha"]["shipyard"] = yard  # next to sea-west, where ALPHA defends
        add_unit(state, "BETA-7", "TRIREME", "sea-east")
        return resolved_event(state, {"BETA": ["MOVE 1 TRIREME sea-east -> sea-west"]}, seed=5)

    with_yard, without = game(True), game(False)
    for name in ("other", "spy", "public"):
        assert text(turn_views(with_yard)[name]) == text(turn_views(without)[name]), name
