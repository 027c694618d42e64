"""The store's schema: the DDL of its tables, written by SQLAlchemy from their definitions
(shared/store/tables.py, the schema's single source) for one back end and kept as text
(shared/store/schema_tables.py), and the revision the code reads and writes (docs/store.md,
"Schema and migrations").

A fresh database (none of the store's tables) is created whole at the head revision and
stamped with it, as Alembic stamps a database it migrated; a database at an older revision
is refused until ``entente migrate`` takes it to the head (shared/store/migrate.py); one at a
revision this code does not know was migrated by a newer release. A database made before the
migrations existed has the store's tables and no revision: it is at the first revision.
"""
from __future__ import annotations

from typing import Literal

from shared.store.records import StoreError
from shared.store.schema_ddl import TABLE_STATEMENTS

# every table of the store, in the order they are created (shared/store/tables.py defines them;
# tests/store/test_schema_ddl.py checks that these are all its tables)
TABLE_NAMES = ("events", "games", "notification_outbox", "projection_positions", "webhook_secrets",
               "rate_buckets", "daide_rejoins", "stream_leases")
VERSION_TABLE_NAME = "alembic_version"  # Alembic's own bookkeeping table (shared/store/schema_tables.py)

# The revisions of shared/store/migrations/versions, oldest first (a test checks them against
# Alembic's own reading of that folder): the store reads these without importing Alembic.
REVISIONS = ("0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009", "0010", "0011")
HEAD_REVISION = REVISIONS[-1]
MIGRATE_COMMAND = "entente migrate"
# pg_advisory_xact_lock key ("entente" + 2) held while a schema is created or migrated
SCHEMA_LOCK_KEY = 0x656E7465_6E746502


class SchemaError(StoreError):
    """The database's schema is not the one this code reads and writes."""


class SchemaOutOfDate(SchemaError):
    def __init__(self, revision: str) -> None:
        self.revision = revision
        super().__init__(f"the database schema is at revision {revision}, older than this code's {HEAD_REVISION}: "
                         f"run `{MIGRATE_COMMAND}` (with the same database URL) to upgrade it, "
                         "then start again (docs/operations.md, \"Upgrading\")")


class SchemaTooNew(SchemaError):
    def __init__(self, revision: str) -> None:
        self.revision = revision
        super().__init__(f"the database schema is at revision {revision}, which this code (at {HEAD_REVISION}) "
                         "does not know: it was migrated by a newer release of entente; run that release")


SchemaState = Literal["fresh", "current"]


def schema_state(has_store_tables: bool, revision: str | None) -> SchemaState:
    """What a database holds, from whether any of the store's tables exist and the revision
    stamped in it: "fresh" (create it), "current", or SchemaOutOfDate / SchemaTooNew raised."""
    if revision is None:
        if not has_store_tables:
            return "fresh"
        revision = REVISIONS[0]  # made before the migrations: the first revision is that schema
    if revision == HEAD_REVISION:
        return "current"
    if revision in REVISIONS:
        raise SchemaOutOfDate(revision)
    raise SchemaTooNew(revision)


