"""Game creation in a burst against a real `entente serve` with the default rate limits
(docs/operations.md, "Rate limits"): CLIENTS concurrent clients create games for SECONDS, all
from one address, then each from an address of its own (127.0.0.N); how many were created and
how many refused with 429.

    .venv/bin/python benchmarks/create_burst.py [CLIENTS] [SECONDS]

Before the limits: 563 games in 20 s from 16 clients.
"""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))

from tests.cli.test_serve import entente_command, free_port, wait_until_serving  # noqa: E402
from tests.utils.processes import stop  # noqa: E402


async def burst(base_url: str, addresses: list[str], seconds: float) -> Counter[int]:
    statuses: Counter[int] = Counter()
    end = time.monotonic() + seconds

    async def client(address: str) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(base_url=base_url, transport=transport, timeout=30) as http:
            while time.monotonic() < end:
                statuses[(await http.post("/games", json={"name": "Burst"})).status_code] += 1

    await asyncio.gather(*(client(address) for address in addresses))
    return statuses


def run(clients: int, seconds: float) -> None:
    with tempfile.TemporaryDirectory() as directory:
        runs = (("one address", ["127.0.0.1"] * clients),
                ("an address each", [f"127.0.0.{n + 2}" for n in range(clients)]))
        for number, (label, addresses) in enumerate(runs):
            port = free_port()
            base_url = f"http://127.0.0.1:{port}"
            env = {**os.environ, "ENTENTE_OPERATOR_TOKEN": "burst-benchmark-token-0123456789abcdef",
                   "ENTENTE_ENVIRONMENT": "test", "ENTENTE_RATE_LIMITS": "true"}
            process = subprocess.Popen(
                [*entente_command(), "serve", "--port", str(port), "--database",
                 f"sqlite:///{directory}/{number}.db", "--no-worker", "--log-level", "warning"],
                cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            try:
                wait_until_serving(base_url, process)
                statuses = asyncio.run(burst(base_url, addresses, seconds))
                others = sum(count for status, count in statuses.items() if status not in (201, 429))
                print(f"{clients} clients, {label}, {seconds:.0f} s: {statuses[201]} games created, "
                      f"{statuses[429]} refused with 429, {others} other answers")
            finally:
                stop(process)


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 16, float(sys.argv[2]) if len(sys.argv) > 2 else 20.0)
