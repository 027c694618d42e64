"""Random Tale of Ekonia games against the visibility policy (docs/rules/ekonia.md section 14), on the small board.

For every state and the public, after every turn: the view and the history hold nothing the
policy hides from that viewer. And twin games that differ only in one state's hidden facts
(its gold, its unit numbering, its knowledge, a unit hidden in its capital) give
every other viewer byte-identical views, histories, possible orders and order checks.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from shared.rules.ekonia import catalogue as C
from shared.rules.ekonia.public_map import hidden_strength_limit, visible_units
from shared.rules.ekonia.records import as_document, as_state
from tests.utils.ekonia_viewers import VARIANT, add_unit, fresh_state

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
    return as_document(state)


def orders_of(state: dict[str, Any], power: str, picks: list[int]) -> list[str]:
    menu = VARIANT.possible_orders(as_state(state), power)
    options = sorted(o for found in menu.values() for o in found)
    others = [p for p in POWERS if p != power]
    options += [e.format(other=others[i % 2]) for i, e in enumerate(EXTRA)]
    chosen = [options[i % len(options)] for i in picks] if options else []
    checks = VARIANT.check_orders(as_state(state), power, chosen)
    return list(dict.fromkeys(c.order for c in checks if c.accepted and c.order is not None))


def resolve(state: dict[str, Any], orders: dict[str, list[str]], seed: int) -> dict[str, Any]:
    out = VARIANT.resolve(as_state(state), orders, settings={}, seed=seed)
    return {"phase": out.phase, "orders": out.orders, "dislodged": [], "details": out.details,
            "position_before": state, "position": out.state, "next_phase": out.next_phase}


def hidden_from(viewer: str | None, state: dict[str, Any], view: Mapping[str, Any]) -> list[str]:
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


def history_hidden_from(viewer: str | None, turn: Mapping[str, Any]) -> list[str]:
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
            assert hidden_from(viewer, state, VARIANT.view(as_state(state), viewer)) == [], (viewer, orders)
            assert history_hidden_from(viewer, VARIANT.history_view(turn, viewer)) == [], (viewer, orders)


# -- twin games --------------------------------------------------------------------------------
#
# Two games identical to a viewer but for one hidden fact must look byte-identical to that
# viewer and to the public: the state view, the history, the platform's view of the whole log
# (services/visibility/view.py, what the stream sends), possible orders and order checks.
# The kinds of hidden fact: one state's records (gold, unit numbering, knowledge), a unit
# hidden in its capital, a ship yard and a gas vent of its on the coast of a sea where ships
# fight, and who owns a privateer (ALPHA or BETA) that sails, holds lanes and fights GAMMA's
# ships. TWINS counts the pairs compared and the differences seen (benchmarks/ekonia_twins.py
# prints them).

KINDS = ("records", "garrison", "improvements", "privateer")
FIELD = {"ALPHA": "a-field", "BETA": "beta", "GAMMA": "g-field"}  # a-field and beta are coasts
TWINS = {"pairs": 0, "differences": 0}


def twin(state: dict[str, Any], secret: str, kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two games that differ only in one of ``secret``'s hidden facts."""
    first = json.loads(json.dumps(state))
    if kind == "privateer":  # the ships of ALPHA and BETA leave, GAMMA sails two; ALPHA or BETA owns a privateer
        for uid in ("ALPHA-3", "BETA-5"):
            first["units"].pop(uid)
        add_unit(first, "GAMMA-8", "TRIREME", "sea-west")
        add_unit(first, "GAMMA-9", "TRIREME", "sea-west")
        second = json.loads(json.dumps(first))
        add_unit(first, "ALPHA-50", "TRIREME", "sea-east", privateer=True)
        add_unit(second, "BETA-50", "TRIREME", "sea-east", privateer=True)
        return first, second
    second = json.loads(json.dumps(first))
    mine = second["powers"][secret]
    if kind == "records":
        mine["gold"] += 1234
        mine["next_unit"] += 7
        second["knowledge"][secret].append({"turn": 0, "mission": "MAP", "target": "BETA", "success": False,
                                            "found": None})
    elif kind == "garrison":  # one more infantry inside the capital, under its hidden strength value
        add_unit(second, f"{secret}-90", "INFANTRY", mine["capital"])
    else:  # a hidden ship yard and gas vent on a territory of its (on a coast where ships fight)
        second["territories"][FIELD[secret]].update(shipyard=True, gas_vent=True)
    return first, second


