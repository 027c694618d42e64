"""The open live streams of each seat, counted for every process of a database against the
seat's cap (shared/store/leases.py; docs/decisions/0024-iam-across-processes.md): a row a place,
held by one stream until it expires, UNLOGGED on PostgreSQL as the rate buckets. Before this
revision each process counted a seat's streams apart, so N processes let a seat hold N times
its cap.

Revision ID: 0011
Revises: 0010
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # UNLOGGED on PostgreSQL (shared/store/schema_tables.py's UNLOGGED_TABLES): a crash empties it,
    # which frees every place, never refuses anyone wrongly
    op.create_table(
        "stream_leases",
        sa.Column("viewer_key", sa.String(), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("process", sa.String(), nullable=False),
        sa.Column("lease", sa.String(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("viewer_key", "slot"),
        prefixes=["UNLOGGED"] if op.get_bind().dialect.name == "postgresql" else [],
    )
    op.create_index("ix_stream_leases_process", "stream_leases", ["process"])


def downgrade() -> None:
    op.drop_index("ix_stream_leases_process", "stream_leases")
    op.drop_table("stream_leases")
