"""Worked battles, computed by hand in the comments (rules 40-62 of docs/rules/ekonia.md).

Each unit's strength is base x (1 + the sum of its modifiers); bombardment is added after;
the dice add 1.5 to the single highest roll (2.5 for a six against a one)."""
from __future__ import annotations

import pytest

from shared.rules.ekonia.combat import choose_survivors, dice_bonus, fight, roll_dice, round_survivors
from shared.rules.ekonia.sides import BattleUnit, battles_at, is_battle, sides_at
from tests.utils.ekonia_board import at_war, battle_context, fresh_state, small_board, unit


def battle(units, rolls, tile, *, start_wars=(("ALPHA", "BETA"),), wars=None, state=None, **kw):
    board = small_board()
    state = state or fresh_state(board)
    at_war(state, *start_wars)
    ctx = battle_context(state, board, units, wars=wars or {tuple(sorted(w)) for w in start_wars}, **kw)
    here = [u for u in units if u.location == tile]
    return fight(ctx, tile, sides_at(here), rolls=rolls).as_json()  # the report as the turn stores it


def side(report, power):
    return next(s for s in report["sides"] if power in s["powers"])


def test_plain_attack_against_an_entrenched_defender():
    # ALPHA: 3 infantry x 1 = 3, one direction (no flanking), roll 5 beats 2: +1.5 -> 4.5
    # BETA: 1 infantry entrenched 1 x 1.3 = 1.3, roll 2 -> 1.3
    # difference 3.2, attackers round down -> 3 survivors
    units = [unit(f"ALPHA-{i}", "INFANTRY", "b-field", moved=True, entered_from="mid-two")
             for i in (1, 2, 3)] + [unit("BETA-1", "INFANTRY", "b-field")]
    report = battle(units, {"ALPHA": 5, "BETA": 2}, "b-field")
    assert side(report, "ALPHA")["total"] == 4.5
    assert side(report, "BETA")["total"] == 1.3
    assert side(report, "BETA")["units"][0]["modifiers"] == {"entrenched": 0.3}
    assert report["winner"] == ["ALPHA"] and report["survivor_strength"] == 3
    assert report["destroyed"] == {"BETA": ["BETA-1"]}


def test_flanking_and_blitz():
    # directions mid-two and mid-three: flanking +20% for every attacker
    # infantry from mid-two ride with cavalry from mid-two: blitz +20% -> 2 x 1.4 = 2.8
    # cavalry 1.5 x 1.2 = 1.8; infantry from mid-three 1 x 1.2 = 1.2; ALPHA 5.8
    # BETA 2 infantry entrenched 2 x 1.3 = 2.6; rolls 3 and 3: no bonus
    # difference 3.2 -> 3: the best fit is three infantry (3.0), the cavalry falls
    units = [unit("ALPHA-1", "INFANTRY", "b-field", moved=True, entered_from="mid-two"),
             unit("ALPHA-2", "INFANTRY", "b-field", moved=True, entered_from="mid-two"),
             unit("ALPHA-3", "CAVALRY", "b-field", moved=True, entered_from="mid-two"),
             unit("ALPHA-4", "INFANTRY", "b-field", moved=True, entered_from="mid-three"),
             unit("BETA-1", "INFANTRY", "b-field"), unit("BETA-2", "INFANTRY", "b-field")]
    report = battle(units, {"ALPHA": 3, "BETA": 3}, "b-field")
    alpha = side(report, "ALPHA")
    assert alpha["directions"] == ["mid-three", "mid-two"]
    assert alpha["units"][0]["modifiers"] == {"flanking": 0.2, "blitz": 0.2}
    assert alpha["units"][3]["modifiers"] == {"flanking": 0.2}
    assert alpha["total"] == 5.8 and side(report, "BETA")["total"] == 2.6
    assert report["survivor_strength"] == 3
    assert report["destroyed"]["ALPHA"] == ["ALPHA-3"]


