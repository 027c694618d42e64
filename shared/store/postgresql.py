"""The store's hot statements on PostgreSQL, sent to asyncpg directly.

Every request of the hosted game reads a game stream, many lock a game row, read order streams
and append: through SQLAlchemy each statement costs several times its round trip in Python
(compiling, pooling, result processing). Here the same statements go to the asyncpg connection
under the store's SQLAlchemy connection (in its transaction, begun first), as plain SQL that
asyncpg prepares once per connection. Only these statements; the rest of the store stays on
SQLAlchemy, and SQLite takes the SQLAlchemy path for all of them.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from shared.store.records import GameRow, RecordedEvent

_EVENT_COLUMNS = "position, stream_id, version, type, schema_version, data, metadata, recorded_at"
READ_STREAM = f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 ORDER BY version"
# a prefix as a byte-wise range, which the text_pattern_ops index answers even in a generic plan
READ_STREAMS = (f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream_id ~>=~ $1 AND stream_id ~<~ $2 "
                "ORDER BY stream_id, version")
STREAM_VERSION = "SELECT coalesce(max(version), 0) FROM events WHERE stream_id = $1"
LOCK_GAME = {"none": "SELECT game_id FROM games WHERE game_id = $1",
             "share": "SELECT game_id FROM games WHERE game_id = $1 FOR SHARE",
             "exclusive": "SELECT game_id FROM games WHERE game_id = $1 FOR UPDATE"}
STREAM_LOCK = "SELECT pg_advisory_xact_lock($1, hashtext($2))"
# the global position lock first, in the same statement (its row comes before any row, so
# before any position is drawn), the listeners told (delivered on commit), the rows in order
INSERT_EVENTS = (
    "INSERT INTO events (stream_id, version, type, schema_version, data, metadata, recorded_at) "
    "SELECT $1, batch.version, batch.type, batch.schema_version, batch.data::jsonb, batch.metadata::jsonb, "
    "batch.recorded_at "
    "FROM (SELECT pg_advisory_xact_lock($2), pg_notify($3, '')) AS position_lock, "
    "unnest($4::integer[], $5::text[], $6::integer[], $7::text[], $8::text[], $9::timestamptz[]) "
    "WITH ORDINALITY AS batch(version, type, schema_version, data, metadata, recorded_at, n) "
    "ORDER BY batch.n RETURNING position, version"
)
PUT_GAME = (
    "INSERT INTO games (game_id, variant, name, status, phase, deadline, summary, updated_at) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7::text::jsonb, $8) ON CONFLICT (game_id) DO UPDATE SET "
    "variant = EXCLUDED.variant, name = EXCLUDED.name, status = EXCLUDED.status, phase = EXCLUDED.phase, "
    "deadline = EXCLUDED.deadline, summary = EXCLUDED.summary, updated_at = EXCLUDED.updated_at"
)
PREFIX_END = "\U0010ffff"  # after every character a stream id holds


async def driver(connection: AsyncConnection) -> Any | None:
    """The asyncpg connection under ``connection``, with the transaction SQLAlchemy would
    begin lazily begun now (none on an autocommit connection); None when the adapter is not
    the one this module knows (then the caller takes the SQLAlchemy path)."""
    proxied = await connection.get_raw_connection()
    adapted = proxied.dbapi_connection
    start = getattr(adapted, "_start_transaction", None)
    if start is None or not hasattr(adapted, "_transaction"):
        return None
    if adapted._transaction is None:
        await start()
    return proxied.driver_connection


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)


def recorded(row: Any) -> RecordedEvent:
    return RecordedEvent(stream_id=row[1], version=row[2], position=row[0], type=row[3], schema_version=row[4],
                         data=_json(row[5]), metadata=_json(row[6]), recorded_at=_utc(row[7]))


async def read_stream(raw: Any, stream_id: str, after_version: int) -> list[RecordedEvent]:
    return [recorded(row) for row in await raw.fetch(READ_STREAM, stream_id, after_version)]


async def read_streams(raw: Any, prefix: str) -> dict[str, list[RecordedEvent]]:
    streams: dict[str, list[RecordedEvent]] = {}
    for row in await raw.fetch(READ_STREAMS, prefix, prefix + PREFIX_END):
        if row[1].startswith(prefix):
            streams.setdefault(row[1], []).append(recorded(row))
    return streams


async def stream_version(raw: Any, stream_id: str) -> int:
    return int(await raw.fetchval(STREAM_VERSION, stream_id))


async def lock_game(raw: Any, game_id: str, lock: str) -> bool:
    """Whether the game has a row (locked as asked)."""
    return await raw.fetchrow(LOCK_GAME[lock], game_id) is not None


async def lock_stream(raw: Any, lock_class: int, stream_id: str) -> None:
    await raw.fetchval(STREAM_LOCK, lock_class, stream_id)


async def insert_events(raw: Any, stream_id: str, rows: list[dict[str, Any]], position_key: int,
                        channel: str) -> list[int]:
    """The rows' positions, in version order."""
    result = await raw.fetch(
        INSERT_EVENTS, stream_id, position_key, channel,
        [row["version"] for row in rows], [row["type"] for row in rows], [row["schema_version"] for row in rows],
        [json.dumps(row["data"]) for row in rows], [json.dumps(row["metadata"]) for row in rows],
        [row["recorded_at"] for row in rows])
    return [position for position, _ in sorted(((r[0], r[1]) for r in result), key=lambda pair: pair[1])]


def _literal(text: str) -> str:
    """A string constant that means ``text`` whatever standard_conforming_strings says."""
    return "E'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def insert_events_literally(stream_id: str, rows: list[dict[str, Any]], position_key: int, channel: str) -> str:
    """INSERT_EVENTS with the values written out, for a message of several statements (the
    simple query protocol has no parameters): the caller's insert-and-commit in one message."""
    values = ", ".join(
        f"({_literal(stream_id)}, {int(row['version'])}, {_literal(row['type'])}, {int(row['schema_version'])}, "
        f"{_literal(json.dumps(row['data']))}::jsonb, {_literal(json.dumps(row['metadata']))}::jsonb, "
        f"{_literal(_utc(row['recorded_at']).isoformat())}::timestamptz)"
        for row in rows)
    return ("INSERT INTO events (stream_id, version, type, schema_version, data, metadata, recorded_at) "
            "SELECT batch.stream_id, batch.version, batch.type, batch.schema_version, batch.data, batch.metadata, "
            f"batch.recorded_at FROM (SELECT pg_advisory_xact_lock({int(position_key)}), "
            f"pg_notify({_literal(channel)}, '')) AS position_lock, (VALUES {values}) "
            "AS batch(stream_id, version, type, schema_version, data, metadata, recorded_at) ORDER BY batch.version")


async def put_game(raw: Any, row: GameRow) -> None:
    await raw.execute(PUT_GAME, row.game_id, row.variant, row.name, row.status, row.phase,
                      _utc(row.deadline) if row.deadline else None, json.dumps(row.summary), _utc(row.updated_at))
