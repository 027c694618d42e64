"""PostgreSQL: the function ``entente_append_if_current``, an order submission's checked
append in one round trip instead of six (BEGIN, the game's share lock, the game stream read,
the stream lock, the stream's version, the insert with the COMMIT): docs/store.md,
"Appending in one round trip". Nothing changes on SQLite.

Revision ID: 0003
Revises: 0002
"""
from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

SIGNATURE = ("entente_append_if_current(text, text, integer, text, integer, text, integer, jsonb, jsonb, "
             "timestamptz, bigint, integer, text, text, text, bigint)")
# the function as this revision made it (revision 0004 replaces it): a migration keeps its own text
FUNCTION = """\
CREATE OR REPLACE FUNCTION entente_append_if_current(
    p_game_id text, p_guard_stream text, p_guard_version integer, p_stream_id text, p_expected integer,
    p_type text, p_schema_version integer, p_data jsonb, p_metadata jsonb, p_recorded_at timestamptz,
    p_position_lock bigint, p_stream_lock_class integer, p_channel text,
    p_watch_from text, p_watch_to text, p_watch_after bigint)
RETURNS TABLE (out_game_found boolean, out_guard_version integer, out_stream_version integer,
               out_appended bigint, out_position bigint, out_stream_id text, out_version integer, out_type text,
               out_schema_version integer, out_data jsonb, out_metadata jsonb, out_recorded_at timestamptz)
LANGUAGE plpgsql AS $entente$
DECLARE
    v_guard integer;
    v_stream integer;
    v_position bigint;
BEGIN
    PERFORM 1 FROM games WHERE games.game_id = p_game_id FOR SHARE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT false, 0, 0, NULL::bigint, NULL::bigint, NULL::text, NULL::integer, NULL::text,
            NULL::integer, NULL::jsonb, NULL::jsonb, NULL::timestamptz;
        RETURN;
    END IF;
    SELECT coalesce(max(e.version), 0)::integer INTO v_guard FROM events AS e WHERE e.stream_id = p_guard_stream;
    IF v_guard <> p_guard_version THEN
        RETURN QUERY SELECT true, v_guard, NULL::integer, NULL::bigint, NULL::bigint, NULL::text, NULL::integer,
            NULL::text, NULL::integer, NULL::jsonb, NULL::jsonb, NULL::timestamptz;
        RETURN;
    END IF;
    IF p_expected IS NULL THEN
        PERFORM pg_advisory_xact_lock(p_stream_lock_class, hashtext(p_stream_id));
    END IF;
    SELECT coalesce(max(e.version), 0)::integer INTO v_stream FROM events AS e WHERE e.stream_id = p_stream_id;
    IF p_expected IS NOT NULL AND p_expected <> v_stream THEN
        RETURN QUERY SELECT true, v_guard, v_stream, NULL::bigint, NULL::bigint, NULL::text, NULL::integer,
            NULL::text, NULL::integer, NULL::jsonb, NULL::jsonb, NULL::timestamptz;
        RETURN;
    END IF;
    PERFORM pg_advisory_xact_lock(p_position_lock), pg_notify(p_channel, '');
    INSERT INTO events AS e (stream_id, version, type, schema_version, data, metadata, recorded_at)
        VALUES (p_stream_id, v_stream + 1, p_type, p_schema_version, p_data, p_metadata, p_recorded_at)
        RETURNING e.position INTO v_position;
    -- the watched streams' events after p_watch_after, this one among them: holding the
    -- position lock, this statement sees every event positioned before it
    RETURN QUERY SELECT true, v_guard, v_stream + 1, v_position, e.position::bigint, e.stream_id::text,
            e.version::integer, e.type::text, e.schema_version::integer, e.data::jsonb, e.metadata::jsonb,
            e.recorded_at::timestamptz
        FROM events AS e
        WHERE p_watch_from IS NOT NULL AND e.stream_id ~>=~ p_watch_from AND e.stream_id ~<~ p_watch_to
            AND e.position > p_watch_after
        UNION ALL SELECT true, v_guard, v_stream + 1, v_position, NULL::bigint, NULL::text, NULL::integer,
            NULL::text, NULL::integer, NULL::jsonb, NULL::jsonb, NULL::timestamptz
        WHERE p_watch_from IS NULL;
END
$entente$"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(FUNCTION)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}")
