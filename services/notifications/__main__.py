"""``python -m services.notifications [--database URL]``: the notification worker (projection and
webhook delivery) until SIGTERM or SIGINT (the step in hand is finished; exit status 0). Any
number may run against one PostgreSQL. ``entente notifier`` runs the same loop with a health
listener, as the deployments do (docs/deploy.md)."""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal

from shared.settings import Settings
from shared.store import open_store

from .delivery import run_worker


async def main(database_url: str | None) -> None:
    settings = Settings().checked()  # the operator token keys the delivery ids (signing.py)
    if database_url:
        settings = settings.model_copy(update={"database_url": database_url})
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):  # before anything else: a stop is never missed
        with contextlib.suppress(NotImplementedError):
            asyncio.get_running_loop().add_signal_handler(signum, stop.set)
    store = await open_store(settings.database_url)
    try:
        await run_worker(store, settings, stop)
    finally:
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m services.notifications", description=__doc__)
    parser.add_argument("--database", default=None, help="database URL (default: ENTENTE_DATABASE_URL)")
    asyncio.run(main(parser.parse_args().database))
