"""PATCH /orders against a power's own resubmissions: a script that prints figures, not a test.

    python benchmarks/patch_orders.py [--database postgresql://.../existing] [--resubmissions 2000]

Runs the app in process on a fresh SQLite file (or on ``--database``, an existing PostgreSQL
database whose tables are created if missing; use an empty one), starts a game, times 40
PATCHes of France's orders, then stores ``--resubmissions`` more PUTs of France's orders in
the same phase and times 40 PATCHes again. The two medians should be the same: a PATCH reads
the phase's submissions through the per-process fold (shared/game/log.py), not the power's
whole order stream (docs/performance.md, 2026-12-01, "The API: one checked append per submission").
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.utils.http import Table, running_client, started_table  # noqa: E402


async def patch_median(table: Table, count: int) -> float:
    times = []
    for index in range(count):
        started = time.perf_counter()
        response = await table.client.patch(
            f"/games/{table.game_id}/orders", headers=table.player("FRANCE"),
            json={"orders": ["A PAR - BUR" if index % 2 else "A PAR - PIC"], "phase": "S1901M"})
        times.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise RuntimeError(response.text)
    return statistics.median(times) * 1000


async def run(url: str, resubmissions: int) -> None:
    async with running_client(url) as client:
        table = await started_table(client, {})
        before = await patch_median(table, 40)
        for index in range(resubmissions):
            await table.client.put(f"/games/{table.game_id}/orders", headers=table.player("FRANCE"),
                                   json={"orders": ["A MAR - SPA" if index % 2 else "A MAR - BUR"], "phase": "S1901M"})
        after = await patch_median(table, 40)
    print(f"PATCH /orders, median of 40: {before:.2f} ms with 40 own submissions in the phase; "
          f"{after:.2f} ms after {resubmissions:,} more")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="an existing (empty) PostgreSQL database; default a fresh SQLite file")
    parser.add_argument("--resubmissions", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        url = args.database or f"sqlite:///{scratch}/patch.db"
        asyncio.run(run(url, args.resubmissions))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
