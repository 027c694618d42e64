"""The notifications' tables (services/notifications), created with the store's schema.

``notification_outbox``: one row per notification owed to one player's webhook, written by the
notifications projection in the same transaction as its position in ``projection_positions``
(so a notification is planned exactly once however often the projection runs or crashes);
rows are delivered, retried with backoff, and finally dead-lettered by the delivery worker.

``webhook_secrets``: the secret each webhook's deliveries are signed with (docs/social.md,
"Signed deliveries"), by game and recipient (a seat's player id, or ``#channel``), written with
the event that sets the webhook and deleted with the one that removes it. It lives here, not in
the log, so that no export, replay or operator's read of a game's events ever holds it.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Column, Index, Integer, String, Text
from sqlmodel import Field, SQLModel

from shared.store.tables import JSONDocument, Position, UTCDateTime


class NotificationTable(SQLModel, table=True):
    __tablename__ = "notification_outbox"
    __table_args__ = (
        Index("ix_notification_outbox_due", "status", "next_attempt_at"),
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, sa_column=Column(Position, primary_key=True, autoincrement=True))
    dedupe_key: str = Field(sa_column=Column(String(), nullable=False, unique=True))
    game_id: str = Field(sa_column=Column(String(), nullable=False, index=True))
    player_id: str = Field(sa_column=Column(String(), nullable=False))
    kind: str = Field(sa_column=Column(String(), nullable=False))
    phase: str | None = Field(default=None, sa_column=Column(String(), nullable=True))
    url: str = Field(sa_column=Column(Text(), nullable=False))
    payload: dict[str, object] = Field(sa_column=Column(JSONDocument, nullable=False))
    status: str = Field(sa_column=Column(String(), nullable=False))  # pending, delivered, dead, cancelled
    attempts: int = Field(sa_column=Column(Integer, nullable=False, default=0))
    next_attempt_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
    last_error: str | None = Field(default=None, sa_column=Column(Text(), nullable=True))
    source_position: int = Field(sa_column=Column(BigInteger, nullable=False))
    created_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
    delivered_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime, nullable=True))


class ProjectionPositionTable(SQLModel, table=True):
    """How far a tracking projection has read the log (its output commits with it)."""

    __tablename__ = "projection_positions"

    name: str = Field(sa_column=Column(String(), primary_key=True))
    position: int = Field(sa_column=Column(BigInteger, nullable=False))


class WebhookSecretTable(SQLModel, table=True):
    """The signing secret of a game's webhook for one recipient (the current one only)."""

    __tablename__ = "webhook_secrets"

    game_id: str = Field(sa_column=Column(String(), primary_key=True))
    recipient: str = Field(sa_column=Column(String(), primary_key=True))
    secret: str = Field(sa_column=Column(Text(), nullable=False))
    set_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
