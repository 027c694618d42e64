"""A cursor over tokens, and the phase-dependent choice of order class shared by both grammars."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..orders import Disband, Move, Order, Remove, Retreat, Unit
from ..phase import PhaseType
from .errors import Stumble
from .tokens import Token

if TYPE_CHECKING:
    from ..geography import GameMap
    from .lexicon import Lexicon


class Cursor:
    def __init__(self, tokens: Sequence[Token], text: str) -> None:
        self.tokens = tokens
        self.text = text
        self.i = 0

    def peek(self, ahead: int = 0) -> Token | None:
        j = self.i + ahead
        return self.tokens[j] if j < len(self.tokens) else None

    def peek_key(self, ahead: int = 0) -> str | None:
        token = self.peek(ahead)
        return token.key if token is not None else None

    def at_end(self) -> bool:
        return self.i >= len(self.tokens)

    def advance(self) -> Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def accept(self, *keys: str) -> Token | None:
        """Consume the next token if its key is one of ``keys``."""
        token = self.peek()
        if token is not None and token.key in keys:
            self.i += 1
            return token
        return None

    def stumble(
        self, expected: tuple[str, ...], message: str, suggestions: tuple[str, ...] = ()
    ) -> Stumble:
        """An error at the current token (or at the end of the text)."""
        token = self.peek()
        if token is None:
            return Stumble("", len(self.text), expected, message, suggestions)
        return Stumble(token.text, token.offset, expected, message, suggestions)


def move_or_retreat(unit: Unit, destination: str, via_convoy: bool, phase_type: PhaseType | None) -> Order:
    """``-`` is a retreat in a retreat phase, a move otherwise."""
    if phase_type is PhaseType.RETREATS:
        return Retreat(unit, destination)
    return Move(unit, destination, via_convoy)


def disband_or_remove(unit: Unit, written_remove: bool, phase_type: PhaseType | None) -> Order:
    """``D``/disband and remove name one act whose class depends on the phase.

    Retreat phase: Disband; adjustment phase: Remove; no phase given: what was written
    (``D`` and disband -> Disband, remove -> Remove).
    """
    if phase_type is PhaseType.RETREATS:
        return Disband(unit)
    if phase_type is PhaseType.ADJUSTMENTS:
        return Remove(unit)
    return Remove(unit) if written_remove else Disband(unit)


class Grammar:
    """What each notation's grammar reads with: the tokens, the words it knows, the map, the
    phase (which decides what ``D`` and ``-`` mean) and the submitting power, if known."""

    def __init__(self, cursor: Cursor, lexicon: Lexicon, game_map: GameMap,
                 phase_type: PhaseType | None, power: str | None) -> None:
        self.cur = cursor
        self.lex = lexicon
        self.map = game_map
        self.phase_type = phase_type
        self.power = power
