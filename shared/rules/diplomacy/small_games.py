"""Games for fewer than seven players: who plays what, who sits out, the start, the goal.

Our reading of the house rules (docs/rules/standard.md, after the Avalon Hill rules), written out in
docs/rules/standard.md:

- Seven: one power each. Six: Italy sits out. Five: Italy and Germany sit out.
- Four: England; Austria and France; Germany and Turkey; Italy and Russia.
- Three: England, Germany and Austria; Russia and Italy; France and Turkey.
- Two: England, France and Russia against Austria, Germany and Turkey. The game starts in
  Spring 1914 from the usual starting position; Italy sits out 1914 and, from Spring 1915,
  is played by one side, drawn at the start from the game's stored seed
  (``draw_italy_side``) so that a replay draws the same side.
- A power that sits out is in civil disorder every phase: its units hold and give no
  support (other powers may support them), its dislodged units disband, it never builds,
  and its removals follow the civil-disorder rule.
- Victory counts a player's powers together (a *team*): 18 centres, 24 in the two-player
  game. With one power per player this is the ordinary 18-centre rule.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .phase import Phase, PhaseType, Season
from .position import Power

POWERS: tuple[Power, ...] = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


@dataclass(frozen=True)
class Join:
    """``power`` stops sitting out and is played by ``seat`` from ``phase`` on."""

    power: Power
    seat: int
    phase: Phase


@dataclass(frozen=True)
class SmallGame:
    players: int
    seats: tuple[tuple[Power, ...], ...]  # seat i plays these powers from the first phase
    sitting_out: tuple[Power, ...]  # powers nobody plays (until they join a seat)
    first_phase: Phase
    victory_centres: int
    joins: tuple[Join, ...] = ()

    def seats_at(self, phase: Phase) -> tuple[tuple[Power, ...], ...]:
        """The powers each seat plays in ``phase``."""
        seats = [list(powers) for powers in self.seats]
        for join in self.joins:
            if _not_before(phase, join.phase):
                seats[join.seat].append(join.power)
        return tuple(tuple(sorted(powers)) for powers in seats)

    def sitting_out_at(self, phase: Phase) -> frozenset[Power]:
        """Powers in permanent civil disorder in ``phase``: pass as ``civil_disorder``."""
        joined = {j.power for j in self.joins if _not_before(phase, j.phase)}
        return frozenset(self.sitting_out) - joined

    def teams_at(self, phase: Phase) -> tuple[frozenset[Power], ...]:
        """The victory teams in ``phase``: pass as ``teams`` to ``adjudicate``."""
        return tuple(frozenset(powers) for powers in self.seats_at(phase))


_SEATS: dict[int, tuple[tuple[Power, ...], ...]] = {
    7: tuple((p,) for p in POWERS),
    6: tuple((p,) for p in POWERS if p != "ITALY"),
    5: tuple((p,) for p in POWERS if p not in ("ITALY", "GERMANY")),
    4: (("ENGLAND",), ("AUSTRIA", "FRANCE"), ("GERMANY", "TURKEY"), ("ITALY", "RUSSIA")),
    3: (("AUSTRIA", "ENGLAND", "GERMANY"), ("ITALY", "RUSSIA"), ("FRANCE", "TURKEY")),
    2: (("ENGLAND", "FRANCE", "RUSSIA"), ("AUSTRIA", "GERMANY", "TURKEY")),
}


def small_game(players: int, *, italy_joins_seat: int = 0) -> SmallGame:
    """The setup for ``players`` players (2 to 7) on the standard map.

    ``italy_joins_seat`` matters only for two players: the seat (0: England, France and
    Russia; 1: Austria, Germany and Turkey) that takes Italy over in Spring 1915.
    """
    if players not in _SEATS:
        raise ValueError(f"players must be 2 to 7, not {players!r}")
    seats = _SEATS[players]
    seated = {p for powers in seats for p in powers}
    sitting_out = tuple(p for p in POWERS if p not in seated)
    if players != 2:
        return SmallGame(players, seats, sitting_out, Phase(1901, Season.SPRING, PhaseType.MOVEMENT), 18)
    if italy_joins_seat not in (0, 1):
        raise ValueError(f"italy_joins_seat must be 0 or 1, not {italy_joins_seat!r}")
    return SmallGame(
        players,
        seats,
        sitting_out,
        Phase(1914, Season.SPRING, PhaseType.MOVEMENT),
        24,
        (Join("ITALY", italy_joins_seat, Phase(1915, Season.SPRING, PhaseType.MOVEMENT)),),
    )


def draw_italy_side(seed: int) -> int:
    """The seat Italy joins in a two-player game, drawn from the game's stored seed."""
    return random.Random(f"italy-side:{seed}").randrange(2)


def _not_before(phase: Phase, start: Phase) -> bool:
    return _order_key(phase) >= _order_key(start)


def _order_key(phase: Phase) -> tuple[int, int, int]:
    seasons = {Season.SPRING: 0, Season.FALL: 1, Season.WINTER: 2}
    kinds = {PhaseType.MOVEMENT: 0, PhaseType.RETREATS: 1, PhaseType.ADJUSTMENTS: 2}
    return phase.year, seasons[phase.season], kinds[phase.type]
