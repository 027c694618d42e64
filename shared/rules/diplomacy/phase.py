"""Phase names: ``S1901M`` (spring movement), ``F1901R`` (fall retreats), ``W1901A`` (winter adjustments)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Season(StrEnum):
    SPRING = "S"
    FALL = "F"
    WINTER = "W"


class PhaseType(StrEnum):
    MOVEMENT = "M"
    RETREATS = "R"
    ADJUSTMENTS = "A"


_PHASE_RE = re.compile(r"^([SFW])(\d{4})([MRA])$")


@dataclass(frozen=True, slots=True)
class Phase:
    year: int
    season: Season
    type: PhaseType

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Parse ``S1901M``; raises ValueError on anything else (callers at the edge catch it)."""
        match = _PHASE_RE.match(text.strip().upper()) if isinstance(text, str) else None
        if not match:
            raise ValueError(f"not a phase name: {text!r} (expected like S1901M, F1901R, W1901A)")
        season, year, kind = match.groups()
        phase = cls(int(year), Season(season), PhaseType(kind))
        if (phase.season is Season.WINTER) != (phase.type is PhaseType.ADJUSTMENTS):
            raise ValueError(f"not a phase name: {text!r} (winter phases are adjustments, W....A)")
        return phase

    def __str__(self) -> str:
        return f"{self.season.value}{self.year}{self.type.value}"

    def following(self) -> Phase:
        """The phase that comes next when none is skipped."""
        if self.type is PhaseType.MOVEMENT:
            return Phase(self.year, self.season, PhaseType.RETREATS)
        if self.season is Season.SPRING:
            return Phase(self.year, Season.FALL, PhaseType.MOVEMENT)
        if self.season is Season.FALL:
            return Phase(self.year, Season.WINTER, PhaseType.ADJUSTMENTS)
        return Phase(self.year + 1, Season.SPRING, PhaseType.MOVEMENT)
