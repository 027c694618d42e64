"""A game's state folded from its own stream (``game-{id}``): what the services decide with.

Pure: events in, state out. The player-facing view is the visibility service's job; this state
holds token hashes and must never be returned to a caller as is.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any, Literal, NotRequired, TypedDict

from shared.events import (
    ConcessionVoted,
    DeadlineExtended,
    DeadlineSet,
    DrawVoted,
    Event,
    GameCreated,
    GameFinished,
    GamePaused,
    GameResumed,
    GameSettings,
    GameStarted,
    PhaseResolved,
    PlayerJoined,
    PowerJoin,
    SeatRemoved,
)
from shared.events_daide import DaidePortOpened
from shared.rules.variants import get_variant

Status = Literal["forming", "active", "finished"]


# --- the public summary's JSON (``GameState.summary``: the games row's ``summary``, the lobby's
# answers through shared/http/summary.py's models, the view's parts) ---------------------------


class PowerSeatJSON(TypedDict):
    codename: str
    house_bot: bool
    daide: bool
    house_bot_since: str | None
    missed: int
    civil_disorder: bool


class ClockJSON(TypedDict):
    deadline: str | None  # ISO 8601
    paused_until: str | None
    phase_minutes: int
    extended_minutes: int


class ResultJSON(TypedDict):
    reason: str | None
    winners: list[str]
    drawn: list[str]


class BallotsJSON(TypedDict, total=False):
    """Every seat's vote by power, in games with public votes (``public_ballots``)."""

    votes: dict[str, bool]
    proposals: dict[str, list[str]]  # with partial_draws
    concessions: dict[str, str]  # with concessions


class DrawJSON(BallotsJSON):
    passed: bool


class GameSummaryJSON(TypedDict):
    id: str
    name: str
    variant: str
    status: Status
    phase: str | None
    settings: dict[str, object]  # GameSettings.model_dump(): the pydantic model's own JSON
    players: int
    codenames: list[str]
    powers: dict[str, PowerSeatJSON]
    must_act: list[str]
    winners: list[str]
    clock: ClockJSON
    civil_disorder: list[str]
    draw: DrawJSON
    result: ResultJSON | None
    daide_port: int | None
    daide_seats: list[str]


class OwnBallotJSON(TypedDict):
    """A seat's own vote (``draws.own_ballot``)."""

    your_vote: bool | None
    your_powers: NotRequired[list[str]]
    your_concession: NotRequired[str]


@dataclass(frozen=True, slots=True)
class Seat:
    player_id: str
    codename: str
    token_hash: str
    powers: list[str] = field(default_factory=list)  # several in the games for fewer than seven
    house_bot: bool = False  # a seat nobody joined, played by the house bot (docs/bots.md)
    daide: bool = False  # a seat a DAIDE bot took on the game's own port (docs/bots.md)

    @property
    def power(self) -> str | None:
        """The seat's first power (the only one in a seven-player game)."""
        return self.powers[0] if self.powers else None