def test_naval_bombardment_is_capped_at_four_and_flanks():
    # ALPHA: 1 infantry from alpha into mid-one, 5 triremes bombard from sea-west:
    # directions alpha + sea-west: flanking 1 x 1.2 = 1.2; bombardment min(5, 4) = 4 -> 5.2
    # BETA holds mid-one with 2 entrenched infantry: 2.6; rolls 4 and 4
    # difference 2.6 -> 2 (attackers round 2.6 to 3, but only one infantry fought)
    ships = [unit(f"ALPHA-{i}", "TRIREME", "sea-west") for i in range(2, 7)]
    units = [unit("ALPHA-1", "INFANTRY", "mid-one", moved=True, entered_from="alpha"),
             unit("BETA-1", "INFANTRY", "mid-one"), unit("BETA-2", "INFANTRY", "mid-one")] + ships
    report = battle(units, {"ALPHA": 4, "BETA": 4}, "mid-one",
                    bombardments=[("ALPHA", [s.id for s in ships], "sea-west", "mid-one")])
    alpha = side(report, "ALPHA")
    assert alpha["bombardment"] == 4.0 and alpha["total"] == 5.2
    assert report["winner"] == ["ALPHA"] and report["survivor_strength"] == 3
    assert "ALPHA" not in report["destroyed"]


def test_amphibious_landing_against_inexperienced_troops_with_six_against_one():
    # ALPHA lands 3 infantry from sea-east: 3 x 0.9 = 2.7, rolls 6 against 1: +2.5 -> 5.2
    # BETA's infantry was bought this turn: 1 x 0.8 = 0.8 and no entrenchment
    # difference 4.4 -> 4, all three landed infantry live
    units = [unit(f"ALPHA-{i}", "INFANTRY", "beta", moved=True, entered_from="sea-east", landed=True)
             for i in (1, 2, 3)] + [unit("BETA-9", "INFANTRY", "beta", built=1)]
    report = battle(units, {"ALPHA": 6, "BETA": 1}, "beta")
    assert side(report, "ALPHA")["dice_bonus"] == 2.5
    assert side(report, "ALPHA")["total"] == 5.2
    assert side(report, "BETA")["units"][0]["modifiers"] == {"inexperienced": -0.2}
    assert report["survivor_strength"] == 4 and "ALPHA" not in report["destroyed"]


def test_manned_fort_penalty_and_a_tie_destroys_both_sides():
    # BETA's fort at b-field is manned: attackers -30% -> 4 x 0.7 = 2.8
    # BETA: 1 entrenched infantry 1.3 + roll 5 over 2: 1.5 -> 2.8; a tie: nobody survives
    state = fresh_state()
    state["territories"]["b-field"]["fort"] = True
    units = [unit(f"ALPHA-{i}", "INFANTRY", "b-field", moved=True, entered_from="mid-two")
             for i in (1, 2, 3, 4)] + [unit("BETA-1", "INFANTRY", "b-field")]
    report = battle(units, {"ALPHA": 2, "BETA": 5}, "b-field", state=state)
    assert side(report, "ALPHA")["units"][0]["modifiers"] == {"fort": -0.3}
    assert side(report, "ALPHA")["total"] == side(report, "BETA")["total"] == 2.8
    assert report["winner"] is None
    assert report["destroyed"] == {"ALPHA": ["ALPHA-1", "ALPHA-2", "ALPHA-3", "ALPHA-4"],
                                   "BETA": ["BETA-1"]}


def test_forts_next_door_weaken_attackers_and_defenders():
    # ALPHA holds a fort in mid-one, BETA one in beta; ALPHA attacks BETA's mid-two from mid-one
    # ALPHA: 2 x (1 - 0.15: BETA's fort next to BETA's tile) = 1.7
    # BETA: 2 x (1 + 0.3 entrenched - 0.15: ALPHA's fort next door) = 2.3; rolls 4 and 4
    # difference 0.6, defenders round up from a half -> 1 survivor
    state = fresh_state()
    state["territories"]["mid-one"].update({"owner": "ALPHA", "fort": True})
    state["territories"]["mid-two"]["owner"] = "BETA"
    state["territories"]["beta"]["fort"] = True
    units = [unit("ALPHA-1", "INFANTRY", "mid-two", moved=True, entered_from="mid-one"),
             unit("ALPHA-2", "INFANTRY", "mid-two", moved=True, entered_from="mid-one"),
             unit("BETA-1", "INFANTRY", "mid-two"), unit("BETA-2", "INFANTRY", "mid-two")]
    report = battle(units, {"ALPHA": 4, "BETA": 4}, "mid-two", state=state)
    assert side(report, "ALPHA")["total"] == 1.7
    assert side(report, "BETA")["units"][0]["modifiers"] == {"entrenched": 0.3, "enemy fort near": -0.15}
    assert side(report, "BETA")["total"] == 2.3
    assert report["winner"] == ["BETA"] and report["survivor_strength"] == 1
    assert report["destroyed"] == {"ALPHA": ["ALPHA-1", "ALPHA-2"], "BETA": ["BETA-2"]}


