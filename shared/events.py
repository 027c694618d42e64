"""The event catalogue: every fact about a game, as typed pydantic models.

The store keeps dumb records (``NewEvent`` / ``RecordedEvent``); this module maps them to and
from typed events at the edge. Each event class has a ``SCHEMA_VERSION``; a record written by
an older version is passed through the class's ``upcast`` before validation, so old logs stay
readable when an event changes shape. Tokens never appear here, only their sha256 hashes.

Streams: a game's own events live in ``game-{game_id}``; orders live in
``orders-{game_id}-{phase}-{POWER}`` so that seven players never contend for one version.
"""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, field_validator

from shared.store.records import NewEvent, RecordedEvent

if TYPE_CHECKING:
    from shared.rules.variants.documents import RulesSettings


def game_stream(game_id: str) -> str:
    return f"game-{game_id}"


def orders_stream(game_id: str, phase: str, power: str) -> str:
    return f"orders-{game_id}-{phase}-{power}"


def orders_prefix(game_id: str, phase: str | None = None) -> str:
    """Prefix of all order streams of a game, or of one of its phases."""
    return f"orders-{game_id}-{phase}-" if phase else f"orders-{game_id}-"


class Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    SCHEMA_VERSION: ClassVar[int] = 1

    @classmethod
    def upcast(cls, data: dict[str, object], from_version: int) -> dict[str, object]:
        """Bring ``data`` stored at ``from_version`` to the current schema (override when it changes)."""
        return data


class GameSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    player_count: int = 7
    edition: Literal["2000", "2023"] = "2000"
    press: Literal["full", "public", "none"] = "full"  # none: gunboat; public: no private messages
    reveal_identities: bool = False  # identities shown to everyone once the game has ended
    # the clocks (docs/hosting.md): minutes per movement phase, per retreat or build phase
    movement_minutes: int = 24 * 60
    retreat_minutes: int = 6 * 60
    require_ready: bool = False  # early resolution also waits for every power's ready flag
    public_votes: bool = False  # draw votes shown to everyone (secret by default)
    max_pause_minutes: int = 3 * 24 * 60  # a pause resumes by itself after at most this long
    # the host may resolve the current phase at once (POST /games/{id}/resolve); switch it off
    # where the host also plays among strangers: the clock and early resolution still run
    host_may_resolve: bool = True
    # variants that end by the calendar (Tale of Ekonia): the last turn played; None: no limit
    max_turns: int | None = None
    # house bots (docs/bots.md): their strength (None: no house bot), whether they take the
    # seats nobody joined by the start, and after how many missed phases in a row one plays a
    # power in civil disorder until its player orders again (None: never)
    house_bot: Literal["holding", "heuristic"] | None = None
    bots_may_join: bool = False  # an account's API key (a bot) may take a seat (docs/social.md)
    bots_fill_empty_seats: bool = False
    bot_after_missed_phases: int | None = None
    # a private game (docs/hosting.md, "Private games"): left out of the lobby's list, joined
    # only with the invite code its creation answered (GameCreated keeps the code's hash)
    private: bool = False
    # standard games: the DAIDE server gives the game a port of its own, where an unmodified
    # DAIDE bot takes the next free seat by NME (docs/bots.md, "A port per game")
    daide_open: bool = False
    # the game's end (docs/hosting.md, "Victory and draws"): a draw of some surviving powers
    # (every surviving seat voting for the same powers), and conceding to one power's victory
    partial_draws: bool = False
    concessions: bool = False

    def for_rules(self) -> RulesSettings:
        """What the rules read of these settings (``Variant.opening``, ``resolve``,
        ``check_settings``): the rest are the platform's."""
        return {"player_count": self.player_count, "edition": self.edition, "max_turns": self.max_turns}


class GameCreated(Event):
    type: Literal["GameCreated"] = "GameCreated"
    game_id: str
    variant: str
    name: str
    settings: GameSettings
    host_token_hash: str
    invite_code_hash: str = ""  # a private game's invite code, hashed like a token ("": none)


class PlayerJoined(Event):
    type: Literal["PlayerJoined"] = "PlayerJoined"
    player_id: str
    codename: str
    token_hash: str  # empty for a house bot's seat: no token is ever its
    house_bot: bool = False  # a seat nobody joined, taken by the house bot at the start
    daide: bool = False  # taken by a DAIDE bot on the game's own port (docs/bots.md)


