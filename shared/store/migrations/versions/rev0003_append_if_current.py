"""PostgreSQL: the function ``entente_append_if_current``, an order submission's checked
append in one round trip instead of six (BEGIN, the game's share lock, the game stream read,
the stream lock, the stream's version, the insert with the COMMIT): docs/store.md,
"Appending in one round trip". Nothing changes on SQLite.

Revision ID: 0003
Revises: 0002
"""
from __future__ import annotations

from alembic import op

from shared.store.schema import APPEND_IF_CURRENT_FUNCTION

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(APPEND_IF_CURRENT_FUNCTION)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS entente_append_if_current(text, text, integer, text, integer, text, "
                   "integer, jsonb, jsonb, timestamptz, bigint, integer, text, text, text, bigint)")