def secrets_of(kind: str, secret: str) -> tuple[str, ...]:
    return ("ALPHA", "BETA") if kind == "privateer" else (secret,)


def capital_still_hides(state: dict[str, Any], secret: str) -> bool:
    capital = state["powers"][secret]["capital"]
    if capital is None or state["territories"][capital]["owner"] != secret:
        return False
    strength = sum(C.UNIT_TYPES[u["type"]].attack for u in state["units"].values()
                   if u["location"] == capital and not u["stored"])
    return strength <= hidden_strength_limit(as_state(state), VARIANT.board, capital)


def privateer_of(state: dict[str, Any]) -> dict[str, Any] | None:
    return next((u for uid, u in state["units"].items() if uid.endswith("-50")), None)


def privateer_alone(state: dict[str, Any]) -> bool:
    """The privateer shares no place with ships of ALPHA or BETA (whom it would spare in one twin)."""
    ship = privateer_of(state)
    return ship is None or not any(u["owner"] in ("ALPHA", "BETA") and u["location"] == ship["location"]
                                   and u is not ship for u in state["units"].values())


def privateer_met_nobody_it_knows(turn: dict[str, Any]) -> bool:
    """After the moves, the privateer was nowhere with units of ALPHA or BETA (found from the
    battles, which name every unit lost, and the position)."""
    ship_id = next((uid for uid in turn["position_before"]["units"] if uid.endswith("-50")), None)
    if ship_id is None:
        return True
    after = turn["position"]["units"]
    lost = {uid: b["territory"] for b in turn["details"]["battles"] for ids in b["destroyed"].values() for uid in ids}
    where = after[ship_id]["location"] if ship_id in after else lost.get(ship_id)
    here = [u["owner"] for uid, u in after.items() if u["location"] == where and uid != ship_id]
    here += [uid.rpartition("-")[0] for uid, place in lost.items() if place == where and uid != ship_id]
    return not set(here) & {"ALPHA", "BETA"}


def privateer_orders(state: dict[str, Any], pick: int) -> list[str]:
    ship = privateer_of(state)
    if ship is None:
        return []
    seas = sorted(n for n in VARIANT.board.neighbours(ship["location"]) if VARIANT.board.territory(n).is_sea)
    options = [""] + [f"MOVE 1 TRIREME {ship['location']} -> {sea}" for sea in seas]
    return [o for o in [options[pick % len(options)]] if o]


def platform_events(start: dict[str, Any], turns: list[dict[str, Any]], seed: int) -> list[Any]:
    """The twin as a hosted game's log: what services/visibility/view.py folds for the stream."""
    from shared.events import AdjudicatedOrder, GameCreated, GameSettings, GameStarted, PhaseResolved, PlayerJoined

    events: list[Any] = [GameCreated(game_id="g_twins", variant="ekonia", name="twins", host_token_hash="h",
                                     settings=GameSettings(player_count=3))]
    events += [PlayerJoined(player_id=f"p_{p}", codename=f"c_{p}", token_hash="t") for p in POWERS]
    events.append(GameStarted(seed=seed, powers={f"p_{p}": [p] for p in POWERS}, phase="T01", position=start,
                              must_act=list(POWERS)))
    for turn in turns:
        events.append(PhaseResolved(
            phase=turn["phase"], position_before=turn["position_before"], dislodged=[],
            orders={p: [AdjudicatedOrder(**o) for o in found] for p, found in turn["orders"].items()},
            position=turn["position"], next_phase=turn["next_phase"], must_act=list(POWERS),
            engine_version=VARIANT.engine_version, details=turn["details"]))
    return events


