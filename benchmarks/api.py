"""Load benchmark of the HTTP API on PostgreSQL or SQLite: a script that prints figures, not a test.

    python benchmarks/api.py [--games 100] [--phases 4] [--replay-phases 60]
                             [--connections 8] [--client-processes 2] [--workers 2]
                             [--server-url postgresql://postgres@127.0.0.1:5432/postgres]
                             [--database postgresql://.../existing | --sqlite]

Creates a fresh database on the PostgreSQL server (ENTENTE_BENCH_POSTGRES_URL, else
ENTENTE_TEST_POSTGRES_URL, else postgresql://postgres@127.0.0.1:5432/test), or uses the one
``--database`` names (wiped first: its public schema is dropped), or with ``--sqlite`` a fresh SQLite file in a
temporary folder (the embedded default; one worker, as SQLite has one writer), then starts
``entente serve --workers N`` on it on a free port of 127.0.0.1, and plays ``--games`` games at
once, seven players each: create, join, start; then for ``--phases`` phases every power that
must act fetches its possible orders and submits a random pick (movement and retreats; an
empty list in adjustments). The phase resolves by itself once the last power has submitted
(early resolution): that submission's latency includes the resolution. Then one game is played
alone until ``--replay-phases`` phases are resolved and ``entente replay`` verifies it.

The load client is lean on purpose, so that the figures measure the server: ``--client-processes``
processes, each a small HTTP/1.1 keep-alive client on asyncio streams, with ``--connections``
connections in all. A request waits for a free connection (as behind a proxy that keeps a
bounded pool of upstream connections); its latency is timed from sending it to reading the whole
response. Prints order submissions per second over the submission window, their median and 99th
percentile latency, the other requests' latencies, and the replay time. The server is stopped
and the database dropped at the end, whatever happens.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import secrets
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.scratch import fresh_database, server_url, sqlite_database  # noqa: E402

HOST = "127.0.0.1"
OPERATOR_TOKEN = "bench-" + secrets.token_hex(16)
STARTUP_SECONDS = 90  # a busy shared machine has taken more than 30 s
REQUEST_TIMEOUT = 120.0
KEEP_ALIVE_SECONDS = 120  # the server keeps idle client connections this long


# ----------------------------------------------------------------------------- a lean HTTP client


class Refused(Exception):
    """A request answered with an unexpected status."""


class Connection:
    """One HTTP/1.1 keep-alive connection: JSON in, (status, JSON) out; no chunked bodies."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: Any = None, token: str | None = None,
                      forwarded_for: str | None = None) -> tuple[int, Any]:
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nhost: {self.host}\r\ncontent-length: {len(payload)}\r\n"
        if body is not None:
            head += "content-type: application/json\r\n"
        if token:
            head += f"authorization: Bearer {token}\r\n"
        if forwarded_for:  # the client's address as a trusted proxy names it (running_server's ``limits``)
            head += f"x-forwarded-for: {forwarded_for}\r\n"
        message = head.encode() + b"\r\n" + payload
        for attempt in (1, 2):  # the server may have closed an idle connection: reopen once
            if self.writer is None:
                await self._open()
            assert self.reader is not None and self.writer is not None
            self.writer.write(message)
            status_line = await self.reader.readline()
            if status_line:
                break
            self.close()
            if attempt == 2:
                raise ConnectionResetError(f"{method} {path}: the server closed the connection")
        status = int(status_line.split()[1])
        length, close = 0, False
        reader = self.reader
        assert reader is not None
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                close = True
            elif name == b"transfer-encoding":
                raise RuntimeError(f"{method} {path}: chunked responses are not read by this client")
        data = await reader.readexactly(length) if length else b""
        if close:
            self.close()
        return status, json.loads(data) if data else None


