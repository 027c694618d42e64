"""Following the log on PostgreSQL: reads of the log per wake-up and wake-up latency, for a
``LogTail`` (``store.tail``, one waiter kept registered) beside a fresh ``wait_for_events`` per
wake-up followed by a second read after the settling delay (how the stream hub's tailer
followed the log before ``LogTail``). A script that prints figures, not a test.

Another task commits one event every ``--interval`` seconds (in streams of other games, as a
busy server's other games would) for ``--seconds``; each reader follows the log with the
same settling delay and counts its reads of the log and how long after each commit it
returned it. docs/store.md, "Following the log".
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.scratch import fresh_database, server_url  # noqa: E402
from shared.store import EventStore, NewEvent, RecordedEvent, open_store  # noqa: E402

Follow = Callable[[EventStore, float, dict[str, float]], Coroutine[Any, Any, tuple[int, list[float]]]]


def latencies(records: list[RecordedEvent], committed: dict[str, float], now: float) -> list[float]:
    return [now - committed[record.data["key"]] for record in records if record.data["key"] in committed]


def last(records: list[RecordedEvent]) -> bool:
    return any(record.data.get("last") for record in records)


async def with_log_tail(store: EventStore, settle: float, committed: dict[str, float]) -> tuple[int, list[float]]:
    """One tail for the whole run; its ``next`` settles before its one read."""
    seen: list[float] = []
    async with store.tail(await store.events.head()) as tail:
        while True:
            records = await tail.next(2.0, settle=settle)
            seen += latencies(records, committed, time.monotonic())
            if last(records):
                return tail.reads, seen


async def with_fresh_waits(store: EventStore, settle: float, committed: dict[str, float]) -> tuple[int, list[float]]:
    """A fresh wait per wake-up (``wait_for_events``: a tail of its own), then the settling
    delay and a second read for what committed meanwhile."""
    seen: list[float] = []
    position, reads = await store.events.head(), 0
    while True:
        async with store.tail(position) as tail:  # what ``store.wait_for_events(position, 2.0)`` does
            records = await tail.next(2.0)
            reads += tail.reads
        if records and settle > 0:
            await asyncio.sleep(settle)
            records += await store.events.read_all(records[-1].position, 1000 - len(records))
            reads += 1
        if records:
            position = records[-1].position
        seen += latencies(records, committed, time.monotonic())
        if last(records):
            return reads, seen


async def commit_steadily(store: EventStore, interval: float, seconds: float, committed: dict[str, float]) -> int:
    commits = round(seconds / interval)
    await asyncio.sleep(0.5)  # the reader is waiting
    started = time.monotonic()
    for number in range(commits):
        await asyncio.sleep(max(0.0, started + number * interval - time.monotonic()))
        key = f"k{number}"
        async with store.transaction() as tx:
            await tx.events.append(f"game-other{number % 20}", [NewEvent("Committed", {"key": key,
                                                                                 "last": number == commits - 1})], None)
        committed[key] = time.monotonic()
    return commits


async def measure(url: str, name: str, follow: Follow, args: argparse.Namespace) -> None:
    store = await open_store(url)
    try:
        committed: dict[str, float] = {}
        reader = asyncio.create_task(follow(store, args.settle, committed))
        commits = await commit_steadily(store, args.interval, args.seconds, committed)
        reads, seen = await reader
    finally:
        await store.close()
    ordered = sorted(seen)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000 if ordered else float("nan")
    median = statistics.median(ordered) * 1000 if ordered else float("nan")
    print(f"  {name:<34} {reads:>5} reads for {commits} commits ({reads / args.seconds:.1f}/s); "
          f"commit to reader: median {median:.0f} ms, p99 {p99:.0f} ms; {commits - len(seen)} missed", flush=True)


async def benchmark(args: argparse.Namespace) -> None:
    print(f"benchmarks/tail.py: one commit every {args.interval * 1000:g} ms for {args.seconds:g} s, "
          f"settling {args.settle * 1000:g} ms, PostgreSQL, {args.rounds} rounds each, alternated", flush=True)
    async with fresh_database(args.server_url, "entente_bench_tail") as url:
        for _ in range(args.rounds):
            await measure(url, "LogTail (store.tail)", with_log_tail, args)
            await measure(url, "wait_for_events per wake-up + read", with_fresh_waits, args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between commits")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--settle", type=float, default=0.05, help="the settling (coalescing) delay")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--server-url", default=server_url())
    asyncio.run(benchmark(parser.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
