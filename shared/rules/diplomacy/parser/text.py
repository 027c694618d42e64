"""The written notations: short (``A PAR - BUR``), English and Danish words, freely mixed.

    order    := [power ":"] ( "WAIVE" | verb-first | unit tail )
    verb-first := ("build" | "remove" | "disband") unit
    unit     := [unit-type] location
    location := province [ "/" coast | "(" coast ")" | coast-phrase ]
    tail     := hold | "-" location { "-" location } [via] | "R" location
              | "S" [nationality] unit [ "-" location | hold ] | "C" [nationality] unit "-" location
              | "D" | "B" | "remove"

Omitted unit types are inferred from the terrain (see ``_guess_type``); ``normalise_order``
later replaces them with the type of the unit really standing there (DATC 4.C.1, 4.C.2).
"""
from __future__ import annotations

from dataclasses import replace

from ..geography import GameMap
from ..orders import (
    Build,
    Convoy,
    Devastate,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
    province_of,
)
from ..phase import PhaseType
from .cursor import Cursor, Grammar, disband_or_remove, move_or_retreat
from .errors import Stumble
from .lexicon import (
    COAST_PHRASES,
    CONVOY_NOUNS,
    RETREAT_FILLERS,
    SHORT_COASTS,
    VERB_FIRST,
    VERB_WORDS,
    Lexicon,
    Verb,
    unit_words_for,
)
from .tokens import Token

_EXPECTED_VERBS = ("H", "-", "S", "C", "R", "D", "B")
ORDERS_IN_ONE_TEXT = "orders in one text"
_EXPECTED_UNIT = ("A", "F", "province")