@dataclass
class Timings:
    """Latencies by request kind, and the window in which submissions were made."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    submit_started: float = float("inf")
    submit_finished: float = 0.0
    failures: list[str] = field(default_factory=list)
    resolutions: int = 0
    resubmissions: list[tuple[float, float]] = field(default_factory=list)  # (sent at, latency)

    def add(self, kind: str, started: float, finished: float) -> None:
        self.latencies.setdefault(kind, []).append(finished - started)
        if kind == "resubmit":
            self.resubmissions.append((started, finished - started))
        if kind == "submit":
            self.submit_started = min(self.submit_started, started)
            self.submit_finished = max(self.submit_finished, finished)

    def merge(self, other: Timings) -> None:
        for kind, values in other.latencies.items():
            self.latencies.setdefault(kind, []).extend(values)
        self.submit_started = min(self.submit_started, other.submit_started)
        self.submit_finished = max(self.submit_finished, other.submit_finished)
        self.failures.extend(other.failures)
        self.resolutions += other.resolutions
        self.resubmissions.extend(other.resubmissions)


class Pool:
    """At most ``size`` requests in flight; each timed from send to the end of its response."""

    def __init__(self, base: str, size: int, timings: Timings) -> None:
        host, port = base.removeprefix("http://").split(":")
        self._idle: asyncio.Queue[Connection] = asyncio.Queue()
        for _ in range(size):
            self._idle.put_nowait(Connection(host, int(port)))
        self.timings = timings

    async def call(self, kind: str, method: str, path: str, body: Any = None, token: str | None = None,
                   expected: int = 200, forwarded_for: str | None = None) -> Any:
        connection = await self._idle.get()
        try:
            started = time.monotonic()
            status, answer = await asyncio.wait_for(connection.request(method, path, body, token, forwarded_for),
                                                    REQUEST_TIMEOUT)
            self.timings.add(kind, started, time.monotonic())
        except BaseException:
            connection.close()
            raise
        finally:
            self._idle.put_nowait(connection)
        if status != expected:
            raise Refused(f"{method} {path}: {status} {json.dumps(answer)[:300]}")
        return answer

    def close(self) -> None:
        while not self._idle.empty():
            self._idle.get_nowait().close()


# ----------------------------------------------------------------------------- the players


@dataclass
class Table:
    game_id: str
    host_token: str
    tokens_by_power: dict[str, str]


async def seated_game(pool: Pool, name: str, address: str | None = None) -> Table:
    """A started seven-player game and each power's player token; ``address``: the client's, as
    a trusted proxy names it (one address a game keeps its creation and joins within the
    per-address limits when they are on)."""
    created = await pool.call("setup", "POST", "/games", {"name": name, "variant": "standard"}, expected=201,
                              forwarded_for=address)
    game_id = created["id"]
    codenames = {}
    for _ in range(7):  # joins one after another: each takes the game's exclusive lock
        joined = await pool.call("setup", "POST", f"/games/{game_id}/players", expected=201, forwarded_for=address)
        codenames[joined["codename"]] = joined["token"]
    started = await pool.call("setup", "POST", f"/games/{game_id}/start", token=created["host_token"],
                              forwarded_for=address)
    tokens = {power: codenames[seat["codename"]] for power, seat in started["powers"].items()}
    return Table(game_id, created["host_token"], tokens)


def pick_orders(possible: dict, rng: random.Random) -> list[str]:
    """A random legal order per unit in movement and retreat phases; none in adjustments
    (builds waived, removals by the civil disorder rule)."""
    if possible["phase"].endswith("A"):
        return []
    return [rng.choice(options) for _, options in sorted(possible["orders"].items()) if options]


async def take_turn(pool: Pool, table: Table, power: str, phase: str, rng: random.Random) -> bool:
    """One power's turn: its possible orders, then a random pick; whether the phase resolved."""
    token = table.tokens_by_power[power]
    possible = await pool.call("possible", "GET", f"/games/{table.game_id}/possible-orders", token=token)
    try:
        answer = await pool.call("submit", "PUT", f"/games/{table.game_id}/orders",
                                 {"orders": pick_orders(possible, rng), "phase": phase}, token=token)
    except Refused as refusal:
        pool.timings.failures.append(str(refusal))
        return False
    return bool(answer["resolved"])


