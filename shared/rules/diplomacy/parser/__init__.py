"""Text to orders, in four notations, never raising.

``parse_order`` reads one order written in the short notation (``A PAR - BUR``, DATC and
bots), in English words (``Army Rome to Venice``), in Danish words as docs/notation.md lists them
(``Hær Rom holder``, freely mixed with English), or as DAIDE tokens (``(FRA AMY PAR) MTO BUR``).
It returns an ``Order`` or a ``ParseError`` that names the word it stumbled on, its offset,
what was expected there and, for a misspelt province, the closest names.

The parser reads text only; it does not look at the position. ``normalise_order`` (in
``engine.normalise``) then fills what the text left out (a fleet's coast, the real unit type).
"""
from __future__ import annotations

from collections.abc import Iterable

from ..geography import GameMap, load_map
from ..orders import Order
from ..phase import PhaseType
from .canonical import read_canonical_cached
from .cursor import Cursor
from .daide import DaideGrammar, looks_like_daide
from .errors import ParseError, Stumble
from .lexicon import FILLER_WORDS, lexicon_for
from .text import TextGrammar
from .tokens import tokenize

__all__ = ["ParseError", "parse_order", "parse_orders", "MAX_ORDER_LENGTH"]

MAX_ORDER_LENGTH = 200
"""Longer text is refused at once: no order is that long, and the parser's work stays bounded.
The same limit as the order intake's (docs/api.md), so a text reads alike everywhere."""

_BULLETS = frozenset({"-", "*", "•", "·"})


def parse_order(
    text: object,
    *,
    game_map: GameMap | None = None,
    phase_type: PhaseType | None = None,
    power: str | None = None,
) -> Order | ParseError:
    """One order from one line of text, or a ParseError saying why not; never raises.

    ``phase_type`` decides what ``D`` and ``-`` mean (see ``cursor.disband_or_remove`` and
    ``cursor.move_or_retreat``); ``power``, when given, must agree with a written power prefix
    (``ENGLAND: F LON - NTH``, ``(ENG FLT LON) ...``). ``game_map`` defaults to the standard map.
    """
    if not isinstance(text, str):
        return ParseError(
            text="" if text is None else _safe_repr(text),
            word="", offset=0, expected=("order text",),
            message=f"an order must be text, not {type(text).__name__}",
        )
    game_map = game_map or load_map()
    fast = read_canonical_cached(text, game_map, phase_type)
    if fast is not None:
        return fast
    try:
        return _parse(text, game_map, phase_type, power)
    except Stumble as stumble:
        return stumble.to_error(text)
    except Exception as exc:  # the parser's promise: a ParseError, whatever the input
        return ParseError(
            text=text, word="", offset=0, expected=(),
            message=f"the order could not be read ({type(exc).__name__})",
        )


def parse_orders(
    lines: str | Iterable[object],
    *,
    game_map: GameMap | None = None,
    phase_type: PhaseType | None = None,
    power: str | None = None,
) -> list[Order | ParseError]:
    """Many orders. A string is split into lines and its blank lines are skipped; any other
    iterable gives exactly one result per item, in order (so results line up with input)."""
    if isinstance(lines, str):
        items: Iterable[object] = [line for line in lines.splitlines() if line.strip()]
    else:
        try:
            items = list(lines)
        except TypeError:
            items = [lines]
    return [parse_order(item, game_map=game_map, phase_type=phase_type, power=power) for item in items]


def _parse(text: str, game_map: GameMap, phase_type: PhaseType | None, power: str | None) -> Order:
    if len(text) > MAX_ORDER_LENGTH:
        raise Stumble(
            text[MAX_ORDER_LENGTH : MAX_ORDER_LENGTH + 20], MAX_ORDER_LENGTH, (),
            f"an order is at most {MAX_ORDER_LENGTH} characters long",
        )
    tokens = [t for t in tokenize(text) if t.key not in FILLER_WORDS]
    if not tokens:
        raise Stumble("", len(text), ("order",), "there is no order: the text is empty")
    if tokens[0].key in _BULLETS and len(tokens) > 1:
        tokens = tokens[1:]  # "- Army Ruhr to Holland", as lists are written
    cursor = Cursor(tokens, text)
    lexicon = lexicon_for(game_map)
    if looks_like_daide(cursor, lexicon):
        return DaideGrammar(cursor, lexicon, game_map, phase_type, power).order()
    return TextGrammar(cursor, lexicon, game_map, phase_type, power).order()


def _safe_repr(value: object) -> str:
    try:
        return repr(value)[:MAX_ORDER_LENGTH]
    except Exception:
        return "<unprintable>"
