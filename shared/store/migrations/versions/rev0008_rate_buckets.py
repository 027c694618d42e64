"""The rate limits' token buckets, shared by every process of a database (shared/store/buckets.py;
docs/decisions/0021-limits-across-processes.md): a row a bucket, outside the log, holding the
moment the bucket would be full again; UNLOGGED on PostgreSQL. Before this revision the limits
on order writes, press and streams were counted in each process, so N processes let a client
through N times its limit.

Revision ID: 0008
Revises: 0007
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # UNLOGGED on PostgreSQL (shared/store/schema_tables.py's UNLOGGED_TABLES): a take commits without
    # waiting for a WAL flush, and a crash leaves every bucket full
    op.create_table(
        "rate_buckets",
        sa.Column("key", sa.String(), primary_key=True),
        sa.Column("full_at", sa.Double(), nullable=False),
        prefixes=["UNLOGGED"] if op.get_bind().dialect.name == "postgresql" else [],
    )


def downgrade() -> None:
    op.drop_table("rate_buckets")
