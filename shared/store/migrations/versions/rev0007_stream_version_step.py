"""PostgreSQL: the append functions read a stream's version by one backward step of
``uq_events_stream_version`` instead of ``max(version)``. A plpgsql function's generic plan
expects one event a stream (most streams hold one submission), and for ``max`` it chose to
aggregate every event of the stream on ``ix_events_stream_position``: the game stream's guard
read then cost more with every phase the game had played, inside the appends' transaction
(docs/store.md, "A stream's version in one step"). And their watched reads take the streams one
at a time, each one descent of ``ix_events_stream_position``: a plan made while the log was
young ranged over positions instead, a scan that grew with the log (docs/store.md, "Plans that
hold as the log grows"). Nothing changes on SQLite, whose max() takes the one step already.

Revision ID: 0007
Revises: 0006
"""
from __future__ import annotations

from alembic import op

from shared.store.schema import APPEND_BATCH_FUNCTION, APPEND_IF_CURRENT_FUNCTION

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(APPEND_IF_CURRENT_FUNCTION)
        op.execute(APPEND_BATCH_FUNCTION)


def downgrade() -> None:
    """Nothing to undo: the functions keep their signatures and their answers, so revision
    0006's code calls them as before; only the plan of one read changed."""
