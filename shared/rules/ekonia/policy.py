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

A position's view holds what grows with the game's age (spending per turn, a spy's
knowledge) only for its ``RECENT_TURNS`` latest turns, so that its bytes stay the same at turn
300 as at turn 30 (docs/api.md, "History pages"); earlier turns are in the history pages
(each turn's ``details``) and in the views of past phases (docs/rules/ekonia.md, V9).

``state_view(state, board, viewer)`` and ``turn_view(resolved, viewer)`` are pure; the
Ekonia variant's ``view`` and ``history_view`` are these, and services/visibility/view.py
reaches Ekonia state only through them. docs/rules/ekonia.md section 14 says the same in prose.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .battle_reports import BattleJSON
from .board import Board
from .public_map import visible_units
from .records import EkoniaState, Event, LaneChange, Spending, UnitRecord, as_state
from .state import is_privateer_party, state_of, unit_order

EVERYONE, OWNER, MAP, FLAG, SIDES, OPERATORS = "everyone", "owner", "map", "flag", "sides", "operators"
PRIVATEERS = "PRIVATEERS"
RECENT_TURNS = 10  # the turns of spending and knowledge a position's view holds (the latest)

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
    "details.battles.*.sides": SIDES,  # each camp of the battle, to the states that fought it
    "details.battles.*.sides.*.powers": FLAG,
    "details.battles.*.sides.*.privateers": OPERATORS,  # would name the privateers' owners
    "details.battles.*.sides.*.role": SIDES,
    "details.battles.*.sides.*.armed": SIDES,
    "details.battles.*.sides.*.units": SIDES,
    "details.battles.*.sides.*.units.*.unit": OWNER,  # unit ids: the unit's owner only
    "details.battles.*.sides.*.units.*.owner": FLAG,
    "details.battles.*.sides.*.units.*.type": SIDES,
    "details.battles.*.sides.*.units.*.base": SIDES,
    "details.battles.*.sides.*.units.*.modifiers": SIDES,  # none depends on a hidden fact (D30, D31)
    "details.battles.*.sides.*.units.*.strength": SIDES,
    "details.battles.*.sides.*.passengers": SIDES,
    "details.battles.*.sides.*.passengers.*.unit": OWNER,
    "details.battles.*.sides.*.passengers.*.owner": FLAG,
    "details.battles.*.sides.*.passengers.*.type": SIDES,
    "details.battles.*.sides.*.base_strength": SIDES,
    "details.battles.*.sides.*.strength": SIDES,
    "details.battles.*.sides.*.directions": SIDES,
    "details.battles.*.sides.*.bombardment": SIDES,
    "details.battles.*.sides.*.roll": SIDES,
    "details.battles.*.sides.*.dice_bonus": SIDES,
    "details.battles.*.sides.*.total": SIDES,
    "details.battles.*.sides.*.outcome": SIDES,
    "details.battles.*.sides.*.survivors": SIDES,
    "details.battles.*.winner": FLAG,  # to the sides only (the battle's ``sides`` row)
    "details.battles.*.survivor_strength": SIDES,
    "details.battles.*.destroyed": SIDES,  # by owner (flagged): own unit ids, the others' by type
    "details.battles.*.overrun": FLAG,
    "details.battles.*.bounty": OWNER,  # would name the privateers' owner
    "details.events.taken": EVERYONE,
    "details.events.neutralised": EVERYONE,
    "details.events.neutralised.by": OWNER,  # the taker only: its troops may be hidden there
    "details.events.fort razed": EVERYONE,
    "details.events.capital moved": EVERYONE,
    "details.events.built FORT": EVERYONE,
    "details.events.built SHIPYARD": OWNER,
    "details.events.built GASVENT": OWNER,
    "details.events.stored units lost": OWNER,
    "details.events.improvements razed": OWNER,
    "details.events.too weak to take": OWNER,  # its troops may be hidden
    "details.events.not held alone": OWNER,  # hidden troops of several states block each other
    "details.missions.*": OWNER,
    "details.rolls.battle": SIDES,  # shown as the battle reports show them (flagged, in their order)
    "details.rolls.mission": OWNER,
    "details.ledgers.*": OWNER,
    "details.sea_lanes.*": FLAG,  # a change nobody could see (privateers to privateers) is no change
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
    """A unit's or a lane's owner as ``viewer`` sees it (``FLAG``): a lane held by privateers
    of several states (no owner) is ``PRIVATEERS`` to everyone."""
    return PRIVATEERS if privateer and (owner is None or owner != viewer) else owner


def _record(table: Mapping[str, str], prefix: str, record: Mapping[str, object], viewer: str | None,
            owner: str | None, *, only: tuple[str, ...] = (EVERYONE, OWNER)) -> dict[str, object]:
    """The fields of ``record`` that ``viewer`` may see, among those whose audience is in ``only``."""
    return {key: value for key, value in record.items()
            if audience(table, f"{prefix}.{key}") in only and
            may_see(table, f"{prefix}.{key}", viewer, owner)}


def canonical(value: Any) -> str:
    """The order of things a viewer is shown: by what it shows, never by what it hides."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


# ----------------------------------------------------------------------------- the position


def state_view(state: EkoniaState, board: Board, viewer: str | None) -> dict[str, object]:
    """What ``viewer`` (a state, or None) sees of the position: ``public`` (the same for
    everyone), ``units`` and ``centres`` per state as every variant's view has them,
    ``surviving`` (the states still in the game) and, for a state, ``own``."""
    if viewer is not None and viewer not in state["powers"]:
        viewer = None
    shown_units = sorted((map_unit(u) for u in visible_units(state, board)), key=canonical)
    public = _public(state, shown_units)
    units: dict[str, list[dict[str, object]]] = {p: [] for p in state["powers"]}
    for unit in shown_units:
        units.setdefault(str(unit["owner"]), []).append(unit)
    centres = {p: sorted(t for t, terr in state["territories"].items() if terr["owner"] == p)
               for p in state["powers"]}
    body: dict[str, object] = {"phase": f"T{state['turn']:02d}", "units": units, "centres": centres,
                            "surviving": sorted(p for p, rec in state["powers"].items() if rec["alive"]),
                            "public": public}
    if viewer is not None:
        body["own"] = _own(state, viewer)
    return body


def _public(state: EkoniaState, units: list[dict[str, object]]) -> dict[str, object]:
    """The public map, the same for every viewer (a state's own privateers, lanes and
    conversions carry its name in ``own``, never here); ``units`` are those it shows."""
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
        "spent": {p: {turn: shown["total"] for turn, rec in recent_spending(state, by_turn).items()
                      if "total" in (shown := _record(STATE_POLICY, "spending.*.*", rec, None, p))}
                  for p, by_turn in state["spending"].items()},
        "units": units,
        "winners": state["winners"],
    }


def recent(state: EkoniaState, turn: int) -> bool:
    """Whether a record of ``turn`` is among the ``RECENT_TURNS`` latest of the position."""
    return int(turn) > int(state["turn"]) - 1 - RECENT_TURNS


def recent_spending(state: EkoniaState, by_turn: Mapping[str, Spending]) -> dict[str, Spending]:
    """A state's spending records (by phase name, ``T07``) of the recent turns."""
    return {phase: rec for phase, rec in by_turn.items() if recent(state, int(phase.lstrip("T")))}


def map_unit(unit: UnitRecord, viewer: str | None = None) -> dict[str, object]:
    """A unit as ``viewer`` sees it: every field the table gives it (its owner all of them;
    anyone else, where the map shows the unit, its ``map`` fields and its flag)."""
    owner = unit["owner"]
    shown = {}
    for key, value in unit.items():
        path = f"units.*.{key}"
        who = audience(STATE_POLICY, path)
        if who in (MAP, EVERYONE) or (who == OWNER and may_see(STATE_POLICY, path, viewer, owner)):
            shown[key] = value
        elif who == FLAG:  # the owner, the one field of a unit shown as a flag
            shown[key] = flag(owner, unit["privateer"], viewer)
    return shown


def _own(state: EkoniaState, power: str) -> dict[str, object]:
    """Everything of the viewer's own, field by field as the table gives it to the owner."""
    record = _record(STATE_POLICY, "powers.*", state["powers"][power], power, power)
    mine = sorted((u for u in state["units"].values() if u["owner"] == power), key=unit_order)
    improvements = {}
    for tid, terr in sorted(state["territories"].items()):
        if terr["owner"] == power:
            improvements[tid] = _record(STATE_POLICY, "territories.*", terr, power, power, only=(OWNER,))
    converting = sorted(tid for tid, t in state["territories"].items() if t["converting"]
                        and may_see(STATE_POLICY, "territories.*.converting.by", power, t["converting"]["by"]))
    lanes = sorted(tid for tid, lane in state["sea_lanes"].items()
                   if flag(lane["controller"], lane["privateer"], power) == power)
    spending = {turn: _record(STATE_POLICY, "spending.*.*", rec, power, power)
                for turn, rec in recent_spending(state, state["spending"].get(power, {})).items()}
    return {
        "power": power,
        "gold": record["gold"],
        "state": record,
        "units": [map_unit(u, power) for u in mine],
        "improvements": improvements,
        "converting": converting,
        "sea_lanes": lanes,
        "knowledge": [k for k in state["knowledge"].get(power, []) if recent(state, k["turn"])]
        if may_see(STATE_POLICY, "knowledge.*", power, power) else [],
        "spending": spending,
        "ledger": state["ledger"].get(power) if may_see(STATE_POLICY, "ledger.*", power, power) else None,
    }


def _blank(value: Any) -> Any:
    """What a field the viewer may not see reads as in its planning document."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return 0
    if isinstance(value, list):
        return []
    if isinstance(value, dict):
        return {}
    return None


def planning_view(state: EkoniaState, viewer: str) -> EkoniaState:
    """The state document as ``viewer`` may know it, in the stored shape: every field the
    table hides from it blanked, other states' units left out (the map shows them without ids).
    Order checks, possible orders, their messages and each state's own plan at resolution are
    computed on this, read as the engine's records (``position.Ekonia.from_document``), so none
    of them can depend on a hidden fact."""
    powers = {p: {k: (v if may_see(STATE_POLICY, f"powers.*.{k}", viewer, p) else _blank(v))
                  for k, v in rec.items()} for p, rec in state["powers"].items()}
    territories = {}
    for tid, terr in state["territories"].items():
        shown = {k: (v if may_see(STATE_POLICY, f"territories.*.{k}", viewer, terr["owner"]) else _blank(v))
                 for k, v in terr.items() if k != "converting"}
        conv = terr["converting"]
        shown["converting"] = None if conv is None else {
            k: (v if may_see(STATE_POLICY, f"territories.*.converting.{k}", viewer, conv["by"]) else None)
            for k, v in conv.items()}
        territories[tid] = shown
    lanes = {tid: {"controller": lane["controller"] if flag(lane["controller"], lane["privateer"], viewer)
                   == lane["controller"] else None, "privateer": lane["privateer"]}
             for tid, lane in state["sea_lanes"].items()}
    mine = {uid: dict(u) for uid, u in state["units"].items() if u["owner"] == viewer}
    # the engine's records, field by field as the table lets the viewer know them
    return as_state({
        **{k: v for k, v in state.items() if audience(STATE_POLICY, k) == EVERYONE},
        "powers": powers, "territories": territories, "sea_lanes": lanes, "units": mine,
        "knowledge": {p: (list(v) if p == viewer else []) for p, v in state["knowledge"].items()},
        "spending": {p: ({t: dict(r) for t, r in v.items()} if p == viewer else {})
                     for p, v in state["spending"].items()},
        "ledger": {p: v for p, v in state["ledger"].items() if p == viewer},
        "last_turn": {},
    })


# ----------------------------------------------------------------------------- a resolved turn


def turn_view(resolved: Mapping[str, Any], viewer: str | None) -> dict[str, object]:
    """What ``viewer`` sees of a resolved turn (a PhaseResolved event as JSON): its own
    orders and results, and the details the policy shows it."""
    orders = resolved.get("orders", {})
    before = resolved.get("position_before") or {}
    details = resolved.get("details") or {}
    return {
        "phase": resolved["phase"],
        "orders": {p: list(found) for p, found in orders.items() if may_see(TURN_POLICY, "orders.*", viewer, p)},
        "dislodged": [],
        "next_phase": resolved["next_phase"],
        "details": details_view(details, before, viewer),
    }


def details_view(details: Mapping[str, Any], before: Mapping[str, Any], viewer: str | None) -> dict[str, object]:
    types = {uid: u["type"] for uid, u in (before.get("units") or {}).items()}
    battles = sorted((battle_view(b, viewer, types) for b in details.get("battles", [])),
                     key=lambda b: (b["territory"], canonical(b)))
    missions = [m for m in details.get("missions", [])
                if may_see(TURN_POLICY, "details.missions.*", viewer, m["power"])]
    mission_rolls = [dict(r) for r in details.get("rolls", []) if r["kind"] == "mission"
                     and may_see(TURN_POLICY, "details.rolls.mission", viewer, r["power"])]
    changes = [_lane_change(c, before, viewer) for c in details.get("sea_lanes", [])]
    return {
        "battles": battles,
        "events": [_event(e, viewer) for e in details.get("events", []) if _event_shown(e, viewer)],
        "missions": missions,
        "rolls": _battle_rolls(battles) + mission_rolls,
        "ledgers": {p: v for p, v in details.get("ledgers", {}).items()
                    if may_see(TURN_POLICY, "details.ledgers.*", viewer, p)},
        "sea_lanes": [{k: v for k, v in c.items() if k != "was_privateer"} for c in changes
                      if (c["from"], c["was_privateer"]) != (c["to"], c["privateer"])],
        "spending": {p: _record(TURN_POLICY, "details.spending.*", rec, viewer, p)
                     for p, rec in details.get("spending", {}).items()},
        "destroyed_states": list(details.get("destroyed_states", [])),
    }


def _battle_rolls(battles: list[dict[str, object]]) -> list[dict[str, object]]:
    """The battle rolls a viewer may see: those of the battles it fought, as their reports
    show them (privateers unnamed, camps in the report's order)."""
    return [{"kind": "battle", "territory": b["territory"], "powers": side["powers"], "roll": side["roll"]}
            for b in battles for side in _camps(b) if side.get("roll") is not None]


def _camps(battle: Mapping[str, object]) -> list[dict[str, object]]:
    """A battle view's camps: none in a bystander's view, which says only where it was."""
    sides = battle.get("sides", [])
    return [side for side in sides if isinstance(side, dict)] if isinstance(sides, list) else []


def _event_kind(event: Event) -> str:
    kind = str(event["event"])
    return kind + (f" {event['what']}" if kind == "built" else "")


def _event_owner(event: Event) -> str | None:
    owner: str | None = event.get("owner") or event.get("by") or event.get("power")
    return owner


def _event_shown(event: Event, viewer: str | None) -> bool:
    return may_see(TURN_POLICY, f"details.events.{_event_kind(event)}", viewer, _event_owner(event))


def _event(event: Event, viewer: str | None) -> dict[str, object]:
    """An event with the fields the table gives ``viewer`` (a field without a row of its own
    has the event's audience)."""
    kind = _event_kind(event)
    shown = {}
    for key, value in event.items():
        path = f"details.events.{kind}.{key}"
        owner = event.get("by") if key == "by" else _event_owner(event)
        if path not in TURN_POLICY or may_see(TURN_POLICY, path, viewer, owner):
            shown[key] = value
    return shown


def _lane_change(change: LaneChange, before: Mapping[str, Any], viewer: str | None) -> dict[str, object]:
    was_privateer = bool(before.get("sea_lanes", {}).get(change["sea_lane"], {}).get("privateer"))
    return {"sea_lane": change["sea_lane"], "from": flag(change["from"], was_privateer, viewer),
            "to": flag(change["to"], change["privateer"], viewer), "privateer": change["privateer"],
            "was_privateer": was_privateer}


def fighters(battle: BattleJSON) -> frozenset[str]:
    """Every state in a battle: every state of every camp (a party of privateers: its owner),
    the overrun included."""
    return frozenset(state_of(p) for side in battle["sides"] for p in side["powers"])


def battle_view(battle: BattleJSON, viewer: str | None,
                types: Mapping[str, str] | None = None) -> dict[str, object]:
    """A battle report as ``viewer`` sees it, field by field from ``TURN_POLICY``: bystanders
    learn where; each side the whole battle, other states' units by type (no ids),
    privateers without a name; everything in an order that depends only on what it shows."""
    prefix = "details.battles.*"
    sides = fighters(battle)
    if not may_see(TURN_POLICY, f"{prefix}.sides", viewer, None, sides):
        return {"territory": battle["territory"]}
    hidden = frozenset(p for side in battle["sides"] for p in side.get("privateers", []))

    def name(power: str | None) -> str | None:
        if power is not None and is_privateer_party(power):  # a state's privateers, apart from its flag
            return flag(state_of(power), True, viewer)
        return flag(power, power in hidden, viewer)

    def shown(path: str, value: Any, owner: str | None) -> tuple[bool, Any]:
        who = audience(TURN_POLICY, path)
        if who == FLAG:  # privateers of several states read as those of one (D30)
            return True, sorted({name(p) for p in value}, key=str) if isinstance(value, list) else name(value)
        return may_see(TURN_POLICY, path, viewer, owner, sides), value

    def record(path: str, rec: Mapping[str, object], owner: str | None) -> dict[str, object]:
        out = {}
        for key, value in rec.items():
            visible, value = shown(f"{path}.{key}", value, owner)
            if visible:
                out[key] = value
        return out

    camps = []
    for side in battle["sides"]:
        camp = record(f"{prefix}.sides.*", {k: v for k, v in side.items() if k not in ("units", "passengers")}, None)
        camp["units"] = sorted((record(f"{prefix}.sides.*.units.*", u, state_of(u["owner"]))
                                for u in side["units"]), key=canonical)
        camp["passengers"] = sorted((record(f"{prefix}.sides.*.passengers.*", u, state_of(u["owner"]))
                                     for u in side["passengers"]), key=canonical)
        camps.append(camp)
    known = {**(types or {}), **{u["unit"]: u["type"] for side in battle["sides"]
                                 for u in (*side["units"], *side["passengers"])}}
    destroyed: dict[str, list[str]] = {}
    for power, ids in battle.get("destroyed", {}).items():
        own = may_see(TURN_POLICY, f"{prefix}.sides.*.units.*.unit", viewer, state_of(power))
        destroyed.setdefault(str(name(power)), []).extend(ids if own else [known.get(i, "UNIT") for i in ids])
    view: dict[str, object] = {"territory": battle["territory"], "sides": sorted(camps, key=canonical)}
    for key in ("winner", "survivor_strength", "overrun"):
        visible, value = shown(f"{prefix}.{key}", battle.get(key), None)
        if visible:
            view[key] = value
    view["destroyed"] = {p: sorted(found) for p, found in sorted(destroyed.items())}
    view["bounty"] = {p: g for p, g in battle.get("bounty", {}).items()
                      if may_see(TURN_POLICY, f"{prefix}.bounty", viewer, p)}
    return view
