"""The SQL of the recorders (shared/store/recorders.py), written once for both back ends
(docs/store.md, "Recorders").

A statement is written in PostgreSQL's dialect: numbered parameters ``$1``, and casts
``$2::text`` where PostgreSQL needs a parameter's type. ``for_sqlite`` turns it into SQLite's
(``?1``, which SQLite binds by number as PostgreSQL does, and no casts). The few statements
that differ between the back ends (a prefix of stream ids as an index range, the row locks,
taking a share of the outbox) are given by each back end, with the same parameters in the
same order, so that the recorder running them is still written once.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from shared.store.outbox import NOTIFICATION_COLUMNS, Dead, Delivered, Retry

EVENT_COLUMNS = "position, stream_id, version, type, schema_version, data, metadata, recorded_at"
GAME_COLUMNS = "game_id, variant, name, status, phase, deadline, summary, updated_at"
PREFIX_END = "\U0010ffff"  # after every character a stream id holds
STAMPED_REVISION = "SELECT version_num FROM alembic_version LIMIT 1"  # the schema's (shared/store/schema.py)


@dataclass(frozen=True, slots=True)
class Statements:
    """Every statement a recorder runs, in one back end's dialect."""

    # the event log
    stream_version: str
    read_stream: str
    read_stream_page: str
    read_streams: str  # $1 the prefix, $2 the prefix followed by PREFIX_END
    read_streams_after: str  # and $3 the position after which
    read_all: str
    last_of_next: str
    read_range_of: str  # $1 after, $2 up to, $3 the prefixes (an array: ``Runner.texts``)
    head: str
    # the game index
    get_game: str
    put_game: str
    due_games: Mapping[bool, str]  # by ``claim``
    list_games: str
    list_games_with_status: str
    list_games_after: str
    oldest_due: str
    lock_game: Mapping[str, str]  # by lock mode
    # the projections' positions
    projection_position: str
    lock_projection: str
    set_projection: str
    # the outbox
    plan_notification: str
    cancel_notifications: str
    set_webhook_secret: str
    remove_webhook_secret: str
    record_outcome: Mapping[type, str]  # by the outcome's type
    release_notification: str
    list_notifications: str
    list_game_notifications: str
    count_notifications: str
    # the rate limits' buckets (shared/store/buckets.py)
    take_bucket: str
    bucket_full_at: str
    give_back_bucket: str
    forget_full_buckets: str
    # the DAIDE seats IAM may take back (shared/store/rejoins.py)
    remember_rejoin: str
    rejoin_of_game: str
    rejoins_of_address: str
    rejoin_right: str
    rejoin_wrong: str
    forget_rejoin: str
    forget_game_rejoins: str
    forget_spent_rejoins: str
    # the open streams' leases (shared/store/leases.py)
    live_slots: str
    take_slot: str
    release_slot: str
    refresh_leases: str
    forget_expired_leases: str
    hold_slot: str


# the last event's version by one backward step of uq_events_stream_version: max(version) let
# PostgreSQL's generic plan, which expects one event a stream, aggregate every event of a long
# stream on the other index (docs/store.md, "A stream's version in one step")
_STREAM_VERSION = "SELECT coalesce((SELECT version FROM events WHERE stream_id = $1 ORDER BY version DESC LIMIT 1), 0)"
_REJOIN_COLUMNS = ("game_id, power, player_id, passcode_hash, address_key, token_hash, bot_token_id, grant_version, "
                   "port, rejoin_until, wrong, locked_until")
_LOCK_GAME = "SELECT game_id FROM games WHERE game_id = $1"
_DUE = (f"SELECT {GAME_COLUMNS} FROM games WHERE deadline IS NOT NULL AND deadline <= $1 "
        "ORDER BY deadline, game_id LIMIT $2")
# a private game (GameSettings.private in the summary) is left out of the lobby's list; with a
# value, only the games whose bots_may_join setting is that (docs/api.md, "Games")
_LISTED = ("(NOT {0}::boolean OR NOT coalesce((summary->'settings'->>'private')::boolean, false))"
           " AND ({1}::boolean IS NULL OR coalesce((summary->'settings'->>'bots_may_join')::boolean, false) = {1})")
_STILL_LEASED = " WHERE id = $1 AND status = 'pending' AND attempts = $2 RETURNING id"

