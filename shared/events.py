"""The event catalogue: every fact about a game, as typed pydantic models.

The store keeps dumb records (``NewEvent`` / ``RecordedEvent``); this module maps them to and
from typed events at the edge. Each event class has a ``SCHEMA_VERSION``; a record written by
an older version is passed through the class's ``upcast`` before validation, so old logs stay
readable when an event changes shape. Tokens never appear here, only their sha256 hashes.

Streams: a game's own events live in ``game-{game_id}``; orders live in
``orders-{game_id}-{phase}-{POWER}`` so that seven players never contend for one version.
"""
from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from shared.store.records import NewEvent, RecordedEvent


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
    def upcast(cls, data: dict[str, Any], from_version: int) -> dict[str, Any]:
        """Bring ``data`` stored at ``from_version`` to the current schema (override when it changes)."""
        return data


class GameSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    player_count: int = 7
    edition: Literal["2000", "2023"] = "2000"


class GameCreated(Event):
    type: Literal["GameCreated"] = "GameCreated"
    game_id: str
    variant: str
    name: str
    settings: GameSettings
    host_token_hash: str


class PlayerJoined(Event):
    type: Literal["PlayerJoined"] = "PlayerJoined"
    player_id: str
    codename: str
    token_hash: str


class GameStarted(Event):
    type: Literal["GameStarted"] = "GameStarted"
    seed: int
    powers: dict[str, str]  # player_id -> POWER
    phase: str
    position: dict[str, Any]  # the engine's position document
    must_act: list[str]


class OrdersSubmitted(Event):
    """A power's whole set of orders for a phase; the latest one in its stream counts."""

    type: Literal["OrdersSubmitted"] = "OrdersSubmitted"
    phase: str
    power: str
    player_id: str | None
    orders: list[str]  # canonical short notation


class AdjudicatedOrder(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    order: str
    result: Literal["succeeds", "fails", "void"]
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
    position_before: dict[str, Any]
    orders: dict[str, list[AdjudicatedOrder]]  # POWER -> orders as adjudicated, submission order
    dislodged: list[DislodgedRecord]
    position: dict[str, Any]  # the position at next_phase, as the engine's document
    next_phase: str
    must_act: list[str]
    winners: list[str] = []
    edition: str = "2000"
    engine_version: str
    civil_disorder: list[str] = []  # powers whose orders were ignored (missed deadline, sitting out)
    details: dict[str, Any] = {}  # variant-specific facts (dice rolls, devastations, ...)


class GameFinished(Event):
    type: Literal["GameFinished"] = "GameFinished"
    reason: Literal["victory", "draw", "abandoned"]
    winners: list[str] = []
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


for _cls in (GameCreated, PlayerJoined, GameStarted, OrdersSubmitted, PhaseResolved, GameFinished):
    register_event(_cls)

# Modules that define further events with @register_event (imported at the end of this module).
CATALOGUE_MODULES: tuple[str, ...] = ()


class UnknownEvent(ValueError):
    pass


def to_new_event(event: Event, metadata: dict[str, Any] | None = None) -> NewEvent:
    data = event.model_dump(mode="json", exclude={"type"})
    return NewEvent(type=event.type, data=data, schema_version=event.SCHEMA_VERSION,  # type: ignore[attr-defined]
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
