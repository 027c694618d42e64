"""The words the parser understands: verbs, unit types, coasts, and the map's names.

Fixed vocabulary (English, Danish, the short DATC letters) lives here as constants; province
and power names come from the map data (English name, other languages, aliases, codes) and are
gathered once per map into lookup tables keyed by the name's words, case-folded.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from ..geography import GameMap
from ..orders import UnitType
from .tokens import Token, tokenize


class Verb(StrEnum):
    HOLD = "hold"
    MOVE = "move"
    SUPPORT = "support"
    CONVOY = "convoy"
    RETREAT = "retreat"
    DISBAND = "disband"
    BUILD = "build"
    REMOVE = "remove"
    WAIVE = "waive"
    VIA = "via"
    DEVASTATE = "devastate"  # Dirigible variant only


DANISH_VERB_WORDS: Mapping[str, Verb] = {
    # the Danish verbs (docs/notation.md): present tense, and the imperative where it is the usual short form,
    # with the Danish letters and without them (docs/notation.md lists every one); the passive where it says
    # what the active says (the seed's "opløses"), never where it names another order ("støttes")
    "til": Verb.MOVE, "flytter": Verb.MOVE, "flyt": Verb.MOVE, "flyttes": Verb.MOVE, "angriber": Verb.MOVE,
    "angrib": Verb.MOVE,
    "holder": Verb.HOLD,
    "støtter": Verb.SUPPORT, "støt": Verb.SUPPORT, "stoetter": Verb.SUPPORT, "stoet": Verb.SUPPORT,
    "konvojerer": Verb.CONVOY, "konvojer": Verb.CONVOY,
    "trækker": Verb.RETREAT, "trækkes": Verb.RETREAT, "traekker": Verb.RETREAT, "traekkes": Verb.RETREAT,
    "opløs": Verb.DISBAND, "opløses": Verb.DISBAND, "opløser": Verb.DISBAND, "oploes": Verb.DISBAND,
    "oploeses": Verb.DISBAND,
    "byg": Verb.BUILD, "bygger": Verb.BUILD, "bygges": Verb.BUILD,
    "fjern": Verb.REMOVE, "fjerner": Verb.REMOVE, "fjernes": Verb.REMOVE,
    "hærger": Verb.DEVASTATE, "haerger": Verb.DEVASTATE,
}
"""Danish verbs. A retreat is written as the seed writes it, "trækker sig tilbage til"
("sig", "tilbage" and "til" after the verb are fillers): ``Flåde Trieste trækker sig tilbage til
Albanien``."""

VERB_WORDS: Mapping[str, Verb] = {
    # the move symbols (-, ->, =>, →, every dash and the minus sign) all tokenize to "-"
    "-": Verb.MOVE, "m": Verb.MOVE, "to": Verb.MOVE, "move": Verb.MOVE, "moves": Verb.MOVE,
    "attack": Verb.MOVE, "attacks": Verb.MOVE,
    "h": Verb.HOLD, "hold": Verb.HOLD, "holds": Verb.HOLD, "stand": Verb.HOLD, "stands": Verb.HOLD,
    "s": Verb.SUPPORT, "support": Verb.SUPPORT, "supports": Verb.SUPPORT,
    "c": Verb.CONVOY, "convoy": Verb.CONVOY, "convoys": Verb.CONVOY,
    "r": Verb.RETREAT, "retreat": Verb.RETREAT, "retreats": Verb.RETREAT,
    "d": Verb.DISBAND, "disband": Verb.DISBAND, "disbands": Verb.DISBAND,
    "b": Verb.BUILD, "build": Verb.BUILD, "builds": Verb.BUILD,
    "remove": Verb.REMOVE, "removes": Verb.REMOVE,
    "waive": Verb.WAIVE, "waives": Verb.WAIVE,
    "via": Verb.VIA,
    "devastate": Verb.DEVASTATE, "devastates": Verb.DEVASTATE, "dev": Verb.DEVASTATE,
    **DANISH_VERB_WORDS,
}
"""One word per verb. ``to`` after a move or retreat verb ("moves to") is a filler."""

RETREAT_FILLERS = ("sig", "tilbage", "back", "to", "til")
"""Words that may follow a retreat verb, in this order: "trækker sig tilbage til", "retreats to"."""

VERB_FIRST = frozenset({Verb.BUILD, Verb.REMOVE, Verb.DISBAND})
"""Verbs that may also come before the unit: ``Build A PAR``, ``Remove F LON``."""

CONVOY_NOUNS = frozenset({"convoy", "konvoj"})  # "via convoy", "by convoy", "via konvoj"
FILLER_WORDS = frozenset({"the"})
"""Words dropped wherever they stand ("Army Munich supports the Army Ruhr")."""

UNIT_WORDS: Mapping[str, UnitType] = {
    "a": UnitType.ARMY, "army": UnitType.ARMY, "armies": UnitType.ARMY, "hær": UnitType.ARMY,
    "hæren": UnitType.ARMY, "haer": UnitType.ARMY, "haeren": UnitType.ARMY, "armé": UnitType.ARMY,
    "armeen": UnitType.ARMY, "armee": UnitType.ARMY, "arme": UnitType.ARMY, "armée": UnitType.ARMY,
    "f": UnitType.FLEET, "fleet": UnitType.FLEET, "flåde": UnitType.FLEET, "flåden": UnitType.FLEET,
    "flaade": UnitType.FLEET, "flaaden": UnitType.FLEET,
}

AIR_UNIT_WORDS: Mapping[str, UnitType] = {
    "d": UnitType.DIRIGIBLE, "dirigible": UnitType.DIRIGIBLE, "dirigibles": UnitType.DIRIGIBLE,
    "luftskib": UnitType.DIRIGIBLE, "luftskibet": UnitType.DIRIGIBLE,
}
"""Unit words read only on a map whose ``unit_types`` include the dirigible: there a ``D``
before a province is the unit (``D LON - NTH``); after the unit it stays the disband verb."""


def unit_words_for(game_map: GameMap) -> Mapping[str, UnitType]:
    if UnitType.DIRIGIBLE in game_map.unit_types:
        return {**UNIT_WORDS, **AIR_UNIT_WORDS}
    return UNIT_WORDS


COAST_PHRASES: Mapping[tuple[str, ...], str] = {
    **{(w,): "NC" for w in ("nc", "ncs", "north", "nordkyst", "nordkysten")},
    **{(w,): "SC" for w in ("sc", "scs", "south", "sydkyst", "sydkysten")},
    **{(w,): "EC" for w in ("ec", "ecs", "east", "østkyst", "østkysten")},
    **{(w,): "WC" for w in ("wc", "wcs", "west", "vestkyst", "vestkysten")},
    **{(w, "coast"): c for w, c in (("north", "NC"), ("south", "SC"), ("east", "EC"), ("west", "WC"))},
    **{(w, "coast"): c for w, c in (("northern", "NC"), ("southern", "SC"), ("eastern", "EC"), ("western", "WC"))},
}
"""Coasts written after a province: ``STP/NC``, ``StP(nc)``, ``stp nc``, ``(north coast)``.
A coast the province does not have ("Spain west coast") is ignored (DATC 4.B.6)."""

SHORT_COASTS: Mapping[str, str] = {"n": "NC", "s": "SC", "e": "EC", "w": "WC"}
"""One-letter coasts, only after ``/`` or inside brackets: a bare ``S`` is the support verb."""

DAIDE_UNITS: Mapping[str, UnitType] = {"amy": UnitType.ARMY, "flt": UnitType.FLEET}
DAIDE_COASTS: Mapping[str, str] = {"ncs": "NC", "scs": "SC", "ecs": "EC", "wcs": "WC"}


def name_key(name: str) -> tuple[str, ...]:
    """The words of a name, case-folded, without punctuation: "St. Petersborg" -> ("st", "petersborg")."""
    return tuple(t.key for t in tokenize(name) if t.is_word and t.key not in FILLER_WORDS)


@dataclass(frozen=True)
class Lexicon:
    provinces: Mapping[tuple[str, ...], str]  # name words -> province code
    powers: Mapping[tuple[str, ...], str]  # name words -> power
    daide_provinces: Mapping[str, str]  # "ech" -> "ENG" (our codes are accepted too)
    daide_powers: Mapping[str, str]  # "eng" -> "ENGLAND"
    spellings: Mapping[str, str]  # every name, joined and case-folded -> province code

    def match_province(self, tokens: Sequence[Token], i: int) -> tuple[str, int] | None:
        return _longest_match(self.provinces, tokens, i)

    def match_power(self, tokens: Sequence[Token], i: int) -> tuple[str, int] | None:
        return _longest_match(self.powers, tokens, i)

    def suggest(self, tokens: Sequence[Token], i: int) -> tuple[str, ...]:
        """Province codes whose names are close to the words at ``i`` (for misspellings)."""
        words: list[str] = []
        for token in tokens[i : i + 3]:
            if not token.is_word:
                break
            words.append(token.key)
        scored: dict[str, float] = {}
        for n in range(1, len(words) + 1):
            candidate = " ".join(words[:n])
            for spelling in difflib.get_close_matches(candidate, self.spellings, n=6, cutoff=0.7):
                ratio = difflib.SequenceMatcher(None, candidate, spelling).ratio()
                code = self.spellings[spelling]
                scored[code] = max(scored.get(code, 0.0), ratio)
        return tuple(sorted(scored, key=lambda code: (-scored[code], code))[:3])


_MAX_NAME_WORDS = 4


def _longest_match(
    table: Mapping[tuple[str, ...], str], tokens: Sequence[Token], i: int
) -> tuple[str, int] | None:
    """The longest name starting at token ``i``; dashes and dots between its words are skipped
    ("Mid-Atlantic", "St. Petersborg"), but not after its last word ("A War-Gal")."""
    best: tuple[str, int] | None = None
    words: list[str] = []
    j = i
    while j < len(tokens) and len(words) < _MAX_NAME_WORDS:
        token = tokens[j]
        if token.is_word:
            words.append(token.key)
            j += 1
            code = table.get(tuple(words))
            if code is not None:
                best = (code, j)
        elif words and token.key in ("-", ".") and j + 1 < len(tokens) and tokens[j + 1].is_word:
            j += 1
        else:
            break
    return best


@lru_cache(maxsize=16)
def lexicon_for(game_map: GameMap) -> Lexicon:
    provinces: dict[tuple[str, ...], str] = {}
    spellings: dict[str, str] = {}
    daide_provinces: dict[str, str] = {}
    for code, province in game_map.provinces.items():
        names = [code, province.name, province.daide, *province.names.values(), *province.aliases]
        _add_names(provinces, names, code, "province")
        for name in names:
            spellings[" ".join(name_key(name))] = code
        daide_provinces[code.casefold()] = code
        if province.daide:
            daide_provinces[province.daide.casefold()] = code
    powers: dict[tuple[str, ...], str] = {}
    daide_powers: dict[str, str] = {}
    for power, info in game_map.power_info.items():
        names = [power, info.daide, info.adjective, *info.names.values(), *info.aliases]
        _add_names(powers, names, power, "power")
        daide_powers[info.daide.casefold()] = power
    return Lexicon(provinces, powers, daide_provinces, daide_powers, spellings)


def _add_names(table: dict[tuple[str, ...], str], names: Iterable[str], code: str, what: str) -> None:
    for name in names:
        key = name_key(name)
        if not key:
            continue
        if table.get(key, code) != code:
            raise ValueError(f"the {what} name {name!r} means both {table[key]} and {code}")
        table[key] = code
