"""The DAIDE seats ``IAM`` may take back, in the store so that a bot reconnecting to any
``entente daide`` process of one database comes back to its seat, and the wrong passcodes of
every process count against one lock (docs/bots.md, "Coming back: IAM";
docs/decisions/0024-iam-across-processes.md). The rules are services/daide/rejoin.py's; this is
their rows: one a game's power, replaced at each HLO, the passcode as a salted hash.

Counting a wrong passcode is one conditional update (``wrong``): the row's lock (on SQLite the
one writer) makes racing processes count one after the other, and none counts past a lock.
Outside the log: a seat to come back to is no event of the game, and nothing here is shown.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.store.recorders import Runner


@dataclass(frozen=True, slots=True)
class RejoinRow:
    """A seat some connection was told the passcode of (its HLO)."""

    game_id: str
    power: str
    player_id: str
    passcode_hash: str
    address_key: str
    token_hash: str
    bot_token_id: str
    grant_version: int
    port: int | None
    until: float  # seconds since the epoch: IAM takes the seat back until then
    wrong: int = 0
    locked_until: float = 0.0


@dataclass(frozen=True, slots=True)
class Counted:
    """A wrong passcode counted: the count now (0 once it locked) and the lock's end."""

    wrong: int
    locked_until: float


class Rejoins:
    """``store.rejoins``: keep, find, count against and forget the seats IAM may take back."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    async def remember(self, row: RejoinRow, now: float) -> None:
        """Keep ``row`` (its seat's latest HLO; its count and lock stay); the spent rows go."""
        await self._db.rows(self._db.sql.forget_spent_rejoins, now)
        await self._db.rows(self._db.sql.remember_rejoin, row.game_id, row.power, row.player_id, row.passcode_hash,
                            row.address_key, row.token_hash, row.bot_token_id, row.grant_version, row.port,
                            row.until)

    async def of_game(self, game_id: str, power: str) -> RejoinRow | None:
        found = await self._db.rows(self._db.sql.rejoin_of_game, game_id, power)
        return _row(found[0]) if found else None

    async def of_address(self, address_key: str, power: str, now: float) -> list[RejoinRow]:
        """The seats of ``power`` played from the address on the one port, their hour not over."""
        return [_row(found) for found in await self._db.rows(self._db.sql.rejoins_of_address, address_key, power, now)]

    async def right(self, game_id: str, power: str, now: float) -> bool:
        """Clear the seat's count (False: it was locked meanwhile)."""
        return bool(await self._db.rows(self._db.sql.rejoin_right, game_id, power, now))

    async def wrong(self, game_id: str, power: str, now: float, locks_at: int, lock_seconds: float) -> Counted | None:
        """Count a wrong passcode; ``locks_at`` of them lock the seat for ``lock_seconds`` (None:
        locked already, nothing counted)."""
        found = await self._db.rows(self._db.sql.rejoin_wrong, game_id, power, locks_at, now + lock_seconds, now)
        return Counted(int(found[0][0]), float(found[0][1])) if found else None

    async def forget(self, game_id: str, power: str | None = None) -> None:
        """Forget a seat (its credential revoked), or every seat of a game (``power`` None)."""
        if power is None:
            await self._db.rows(self._db.sql.forget_game_rejoins, game_id)
        else:
            await self._db.rows(self._db.sql.forget_rejoin, game_id, power)


def _row(found: Sequence[Any]) -> RejoinRow:
    values = tuple(found)
    return RejoinRow(str(values[0]), str(values[1]), str(values[2]), str(values[3]), str(values[4]), str(values[5]),
                     str(values[6]), int(values[7]), None if values[8] is None else int(values[8]), float(values[9]),
                     int(values[10]), float(values[11]))
