"""The rate limits' token buckets, in the store so that every process of one database counts
against one limit (docs/decisions/0021-limits-across-processes.md; docs/operations.md, "Rate
limits"). The arithmetic is the generic cell rate algorithm of shared/http/shared_limits.py: a
bucket is the moment it would be full again (``full_at``, seconds since the epoch by the
servers' clocks); one more may be taken while ``full_at`` is at most ``count - 1`` intervals
ahead of now, and taking one moves it an interval on.

Each take is an upsert whose update holds only under that condition (``take_bucket``), so of
two processes racing for a bucket's last place the row lock lets exactly one in; a request's
buckets (its address's and its token's) are taken in one statement, gathered with other
requests' (shared/store/gathered_buckets.py, ``GatheredBuckets``). Outside the log: a count is
no event of any game, and a bucket that has refilled (``full_at`` past) is the same as none, so
``forget_full`` may delete it at any time.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shared.store.recorders import Runner


@dataclass(frozen=True, slots=True)
class Take:
    """One bucket to take from: its key, the period over the count (``interval``) and ``count
    - 1`` intervals (``tolerance``: the burst)."""

    key: str
    interval: float
    tolerance: float


@dataclass(frozen=True, slots=True)
class Refused:
    """Which take of ``take_all`` found its bucket empty, and the seconds until it holds one."""

    index: int
    waited: float


class RateBuckets:
    """``store.buckets``: take from, give back to and forget the shared buckets."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    async def take_all(self, now: float, takes: Sequence[Take]) -> Refused | None:
        """One from each bucket of ``takes`` (None), or nothing taken and the first refusal."""
        taken = await self._taken(now, takes)
        refused = next((index for index, done in enumerate(taken) if not done), None)
        if refused is None:
            return None
        for take, done in zip(takes, taken, strict=False):
            if done:
                await self.give_back(take.key, take.interval)
        take = takes[refused]
        full_at = await self._db.value(self._db.sql.bucket_full_at, take.key)
        if not isinstance(full_at, float | int):  # forgotten meanwhile: full again
            return Refused(refused, take.interval)
        return Refused(refused, max(float(full_at) - now - take.tolerance, 1e-3))

    async def _taken(self, now: float, takes: Sequence[Take]) -> list[bool]:
        """Whether each take was taken, one statement each, none after the first refused (a
        back end may take them all in one statement instead)."""
        taken: list[bool] = []
        for take in takes:
            taken.append(await self._db.value(self._db.sql.take_bucket, take.key, now, take.interval, take.tolerance,
                                              now + take.interval) is not None)
            if not taken[-1]:
                break
        return taken

    async def give_back(self, key: str, interval: float) -> None:
        """Undo one take of ``key`` (a later limit of the same request refused it)."""
        await self._db.rows(self._db.sql.give_back_bucket, key, interval)

    async def forget_full(self, now: float) -> None:
        """Delete the buckets that are full by ``now`` (each the same as no row)."""
        await self._db.rows(self._db.sql.forget_full_buckets, now)
