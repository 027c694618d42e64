"""Random Tale of Ekonia games against the visibility policy (issue 7), on the small board.

For every state and the public, after every turn: the view and the history hold nothing the
policy hides from that viewer. And twin games that differ only in one state's hidden facts
(its gold, its unit numbering, its knowledge, a unit hidden in its capital) give
every other viewer byte-identical views, histories, possible orders and order checks.
"""
from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.rules.ekonia import catalogue as C
from shared.rules.ekonia.public_map import hidden_strength_limit

from .visibility import VARIANT, add_unit, fresh_state

POWERS = ("ALPHA", "BETA", "GAMMA")
OWN_ONLY_KEYS = {"gold", "next_unit", "refund_due", "spared", "hide_cities", "shipyard", "gas_vent", "stored",
                 "aboard", "hidden_until", "by_location", "ledger", "knowledge", "built", "id"}
EXTRA = ["MOVE 2 INFANTRY mid-one -> mid-two", "MOVE 2 INFANTRY mid-two -> mid-three",
         "MOVE 2 INFANTRY mid-three -> mid-one", "MOVE 1 TRIREME sea-east -> sea-west",
         "MOVE 1 TRIREME sea-west -> sea-east", "MOVE 2 INFANTRY mid-one -> mid-three",
         "MOVE 2 INFANTRY mid-two -> mid-one", "MOVE 2 INFANTRY mid-three -> mid-two", "HIDE CITIES 3",
         "SPY COUNTER ALL", "SPY MAP {other}", "SPY RECORDS {other}", "WAR ON {other}",
         "PRIVATEER 1 TRIREME AT sea-west", "PRIVATEER 1 TRIREME AT sea-east", "HIDE 1 INFANTRY AT a-field",
         "HIDE 1 INFANTRY AT b-field", "HIDE 1 INFANTRY AT g-field", "BUY 1 TRIREME AT alpha -> sea-west",
         "SHIPYARD alpha", "SHIPYARD beta", "GIVE 10 TO {other}"]


def text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def keys_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


def rich_start() -> dict[str, Any]:
    """The small board at war, with gold to spare (gold never decides an order here), fleets,
    and troops in the neutral middle, so that random moves meet in battles."""
    state = fresh_state()
    state["wars"] = [["ALPHA", "BETA"], ["ALPHA", "GAMMA"], ["BETA", "GAMMA"]]
    for power in POWERS:
        state["powers"][power]["gold"] = 5000
    state["territories"]["alpha"]["shipyard"] = True
    add_unit(state, "BETA-5", "TRIREME", "sea-east")
    for power, place in (("ALPHA", "mid-one"), ("BETA", "mid-two"), ("GAMMA", "mid-three")):
        add_unit(state, f"{power}-6", "INFANTRY", place)
        add_unit(state, f"{power}-7", "INFANTRY", place)
    return state


def orders_of(state: dict[str, Any], power: str, picks: list[int]) -> list[str]:
    menu = VARIANT.possible_orders(state, power)
    options = sorted(o for found in menu.values() for o in found)
    others = [p for p in POWERS if p != power]
    options += [e.format(other=others[i % 2]) for i, e in enumerate(EXTRA)]
    chosen = [options[i % len(options)] for i in picks] if options else []
    checks = VARIANT.check_orders(state, power, chosen)
    return list(dict.fromkeys(c.order for c in checks if c.accepted))


def resolve(state: dict[str, Any], orders: dict[str, list[str]], seed: int) -> dict[str, Any]:
    out = VARIANT.resolve(state, orders, settings={}, seed=seed)
    return {"phase": out.phase, "orders": out.orders, "dislodged": [], "details": out.details,
            "position_before": state, "position": out.state, "next_phase": out.next_phase}


def hidden_from(viewer: str | None, state: dict[str, Any], view: dict[str, Any]) -> list[str]:
    """What ``view`` shows ``viewer`` that the policy hides from it (empty: nothing)."""
    problems = []
    shared = {k: v for k, v in view.items() if k != "own"}
    if keys_in(shared) & OWN_ONLY_KEYS:
        problems.append(f"own-only fields outside own: {keys_in(shared) & OWN_ONLY_KEYS}")
    for other in POWERS:
        if other != viewer and re.search(rf'"{other}-\d+"', text(view)):
            problems.append(f"a unit id of {other}")
    turn = state["turn"]
    for shown in view["public"]["units"]:
        owner = shown["owner"]
        if owner == viewer:
            continue
        candidates = [u for u in state["units"].values() if u["location"] == shown["location"]
                      and u["type"] == shown["type"] and not u["stored"] and u["aboard"] is None
                      and u["type"] != "AIRSHIP" and not (u["hidden_until"] or 0) >= turn
                      and (u["privateer"] if owner == "PRIVATEERS" else (u["owner"] == owner and not u["privateer"]))]
        if not candidates:
            problems.append(f"a unit shown that the map hides: {shown}")
    return problems