def platform_view(events: list[Any], viewer: str | None) -> str:
    from services.visibility.view import Viewer, view

    who = Viewer("power", viewer, f"c_{viewer}", (viewer,), f"p_{viewer}") if viewer else Viewer.public()
    return text(view(events, who))


def same(one: Any, two: Any) -> bool:
    TWINS["pairs"] += 1
    if text(one) != text(two):
        TWINS["differences"] += 1
        return False
    return True


def play_twins(game: dict[str, Any], secret: str, kind: str) -> None:
    """Play the twins turn by turn, asserting that every viewer not in the secret sees the same."""
    start_one, start_two = twin(rich_start(), secret, kind)
    first, second = start_one, start_two
    hidden = secrets_of(kind, secret)
    others = [p for p in (*POWERS, None) if p not in hidden]
    history: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
    for turn_number, picks in enumerate(game["turns"]):
        if kind == "garrison" and not capital_still_hides(second, secret):
            return  # the extra unit shows, or fought: no longer a hidden fact
        if kind == "privateer" and not (privateer_alone(first) and privateer_alone(second)):
            return
        for viewer in others:
            assert same(VARIANT.view(as_state(first), viewer), VARIANT.view(as_state(second), viewer)), (kind, viewer)
            if viewer is not None:
                assert same(VARIANT.possible_orders(as_state(first), viewer),
                            VARIANT.possible_orders(as_state(second), viewer))
        orders = {p: orders_of(first, p, picks[p]) for p in POWERS}
        if kind == "improvements":  # the secret does not touch its hidden works; nobody steals its map
            orders = {p: [o for o in found if FIELD[secret] not in o and not o.startswith("SPY MAP")]
                      for p, found in orders.items()}
        twin_orders = (orders, dict(orders))
        if kind == "privateer":  # its owner's menu offered it to ALPHA only: only the twin move sails it
            orders = {p: [o for o in found if p == "GAMMA" or "TRIREME" not in o or o.startswith("BUY")]
                      for p, found in orders.items()}
            moves = privateer_orders(first, picks["GAMMA"][0] if picks["GAMMA"] else turn_number)
            twin_orders = ({**orders, "ALPHA": orders["ALPHA"] + moves}, {**orders, "BETA": orders["BETA"] + moves})
        if any(o.startswith("MORALE") for p in hidden for o in orders[p]) and kind in ("garrison", "privateer"):
            return  # morale is priced per unit held, and the total spent is public
        for viewer in others:
            if viewer is not None:
                checks = [c.as_json() for c in VARIANT.check_orders(as_state(first), viewer, orders[viewer])]
                assert same(checks, [c.as_json()
                                     for c in VARIANT.check_orders(as_state(second), viewer, orders[viewer])])
        one, two = resolve(first, twin_orders[0], game["seed"]), resolve(second, twin_orders[1], game["seed"])
        if kind == "garrison" and any(b["territory"] == first["powers"][secret]["capital"]
                                      for b in (*one["details"]["battles"], *two["details"]["battles"])):
            return  # a battle at the capital in either twin: combat shows who holds it
        if kind == "garrison" and not capital_still_hides(two["position"], secret):
            for viewer in others:
                assert same(VARIANT.history_view(one, viewer), VARIANT.history_view(two, viewer)), (kind, viewer)
            return
        if kind == "privateer" and not (privateer_met_nobody_it_knows(one) and privateer_met_nobody_it_knows(two)):
            return
        history[0].append(one)
        history[1].append(two)
        events = (platform_events(start_one, history[0], game["seed"]),
                  platform_events(start_two, history[1], game["seed"]))
        for viewer in others:
            assert same(VARIANT.history_view(one, viewer), VARIANT.history_view(two, viewer)), (kind, viewer)
            assert same(platform_view(events[0], viewer), platform_view(events[1], viewer)), (kind, viewer)
        first, second = one["position"], two["position"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=game_strategy, secret=st.sampled_from(POWERS), kind=st.sampled_from(KINDS))
