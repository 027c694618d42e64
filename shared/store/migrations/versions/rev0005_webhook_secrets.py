"""Webhook deliveries are signed (HMAC-SHA256 of the body, docs/social.md, "Signed
deliveries"): the table of each webhook's current signing secret, by game and recipient (a
seat's player id, or ``#channel``). Outside the log, so that no export, replay or operator's
read of a game's events holds a secret. Webhooks set before this revision have no secret:
their deliveries go unsigned until the webhook is set again.

Revision ID: 0005
Revises: 0004
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

MOMENT = sa.DateTime(timezone=True)  # as shared/store/tables.py writes UTCDateTime (frozen here)


def upgrade() -> None:
    op.create_table(
        "webhook_secrets",
        sa.Column("game_id", sa.String(), primary_key=True),
        sa.Column("recipient", sa.String(), primary_key=True),
        sa.Column("secret", sa.Text(), nullable=False),
        sa.Column("set_at", MOMENT, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("webhook_secrets")
