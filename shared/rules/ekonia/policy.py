"""Who may see what of a Tale of Ekonia game: one table, and the projections built from it.

``STATE_POLICY`` names every field of the engine's state document and ``TURN_POLICY`` every
field of a resolved turn (its orders and details), each with its audience:

- ``everyone``: every player and the public;
- ``owner``: the state the field belongs to (a power's record, a territory's owner, a unit's
  owner, a spy's missions); what a successful mission revealed reaches its spy through the
  spy's own ``knowledge``, marked with the turn it was learnt;
- ``map``: a unit of another state, shown (type, location and flag, never its id) only where
  the public map shows it: not stored, not aboard, not an airship, not hidden by espionage,
  and in a city, capital or fort only while the strength there exceeds the hidden strength
  value;
- ``flag``: everyone, but a privateer's owner is shown as ``PRIVATEERS`` to all but itself;
- ``sides``: the states that fought a battle (bystanders learn only where it was);
- ``operators``: nobody in a game view (``GET /games/{id}/events`` with the operator token).

``state_view(state, board, viewer)`` and ``turn_view(resolved, viewer)`` are pure; the
Ekonia variant's ``view`` and ``history_view`` are these, and services/visibility/view.py
reaches Ekonia state only through them. docs/rules/ekonia.md section 14 says the same in prose.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .public_map import visible_units
from .state import unit_order

EVERYONE, OWNER, MAP, FLAG, SIDES, OPERATORS = "everyone", "owner", "map", "flag", "sides", "operators"
PRIVATEERS = "PRIVATEERS"

STATE_POLICY: dict[str, str] = {
    "variant": EVERYONE,
    "turn": EVERYONE,
    "winners": EVERYONE,
    "wars": EVERYONE,  # war is declared in the open (D8)
    "war_since": EVERYONE,
    "trade": EVERYONE,  # agreements in force; proposals are orders (owner)
    "powers.*.capital": EVERYONE,
    "powers.*.alive": EVERYONE,  # who still plays is public (must_act names them too)
    "powers.*.gold": OWNER,
    "powers.*.next_unit": OWNER,  # would count the units a state ever bought
    "powers.*.refund_due": OWNER,
    "powers.*.spared": OWNER,  # whom its privateers leave alone
    "powers.*.hide_cities": OWNER,
    "territories.*.owner": EVERYONE,
    "territories.*.city": EVERYONE,
    "territories.*.fort": EVERYONE,
    "territories.*.converting": EVERYONE,  # whether it is turning neutral (the fields below)
    "territories.*.converting.since": EVERYONE,  # the map shows the land turning neutral
    "territories.*.converting.by": OWNER,  # the taker only: its troops may be hidden there
    "territories.*.shipyard": OWNER,  # never on the map; Steal Map tells its spy
    "territories.*.gas_vent": OWNER,
    "sea_lanes.*.controller": FLAG,
    "sea_lanes.*.privateer": EVERYONE,
    "units.*.type": MAP,
    "units.*.location": MAP,
    "units.*.owner": FLAG,
    "units.*.id": OWNER,
    "units.*.built": OWNER,
    "units.*.stored": OWNER,
    "units.*.aboard": OWNER,
    "units.*.hidden_until": OWNER,
    "units.*.privateer": OWNER,
    "knowledge.*": OWNER,  # what the state's own missions found, each with its turn
    "spending.*.*.total": EVERYONE,  # the seed publishes how much, not on what
    "spending.*.*.by_location": OWNER,  # Steal Records tells its spy (cities and forts)
    "ledger.*": OWNER,
    "last_turn": OPERATORS,  # the last turn's details: players read them in the history
}

TURN_POLICY: dict[str, str] = {
    "phase": EVERYONE,
    "next_phase": EVERYONE,
    "orders.*": OWNER,  # Ekonia publishes no orders, only the gold spent
    "details.battles.*.territory": EVERYONE,
    "details.battles.*.sides": SIDES,  # units by type, modifiers, rolls, totals; ids of own units only
    "details.battles.*.winner": SIDES,
    "details.battles.*.survivor_strength": SIDES,
    "details.battles.*.destroyed": SIDES,  # own unit ids; the other sides' losses by type
    "details.battles.*.overrun": SIDES,
    "details.battles.*.bounty": OWNER,  # would name the privateers' owner
    "details.events.taken": EVERYONE,
    "details.events.neutralised": EVERYONE,  # without "by" but for the taker
    "details.events.fort razed": EVERYONE,
    "details.events.capital moved": EVERYONE,
    "details.events.built FORT": EVERYONE,
    "details.events.built SHIPYARD": OWNER,
    "details.events.built GASVENT": OWNER,
    "details.events.stored units lost": OWNER,
    "details.events.improvements razed": OWNER,
    "details.events.too weak to take": OWNER,  # its troops may be hidden
    "details.missions.*": OWNER,
    "details.rolls.battle": SIDES,
    "details.rolls.mission": OWNER,
    "details.ledgers.*": OWNER,
    "details.sea_lanes.*": FLAG,
    "details.spending.*.total": EVERYONE,
    "details.spending.*.by_location": OWNER,
    "details.destroyed_states": EVERYONE,
    "position_before": OPERATORS,  # players see positions through state_view only
    "position": OPERATORS,
    "dislodged": EVERYONE,  # always empty in Ekonia
}


def audience(table: Mapping[str, str], path: str) -> str:
    """The audience of a field; a field the table does not name is for operators only."""
    return table.get(path, OPERATORS)


def may_see(table: Mapping[str, str], path: str, viewer: str | None, owner: str | None,
            sides: frozenset[str] = frozenset()) -> bool:
    """Whether ``viewer`` (a state, or None: the public) may see the field at ``path``
    belonging to ``owner`` (for ``sides``: in a battle fought by ``sides``)."""
    who = audience(table, path)
    if who in (EVERYONE, MAP, FLAG):
        return True
    if who == OWNER:
        return viewer is not None and viewer == owner
    if who == SIDES:
        return viewer is not None and viewer in sides
    return False


def flag(owner: str | None, privateer: bool, viewer: str | None) -> str | None:
    """A unit's or a lane's owner as ``viewer`` sees it (``FLAG``)."""
    return PRIVATEERS if privateer and owner is not None and owner != viewer else owner


def _record(table: Mapping[str, str], prefix: str, record: Mapping[str, Any], viewer: str | None,
            owner: str | None) -> dict[str, Any]:
    return {key: value for key, value in record.items()
            if audience(table, f"{prefix}.{key}") in (EVERYONE, OWNER) and
            may_see(table, f"{prefix}.{key}", viewer, owner)}


# ----------------------------------------------------------------------------- the position


def state_view(state: Mapping[str, Any], board: Any, viewer: str | None) -> dict[str, Any]:
    """What ``viewer`` (a state, or None) sees of the position: ``public`` (the same for
    everyone), ``units`` and ``centres`` per state as every variant's view has them,
    ``surviving`` (the states still in the game) and, for a state, ``own``."""
    if viewer is not None and viewer not in state["powers"]:
        viewer = None
    public = _public(state, board)
    units: dict[str, list[dict[str, Any]]] = {p: [] for p in state["powers"]}
    for unit in public["units"]:
        units.setdefault(unit["owner"], []).append(unit)
    centres = {p: sorted(t for t, terr in state["territories"].items() if terr["owner"] == p)
               for p in state["powers"]}
    body: dict[str, Any] = {"phase": f"T{state['turn']:02d}", "units": units, "centres": centres,
                            "surviving": sorted(p for p, rec in state["powers"].items() if rec["alive"]),
                            "public": public}
    if viewer is not None:
        body["own"] = _own(state, viewer)
    return body


def _public(state: Mapping[str, Any], board: Any) -> dict[str, Any]:
    """The public map, the same for every viewer (a state's own privateers, lanes and
    conversions carry its name in ``own``, never here)."""
    territories = {}
    for tid, terr in state["territories"].items():
        shown = _record(STATE_POLICY, "territories.*", terr, None, terr["owner"])
        shown["converting"] = None if terr["converting"] is None else _record(
            STATE_POLICY, "territories.*.converting", terr["converting"], None, terr["converting"]["by"])
        territories[tid] = shown
    lanes = {tid: flag(lane["controller"], lane["privateer"], None) for tid, lane in state["sea_lanes"].items()}
    powers = {p: _record(STATE_POLICY, "powers.*", rec, None, p) for p, rec in state["powers"].items()}
    return {
        "turn": state["turn"],
        "powers": powers,
        "territories": territories,
        "capitals": {p: rec.get("capital") for p, rec in powers.items()},
        "alive": {p: rec.get("alive") for p, rec in powers.items()},
        "wars": state["wars"], "war_since": state["war_since"], "trade": state["trade"],
        "sea_lanes": lanes,
        "spent": {p: {turn: shown["total"] for turn, rec in by_turn.items()
                      if "total" in (shown := _record(STATE_POLICY, "spending.*.*", rec, None, p))}
                  for p, by_turn in state["spending"].items()},
        "units": sorted((map_unit(u) for u in visible_units(state, board)),
                        key=lambda u: (u["location"], str(u["owner"]), u["type"])),  # no order of building
        "winners": state["winners"],
    }


def map_unit(unit: Mapping[str, Any]) -> dict[str, Any]:
    """A unit the map shows, as the public sees it: its ``map`` fields, its flag."""
    shown = {}
    for key, value in unit.items():
        who = audience(STATE_POLICY, f"units.*.{key}")
        if who == MAP or who == EVERYONE:
            shown[key] = value
        elif who == FLAG:
            shown[key] = flag(value, unit["privateer"], None)
    return shown


def _own(state: Mapping[str, Any], power: str) -> dict[str, Any]:
    """Everything of the viewer's own (``owner`` fields whose owner is the viewer)."""
    mine = sorted((u for u in state["units"].values() if u["owner"] == power), key=unit_order)
    return {
        "power": power,
        "gold": state["powers"][power]["gold"],
        "state": _record(STATE_POLICY, "powers.*", state["powers"][power], power, power),
        "units": [dict(u) for u in mine],  # every field of its own units
        "improvements": {tid: {"shipyard": t["shipyard"], "gas_vent": t["gas_vent"]}
                         for tid, t in sorted(state["territories"].items()) if t["owner"] == power},
        "converting": sorted(tid for tid, t in state["territories"].items()
                             if t["converting"] and t["converting"]["by"] == power),
        "sea_lanes": sorted(tid for tid, lane in state["sea_lanes"].items() if lane["controller"] == power),
        "knowledge": list(state["knowledge"].get(power, [])),
        "spending": state["spending"].get(power, {}),
        "ledger": state["ledger"].get(power),
    }


