"""Ekonia orders as frozen values, each with its canonical text.

Unit orders name a group by count and type at a place (``MOVE 3 INFANTRY anesia -> vieren``);
the engine picks the group's units itself, oldest first, so players never handle unit ids.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Buy:
    count: int
    unit: str
    at: str
    launch_to: str | None = None  # ships: a sea tile to launch into instead of storing

    def text(self) -> str:
        launch = f" -> {self.launch_to}" if self.launch_to else ""
        return f"BUY {self.count} {self.unit} AT {self.at}{launch}"


@dataclass(frozen=True, slots=True)
class Improve:
    kind: str  # FORT, SHIPYARD, GASVENT
    at: str

    def text(self) -> str:
        return f"{self.kind} {self.at}"


@dataclass(frozen=True, slots=True)
class Move:
    count: int
    unit: str
    path: tuple[str, ...]  # origin first, destination last

    @property
    def origin(self) -> str:
        return self.path[0]

    @property
    def target(self) -> str:
        return self.path[-1]

    def text(self) -> str:
        return f"MOVE {self.count} {self.unit} " + " -> ".join(self.path)


@dataclass(frozen=True, slots=True)
class Bombard:
    count: int
    origin: str
    target: str

    def text(self) -> str:
        return f"BOMBARD {self.count} TRIREME {self.origin} -> {self.target}"


@dataclass(frozen=True, slots=True)
class Load:
    count: int
    unit: str
    origin: str
    sea: str

    def text(self) -> str:
        return f"LOAD {self.count} {self.unit} {self.origin} -> {self.sea}"


@dataclass(frozen=True, slots=True)
class Unload:
    count: int
    unit: str
    sea: str
    target: str

    def text(self) -> str:
        return f"UNLOAD {self.count} {self.unit} {self.sea} -> {self.target}"


@dataclass(frozen=True, slots=True)
class Drop:
    count: int
    base: str
    target: str

    def text(self) -> str:
        return f"DROP {self.count} INFANTRY {self.base} -> {self.target}"


@dataclass(frozen=True, slots=True)
class Rebase:
    count: int
    base: str
    target: str

    def text(self) -> str:
        return f"REBASE {self.count} AIRSHIP {self.base} -> {self.target}"


@dataclass(frozen=True, slots=True)
class Morale:
    level: int

    def text(self) -> str:
        return f"MORALE {self.level}"


@dataclass(frozen=True, slots=True)
class Spy:
    mission: str  # INVESTIGATE, INVESTIGATE FLEET, MAP, RECORDS, COUNTER, COUNTER ALL
    target: str | None  # a territory, a state, or None for COUNTER ALL

    def text(self) -> str:
        return f"SPY {self.mission}" + (f" {self.target}" if self.target else "")


@dataclass(frozen=True, slots=True)
class HideCities:
    level: int

    def text(self) -> str:
        return f"HIDE CITIES {self.level}"


@dataclass(frozen=True, slots=True)
class HideUnits:
    count: int
    at: str

    def text(self) -> str:
        return f"HIDE {self.count} INFANTRY AT {self.at}"


@dataclass(frozen=True, slots=True)
class Give:
    amount: int
    to: str

    def text(self) -> str:
        return f"GIVE {self.amount} TO {self.to}"


@dataclass(frozen=True, slots=True)
class Expect:
    amount: int
    source: str

    def text(self) -> str:
        return f"EXPECT {self.amount} FROM {self.source}"


DIPLOMACY_FORMS = {"WAR": "WAR ON", "PEACE": "PEACE WITH", "TRADE": "TRADE WITH",
                   "END TRADE": "END TRADE WITH", "SPARE": "SPARE", "HUNT": "HUNT"}


@dataclass(frozen=True, slots=True)
class Diplomacy:
    kind: str  # WAR, PEACE, TRADE, END TRADE, SPARE, HUNT
    other: str

    def text(self) -> str:
        return f"{DIPLOMACY_FORMS[self.kind]} {self.other}"


@dataclass(frozen=True, slots=True)
class Privateer:
    count: int
    at: str

    def text(self) -> str:
        return f"PRIVATEER {self.count} TRIREME AT {self.at}"


@dataclass(frozen=True, slots=True)
class AttackPrivateers:
    """This turn, the state's ships at ``at`` fight any privateers there, war or not (R42)."""

    at: str

    def text(self) -> str:
        return f"ATTACK PRIVATEERS AT {self.at}"


@dataclass(frozen=True, slots=True)
class Raze:
    at: str

    def text(self) -> str:
        return f"RAZE {self.at}"


@dataclass(frozen=True, slots=True)
class Disband:
    count: int
    unit: str
    at: str

    def text(self) -> str:
        return f"DISBAND {self.count} {self.unit} AT {self.at}"


Order = (Buy | Improve | Move | Bombard | Load | Unload | Drop | Rebase | Morale | Spy | HideCities
         | HideUnits | Give | Expect | Diplomacy | Privateer | AttackPrivateers | Raze | Disband)

# The stages in which a state's orders take effect, whatever the order they were written in
# (docs/rules/ekonia.md R2). Morale is priced after buying and disbanding, on the units that
# will fight (R63); a load that finds no transport at its sea before the moves is tried again
# after them (LATE_LOAD, R18).
STAGE = {Diplomacy: 0, Give: 0, Expect: 0, AttackPrivateers: 0, Buy: 1, Improve: 1, Spy: 1,
         HideCities: 1, Privateer: 1, Disband: 2, Morale: 3, Load: 4, Move: 5, Rebase: 5,
         Unload: 6, Drop: 6, Bombard: 8, HideUnits: 8, Raze: 9}
LATE_LOAD = 7
