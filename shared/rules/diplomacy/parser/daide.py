"""DAIDE order tokens: ``(ENG FLT NTH) CVY (ENG AMY LON) CTO NWY``.

    order := unit "HLD" | unit "MTO" loc | unit "SUP" unit ["MTO" prov] | unit "CVY" unit "CTO" prov
           | unit "CTO" prov ["VIA" "(" prov... ")"] | unit "RTO" loc | unit ("DSB" | "BLD" | "REM")
           | power "WVE"
    unit  := "(" power ("AMY" | "FLT") loc ")"
    loc   := prov | "(" prov coast ")"         coasts NCS SCS ECS

DAIDE's province codes (ECH, GOB, GOL, ...) come from the map data; our own codes are accepted
as well. The nationality of a supported or convoyed unit is ignored (DATC 4.C.5, 4.C.6); the
sea path after VIA is read (it must name provinces) but not used: the resolver finds convoys.
"""
from __future__ import annotations

from ..orders import Build, Convoy, Hold, Order, SupportHold, SupportMove, Unit, UnitType, Waive, province_of
from ..phase import PhaseType
from .cursor import Cursor, Grammar, disband_or_remove, move_or_retreat
from .errors import Stumble
from .lexicon import DAIDE_COASTS, DAIDE_UNITS, Lexicon

_DAIDE_VERBS = ("HLD", "MTO", "SUP", "CVY", "CTO", "RTO", "DSB", "BLD", "REM")


def looks_like_daide(cursor: Cursor, lexicon: Lexicon) -> bool:
    """DAIDE orders open with a bracket, or are ``<power> WVE``."""
    first = cursor.peek_key()
    return first == "(" or (first in lexicon.daide_powers and cursor.peek_key(1) == "wve")


class DaideGrammar(Grammar):
    """Reads DAIDE order tokens: the grammar in this module's docstring."""

    def order(self) -> Order:
        cur = self.cur
        if cur.peek_key() != "(":
            self._power(check=True)
            self._expect("wve")
            return self._finish(Waive())
        unit = self._unit(check=True)
        verb = self._word(_DAIDE_VERBS, "an order token")
        if verb == "hld":
            return self._finish(Hold(unit))
        if verb in ("mto", "rto"):
            destination = self._location()
            if unit.type is UnitType.ARMY:
                destination = province_of(destination)
            phase = PhaseType.RETREATS if verb == "rto" else self.phase_type
            return self._finish(move_or_retreat(unit, destination, False, phase))
        if verb == "cto":
            destination = self._province()
            if cur.accept("via"):
                self._expect("(")
                self._province()
                while cur.peek_key() != ")" and not cur.at_end():
                    self._province()
                self._expect(")")
            return self._finish(move_or_retreat(unit, destination, True, self.phase_type))
        if verb == "sup":
            supported = self._unit(check=False)
            if cur.accept("mto"):
                return self._finish(SupportMove(unit, supported, self._province()))
            return self._finish(SupportHold(unit, supported))
        if verb == "cvy":
            army = self._unit(check=False)
            self._expect("cto")
            return self._finish(Convoy(unit, army, self._province()))
        if verb == "bld":
            return self._finish(Build(unit))
        return self._finish(disband_or_remove(unit, verb == "rem", self.phase_type))

    # --- pieces ----------------------------------------------------------------------------

    def _unit(self, check: bool) -> Unit:
        self._expect("(")
        self._power(check)
        unit_type = DAIDE_UNITS[self._word(("AMY", "FLT"), "AMY or FLT")]
        location = self._location()
        self._expect(")")
        if unit_type is UnitType.ARMY:
            location = province_of(location)
        return Unit(unit_type, location)

    def _power(self, check: bool) -> str:
        token = self.cur.peek()
        power = self.lex.daide_powers.get(token.key) if token is not None else None
        if token is None or power is None:
            expected = tuple(sorted(k.upper() for k in self.lex.daide_powers))
            raise self.cur.stumble(expected, self._unexpected("a power (AUS, ENG, FRA, ...)"))
        if check and self.power is not None and power != self.power:
            raise Stumble(
                token.text, token.offset, (self.power,),
                f"this order is written for {power}, but it is submitted for {self.power}",
            )
        self.cur.advance()
        return power

    def _location(self) -> str:
        if not self.cur.accept("("):
            return self._province()
        province = self._province()
        coast = DAIDE_COASTS[self._word(("NCS", "SCS", "ECS"), "a coast (NCS, SCS, ECS)")]
        self._expect(")")
        if coast in self.map.provinces[province].coasts:
            return f"{province}/{coast}"
        return province  # a coast the province lacks is ignored (DATC 4.B.6)

    def _province(self) -> str:
        token = self.cur.peek()
        code = self.lex.daide_provinces.get(token.key) if token is not None else None
        if code is None:
            suggestions = self.lex.suggest(self.cur.tokens, self.cur.i) if token is not None else ()
            raise self.cur.stumble(("province",), self._unexpected("a province"), suggestions)
        self.cur.advance()
        return code

    def _word(self, allowed: tuple[str, ...], wanted: str) -> str:
        token = self.cur.peek()
        if token is None or token.key not in {a.casefold() for a in allowed}:
            raise self.cur.stumble(allowed, self._unexpected(wanted))
        self.cur.advance()
        return token.key

    def _expect(self, key: str) -> None:
        if not self.cur.accept(key):
            raise self.cur.stumble((key.upper(),), self._unexpected(f"'{key.upper()}'"))

    def _finish(self, order: Order) -> Order:
        if not self.cur.at_end():
            raise self.cur.stumble(("end of order",), self._unexpected("the end of the order"))
        return order

    def _unexpected(self, wanted: str) -> str:
        token = self.cur.peek()
        if token is None:
            return f"the order stops where {wanted} should follow"
        return f"{token.text!r} is not understood here: expected {wanted}"
