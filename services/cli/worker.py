"""``entente worker``: the clock worker as a process of its own (any number, on PostgreSQL)."""
from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from shared.settings import Settings


def _parser(command: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"entente {command}",
        description="Resolve phases whose deadline has passed, and resume pauses that ran out.")
    parser.add_argument("--database", help="store URL (ENTENTE_DATABASE_URL, default sqlite:///./entente.db)")
    parser.add_argument("--poll", type=float, help="seconds between sweeps (ENTENTE_WORKER_POLL_SECONDS, default 1)")
    parser.add_argument("--once", action="store_true", help="handle every game due now, then stop")
    return parser


async def _work(database_url: str, poll: float, once: bool) -> int:
    from services.adjudication.worker import ClockWorker
    from shared.store import open_store

    store = await open_store(database_url)
    try:
        worker = ClockWorker(store, poll_seconds=poll)
        if once:
            handled = await worker.run_once()
            print(f"entente worker: handled {handled} games", file=sys.stderr)
            return 0
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        print(f"entente worker: sweeping every {poll} s", file=sys.stderr, flush=True)
        await worker.run(stop)
        return 0
    finally:
        await store.close()


def run(command: str, argv: list[str]) -> int:
    args = _parser(command).parse_args(argv)
    overrides = {"database_url": args.database} if args.database else {}
    settings = Settings(**overrides)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    poll = args.poll if args.poll is not None else settings.worker_poll_seconds
    return asyncio.run(_work(settings.database_url, poll, args.once))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(run("worker", sys.argv[1:]))
