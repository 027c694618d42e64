"""The rate limits' buckets on PostgreSQL: the takes of the requests that arrive while one
statement is in flight gathered into the next, one statement and one commit for all of them
(docs/store.md, "Rate buckets gathered"; as the checked appends are: shared/store/batching.py).

Each take is the conditional upsert of ``take_bucket`` (shared/store/statements.py), a
data-modifying CTE of its own; two takes of one key may not share a statement (PostgreSQL would
not see the first's update in the second), so a batch goes in rounds, each round's keys
distinct and each request in a round after every earlier request that shares a key with it:
the takes of one bucket are applied in the order their requests arrived, as one statement a
request applied them.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from shared.store.batching import GroupCommit
from shared.store.buckets import RateBuckets, Take
from shared.store.recorders import Runner

Request = tuple[float, tuple[Take, ...]]  # a request's time and its takes


@cache
def take_each(count: int) -> str:
    """``count`` takes (``take_bucket``) in one statement, each a data-modifying CTE on a key of
    its own with its own time: each take's key, time, interval and tolerance in turn; one row of
    whether each was taken."""
    takes = []
    for n in range(count):
        key, now, interval, tolerance = (f"${1 + 4 * n + i}" for i in range(4))
        takes.append(f"t{n} AS (INSERT INTO rate_buckets AS b (key, full_at) VALUES ({key}::text, {now}::float8 + "
                     f"{interval}::float8) ON CONFLICT (key) DO UPDATE SET full_at = GREATEST(b.full_at, "
                     f"{now}::float8) + {interval}::float8 WHERE GREATEST(b.full_at, {now}::float8) - {now}::float8 "
                     f"<= {tolerance}::float8 RETURNING full_at)")
    return f"WITH {', '.join(takes)} SELECT " + ", ".join(f"EXISTS (SELECT 1 FROM t{n})" for n in range(count))


def rounds(requests: Sequence[Request]) -> list[list[int]]:
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


class PostgresBuckets(RateBuckets):
    """Every take of a request in one statement, gathered with the other requests' (all of
    them: then any taken are given back if one refused)."""

    def __init__(self, db: Runner) -> None:
        super().__init__(db)
        self._gathered: GroupCommit[Request, list[bool]] = GroupCommit(self._take_batch)

    async def _taken(self, now: float, takes: Sequence[Take]) -> list[bool]:
        if len({take.key for take in takes}) < len(takes):  # one bucket twice: a statement a take
            return await super()._taken(now, takes)
        return await self._gathered.submit((now, tuple(takes)))

    async def _take_batch(self, requests: Sequence[Request]) -> list[list[bool] | BaseException]:
        answers: list[list[bool] | BaseException] = [[] for _ in requests]
        for members in rounds(requests):
            values: list[object] = []
            for index in members:
                now, takes = requests[index]
                for take in takes:
                    values += [take.key, now, take.interval, take.tolerance]
            (row,) = await self._db.rows(take_each(len(values) // 4), *values)
            taken = iter(bool(done) for done in row)
            for index in members:
                answers[index] = [next(taken) for _ in requests[index][1]]
        return answers
