"""One clock worker's CPU a resolved game, in process: a script that prints figures, not a test.

    python benchmarks/worker_batch.py [--games 2000] [--profile]

Puts ``--games`` standard storm games in a fresh PostgreSQL database, due at one moment, as
benchmarks/storm.py does (benchmarks/storm_games.py: every power's orders in), then one
``ClockWorker`` of this process resolves them all (``run_once``, batches of ``CLAIM_BATCH``).
Printed: the CPU a game of this process and of PostgreSQL's backends of the database (from
/proc: the figures to compare on a shared machine), and with ``--profile`` where the worker's
time goes (cProfile on ``process_time``; the profiler weighs Python calls heavily, so its shares
overstate the Python parts).
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.scratch import cpu_seconds, database_pids, fresh_database, server_url  # noqa: E402
from benchmarks.storm import seed  # noqa: E402
from benchmarks.storm_games import templates  # noqa: E402


async def run(args: argparse.Namespace) -> None:
    from services.adjudication.worker import ClockWorker
    from shared.store import open_store

    async with fresh_database(args.server_url, "worker_bench") as url:
        store = await open_store(url)
        try:
            made = templates("standard", 32, 1, datetime.now(UTC), want_convoys=True)
            _, deadline, _, _ = await seed(url, made, args.games, 2000, args.seed, 0.5)
            await asyncio.sleep(max(0.0, deadline.timestamp() - time.time()) + 0.1)
            worker = ClockWorker(store)
            before = {pid: cpu_seconds([pid]) for pid in await database_pids(url)}
            profiler = cProfile.Profile(time.process_time) if args.profile else None
            own = time.process_time()
            if profiler is not None:
                profiler.enable()
            handled = await worker.run_once()
            if profiler is not None:
                profiler.disable()
            own = time.process_time() - own
            theirs = sum(cpu_seconds([pid]) - before.get(pid, 0.0) for pid in await database_pids(url))
        finally:
            await store.close()
    print(f"{handled} games resolved by one worker: CPU a game {own / handled * 1000:.2f} ms this process, "
          f"{theirs / handled * 1000:.2f} ms PostgreSQL; load average {os.getloadavg()[0]:.1f}")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--profile", action="store_true", help="print where the worker's time goes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-url", default=server_url())
    asyncio.run(run(parser.parse_args()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
