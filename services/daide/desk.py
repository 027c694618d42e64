"""What the DAIDE server asks of the hosted game beyond the game core: the lobby's seats and
ports and the clock, handed in by the composition root (services/cli/daide.py), since a
service never imports another (docs/architecture.md). Orders, ready flags, early resolution,
draw votes and press are the intake's, the one way in for every order (shared/game/intake.py),
which the DAIDE session calls as the HTTP API does; reads go through ``shared.game`` as every
service's do.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from shared.events import EventMetadata
from shared.game.submissions import PowerSubmission
from shared.store import EventStore


class Joined(Protocol):
    """services/lobby/service.py's ``Joined``."""

    @property
    def player_id(self) -> str: ...
    @property
    def token(self) -> str: ...


class JoinSeat(Protocol):
    """services/lobby/service.py's ``join_game``: a seat taken by name on a game's port."""

    def __call__(self, store: EventStore, game_id: str, *, metadata: EventMetadata | None = None,
                 now: datetime | None = None, account_id: str | None = None, invite_code: str | None = None,
                 daide: bool = False) -> Awaitable[Joined]: ...


class OpenPort(Protocol):
    """services/lobby/service.py's ``open_daide_port``."""

    def __call__(self, store: EventStore, game_id: str, port: int, now: datetime | None = None) -> Awaitable[Any]: ...


@dataclass(frozen=True)
class Desk:
    """The hosted game's service functions (the composition root fills them in)."""

    now: Callable[[], datetime]
    join_seat: JoinSeat | None = None  # the game ports' seats (services/daide/ports.py)
    open_port: OpenPort | None = None


def submitted_of(submissions: dict[str, PowerSubmission], power: str) -> list[str] | None:
    found = submissions.get(power)
    return None if found is None or found.orders is None else list(found.orders)
