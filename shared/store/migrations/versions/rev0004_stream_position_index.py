"""The watched read of an order submission finds each named stream's new events by one
descent of an index on (stream_id, position), whatever the phase already holds.

Before, the function ``entente_append_if_current`` read every event under the phase's prefix
and kept those after the position given: on PostgreSQL each append then cost about 75 ns more
of the server's time for every submission the phase already held, spent under the global
position lock (docs/store.md, "Appending in one round trip"). The new index starts with
``stream_id`` (``text_pattern_ops`` on PostgreSQL), so it serves the prefix reads the index it
replaces served; the function takes the watched streams by name.

Revision ID: 0004
Revises: 0003
"""
from __future__ import annotations

from alembic import op

from shared.store.migrations.versions import rev0003_append_if_current as previous
from shared.store.schema import APPEND_IF_CURRENT_FUNCTION

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

SIGNATURE = ("entente_append_if_current(text, text, integer, text, integer, text, integer, jsonb, jsonb, "
             "timestamptz, bigint, integer, text, text[], bigint)")
PATTERN_OPS = {"stream_id": "text_pattern_ops"}


def upgrade() -> None:
    op.create_index("ix_events_stream_position", "events", ["stream_id", "position"], postgresql_ops=PATTERN_OPS)
    op.drop_index("ix_events_stream_prefix", "events")
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP FUNCTION IF EXISTS {previous.SIGNATURE}")
        op.execute(APPEND_IF_CURRENT_FUNCTION)


def downgrade() -> None:
    op.create_index("ix_events_stream_prefix", "events", ["stream_id"], postgresql_ops=PATTERN_OPS)
    op.drop_index("ix_events_stream_position", "events")
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}")
        op.execute(previous.FUNCTION)
