"""The store's tables, as SQLModel classes (SQLAlchemy Core underneath): the schema's single source.

The DDL of a fresh database is written from these definitions (shared/store/schema.py), and the
migrations (shared/store/migrations/) take an older database to the same schema: a change here
needs a new revision there (docs/store.md, "Schema and migrations"). The back ends read and
write with their own SQL (shared/store/sqlite.py, shared/store/postgresql.py), storing values
as the types below do, so that SQLAlchemy (migrations, an operator's session) reads the same.
"""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, DateTime, Double, Index, Integer, String, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on both back ends.

    PostgreSQL stores timestamptz; SQLite has no time zones, so values are stored as naive UTC
    and given back their UTC zone when read. A naive value on the way in is taken as UTC.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


# JSON text on SQLite, JSONB on PostgreSQL (which cannot hold the character U+0000 in a string).
JSONDocument = JSON().with_variant(JSONB(), "postgresql")
# BIGSERIAL on PostgreSQL; on SQLite only INTEGER PRIMARY KEY is the auto-incrementing rowid.
Position = BigInteger().with_variant(Integer(), "sqlite")


class EventTable(SQLModel, table=True):
    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("stream_id", "version", name="uq_events_stream_version"),
        # a stream's events after a position (append_if_current's watched read), and prefix
        # searches (read_streams), which on PostgreSQL need the pattern operator class
        Index("ix_events_stream_position", "stream_id", "position", postgresql_ops={"stream_id": "text_pattern_ops"}),
        {"sqlite_autoincrement": True},
    )

    position: int | None = Field(default=None, sa_column=Column(Position, primary_key=True, autoincrement=True))
    stream_id: str = Field(sa_column=Column(String(), nullable=False))
    version: int = Field(sa_column=Column(Integer, nullable=False))
    type: str = Field(sa_column=Column(String(), nullable=False))
    schema_version: int = Field(sa_column=Column(Integer, nullable=False, default=1))
    data: dict[str, object] = Field(sa_column=Column(JSONDocument, nullable=False))
    # "metadata" is taken by SQLAlchemy's declarative classes: the attribute is event_metadata.
    event_metadata: dict[str, object] = Field(sa_column=Column("metadata", JSONDocument, nullable=False))
    recorded_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))


class GameTable(SQLModel, table=True):
    __tablename__ = "games"
    # the lobby's lists, the newest first (all games, or those of one status); the clock
    # workers' claim of the next due games, in the order it asks for (migration 0009)
    __table_args__ = (Index("ix_games_status_updated_at", "status", "updated_at"),
                      Index("ix_games_deadline_game", "deadline", "game_id"))

    game_id: str = Field(sa_column=Column(String(), primary_key=True))
    variant: str = Field(sa_column=Column(String(), nullable=False))
    name: str = Field(sa_column=Column(String(), nullable=False))
    status: str = Field(sa_column=Column(String(), nullable=False))
    phase: str | None = Field(default=None, sa_column=Column(String(), nullable=True))
    deadline: datetime | None = Field(default=None, sa_column=Column(UTCDateTime, nullable=True))
    summary: dict[str, object] = Field(sa_column=Column(JSONDocument, nullable=False))
    updated_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False, index=True))


class RateBucketTable(SQLModel, table=True):
    """The rate limits' token buckets every process shares (shared/store/buckets.py): outside
    the log, a row a key, kept as the moment the bucket would be full again."""

    __tablename__ = "rate_buckets"

    key: str = Field(sa_column=Column(String(), primary_key=True))
    # seconds since the epoch, by the servers' clocks: the rate limits' own arithmetic, not a
    # moment shown to anyone. Not indexed: each take updates it, and an update that changes no
    # indexed column stays on its page (PostgreSQL's HOT update); deleting the full buckets
    # once a minute reads the table whole instead
    full_at: float = Field(sa_column=Column(Double(), nullable=False))


class DaideRejoinTable(SQLModel, table=True):
    """The DAIDE seats ``IAM`` may take back, every process's (shared/store/rejoins.py; docs/bots.md,
    "Coming back: IAM"): a row a game's power, written at its HLO, holding the passcode as a
    salted hash, the address as a hash, the credential the seat was taken with, and the wrong
    passcodes counted against it and its lock. Outside the log: nothing of it is shown to anyone."""

    __tablename__ = "daide_rejoins"
    # the one port's IAM: the seats of one power played from one address
    __table_args__ = (Index("ix_daide_rejoins_address", "address_key", "power"),)

    game_id: str = Field(sa_column=Column(String(), primary_key=True))
    power: str = Field(sa_column=Column(String(), primary_key=True))
    player_id: str = Field(sa_column=Column(String(), nullable=False))
    passcode_hash: str = Field(sa_column=Column(String(), nullable=False))  # "salt$sha256 hex"
    address_key: str = Field(sa_column=Column(String(), nullable=False))
    token_hash: str = Field(sa_column=Column(String(), nullable=False))  # the Grant's (services/daide/grants.py)
    bot_token_id: str = Field(sa_column=Column(String(), nullable=False))
    grant_version: int = Field(sa_column=Column(Integer, nullable=False))
    port: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))  # None: the one port
    # seconds since the epoch, by the servers' clocks, as the rate buckets' full_at
    rejoin_until: float = Field(sa_column=Column(Double(), nullable=False))
    wrong: int = Field(sa_column=Column(Integer, nullable=False))
    locked_until: float = Field(sa_column=Column(Double(), nullable=False))


class StreamLeaseTable(SQLModel, table=True):
    """The open live streams of each seat, every process's (shared/store/leases.py;
    docs/operations.md, "Rate limits"): a row a place of a seat's cap, held by one stream of one
    process until ``expires_at``, which that process moves on while the stream is open; a
    crashed process's places come free when it passes. Outside the log, UNLOGGED on PostgreSQL."""

    __tablename__ = "stream_leases"
    # a process's leases, moved on together while its streams are open
    __table_args__ = (Index("ix_stream_leases_process", "process"),)

    viewer_key: str = Field(sa_column=Column(String(), primary_key=True))
    slot: int = Field(sa_column=Column(Integer, primary_key=True))
    process: str = Field(sa_column=Column(String(), nullable=False))  # the holding process's random id
    lease: str = Field(sa_column=Column(String(), nullable=False))  # the holding stream's random id
    # seconds since the epoch, by the servers' clocks; not indexed, as the rate buckets' full_at
    expires_at: float = Field(sa_column=Column(Double(), nullable=False))