class SeatRemoved(Event):
    """The host (or the operator) freed a seat before the start (docs/hosting.md, "Removing a
    seat"): its token plays nothing any more, and another player may take the place."""

    type: Literal["SeatRemoved"] = "SeatRemoved"
    player_id: str
    codename: str


class PowerJoin(BaseModel):
    """A power nobody played so far that ``player_id``'s seat takes over from ``phase`` on."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    power: str
    player_id: str
    phase: str


class GameStarted(Event):
    """Version 2: each player holds a list of powers (a seat); version 1 held one power."""

    SCHEMA_VERSION: ClassVar[int] = 2
    type: Literal["GameStarted"] = "GameStarted"
    seed: int
    powers: dict[str, list[str]]  # player_id -> the powers of their seat
    phase: str
    position: dict[str, object]  # the engine's position document
    must_act: list[str]
    joins: list[PowerJoin] = []  # the two-player game: Italy joins a seat in 1915

    @field_validator("powers", mode="before")
    @classmethod
    def _one_power_is_a_seat(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {player: [power] if isinstance(power, str) else power for player, power in value.items()}
        return value

    @classmethod
    def upcast(cls, data: dict[str, object], from_version: int) -> dict[str, object]:
        powers = data.get("powers")
        if from_version < 2 and isinstance(powers, dict):  # version 1: one power a player
            data = {**data, "powers": {player: [power] for player, power in powers.items()}}
        return data


class OrdersSubmitted(Event):
    """A power's orders for a phase, all of them as they now stand; the latest one in its
    stream counts."""

    type: Literal["OrdersSubmitted"] = "OrdersSubmitted"
    phase: str
    power: str
    player_id: str | None
    orders: list[str]  # canonical short notation
    # a whole set (PUT) with nothing refused says the power is done; orders changed one at a
    # time (PATCH), or a set with a refused line, do not (docs/hosting.md, "Early resolution");
    # events written before the field were whole sets
    complete: bool = True
    house_bot: bool = False  # given by the house bot for the power (docs/bots.md)


class AdjudicatedOrder(BaseModel):
    """One order as resolved. Standard and dirigible: succeeds, fails, void; Tale of Ekonia
    (its orders are not moves that succeed or fail against others): ok, failed, invalid."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    order: str
    result: Literal["succeeds", "fails", "void", "ok", "failed", "invalid"]
    reason: str = ""