@dataclass(frozen=True, slots=True)
class GameState:
    """Frozen, and shared: the repository hands one state to every request that reads the game
    at its version, so nobody changes one. The fold makes a new state for each event
    (``dataclasses.replace``), sharing what the event leaves as it was; its lists, sets and
    dicts are never changed in place either (docs/architecture.md, "A PUT, step by step")."""

    game_id: str
    variant: str
    name: str
    settings: GameSettings
    host_token_hash: str
    seats: list[Seat] = field(default_factory=list)
    status: Status = "forming"
    seed: int | None = None
    phase: str | None = None
    position: dict[str, object] | None = None
    must_act: list[str] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    resolved: list[PhaseResolved] = field(default_factory=list)
    # resolved phases before ``resolved[0]``, left out of this state: the cache keeps only the
    # latest phases (shared/game/repository.py, ``full_state`` folds them all again)
    earlier_resolved: int = 0
    # every resolved phase's name and the version of its PhaseResolved event, those left out of
    # ``resolved`` too: past views read a phase by its version (shared/game/phases.py)
    resolved_index: list[tuple[str, int]] = field(default_factory=list)
    version: int = 0  # the game stream's version this state was folded from
    # the version of the latest event anyone but its author can tell apart: a secret draw vote
    # moves ``version`` on but not this, so what is kept for other viewers under it (pictures)
    # stays valid and answers as fast as before (docs/hosting.md, "Secret votes stay secret")
    shown_version: int = 0
    # the clock of the current phase
    deadline: datetime | None = None  # None while paused or once finished
    phase_minutes: int = 0
    extended_minutes: int = 0  # added by the host to this phase so far
    paused_until: datetime | None = None
    paused_remaining: float = 0.0  # seconds that were left when the clock stopped
    paused_this_phase: bool = False
    joins: list[PowerJoin] = field(default_factory=list)
    disorder: set[str] = field(default_factory=set)  # powers that missed the last phase they had to act in
    # phases in a row each power's player missed (civil disorder, or the house bot ordering for it)
    missed: dict[str, int] = field(default_factory=dict)
    # the phase from which the house bot plays a power its player left (missed phases), while it does
    bot_since: dict[str, str] = field(default_factory=dict)
    draw_votes: dict[str, bool] = field(default_factory=dict)  # player_id -> vote
    # player_id -> the powers of the partial draw the seat votes for (absent: every survivor)
    draw_sets: dict[str, tuple[str, ...]] = field(default_factory=dict)
    concessions: dict[str, str] = field(default_factory=dict)  # player_id -> the power it concedes to
    finish_reason: str | None = None
    drawn: list[str] = field(default_factory=list)
    invite_code_hash: str = ""  # a private game's (docs/hosting.md, "Private games")
    daide_port: int | None = None  # the game's own DAIDE port once the server opened one (docs/bots.md)

    @property
    def resolved_count(self) -> int:
        """How many phases the game has resolved (those left out of this state too)."""
        return self.earlier_resolved + len(self.resolved)

    def seat(self, player_id: str | None) -> Seat | None:
        return next((s for s in self.seats if s.player_id == player_id), None)

    def powers_of(self, player_id: str | None) -> list[str]:
        seat = self.seat(player_id)
        return list(seat.powers) if seat else []

    def surviving_powers(self) -> set[str]:
        """Powers still in the game (the variant says: a standard power holds a unit or a centre)."""
        if self.position is None:
            return set()
        return set(get_variant(self.variant).surviving(self.position))

    def played_powers(self) -> list[str]:
        """Powers some seat plays now (the others sit out)."""
        return sorted(p for s in self.seats for p in s.powers)

    def house_bot_powers(self) -> set[str]:
        """The powers the house bot plays now: those of seats nobody joined, and those whose
        player missed ``bot_after_missed_phases`` phases in a row (until they order again)."""
        if self.settings.house_bot is None:
            return set()
        bots = {p for s in self.seats if s.house_bot for p in s.powers}
        after = self.settings.bot_after_missed_phases
        if after is not None:
            bots |= {p for p, missed in self.missed.items() if missed >= after}
        return bots

    def codenames_by_power(self) -> dict[str, str]:
        return {p: s.codename for s in self.seats for p in s.powers}

    def power_seats(self) -> dict[str, PowerSeatJSON]:
        """Each played power's codename, whether the house bot plays it now and since which
        phase (its player having missed their phases; null for a seat nobody joined), the
        phases in a row its player missed, and whether it is in civil disorder (public, as any
        table shows them: docs/bots.md, "Absent players, shown")."""
        bots = self.house_bot_powers()
        daide = {p for s in self.seats if s.daide for p in s.powers}
        seat_bots = {p for s in self.seats if s.house_bot for p in s.powers}  # no player to miss anything
        return {p: {"codename": c, "house_bot": p in bots, "daide": p in daide,
                    "house_bot_since": self.bot_since.get(p) if p in bots else None,
                    "missed": 0 if p in seat_bots else self.missed.get(p, 0), "civil_disorder": p in self.disorder}
                for p, c in sorted(self.codenames_by_power().items())}

    def player_hashes(self) -> dict[str, str]:
        return {s.player_id: s.token_hash for s in self.seats}

    @property
    def paused(self) -> bool:
        return self.paused_until is not None

    def deadline_passed(self, now: datetime) -> bool:
        """Whether the current phase of a game being played is due (its clock ran out)."""
        return self.status == "active" and self.deadline is not None and now >= self.deadline

    def wake_at(self) -> datetime | None:
        """When the clock worker must look at this game: the deadline, or the end of a pause."""
        if self.status != "active":
            return None
        return self.paused_until if self.paused else self.deadline

    def summary(self) -> GameSummaryJSON:
        """The public summary: also the games row's ``summary``.

        Codenames are sorted (never in join order); no player ids, tokens or accounts.
        """
        ballots: BallotsJSON = self.public_ballots() if self.settings.public_votes else {}
        draw: DrawJSON = {"passed": self.finish_reason == "draw", **ballots}
        return {
            "id": self.game_id,
            "name": self.name,
            "variant": self.variant,
            "status": self.status,
            "phase": self.phase,
            "settings": self.settings.model_dump(),
            "players": len(self.seats),
            "codenames": sorted(s.codename for s in self.seats),
            "powers": self.power_seats(),
            "must_act": list(self.must_act) if self.status == "active" else [],
            "winners": list(self.winners),
            "clock": self.clock(),
            "civil_disorder": sorted(self.disorder) if self.status != "forming" else [],
            "draw": draw,
            "result": self.result(),
            "daide_port": self.daide_port if self.settings.daide_open and self.status != "finished" else None,
            "daide_seats": sorted(s.codename for s in self.seats if s.daide),
        }

    def public_ballots(self) -> BallotsJSON:
        """Every seat's vote by power, in games with public votes: for or against the draw, the
        partial draws voted for and the concessions (only where the settings allow them)."""
        by_power = {p: s.player_id for s in self.seats for p in s.powers}
        shown: BallotsJSON = {"votes": {p: self.draw_votes[pid] for p, pid in sorted(by_power.items())
                                           if pid in self.draw_votes}}
        if self.settings.partial_draws:
            shown["proposals"] = {p: list(self.draw_sets[pid]) for p, pid in sorted(by_power.items())
                                  if pid in self.draw_sets}
        if self.settings.concessions:
            shown["concessions"] = {p: self.concessions[pid] for p, pid in sorted(by_power.items())
                                    if pid in self.concessions}
        return shown

    def ballot(self, player_id: str | None) -> tuple[bool | None, tuple[str, ...] | None, str | None]:
        """A seat's own vote, the partial draw it votes for and the power it concedes to."""
        if player_id is None:
            return None, None, None
        return self.draw_votes.get(player_id), self.draw_sets.get(player_id), self.concessions.get(player_id)

    def clock(self) -> ClockJSON:
        return {
            "deadline": _iso(self.deadline) if self.status == "active" else None,
            "paused_until": _iso(self.paused_until) if self.status == "active" else None,
            "phase_minutes": self.phase_minutes,
            "extended_minutes": self.extended_minutes,
        }

    def result(self) -> ResultJSON | None:
        if self.status != "finished":
            return None
        return {"reason": self.finish_reason, "winners": list(self.winners), "drawn": list(self.drawn)}