def test_surprise_attack_on_unprepared_defenders():
    # ALPHA declared war this turn, attacking with 2 infantry hidden by espionage:
    # 2 x 1.5 = 3, roll 3 over 1: 4.5; BETA entrenched but unprepared: 2 x 1.2 = 2.4
    # difference 2.1 -> 2 survivors
    units = [unit("ALPHA-1", "INFANTRY", "b-field", moved=True, entered_from="mid-three", hidden_until=1),
             unit("ALPHA-2", "INFANTRY", "b-field", moved=True, entered_from="mid-three", hidden_until=1),
             unit("BETA-1", "INFANTRY", "b-field"), unit("BETA-2", "INFANTRY", "b-field")]
    report = battle(units, {"ALPHA": 3, "BETA": 1}, "b-field", start_wars=(), wars={("ALPHA", "BETA")})
    assert side(report, "ALPHA")["units"][0]["modifiers"] == {"surprise": 0.5}
    assert side(report, "BETA")["units"][0]["modifiers"] == {"entrenched": 0.3, "unprepared": -0.1}
    assert side(report, "ALPHA")["total"] == 4.5 and side(report, "BETA")["total"] == 2.4
    assert report["survivor_strength"] == 2 and "ALPHA" not in report["destroyed"]


def ambush_units():
    """BETA walks 3 infantry into mid-three onto 2 hidden ALPHA infantry."""
    return [unit("ALPHA-1", "INFANTRY", "mid-three", hidden_until=1),
            unit("ALPHA-2", "INFANTRY", "mid-three", hidden_until=1)] + [
        unit(f"BETA-{i}", "INFANTRY", "mid-three", moved=True, entered_from="b-field") for i in (1, 2, 3)]


def state_with_mid_three_owned_by(owner):
    state = fresh_state()
    state["territories"]["mid-three"]["owner"] = owner
    return state


def test_ambush_in_a_plain_tile():
    # mid-three is ALPHA's land, an enemy, non-improved tile to BETA (seed 000, R60, D40):
    # ALPHA 2 x (1 + 0.3 + 0.6) = 3.8; BETA 3; rolls 2 and 2
    # difference 0.8, defenders round up -> 1 survivor
    report = battle(ambush_units(), {"ALPHA": 2, "BETA": 2}, "mid-three", state=state_with_mid_three_owned_by("ALPHA"))
    assert side(report, "ALPHA")["units"][0]["modifiers"] == {"entrenched": 0.3, "ambush": 0.6}
    assert side(report, "ALPHA")["total"] == 3.8
    assert report["winner"] == ["ALPHA"] and report["survivor_strength"] == 1
    assert report["destroyed"]["ALPHA"] == ["ALPHA-2"]


@pytest.mark.parametrize("owner", [None, "BETA"], ids=["neutral land", "the attackers' own land"])
def test_d40_no_ambush_on_land_that_is_no_enemy_tile_to_the_attacker(owner):
    # the same hidden infantry on neutral land, or on BETA's own land: no enemy tile to BETA, so
    # ALPHA 2 x 1.3 = 2.6 against BETA's 3; rolls 2 and 2: BETA wins by 0.4, rounded down to 0
    report = battle(ambush_units(), {"ALPHA": 2, "BETA": 2}, "mid-three", state=state_with_mid_three_owned_by(owner))
    assert side(report, "ALPHA")["units"][0]["modifiers"] == {"entrenched": 0.3}
    assert side(report, "ALPHA")["total"] == 2.6
    assert report["winner"] == ["BETA"]


def test_d40_land_of_a_third_state_at_war_with_the_attacker_is_an_enemy_tile():
    # mid-three is GAMMA's, at war with BETA: an enemy tile to BETA, so ALPHA's hidden infantry ambush
    state = state_with_mid_three_owned_by("GAMMA")
    report = battle(ambush_units(), {"ALPHA": 2, "BETA": 2}, "mid-three", state=state,
                    start_wars=(("ALPHA", "BETA"), ("BETA", "GAMMA")))
    assert side(report, "ALPHA")["units"][0]["modifiers"] == {"entrenched": 0.3, "ambush": 0.6}
    peace = battle(ambush_units(), {"ALPHA": 2, "BETA": 2}, "mid-three", state=state_with_mid_three_owned_by("GAMMA"))
    assert side(peace, "ALPHA")["units"][0]["modifiers"] == {"entrenched": 0.3}  # GAMMA at peace: a bystander


