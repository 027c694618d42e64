"""The event store alone, in one process: a script that prints figures, not a test.

    python benchmarks/store.py [--backend postgresql|sqlite] [--games 100] [--transactions 3000]
                               [--concurrency 50] [--repeats 3] [--server-url postgresql://...]

Creates a fresh database (PostgreSQL: on the server at ENTENTE_BENCH_POSTGRES_URL, else
ENTENTE_TEST_POSTGRES_URL, else postgresql://postgres@127.0.0.1:5432/test; SQLite: a file in a
temporary directory) with ``--games`` games of 30 events each, then times two loads, each
``--transactions`` at most ``--concurrency`` at once, ``--repeats`` times:

- a submission as the order intake makes it: a share-locked transaction that reads the game
  stream, the phase's order streams and the games row, then ``append_on_commit`` one event;
- two of the store's reads (a game stream and a games row: ``store.events.read_stream``,
  ``store.games.get_game``), as a view request makes them.

Prints the best round of each: per second, and this process's CPU time per item (the store's
own cost: the database server's work is not in it). It uses only the store's public API, so
it runs on any version of the store since the store was made of its recorders (docs/store.md,
"Recorders"; before, the same calls without ``.events``/``.games``). The database is dropped at
the end, whatever happens.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.scratch import scratch_database, server_url  # noqa: E402
from shared.store import EventStore, GameRow, NewEvent, open_store  # noqa: E402

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


async def seed(store: EventStore, games: list[str]) -> None:
    async with store.transaction() as tx:
        for game_id in games:
            await tx.games.put_game(GameRow(game_id, "standard", game_id, "active", "S1901M", None,
                                            {"powers": list(POWERS)}, datetime.now(UTC)))
            await tx.events.append(f"game-{game_id}",
                                   [NewEvent("Seeded", {"n": n, "pad": "x" * 200}) for n in range(30)], 0)


# one numbered unit of the measured work (a submission, a read)
Work = Callable[[int], Awaitable[None]]


def submission(store: EventStore, games: list[str]) -> Work:
    async def one(number: int) -> None:
        game_id = games[number % len(games)]
        async with store.transaction(game_id, lock="share") as tx:
            await tx.events.read_stream(f"game-{game_id}")
            await tx.events.read_streams(f"orders-{game_id}-S1901M-")
            await tx.games.get_game(game_id)
            power = POWERS[number % len(POWERS)]
            await tx.events.append_on_commit(
                f"orders-{game_id}-S1901M-{power}",
                [NewEvent("OrdersSubmitted", {"power": power, "orders": ["A VIE H"]})], None)
    return one


def reads(store: EventStore, games: list[str]) -> Work:
    async def one(number: int) -> None:
        game_id = games[number % len(games)]
        await store.events.read_stream(f"game-{game_id}")
        await store.games.get_game(game_id)
    return one


async def best_round(work: Work, count: int, concurrency: int, repeats: int) -> tuple[float, float]:
    """(seconds, CPU seconds) of the fastest of ``repeats`` rounds."""
    gate = asyncio.Semaphore(concurrency)

    async def gated(number: int) -> None:
        async with gate:
            await work(number)

    rounds = []
    for _ in range(repeats):
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.gather(*(gated(number) for number in range(count)))
        rounds.append((time.perf_counter() - wall, time.process_time() - cpu))
    return min(rounds)


async def measure(url: str, args: argparse.Namespace) -> None:
    store = await open_store(url)
    try:
        games = [f"g{n}" for n in range(args.games)]
        await seed(store, games)
        for label, work in (("share-locked submission transactions", submission(store, games)),
                            ("read pairs of the store's", reads(store, games))):
            seconds, cpu = await best_round(work, args.transactions, args.concurrency, args.repeats)
            print(f"{label}: {args.transactions / seconds:.0f} per second "
                  f"({args.transactions} in {seconds:.2f}s, {args.concurrency} at once), "
                  f"{cpu / args.transactions * 1e6:.0f} us of this process's CPU each", flush=True)
    finally:
        await store.close()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--transactions", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--server-url", default=server_url())
    args = parser.parse_args()
    async with scratch_database(args.backend, args.server_url, "entente_bench_store") as url:
        await measure(url, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
