"""``entente notifier``: the notification worker (the outbox's projection and webhook delivery)
as a process of its own; any number may run against one PostgreSQL (docs/social.md).
``python -m services.notifications`` runs the same loop without a health listener.

SIGTERM or SIGINT: the step in hand is finished, then the process exits 0. ``--health-port``
answers ``/healthz`` and ``/livez`` (services/cli/health.py, docs/deploy.md).
"""
from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable

from shared.logs import configure as configure_logs
from shared.settings import Settings, SettingsError

from .common import DATABASE_HELP, check_schema, command_parser
from .health import add_health_options, run_until_signalled

EXAMPLES = """\
entente notifier --database postgresql://entente@db/entente --health-port 8008
entente notifier --once    # plan and deliver what is due now, then stop"""


def _parser(command: str) -> argparse.ArgumentParser:
    parser = command_parser(command, "Plan notifications from the log and deliver them to the seats' webhooks; "
                                     "any number of them on PostgreSQL.", EXAMPLES)
    parser.add_argument("--database", help=DATABASE_HELP)
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between steps (default 1)")
    parser.add_argument("--once", action="store_true", help="plan and deliver what is due now, then stop")
    add_health_options(parser)
    return parser


async def _work(command: str, settings: Settings, args: argparse.Namespace) -> int:
    from services.notifications.delivery import run_worker, step
    from shared.store import open_store, utc_now

    from .health import worker_metrics

    if (refused := await check_schema(command, settings.database_url)) is not None:
        return refused

    from .serve import map_renderer

    if args.once:
        store = await open_store(settings.database_url)
        try:
            report = await step(store, settings, utc_now(), render=map_renderer(store, settings))
        finally:
            await store.close()
        print(f"entente {command}: delivered {report.delivered}, retrying {report.retrying}, dead {report.dead}",
              file=sys.stderr)
        return 0

    store = await open_store(settings.database_url)

    async def deliver(stop: asyncio.Event, beat: Callable[[bool], None]) -> None:
        print(f"entente {command}: delivering every {args.poll} s", file=sys.stderr, flush=True)
        await run_worker(store, settings, stop, interval=args.poll, on_beat=beat, render=map_renderer(store, settings))

    try:
        return await run_until_signalled(command, args, deliver, worker_metrics(settings, store))
    finally:
        await store.close()


def run(command: str, argv: list[str]) -> int:
    args = _parser(command).parse_args(argv)
    if args.poll <= 0:
        print(f"entente {command}: --poll must be positive", file=sys.stderr)
        return 2
    overrides = {"database_url": args.database} if args.database else {}
    try:  # the operator token keys the webhooks' delivery ids (docs/social.md, "Signed deliveries")
        settings = Settings(**overrides).checked()
    except SettingsError as error:
        print(f"entente {command}: {error}", file=sys.stderr)
        return 2
    configure_logs()
    return asyncio.run(_work(command, settings, args))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(run("notifier", sys.argv[1:]))
