"""DAIDE press at level 10 (peace and alliances), pure: which press messages are well formed,
the written form read back into tokens, and the FRM a recipient is sent (docs/bots.md, "Press").

A DAIDE seat's press is stored as any seat's message (``MessageSent``, signed by power and
codename), its text the press message in DAIDE's written form: players on the pages read
``PRP (PCE (FRA ENG))``, and a message whose text reads as level-10 press, whoever wrote it,
reaches the DAIDE seats among its recipients as FRM.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeGuard

from .syntax import Item, Text
from .tokens import POWERS, TOKENS

LEVEL = 10
MAX_ITEMS = 200  # tokens in one press message; a message is stored as text of at most 2,000 characters

_REPLIES = {"YES", "REJ", "BWX", "HUH", "CCL"}  # each answers (or cancels) an earlier press message
_WORD = re.compile(r"\s*(\(|\)|'(?:[^']|'')*'|-?\d+|[A-Z]{3})")


def level_of(press_setting: str) -> int:
    """The press level a game plays over DAIDE: 10 where its players may send press, else 0."""
    return LEVEL if press_setting in ("full", "public") else 0


def _powers(item: Item) -> TypeGuard[list[Item]]:
    return isinstance(item, list) and bool(item) and all(isinstance(p, str) and p in POWERS for p in item)


def is_arrangement(items: Sequence[Item]) -> bool:
    """Level 10's arrangements: PCE (powers), ALY (powers) VSS (powers), DRW, SLO (power),
    NOT (arrangement), NAR (arrangement)."""
    head, rest = (items[0], list(items[1:])) if items else (None, [])
    if head == "PCE":  # the syntax document sets no least number of powers: PCE (RUS) is well formed
        return len(rest) == 1 and _powers(rest[0])
    if head == "ALY":
        return len(rest) == 3 and _powers(rest[0]) and rest[1] == "VSS" and _powers(rest[2])
    if head == "DRW":
        return not rest
    if head == "SLO":
        return len(rest) == 1 and _powers(rest[0]) and len(rest[0]) == 1
    if head in ("NOT", "NAR"):
        return len(rest) == 1 and isinstance(rest[0], list) and is_arrangement(rest[0])
    return False


def is_press(items: Sequence[Item]) -> bool:
    """A level-10 press message: PRP or FCT (arrangement), TRY (tokens), or YES, REJ, BWX,
    HUH, CCL (press message)."""
    if not items or len(items) > MAX_ITEMS:
        return False
    head, rest = items[0], list(items[1:])
    if len(rest) != 1 or not isinstance(rest[0], list):
        return False
    if head in ("PRP", "FCT"):
        return is_arrangement(rest[0])
    if head == "TRY":
        return all(isinstance(t, str) and t in TOKENS for t in rest[0])
    if head == "HUH":  # a press message not understood, ERR before the token where the reader stopped
        return is_press(_without_err(rest[0]))
    if head in _REPLIES:
        return is_press(rest[0])
    return False


def _without_err(items: list[Item]) -> list[Item]:
    return [_without_err(item) if isinstance(item, list) else item for item in items if item != "ERR"]


def read_written(text: str) -> list[Item] | None:
    """DAIDE's written form (``PRP (PCE (FRA ENG))``) as tokens, or None when it is not that."""
    stack: list[list[Item]] = [[]]
    position, text = 0, text.strip()
    while position < len(text):
        found = _WORD.match(text, position)
        if found is None:
            return None
        word, position = found.group(1), found.end()
        if word == "(":
            stack.append([])
        elif word == ")":
            if len(stack) == 1:
                return None
            inner = stack.pop()
            stack[-1].append(inner)
        elif word.startswith("'"):
            stack[-1].append(Text(word[1:-1].replace("''", "'")))
        elif word.lstrip("-").isdigit():
            stack[-1].append(int(word))
        elif word in TOKENS:
            stack[-1].append(word)
        else:
            return None
    return stack[0] if len(stack) == 1 else None


def press_of(text: str) -> list[Item] | None:
    """A stored message's text as a level-10 press message, or None (free text)."""
    items = read_written(text)
    return items if items is not None and is_press(items) else None


def frm_message(sender: str, recipients: Sequence[str], press: list[Item]) -> list[Item]:
    """FRM (sender) (recipients) (press), the powers by their DAIDE codes."""
    return ["FRM", [sender], list(recipients), press]
