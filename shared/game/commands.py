"""The intake's commands and outcomes (shared/game/intake.py): what a way in (HTTP, DAIDE, the
command line) hands the one service in one call, and what it gets back (docs/architecture.md,
"One way in for every order").

A command says everything the service needs to decide and write, the caller identified; an
outcome says what was stored, the game and the phase's submissions as the write left them
(so that the caller answers without reading them again), and whether the phase resolved at
once. Pure data: no store, no request.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from shared.auth import identify, require
from shared.events import EventMetadata, PhaseResolved
from shared.rules.variants import OrderCheck

from .press import MessageJSON
from .state import GameState
from .submissions import PowerSubmission

CompleteWhen = Callable[[GameState, str, Sequence[str]], bool]  # a patch's judge of a whole set


@dataclass(frozen=True, slots=True)
class Player:
    """Who writes: its player id in the game as the caller read it, and (over HTTP) its bearer
    token and the operator's token hash, so that it is identified again in a newer reading of
    the game (a seat taken or removed since)."""

    player_id: str
    token: str | None = None
    operator_hash: str = ""

    def id_in(self, state: GameState, seen: GameState | None) -> str:
        """The player id in ``state``: as given for the reading it was identified in (or
        without a token), else identified again (401 or 403 when it is no player there)."""
        if state is seen or self.token is None:
            return self.player_id
        caller = require(identify(self.token, operator_hash=self.operator_hash, host_hash=state.host_token_hash,
                                  player_hashes=state.player_hashes()), "player")
        assert caller.player_id is not None
        return caller.player_id


@dataclass(frozen=True, slots=True)
class SubmitOrdersCommand:
    """A PUT of one power's orders. ``seen``: the game as the caller read it; ``fresh``: read
    from the store for this request (else this process's last reading, perhaps behind the log:
    a refusal or a clash is then decided again from a fresh read). ``phase``: the phase meant
    (None: the current one when the request arrived, read for it)."""

    game_id: str
    player: Player
    orders: Sequence[str]
    phase: str | None = None
    power: str | None = None
    metadata: EventMetadata | None = None
    now: datetime | None = None
    seen: GameState | None = None
    fresh: bool = True


@dataclass(frozen=True, slots=True)
class PatchOrdersCommand:
    """A PATCH, or a DAIDE SUB, GOF, NOT (GOF) or NOT (SUB): orders that replace the power's
    orders about the same subjects, and subjects whose orders are removed. ``complete_when(state,
    power, orders)``: whether the orders after the change are the power's whole set (the DAIDE
    seat's go flag, docs/bots.md "When a DAIDE seat is done"), judged and written in the change's
    own append; None (a PATCH): never. ``ready``: the ready flag to set after a stored change in
    a ``require_ready`` game (a DAIDE GOF that still stands), None: left as the change leaves it.
    ``seen``: the game as the caller read it for this message (read here when not given)."""

    game_id: str
    player: Player
    orders: Sequence[str]
    clear: Sequence[str]
    phase: str | None = None
    power: str | None = None
    metadata: EventMetadata | None = None
    now: datetime | None = None
    complete_when: CompleteWhen | None = None
    ready: bool | None = None
    seen: GameState | None = None


@dataclass(frozen=True, slots=True)
class SetReady:
    """The ready flag of the power's submission set (or taken back)."""

    game_id: str
    player: Player
    ready: bool
    phase: str | None = None
    power: str | None = None
    metadata: EventMetadata | None = None
    now: datetime | None = None
    seen: GameState | None = None


@dataclass(frozen=True, slots=True)
class VoteDraw:
    """A seat's draw vote (or its withdrawal); it stands across phases."""

    game_id: str
    player: Player
    in_favour: bool
    metadata: EventMetadata | None = None
    now: datetime | None = None
    powers: Sequence[str] | None = None  # a partial draw's powers (None: every surviving power)


@dataclass(frozen=True, slots=True)
class Concede:
    """A seat's concession to one power (``to``; None: withdrawn); it stands across phases."""

    game_id: str
    player: Player
    to: str | None
    metadata: EventMetadata | None = None
    now: datetime | None = None


@dataclass(frozen=True, slots=True)
class SendPress:
    """A press message from a seat: signed by ``sender`` (one of the seat's powers; None: its
    first), to ``"all"`` or a list of powers."""

    game_id: str
    player: Player
    sender: str | None
    to: str | Sequence[str]
    text: str
    metadata: EventMetadata | None = None
    now: datetime | None = None


@dataclass(frozen=True, slots=True)
class ResolvePhase:
    """The host's or the operator's resolution of the current phase (``phase``: the one meant)."""

    game_id: str
    phase: str | None
    metadata: EventMetadata | None = None
    now: datetime | None = None


@dataclass(frozen=True, slots=True)
class Submission:
    """A stored PUT or ready flag: the phase, the power, the checks of the texts sent, the game
    as they were decided from (current when they were stored) and the phase's submissions then."""

    phase: str
    power: str
    checks: list[OrderCheck]
    state: GameState
    submissions: Mapping[str, PowerSubmission] | None = None


@dataclass(frozen=True, slots=True)
class Patch:
    """One PATCH of a power's orders: the checks of the texts sent, what is stored now, and
    whether anything was written."""

    phase: str
    power: str
    checks: list[OrderCheck]
    current: list[str]
    dropped: list[str]
    stored: bool


@dataclass(frozen=True, slots=True)
class SubmitOutcome:
    """What a write command did: what was stored, and whether the phase then resolved at once
    (early resolution: nobody was waited for any more)."""

    submission: Submission
    resolved: bool


@dataclass(frozen=True, slots=True)
class PatchOutcome:
    """What a change did; ``state`` and ``submissions``: the game it was decided from and the
    phase's submissions after it (None when nothing was written)."""

    patch: Patch
    resolved: bool = False  # a PATCH leaves the power ordering: only a judged change ends a phase early
    state: GameState | None = None
    submissions: Mapping[str, PowerSubmission] | None = None


@dataclass(frozen=True, slots=True)
class PressOutcome:
    message: MessageJSON  # the message as its sender reads it (its place among what the seat reads)
    state: GameState  # the game it was decided from


@dataclass(frozen=True, slots=True)
class VoteOutcome:
    state: GameState  # the game after the vote (finished when the draw passed)


@dataclass(frozen=True, slots=True)
class ResolveOutcome:
    event: PhaseResolved  # the phase resolved (phases that followed with nobody to act are not in it)
