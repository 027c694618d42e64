"""The lobby's lists read the newest games first: index the games by ``updated_at``, and by
``status`` then ``updated_at`` (which also serves what the index on ``status`` alone served).

On 20,000 games (benchmarks/games_listing.py) the newest 50 took 21.8 ms on SQLite and 8.5 ms
on PostgreSQL before, each a scan and a sort of the whole table (docs/store.md).

Revision ID: 0002
Revises: 0001
"""
from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.create_index("ix_games_updated_at", ["updated_at"])
        games.create_index("ix_games_status_updated_at", ["status", "updated_at"])
        games.drop_index("ix_games_status")


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.create_index("ix_games_status", ["status"])
        games.drop_index("ix_games_status_updated_at")
        games.drop_index("ix_games_updated_at")