# ----------------------------------------------------------------------------- a resolved turn


def turn_view(resolved: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
    """What ``viewer`` sees of a resolved turn (a PhaseResolved event as JSON): its own
    orders and results, and the details the policy shows it."""
    orders = resolved.get("orders", {})
    before, after = resolved.get("position_before") or {}, resolved.get("position") or {}
    details = resolved.get("details") or {}
    return {
        "phase": resolved["phase"],
        "orders": {p: list(found) for p, found in orders.items() if may_see(TURN_POLICY, "orders.*", viewer, p)},
        "dislodged": [],
        "next_phase": resolved["next_phase"],
        "details": details_view(details, before, after, viewer),
    }


def details_view(details: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any],
                 viewer: str | None) -> dict[str, Any]:
    battles = details.get("battles", [])
    fought = {b["territory"]: _fighters(b) for b in battles}
    flags = {b["territory"]: privateer_sides(b, after) for b in battles}
    return {
        "battles": [battle_view(b, viewer, flags[b["territory"]], before) for b in battles],
        "events": [_event(e, viewer) for e in details.get("events", []) if _event_shown(e, viewer)],
        "missions": [m for m in details.get("missions", [])
                     if may_see(TURN_POLICY, "details.missions.*", viewer, m["power"])],
        "rolls": [_roll(r, viewer, flags.get(r.get("territory"), {})) for r in details.get("rolls", [])
                  if may_see(TURN_POLICY, f"details.rolls.{r['kind']}", viewer, r["power"],
                             fought.get(r.get("territory"), frozenset()))],
        "ledgers": {p: v for p, v in details.get("ledgers", {}).items()
                    if may_see(TURN_POLICY, "details.ledgers.*", viewer, p)},
        "sea_lanes": [_lane_change(c, before, viewer) for c in details.get("sea_lanes", [])],
        "spending": {p: _record(TURN_POLICY, "details.spending.*", rec, viewer, p)
                     for p, rec in details.get("spending", {}).items()},
        "destroyed_states": list(details.get("destroyed_states", [])),
    }


