"""``entente serve``: every service in one process under uvicorn (or in ``--workers``
processes, each a whole app with its own clock and notification workers: both are safe to run
several at once, see docs/hosting.md; each process listens on its own socket,
services/cli/workers.py); ``--service NAME`` serves one service's app alone, as
the deployments do (docs/deploy.md).

SIGTERM or SIGINT: uvicorn stops gracefully (it stops accepting, the requests in flight
finish, live streams get ``closed: shutting_down`` at once, the in-process workers finish what they
hold, the lifespan closes the store), then the process exits 0. Whatever still runs after
``--graceful-timeout`` seconds is cancelled.

Slow clients: a request's headers must arrive within ENTENTE_HEADER_TIMEOUT_SECONDS and its body
within ENTENTE_BODY_TIMEOUT_SECONDS after them (else 408), at most ENTENTE_MAX_CONNECTIONS
connections are served at once and ENTENTE_MAX_CONNECTIONS_PER_ADDRESS from one address
(services/cli/slow_clients.py).

Logs: one JSON line per request on stderr, or plain text on a terminal (shared/logs.py);
uvicorn's own access log is off. Under ``--workers N`` the processes' metrics are added up
through a directory of their own (``PROMETHEUS_MULTIPROC_DIR``, made here unless set, removed
at the end; shared/metrics.py).
"""
from __future__ import annotations

import argparse
import importlib
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any

from shared.settings import Settings, SettingsError
from shared.store import is_memory_database

from .common import DATABASE_HELP, EXIT_USAGE, check_schema, command_parser

EXAMPLES = """\
entente serve                                   # every service, ./entente.db, http://127.0.0.1:8000
entente serve --workers 4 --database postgresql://entente@db/entente --host 0.0.0.0
entente serve --service lobby --port 8001 --no-worker"""

SERVICES = ("lobby", "adjudication", "visibility", "accounts", "press", "notifications")

if TYPE_CHECKING:  # the app's modules load when it is served, not when the command starts
    import asyncio

    from fastapi import FastAPI

# Fixed options of uvicorn: no X-Forwarded-For trusted (the connection's own address is the one
# that ENTENTE_METRICS_ALLOW checks: a header a client sends through a proxy proves nothing),
# no access log (the request middleware logs each request once, without its query string).
UVICORN_OPTIONS: dict[str, Any] = {"proxy_headers": False, "access_log": False}

BackgroundTask = Callable[["FastAPI", "asyncio.Event"], Coroutine[Any, Any, None]]


def _parser(command: str) -> argparse.ArgumentParser:
    parser = command_parser(command, "Run every service in one process (with the clock and notification workers), "
                                     "or one service alone. A fresh database is created; an older one is refused "
                                     "until `entente migrate`.", EXAMPLES)
    parser.add_argument("--service", choices=SERVICES,
                        help="serve this service's app alone (services.NAME.api), without in-process workers")
    parser.add_argument("--host", help="address to listen on (ENTENTE_HOST, default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to listen on (ENTENTE_PORT, default 8000)")
    parser.add_argument("--database", help=DATABASE_HELP)
    parser.add_argument("--log-level", default=os.environ.get("ENTENTE_LOG_LEVEL", "info").lower(),
                        choices=["critical", "error", "warning", "info", "debug"])
    parser.add_argument("--log-format", choices=["auto", "json", "text"],
                        default=os.environ.get("ENTENTE_LOG_FORMAT", "auto").lower(),
                        help="JSON lines, or text for a terminal (ENTENTE_LOG_FORMAT; auto: text on a terminal)")
    parser.add_argument("--graceful-timeout", type=float, default=25.0, metavar="SECONDS",
                        help="on SIGTERM, how long requests in flight may take before they are cancelled (default 25)")
    parser.add_argument("--no-worker", action="store_true",
                        help="do not run the clock worker in this process (ENTENTE_RUN_WORKER=false)")
    parser.add_argument("--workers", type=int, default=1,
                        help="server processes sharing the port (default 1; not with an in-memory SQLite store)")
    parser.add_argument("--keep-alive", type=int, default=5, metavar="SECONDS",
                        help="how long an idle client connection is kept open (default 5)")
    parser.add_argument("--loop", choices=["auto", "asyncio", "uvloop"], default="auto",
                        help="event loop (auto: uvloop when installed)")
    parser.add_argument("--http", choices=["auto", "h11", "httptools"], default="auto",
                        help="HTTP parser (auto: httptools when installed)")
    return parser