class DislodgedRecord(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    power: str
    unit: str
    attacker_from: str
    retreats: list[str]


class PhaseResolved(Event):
    """Everything needed to rebuild the position without the engine, and to re-check it with it."""

    type: Literal["PhaseResolved"] = "PhaseResolved"
    phase: str
    position_before: dict[str, object]
    orders: dict[str, list[AdjudicatedOrder]]  # POWER -> orders as adjudicated, submission order
    dislodged: list[DislodgedRecord]
    position: dict[str, object]  # the position at next_phase, as the engine's document
    next_phase: str
    must_act: list[str]
    winners: list[str] = []
    edition: str = "2000"
    engine_version: str
    civil_disorder: list[str] = []  # powers whose orders were ignored (missed deadline, sitting out)
    house_bot: list[str] = []  # powers whose orders the house bot gave (docs/bots.md)
    details: dict[str, object] = {}  # variant-specific facts (dice rolls, devastations, ...)


class GameFinished(Event):
    type: Literal["GameFinished"] = "GameFinished"
    reason: Literal["victory", "draw", "abandoned"]
    winners: list[str] = []
    phase: str
    drawn: list[str] = []  # a draw: the surviving powers that share it
    conceded: bool = False  # a victory the other surviving seats conceded (docs/hosting.md)
    # abandoned: the surviving powers, every one of them in civil disorder
    in_disorder: list[str] = []


# ----------------------------------------------------------------------------- the clock

class DeadlineSet(Event):
    """A phase began (the game started, or a phase was resolved): its deadline."""

    type: Literal["DeadlineSet"] = "DeadlineSet"
    phase: str
    deadline: datetime
    minutes: int  # the phase's clock length


class DeadlineExtended(Event):
    type: Literal["DeadlineExtended"] = "DeadlineExtended"
    phase: str
    minutes: int
    deadline: datetime  # the new deadline
    by: Literal["host", "operator"]


class GamePaused(Event):
    """The clock stops; it starts again by itself at ``until`` unless resumed earlier."""

    type: Literal["GamePaused"] = "GamePaused"
    phase: str
    until: datetime
    remaining_seconds: float  # time that was left before the deadline
    by: Literal["host", "operator"]


class GameResumed(Event):
    type: Literal["GameResumed"] = "GameResumed"
    phase: str
    deadline: datetime
    by: Literal["host", "operator", "clock"]


# ----------------------------------------------------------------------------- readiness and draws

class ReadySet(Event):
    """A power marks its submission for ``phase`` final (or not); lives in its order stream.
    A later OrdersSubmitted in the stream clears it."""

    type: Literal["ReadySet"] = "ReadySet"
    phase: str
    power: str
    ready: bool


class DrawVoted(Event):
    """A seat votes for a draw (``vote``) or withdraws its vote; secret unless public_votes."""

    type: Literal["DrawVoted"] = "DrawVoted"
    player_id: str
    powers: list[str]
    vote: bool
    phase: str
    # a partial draw's powers (games with partial_draws; docs/hosting.md, "Victory and draws");
    # None: the draw of every surviving power
    drawn: list[str] | None = None


class ConcessionVoted(Event):
    """A seat concedes the game to one power (``to``) or withdraws its concession (None), in
    games with ``concessions``; secret unless public_votes, as a draw vote."""

    type: Literal["ConcessionVoted"] = "ConcessionVoted"
    player_id: str
    powers: list[str]
    to: str | None
    phase: str


EVENT_CLASSES: dict[str, type[Event]] = {}


def register_event(cls: type[Event]) -> type[Event]:
    """Add an event class to the catalogue (a decorator). Events of one area of the product may
    live in their own module; ``CATALOGUE_MODULES`` below names each such module, so importing
    this module always loads the whole catalogue."""
    name = cls.model_fields["type"].default
    if EVENT_CLASSES.get(name, cls) is not cls:
        raise TypeError(f"two event classes are called {name!r}")
    EVENT_CLASSES[name] = cls
    return cls


for _cls in (GameCreated, PlayerJoined, SeatRemoved, GameStarted, OrdersSubmitted, PhaseResolved, GameFinished,
             DeadlineSet, DeadlineExtended, GamePaused, GameResumed, ReadySet, DrawVoted, ConcessionVoted):
    register_event(_cls)

# Modules that define further events with @register_event (imported at the end of this module).
CATALOGUE_MODULES: tuple[str, ...] = ("shared.events_social", "shared.events_tickets", "shared.events_limits",
                                      "shared.events_daide")


class UnknownEvent(ValueError):
    pass


class EventMetadata(TypedDict, total=False):
    """Who wrote an event and why, stored beside it (``NewEvent.metadata``: the store keeps it
    as JSON and never reads it; the operator's log shows it, docs/store.md)."""

    actor: str  # player, host, account, operator, clock, house_bot, daide
    player_id: str | None  # the player whose request it was (a DAIDE session before NME: None)
    request_id: str  # the request's X-Request-ID (shared/http/dependencies.py)
    reason: str  # the clock's: deadline, early; the operator's: mila import
    via: str  # daide, entente api-key


def to_new_event(event: Event, metadata: EventMetadata | None = None) -> NewEvent:
    data = event.model_dump(mode="json", exclude={"type"})
    return NewEvent(type=event.type, data=data, schema_version=event.SCHEMA_VERSION,  # type: ignore[attr-defined]  # each event class declares its type
                    metadata=dict(metadata or {}))


def from_recorded(record: RecordedEvent) -> Event:
    """The typed event of a stored record, upcast from older schema versions."""
    cls = EVENT_CLASSES.get(record.type)
    if cls is None:
        raise UnknownEvent(f"unknown event type {record.type!r} at position {record.position}")
    data = dict(record.data)
    if record.schema_version < cls.SCHEMA_VERSION:
        data = cls.upcast(data, record.schema_version)
    return cls.model_validate({**data, "type": record.type})


def _load_catalogue() -> None:
    import importlib

    for module in CATALOGUE_MODULES:
        importlib.import_module(module)


_load_catalogue()
