"""A game's state folded from its own stream (``game-{id}``): what the services decide with.

Pure: events in, state out. The player-facing view is the visibility service's job; this state
holds token hashes and must never be returned to a caller as is.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Literal

from shared.events import (
    Event, GameCreated, GameFinished, GameSettings, GameStarted, OrdersSubmitted, PhaseResolved,
    PlayerJoined,
)

Status = Literal["forming", "active", "finished"]


@dataclass(slots=True)
class Seat:
    player_id: str
    codename: str
    token_hash: str
    power: str | None = None


@dataclass(slots=True)
class GameState:
    game_id: str
    variant: str
    name: str
    settings: GameSettings
    host_token_hash: str
    seats: list[Seat] = field(default_factory=list)
    status: Status = "forming"
    seed: int | None = None
    phase: str | None = None
    position: dict[str, Any] | None = None
    must_act: list[str] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    resolved: list[PhaseResolved] = field(default_factory=list)
    version: int = 0  # the game stream's version this state was folded from

    def seat(self, player_id: str) -> Seat | None:
        return next((s for s in self.seats if s.player_id == player_id), None)

    def power_of(self, player_id: str | None) -> str | None:
        seat = self.seat(player_id) if player_id else None
        return seat.power if seat else None

    def codenames_by_power(self) -> dict[str, str]:
        return {s.power: s.codename for s in self.seats if s.power}

    def player_hashes(self) -> dict[str, str]:
        return {s.player_id: s.token_hash for s in self.seats}

    def summary(self) -> dict[str, Any]:
        """The public summary: also the games row's ``summary`` (no tokens, no identities)."""
        return {
            "id": self.game_id,
            "name": self.name,
            "variant": self.variant,
            "status": self.status,
            "phase": self.phase,
            "settings": self.settings.model_dump(),
            "players": len(self.seats),
            "codenames": [s.codename for s in self.seats],
            "powers": {s.power: {"codename": s.codename} for s in sorted(self.seats, key=_by_power) if s.power},
            "must_act": list(self.must_act) if self.status == "active" else [],
            "winners": list(self.winners),
        }


def _by_power(seat: Seat) -> str:
    return seat.power or ""


def fold(events: Iterable[Event]) -> GameState:
    """The state after ``events`` of one game stream (the first must be GameCreated)."""
    state: GameState | None = None
    count = 0
    for event in events:
        count += 1
        if isinstance(event, GameCreated):
            state = GameState(event.game_id, event.variant, event.name, event.settings,
                              event.host_token_hash)
        elif state is None:
            raise ValueError("a game stream must start with GameCreated")
        elif isinstance(event, PlayerJoined):
            state.seats.append(Seat(event.player_id, event.codename, event.token_hash))
        elif isinstance(event, GameStarted):
            for seat in state.seats:
                seat.power = event.powers.get(seat.player_id)
            state.status, state.seed = "active", event.seed
            state.phase, state.position, state.must_act = event.phase, event.position, list(event.must_act)
        elif isinstance(event, PhaseResolved):
            state.resolved.append(event)
            state.phase, state.position = event.next_phase, event.position
            state.must_act, state.winners = list(event.must_act), list(event.winners)
        elif isinstance(event, GameFinished):
            state.status, state.winners = "finished", list(event.winners)
        elif isinstance(event, OrdersSubmitted):
            pass  # orders live in their own streams
    if state is None:
        raise ValueError("no events")
    state.version = count
    return state
