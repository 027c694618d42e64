"""Read one order's text into an Order, or say exactly why not. Never raises.

Keywords are case-insensitive; territories may be written as their id (``chalein_coast``) or
their name (``Chalein Coast``); states by their upper-case name. A count may be left out (1).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import catalogue as C
from .board import Board
from .orders import (
    AttackPrivateers,
    Bombard,
    Buy,
    Diplomacy,
    Disband,
    Drop,
    Expect,
    Give,
    HideCities,
    HideUnits,
    Improve,
    Load,
    Morale,
    Move,
    Order,
    Privateer,
    Raze,
    Rebase,
    Spy,
    Unload,
)

UNIT_WORDS = {"INFANTRY": "INFANTRY", "INFANTRIES": "INFANTRY", "CAVALRY": "CAVALRY",
              "CAVALRIES": "CAVALRY", "TRIREME": "TRIREME", "TRIREMES": "TRIREME",
              "TRANSPORT": "TRANSPORT", "TRANSPORTS": "TRANSPORT", "AIRSHIP": "AIRSHIP",
              "AIRSHIPS": "AIRSHIP"}
VERBS = ("BUY", "FORT", "SHIPYARD", "GASVENT", "MOVE", "BOMBARD", "LOAD", "UNLOAD", "DROP",
         "REBASE", "MORALE", "SPY", "HIDE", "GIVE", "EXPECT", "WAR", "PEACE", "TRADE", "END",
         "SPARE", "HUNT", "PRIVATEER", "ATTACK", "RAZE", "DISBAND")
SEPARATORS = {"->", "AT", "TO", "FROM"}


@dataclass(frozen=True, slots=True)
class ParseError:
    reason: str
    where: str | None = None
    expected: tuple[str, ...] = ()


class _Fail(Exception):
    def __init__(self, error: ParseError) -> None:
        self.error = error


class _Reader:
    def __init__(self, text: str, board: Board) -> None:
        self.tokens = text.replace("->", " -> ").replace("→", " -> ").split()
        self.pos = 0
        self.board = board

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def fail(self, reason: str, expected: tuple[str, ...] = ()) -> _Fail:
        return _Fail(ParseError(reason, self.peek(), expected))

    def word(self, *choices: str) -> str:
        token = self.peek()
        if token is None or token.upper() not in choices:
            raise self.fail(f"expected {' or '.join(choices)}", choices)
        self.pos += 1
        return token.upper()

    def optional(self, choice: str) -> bool:
        token = self.peek()
        if token is not None and token.upper() == choice:
            self.pos += 1
            return True
        return False

    def number(self, what: str = "a number", most: int = C.MAX_COUNT) -> int:
        """A whole number from 1 to ``most``, in the digits 0-9, checked before it is read:
        no count or amount larger than the rules could ever use gets into the engine
        (docs/rules/ekonia.md R4)."""
        token = self.peek()
        if token is None or not token.isdigit():
            raise self.fail(f"expected {what} (a whole number above 0)", ("<number>",))
        if not token.isascii():
            raise self.fail(f"expected {what} written with the digits 0-9", ("<number>",))
        if len(token.lstrip("0")) > len(str(most)) or not 1 <= int(token) <= most:
            raise self.fail(f"expected {what} from 1 to {most}", ("<number>",))
        self.pos += 1
        return int(token)

    def count(self) -> int:
        token = self.peek()
        return self.number("a count") if token is not None and token.isdigit() else 1

    def unit(self, *allowed: str) -> str:
        token = self.peek()
        unit = UNIT_WORDS.get(token.upper()) if token else None
        allowed = allowed or tuple(sorted(set(UNIT_WORDS.values())))
        if unit is None or unit not in allowed:
            raise self.fail("expected a unit type: " + ", ".join(allowed), allowed)
        self.pos += 1
        return unit

    def territory(self) -> str:
        start = self.pos
        while (word := self.peek()) is not None and word.upper() not in SEPARATORS:
            self.pos += 1
        words = self.tokens[start:self.pos]
        if not words:
            raise self.fail("expected a territory", ("<territory>",))
        found = self.board.resolve_name(" ".join(words))
        if found is None:
            self.pos = start
            raise _Fail(ParseError(f"no territory called {' '.join(words)!r}", words[0],
                                   ("<territory>",)))
        return found

    def state(self) -> str:
        token = self.peek()
        if token is None or token.upper() not in self.board.states:
            raise self.fail("expected a state: " + ", ".join(sorted(self.board.states)),
                            tuple(sorted(self.board.states)))
        self.pos += 1
        return token.upper()

    def arrow(self) -> None:
        self.word("->")

    def end(self) -> None:
        if self.peek() is not None:
            raise self.fail("unexpected words after the order", ())


def _buy(r: _Reader) -> Order:
    count, unit = r.count(), r.unit()
    r.word("AT")
    at = r.territory()
    launch = None
    if r.optional("->"):
        launch = r.territory()
    return Buy(count, unit, at, launch)


def _path_order(make: Callable[[int, str, str, str], Order], *units: str) -> Callable[[_Reader], Order]:
    def parse(r: _Reader) -> Order:
        count, unit = r.count(), r.unit(*units)
        origin = r.territory()
        r.arrow()
        return make(count, unit, origin, r.territory())
    return parse


def _move(r: _Reader) -> Order:
    count, unit = r.count(), r.unit()
    path = [r.territory()]
    r.arrow()
    path.append(r.territory())
    while r.optional("->"):
        path.append(r.territory())
    return Move(count, unit, tuple(path))


def _spy(r: _Reader) -> Order:
    mission = r.word("INVESTIGATE", "MAP", "RECORDS", "COUNTER")
    if mission == "INVESTIGATE":
        if r.optional("FLEET"):
            return Spy("INVESTIGATE FLEET", r.territory())
        return Spy(mission, r.territory())
    if mission == "COUNTER" and r.optional("ALL"):
        return Spy("COUNTER ALL", None)
    return Spy(mission, r.state())


def _hide(r: _Reader) -> Order:
    if r.optional("CITIES"):
        level = r.number("3 or 5", most=5)
        if level not in (3, 5):
            r.pos -= 1
            raise r.fail("hidden strength rises by 3 or by 5", ("3", "5"))
        return HideCities(level)
    count = r.count()
    r.unit("INFANTRY")
    r.word("AT")
    return HideUnits(count, r.territory())


def _morale(r: _Reader) -> Order:
    level = r.number("a morale level", most=3)
    if level not in (1, 2, 3):
        r.pos -= 1
        raise r.fail("morale levels are 1, 2 and 3", ("1", "2", "3"))
    return Morale(level)


def _at_order(make: Callable[[int, str, str], Order], *units: str) -> Callable[[_Reader], Order]:
    def parse(r: _Reader) -> Order:
        count, unit = r.count(), r.unit(*units)
        r.word("AT")
        return make(count, unit, r.territory())
    return parse


def _diplomacy(kind: str, joiner: str | None) -> Callable[[_Reader], Order]:
    def parse(r: _Reader) -> Order:
        if kind == "END TRADE":
            r.word("TRADE")
        if joiner:
            r.word(joiner)
        return Diplomacy(kind, r.state())
    return parse


def _give(r: _Reader) -> Order:
    amount = r.number("an amount of gold", most=C.MAX_GOLD)
    r.word("TO")
    return Give(amount, r.state())


def _attack(r: _Reader) -> Order:
    r.word("PRIVATEERS")
    r.word("AT")
    return AttackPrivateers(r.territory())


def _expect(r: _Reader) -> Order:
    amount = r.number("an amount of gold", most=C.MAX_GOLD)
    r.word("FROM")
    return Expect(amount, r.state())


PARSERS: dict[str, Callable[[_Reader], Order]] = {
    "BUY": _buy,
    "FORT": lambda r: Improve("FORT", r.territory()),
    "SHIPYARD": lambda r: Improve("SHIPYARD", r.territory()),
    "GASVENT": lambda r: Improve("GASVENT", r.territory()),
    "MOVE": _move,
    "BOMBARD": _path_order(lambda n, u, a, b: Bombard(n, a, b), "TRIREME"),
    "LOAD": _path_order(Load, "INFANTRY", "CAVALRY"),
    "UNLOAD": _path_order(Unload, "INFANTRY", "CAVALRY"),
    "DROP": _path_order(lambda n, u, a, b: Drop(n, a, b), "INFANTRY"),
    "REBASE": _path_order(lambda n, u, a, b: Rebase(n, a, b), "AIRSHIP"),
    "MORALE": _morale,
    "SPY": _spy,
    "HIDE": _hide,
    "GIVE": _give,
    "EXPECT": _expect,
    "WAR": _diplomacy("WAR", "ON"),
    "PEACE": _diplomacy("PEACE", "WITH"),
    "TRADE": _diplomacy("TRADE", "WITH"),
    "END": _diplomacy("END TRADE", "WITH"),
    "SPARE": _diplomacy("SPARE", None),
    "HUNT": _diplomacy("HUNT", None),
    "PRIVATEER": _at_order(lambda n, u, at: Privateer(n, at), "TRIREME"),
    "ATTACK": _attack,
    "RAZE": lambda r: Raze(r.territory()),
    "DISBAND": _at_order(Disband),
}


def parse_order(text: str, board: Board) -> Order | ParseError:
    """The order written in ``text``, or a ParseError naming the word that went wrong."""
    if not isinstance(text, str) or not text.strip():
        return ParseError("empty order", None, VERBS)
    reader = _Reader(text, board)
    first = reader.peek()
    verb = first.upper() if first is not None else ""
    if verb not in PARSERS:
        return ParseError(f"unknown order {first!r}", first, VERBS)
    reader.pos += 1
    try:
        order = PARSERS[verb](reader)
        reader.end()
    except _Fail as failure:
        return failure.error
    return order
