"""Load benchmark of the HTTP API on PostgreSQL: a script that prints figures, not a test.

    python benchmarks/api.py [--games 100] [--phases 4] [--replay-phases 60]
                             [--server-url postgresql://postgres@127.0.0.1:5432/postgres]

Creates a fresh database on the PostgreSQL server (ENTENTE_BENCH_POSTGRES_URL, else
ENTENTE_TEST_POSTGRES_URL, else postgresql://postgres@127.0.0.1:5432/test), starts
``entente serve`` on it on a free port of 127.0.0.1, and plays ``--games`` games at once, seven
httpx clients each: create, join, start, then for ``--phases`` phases every power fetches its
possible orders, submits a random pick and the host resolves. Then one game is played alone for
``--replay-phases`` phases and ``entente replay`` verifies it. Prints the order submissions per
second, their median and 99th percentile latency, and the replay time. The server is stopped
and the database dropped at the end, whatever happens.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import AsyncIterator

import asyncpg
import httpx
from sqlalchemy.engine import make_url

DEFAULT_SERVER_URL = "postgresql://postgres@127.0.0.1:5432/test"
HOST = "127.0.0.1"
OPERATOR_TOKEN = "bench-" + secrets.token_hex(16)
STARTUP_SECONDS = 30
REQUEST_TIMEOUT = 120.0
# Forget idle connections before the server does (uvicorn closes them after 5 s): a request on
# a connection the server has just closed would fail with "Server disconnected".
LIMITS = httpx.Limits(keepalive_expiry=1.0)


@dataclass
class Figures:
    submit_latencies: list[float] = field(default_factory=list)
    submit_started: float | None = None
    submit_finished: float = 0.0
    failures: list[str] = field(default_factory=list)

    def timed(self, started: float, finished: float) -> None:
        self.submit_latencies.append(finished - started)
        self.submit_started = started if self.submit_started is None else min(self.submit_started, started)
        self.submit_finished = max(self.submit_finished, finished)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def database_url(server_url: str, name: str) -> str:
    return make_url(server_url).set(database=name).render_as_string(hide_password=False)


async def admin(server_url: str, statement: str) -> None:
    connection = await asyncpg.connect(server_url.replace("postgresql+asyncpg://", "postgresql://"), timeout=10)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@asynccontextmanager
async def fresh_database(server_url: str) -> AsyncIterator[str]:
    name = f"entente_bench_{secrets.token_hex(5)}"
    await admin(server_url, f'CREATE DATABASE "{name}"')
    try:
        yield database_url(server_url, name)
    finally:
        await admin(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@asynccontextmanager
async def running_server(url: str) -> AsyncIterator[str]:
    port = free_port()
    command = [sys.executable, "-c", "from services.cli import main; raise SystemExit(main())",
               "serve", "--host", HOST, "--port", str(port), "--database", url, "--log-level", "warning"]
    environment = {**os.environ, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "production"}
    server = subprocess.Popen(command, env=environment)
    base = f"http://{HOST}:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=5) as probe:
            deadline = time.monotonic() + STARTUP_SECONDS
            while True:
                if server.poll() is not None:
                    raise RuntimeError(f"entente serve exited with status {server.returncode}")
                try:
                    if (await probe.get("/games")).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("entente serve did not answer in time")
                await asyncio.sleep(0.2)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def checked(response: httpx.Response, expected: int = 200) -> dict:
    if response.status_code != expected:
        raise RuntimeError(f"{response.request.method} {response.request.url.path}: "
                           f"{response.status_code} {response.text[:300]}")
    return response.json()


async def seated_game(base: str, name: str) -> tuple[str, str, list[httpx.AsyncClient], list[str]]:
    """A started game: (game id, host token, seven player clients, their tokens)."""
    async with httpx.AsyncClient(base_url=base, timeout=REQUEST_TIMEOUT, limits=LIMITS) as host:
        created = await checked(await host.post("/games", json={"name": name, "variant": "standard"}), 201)
        game_id, host_token = created["id"], created["host_token"]
        clients = [httpx.AsyncClient(base_url=base, timeout=REQUEST_TIMEOUT, limits=LIMITS) for _ in range(7)]
        tokens = []
        for client in clients:  # joins one after another: each takes the game's exclusive lock
            joined = await checked(await client.post(f"/games/{game_id}/players"), 201)
            tokens.append(joined["token"])
        await checked(await host.post(f"/games/{game_id}/start", headers=bearer(host_token)))
    return game_id, host_token, clients, tokens


async def play_phase(base: str, game_id: str, host_token: str, clients: list[httpx.AsyncClient],
                     tokens: list[str], rng: random.Random, figures: Figures) -> str | None:
    """Every power with units picks random possible orders (movement phases) and submits them
    at once; then the host resolves. Returns the next phase, or None when the game is over."""
    async def submit(client: httpx.AsyncClient, token: str) -> None:
        possible = await checked(await client.get(f"/games/{game_id}/possible-orders", headers=bearer(token)))
        if not possible["must_act"] or not possible["phase"].endswith("M"):
            return  # retreats and adjustments are left to the defaults
        orders = [rng.choice(options) for _, options in sorted(possible["orders"].items()) if options]
        if not orders:
            return
        started = time.perf_counter()
        response = await client.put(f"/games/{game_id}/orders", json={"orders": orders}, headers=bearer(token))
        finished = time.perf_counter()
        if response.status_code == 200:
            figures.timed(started, finished)
        else:
            figures.failures.append(f"{response.status_code} {response.text[:200]}")

    summary = await checked(await clients[0].get(f"/games/{game_id}"))
    if summary["status"] != "active":
        return None
    await asyncio.gather(*(submit(client, token) for client, token in zip(clients, tokens)))
    async with httpx.AsyncClient(base_url=base, timeout=REQUEST_TIMEOUT, limits=LIMITS) as host:
        resolved = await checked(await host.post(f"/games/{game_id}/resolve", json={"phase": summary["phase"]},
                                                 headers=bearer(host_token)))
    return None if resolved["winners"] else resolved["next_phase"]


async def play_game(base: str, number: int, phases: int, figures: Figures) -> tuple[str, int]:
    rng = random.Random(number)
    game_id, host_token, clients, tokens = await seated_game(base, f"bench {number}")
    played = 0
    try:
        for _ in range(phases):
            if await play_phase(base, game_id, host_token, clients, tokens, rng, figures) is None:
                break
            played += 1
    finally:
        for client in clients:
            await client.aclose()
    return game_id, played


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


async def benchmark(args: argparse.Namespace) -> int:
    async with fresh_database(args.server_url) as url, running_server(url) as base:
        print(f"server up on {base}, database {make_url(url).database}", flush=True)
        figures = Figures()
        started = time.perf_counter()
        outcomes = await asyncio.gather(*(play_game(base, n, args.phases, figures) for n in range(args.games)),
                                        return_exceptions=True)
        elapsed = time.perf_counter() - started
        results = [outcome for outcome in outcomes if not isinstance(outcome, BaseException)]
        for error in [outcome for outcome in outcomes if isinstance(outcome, BaseException)][:5]:
            print(f"  a game failed: {error!r}")
        latencies = figures.submit_latencies
        window = figures.submit_finished - (figures.submit_started or 0.0)
        print(f"{len(results)} of {args.games} games x 7 players played, "
              f"{sum(p for _, p in results)} phases resolved in {elapsed:.1f}s")
        if latencies:
            print(f"order submissions: {len(latencies)} accepted ({len(figures.failures)} refused), "
                  f"{len(latencies) / window:.1f} per second over the submission window")
            print(f"submission latency: median {statistics.median(latencies) * 1000:.1f} ms, "
                  f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms")
        for failure in figures.failures[:5]:
            print(f"  refused: {failure}")

        replay_figures = Figures()
        game_id, played = await play_game(base, 10_000, args.replay_phases, replay_figures)
        command = [sys.executable, "-c", "from services.cli import main; raise SystemExit(main())",
                   "replay", game_id, "--database", url]
        started = time.perf_counter()
        replay = subprocess.run(command, capture_output=True, text=True, timeout=600)
        replay_seconds = time.perf_counter() - started
        print(f"replay-verify of a {played}-phase game: {replay_seconds:.2f}s including start-up "
              f"(exit {replay.returncode}): {replay.stdout.strip() or replay.stderr.strip()}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--phases", type=int, default=4, help="phases played in each game (bounded)")
    parser.add_argument("--replay-phases", type=int, default=60)
    parser.add_argument("--server-url", default=os.environ.get("ENTENTE_BENCH_POSTGRES_URL")
                        or os.environ.get("ENTENTE_TEST_POSTGRES_URL") or DEFAULT_SERVER_URL)
    args = parser.parse_args()
    if not (1 <= args.games <= 500 and 1 <= args.phases <= 100 and 1 <= args.replay_phases <= 200):
        parser.error("keep --games within 1..500, --phases within 1..100, --replay-phases within 1..200")
    return asyncio.run(benchmark(args))


if __name__ == "__main__":
    raise SystemExit(main())
