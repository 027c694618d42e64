"""The store's schema as it was before the migrations: the events, the games read model, the
notifications' outbox and the projections' positions.

Every table and index is created only where missing, so that upgrading a database made
before the migrations (the store created these tables at start-up then) stamps it at this
revision and goes on; a fresh database gets them all.

Revision ID: 0001
Revises:
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# the column types as shared/store/tables.py wrote them at this revision (frozen here: a
# revision must create what it created, whatever the definitions become later)
JSON_DOCUMENT = sa.JSON().with_variant(JSONB(), "postgresql")
POSITION = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("position", POSITION, primary_key=True, autoincrement=True),
        sa.Column("stream_id", sa.String(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("data", JSON_DOCUMENT, nullable=False),
        sa.Column("metadata", JSON_DOCUMENT, nullable=False),
        sa.Column("recorded_at", MOMENT, nullable=False),
        sa.UniqueConstraint("stream_id", "version", name="uq_events_stream_version"),
        sqlite_autoincrement=True, if_not_exists=True,
    )
    op.create_index("ix_events_stream_prefix", "events", ["stream_id"],
                    postgresql_ops={"stream_id": "text_pattern_ops"}, if_not_exists=True)
    op.create_table(
        "games",
        sa.Column("game_id", sa.String(), primary_key=True),
        sa.Column("variant", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("phase", sa.String(), nullable=True),
        sa.Column("deadline", MOMENT, nullable=True),
        sa.Column("summary", JSON_DOCUMENT, nullable=False),
        sa.Column("updated_at", MOMENT, nullable=False),
        if_not_exists=True,
    )
    op.create_index("ix_games_deadline", "games", ["deadline"], if_not_exists=True)
    op.create_index("ix_games_status", "games", ["status"], if_not_exists=True)
    op.create_table(
        "notification_outbox",
        sa.Column("id", POSITION, primary_key=True, autoincrement=True),
        sa.Column("dedupe_key", sa.String(), nullable=False, unique=True),
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("player_id", sa.String(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("phase", sa.String(), nullable=True),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("payload", JSON_DOCUMENT, nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", MOMENT, nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("source_position", sa.BigInteger(), nullable=False),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.Column("delivered_at", MOMENT, nullable=True),
        sqlite_autoincrement=True, if_not_exists=True,
    )
    op.create_index("ix_notification_outbox_due", "notification_outbox", ["status", "next_attempt_at"],
                    if_not_exists=True)
    op.create_index("ix_notification_outbox_game_id", "notification_outbox", ["game_id"], if_not_exists=True)
    op.create_table(
        "projection_positions",
        sa.Column("name", sa.String(), primary_key=True),
        sa.Column("position", sa.BigInteger(), nullable=False),
        if_not_exists=True,
    )


def downgrade() -> None:
    for table in ("projection_positions", "notification_outbox", "games", "events"):
        op.drop_table(table)
