"""A hosted standard movement phase resolved by the C core (docs/rules/c_core.md, "Hosted games").

The hosted game's state document is a contract document without orders
(``position_to_document``), and its stored orders are the canonical texts the order check
accepted: so a movement phase is handed to the core as it stands, with the orders, and the
outcome is built from the core's output document and a few counts over it, without reading the
position or the orders into the engine's objects. The core answers None for a phase it does
not take (docs/rules/c_core.md, "What it takes and what it leaves"), and so does this module
for what only the engine decides: a power in civil disorder (or sitting out a small game's
phase) that gave orders, whose orders the engine voids. The Python engine then resolves the
phase as before (``BoardVariant.resolve``).

What the engine's resolution adds to the contract's output is worked out here as
adjudicate.py works it out (``_movement``, ``_season_end``, ``end_of_year``): who must act next,
and after a fall with no retreat to order, the winners; tests/games/test_hosted_c_core.py holds
the two ways to the same stored bytes.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.rules.diplomacy import c_core, load_map
from shared.rules.diplomacy.adjudicate import default_victory_centres, victory
from shared.rules.diplomacy.phase import Phase
from shared.rules.diplomacy.small_games import SmallGame

from .base import PhaseOutcome
from .documents import BoardDislodged, BoardDocument, DislodgedUnit

_TALLY = {"phases": 0}  # phases the core resolved in this process (a figure for ``entente replay``)

STATE_FIELDS = frozenset({"variant", "phase", "units", "centers", "dislodged"})
"""What ``position_to_document`` writes: a state with any other field is the engine's to read."""


def core_movement_outcome(state: BoardDocument, orders: Mapping[str, Sequence[str]], setup: SmallGame,
                          civil_disorder: frozenset[str]) -> PhaseOutcome[BoardDocument] | None:
    """The outcome of a standard movement phase as ``StandardVariant.resolve`` stores it, from
    the C core; None when the core is not running or does not take the phase."""
    core = c_core.MOVEMENT_DOCUMENT
    phase_text = state.get("phase")
    if core is None or type(phase_text) is not str or not phase_text.endswith("M") or not STATE_FIELDS >= set(state):
        return None
    disorder = civil_disorder | setup.sitting_out_at(Phase.parse(phase_text)) if setup.sitting_out else civil_disorder
    given: dict[str, list[str]] = {}
    for power in sorted(orders):  # the engine's input order (BoardVariant.resolve)
        texts = orders[power]
        if texts:
            if power in disorder:
                return None  # the engine voids them, one by one
            given[power] = texts if type(texts) is list else list(texts)
    document: dict[str, Any] = {**state, "orders": given}  # the core's input: JSON, as it reads it
    out = core(document)
    if out is None:
        return None
    _TALLY["phases"] += 1
    return outcome_of_output(out, given, setup, disorder)


def phases_by_core() -> int:
    """How many phases the core has resolved in this process (``entente replay`` says it: a
    tally for people, not exact when threads resolve at once)."""
    return _TALLY["phases"]


def outcome_of_output(out: dict[str, Any], given: Mapping[str, list[str]], setup: SmallGame,
                      disorder: frozenset[str]) -> PhaseOutcome[BoardDocument]:
    """The core's output document as the engine's ``PhaseOutcome`` of the same phase."""
    written = out["orders"]
    results = {power: written[power] for power in given}
    units: dict[str, list[str]] = out["units"]
    centres: dict[str, list[str]] = out["centers"]
    dislodged: dict[str, list[BoardDislodged]] = out["dislodged"]
    details: list[DislodgedUnit] = []
    retreating: set[str] = set()  # the powers with a dislodged unit that has somewhere to go
    for power, held in dislodged.items():
        for unit in held:
            retreats = unit["retreats"]
            if retreats:
                retreating.add(power)
            details.append({"power": power, "unit": unit["unit"], "attacker_from": unit["attacker_from"],
                            "retreats": list(retreats)})
    winners: frozenset[str] = frozenset()
    if retreating:  # adjudicate.py, _movement: those with a retreat to order, unless in disorder
        acting = retreating - disorder
    else:  # _season_end: after a fall, the centres are counted (the core has moved them already)
        acting = set()
        if out["phase"][0] == "F":
            owned = {power: len(held) for power, held in centres.items()}
            acting = powers_to_adjust(units, centres, owned)
            threshold = setup.victory_centres or default_victory_centres(load_map("standard"))
            winners = victory({}, threshold, setup.teams_at(Phase.parse(out["phase"])), owned)
        if not acting:
            acting = {power for power, held in units.items() if held}
    next_phase = out["next_phase"]
    if setup.sitting_out:
        acting -= setup.sitting_out_at(Phase.parse(next_phase))
    return PhaseOutcome(
        phase=out["phase"], orders=results,
        state={"variant": "standard", "phase": next_phase, "units": units, "centers": centres,
               "dislodged": dislodged if retreating else {}},
        next_phase=next_phase, must_act=sorted(acting), winners=sorted(winners), details={"dislodged": details})


def powers_to_adjust(units: Mapping[str, list[str]], centres: Mapping[str, list[str]],
                     owned: Mapping[str, int]) -> set[str]:
    """adjustments.py's ``powers_to_adjust`` over the output's lists: a power owing removals,
    or owed builds with an owned home centre free to build on."""
    home_centres = load_map("standard").home_centres
    occupied = {text[2:5] for held in units.values() for text in held}  # "A PAR", "F STP/NC"
    acting = set()
    for power in set(units) | set(centres):
        difference = owned.get(power, 0) - len(units.get(power, ()))
        if difference < 0:
            acting.add(power)
        elif difference > 0:
            mine = set(centres.get(power, ()))
            if any(p in mine and p not in occupied for p in home_centres.get(power, ())):
                acting.add(power)
    return acting