def test_last_stand_against_morale():
    # GAMMA holds nothing but gamma and has no other unit: last stand +100%
    # GAMMA: 1 x (1 + 0.3 + 1.0) = 2.3, roll 6 against 1: +2.5 -> 4.8
    # ALPHA with morale 2 (+50%): 4 x 1.5 = 6; difference 1.2 -> attackers 1 survivor
    state = fresh_state()
    state["territories"]["g-field"]["owner"] = None
    units = [unit(f"ALPHA-{i}", "INFANTRY", "gamma", moved=True, entered_from="mid-three")
             for i in (1, 2, 3, 4)] + [unit("GAMMA-1", "INFANTRY", "gamma")]
    report = battle(units, {"ALPHA": 1, "GAMMA": 6}, "gamma", state=state,
                    start_wars=(("ALPHA", "GAMMA"),), morale={"ALPHA": 2})
    assert side(report, "GAMMA")["units"][0]["modifiers"] == {"last stand": 1.0, "entrenched": 0.3}
    assert side(report, "GAMMA")["total"] == 4.8
    assert side(report, "ALPHA")["units"][0]["modifiers"] == {"morale 2": 0.5}
    assert side(report, "ALPHA")["total"] == 6.0
    assert report["winner"] == ["ALPHA"] and report["survivor_strength"] == 1


def test_privateers_against_sea_lane_triremes_guarding_a_ship_yard():
    # ALPHA's 2 triremes hold the sea-west lane next to ALPHA's ship yard in alpha (they did
    # not come out of it this turn, so no inspecting trade, D31):
    # 2 x (1 + 0.3 entrenched - 0.2 sea lane - 0.1 unprepared) = 2.0
    # BETA's privateers (no war declared) sail in: 2 x 1 = 2, roll 5 over 3: 3.5
    # difference 1.5, attackers round down -> 1 survivor; two ships sunk by privateers: 40 gold
    state = fresh_state()
    state["sea_lanes"]["sea-west"]["controller"] = "ALPHA"
    state["territories"]["alpha"]["shipyard"] = True
    units = [unit("ALPHA-1", "TRIREME", "sea-west"), unit("ALPHA-2", "TRIREME", "sea-west"),
             unit("BETA-1", "TRIREME", "sea-west", moved=True, entered_from="sea-east", privateer=True),
             unit("BETA-2", "TRIREME", "sea-west", moved=True, entered_from="sea-east", privateer=True)]
    report = battle(units, {"ALPHA": 3, "BETA": 5}, "sea-west", state=state, start_wars=(), wars=set())
    assert side(report, "ALPHA")["units"][0]["modifiers"] == {
        "sea lane trireme": -0.2, "entrenched": 0.3, "unprepared": -0.1}
    assert side(report, "ALPHA")["total"] == 2.0
    assert side(report, "BETA")["privateers"] == ["BETA"] and side(report, "BETA")["total"] == 3.5
    assert report["survivor_strength"] == 1
    assert report["bounty"] == {"BETA": 40}


def test_three_sides_one_winner():
    # all three at war meet in neutral mid-three: ALPHA 3, BETA 2 + 1.5 (roll 5) = 3.5, GAMMA 1
    # BETA wins by 0.5 over ALPHA; attackers round 0.5 down: nobody survives at all
    units = [unit(f"ALPHA-{i}", "INFANTRY", "mid-three", moved=True, entered_from="mid-one") for i in (1, 2, 3)]
    units += [unit(f"BETA-{i}", "INFANTRY", "mid-three", moved=True, entered_from="b-field") for i in (1, 2)]
    units += [unit("GAMMA-1", "INFANTRY", "mid-three", moved=True, entered_from="gamma")]
    wars = (("ALPHA", "BETA"), ("ALPHA", "GAMMA"), ("BETA", "GAMMA"))
    report = battle(units, {"ALPHA": 2, "BETA": 5, "GAMMA": 1}, "mid-three", start_wars=wars)
    assert [s["total"] for s in report["sides"]] == [3.0, 3.5, 1.0]
    assert report["winner"] == ["BETA"] and report["survivor_strength"] == 0
    assert sum(len(v) for v in report["destroyed"].values()) == 6