def _copier() -> Callable[..., GameState]:
    """``dataclasses.replace`` for GameState, as the fold calls it for every event: the fields
    written out in one generated function, where ``replace`` walks the fields' table and then
    calls ``__init__`` with every one of them by keyword: the fold's largest cost when a worker
    folds a storm's games from their start (docs/performance.md, "A deadline storm")."""
    names = [f.name for f in fields(GameState)]
    body = "".join(f"    setter(new, {name!r}, changes.pop({name!r}) if {name!r} in changes else state.{name})\n"
                   for name in names)
    source = (f"def copied(state, **changes):\n    new = make(cls)\n{body}"
              "    if changes:\n        raise TypeError(f'GameState has no field {next(iter(changes))!r}')\n"
              "    return new\n")
    scope: dict[str, Any] = {"make": object.__new__, "setter": object.__setattr__, "cls": GameState}
    exec(source, scope)  # noqa: S102  # our own text, made of the dataclass's field names
    copied: Callable[..., GameState] = scope["copied"]
    return copied


_copied = _copier()


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _joined(variant: str, join: PowerJoin, phase: str) -> bool:
    """Whether ``phase`` is the phase a power joins its seat in, or later."""
    rules = get_variant(variant)
    return rules.phase_order(phase) >= rules.phase_order(join.phase)


