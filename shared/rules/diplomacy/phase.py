"""Phase names: ``S1901M`` (spring movement), ``F1901R`` (fall retreats), ``W1901A`` (winter adjustments)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .values import Value


class Season(StrEnum):
    SPRING = "S"
    FALL = "F"
    WINTER = "W"

    __hash__ = str.__hash__  # as UnitType's (orders.py)


class PhaseType(StrEnum):
    MOVEMENT = "M"
    RETREATS = "R"
    ADJUSTMENTS = "A"

    __hash__ = str.__hash__  # as UnitType's (orders.py)


_PHASE_RE: Final = re.compile(r"^([SFW])(\d{4})([MRA])$")
_PARSED: Final[dict[str, Phase]] = {}  # text -> its phase (Phase is immutable)


@dataclass(init=False, unsafe_hash=True)
class Phase(Value):
    """An immutable value written like the orders (orders.py says why)."""

    year: Final[int]
    season: Final[Season]
    type: Final[PhaseType]

    def __init__(self, year: int, season: Season, type: PhaseType) -> None:
        self.year = year
        self.season = season
        self.type = type

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Parse ``S1901M``; raises ValueError on anything else (callers at the edge catch it)."""
        known = _PARSED.get(text) if type(text) is str else None  # phases are few: each read once
        if known is not None:
            return known
        match = _PHASE_RE.match(text.strip().upper()) if isinstance(text, str) else None
        if not match:
            raise ValueError(f"not a phase name: {text!r} (expected like S1901M, F1901R, W1901A)")
        season, year, kind = match.groups()
        phase = cls(int(year), Season(season), PhaseType(kind))
        if (phase.season is Season.WINTER) != (phase.type is PhaseType.ADJUSTMENTS):
            raise ValueError(f"not a phase name: {text!r} (winter phases are adjustments, W....A)")
        if len(_PARSED) < 10_000:  # bounded, whatever texts come
            _PARSED[text] = phase
        return phase

    def __str__(self) -> str:
        return self.season + str(self.year) + self.type  # StrEnums are their letters

    def following(self) -> Phase:
        """The phase that comes next when none is skipped."""
        if self.type is PhaseType.MOVEMENT:
            return Phase(self.year, self.season, PhaseType.RETREATS)
        if self.season is Season.SPRING:
            return Phase(self.year, Season.FALL, PhaseType.MOVEMENT)
        if self.season is Season.FALL:
            return Phase(self.year, Season.WINTER, PhaseType.ADJUSTMENTS)
        return Phase(self.year + 1, Season.SPRING, PhaseType.MOVEMENT)