# BETA disbands its capital's last infantry in one twin only, then GAMMA attacks the capital: a battle
# in one twin, none in the other (combat shows who holds it: the twins part there)
@example(game={"seed": 0, "turns": [{"ALPHA": [], "BETA": [129], "GAMMA": [167]},
                                    {"ALPHA": [], "BETA": [], "GAMMA": [15]}]}, secret="BETA", kind="garrison")
def test_games_that_differ_only_in_hidden_facts_look_the_same_to_everyone_else(
        game: dict[str, Any], secret: str, kind: str) -> None:
    play_twins(game, secret, kind)


def test_privateer_twins_fight_gammas_ships_and_hold_lanes():
    """The privateer twins are not vacuous: a fixed game where the privateer (ALPHA's or
    BETA's) takes a lane and fights GAMMA's ships, compared turn by turn."""
    before = dict(TWINS)
    game = {"seed": 3, "turns": [{"ALPHA": [], "BETA": [], "GAMMA": [1]}, {"ALPHA": [], "BETA": [], "GAMMA": [1]},
                                 {"ALPHA": [], "BETA": [], "GAMMA": [2]}]}
    one, _ = twin(rich_start(), "ALPHA", "privateer")
    assert privateer_orders(one, 1) == ["MOVE 1 TRIREME sea-east -> sea-west"]
    play_twins(game, "ALPHA", "privateer")
    assert TWINS["pairs"] - before["pairs"] >= 12 and TWINS["differences"] == before["differences"]


# -- twins of every shape of three hidden facts ---------------------------------------------------
#
# docs/rules/ekonia.md, "Who holds a lane", "A trade proposal's answer", "Hidden troops and
# captures". Each kind draws its shape from ``game["shape"]``:
#
# - lanes: on each lane, flagged triremes of any state and privateers of ALPHA or GAMMA, and
#   somewhere a privateer that is ALPHA's in one twin and BETA's in the other (ALPHA and BETA
#   at peace and sparing each other, GAMMA at war with both or with neither): the privateer
#   shares lanes with flagged ships and with other privateers, of its owner and of others;
# - trade: the secret state proposes trade to another every turn in one twin only; the partner
#   proposes or not, whoever is at war;
# - hidden troops: an infantry of the secret state, hidden by espionage and hidden again every
#   turn, stands in one plain tile in one twin and in another in the other; the others march
#   through both at war or at peace.
#
# Twins part where the rules make the difference public: an agreement made, a battle where the
# hidden troops stand, a capture by them, hidden troops of two states meeting (each learns it).
# The lanes twins part only once the privateer that differs is sunk in one of them (its owner's
# orders for it then move other ships): battles beside ALPHA's or BETA's ships no longer part
# them, since a privateer fights apart from its owner's flag and privateers of several states
# look like one state's (D30).

SHAPES = ("lanes", "trade", "hidden troops")
PAIRS = (("ALPHA", "BETA"), ("ALPHA", "GAMMA"), ("BETA", "GAMMA"))
LANE_SHIPS = (("ALPHA", False), ("BETA", False), ("GAMMA", False), ("ALPHA", True), ("GAMMA", True))
HIDING_PLACES = ("mid-one", "mid-three", "a-field", "b-field", "g-field")


def bits(number: int, count: int) -> list[bool]:
    return [bool(number >> i & 1) for i in range(count)]


