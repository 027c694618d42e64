"""Orders between the hosted game and DAIDE, pure: our canonical orders (docs/notation.md) as
DAIDE orders for ORD, the engine's results as DAIDE results, and the order checks' reasons as
the notes of THX (docs/bots.md, "Orders and notes").
"""
from __future__ import annotations

from collections.abc import Sequence

from shared.rules.variants.documents import StateDocument

from .board import POWER_CODES, location, our_unit, power_of_unit, unit
from .syntax import Item, render


def _unit_with_power(text: str, position: StateDocument, fallback: str) -> list[Item]:
    where = text.partition(" ")[2]
    return unit(power_of_unit(position, where) or fallback, text)


def _split_move(text: str) -> tuple[str, str]:
    """``A PAR - BUR`` as (``A PAR``, ``BUR``)."""
    head, _, destination = text.partition(" - ")
    return head, destination.removesuffix(" VIA").strip()


def convoy_path(army: str, destination: str, convoys: Sequence[str]) -> list[str]:
    """The seas of the convoy orders of the phase that carry ``army`` to ``destination``, in
    the order the army passes them (empty when none do)."""
    fleets = [c.split(" C ")[0].partition(" ")[2] for c in convoys if c.split(" C ")[1:] == [f"{army} - {destination}"]]
    return fleets


def daide_order(text: str, power: str, position: StateDocument, kind: str,
                convoys: Sequence[str] = ()) -> list[Item]:
    """A stored canonical order of ``power`` as DAIDE tokens; ``position`` is the board the
    order was given on (to name the powers of supported and convoyed units), ``kind`` the
    phase's kind (``D`` is DSB in retreats, REM in adjustments)."""
    if text == "WAIVE":
        return [POWER_CODES[power], "WVE"]
    own = unit(power, " ".join(text.split(" ")[:2]))
    verb = text.split(" ")[2] if len(text.split(" ")) > 2 else "H"
    rest = " ".join(text.split(" ")[3:])
    if verb == "H":
        return [own, "HLD"]
    if verb == "-":
        _, destination = _split_move(text)
        if text.endswith(" VIA"):
            path = convoy_path(" ".join(text.split(" ")[:2]), destination, convoys)
            return [own, "CTO", location(destination), "VIA", [location(p) for p in path]]
        return [own, "MTO", location(destination)]
    if verb == "S":
        if " - " in rest:
            supported, destination = _split_move(rest)
            return [own, "SUP", _unit_with_power(supported, position, power), "MTO",
                    location(destination.partition("/")[0])]
        return [own, "SUP", _unit_with_power(rest, position, power)]
    if verb == "C":
        army, destination = _split_move(rest)
        return [own, "CVY", _unit_with_power(army, position, power), "CTO", location(destination)]
    if verb == "R":
        return [own, "RTO", location(rest)]
    if verb == "D":
        return [own, "REM" if kind == "adjustments" else "DSB"]
    if verb == "B":
        return [own, "BLD"]
    raise ValueError(f"not a canonical order: {text!r}")


def daide_result(text: str, result: str, reason: str, dislodged: bool, kind: str) -> list[Item]:
    """The engine's result of an order as DAIDE's: SUC, BNC, CUT, DSR, NSO or FLD, with RET
    after it for a unit dislodged (a dislodged unit that held: RET alone)."""
    words = text.split(" ")
    verb = words[2] if len(words) > 2 else ("WAIVE" if text == "WAIVE" else "H")
    if verb == "H" and dislodged and kind == "movement":
        return ["RET"]
    if result == "succeeds":
        outcome = "SUC"
    elif "bounced" in reason or "cannot dislodge own unit" in reason:
        outcome = "BNC"
    elif reason.startswith("support cut") or (verb == "S" and "dislodged by" in reason):
        outcome = "CUT"
    elif verb == "-" and ("convoy" in reason or text.endswith(" VIA")):
        outcome = "DSR"
    elif verb in ("S", "C") and ("did not" in reason or "land route" in reason or result == "void"):
        outcome = "NSO"
    else:
        outcome = "FLD"
    return [outcome, "RET"] if dislodged and kind == "movement" else [outcome]


# the order checks' reasons (shared/rules/diplomacy/legality.py, adjustments.py, the parser)
# and the DAIDE note each is answered with, first match wins
_NOTES: tuple[tuple[str, str], ...] = (
    ("cannot be given in", "NRS"),
    ("only retreats and disbands", "NRS"),
    ("no dislodged unit", "NRN"),
    ("cannot retreat", "NVR"),
    ("is not yours", "NYU"),
    ("is not one of", "NYU"),
    ("is written for", "NYU"),
    ("no unit at", "NSU"),
    ("on the board", "NSU"),
    ("cannot convoy: only fleets in sea", "NAS"),
    ("cannot be convoyed: only armies", "NSA"),
    ("may build only", "NMB"),
    ("has no build", "NMB"),
    ("nowhere to build", "NMB"),
    ("must remove only", "NMR"),
    ("has no unit to remove", "NMR"),
    ("is not a home centre", "HSC"),
    ("does not own", "YSC"),
    ("is occupied by", "ESC"),
    ("already built at", "ESC"),
    ("needs a coast", "CST"),
    ("name the coast", "CST"),
    ("fleets are built only on coasts", "CST"),
    ("cannot stand", "CST"),
    ("unknown province", "NSP"),
    ("no place called", "NSP"),
    ("expected a province", "NSP"),
    ("cannot reach", "FAR"),
    ("cannot be convoyed to", "FAR"),
    ("cannot be part of a convoy", "FAR"),
    ("cannot move to its own province", "FAR"),
    ("cannot support itself", "FAR"),
)


def note_for(reason: str | None) -> str:
    """The THX note for a rejected order's reason; FAR for a reason the table does not name,
    NSU for an order the parser could not read at all (an unknown unit or province)."""
    text = reason or ""
    for fragment, note in _NOTES:
        if fragment in text:
            return note
    return "FAR" if text else "NSU"


def last_per_unit(orders: list[list[Item]]) -> list[list[Item]]:
    """A SUB's orders, a later order for a unit replacing an earlier one (DAIDE's rule)."""
    kept: dict[str, list[Item]] = {}
    for index, order in enumerate(orders):
        key = render(order[0]) if isinstance(order[0], list) else f"#{index}"
        kept.pop(key, None)
        kept[key] = order
    return list(kept.values())


def asks_what_rules_do(order: list[Item], power: str, kind: str, owed: int, stranded: Sequence[str]) -> bool:
    """An order of a power that has nothing to order which asks for what the rules do anyway,
    noted MBV as the syntax document has it rather than NRS: WVE in an adjustment phase from a
    power owed builds it has no free home centre for (``owed`` > 0), DSB in a retreat phase of
    one of its dislodged units that has nowhere to retreat (``stranded``: ``A BUR``)."""
    if order == [POWER_CODES[power], "WVE"]:
        return kind == "adjustments" and owed > 0
    found = our_unit(order[0]) if len(order) == 2 and order[1] == "DSB" else None
    return kind == "retreats" and found is not None and found[0] == power and found[1] in stranded
