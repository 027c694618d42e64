"""The open live streams of each seat, in the store so that a seat's cap holds for every
process of one database (docs/operations.md, "Rate limits"; docs/decisions/0024-iam-across-processes.md).

A seat's cap of ``n`` streams is ``n`` places, rows keyed by (viewer, place). A stream takes a
free place by a conditional upsert (``take_slot``: only if nobody holds it or its lease has
expired), so of two processes racing for the last place the row's lock lets one in. A lease
holds until ``expires_at``; its process moves every lease it holds on in one statement while
its streams are open (``refresh``), so a crashed process's places come free once that passes.
A DAIDE seat's connection holds its one place the same way (``hold``, whoever held it: the
latest connection holds a seat), so that ``IAM`` on any process sees whether a connection on
another holds the seat (services/daide/seats.py). Outside the log: a count is no event of any
game.
"""
from __future__ import annotations

from dataclasses import dataclass

from shared.store.recorders import Runner


@dataclass(frozen=True, slots=True)
class Lease:
    """One open stream's place: give it back with ``StreamLeases.release``."""

    viewer_key: str
    slot: int
    lease: str


class StreamLeases:
    """``store.leases``: take, give back and keep alive the places of the seats' open streams."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    async def take(self, viewer_key: str, cap: int, process: str, lease: str, until: float,
                   now: float) -> Lease | None:
        """A free place of ``viewer_key``'s ``cap`` (None: every place is held)."""
        held = {int(row[0]) for row in await self._db.rows(self._db.sql.live_slots, viewer_key, now)}
        for slot in range(cap):
            if slot in held:
                continue
            if await self._db.rows(self._db.sql.take_slot, viewer_key, slot, process, lease, until, now):
                return Lease(viewer_key, slot, lease)
        return None  # (a place another process took meanwhile is held too)

    async def held(self, key: str, now: float) -> bool:
        """Whether a live lease holds the first place of ``key`` (a DAIDE seat's connection)."""
        return any(int(row[0]) == 0 for row in await self._db.rows(self._db.sql.live_slots, key, now))

    async def hold(self, key: str, process: str, lease: str, until: float) -> Lease:
        """Take the first place of ``key`` whoever holds it (a DAIDE seat: the latest connection
        holds it)."""
        await self._db.rows(self._db.sql.hold_slot, key, process, lease, until)
        return Lease(key, 0, lease)

    async def release(self, lease: Lease) -> None:
        await self._db.rows(self._db.sql.release_slot, lease.viewer_key, lease.slot, lease.lease)

    async def refresh(self, process: str, until: float) -> None:
        """Every lease ``process`` holds holds until ``until``."""
        await self._db.rows(self._db.sql.refresh_leases, process, until)

    async def forget_expired(self, now: float) -> None:
        await self._db.rows(self._db.sql.forget_expired_leases, now)