def test_no_battle_between_states_at_peace():
    board = small_board()
    state = fresh_state(board)
    units = [unit("ALPHA-1", "INFANTRY", "mid-three", moved=True, entered_from="mid-one"),
             unit("BETA-1", "INFANTRY", "mid-three", moved=True, entered_from="b-field")]
    ctx = battle_context(state, board, units, wars=set())
    assert not is_battle(ctx, sides_at(units), "mid-three")
    ctx = battle_context(state, board, units, wars={("ALPHA", "BETA")})
    assert is_battle(ctx, sides_at(units), "mid-three")


@pytest.mark.parametrize("rolls, bonus", [
    ({"A": 4, "B": 2}, {"A": 1.5, "B": 0.0}),
    ({"A": 6, "B": 1}, {"A": 2.5, "B": 0.0}),
    ({"A": 1, "B": 6}, {"A": 0.0, "B": 2.5}),
    ({"A": 6, "B": 2}, {"A": 1.5, "B": 0.0}),
    ({"A": 3, "B": 3}, {"A": 0.0, "B": 0.0}),
    ({"A": 6, "B": 6, "C": 1}, {"A": 0.0, "B": 0.0, "C": 0.0}),
    ({"A": 6, "B": 4, "C": 1}, {"A": 2.5, "B": 0.0, "C": 0.0}),
])
def test_dice_bonus(rolls, bonus):
    assert dice_bonus(rolls) == bonus


@pytest.mark.parametrize("difference, defending, survivors", [
    (1.5, True, 2), (1.5, False, 1), (1.4, True, 1), (1.6, False, 2), (0.5, False, 0),
    (0.5, True, 1), (3.0, False, 3), (0.0, True, 0),
])
def test_rounding(difference, defending, survivors):
    assert round_survivors(difference, defending) == survivors


def test_dice_depend_only_on_seed_turn_territory_and_what_each_camp_looks_like():
    first = roll_dice(11, 3, "mid-two", ["BETA|INFANTRY:1", "ALPHA|INFANTRY:2"])
    assert first == roll_dice(11, 3, "mid-two", ["ALPHA|INFANTRY:2", "BETA|INFANTRY:1"])
    assert all(1 <= r <= 6 for r in first.values())
    samples = {tuple(roll_dice(s, 1, "mid-two", ["ALPHA|I", "BETA|I"]).values()) for s in range(30)}
    assert len(samples) > 5
    twins = roll_dice(11, 3, "sea-west", ["PRIVATEERS|TRIREME:1", "PRIVATEERS|TRIREME:1"])
    assert set(twins) == {"PRIVATEERS|TRIREME:1", "PRIVATEERS|TRIREME:1#1"}


def test_survivors_fill_the_strength_with_whole_units():
    units = [BattleUnit.of(u) for u in (unit("A-1", "CAVALRY", "x"), unit("A-2", "INFANTRY", "x"),
                                        unit("A-3", "INFANTRY", "x"), unit("A-4", "TRANSPORT", "x"))]
    worth = {"A-1": 1.5, "A-2": 1.0, "A-3": 1.0, "A-4": 0.0}
    assert choose_survivors(units, worth, 2) == {"A-2", "A-3", "A-4"}
    assert choose_survivors(units, worth, 3) == {"A-1", "A-2", "A-4"}
    assert choose_survivors(units, worth, 0) == {"A-4"}


# -- who fights whom (R49, D9) ----------------------------------------------------------------


def test_r49_a_state_at_peace_with_everyone_there_is_no_side_and_keeps_its_units():
    # ALPHA and BETA at war meet in mid-three; GAMMA, at peace with both, stands there too.
    # ALPHA 3 + 1.5 (roll 5 over 2) = 4.5, BETA 2: difference 2.5, attackers round down -> 2
    units = [unit(f"ALPHA-{i}", "INFANTRY", "mid-three", moved=True, entered_from="mid-one") for i in (1, 2, 3)]
    units += [unit(f"BETA-{i}", "INFANTRY", "mid-three", moved=True, entered_from="b-field") for i in (1, 2)]
    units += [unit(f"GAMMA-{i}", "INFANTRY", "mid-three", moved=True, entered_from="gamma") for i in (1, 2, 3, 4)]
    report = battle(units, {"ALPHA": 5, "BETA": 2}, "mid-three")
    assert [s["powers"] for s in report["sides"]] == [["ALPHA"], ["BETA"]]
    assert report["winner"] == ["ALPHA"] and report["survivor_strength"] == 2
    assert "GAMMA" not in report["destroyed"]  # strong or weak, it fights nobody


