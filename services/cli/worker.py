"""``entente worker``: the clock worker as a process of its own (any number, on PostgreSQL).

SIGTERM or SIGINT: the batch in hand is finished, then the process exits 0. ``--health-port``
answers ``/healthz`` and ``/livez`` (services/cli/health.py, docs/deploy.md).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable

from shared.logs import configure as configure_logs
from shared.settings import Settings

from .common import DATABASE_HELP, EXIT_USAGE, check_schema, command_parser
from .health import add_health_options, run_until_signalled

EXAMPLES = """\
entente worker --database postgresql://entente@db/entente --health-port 8007
entente worker --once      # handle every game due now, then stop"""


def _parser(command: str) -> argparse.ArgumentParser:
    parser = command_parser(command, "Resolve phases whose deadline has passed, and resume pauses that ran out; "
                                     "any number of them on PostgreSQL.", EXAMPLES)
    parser.add_argument("--database", help=DATABASE_HELP)
    parser.add_argument("--poll", type=float, help="seconds between sweeps (ENTENTE_WORKER_POLL_SECONDS, default 1)")
    parser.add_argument("--once", action="store_true", help="handle every game due now, then stop")
    parser.add_argument("--lanes", type=int, help="batches in flight at once on PostgreSQL "
                                                  "(ENTENTE_WORKER_LANES, default 1; SQLite: always 1)")
    parser.add_argument("--batch", type=int, help="games claimed per transaction (ENTENTE_WORKER_BATCH, default 10)")
    parser.add_argument("--nice", type=int, help="lower the process's CPU priority by this much, so that "
                                                 "serving requests on the same host goes first "
                                                 "(ENTENTE_WORKER_NICE, default 5; 0: unchanged)")
    add_health_options(parser)
    return parser


async def _work(command: str, settings: Settings, poll: float, args: argparse.Namespace) -> int:
    from services.adjudication.worker import ClockWorker
    from shared.store import EventStore, open_store

    from .health import worker_metrics

    database_url = settings.database_url

    def clock_worker(store: EventStore, on_beat: Callable[[bool], None] | None = None) -> ClockWorker:
        return ClockWorker(store, poll_seconds=poll, batch=settings.worker_batch, lanes=settings.worker_lanes,
                           on_beat=on_beat)

    if (refused := await check_schema(command, database_url)) is not None:
        return refused
    if settings.worker_nice:  # a start refused above leaves the caller's priority as it was
        os.nice(settings.worker_nice)
    if args.once:
        store = await open_store(database_url)
        try:
            handled = await clock_worker(store).run_once()
        finally:
            await store.close()
        print(f"entente {command}: handled {handled} games", file=sys.stderr)
        return 0

    store = await open_store(database_url)

    async def sweep(stop: asyncio.Event, beat: Callable[[bool], None]) -> None:
        print(f"entente {command}: sweeping every {poll} s", file=sys.stderr, flush=True)
        await clock_worker(store, beat).run(stop)

    try:
        return await run_until_signalled(command, args, sweep, worker_metrics(settings, store))
    finally:
        await store.close()


def run(command: str, argv: list[str]) -> int:
    args = _parser(command).parse_args(argv)
    given = {"database_url": args.database or None, "worker_lanes": args.lanes, "worker_batch": args.batch,
             "worker_nice": args.nice}
    overrides = {name: value for name, value in given.items() if value is not None}
    try:
        settings = Settings(**overrides)
    except ValueError as error:  # pydantic's ValidationError: names the setting and what was wrong
        print(f"entente {command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    configure_logs()
    poll = args.poll if args.poll is not None else settings.worker_poll_seconds
    return asyncio.run(_work(command, settings, poll, args))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(run("worker", sys.argv[1:]))
