"""The notification projection over a log of busy games: a script that prints figures, not a test.

    python benchmarks/notification_projection.py [--backend postgresql|sqlite] [--games 10]
                                                 [--submissions 10000] [--repeats 3]

Creates a fresh database (PostgreSQL: on the server at ENTENTE_BENCH_POSTGRES_URL, else
ENTENTE_TEST_POSTGRES_URL, else postgresql://postgres@127.0.0.1:5432/test; SQLite: a file in a
temporary directory) with ``--games`` started seven-player games (through the lobby service)
and ``--submissions`` order submissions in their first phase (through the adjudication
service, as ``PUT /orders`` makes them): a log that is mostly order events, as a busy server's
is. Then runs the projection over the whole log (``project_all``, what each notification step
does first) ``--repeats`` times, from the start each time (its position set back, the planned
rows removed), and prints the best: events a second, and this process's CPU per event. The
database is dropped at the end, whatever happens.

``--projectors N`` (N > 1) then races N projectors over the same log, each with a store of its
own (as N worker processes have), each stepping as a notification worker does: ``project_all``,
then a pause (``--pause``, a second by default), until one of them returns with the projection
at the log's head. It prints how long that took, and the seconds each projector spent inside its
calls, each call holding a pooled connection: over that time, how many connections the
projection kept busy on average; two projectors that take turns on the projection's row lock
keep two, one working and one waiting (docs/performance.md, 2026-12-06, "The notification
projection: one at a time, tried and not kept").
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.scratch import scratch_database, server_url  # noqa: E402
from services.lobby.service import create_game, join_game, start_game  # noqa: E402
from services.notifications import outbox  # noqa: E402
from shared.events import GameSettings  # noqa: E402
from shared.game.cached import caches_of  # noqa: E402
from shared.game.intake import submit_orders, variant_of  # noqa: E402
from shared.store import EventStore, open_store  # noqa: E402

WARNING = timedelta(minutes=60)


async def busy_log(store: EventStore, games: int, submissions: int) -> int:
    """Started games and their powers' resubmissions; the number of events in the log."""
    seats = []
    for number in range(games):
        created = await create_game(store, name=f"busy {number}", variant="standard", settings=GameSettings())
        game_id = created.state.game_id
        for _ in range(7):
            await join_game(store, game_id)
        state = await start_game(store, game_id)
        for seat in state.seats[1:]:  # one power never submits: no phase resolves
            power = seat.powers[0]
            assert state.position is not None
            options = variant_of(state).possible_orders(state.position, power)
            orders = [choices[0] for _, choices in sorted(options.items()) if choices]
            seats.append((game_id, seat.player_id, orders))
    for number in range(submissions):
        game_id, player_id, orders = seats[number % len(seats)]
        await submit_orders(store, game_id, player_id, orders)
    return len(await store.events.read_all(limit=10_000_000))


RESET = ["DELETE FROM notification_outbox",
         f"UPDATE projection_positions SET position = 0 WHERE name = '{outbox.PROJECTION}'"]


async def reset(url: str) -> None:
    """The projection back at the start, nothing planned (plain SQL: the store moves no
    projection back)."""
    if url.startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(url.split(":///", 1)[1]) as connection:
            for statement in RESET:
                connection.execute(statement)
        return
    import asyncpg

    connection = await asyncpg.connect(url, timeout=10)
    try:
        for statement in RESET:
            await connection.execute(statement)
    finally:
        await connection.close()


async def measure(url: str, args: argparse.Namespace) -> None:
    store = await open_store(url)
    try:
        events = await busy_log(store, args.games, args.submissions)
        rounds = []
        for _ in range(args.repeats):
            await reset(url)
            caches_of(store).notification_games.clear()  # every round starts cold
            cpu, wall = time.process_time(), time.perf_counter()
            projected = await outbox.project_all(store, WARNING)
            rounds.append((time.perf_counter() - wall, time.process_time() - cpu, projected))
        seconds, cpu, projected = min(rounds)
        print(f"{events} events ({args.submissions} order submissions in {args.games} games): projected "
              f"{projected} in {seconds:.2f}s, {projected / seconds:,.0f} events a second, "
              f"{cpu / projected * 1e6:.1f} us of this process's CPU each (best of {args.repeats})", flush=True)
    finally:
        await store.close()


async def race(url: str, args: argparse.Namespace) -> None:
    """``--projectors`` projectors stepping over the log at once: time to the head, time held idle."""
    stores = [await open_store(url) for _ in range(args.projectors)]
    try:
        head = await stores[0].events.head()
        await reset(url)
        inside = [0.0] * len(stores)  # seconds inside project_all(), a connection held
        reached: list[float] = []  # when a call returned with the projection at the head
        began = time.perf_counter()

        async def projector(number: int) -> None:
            store = stores[number]
            while not reached:
                called = time.perf_counter()
                await outbox.project_all(store, WARNING, args.batch)
                inside[number] += time.perf_counter() - called
                if await store.projections.projection_position(outbox.PROJECTION) >= head:
                    reached.append(time.perf_counter() - began)
                    return
                await asyncio.sleep(args.pause)

        await asyncio.gather(*(projector(n) for n in range(len(stores))))
        seconds = reached[0]
        print(f"{len(stores)} projectors, batches of {args.batch}: the head reached in {seconds:.2f}s; "
              f"inside their calls {' + '.join(f'{t:.2f}' for t in inside)} s: "
              f"{sum(inside) / seconds:.2f} connections busy on average till then", flush=True)
    finally:
        for store in stores:
            await store.close()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--submissions", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--server-url", default=server_url())
    parser.add_argument("--projectors", type=int, default=1, help="race this many projectors after the runs")
    parser.add_argument("--batch", type=int, default=500, help="events a projector reads a step (the race)")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between a projector's steps (the race)")
    args = parser.parse_args()
    async with scratch_database(args.backend, args.server_url, "entente_bench_projection") as url:
        await measure(url, args)
        if args.projectors > 1:
            await race(url, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
