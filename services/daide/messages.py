"""The server's messages about a hosted game, pure functions of its state and log: HLO, ORD,
MIS, SMR and the end of a game (docs/bots.md)."""
from __future__ import annotations

from collections.abc import Sequence

from shared.events import PhaseResolved
from shared.game.state import GameState
from shared.rules.variants import get_variant, public_board, variant_of
from shared.rules.variants.documents import StateDocument

from .board import POWER_CODES, centres_of, dislodged_of, location, phase_now, turn, unit, units_of
from .orders import daide_order, daide_result
from .press import level_of
from .syntax import Item, Text

MAX_SECONDS = 8191  # the largest DAIDE integer: longer clocks are sent as this


def seconds(minutes: int) -> int:
    return min(minutes * 60, MAX_SECONDS)


def hlo_message(state: GameState, power: str, passcode: int) -> list[Item]:
    """HLO (power) (passcode) ((LVL n) (MTL s) (RTL s) (BTL s) [(PDA)]): the press level (10
    where players may send press, 0 in a gunboat game), the game's clocks, and PDA where the
    game allows partial draws (``DRW (powers)``)."""
    settings = state.settings
    options: list[Item] = [["LVL", level_of(settings.press)], ["MTL", seconds(settings.movement_minutes)],
                           ["RTL", seconds(settings.retreat_minutes)], ["BTL", seconds(settings.retreat_minutes)]]
    if settings.partial_draws:
        options.append(["PDA"])
    return ["HLO", [POWER_CODES[power]], [passcode], options]


def _province(text: str) -> str:
    """The province of an order's own unit: ``A BUD - SER`` is BUD, ``F STP/SC H`` is STP."""
    words = text.split(" ")
    return words[1].partition("/")[0] if len(words) > 1 else ""


def ord_messages(event: PhaseResolved) -> list[list[Item]]:
    """ORD (turn) (order) (result) for every order of a resolved phase; in a movement phase a
    unit that was given no order held, and is reported so."""
    phase, before = event.phase, event.position_before
    kind = variant_of(before).phase_kind(phase)
    dislodged = {(d.power, _province(d.unit)) for d in event.dislodged}
    convoys = [o.order for results in event.orders.values() for o in results if " C " in o.order]
    messages: list[list[Item]] = []
    for power in sorted(event.orders, key=lambda p: POWER_CODES.get(p, p)):
        for result in event.orders[power]:
            text = result.order
            was_dislodged = kind == "movement" and (power, _province(text)) in dislodged
            messages.append(["ORD", turn(phase), daide_order(text, power, before, kind, convoys),
                             daide_result(text, result.result, result.reason, was_dislodged, kind)])
    if kind == "movement":
        for power in sorted(public_board(before)["units"], key=lambda p: POWER_CODES.get(p, p)):
            ordered = {_province(r.order) for r in event.orders.get(power, [])}
            for text in units_of(before, power):
                if _province(text) not in ordered:
                    held = daide_result(f"{text} H", "succeeds", "", (power, _province(text)) in dislodged, kind)
                    messages.append(["ORD", turn(phase), [unit(power, text), "HLD"], held])
    return messages


def mis_message(state: GameState, power: str, submitted: Sequence[str] | None) -> list[Item]:
    """MIS: the units still without an order (with their retreats in a retreat phase), or in
    an adjustment phase the builds (positive) or removals (negative) still to order; MIS
    alone when nothing is missing."""
    position = state.position
    if position is None or power not in state.must_act:
        return ["MIS"]
    variant = get_variant(state.variant)
    phase = str(state.phase)
    kind = variant.phase_kind(phase)
    given = list(submitted or [])
    if kind == "adjustments":
        owed = variant.adjustments(position).get(power, 0)
        # the syntax document's sign: removals still owed positive, builds still open negative
        if owed > 0:  # builds beyond the free home centres cannot be ordered: they are not missing
            sites = [site for site in variant.possible_orders(position, power) if site != "WAIVE"]
            left = -max(0, min(owed, len(sites)) - len(given))
        else:
            left = -(owed + len(given))
        return ["MIS", [left]] if left else ["MIS"]
    subjects = {variant.order_subject(text, phase, power) for text in given}
    missing: list[Item] = []
    if kind == "retreats":
        for entry in dislodged_of(position, power):
            if variant.order_subject(entry["unit"], phase, power) not in subjects:
                missing.append([*unit(power, entry["unit"]), "MRT", [location(r) for r in entry["retreats"]]])
    else:
        missing = [unit(power, text) for text in units_of(position, power)
                   if variant.order_subject(text, phase, power) not in subjects]
    return ["MIS", *missing]


def _centre_count(position: StateDocument, power: str) -> int:
    return len(centres_of(position).get(power, [])) if position else 0


def _alive(position: StateDocument, power: str) -> bool:
    return bool(position) and (bool(units_of(position, power)) or _centre_count(position, power) > 0)


def smr_message(state: GameState, resolved: Sequence[PhaseResolved]) -> list[Item]:
    """SMR (turn) (power ('codename') ('anonymous') centres [year eliminated]) ...: the game's
    summary; every power by its codename, never a player's name or account."""
    position = state.position or (resolved[-1].position if resolved else {})
    phase = str(state.phase or (phase_now(position) if position else "S1901M"))
    if state.finish_reason in ("victory", "abandoned") and resolved:
        phase = resolved[-1].phase  # ended by a resolution: the last turn played, not the one after it
    codenames = state.codenames_by_power()
    entries: list[Item] = []
    for power in sorted(POWER_CODES, key=lambda p: POWER_CODES[p]):
        entry: list[Item] = [POWER_CODES[power], [Text(codenames.get(power, "nobody"))], [Text("anonymous")],
                             _centre_count(position, power)]
        if not _alive(position, power):
            gone = next((e for e in resolved if not _alive(e.position, power)), None)
            if gone is not None:
                entry.append(int(gone.phase[1:-1]))
        entries.append(entry)
    return ["SMR", turn(phase), *entries]


def ending_messages(state: GameState, resolved: Sequence[PhaseResolved]) -> list[list[Item]]:
    """What a finished game says: SLO (winner) or DRW (a draw; DRW (powers) for a partial
    one, as DAIDE's syntax has it), then SMR, then OFF."""
    messages: list[list[Item]] = []
    if len(state.winners) == 1:
        messages.append(["SLO", [POWER_CODES[state.winners[0]]]])
    elif state.finish_reason == "draw" and len(state.drawn) < len(state.surviving_powers()):
        messages.append(["DRW", [POWER_CODES[p] for p in state.drawn]])
    elif state.finish_reason == "draw":
        messages.append(["DRW"])
    messages.append(smr_message(state, resolved))
    messages.append(["OFF"])
    return messages