def history_hidden_from(viewer: str | None, turn: dict[str, Any]) -> list[str]:
    problems = []
    if set(turn["orders"]) - {viewer}:
        problems.append("another state's orders")
    details = turn["details"]
    if any(m["power"] != viewer for m in details["missions"]) or set(details["ledgers"]) - {viewer}:
        problems.append("another state's missions or ledger")
    for battle in details["battles"]:
        if set(battle) == {"territory"}:  # a battle of others: only where it was
            continue
        if viewer not in {p for s in battle["sides"] for p in s["powers"]} | set(battle["destroyed"]):
            problems.append(f"a battle of others: {battle['territory']}")
    if any("by_location" in rec for p, rec in details["spending"].items() if p != viewer):
        problems.append("where another state spent")
    for other in POWERS:
        if other != viewer and re.search(rf'"{other}-\d+"', text(turn)):
            problems.append(f"a unit id of {other}")
    return problems


game_strategy = st.fixed_dictionaries({
    "seed": st.integers(0, 10_000),
    "turns": st.lists(st.fixed_dictionaries({p: st.lists(st.integers(0, 400), max_size=5) for p in POWERS}),
                      min_size=2, max_size=5),
})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=game_strategy)
def test_no_view_holds_what_the_policy_hides_from_its_viewer(game: dict[str, Any]) -> None:
    state = rich_start()
    for picks in game["turns"]:
        orders = {p: orders_of(state, p, picks[p]) for p in POWERS}
        turn = resolve(state, orders, game["seed"])
        state = turn["position"]
        for viewer in (*POWERS, None):
            assert hidden_from(viewer, state, VARIANT.view(state, viewer)) == [], (viewer, orders)
            assert history_hidden_from(viewer, VARIANT.history_view(turn, viewer)) == [], (viewer, orders)


def twin(state: dict[str, Any], secret: str, kind: str) -> dict[str, Any]:
    """``state`` with some of ``secret``'s hidden facts changed."""
    changed = json.loads(json.dumps(state))
    mine = changed["powers"][secret]
    if kind == "records":
        mine["gold"] += 1234
        mine["next_unit"] += 7
        changed["knowledge"][secret].append({"turn": 0, "mission": "MAP", "target": "BETA", "success": False,
                                             "found": None})
    else:  # one more infantry inside the capital, under its hidden strength value
        add_unit(changed, f"{secret}-90", "INFANTRY", mine["capital"])
    return changed


def capital_still_hides(state: dict[str, Any], secret: str) -> bool:
    capital = state["powers"][secret]["capital"]
    if capital is None or state["territories"][capital]["owner"] != secret:
        return False
    strength = sum(C.UNIT_TYPES[u["type"]].attack for u in state["units"].values()
                   if u["location"] == capital and not u["stored"])
    return strength <= hidden_strength_limit(state, VARIANT.board, capital)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=game_strategy, secret=st.sampled_from(POWERS), kind=st.sampled_from(["records", "garrison"]))
def test_games_that_differ_only_in_hidden_facts_look_the_same_to_everyone_else(
        game: dict[str, Any], secret: str, kind: str) -> None:
    first = rich_start()
    second = twin(first, secret, kind)
    others = [p for p in (*POWERS, None) if p != secret]
    for picks in game["turns"]:
        if kind == "garrison" and not capital_still_hides(second, secret):
            return  # the extra unit shows, or fought: no longer a hidden fact
        for viewer in others:
            assert text(VARIANT.view(first, viewer)) == text(VARIANT.view(second, viewer))
            if viewer is not None:
                assert VARIANT.possible_orders(first, viewer) == VARIANT.possible_orders(second, viewer)
        orders = {p: orders_of(first, p, picks[p]) for p in POWERS}
        if kind == "garrison" and any(o.startswith("MORALE") for o in orders[secret]):
            return  # morale is priced per unit held, and the total spent is public
        for viewer in others:
            if viewer is not None:
                checks = [c.as_json() for c in VARIANT.check_orders(first, viewer, orders[viewer])]
                assert checks == [c.as_json() for c in VARIANT.check_orders(second, viewer, orders[viewer])]
        one, two = resolve(first, orders, game["seed"]), resolve(second, orders, game["seed"])
        if kind == "garrison" and any(b["territory"] == first["powers"][secret]["capital"]
                                      for b in one["details"]["battles"]):
            return
        for viewer in others:
            assert text(VARIANT.history_view(one, viewer)) == text(VARIANT.history_view(two, viewer)), viewer
        first, second = one["position"], two["position"]