async def play_phase(pool: Pool, table: Table, rng: random.Random) -> bool:
    """Every power that must act takes its turn at once; False when the game is over."""
    summary = await pool.call("summary", "GET", f"/games/{table.game_id}")
    if summary["status"] != "active":
        return False
    phase = summary["phase"]
    outcomes = await asyncio.gather(*(take_turn(pool, table, power, phase, rng) for power in summary["must_act"]))
    pool.timings.resolutions += sum(outcomes)
    return True


async def resubmit(pool: Pool, table: Table, seconds: float, rng: random.Random) -> None:
    """Every power that must act but one (so that the phase never resolves early) submits
    random orders again and again for ``seconds``: PUT alone, each one a resubmission."""
    summary = await pool.call("summary", "GET", f"/games/{table.game_id}")
    if summary["status"] != "active":
        return
    phase, powers = summary["phase"], summary["must_act"][1:]
    possible = {power: await pool.call("possible", "GET", f"/games/{table.game_id}/possible-orders",
                                       token=table.tokens_by_power[power]) for power in powers}
    stop = time.monotonic() + seconds

    async def keep_submitting(power: str) -> None:
        while time.monotonic() < stop:
            await pool.call("resubmit", "PUT", f"/games/{table.game_id}/orders",
                            {"orders": pick_orders(possible[power], rng), "phase": phase},
                            token=table.tokens_by_power[power])

    await asyncio.gather(*(keep_submitting(power) for power in powers))


async def play_games(base: str, numbers: list[int], phases: int, connections: int,
                     resubmit_seconds: float = 0.0) -> Timings:
    """Seat every game, play them all at once for ``phases`` phases, then resubmit for
    ``resubmit_seconds``."""
    timings = Timings()
    pool = Pool(base, connections, timings)
    try:
        tables = await asyncio.gather(*(seated_game(pool, f"bench {n}") for n in numbers))

        async def play(table: Table, number: int) -> None:
            rng = random.Random(number)
            for _ in range(phases):
                if not await play_phase(pool, table, rng):
                    break

        outcomes = await asyncio.gather(*(play(t, n) for t, n in zip(tables, numbers, strict=True)),
                                        return_exceptions=True)
        timings.failures.extend(repr(o) for o in outcomes if isinstance(o, BaseException))
        if resubmit_seconds > 0:
            outcomes = await asyncio.gather(*(resubmit(pool, t, resubmit_seconds, random.Random(-n))
                                              for t, n in zip(tables, numbers, strict=True)), return_exceptions=True)
            timings.failures.extend(repr(o) for o in outcomes if isinstance(o, BaseException))
    finally:
        pool.close()
    return timings


def load_process(base: str, numbers: list[int], phases: int, connections: int, resubmit_seconds: float) -> Timings:
    """The body of one load process."""
    return asyncio.run(play_games(base, numbers, phases, connections, resubmit_seconds))


# ----------------------------------------------------------------------------- server and database


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def asyncpg_dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


@asynccontextmanager
async def emptied_database(url: str) -> AsyncIterator[str]:
    """An existing PostgreSQL database, wiped: its ``public`` schema dropped and made again (so
    that the server creates the store's schema afresh, at this code's revision)."""
    connection = await asyncpg.connect(asyncpg_dsn(url), timeout=10)
    try:
        await connection.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public")
    finally:
        await connection.close()
    yield url


def entente(*arguments: str) -> list[str]:
    return [sys.executable, "-c", "from services.cli import main; raise SystemExit(main())", *arguments]


async def answers(base: str) -> bool:
    host, port = base.removeprefix("http://").split(":")
    connection = Connection(host, int(port))
    try:
        status, _ = await connection.request("GET", "/healthz")
        return status == 200
    except OSError:
        return False
    finally:
        connection.close()