# PostgreSQL: one append, checked, in one round trip (EventStore.append_if_current). Under the
# game row's share lock (a resolution holds it exclusively), the guard stream's version is read
# (each statement of a plpgsql function sees what committed before it, so a resolution that the
# lock waited for is seen), then the stream's, and the event is inserted after the global
# position lock like every insert (positions become visible in commit order, docs/store.md).
# Every value is a bound parameter; the function assembles no SQL text.
APPEND_IF_CURRENT_FUNCTION = """\
CREATE OR REPLACE FUNCTION entente_append_if_current(
    p_game_id text, p_guard_stream text, p_guard_version integer, p_stream_id text, p_expected integer,
    p_type text, p_schema_version integer, p_data jsonb, p_metadata jsonb, p_recorded_at timestamptz,
    p_position_lock bigint, p_stream_lock_class integer, p_channel text,
    p_watch_streams text[], p_watch_after bigint)
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
    v_guard := coalesce((SELECT e.version FROM events AS e WHERE e.stream_id = p_guard_stream
                         ORDER BY e.version DESC LIMIT 1), 0);
    IF v_guard <> p_guard_version THEN
        RETURN QUERY SELECT true, v_guard, NULL::integer, NULL::bigint, NULL::bigint, NULL::text, NULL::integer,
            NULL::text, NULL::integer, NULL::jsonb, NULL::jsonb, NULL::timestamptz;
        RETURN;
    END IF;
    IF p_expected IS NULL THEN
        PERFORM pg_advisory_xact_lock(p_stream_lock_class, hashtext(p_stream_id));
    END IF;
    v_stream := coalesce((SELECT e.version FROM events AS e WHERE e.stream_id = p_stream_id
                          ORDER BY e.version DESC LIMIT 1), 0);
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
    -- position lock, this statement sees every event positioned before it. Each named stream
    -- is one descent of ix_events_stream_position, whatever the streams already hold: a
    -- stream at a time, fenced by OFFSET 0, so that no plan can range over positions instead
    -- (docs/store.md, "Plans that hold as the log grows")
    RETURN QUERY SELECT true, v_guard, v_stream + 1, v_position, e.position::bigint, e.stream_id::text,
            e.version::integer, e.type::text, e.schema_version::integer, e.data::jsonb, e.metadata::jsonb,
            e.recorded_at::timestamptz
        FROM (SELECT DISTINCT unnest(p_watch_streams)) AS watched(stream_id) CROSS JOIN LATERAL (
            SELECT * FROM events AS found
            WHERE found.stream_id = watched.stream_id AND found.position > p_watch_after OFFSET 0) AS e
        UNION ALL SELECT true, v_guard, v_stream + 1, v_position, NULL::bigint, NULL::text, NULL::integer,
            NULL::text, NULL::integer, NULL::jsonb, NULL::jsonb, NULL::timestamptz
        WHERE cardinality(p_watch_streams) = 0;
END
$entente$"""
# PostgreSQL: the checked appends of several submissions in one round trip and one commit
# (EventStore.append_if_current's group commit, shared/store/batching.py; docs/store.md,
# "Appends gathered into one commit"). Each item is what entente_append_if_current does for
# one, appending after its stream's end, and answered alone: its game found or not, the guard
# stream's version, the position of its event (NULL: its game had moved on), and its watched
# streams' events after its watch position (those of the batch's later items among them, which
# the caller leaves out). The locks are taken in one
# order by every batch: the games' share locks by game id, then the streams' locks by key,
# then the position lock (once), and no game's lock is awaited while the position lock is
# held, so two batches, or a batch and a resolution, never wait for each other in a circle.
# The watched streams come flattened: p_watch_streams[k] belongs to item p_watch_items[k].
APPEND_BATCH_FUNCTION = """\
CREATE OR REPLACE FUNCTION entente_append_batch(
    p_game_ids text[], p_guard_streams text[], p_guard_versions integer[], p_stream_ids text[],
    p_types text[], p_schema_versions integer[], p_data text[], p_metadata text[], p_recorded_at timestamptz[],
    p_position_lock bigint, p_stream_lock_class integer, p_channel text,
    p_watch_streams text[], p_watch_items integer[], p_watch_after bigint[])
RETURNS TABLE (out_item integer, out_game_found boolean, out_guard_version integer, out_appended bigint,
               out_position bigint, out_stream_id text, out_version integer, out_type text,
               out_schema_version integer, out_data jsonb, out_metadata jsonb, out_recorded_at timestamptz)
LANGUAGE plpgsql AS $entente$
DECLARE
    v_count integer := coalesce(cardinality(p_stream_ids), 0);
    v_found boolean[] := array_fill(false, ARRAY[v_count]);
    v_guard integer[] := array_fill(0, ARRAY[v_count]);
    v_position bigint[] := array_fill(NULL::bigint, ARRAY[v_count]);
    v_version integer;
    v_inserted bigint;
    v_locked boolean := false;
    v_streams text[];
    i integer;
BEGIN
    IF v_count = 0 THEN
        RETURN;
    END IF;
    PERFORM 1 FROM games WHERE games.game_id = ANY(p_game_ids) ORDER BY games.game_id FOR SHARE;
    FOR i IN 1..v_count LOOP
        v_found[i] := EXISTS (SELECT 1 FROM games WHERE games.game_id = p_game_ids[i]);
        IF v_found[i] THEN
            v_guard[i] := coalesce((SELECT e.version FROM events AS e WHERE e.stream_id = p_guard_streams[i]
                                    ORDER BY e.version DESC LIMIT 1), 0);
        END IF;
    END LOOP;
    PERFORM pg_advisory_xact_lock(p_stream_lock_class, locks.key) FROM (
        SELECT DISTINCT hashtext(p_stream_ids[k]) AS key FROM generate_subscripts(p_stream_ids, 1) AS k
            WHERE v_found[k] AND v_guard[k] = p_guard_versions[k]) AS locks
        ORDER BY locks.key;
    FOR i IN 1..v_count LOOP
        IF v_found[i] AND v_guard[i] = p_guard_versions[i] THEN
            IF NOT v_locked THEN
                PERFORM pg_advisory_xact_lock(p_position_lock), pg_notify(p_channel, '');
                v_locked := true;
            END IF;
            v_version := coalesce((SELECT e.version FROM events AS e WHERE e.stream_id = p_stream_ids[i]
                                   ORDER BY e.version DESC LIMIT 1), 0);
            INSERT INTO events AS e (stream_id, version, type, schema_version, data, metadata, recorded_at)
                VALUES (p_stream_ids[i], v_version + 1, p_types[i], p_schema_versions[i], p_data[i]::jsonb,
                        p_metadata[i]::jsonb, p_recorded_at[i])
                RETURNING e.position INTO v_inserted;
            v_position[i] := v_inserted;
        END IF;
    END LOOP;
    -- each item's answer; its watched read as entente_append_if_current's, a stream at a time
    -- and no upper bound on the position, so that every plan descends ix_events_stream_position
    -- once a stream (a position range drew it to the position index, a scan that grew with the
    -- log: docs/store.md, "Plans that hold as the log grows"); the events of later items are
    -- left out by the caller
    FOR i IN 1..v_count LOOP
        IF v_position[i] IS NULL THEN
            RETURN QUERY SELECT i, v_found[i], v_guard[i], NULL::bigint, NULL::bigint, NULL::text, NULL::integer,
                NULL::text, NULL::integer, NULL::jsonb, NULL::jsonb, NULL::timestamptz;
            CONTINUE;
        END IF;
        v_streams := ARRAY(SELECT named.stream FROM unnest(p_watch_streams, p_watch_items) AS named(stream, item)
                           WHERE named.item = i);
        RETURN QUERY SELECT i, true, v_guard[i], v_position[i], e.position::bigint, e.stream_id::text,
                e.version::integer, e.type::text, e.schema_version::integer, e.data::jsonb, e.metadata::jsonb,
                e.recorded_at::timestamptz
            FROM (SELECT DISTINCT unnest(v_streams)) AS watched(stream_id) CROSS JOIN LATERAL (
                SELECT * FROM events AS found
                WHERE found.stream_id = watched.stream_id AND found.position > p_watch_after[i] OFFSET 0) AS e
            UNION ALL SELECT i, true, v_guard[i], v_position[i], NULL::bigint, NULL::text, NULL::integer,
                NULL::text, NULL::integer, NULL::jsonb, NULL::jsonb, NULL::timestamptz
            WHERE cardinality(v_streams) = 0;
    END LOOP;
END
$entente$"""
FUNCTIONS = {"postgresql": (APPEND_IF_CURRENT_FUNCTION, APPEND_BATCH_FUNCTION), "sqlite": ()}


def create_statements(dialect: str) -> tuple[str, ...]:
    """CREATE TABLE and CREATE INDEX statements, each IF NOT EXISTS, for a fresh database, the
    back end's functions; then Alembic's version table and the head revision in it (run them
    once, under the schema lock). The tables' statements are SQLAlchemy's, kept as text in
    shared/store/schema_ddl.py (shared/store/schema_tables.py writes it), so that a server
    creating a database does not import SQLAlchemy."""
    stamp = f"INSERT INTO {VERSION_TABLE_NAME} (version_num) VALUES ('{HEAD_REVISION}')"
    return (*TABLE_STATEMENTS[dialect], *FUNCTIONS[dialect], stamp)
