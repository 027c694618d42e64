"""The DAIDE seats ``IAM`` may take back, shared by every ``entente daide`` process of a database
(shared/store/rejoins.py; docs/decisions/0024-iam-across-processes.md): a row a game's power,
its passcode a salted hash, with the wrong passcodes counted against it and its lock. Before
this revision each process kept the seats whose HLO it sent in memory, so a bot reconnecting to
another process could not ``IAM``, and each process counted wrong passcodes apart.

Revision ID: 0010
Revises: 0009
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daide_rejoins",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("power", sa.String(), nullable=False),
        sa.Column("player_id", sa.String(), nullable=False),
        sa.Column("passcode_hash", sa.String(), nullable=False),
        sa.Column("address_key", sa.String(), nullable=False),
        sa.Column("token_hash", sa.String(), nullable=False),
        sa.Column("bot_token_id", sa.String(), nullable=False),
        sa.Column("grant_version", sa.Integer(), nullable=False),
        sa.Column("port", sa.Integer(), nullable=True),
        sa.Column("rejoin_until", sa.Double(), nullable=False),
        sa.Column("wrong", sa.Integer(), nullable=False),
        sa.Column("locked_until", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "power"),
    )
    op.create_index("ix_daide_rejoins_address", "daide_rejoins", ["address_key", "power"])


def downgrade() -> None:
    op.drop_index("ix_daide_rejoins_address", "daide_rejoins")
    op.drop_table("daide_rejoins")
