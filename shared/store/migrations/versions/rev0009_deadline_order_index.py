"""The clock workers' claim finds the next due games by one descent of an index on
(deadline, game_id), the order it asks for (docs/hosting.md, "The clock worker").

Before, the index held the deadline alone, and ``ORDER BY deadline, game_id LIMIT n FOR
UPDATE SKIP LOCKED`` sorted every due game of one deadline by id before it could lock the
first ``n``: at a deadline storm, where thousands of games share one deadline, each claim of
ten sorted them all (on PostgreSQL spilling to disk), so a storm's claims grew with the square
of its games: 100,000 games due at once were resolved at 63 a second, 276 with this index
(docs/performance.md, "A deadline storm of 100,000 games").

Revision ID: 0009
Revises: 0008
"""
from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_deadline_game", "games", ["deadline", "game_id"])
    op.drop_index("ix_games_deadline", "games")


def downgrade() -> None:
    op.create_index("ix_games_deadline", "games", ["deadline"])
    op.drop_index("ix_games_deadline_game", "games")