SHARED = Statements(
    stream_version=_STREAM_VERSION,
    read_stream=f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 ORDER BY version",
    read_stream_page=(f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 "
                      "AND version <= $3 ORDER BY version"),
    read_streams="",  # each back end's (an index range)
    read_streams_after="",
    read_all=f"SELECT {EVENT_COLUMNS} FROM events WHERE position > $1 ORDER BY position LIMIT $2",
    last_of_next=("SELECT coalesce(max(position), $1), count(*) FROM "
                  "(SELECT position FROM events WHERE position > $1 ORDER BY position LIMIT $2) AS upcoming"),
    read_range_of="",
    head="SELECT coalesce(max(position), 0) FROM events",
    get_game=f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = $1",
    put_game=(
        f"INSERT INTO games ({GAME_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8) "
        "ON CONFLICT (game_id) DO UPDATE SET variant = EXCLUDED.variant, name = EXCLUDED.name, "
        "status = EXCLUDED.status, phase = EXCLUDED.phase, deadline = EXCLUDED.deadline, "
        "summary = EXCLUDED.summary, updated_at = EXCLUDED.updated_at"),
    due_games={False: _DUE, True: _DUE + " FOR UPDATE SKIP LOCKED"},
    list_games=(f"SELECT {GAME_COLUMNS} FROM games WHERE ($2::text IS NULL OR variant = $2) "
                f"AND {_LISTED.format('$3', '$4')} ORDER BY updated_at DESC, game_id LIMIT $1"),
    list_games_with_status=(f"SELECT {GAME_COLUMNS} FROM games WHERE status = $1 "
                            f"AND ($3::text IS NULL OR variant = $3) AND {_LISTED.format('$4', '$5')} "
                            "ORDER BY updated_at DESC, game_id LIMIT $2"),
    list_games_after=(f"SELECT {GAME_COLUMNS} FROM games WHERE ($1::text IS NULL OR status = $1) "
                      f"AND ($5::text IS NULL OR variant = $5) AND {_LISTED.format('$6', '$7')} "
                      "AND (updated_at < $2 OR (updated_at = $2 AND game_id > $3)) "
                      "ORDER BY updated_at DESC, game_id LIMIT $4"),
    oldest_due="SELECT min(deadline) FROM games WHERE deadline IS NOT NULL AND deadline <= $1",
    lock_game={"none": _LOCK_GAME, "share": _LOCK_GAME + " FOR SHARE", "exclusive": _LOCK_GAME + " FOR UPDATE"},
    projection_position="SELECT position FROM projection_positions WHERE name = $1",
    # an upsert that always updates: it creates the row at 0 if missing and row-locks it either way
    lock_projection=("INSERT INTO projection_positions (name, position) VALUES ($1, 0) ON CONFLICT (name) "
                     "DO UPDATE SET position = projection_positions.position RETURNING position"),
    set_projection="UPDATE projection_positions SET position = $2 WHERE name = $1",
    plan_notification=(
        "INSERT INTO notification_outbox (dedupe_key, game_id, player_id, kind, phase, url, payload, status, "
        "attempts, next_attempt_at, source_position, created_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, 'pending', 0, $8, $9, $10) "
        "ON CONFLICT (dedupe_key) DO NOTHING RETURNING id"),
    cancel_notifications=(
        "UPDATE notification_outbox SET status = 'cancelled' WHERE status = 'pending' AND game_id = $1 "
        "AND ($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR phase = $3) "
        "AND ($4::text IS NULL OR player_id = $4) RETURNING id"),
    set_webhook_secret=("INSERT INTO webhook_secrets (game_id, recipient, secret, set_at) VALUES ($1, $2, $3, $4) "
                        "ON CONFLICT (game_id, recipient) DO UPDATE SET secret = excluded.secret, "
                        "set_at = excluded.set_at"),
    remove_webhook_secret="DELETE FROM webhook_secrets WHERE game_id = $1 AND recipient = $2",
    record_outcome={
        Delivered: ("UPDATE notification_outbox SET status = 'delivered', delivered_at = $3, last_error = NULL"
                    + _STILL_LEASED),
        Retry: "UPDATE notification_outbox SET next_attempt_at = $3, last_error = $4" + _STILL_LEASED,
        Dead: "UPDATE notification_outbox SET status = 'dead', last_error = $3" + _STILL_LEASED,
    },
    release_notification=("UPDATE notification_outbox SET attempts = attempts - 1, next_attempt_at = $3"
                          + _STILL_LEASED),
    list_notifications=f"SELECT {NOTIFICATION_COLUMNS} FROM notification_outbox ORDER BY id",
    list_game_notifications=f"SELECT {NOTIFICATION_COLUMNS} FROM notification_outbox WHERE game_id = $1 ORDER BY id",
    count_notifications="SELECT status, count(*) FROM notification_outbox GROUP BY status",
    # $1 the key, $2 now, $3 the interval, $4 the tolerance ((count - 1) intervals), $5 now + the
    # interval: one more taken (a row returned) only while the bucket's full_at is within the
    # tolerance of now; GREATEST is SQLite's scalar max (shared/store/sqlite.py)
    take_bucket=("INSERT INTO rate_buckets AS b (key, full_at) VALUES ($1, $5) ON CONFLICT (key) DO UPDATE "
                 "SET full_at = GREATEST(b.full_at, $2) + $3 WHERE GREATEST(b.full_at, $2) - $2 <= $4 "
                 "RETURNING full_at"),
    bucket_full_at="SELECT full_at FROM rate_buckets WHERE key = $1",
    give_back_bucket="UPDATE rate_buckets SET full_at = full_at - $2 WHERE key = $1",
    forget_full_buckets="DELETE FROM rate_buckets WHERE full_at < $1",
    # a seat's latest HLO replaces its passcode, address, credential and hour, and keeps the
    # wrong passcodes counted against it and its lock
    remember_rejoin=(f"INSERT INTO daide_rejoins ({_REJOIN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, "
                     "0, 0) ON CONFLICT (game_id, power) DO UPDATE SET player_id = excluded.player_id, "
                     "passcode_hash = excluded.passcode_hash, address_key = excluded.address_key, "
                     "token_hash = excluded.token_hash, bot_token_id = excluded.bot_token_id, "
                     "grant_version = excluded.grant_version, port = excluded.port, "
                     "rejoin_until = excluded.rejoin_until"),
    rejoin_of_game=f"SELECT {_REJOIN_COLUMNS} FROM daide_rejoins WHERE game_id = $1 AND power = $2",
    rejoins_of_address=(f"SELECT {_REJOIN_COLUMNS} FROM daide_rejoins WHERE address_key = $1 AND power = $2 "
                        "AND port IS NULL AND rejoin_until > $3 ORDER BY game_id"),
    # $3 now: the right passcode clears the count, unless the seat was locked meanwhile (no row)
    rejoin_right=("UPDATE daide_rejoins SET wrong = 0 WHERE game_id = $1 AND power = $2 AND locked_until <= $3 "
                  "RETURNING wrong"),
    # $3 the wrong passcodes that lock, $4 when a lock made now ends, $5 now: one more counted,
    # the count's last locking the seat and starting again at 0 (no row: locked already). The
    # row's lock makes racing processes count one after the other
    rejoin_wrong=("UPDATE daide_rejoins SET wrong = CASE WHEN wrong + 1 >= $3 THEN 0 ELSE wrong + 1 END, "
                  "locked_until = CASE WHEN wrong + 1 >= $3 THEN $4 ELSE locked_until END "
                  "WHERE game_id = $1 AND power = $2 AND locked_until <= $5 RETURNING wrong, locked_until"),
    forget_rejoin="DELETE FROM daide_rejoins WHERE game_id = $1 AND power = $2",
    forget_game_rejoins="DELETE FROM daide_rejoins WHERE game_id = $1",
    forget_spent_rejoins="DELETE FROM daide_rejoins WHERE rejoin_until <= $1 AND locked_until <= $1",
    live_slots="SELECT slot FROM stream_leases WHERE viewer_key = $1 AND expires_at > $2",
    # $1 the viewer, $2 the place, $3 the process, $4 the lease, $5 until when, $6 now: the place
    # taken (a row returned) only if nobody holds it or its holder's lease has expired; of racing
    # processes the row's lock lets one in
    take_slot=("INSERT INTO stream_leases AS l (viewer_key, slot, process, lease, expires_at) "
               "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (viewer_key, slot) DO UPDATE SET process = excluded.process, "
               "lease = excluded.lease, expires_at = excluded.expires_at WHERE l.expires_at <= $6 RETURNING slot"),
    release_slot="DELETE FROM stream_leases WHERE viewer_key = $1 AND slot = $2 AND lease = $3",
    refresh_leases="UPDATE stream_leases SET expires_at = $2 WHERE process = $1",
    forget_expired_leases="DELETE FROM stream_leases WHERE expires_at <= $1",
    # a DAIDE seat's one place, taken whoever holds it (the latest connection holds a seat)
    hold_slot=("INSERT INTO stream_leases (viewer_key, slot, process, lease, expires_at) VALUES ($1, 0, $2, $3, $4) "
               "ON CONFLICT (viewer_key, slot) DO UPDATE SET process = excluded.process, lease = excluded.lease, "
               "expires_at = excluded.expires_at"),
)

_PARAMETER = re.compile(r"\$(\d+)")
_CAST = re.compile(r"::[a-z]+(\[\])?")


def sqlite_text(sql: str) -> str:
    """A statement of PostgreSQL's dialect in SQLite's: ``$1`` becomes ``?1``, casts go."""
    return _CAST.sub("", _PARAMETER.sub(r"?\1", sql))


def for_sqlite(statements: Statements) -> Statements:
    """Every statement in SQLite's dialect (SQLite has no row locks: a lock only reads the row)."""
    lockless = replace(statements, due_games={claim: statements.due_games[False] for claim in (False, True)},
                       lock_game={mode: statements.lock_game["none"] for mode in statements.lock_game})
    translated: dict[str, Any] = {}
    for field in fields(Statements):
        value = getattr(lockless, field.name)
        translated[field.name] = (sqlite_text(value) if isinstance(value, str)
                                  else {key: sqlite_text(text) for key, text in value.items()})
    return replace(lockless, **translated)