def run(command: str, argv: list[str]) -> int:
    args = _parser(command).parse_args(argv)
    overrides = {k: v for k, v in {"host": args.host, "port": args.port,
                                   "database_url": args.database}.items() if v is not None}
    if args.no_worker or args.service:
        overrides["run_worker"] = False
    try:
        settings = Settings(**overrides).checked()
        if not 1 <= args.workers <= 64 or args.keep_alive < 1 or args.graceful_timeout <= 0:
            raise ValueError("--workers must be from 1 to 64, --keep-alive at least 1 second and "
                             "--graceful-timeout positive")
        if args.workers > 1 and is_memory_database(settings.database_url):
            raise ValueError("an in-memory SQLite store lives in one process: use --workers 1")
    except (SettingsError, ValueError) as error:
        print(f"entente {command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    if not is_memory_database(settings.database_url):
        import asyncio

        if (refused := asyncio.run(check_schema(command, settings.database_url))) is not None:
            return refused
    import uvicorn

    # said once the port accepts connections and the app has started, not before (docs/hosting.md, "Starting")
    announcement = (f"entente: serving {args.service or 'every service'} on http://{settings.host}:{settings.port}"
                    f" with {_redacted(settings.database_url)}"
                    + (f" in {args.workers} processes" if args.workers > 1 else ""))
    from shared.logs import logging_config

    from .slow_clients import (
        BODY_TIMEOUT_VARIABLE,
        HEADER_TIMEOUT_VARIABLE,
        MAX_CONNECTIONS_VARIABLE,
        PER_ADDRESS_VARIABLE,
        TRUSTED_PROXIES_VARIABLE,
        protocol_for,
    )

    # the timeouts and the connection caps (docs/hosting.md, "Slow clients"), read by the
    # protocol of every process from the environment
    os.environ.update({HEADER_TIMEOUT_VARIABLE: str(settings.header_timeout_seconds),
                       BODY_TIMEOUT_VARIABLE: str(settings.body_timeout_seconds),
                       MAX_CONNECTIONS_VARIABLE: str(settings.max_connections),
                       PER_ADDRESS_VARIABLE: str(settings.max_connections_per_address),
                       TRUSTED_PROXIES_VARIABLE: settings.trusted_proxies})
    options = {"host": settings.host, "port": settings.port, "log_level": args.log_level, "lifespan": "on",
               "timeout_keep_alive": args.keep_alive, "loop": args.loop, "http": protocol_for(args.http),
               "log_config": logging_config(args.log_level, args.log_format),
               "timeout_graceful_shutdown": args.graceful_timeout, **UVICORN_OPTIONS}
    _exit_cleanly_on_signals()
    if args.workers == 1:
        from .workers import STARTUP_FAILURE, AnnouncingServer

        app = service_app(args.service, settings) if args.service else served_app(settings)
        server = AnnouncingServer(uvicorn.Config(app, **options),
                                  lambda: print(announcement, file=sys.stderr, flush=True))
        server.run()
        return 0 if server.started else STARTUP_FAILURE
    # each worker process builds its app from the environment: hand it these settings there
    # (a generated development operator token included, so that every process has the same)
    os.environ.update({"ENTENTE_DATABASE_URL": settings.database_url,
                       "ENTENTE_OPERATOR_TOKEN": settings.operator_secret(),
                       "ENTENTE_RUN_WORKER": "true" if settings.run_worker else "false"})
    if args.service:
        os.environ["ENTENTE_SERVED_SERVICE"] = args.service
    factory = "services.cli.serve:served_service_app" if args.service else "services.cli.serve:served_app"
    own_directory = None
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # the processes' metrics, added up at each scrape
        own_directory = tempfile.mkdtemp(prefix="entente-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = own_directory
    from .workers import Supervisor, listening_sockets

    try:
        try:
            sockets = listening_sockets(settings.host, settings.port, args.workers)
        except OSError as error:
            print(f"entente {command}: cannot listen on {settings.host}:{settings.port}: {error}", file=sys.stderr)
            return 1
        return Supervisor({"app": factory, "factory": True, **options}, sockets, args.graceful_timeout,
                          announcement).run()
    finally:
        if own_directory is not None:
            shutil.rmtree(own_directory, ignore_errors=True)


def _exit_cleanly_on_signals() -> None:
    """After its graceful shutdown uvicorn raises the signal that stopped it again, with the
    handler that was there before it started: make that handler end the process with 0 (a
    stop asked for and carried out is a success; it also ends a start-up interrupted early)."""
    def stopped(signum: int, frame: object) -> None:
        raise SystemExit(0)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stopped)


def service_app(name: str, settings: Settings) -> FastAPI:
    """One service's app alone (``services.NAME.api.create_app``) with these settings. Its
    ``/openapi.json`` is the whole API's document, as ``entente serve`` gives it (made at the
    first request for it), so the proxy's public address serves every route's."""
    from shared.http.openapi import serve_document

    app = importlib.import_module(f"services.{name}.api").create_app(settings)
    serve_document(app, lambda: whole_document(settings))
    return with_tuned_collector(app, settings.collector_thresholds())


def whole_document(settings: Settings) -> dict[str, Any]:
    """The OpenAPI document of every service together (the combined app's, never started)."""
    from services.app import create_app

    return create_app(settings).openapi()


def served_service_app() -> FastAPI:
    """``service_app`` as a uvicorn factory for ``--workers``: the service named by
    ``ENTENTE_SERVED_SERVICE``, settings from ENTENTE_*."""
    return service_app(os.environ["ENTENTE_SERVED_SERVICE"], Settings().checked())


def served_app(settings: Settings | None = None) -> FastAPI:
    """The combined app with its in-process workers (a uvicorn factory: settings from ENTENTE_*)."""
    from services.app import create_app

    settings = settings or Settings().checked()
    app = create_app(settings)
    if settings.run_worker:
        with_clock_worker(app, settings.worker_poll_seconds)
        with_notification_worker(app, settings)
    return with_tuned_collector(app, settings.collector_thresholds())


def with_tuned_collector(app: FastAPI, thresholds: tuple[int, int, int] | None) -> FastAPI:
    """Once the app has started, move everything alive into the collector's permanent
    generation (``gc.freeze``: the modules, the maps, the store) and collect less often
    (``thresholds``); both undone when it stops. docs/hosting.md, "The garbage collector",
    has the measurements. ``None``: Python's own collector settings, untouched."""
    if thresholds is None:
        return app
    import gc

    @asynccontextmanager
    async def tuned(running: FastAPI) -> AsyncIterator[None]:
        before = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(*thresholds)
        try:
            yield
        finally:
            gc.set_threshold(*before)
            gc.unfreeze()

    return inside_lifespan(app, tuned)


def inside_lifespan(app: FastAPI, around: Callable[[FastAPI], AbstractAsyncContextManager[None]]) -> FastAPI:
    """Enter ``around(running_app)`` once the app's own lifespan (the store) is up, and leave it
    before that goes down."""
    serve_app = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(running: FastAPI) -> AsyncIterator[Any]:
        async with serve_app(running) as state, around(running):
            yield state

    app.router.lifespan_context = lifespan
    return app


def with_background_task(app: FastAPI, run: BackgroundTask) -> FastAPI:
    """Run ``run(running_app, stop)`` as a task beside the app for its whole life: started once
    the app's own lifespan (the store) is up, told to stop and awaited before it goes down."""
    import asyncio

    @asynccontextmanager
    async def running_task(running: FastAPI) -> AsyncIterator[None]:
        stop = asyncio.Event()
        task = asyncio.create_task(run(running, stop))
        try:
            yield
        finally:
            stop.set()
            await task

    return inside_lifespan(app, running_task)


def with_clock_worker(app: FastAPI, poll_seconds: float) -> FastAPI:
    """Run a clock worker beside the app, on the app's store and clock, for its whole life."""
    from services.adjudication.worker import ClockWorker
    from shared.clock import SYSTEM_CLOCK

    def clock_worker(running: FastAPI, stop: asyncio.Event) -> Coroutine[Any, Any, None]:
        clock = getattr(running.state, "clock", None) or SYSTEM_CLOCK
        return ClockWorker(running.state.store, clock, poll_seconds=poll_seconds).run(stop)

    return with_background_task(app, clock_worker)


def with_notification_worker(app: FastAPI, settings: Settings) -> FastAPI:
    """Deliver webhook notifications from the outbox beside the app, for its whole life (a
    failing webhook never holds up the game: delivery runs on its own task)."""
    from services.notifications.delivery import run_worker

    return with_background_task(app, lambda running, stop: run_worker(running.state.store, running.state.settings,
                                                                      stop, render=map_renderer(running.state.store,
                                                                                              running.state.settings)))


def map_renderer(store: Any, settings: Settings) -> Any:
    """The pictures notifications carry, drawn by the visibility service's maps, remembered and
    in its render queue (the composition root joins the two services; neither imports the other)."""
    from functools import partial

    from services.visibility.maps.attachments import notification_map

    return partial(notification_map, store, settings)


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