# The load comes from one address, as from behind a proxy that limits by address itself
# (docs/operations.md, "Rate limits"): the limits still run, the address is exempt from them, a
# player writes as often as the phases turn over, and a crowd of watchers shares one address
# and a few seats (docs/social.md, "Limits").
LOAD_FROM_ONE_ADDRESS = {"ENTENTE_RATE_LIMIT_EXEMPT": HOST, "ENTENTE_RATE_ORDERS_PER_TOKEN": "0",
                         "ENTENTE_RATE_PRESS_PER_TOKEN": "0", "ENTENTE_RATE_STREAM_PER_TOKEN": "0",
                         "ENTENTE_STREAM_MAX_PER_ADDRESS": "0", "ENTENTE_STREAM_MAX_PER_VIEWER": "0"}
# Every limit on instead (``running_server(limits=True)``): the defaults, behind a proxy on this
# machine that names each client in X-Forwarded-For, as deploy/nginx.conf does (docs/deploy.md)
EVERY_LIMIT_ON = {"ENTENTE_TRUSTED_PROXIES": f"{HOST}/32"}
SERVER_PIDS: list[int] = []  # the running server's process id (its workers are its children)


@asynccontextmanager
async def running_server(url: str, workers: int, plain: bool, limits: bool = False) -> AsyncIterator[str]:
    port = free_port()
    command = entente("serve", "--host", HOST, "--port", str(port), "--database", url,
                      "--log-level", os.environ.get("BENCH_LOG_LEVEL", "warning"),
                      "--workers", str(workers), "--keep-alive", str(KEEP_ALIVE_SECONDS),
                      *(["--loop", "asyncio", "--http", "h11"] if plain else []))
    environment = {**os.environ, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "production",
                   **(EVERY_LIMIT_ON if limits else LOAD_FROM_ONE_ADDRESS)}
    server = subprocess.Popen(command, env=environment)
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not await answers(base):
            if server.poll() is not None:
                raise RuntimeError(f"entente serve exited with status {server.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError("entente serve did not answer in time")
            await asyncio.sleep(0.2)
        await asyncio.sleep(1.0 if workers > 1 else 0.0)  # let every worker process come up
        SERVER_PIDS.append(server.pid)
        yield base
    finally:
        if server.pid in SERVER_PIDS:
            SERVER_PIDS.remove(server.pid)
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


# ----------------------------------------------------------------------------- the figures


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def milliseconds(values: list[float]) -> str:
    return (f"median {statistics.median(values) * 1000:.1f} ms, p99 {percentile(values, 0.99) * 1000:.1f} ms, "
            f"max {max(values) * 1000:.1f} ms")


def report_load(timings: Timings, games: int, elapsed: float) -> None:
    submissions = timings.latencies.get("submit", [])
    print(f"{games} games x 7 players: {timings.resolutions} phases resolved early, in {elapsed:.1f}s "
          f"including setup")
    if submissions:
        window = timings.submit_finished - timings.submit_started
        print(f"order submissions: {len(submissions)} accepted ({len(timings.failures)} failed), "
              f"{len(submissions) / window:.0f} per second over the {window:.1f}s submission window")
        print(f"submission latency: {milliseconds(submissions)}")
    report_resubmissions(timings.resubmissions)
    for kind in ("possible", "summary", "setup"):
        if timings.latencies.get(kind):
            print(f"  {kind} requests: {len(timings.latencies[kind])}, {milliseconds(timings.latencies[kind])}")
    for failure in timings.failures[:5]:
        print(f"  failed: {failure}")


def report_resubmissions(resubmissions: list[tuple[float, float]]) -> None:
    """Throughput and latency of the resubmission window, and each third's p99 (a PUT's cost
    should not grow with the submissions already stored in the phase)."""
    if not resubmissions:
        return
    resubmissions.sort()
    window = resubmissions[-1][0] + resubmissions[-1][1] - resubmissions[0][0]
    latencies = [latency for _, latency in resubmissions]
    print(f"resubmissions (PUT only, no phase resolving): {len(latencies)}, {len(latencies) / window:.0f} per second "
          f"over {window:.1f}s; {milliseconds(latencies)}")
    third = len(latencies) // 3
    parts = [latencies[:third], latencies[third:2 * third], latencies[2 * third:]]
    print("  p99 by third of the window: " + ", ".join(f"{percentile(part, 0.99) * 1000:.1f} ms"
                                                        for part in parts if part))


async def replay_benchmark(base: str, url: str, phases: int) -> None:
    """One game played alone until ``phases`` phases are resolved, then ``entente replay``."""
    pool = Pool(base, 7, Timings())
    played = 0
    try:
        table = await seated_game(pool, "replay")
        rng = random.Random(10_000)
        while played < phases:
            if not await play_phase(pool, table, rng):
                break
            played += 1
    finally:
        pool.close()
    started = time.monotonic()
    replay = subprocess.run(entente("replay", table.game_id, "--database", url),
                            capture_output=True, text=True, timeout=600)
    wall = time.monotonic() - started
    output = replay.stdout.strip() or replay.stderr.strip()
    inside = re.search(r"in ([0-9.]+) ?(ms|s)\b", output)
    if inside:
        value = float(inside.group(1)) * (1 if inside.group(2) == "ms" else 1000)
        print(f"replay-verify of a {played}-phase game: {value:.1f} ms to re-adjudicate and compare "
              f"(the command reports it), {wall:.2f}s for the whole command with start-up and reading the log")
    print(f"  entente replay (exit {replay.returncode}): {output}")


def database(args: argparse.Namespace) -> Any:
    if args.sqlite:
        return sqlite_database()
    if args.database:
        return emptied_database(args.database)
    return fresh_database(args.server_url)


async def benchmark(args: argparse.Namespace) -> int:
    async with database(args) as url, running_server(url, args.workers, args.plain) as base:
        print(f"server up on {base} ({args.workers} worker processes), database {url}; "
              f"{args.client_processes} client processes with {args.connections} connections in all", flush=True)
        shares = [list(range(k, args.games, args.client_processes)) for k in range(args.client_processes)]
        shares = [share for share in shares if share]
        per_process = max(1, args.connections // len(shares))
        started = time.monotonic()
        loop = asyncio.get_running_loop()
        context = multiprocessing.get_context("spawn")
        with context.Pool(len(shares)) as processes:
            def run_share(share: list[int]) -> Timings:
                return processes.apply(load_process, (base, share, args.phases, per_process, args.resubmit_seconds))

            parts = await asyncio.gather(*(loop.run_in_executor(None, run_share, share) for share in shares))
        elapsed = time.monotonic() - started
        timings = Timings()
        for part in parts:
            timings.merge(part)
        report_load(timings, args.games, elapsed)
        await replay_benchmark(base, url, args.replay_phases)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--phases", type=int, default=4, help="phases played in each game (bounded)")
    parser.add_argument("--replay-phases", type=int, default=60)
    parser.add_argument("--connections", type=int, default=8, help="requests in flight at most, in all")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="server worker processes")
    parser.add_argument("--plain", action="store_true",
                        help="serve on asyncio's own loop and h11 even when uvloop and httptools are installed")
    parser.add_argument("--server-url", default=server_url())
    parser.add_argument("--resubmit-seconds", type=float, default=0.0,
                        help="then every power but one per game resubmits orders for this long (PUT throughput)")
    parser.add_argument("--database",
                        help="an existing PostgreSQL database to use, wiped first (its public schema dropped)")
    parser.add_argument("--sqlite", action="store_true", help="a fresh SQLite file (the embedded default)")
    args = parser.parse_args()
    if not (1 <= args.games <= 500 and 1 <= args.phases <= 100 and 1 <= args.replay_phases <= 200):
        parser.error("keep --games within 1..500, --phases within 1..100, --replay-phases within 1..200")
    if not (1 <= args.connections <= 1000 and 1 <= args.client_processes <= 8 and 1 <= args.workers <= 8):
        parser.error("keep --connections within 1..1000, --client-processes within 1..8, --workers within 1..8")
    return asyncio.run(benchmark(args))


if __name__ == "__main__":
    raise SystemExit(main())