def test_r49_states_at_peace_attacking_a_common_enemy_are_one_camp():
    # ALPHA and GAMMA, at peace with each other, both at war with BETA, attack BETA's 3
    # entrenched infantry in mid-three from two directions: one camp, one die, flanking +20%.
    # ALPHA+GAMMA: 4 x 1.2 = 4.8; BETA 3 x 1.3 = 3.9; rolls 3 and 3: no bonus.
    # difference 0.9, attackers round down -> 1 survivor: the oldest unit of the ally the seeded draw
    # places first (D41); with this context's seed 7, GAMMA's

    units = [unit(f"ALPHA-{i}", "INFANTRY", "mid-three", moved=True, entered_from="mid-one") for i in (1, 2)]
    units += [unit(f"GAMMA-{i}", "INFANTRY", "mid-three", moved=True, entered_from="gamma") for i in (1, 2)]
    units += [unit(f"BETA-{i}", "INFANTRY", "mid-three") for i in (1, 2, 3)]
    report = battle(units, {"ALPHA": 3, "BETA": 3}, "mid-three", start_wars=(("ALPHA", "BETA"), ("BETA", "GAMMA")))
    assert [s["powers"] for s in report["sides"]] == [["ALPHA", "GAMMA"], ["BETA"]]
    assert side(report, "GAMMA")["total"] == 4.8 and side(report, "BETA")["total"] == 3.9
    assert side(report, "GAMMA")["directions"] == ["gamma", "mid-one"]
    assert report["winner"] == ["ALPHA", "GAMMA"] and report["survivor_strength"] == 1
    assert report["destroyed"] == {"ALPHA": ["ALPHA-1", "ALPHA-2"], "BETA": ["BETA-1", "BETA-2", "BETA-3"],
                                   "GAMMA": ["GAMMA-2"]}


def allied_narrow_win(seed, turn=1, tile="mid-three"):
    """The battle above, with another seed, turn or territory name: which ally keeps the survivor."""
    board = small_board()
    state = fresh_state(board)
    at_war(state, ("ALPHA", "BETA"), ("BETA", "GAMMA"))
    units = [unit(f"ALPHA-{i}", "INFANTRY", tile, moved=True, entered_from="mid-one") for i in (1, 2)]
    units += [unit(f"GAMMA-{i}", "INFANTRY", tile, moved=True, entered_from="gamma") for i in (1, 2)]
    units += [unit(f"BETA-{i}", "INFANTRY", tile) for i in (1, 2, 3)]
    ctx = battle_context(state, board, units, wars={("ALPHA", "BETA"), ("BETA", "GAMMA")}, turn=turn)
    ctx.seed = seed
    report = fight(ctx, tile, sides_at(units), rolls={"ALPHA": 3, "BETA": 3}).as_json()
    kept = {u.id for u in units if u.owner != "BETA"} - {i for ids in report["destroyed"].values() for i in ids}
    return kept


def test_d41_allies_share_a_narrow_win_by_a_draw_from_the_seed_not_by_name():
    # one survivor among four equally strong, equally old units of two allies: always the oldest
    # of one ally, the same every time for the same seed, turn and territory, and each ally
    # keeps it about half the time over many seeds (a tie-break by name gave it to ALPHA always)
    outcomes = [allied_narrow_win(seed) for seed in range(400)]
    assert all(len(kept) == 1 and kept <= {"ALPHA-1", "GAMMA-1"} for kept in outcomes)
    assert outcomes[:20] == [allied_narrow_win(seed) for seed in range(20)]
    gamma = sum(kept == {"GAMMA-1"} for kept in outcomes)
    assert 160 <= gamma <= 240, gamma
    assert {frozenset(allied_narrow_win(5, turn=t)) for t in range(1, 30)} == {
        frozenset({"ALPHA-1"}), frozenset({"GAMMA-1"})}  # drawn afresh each turn