def lane_twins(state: dict[str, Any], shape: int) -> tuple[dict[str, Any], dict[str, Any]]:
    for uid in ("ALPHA-3", "BETA-5"):
        state["units"].pop(uid)
    gamma_fights, *placed = bits(shape, 1 + 2 * len(LANE_SHIPS) + 1)
    state["wars"] = [["ALPHA", "GAMMA"], ["BETA", "GAMMA"]] if gamma_fights else []
    spare_gamma = [] if gamma_fights else ["GAMMA"]
    state["powers"]["ALPHA"]["spared"] = ["BETA", *spare_gamma]
    state["powers"]["BETA"]["spared"] = ["ALPHA", *spare_gamma]
    state["powers"]["GAMMA"]["spared"] = [] if gamma_fights else ["ALPHA", "BETA"]
    number = 60
    for lane_index, lane in enumerate(("sea-west", "sea-east")):
        for ship_index, (owner, privateer) in enumerate(LANE_SHIPS):
            if placed[lane_index * len(LANE_SHIPS) + ship_index]:
                add_unit(state, f"{owner}-{number}", "TRIREME", lane, privateer=privateer)
                number += 1
    where = "sea-west" if placed[-1] else "sea-east"
    first, second = json.loads(json.dumps(state)), json.loads(json.dumps(state))
    add_unit(first, "ALPHA-50", "TRIREME", where, privateer=True)
    add_unit(second, "BETA-50", "TRIREME", where, privateer=True)
    return first, second


def shape_twins(kind: str, secret: str, shape: int) -> tuple[dict[str, Any], dict[str, Any]]:
    state = rich_start()
    if kind == "lanes":
        return lane_twins(state, shape)
    state["wars"] = [list(p) for p, at_war in zip(PAIRS, bits(shape, 3), strict=True) if at_war]
    first, second = json.loads(json.dumps(state)), json.loads(json.dumps(state))
    if kind == "hidden troops":
        places = [p for p in HIDING_PLACES if state["territories"][p]["owner"] in (None, secret)]
        one = places[(shape >> 3) % len(places)]
        two = [p for p in places if p != one][(shape >> 6) % (len(places) - 1)]
        add_unit(first, f"{secret}-90", "INFANTRY", one, hidden_until=1)
        add_unit(second, f"{secret}-90", "INFANTRY", two, hidden_until=1)
    return first, second


def knowers(kind: str, secret: str) -> tuple[str, ...]:
    return ("ALPHA", "BETA") if kind == "lanes" else (secret,)