# ----------------------------------------------------------------------------- the fold
#
# One handler per event type: the state after the event, a new one (``replace``) sharing every
# field the event leaves as it was. Lists, sets and dicts are replaced, never changed in place:
# the states before are shared (by the repository's caches, with every request).

def _player_joined(state: GameState, event: PlayerJoined) -> GameState:
    seat = Seat(event.player_id, event.codename, event.token_hash, house_bot=event.house_bot, daide=event.daide)
    return _copied(state, seats=[*state.seats, seat])


def _daide_port_opened(state: GameState, event: DaidePortOpened) -> GameState:
    return _copied(state, daide_port=event.port)


def _seat_removed(state: GameState, event: SeatRemoved) -> GameState:
    gone = event.player_id
    return _copied(state, seats=[s for s in state.seats if s.player_id != gone],
                   draw_votes={pid: vote for pid, vote in state.draw_votes.items() if pid != gone},
                   draw_sets={pid: drawn for pid, drawn in state.draw_sets.items() if pid != gone},
                   concessions={pid: to for pid, to in state.concessions.items() if pid != gone})


def _game_started(state: GameState, event: GameStarted) -> GameState:
    seats = [replace(seat, powers=sorted(event.powers.get(seat.player_id, []))) for seat in state.seats]
    started = _copied(state, seats=seats, joins=list(event.joins), status="active", seed=event.seed,
                      phase=event.phase, position=event.position, must_act=list(event.must_act))
    return _apply_joins(started)


def _phase_resolved(state: GameState, event: PhaseResolved) -> GameState:
    # who had to act in the resolved phase: acted (submitted) or missed (civil disorder)
    disorder, missed = set(state.disorder), dict(state.missed)
    for power in state.must_act:
        if power in event.civil_disorder:
            disorder.add(power)
        else:
            disorder.discard(power)
        missing = power in event.civil_disorder or power in event.house_bot
        missed[power] = missed.get(power, 0) + 1 if missing else 0
    resolved = _copied(state, disorder=disorder, missed=missed, bot_since=_bot_since(state, missed, event.next_phase),
                       resolved=[*state.resolved, event],
                       resolved_index=[*state.resolved_index, (event.phase, state.version)],
                       phase=event.next_phase, position=event.position, must_act=list(event.must_act),
                       winners=list(event.winners))
    return _apply_joins(resolved)


def _bot_since(state: GameState, missed: dict[str, int], next_phase: str) -> dict[str, str]:
    """The phase from which the house bot plays each power its player left: set as the bot
    takes it over (the phase after the last one missed), gone once the player orders again."""
    after = state.settings.bot_after_missed_phases
    since = {p: phase for p, phase in state.bot_since.items() if missed.get(p, 0)}
    if state.settings.house_bot is not None and after is not None:
        for power in state.must_act:
            if missed.get(power, 0) >= after:
                since.setdefault(power, next_phase)
    return since


def _deadline_set(state: GameState, event: DeadlineSet) -> GameState:
    return _copied(state, deadline=event.deadline, phase_minutes=event.minutes, extended_minutes=0,
                   paused_this_phase=False, paused_until=None, paused_remaining=0.0)


def _deadline_extended(state: GameState, event: DeadlineExtended) -> GameState:
    return _copied(state, deadline=event.deadline, extended_minutes=state.extended_minutes + event.minutes)


