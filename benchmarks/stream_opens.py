"""What a seat's stream cap held in the store costs a stream's opening and closing: a script that
prints figures, not a test.

    python benchmarks/stream_opens.py [--opens 300] [--rounds 3] [--sqlite]

A fresh database (PostgreSQL: ENTENTE_BENCH_POSTGRES_URL, else ENTENTE_TEST_POSTGRES_URL, else
postgresql://postgres@127.0.0.1:5432/test; ``--sqlite``: a SQLite file) and one ``entente serve``
on it, one started game; then ``--opens`` times one after the other, a seat opens
``GET /games/{id}/stream``, reads its first ``view`` event and closes it. Each round runs once
with the cap per seat on (``ENTENTE_STREAM_MAX_PER_VIEWER=8``: each stream takes a place in the
store's ``stream_leases`` and gives it back, docs/decisions/0024-iam-across-processes.md) and
once with it off (``0``), on and off alternating (the machine may be shared). Printed: the
server's and PostgreSQL's CPU an opening (read from /proc), and the load average.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.api import (  # noqa: E402
    HOST,
    KEEP_ALIVE_SECONDS,
    OPERATOR_TOKEN,
    STARTUP_SECONDS,
    answers,
    entente,
    free_port,
)
from benchmarks.scratch import cpu_seconds, database_pids, scratch_database, server_url  # noqa: E402
from tests.utils.processes import stop  # noqa: E402

SETTINGS = {"ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "production",
            "ENTENTE_RATE_LIMITS": "false", "ENTENTE_STREAM_MAX_PER_ADDRESS": "0"}


async def started_game(client: httpx.AsyncClient) -> tuple[str, str]:
    """A started game (nobody ready: no phase resolves) and one seat's token."""
    created = (await client.post("/games", json={"name": "Opens", "settings": {"require_ready": True}})).json()
    tokens = [(await client.post(f"/games/{created['id']}/players")).json()["token"] for _ in range(7)]
    answer = await client.post(f"/games/{created['id']}/start",
                               headers={"Authorization": f"Bearer {created['host_token']}"})
    answer.raise_for_status()
    return created["id"], tokens[0]


async def open_and_close(client: httpx.AsyncClient, game_id: str, token: str) -> None:
    async with client.stream("GET", f"/games/{game_id}/stream", params={"timeout": 60},
                             headers={"Authorization": f"Bearer {token}"}) as response:
        response.raise_for_status()
        lines = response.aiter_lines()
        while not (await anext(lines)).startswith("event: view"):
            pass


async def one_run(args: argparse.Namespace, cap: int) -> str:
    backend = "sqlite" if args.sqlite else "postgresql"
    async with scratch_database(backend, args.server_url, "entente_stream_opens") as url:
        port = free_port()
        base = f"http://{HOST}:{port}"
        process = subprocess.Popen(
            entente("serve", "--host", HOST, "--port", str(port), "--database", url, "--no-worker",
                    "--log-level", "warning", "--keep-alive", str(KEEP_ALIVE_SECONDS)),
            env={**os.environ, **SETTINGS, "ENTENTE_STREAM_MAX_PER_VIEWER": str(cap)})
        try:
            deadline = time.monotonic() + STARTUP_SECONDS
            while not await answers(base):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("entente serve did not start")
                await asyncio.sleep(0.2)
            async with httpx.AsyncClient(base_url=base, timeout=60) as client:
                game_id, token = await started_game(client)
                await open_and_close(client, game_id, token)  # the first: the hub starts
                database = [] if args.sqlite else await database_pids(url)
                before = {pid: cpu_seconds([pid]) for pid in [process.pid, *database]}
                began = time.monotonic()
                for _ in range(args.opens):
                    await open_and_close(client, game_id, token)
                wall = time.monotonic() - began
            if not args.sqlite:
                database = sorted(set(database) | set(await database_pids(url)))
            server = cpu_seconds([process.pid]) - before[process.pid]
            postgresql = sum(cpu_seconds([pid]) - before.get(pid, 0.0) for pid in database)
        finally:
            stop(process, timeout=15)
    label = f"cap {cap}" + (" (leases)" if cap else " (off)")
    return (f"{label:15} load average {os.getloadavg()[0]:.1f}: {args.opens / wall:.0f} opens a second; CPU an "
            f"opening: server {server / args.opens * 1e6:,.0f} us"
            + ("" if args.sqlite else f", PostgreSQL {postgresql / args.opens * 1e6:,.0f} us"))


async def benchmark(args: argparse.Namespace) -> int:
    print(f"{os.cpu_count()} cores; {'SQLite' if args.sqlite else 'PostgreSQL'}; {args.opens} streams opened "
          f"and closed one after the other, a round each way, {args.rounds} rounds", flush=True)
    for _ in range(args.rounds):
        for cap in (8, 0):
            print("  " + await one_run(args, cap), flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opens", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--server-url", default=server_url())
    return asyncio.run(benchmark(parser.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