class TextGrammar(Grammar):
    def __init__(self, cursor: Cursor, lexicon: Lexicon, game_map: GameMap,
                 phase_type: PhaseType | None, power: str | None) -> None:
        super().__init__(cursor, lexicon, game_map, phase_type, power)
        self._location_token: Token | None = None
        self.unit_words = unit_words_for(game_map)
        self.dirigibles = UnitType.DIRIGIBLE in game_map.unit_types

    # --- the order -------------------------------------------------------------------------

    def order(self) -> Order:
        self._power_prefix()
        verb = self._peek_verb()
        if verb is Verb.WAIVE:
            self.cur.advance()
            return self._finish(Waive())
        if verb in VERB_FIRST and self._unit_follows(1) and not self._dirigible_first():
            self.cur.advance()
            if verb is Verb.BUILD:
                return self._finish(self._build(*self._unit_spec()))
            unit = self._make_unit(*self._unit_spec())
            return self._finish(disband_or_remove(unit, verb is Verb.REMOVE, self.phase_type))
        written_type, location = self._unit_spec()
        verb_token = self.cur.peek()
        verb = self._peek_verb()
        if verb is None:
            raise self.cur.stumble(_EXPECTED_VERBS, self._unexpected("an order verb (H, -, S, C, R, D, B)"))
        self.cur.advance()
        if verb is Verb.BUILD:
            return self._finish(self._build(written_type, location))
        unit = self._make_unit(written_type, location)
        if verb is Verb.HOLD:
            return self._finish(Hold(unit))
        if verb is Verb.MOVE:
            self._skip_to(verb_token)
            return self._move(unit)
        if verb is Verb.RETREAT:
            for filler in RETREAT_FILLERS:  # "trækker sig tilbage til", "retreats to"
                self.cur.accept(filler)
            destination = self._destination(unit)
            return self._finish(move_or_retreat(unit, destination, False, PhaseType.RETREATS))
        if verb is Verb.SUPPORT:
            return self._support(unit)
        if verb is Verb.CONVOY:
            return self._convoy(unit)
        if verb in (Verb.DISBAND, Verb.REMOVE):
            return self._finish(disband_or_remove(unit, verb is Verb.REMOVE, self.phase_type))
        if verb is Verb.DEVASTATE and self.dirigibles:
            return self._finish(Devastate(unit))
        self.cur.i -= 1
        raise self.cur.stumble(_EXPECTED_VERBS, self._unexpected("an order verb (H, -, S, C, R, D, B)"))

    def _move(self, unit: Unit) -> Order:
        destination = self._destination(unit)
        via = False
        # a convoy path written out: "A LON - NTH - NWY" moves to NWY by convoy
        while self._peek_verb() is Verb.MOVE and self._location_follows(1):
            self.cur.advance()
            destination = self._destination(unit)
            via = True
        via = self._via() or via
        return self._finish(move_or_retreat(unit, destination, via, self.phase_type), via_allowed=True)

    def _support(self, unit: Unit) -> Order:
        self._nationality()
        written_type, location = self._unit_spec()
        supported = self._make_unit(written_type, location)
        verb = self._peek_verb()
        if verb is Verb.MOVE:
            token = self.cur.advance()
            self._skip_to(token)
            destination = self._destination(supported)  # a fleet's coast is kept (DATC 6.B.9)
            return self._finish(SupportMove(unit, supported, destination))
        if verb is Verb.HOLD:
            self.cur.advance()
        return self._finish(SupportHold(unit, supported))

    def _convoy(self, unit: Unit) -> Order:
        self._nationality()
        written_type, location = self._unit_spec()
        army = self._make_unit(written_type or UnitType.ARMY, location)
        if self._peek_verb() is not Verb.MOVE:
            raise self.cur.stumble(("-",), self._unexpected("'-' and the convoyed army's destination"))
        token = self.cur.advance()
        self._skip_to(token)
        destination = province_of(self._location())
        return self._finish(Convoy(unit, army, destination))

    def _build(self, written_type: UnitType | None, location: str) -> Build:
        """DATC 4.C.3: an omitted type builds an army inland and a fleet where a coast is given;
        a coastal province without a coast cannot tell, and the order is not understood."""
        unit_type = written_type
        if unit_type is None:
            if "/" in location or self.map.is_sea(location):
                unit_type = UnitType.FLEET
            elif self.map.is_coastal(location):
                token = self._location_token
                raise Stumble(
                    token.text if token else location, token.offset if token else 0, ("A", "F"),
                    f"a build in {location} must say army (A) or fleet (F)",
                )
            else:
                unit_type = UnitType.ARMY
        if unit_type is not UnitType.FLEET:
            location = province_of(location)
        return Build(Unit(unit_type, location))

    # --- pieces ----------------------------------------------------------------------------

    def _power_prefix(self) -> None:
        match = self.lex.match_power(self.cur.tokens, self.cur.i)
        if match is None:
            return
        power, end = match
        if end >= len(self.cur.tokens) or self.cur.tokens[end].key != ":":
            return
        token = self.cur.peek()
        assert token is not None
        if self.power is not None and power != self.power:
            raise Stumble(
                token.text, token.offset, (self.power,),
                f"this order is written for {power}, but it is submitted for {self.power}",
            )
        self.cur.i = end + 1

    def _nationality(self) -> None:
        """Skip "Turkish"/"RUSSIA" before a supported or convoyed unit (DATC 4.C.5, 4.C.6)."""
        match = self.lex.match_power(self.cur.tokens, self.cur.i)
        if match is not None and match[1] < len(self.cur.tokens):
            if self.cur.tokens[match[1]].key in self.unit_words:
                self.cur.i = match[1]

    def _unit_spec(self) -> tuple[UnitType | None, str]:
        token = self.cur.peek()
        written_type = None
        if token is not None and token.key in self.unit_words:
            written_type = self.unit_words[token.key]
            self.cur.advance()
        return written_type, self._location(expected=_EXPECTED_UNIT if written_type is None else None)

    def _make_unit(self, written_type: UnitType | None, location: str) -> Unit:
        unit_type = written_type or self._guess_type(location)
        if unit_type is not UnitType.FLEET:
            location = province_of(location)  # armies and dirigibles stand in provinces
        return Unit(unit_type, location)

    def _guess_type(self, location: str) -> UnitType:
        """An omitted type: a fleet at sea or where a coast is named, an army elsewhere."""
        if "/" in location or self.map.is_sea(location):
            return UnitType.FLEET
        return UnitType.ARMY

    def _destination(self, unit: Unit) -> str:
        location = self._location()
        return location if unit.type is UnitType.FLEET else province_of(location)

    def _location(self, expected: tuple[str, ...] | None = None) -> str:
        cur = self.cur
        match = self.lex.match_province(cur.tokens, cur.i)
        if match is None:
            suggestions = self.lex.suggest(cur.tokens, cur.i)
            what = "a province"
            if cur.at_end():
                message = f"the order stops where {what} should follow"
            else:
                token = cur.peek()
                assert token is not None
                message = f"{token.text!r} is not a province"
                if suggestions:
                    message += f" (did you mean {', '.join(suggestions)}?)"
            raise cur.stumble(expected or ("province",), message, suggestions)
        self._location_token = cur.peek()
        province, cur.i = match
        coast = self._coast()
        if coast is not None and coast in self.map.provinces[province].coasts:
            return f"{province}/{coast}"
        return province  # no coast, or one the province lacks: ignored (DATC 4.B.6)

    def _coast(self) -> str | None:
        cur = self.cur
        if cur.peek_key() == "/":
            word = cur.peek_key(1)
            coast = SHORT_COASTS.get(word or "") or COAST_PHRASES.get((word or "",))
            if coast is None:
                cur.advance()
                raise cur.stumble(("NC", "SC", "EC"), self._unexpected("a coast (NC, SC, EC)"))
            cur.i += 2
            return coast
        if cur.peek_key() == "(":
            for length in (2, 1):
                words = tuple(cur.peek_key(1 + k) or "" for k in range(length))
                coast = COAST_PHRASES.get(words) or (SHORT_COASTS.get(words[0]) if length == 1 else None)
                if coast is not None and cur.peek_key(1 + length) == ")":
                    cur.i += length + 2
                    return coast
            return None
        for length in (2, 1):
            words = tuple(cur.peek_key(k) or "" for k in range(length))
            coast = COAST_PHRASES.get(words)
            if coast is not None:
                cur.i += length
                return coast
        return None

    def _via(self) -> bool:
        """``VIA``, ``via convoy``, ``by convoy``, ``(via convoy)`` after a move."""
        cur = self.cur
        if cur.peek_key() == "via" or (cur.peek_key() == "by" and cur.peek_key(1) in CONVOY_NOUNS):
            cur.advance()
            cur.accept(*CONVOY_NOUNS)
            return True
        return False

    def _finish(self, order: Order, *, via_allowed: bool = False) -> Order:
        """Allow trailing punctuation and one bracketed remark, then demand the end."""
        cur = self.cur
        while cur.accept(".", ",", ";"):
            pass
        if cur.peek_key() == "(":
            close = next((j for j in range(cur.i, len(cur.tokens)) if cur.tokens[j].key == ")"), None)
            if close is not None:
                inside = {t.key for t in cur.tokens[cur.i + 1 : close]}
                if via_allowed and "via" in inside and isinstance(order, Move):
                    order = replace(order, via_convoy=True)
                cur.i = close + 1
                while cur.accept(".", ",", ";"):
                    pass
        if not cur.at_end():
            second = self._second_order()
            if second is not None:
                raise cur.stumble(("end of order",), second)
            raise cur.stumble(("end of order",), self._unexpected("the end of the order"))
        return order

    def _second_order(self) -> str | None:
        """The message for a text holding a second order where the first one ends, or None."""
        cur = self.cur
        rest = Cursor(cur.tokens[cur.i:], cur.text)
        how_many = "two"
        try:
            TextGrammar(rest, self.lex, self.map, self.phase_type, self.power).order()
        except Stumble as stumble:
            if ORDERS_IN_ONE_TEXT not in stumble.message:
                return None
            how_many = "several"
        start = cur.tokens[cur.i].offset
        first = cur.text[:start].strip().rstrip(",;").strip()
        return (f"{how_many} {ORDERS_IN_ONE_TEXT}: {first!r}, then {cur.text[start:].strip()!r}; "
                "send each order as a text of its own")

    # --- lookahead helpers -----------------------------------------------------------------

    def _peek_verb(self, ahead: int = 0) -> Verb | None:
        key = self.cur.peek_key(ahead)
        return VERB_WORDS.get(key) if key is not None else None

    def _skip_to(self, verb_token: Token | None) -> None:
        """"moves to", "retreats to", "flytter til": the second word is a filler."""
        if verb_token is not None and verb_token.key not in ("to", "til", "-"):
            self.cur.accept("to", "til")

    def _location_follows(self, ahead: int) -> bool:
        return self.lex.match_province(self.cur.tokens, self.cur.i + ahead) is not None

    def _dirigible_first(self) -> bool:
        """On a dirigible map a leading ``D`` before a province is the unit, not "disband"."""
        return self.dirigibles and self.cur.peek_key() == "d"

    def _unit_follows(self, ahead: int) -> bool:
        key = self.cur.peek_key(ahead)
        if key in self.unit_words:
            return self._location_follows(ahead + 1)
        return self._location_follows(ahead)

    def _unexpected(self, wanted: str) -> str:
        token = self.cur.peek()
        if token is None:
            return f"the order stops where {wanted} should follow"
        return f"{token.text!r} is not understood here: expected {wanted}"
