"""What the DAIDE server asks of the hosted game: the very service functions the HTTP API calls
(order intake, ready flags, early resolution, draw votes), handed in by the composition root
(services/cli/daide.py), since a service never imports another (docs/architecture.md). Reads
go through ``shared.game`` as every service's do.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from shared.game.state import GameState
from shared.game.submissions import PowerSubmission
from shared.rules.variants import OrderCheck
from shared.store import EventStore


class Patched(Protocol):
    """services/adjudication/service.py's ``Patch``."""

    @property
    def phase(self) -> str: ...
    @property
    def checks(self) -> list[OrderCheck]: ...
    @property
    def stored(self) -> bool: ...
    @property
    def current(self) -> list[str]: ...


class Readied(Protocol):
    """services/adjudication/service.py's ``Submission`` (of a ready flag)."""

    @property
    def phase(self) -> str: ...


CompleteWhen = Callable[[GameState, str, Sequence[str]], bool]


class PatchOrdersFunction(Protocol):
    """``complete_when(state, power, orders)``: whether the orders after the patch are the
    power's whole set, judged and written in the patch's own append (docs/bots.md, "When a
    DAIDE seat is done")."""

    def __call__(self, store: EventStore, game_id: str, player_id: str, texts: Sequence[str], clear: Sequence[str],
                 phase: str | None = None, metadata: dict[str, Any] | None = None, *, power: str | None = None,
                 now: datetime | None = None, complete_when: CompleteWhen | None = None) -> Awaitable[Patched]: ...


class SetReadyFunction(Protocol):
    def __call__(self, store: EventStore, game_id: str, player_id: str, ready: bool, *, power: str | None = None,
                 phase: str | None = None, metadata: dict[str, Any] | None = None, now: datetime | None = None,
                 state: GameState | None = None) -> Awaitable[Readied]: ...


class ResolveIfCompleteFunction(Protocol):
    def __call__(self, store: EventStore, game_id: str, phase: str, now: datetime, *, state: GameState | None = None,
                 submissions: Any = None) -> Awaitable[bool]: ...


class VoteDrawFunction(Protocol):
    def __call__(self, store: EventStore, game_id: str, player_id: str, in_favour: bool, *,
                 metadata: dict[str, Any] | None = None, now: datetime | None = None) -> Awaitable[GameState]: ...


class SendPressFunction(Protocol):
    """services/press/service.py's ``send_message``."""

    def __call__(self, store: EventStore, game_id: str, player_id: str, sender: str | None,
                 to: str | Sequence[str], text: str, metadata: dict[str, Any] | None = None, *,
                 now: datetime) -> Awaitable[dict[str, Any]]: ...


class Joined(Protocol):
    """services/lobby/service.py's ``Joined``."""

    @property
    def player_id(self) -> str: ...
    @property
    def token(self) -> str: ...


class JoinSeat(Protocol):
    """services/lobby/service.py's ``join_game``: a seat taken by name on a game's port."""

    def __call__(self, store: EventStore, game_id: str, *, metadata: dict[str, Any] | None = None,
                 now: datetime | None = None, account_id: str | None = None, invite_code: str | None = None,
                 daide: bool = False) -> Awaitable[Joined]: ...


class OpenPort(Protocol):
    """services/lobby/service.py's ``open_daide_port``."""

    def __call__(self, store: EventStore, game_id: str, port: int, now: datetime | None = None) -> Awaitable[Any]: ...


@dataclass(frozen=True)
class Desk:
    """The hosted game's service functions (the composition root fills them in)."""

    patch_orders: PatchOrdersFunction
    set_ready: SetReadyFunction
    resolve_if_complete: ResolveIfCompleteFunction
    vote_draw: VoteDrawFunction
    send_press: SendPressFunction
    now: Callable[[], datetime]
    join_seat: JoinSeat | None = None  # the game ports' seats (services/daide/ports.py)
    open_port: OpenPort | None = None


def submitted_of(submissions: dict[str, PowerSubmission], power: str) -> list[str] | None:
    found = submissions.get(power)
    return None if found is None or found.orders is None else list(found.orders)
