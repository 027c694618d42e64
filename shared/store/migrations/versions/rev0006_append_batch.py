"""Order submissions that arrive together are appended together: one round trip and one commit
for a batch (docs/store.md, "Appends gathered into one commit"). PostgreSQL gains the function
``entente_append_batch``, each item checked and answered as ``entente_append_if_current``
checks and answers one; SQLite has no functions and nothing changes there.

Revision ID: 0006
Revises: 0005
"""
from __future__ import annotations

from alembic import op

from shared.store.schema import APPEND_BATCH_FUNCTION

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

SIGNATURE = ("entente_append_batch(text[], text[], integer[], text[], text[], integer[], text[], text[], "
             "timestamptz[], bigint, integer, text, text[], integer[], bigint[])")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(APPEND_BATCH_FUNCTION)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}")
