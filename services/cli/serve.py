"""``entente serve``: the three services in one process under uvicorn."""
from __future__ import annotations

import argparse
import sys

from shared.settings import Settings, SettingsError


def _parser(command: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"entente {command}",
                                     description="Run lobby, adjudication and visibility in one process.")
    parser.add_argument("--host", help="address to listen on (ENTENTE_HOST, default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to listen on (ENTENTE_PORT, default 8000)")
    parser.add_argument("--database", help="store URL (ENTENTE_DATABASE_URL, default sqlite:///./entente.db)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    parser.add_argument("--no-worker", action="store_true",
                        help="do not run the clock worker in this process (ENTENTE_RUN_WORKER=false)")
    return parser


def run(command: str, argv: list[str]) -> int:
    args = _parser(command).parse_args(argv)
    overrides = {k: v for k, v in {"host": args.host, "port": args.port,
                                   "database_url": args.database}.items() if v is not None}
    if args.no_worker:
        overrides["run_worker"] = False
    try:
        settings = Settings(**overrides).checked()
    except (SettingsError, ValueError) as error:
        print(f"entente {command}: {error}", file=sys.stderr)
        return 2
    import uvicorn

    from services.app import create_app

    print(f"entente: serving on http://{settings.host}:{settings.port} with {_redacted(settings.database_url)}",
          file=sys.stderr, flush=True)
    app = create_app(settings)
    if settings.run_worker:
        with_clock_worker(app, settings.worker_poll_seconds)
        with_notification_worker(app, settings)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level=args.log_level,
                lifespan="on")
    return 0


def with_clock_worker(app, poll_seconds: float):  # type: ignore[no-untyped-def]
    """Run a clock worker beside the app, on the app's store and clock, for its whole life."""
    import asyncio
    from contextlib import asynccontextmanager

    from services.lobby.worker import ClockWorker
    from shared.clock import SYSTEM_CLOCK

    serve_app = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(running):  # type: ignore[no-untyped-def]
        async with serve_app(running) as state:
            clock = getattr(running.state, "clock", None) or SYSTEM_CLOCK
            stop = asyncio.Event()
            task = asyncio.create_task(ClockWorker(running.state.store, clock, poll_seconds=poll_seconds).run(stop))
            try:
                yield state
            finally:
                stop.set()
                await task

    app.router.lifespan_context = lifespan
    return app


def with_notification_worker(app, settings: Settings):  # type: ignore[no-untyped-def]
    """Deliver webhook notifications from the outbox beside the app, for its whole life (a
    failing webhook never holds up the game: delivery runs on its own task)."""
    import asyncio
    from contextlib import asynccontextmanager

    from services.notifications.delivery import run_worker

    serve_app = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(running):  # type: ignore[no-untyped-def]
        async with serve_app(running) as state:
            stop = asyncio.Event()
            task = asyncio.create_task(run_worker(running.state.store, running.state.settings, stop))
            try:
                yield state
            finally:
                stop.set()
                await task

    app.router.lifespan_context = lifespan
    return app


def _redacted(url: str) -> str:
    """The URL without a password."""
    scheme, sep, rest = url.partition("://")
    if "@" not in rest:
        return url
    credentials, _, host = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}{sep}{user}:***@{host}" if ":" in credentials else url


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(run("serve", sys.argv[1:]))