def _game_paused(state: GameState, event: GamePaused) -> GameState:
    return _copied(state, deadline=None, paused_until=event.until, paused_remaining=event.remaining_seconds,
                   paused_this_phase=True)


def _game_resumed(state: GameState, event: GameResumed) -> GameState:
    return _copied(state, deadline=event.deadline, paused_until=None, paused_remaining=0.0)


def _draw_voted(state: GameState, event: DrawVoted) -> GameState:
    sets = {pid: drawn for pid, drawn in state.draw_sets.items() if pid != event.player_id}
    if event.vote and event.drawn is not None:
        sets[event.player_id] = tuple(event.drawn)
    return _copied(state, draw_votes={**state.draw_votes, event.player_id: event.vote}, draw_sets=sets)


def _concession_voted(state: GameState, event: ConcessionVoted) -> GameState:
    concessions = {pid: to for pid, to in state.concessions.items() if pid != event.player_id}
    if event.to is not None:
        concessions[event.player_id] = event.to
    return _copied(state, concessions=concessions)


def _game_finished(state: GameState, event: GameFinished) -> GameState:
    return _copied(state, status="finished", winners=list(event.winners), finish_reason=event.reason,
                   drawn=list(event.drawn), deadline=None, paused_until=None)


def _apply_joins(state: GameState) -> GameState:
    """The seats with the powers they join in the current phase or before."""
    if not state.phase or not state.joins:
        return state
    seats = list(state.seats)
    for join in state.joins:
        index = next((i for i, s in enumerate(seats) if s.player_id == join.player_id), None)
        if index is None or join.power in seats[index].powers:
            continue
        if _joined(state.variant, join, state.phase):
            seats[index] = replace(seats[index], powers=sorted([*seats[index].powers, join.power]))
    return _copied(state, seats=seats) if seats != state.seats else state


_HANDLERS: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    PlayerJoined: _player_joined,
    SeatRemoved: _seat_removed,
    GameStarted: _game_started,
    PhaseResolved: _phase_resolved,
    DeadlineSet: _deadline_set,
    DeadlineExtended: _deadline_extended,
    GamePaused: _game_paused,
    GameResumed: _game_resumed,
    DrawVoted: _draw_voted,
    ConcessionVoted: _concession_voted,
    GameFinished: _game_finished,
    DaidePortOpened: _daide_port_opened,
}  # any other event of the stream only moves the version on


def _created(event: GameCreated) -> GameState:
    return GameState(event.game_id, event.variant, event.name, event.settings, event.host_token_hash,
                     version=1, shown_version=1, invite_code_hash=event.invite_code_hash)


def secret_to_others(state: GameState, event: Event) -> bool:
    """Whether ``event`` changes nothing anyone but its author may see: a draw vote or a
    concession in a game whose votes are secret (one that ends the game comes with
    GameFinished, which is seen)."""
    return isinstance(event, DrawVoted | ConcessionVoted) and not state.settings.public_votes


def _applied(state: GameState, event: Event) -> GameState:
    shown = state.shown_version if secret_to_others(state, event) else state.version + 1
    moved = _copied(state, version=state.version + 1, shown_version=shown)
    handler = _HANDLERS.get(type(event))
    return handler(moved, event) if handler is not None else moved


def fold(events: Iterable[Event], onto: GameState | None = None) -> GameState:
    """The state after ``events`` of one game stream: from its start (the first event must be
    GameCreated), or after ``onto`` (a new state: ``onto`` is frozen)."""
    state = onto
    for event in events:
        if isinstance(event, GameCreated):
            state = _created(event)
        elif state is None:
            raise ValueError("a game stream must start with GameCreated")
        else:
            state = _applied(state, event)
    if state is None:
        raise ValueError("no events")
    return state


def apply(state: GameState | None, event: Event) -> GameState:
    """A new state: ``state`` after one more event of its stream."""
    return fold([event], onto=state)