def _event_shown(event: Mapping[str, Any], viewer: str | None) -> bool:
    kind = event["event"] + (f" {event['what']}" if event["event"] == "built" else "")
    owner = event.get("owner") or event.get("by") or event.get("power")
    return may_see(TURN_POLICY, f"details.events.{kind}", viewer, owner)


def _event(event: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
    if event["event"] == "neutralised" and event.get("by") != viewer:
        return {key: value for key, value in event.items() if key != "by"}
    return dict(event)


def _roll(roll: Mapping[str, Any], viewer: str | None, privateers: Mapping[str, bool]) -> dict[str, Any]:
    if roll["kind"] != "battle":
        return dict(roll)
    return {**roll, "power": flag(roll["power"], privateers.get(roll["power"], False), viewer)}


def _fighters(battle: Mapping[str, Any]) -> frozenset[str]:
    """Every state in a battle: the sides that fought, the overrun and the winner."""
    found = {s["power"] for s in battle["sides"]} | set(battle.get("overrun", [])) | set(battle.get("destroyed", {}))
    return frozenset(found | ({battle["winner"]} if battle.get("winner") else set()))


def privateer_sides(battle: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, bool]:
    """Which states fought as privateers: the report says so for the sides that fought; an
    overrunning winner (no report of its side) by its triremes there after the battle."""
    flags = {s["power"]: bool(s["privateers"]) for s in battle["sides"]}
    winner = battle.get("winner")
    if winner and winner not in flags:
        ships = [u for u in (after.get("units") or {}).values() if u["owner"] == winner
                 and u["location"] == battle["territory"] and u["type"] == "TRIREME" and not u["stored"]]
        flags[winner] = bool(ships) and all(u["privateer"] for u in ships)
    return flags


def _lane_change(change: Mapping[str, Any], before: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
    was_privateer = bool(before.get("sea_lanes", {}).get(change["sea_lane"], {}).get("privateer"))
    return {"sea_lane": change["sea_lane"], "from": flag(change["from"], was_privateer, viewer),
            "to": flag(change["to"], change["privateer"], viewer), "privateer": change["privateer"]}


def battle_view(battle: Mapping[str, Any], viewer: str | None, privateer: Mapping[str, bool],
                before: Mapping[str, Any]) -> dict[str, Any]:
    """A battle report as ``viewer`` sees it: bystanders learn where; each side learns the
    whole battle, with the other sides' units by type (no ids), privateers without a name."""
    if not may_see(TURN_POLICY, "details.battles.*.sides", viewer, None, _fighters(battle)):
        return {"territory": battle["territory"]}

    def name(power: str | None) -> str | None:
        return flag(power, power is not None and privateer.get(power, False), viewer)

    shown_sides = []
    for side in battle["sides"]:
        own = side["power"] == viewer
        shown_sides.append({
            **side, "power": name(side["power"]),
            "units": [u if own else {k: v for k, v in u.items() if k != "unit"} for u in side["units"]],
            "passengers": side["passengers"] if own else len(side["passengers"]),
        })
    types = {**{uid: u["type"] for uid, u in (before.get("units") or {}).items()},
             **{u["unit"]: u["type"] for s in battle["sides"] for u in s["units"]}}
    destroyed = {name(p): (ids if p == viewer else sorted(types.get(i, "UNIT") for i in ids))
                 for p, ids in battle.get("destroyed", {}).items()}
    return {
        "territory": battle["territory"], "sides": shown_sides, "winner": name(battle.get("winner")),
        "survivor_strength": battle.get("survivor_strength"), "destroyed": destroyed,
        "overrun": [name(p) for p in battle.get("overrun", [])],
        "bounty": {p: g for p, g in battle.get("bounty", {}).items() if p == viewer},
    }