def test_d9_crossed_wars_of_three_states():
    board = small_board()
    state = fresh_state(board)
    here = [unit("ALPHA-1", "INFANTRY", "mid-three", moved=True, entered_from="mid-one"),
            unit("BETA-1", "INFANTRY", "mid-three", moved=True, entered_from="b-field"),
            unit("GAMMA-1", "INFANTRY", "mid-three", moved=True, entered_from="gamma")]

    def camps(*wars):
        ctx = battle_context(state, board, here, wars={tuple(sorted(w)) for w in wars})
        return battles_at(ctx, "mid-three", sides_at(here))

    # one war: the third state is no side
    assert camps(("ALPHA", "BETA")) == [[("ALPHA",), ("BETA",)]]
    # ALPHA at war with both, BETA and GAMMA at peace: they are allies against ALPHA
    assert camps(("ALPHA", "BETA"), ("ALPHA", "GAMMA")) == [[("ALPHA",), ("BETA", "GAMMA")]]
    # BETA at war with both: ALPHA and GAMMA are allies
    assert camps(("ALPHA", "BETA"), ("BETA", "GAMMA")) == [[("ALPHA", "GAMMA"), ("BETA",)]]
    # all at war: three camps, one winner (test_three_sides_one_winner)
    assert camps(("ALPHA", "BETA"), ("ALPHA", "GAMMA"), ("BETA", "GAMMA")) == [[("ALPHA",), ("BETA",), ("GAMMA",)]]
    # nobody at war: no battle
    assert camps() == []


def four_states():
    state = fresh_state()
    state["powers"]["DELTA"] = {**state["powers"]["GAMMA"], "capital": None}
    state["knowledge"]["DELTA"], state["spending"]["DELTA"] = [], {}
    return state


def test_d9_the_camps_not_at_war_with_the_winner_fight_on_among_themselves():
    # a chain of wars ALPHA - BETA - GAMMA - DELTA in mid-three: four camps (nobody shares
    # all its enemies with another). BETA is strongest: it beats ALPHA and GAMMA, its
    # enemies; DELTA, at war only with GAMMA, is no enemy of BETA's and keeps its units.
    state = four_states()
    units = [unit("ALPHA-1", "INFANTRY", "mid-three", moved=True, entered_from="mid-one"),
             unit("BETA-1", "INFANTRY", "mid-three", moved=True, entered_from="b-field"),
             unit("BETA-2", "INFANTRY", "mid-three", moved=True, entered_from="b-field"),
             unit("BETA-3", "INFANTRY", "mid-three", moved=True, entered_from="b-field"),
             unit("GAMMA-1", "INFANTRY", "mid-three", moved=True, entered_from="gamma"),
             unit("DELTA-1", "INFANTRY", "mid-three", moved=True, entered_from="g-field"),
             unit("DELTA-2", "INFANTRY", "alpha")]  # DELTA has a unit elsewhere: no last stand
    wars = (("ALPHA", "BETA"), ("BETA", "GAMMA"), ("DELTA", "GAMMA"))
    # BETA 3 + 1.5 (roll 6 over 2s) = 4.5 beats ALPHA 1 and GAMMA 1: survivors 3.5 -> 3
    report = battle(units, {"ALPHA": 2, "BETA": 6, "GAMMA": 2, "DELTA": 2}, "mid-three",
                    start_wars=wars, state=state)
    assert [s["powers"] for s in report["sides"]] == [["ALPHA"], ["BETA"], ["DELTA"], ["GAMMA"]]
    assert report["winner"] == ["BETA"] and report["survivor_strength"] == 3
    assert report["destroyed"] == {"ALPHA": ["ALPHA-1"], "GAMMA": ["GAMMA-1"]}
    assert side(report, "DELTA")["outcome"] == "untouched"


def test_d9_unlinked_wars_in_one_territory_are_separate_battles():
    state = four_states()
    units = [unit("ALPHA-1", "INFANTRY", "mid-three", moved=True, entered_from="mid-one"),
             unit("BETA-1", "INFANTRY", "mid-three", moved=True, entered_from="b-field"),
             unit("GAMMA-1", "INFANTRY", "mid-three", moved=True, entered_from="gamma"),
             unit("DELTA-1", "INFANTRY", "mid-three", moved=True, entered_from="g-field")]
    ctx = battle_context(state, small_board(), units, wars={("ALPHA", "BETA"), ("DELTA", "GAMMA")})
    assert battles_at(ctx, "mid-three", sides_at(units)) == [[("ALPHA",), ("BETA",)], [("DELTA",), ("GAMMA",)]]


# -- privateers (R42, R43) --------------------------------------------------------------------


