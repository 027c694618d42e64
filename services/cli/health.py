"""Health of the worker processes (docs/deploy.md), and ``entente health URL``, the probe that
container health checks run.

A worker has no HTTP API, so it reports on a tiny listener of its own (``--health-port``),
served on the worker's own event loop: a loop that is blocked answers nothing, and the probe
times out. Two paths:

- ``/healthz`` (readiness, the compose health check): 200 while the last *successful* sweep
  ended less than ``stale_seconds`` ago; 503 before the first one and once they stop
  succeeding (the database is away, say).
- ``/livez`` (liveness): 200 while the loop still ends sweeps, successful or not, within
  ``stale_seconds`` (or the process started less than that ago); 503 once it is stuck. A
  worker whose database is down is therefore not ready but is not restarted for it either.

Both answer the same JSON: the worker's name, the times of its last sweep and last success,
and how many sweeps failed in a row. ``/metrics`` answers the worker's Prometheus metrics
(shared/metrics.py) to the metrics token, the operator token or an address in
ENTENTE_METRICS_ALLOW, as the services' own ``/metrics`` does.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from shared.auth import bearer_token_of
from shared.errors import Unauthorized
from shared.rules.variants import engine_build

from .common import command_parser

if TYPE_CHECKING:
    from shared.settings import Settings
    from shared.store import EventStore

# (bearer token or None, the peer's address) -> the metrics' text, or None when refused
MetricsSource = Callable[[str | None, str | None], Awaitable[bytes | None]]

STALE_SECONDS = 60.0
REQUEST_TIMEOUT = 5.0
MAX_REQUEST_BYTES = 8192


class Heartbeat:
    """What a worker's loop last did: ``beat(True)`` after each sweep (or batch) that worked,
    ``beat(False)`` after one that failed."""

    def __init__(self, name: str, stale_seconds: float = STALE_SECONDS,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.engine, _ = engine_build()  # the rules engine's build (docs/operations.md, "Which engine runs")
        self.stale_seconds = stale_seconds
        self._monotonic = monotonic
        self.started = monotonic()
        self.last_beat: float | None = None
        self.last_success: float | None = None
        self.last_beat_at: datetime | None = None
        self.last_success_at: datetime | None = None
        self.sweeps = 0
        self.failures_in_a_row = 0

    def beat(self, ok: bool) -> None:
        now = self._monotonic()
        self.last_beat, self.last_beat_at = now, datetime.now(UTC)
        self.sweeps += 1
        if ok:
            self.last_success, self.last_success_at = now, self.last_beat_at
            self.failures_in_a_row = 0
        else:
            self.failures_in_a_row += 1

    def _age(self, mark: float | None) -> float | None:
        return None if mark is None else round(self._monotonic() - mark, 3)

    def ready(self) -> bool:
        age = self._age(self.last_success)
        return age is not None and age < self.stale_seconds

    def alive(self) -> bool:
        age = self._age(self.last_beat if self.last_beat is not None else self.started)
        return age is not None and age < self.stale_seconds

    def report(self) -> dict[str, object]:
        status = "ok" if self.ready() else ("starting" if self.last_beat is None else
                                            "failing" if self.alive() else "stuck")
        return {"worker": self.name, "status": status, "engine": self.engine, "stale_after_seconds": self.stale_seconds,
                "last_sweep_at": self.last_beat_at.isoformat() if self.last_beat_at else None,
                "last_success_at": self.last_success_at.isoformat() if self.last_success_at else None,
                "seconds_since_success": self._age(self.last_success), "sweeps": self.sweeps,
                "failures_in_a_row": self.failures_in_a_row}


def _response(status: int, body: dict[str, object] | bytes, content_type: str = "application/json") -> bytes:
    reason = {200: "OK", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 400: "Bad Request",
              503: "Service Unavailable"}[status]
    payload = body if isinstance(body, bytes) else json.dumps(body).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: {content_type}\r\n"
            f"content-length: {len(payload)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n")
    return head.encode() + payload


def answer(heartbeat: Heartbeat, request_line: str) -> bytes:
    """The whole HTTP response to one request line (``GET /healthz HTTP/1.1``)."""
    parts = request_line.split()
    if len(parts) != 3 or not parts[2].startswith("HTTP/"):
        return _response(400, {"error": "bad request"})
    method, target = parts[0], parts[1].split("?", 1)[0]
    if target not in ("/healthz", "/livez"):
        return _response(404, {"error": "not found; try /healthz or /livez"})
    if method not in ("GET", "HEAD"):
        return _response(405, {"error": "only GET"})
    healthy = heartbeat.ready() if target == "/healthz" else heartbeat.alive()
    response = _response(200 if healthy else 503, heartbeat.report())
    return response.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n" if method == "HEAD" else response


def bearer_of(head: bytes) -> str | None:
    """The bearer token of a request head's Authorization header."""
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "authorization":
            try:
                return bearer_token_of(value)
            except Unauthorized:
                return None
    return None


