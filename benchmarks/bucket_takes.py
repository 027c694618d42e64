"""The rate limits' takes in the store under concurrent requests: a script that prints figures, not a test.

    python benchmarks/bucket_takes.py [--clients 32] [--seconds 10] [--keys 1200] [--sqlite] [--one-at-a-time]

On a fresh PostgreSQL database (benchmarks/scratch.py), or with ``--sqlite`` a SQLite file,
``--clients`` coroutines of one process each take, request after request, an address's and a
token's bucket (``store.buckets.take_all``, as an order write with every limit on does:
docs/operations.md, "Rate limits"), each request a seat of ``--keys`` drawn in turn, for
``--seconds``. Printed: requests a second, and the CPU a request of this process and of
PostgreSQL's backends of the database (from /proc: the figure to compare on a shared machine),
and how many statements the gathered takes (shared/store/gathered_buckets.py) sent.
``--one-at-a-time`` takes them as ``RateBuckets`` does, a statement a take: the figures before
the gathering.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.scratch import cpu_seconds, database_pids, scratch_database, server_url  # noqa: E402


async def run(args: argparse.Namespace) -> None:
    from shared.store import open_store
    from shared.store.buckets import RateBuckets, Take

    async with scratch_database("sqlite" if args.sqlite else "postgresql", args.server_url, "buckets_bench") as url:
        store = await open_store(url)
        if args.one_at_a_time:  # the takes as RateBuckets makes them, on the same runner
            store.buckets = RateBuckets(store.buckets._db)
        try:
            stop, done = time.monotonic() + args.seconds, [0]

            async def client(offset: int) -> None:
                turn = offset
                while time.monotonic() < stop:
                    seat = turn % args.keys
                    turn += args.clients
                    # 600 a minute per address, 120 per token: never refused at this pace per key
                    takes = [Take(f"a{seat}", 0.1, 59.9), Take(f"t{seat}", 0.5, 59.5)]
                    if await store.buckets.take_all(time.time(), takes) is not None:
                        raise SystemExit("a take was refused: use more --keys")
                    done[0] += 1

            await store.buckets.take_all(time.time(), [Take("warm", 1.0, 1.0), Take("up", 1.0, 1.0)])
            # the backends present now, each from its CPU so far; those the pool opens later from 0
            before = {} if args.sqlite else {pid: cpu_seconds([pid]) for pid in await database_pids(url)}
            own, began = time.process_time(), time.perf_counter()
            await asyncio.gather(*(client(k) for k in range(args.clients)))
            took = time.perf_counter() - began
            own = time.process_time() - own
            theirs = 0.0 if args.sqlite else sum(cpu_seconds([pid]) - before.get(pid, 0.0)
                                                 for pid in await database_pids(url))
            gathered = getattr(store.buckets, "_gathered", None)
            statements = f"; {gathered.batches} statements for {gathered.items} requests" if gathered else ""
            print(f"{args.clients} clients, {done[0]} requests of two takes in {took:.1f}s: "
                  f"{done[0] / took:.0f} a second on {'SQLite' if args.sqlite else 'PostgreSQL'}; "
                  f"CPU a request: this process {own / done[0] * 1e6:.0f} us"
                  + ("" if args.sqlite else f", PostgreSQL {theirs / done[0] * 1e6:.0f} us")
                  + f"{statements}; load average {os.getloadavg()[0]:.1f}")
        finally:
            await store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--keys", type=int, default=1200)
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file instead of PostgreSQL")
    parser.add_argument("--one-at-a-time", action="store_true", help="a statement a take (before the gathering)")
    parser.add_argument("--server-url", default=server_url())
    asyncio.run(run(parser.parse_args()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