def test_r42_any_state_may_attack_privateers_without_war():
    # ALPHA's privateers spare BETA and sit on BETA's lane: no battle, unless BETA attacks them
    board = small_board()
    state = fresh_state(board)
    state["powers"]["ALPHA"]["spared"] = ["BETA"]
    units = [unit("ALPHA-1", "TRIREME", "sea-east", privateer=True),
             unit("BETA-1", "TRIREME", "sea-east", moved=True, entered_from="sea-west")]
    quiet = battle_context(state, board, units, wars=set())
    assert battles_at(quiet, "sea-east", sides_at(units)) == []
    hunting = battle_context(state, board, units, wars=set(), hunts={"BETA": {"sea-east"}})
    assert battles_at(hunting, "sea-east", sides_at(units)) == [[("ALPHA",), ("BETA",)]]
    elsewhere = battle_context(state, board, units, wars=set(), hunts={"BETA": {"sea-west"}})
    assert battles_at(elsewhere, "sea-east", sides_at(units)) == []


def test_r43_privateers_are_paid_for_every_ship_they_destroy_even_in_a_battle_they_lose():
    # ALPHA's 3 triremes defend sea-west: 3 x (1 + 0.3 entrenched - 0.1 unprepared) = 3.6
    # BETA's 2 privateers: 2 + 1.5 (roll 4 over 2) = 3.5. ALPHA wins by 0.1: defenders round
    # 0.1 to 0, so all three of its ships are lost as well: 3 x 20 = 60 gold to BETA
    units = [unit(f"ALPHA-{i}", "TRIREME", "sea-west") for i in (1, 2, 3)]
    units += [unit(f"BETA-{i}", "TRIREME", "sea-west", moved=True, entered_from="sea-east", privateer=True)
              for i in (1, 2)]
    report = battle(units, {"ALPHA": 2, "BETA": 4}, "sea-west", start_wars=(), wars=set())
    assert side(report, "ALPHA")["total"] == 3.6 and side(report, "BETA")["total"] == 3.5
    assert report["winner"] == ["ALPHA"] and report["survivor_strength"] == 0
    assert report["bounty"] == {"BETA": 60}


def test_d30_privateers_fight_without_a_nation_no_morale_no_last_stand_and_always_unexpected():
    # GAMMA has nothing but its privateer and has bought morale 3: neither applies at sea-west.
    # ALPHA, at war with GAMMA since long ago, is still unprepared: nobody knows whose ships they are
    state = fresh_state()
    for tid in ("gamma", "g-field"):
        state["territories"][tid]["owner"] = None
    units = [unit("ALPHA-1", "TRIREME", "sea-west"),
             unit("GAMMA-1", "TRIREME", "sea-west", moved=True, entered_from="sea-east", privateer=True)]
    report = battle(units, {"ALPHA": 3, "GAMMA": 3}, "sea-west", start_wars=(("ALPHA", "GAMMA"),),
                    state=state, morale={"GAMMA": 3})
    assert side(report, "GAMMA")["units"][0]["modifiers"] == {}
    assert side(report, "ALPHA")["units"][0]["modifiers"] == {"entrenched": 0.3, "unprepared": -0.1}


# -- inspecting trade (R65, D31) ---------------------------------------------------------------


def test_d31_inspecting_trade_weakens_triremes_defending_the_turn_they_leave_their_yard():
    # ALPHA's yard in alpha is hidden. A trireme launched from it this turn defends sea-west at
    # 1 x (1 - 0.2 inexperienced - 0.2 inspecting trade) = 0.6; an old trireme of ALPHA's next
    # to the same yard fights as any other (nothing in the report says a yard is there)
    state = fresh_state()
    state["territories"]["alpha"]["shipyard"] = True
    launched = [unit("ALPHA-1", "TRIREME", "sea-west", built=1),
                unit("BETA-1", "TRIREME", "sea-west", moved=True, entered_from="sea-east")]
    report = battle(launched, {"ALPHA": 3, "BETA": 3}, "sea-west", state=state)
    assert side(report, "ALPHA")["units"][0]["modifiers"] == {"inexperienced": -0.2, "inspecting trade": -0.2}
    old = [unit("ALPHA-1", "TRIREME", "sea-west"),
           unit("BETA-1", "TRIREME", "sea-west", moved=True, entered_from="sea-east")]
    with_yard = battle(old, {"ALPHA": 3, "BETA": 3}, "sea-west", state=state)
    without = battle(old, {"ALPHA": 3, "BETA": 3}, "sea-west")
    assert side(with_yard, "ALPHA")["units"][0]["modifiers"] == {"entrenched": 0.3} == \
        side(without, "ALPHA")["units"][0]["modifiers"]
