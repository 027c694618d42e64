"""The lobby's list of games on a large games table: a script that prints figures, not a test.

    python benchmarks/games_listing.py [--backend postgresql|sqlite] [--games 20000] [--repeats 200]
                                       [--server-url postgresql://...]

Fills a fresh database (PostgreSQL: a database made on the server at ENTENTE_BENCH_POSTGRES_URL,
else ENTENTE_TEST_POSTGRES_URL, else postgresql://postgres@127.0.0.1:5432/test, dropped at the
end; SQLite: a temporary file) with ``--games`` rows in the games table, a tenth of them
active, then times ``list_games(limit=50)`` and ``list_games("active", limit=50)`` (the
newest first, as ``GET /games`` asks), ``--repeats`` times each, and prints the median and
p90 in milliseconds. It uses only the store's public API, so it runs on any version of it.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from shared.store import GameRow, open_store  # noqa: E402

DEFAULT_SERVER_URL = "postgresql://postgres@127.0.0.1:5432/test"


async def fill(url: str, games: int) -> None:
    store = await open_store(url)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    try:
        for first in range(0, games, 1000):
            async with store.transaction() as tx:
                for number in range(first, min(first + 1000, games)):
                    await tx.games.put_game(GameRow(
                        game_id=f"g_{number:08d}", variant="standard", name=f"game {number}",
                        status="active" if number % 10 == 0 else "finished", phase="S1901M", deadline=None,
                        summary={"players": 7}, updated_at=start + timedelta(seconds=number * 7 % games)))
    finally:
        await store.close()


async def measure(url: str, repeats: int) -> dict[str, list[float]]:
    store = await open_store(url)
    timings: dict[str, list[float]] = {"all": [], "active": []}
    try:
        for _ in range(repeats):
            for label, status in (("all", None), ("active", "active")):
                began = time.perf_counter()
                rows = await store.games.list_games(status, limit=50)
                timings[label].append((time.perf_counter() - began) * 1000)
                assert len(rows) == 50
    finally:
        await store.close()
    return timings


async def with_database(server_url: str, run: Callable[[str], Awaitable[None]]) -> None:
    import asyncpg

    name = f"entente_bench_listing_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            await run(urlsplit(server_url)._replace(path=f"/{name}").geturl())
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--server-url", default=os.environ.get("ENTENTE_BENCH_POSTGRES_URL")
                        or os.environ.get("ENTENTE_TEST_POSTGRES_URL") or DEFAULT_SERVER_URL)
    args = parser.parse_args()

    async def run(url: str) -> None:
        await fill(url, args.games)
        timings = await measure(url, args.repeats)
        for label, values in timings.items():
            values.sort()
            print(f"{args.backend} list_games({'' if label == 'all' else 'active, '}limit=50) over {args.games} "
                  f"games: median {statistics.median(values):.2f} ms, p90 {values[int(len(values) * 0.9)]:.2f} ms")

    if args.backend == "sqlite":
        with tempfile.TemporaryDirectory() as directory:
            asyncio.run(run(f"sqlite:///{Path(directory) / 'listing.db'}"))
    else:
        asyncio.run(with_database(args.server_url, run))


if __name__ == "__main__":
    main()
