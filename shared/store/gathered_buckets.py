"""The rate limits' buckets gathered: the takes of the requests that arrive while one statement
is in flight go together in the next, one statement and one commit for all of them (docs/store.md,
"Rate buckets gathered"; as the checked appends are: shared/store/batching.py). On PostgreSQL that
is a round trip and a commit a batch instead of a request; on SQLite, one turn of the process's
writers and one hop to the connection's thread a batch instead of one a take.

Each take is the conditional upsert of ``take_bucket`` (shared/store/statements.py), a round's
takes one upsert over the takes' values (``TAKE_MANY``: arrays on PostgreSQL, a JSON array on
SQLite); two takes of one key may not share a statement (PostgreSQL updates a row once a
statement), so a batch goes in rounds, each round's keys distinct and each request in a round
after every earlier request that shares a key with it: the takes of one bucket are applied in the
order their requests arrived, as one statement a request applied them.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Literal

from shared.store.batching import GroupCommit
from shared.store.buckets import RateBuckets, Take
from shared.store.recorders import Runner

TakesAt = tuple[float, tuple[Take, ...]]  # a request's time and its takes


# every take of a round in one statement: one text whatever the round holds, so one prepared
# statement. Each row is ``take_bucket``'s conditional upsert: inserted with one taken (full an
# interval from now), or moved on an interval from max(full_at, now) only while that is at most
# the tolerance ahead of now, the take's own values read back by its key (a round's keys are
# distinct); the keys taken returned. The rows go in the keys' order: every process's statements
# then lock the rows they share in one order, where two batches in other orders locked each
# other's rows and PostgreSQL broke the circle by failing a statement (two server processes,
# `wrk_orders.py --limits`, 2026-12-07)
_OWN_POSTGRES = "(SELECT w.{} FROM w WHERE w.key = excluded.key)"
TAKE_MANY_POSTGRES = (
    "WITH w AS (SELECT * FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[]) "
    "AS w(key, now, step, tolerance)) "
    "INSERT INTO rate_buckets AS b (key, full_at) SELECT w.key, w.now + w.step FROM w ORDER BY w.key "
    f"ON CONFLICT (key) DO UPDATE SET full_at = GREATEST(b.full_at, {_OWN_POSTGRES.format('now')}) "
    f"+ {_OWN_POSTGRES.format('step')} "
    f"WHERE GREATEST(b.full_at, {_OWN_POSTGRES.format('now')}) - {_OWN_POSTGRES.format('now')} "
    f"<= {_OWN_POSTGRES.format('tolerance')} "
    "RETURNING b.key")
# the same on SQLite over one JSON array of [key, now, step, tolerance] (``WHERE true``: SQLite's
# grammar for an upsert from a SELECT); max() of two values is SQLite's GREATEST
_OWN_SQLITE = "(SELECT w.value ->> {} FROM json_each(?1) AS w WHERE w.value ->> 0 = excluded.key)"
TAKE_MANY_SQLITE = (
    "INSERT INTO rate_buckets AS b (key, full_at) "
    "SELECT w.value ->> 0, (w.value ->> 1) + (w.value ->> 2) FROM json_each(?1) AS w WHERE true ORDER BY 1 "
    f"ON CONFLICT (key) DO UPDATE SET full_at = max(b.full_at, {_OWN_SQLITE.format(1)}) + {_OWN_SQLITE.format(2)} "
    f"WHERE max(b.full_at, {_OWN_SQLITE.format(1)}) - {_OWN_SQLITE.format(1)} <= {_OWN_SQLITE.format(3)} "
    "RETURNING key")


def rounds(requests: Sequence[TakesAt]) -> list[list[int]]:
    """The requests' indexes by round: each round's keys distinct, and a request after every
    earlier one that shares a key with it."""
    last_round: dict[str, int] = {}
    found: list[list[int]] = []
    for index, (_, takes) in enumerate(requests):
        keys = {take.key for take in takes}  # distinct: ``_taken`` gathers no other request
        at = max((last_round[key] + 1 for key in keys if key in last_round), default=0)
        while len(found) <= at:
            found.append([])
        found[at].append(index)
        for key in keys:
            last_round[key] = at
    return found


def take_many(dialect: Literal["postgresql", "sqlite"], each: Sequence[tuple[Take, float]]) -> tuple[str, list[object]]:
    """The statement of one round's takes (each with its request's time) and its values."""
    if dialect == "postgresql":
        return TAKE_MANY_POSTGRES, [[take.key for take, _ in each], [now for _, now in each],
                                    [take.interval for take, _ in each], [take.tolerance for take, _ in each]]
    return TAKE_MANY_SQLITE, [json.dumps([[take.key, now, take.interval, take.tolerance] for take, now in each])]


class GatheredBuckets(RateBuckets):
    """Every take of a request in one statement, gathered with the other requests' (all of
    them: then any taken are given back if one refused)."""

    def __init__(self, db: Runner, dialect: Literal["postgresql", "sqlite"]) -> None:
        super().__init__(db)
        self._dialect = dialect
        self._gathered: GroupCommit[TakesAt, list[bool]] = GroupCommit(self._take_batch)

    async def _taken(self, now: float, takes: Sequence[Take]) -> list[bool]:
        if len({take.key for take in takes}) < len(takes):  # one bucket twice: a statement a take
            return await super()._taken(now, takes)
        return await self._gathered.submit((now, tuple(takes)))

    async def _take_batch(self, requests: Sequence[TakesAt]) -> list[list[bool] | BaseException]:
        answers: list[list[bool] | BaseException] = [[] for _ in requests]
        for members in rounds(requests):
            statement, values = take_many(self._dialect, [(take, requests[index][0])
                                                          for index in members for take in requests[index][1]])
            taken = {row[0] for row in await self._db.rows(statement, *values)}
            for index in members:
                answers[index] = [take.key in taken for take in requests[index][1]]
        return answers
