"""A first, simple split of the full state into what a state sees (placeholder until the
hidden-information issue replaces it): everything of its own, and a public part.

Public: owners, conversions, forts, capitals, cities, wars, trade agreements, sea lane
holders (privateer holders shown as PRIVATEERS), the gold each state spent per turn, and the
units the hidden strength values do not hide. Hidden: gold, ship yards, gas vents, stored
units, airships, cargo, units hidden by espionage, privateer owners, knowledge, ledgers.
"""
from __future__ import annotations

from typing import Any, Mapping

from . import catalogue as C
from .state import State, improvement_of, unit_order
from .board import Board

PRIVATEERS = "PRIVATEERS"


def hidden_strength_limit(state: State, board: Board, tid: str) -> float:
    kind = improvement_of(state, board, tid)
    if kind == "tile":
        return 0.0
    owner = state["territories"][tid]["owner"]
    hide = state["powers"][owner]["hide_cities"] if owner else None
    bonus = hide["bonus"] if hide and hide["turn"] == state["turn"] else 0
    return float(C.HSV[kind] + bonus)


def visible_units(state: State, board: Board) -> list[dict[str, Any]]:
    """Units any state sees on the map, without hidden facts."""
    shown: list[dict[str, Any]] = []
    strength: dict[str, float] = {}
    for unit in state["units"].values():
        if unit["location"] in state["territories"] and not unit["stored"]:
            loc = unit["location"]
            strength[loc] = strength.get(loc, 0.0) + C.UNIT_TYPES[unit["type"]].attack
    for unit in sorted(state["units"].values(), key=unit_order):
        loc = unit["location"]
        if unit["stored"] or unit["aboard"] or unit["type"] == "AIRSHIP":
            continue
        if unit["hidden_until"] is not None and unit["hidden_until"] >= state["turn"]:
            continue
        if loc in state["territories"] and strength[loc] <= hidden_strength_limit(state, board, loc):
            continue
        owner = PRIVATEERS if unit["privateer"] else unit["owner"]
        shown.append({"type": unit["type"], "owner": owner, "location": loc})
    return shown


def public_view(state: State, board: Board) -> dict[str, Any]:
    lanes = {tid: (PRIVATEERS if lane["privateer"] else lane["controller"])
             for tid, lane in state["sea_lanes"].items()}
    return {
        "turn": state["turn"],
        "territories": {tid: {"owner": t["owner"], "fort": t["fort"], "city": t["city"],
                              "converting": t["converting"]}
                        for tid, t in state["territories"].items()},
        "capitals": {p: power["capital"] for p, power in state["powers"].items()},
        "alive": {p: power["alive"] for p, power in state["powers"].items()},
        "wars": state["wars"], "trade": state["trade"], "sea_lanes": lanes,
        "spent": {p: {turn: rec["total"] for turn, rec in by_turn.items()}
                  for p, by_turn in state["spending"].items()},
        "units": visible_units(state, board),
        "winners": state["winners"],
    }


def own_view(state: State, power: str) -> dict[str, Any]:
    return {
        "power": power,
        "gold": state["powers"][power]["gold"],
        "state": state["powers"][power],
        "units": [u for u in sorted(state["units"].values(), key=unit_order) if u["owner"] == power],
        "improvements": {tid: {"shipyard": t["shipyard"], "gas_vent": t["gas_vent"]}
                         for tid, t in state["territories"].items() if t["owner"] == power},
        "knowledge": state["knowledge"].get(power, []),
        "spending": state["spending"].get(power, {}),
        "ledger": state["ledger"].get(power),
    }


def view(state: Mapping[str, Any], board: Board, viewer: str | None) -> dict[str, Any]:
    """``units`` and ``centres`` (power -> list) at the top, as every variant's view has them
    (the lobby counts surviving powers from them); ``public``; ``own`` for a state."""
    public = public_view(dict(state), board)
    units: dict[str, list[dict[str, Any]]] = {p: [] for p in state["powers"]}
    for unit in public["units"]:
        units.setdefault(unit["owner"], []).append(unit)
    centres = {p: sorted(t for t, terr in state["territories"].items() if terr["owner"] == p)
               for p in state["powers"]}
    body: dict[str, Any] = {"phase": f"T{state['turn']:02d}", "units": units, "centres": centres,
                            "public": public}
    if viewer is not None and viewer in state["powers"]:
        body["own"] = own_view(dict(state), viewer)
    return body