async def answer_metrics(source: MetricsSource, head: bytes, peer: str | None) -> bytes:
    parts = head.split(b"\r\n", 1)[0].decode("latin-1").split()
    if parts[0] not in ("GET", "HEAD"):
        return _response(405, {"error": "only GET"})
    text = await source(bearer_of(head), peer)
    if text is None:
        return _response(403, {"error": "the metrics are for the metrics token (ENTENTE_METRICS_TOKEN), the "
                                        "operator token, or the addresses in ENTENTE_METRICS_ALLOW"})
    from shared.metrics import CONTENT_TYPE

    return _response(200, text, CONTENT_TYPE)


async def serve_health(heartbeat: Heartbeat, host: str, port: int,
                       metrics: MetricsSource | None = None) -> asyncio.AbstractServer:
    """Start answering health probes (and ``/metrics``, given a source) on host:port (on the
    running loop); close it when done."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), REQUEST_TIMEOUT)
            if len(head) <= MAX_REQUEST_BYTES:
                line = head.split(b"\r\n", 1)[0].decode("latin-1")
                target = line.split()[1].split("?", 1)[0] if len(line.split()) == 3 else ""
                if target == "/metrics" and metrics is not None:
                    peer = writer.get_extra_info("peername")
                    writer.write(await answer_metrics(metrics, head, peer[0] if peer else None))
                else:
                    writer.write(answer(heartbeat, line))
                await writer.drain()
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            pass
        finally:
            writer.close()

    return await asyncio.start_server(handle, host, port, limit=MAX_REQUEST_BYTES)


def add_health_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--health-port", type=int,
                        help="answer /healthz, /livez and /metrics on this port (default: no listener)")
    parser.add_argument("--health-host", default="127.0.0.1", help="address of the health listener (default 127.0.0.1)")
    parser.add_argument("--health-stale", type=float, default=STALE_SECONDS, metavar="SECONDS",
                        help=f"unhealthy after this long without a sweep (default {STALE_SECONDS:g})")


def worker_metrics(settings: Settings, store: EventStore) -> MetricsSource:
    """A worker's ``/metrics``: its own counters, and the database's gauges read at the scrape."""
    import logging

    from shared import metrics
    from shared.auth import hash_token
    from shared.store import utc_now

    secret = settings.operator_secret()
    operator_hash = hash_token(secret) if secret else None
    networks = settings.metrics_networks()
    metrics_hash = settings.metrics_token_hash()

    async def render(token: str | None, peer: str | None) -> bytes | None:
        if not metrics.may_read(token, peer, operator_hash, networks, metrics_hash):
            return None
        try:
            await metrics.refresh_from_store(store, utc_now())
        except Exception:  # the database away: the counters still answer
            logging.getLogger("entente.metrics").warning("cannot read the database's gauges", exc_info=True)
        metrics.refresh_caches(force=True)
        return metrics.exposition()

    return render


async def run_until_signalled(name: str, args: argparse.Namespace,
                              work: Callable[[asyncio.Event, Callable[[bool], None]], Awaitable[None]],
                              metrics: MetricsSource | None = None) -> int:
    """Run a worker's loop, ``work(stop, beat)``, until SIGTERM or SIGINT sets ``stop`` (the
    loop then finishes what it has in hand and returns), with its health listener when
    ``--health-port`` is given; 0 once it has stopped cleanly."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):  # first, so that no signal finds the default handler
        loop.add_signal_handler(signum, stop.set)
    heartbeat = Heartbeat(name, args.health_stale)
    server = None
    if args.health_port is not None:
        server = await serve_health(heartbeat, args.health_host, args.health_port, metrics)
        print(f"entente {name}: health on http://{args.health_host}:{args.health_port}/healthz and /livez"
              + (", metrics on /metrics" if metrics else ""), file=sys.stderr, flush=True)
    try:
        await work(stop, heartbeat.beat)
    finally:
        if server is not None:
            server.close()
            await server.wait_closed()
    print(f"entente {name}: stopped", file=sys.stderr, flush=True)
    return 0


def _parser(command: str) -> argparse.ArgumentParser:
    parser = command_parser(command, "Probe a health URL (for container health checks): exit 0 when it answers "
                                     "2xx, 1 when it does not.", """\
entente health http://127.0.0.1:8001/healthz
entente health http://127.0.0.1:8007/healthz --timeout 2""")
    parser.add_argument("url", help="for example http://127.0.0.1:8007/healthz")
    parser.add_argument("--timeout", type=float, default=REQUEST_TIMEOUT, help="seconds (default 5)")
    return parser


def run(command: str, argv: list[str]) -> int:
    """``entente health URL``: exit 0 when the URL answers 2xx within the timeout, else 1."""
    args = _parser(command).parse_args(argv)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy
    try:
        with opener.open(args.url, timeout=args.timeout) as response:
            print(response.read().decode(errors="replace"))
            return 0
    except urllib.error.HTTPError as error:
        print(f"entente {command}: {args.url} answered {error.code}: {error.read().decode(errors='replace')}",
              file=sys.stderr)
    except (urllib.error.URLError, OSError) as error:
        print(f"entente {command}: {args.url} did not answer: {error}", file=sys.stderr)
    return 1