def shape_orders(kind: str, secret: str, shape: int, states: tuple[dict[str, Any], dict[str, Any]],
                 picks: dict[str, list[int]], turn_number: int) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Both twins' orders: the same random ones, and what makes the twins (a move of the
    privateer, the secret proposal, the hidden infantry hidden again)."""
    first, second = states
    if kind == "hidden troops":  # the secret state orders as if its hidden infantry were not there
        without = json.loads(json.dumps(first))
        without["units"].pop(f"{secret}-90")
        orders = {p: orders_of(without if p == secret else first, p, picks[p]) for p in POWERS}
        orders[secret] = [o for o in orders[secret] if not o.startswith("HIDE")]
        return tuple({**orders, secret: orders[secret] + [  # type: ignore[return-value]
            f"HIDE 1 INFANTRY AT {state['units'][f'{secret}-90']['location']}"]} for state in states)
    orders = {p: orders_of(first, p, picks[p]) for p in POWERS}
    if kind == "trade":
        partner = [p for p in POWERS if p != secret][shape >> 3 & 1]
        offers = ["TRADE WITH " + partner]
        if shape >> 4 & 1 and f"TRADE WITH {secret}" not in orders[partner]:
            orders[partner] = orders[partner] + [f"TRADE WITH {secret}"]
        accepted = [c.order for c in VARIANT.check_orders(as_state(second), secret, orders[secret] + offers)
                    if c.accepted and c.order is not None]
        return orders, {**orders, secret: list(dict.fromkeys(accepted))}
    orders = {p: [o for o in found if p == "GAMMA" or o.startswith("BUY") or not any(
        word in o for word in ("TRIREME", "PRIVATEERS", "MORALE"))]  # morale: priced on every unit held
        for p, found in orders.items()}
    moves = privateer_orders(first, picks["GAMMA"][0] if picks["GAMMA"] else turn_number)
    return {**orders, "ALPHA": orders["ALPHA"] + moves}, {**orders, "BETA": orders["BETA"] + moves}


def hidden_unit(state: dict[str, Any], secret: str) -> dict[str, Any] | None:
    return state["units"].get(f"{secret}-90")


def still_hidden(state: dict[str, Any], secret: str) -> bool:
    unit = hidden_unit(state, secret)
    return unit is not None and unit["id"] not in {u["id"] for u in visible_units(as_state(state), VARIANT.board)}


def parted(kind: str, secret: str, one: dict[str, Any], two: dict[str, Any]) -> bool:
    """Whether the rules made the difference public this turn (the twins part there)."""
    if kind == "trade":
        return one["position"]["trade"] != two["position"]["trade"]
    if kind == "hidden troops":
        for turn in (one, two):
            place = turn["position_before"]["units"][f"{secret}-90"]["location"]
            if any(b["territory"] == place for b in turn["details"]["battles"]):
                return True
            if any(e["territory"] == place and (e.get("by") == secret or e["event"] == "not held alone")
                   for e in turn["details"]["events"] if "territory" in e):
                return True
        return False
    # lanes: not when the privateer fights beside ships of ALPHA or BETA (a state's privateers
    # fight apart from its flag, and privateers of several states look like one's: D30), only
    # once it is sunk in a twin: its owner's orders for it then move the ships the map shows
    for turn in (one, two):
        ship = next((uid for uid in turn["position_before"]["units"] if uid.endswith("-50")), None)
        if ship is not None and ship not in turn["position"]["units"]:
            return True
    return False


def play_shape_twins(game: dict[str, Any], secret: str, kind: str) -> int:
    """Play the twins of one shape turn by turn, asserting that every viewer who does not
    know the fact sees the same; the number of turns compared."""
    shape = game.get("shape", game["seed"])
    starts = shape_twins(kind, secret, shape)
    first, second = starts
    others = [p for p in (*POWERS, None) if p not in knowers(kind, secret)]
    history: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
    for turn_number, picks in enumerate(game["turns"]):
        if kind == "hidden troops" and not (still_hidden(first, secret) and still_hidden(second, secret)):
            break
        for viewer in others:
            assert same(VARIANT.view(as_state(first), viewer), VARIANT.view(as_state(second), viewer)), (kind, viewer)
            if viewer is not None:
                assert same(VARIANT.possible_orders(as_state(first), viewer),
                            VARIANT.possible_orders(as_state(second), viewer))
        orders = shape_orders(kind, secret, shape, (first, second), picks, turn_number)
        for viewer in others:
            if viewer is not None:
                checks = [[c.as_json() for c in VARIANT.check_orders(as_state(state), viewer, found[viewer])]
                          for state, found in zip((first, second), orders, strict=True)]
                assert same(*checks), (kind, viewer)
        one, two = resolve(first, orders[0], game["seed"]), resolve(second, orders[1], game["seed"])
        if parted(kind, secret, one, two):
            break
        history[0].append(one)
        history[1].append(two)
        events = (platform_events(starts[0], history[0], game["seed"]),
                  platform_events(starts[1], history[1], game["seed"]))
        for viewer in others:
            assert same(VARIANT.history_view(one, viewer), VARIANT.history_view(two, viewer)), (kind, viewer)
            assert same(platform_view(events[0], viewer), platform_view(events[1], viewer)), (kind, viewer)
        first, second = one["position"], two["position"]
    return len(history[0])


shape_strategy = st.fixed_dictionaries({
    "seed": st.integers(0, 10_000),
    "shape": st.integers(0, 2**12 - 1),
    "turns": st.lists(st.fixed_dictionaries({p: st.lists(st.integers(0, 400), max_size=5) for p in POWERS}),
                      min_size=2, max_size=5),
})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=shape_strategy, secret=st.sampled_from(POWERS), kind=st.sampled_from(SHAPES))
def test_twins_of_every_hidden_shape_look_the_same_to_everyone_else(
        game: dict[str, Any], secret: str, kind: str) -> None:
    play_shape_twins(game, secret, kind)
