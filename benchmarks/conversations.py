"""What a seat's conversations cost beside its messages (docs/social.md, "Conversations";
decision 0023: conversations are computed from the press stream on each request).

Run: .venv/bin/python benchmarks/conversations.py [--backend sqlite|postgresql]
     [--messages 100,1000,5000] [--repeats 30]

For each count of ``--messages``, one started standard game in a fresh database whose seven
powers wrote that many messages (a third public, the rest to one or two other powers, seeded),
with a read mark for every tenth; then, for France's seat, in-process over HTTP (the app's
own code, no network): ``GET /messages`` (one page of 500, the existing list), ``GET
/conversations`` and ``POST /conversations/{c}/read``, median and 90th percentile of
``--repeats`` sequential requests after one warm-up. The machine is shared: expect noise.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scratch import scratch_database, server_url  # noqa: E402
from tests.utils.http import Table, running_app, settings_for, started_table  # noqa: E402

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


async def write_press(table: Table, count: int, seed: int) -> None:
    """``count`` messages between the seven powers, and a read mark every tenth."""
    rng = random.Random(seed)
    for index in range(count):
        sender = rng.choice(POWERS)
        others = [p for p in POWERS if p != sender]
        to: str | list[str] = "all" if index % 3 == 0 else rng.sample(others, rng.choice((1, 2)))
        sent = await table.client.post(f"/games/{table.game_id}/messages", headers=table.player(sender),
                                       json={"to": to, "text": f"message {index}"})
        assert sent.status_code == 201, sent.text
        if index % 10 == 0 and to != "all":
            reader = to[0]
            listed = await table.client.get(f"/games/{table.game_id}/conversations", headers=table.player(reader))
            first = listed.json()["conversations"][0]["id"]
            await table.client.post(f"/games/{table.game_id}/conversations/{first}/read", json={},
                                    headers=table.player(reader))


async def timed(call: Callable[[], Awaitable[httpx.Response]], repeats: int) -> tuple[float, float]:
    """Median and 90th percentile of ``repeats`` calls after one warm-up, in milliseconds."""
    (await call()).raise_for_status()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        (await call()).raise_for_status()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.9) - 1]


async def measure(backend: str, count: int, repeats: int) -> None:
    async with scratch_database(backend, server_url(), "bench_conversations") as url:
        settings = settings_for(url).model_copy(update={"rate_limits": False})  # the writing is the set-up
        async with running_app(settings) as (_, client):
            table = await started_table(client, {"require_ready": True})
            await write_press(table, count, seed=count)
            game, france = f"/games/{table.game_id}", table.player("FRANCE")
            rows = {
                "GET /messages?limit=500": lambda: client.get(f"{game}/messages", params={"limit": 500},
                                                             headers=france),
                "GET /conversations": lambda: client.get(f"{game}/conversations", headers=france),
                "POST /conversations/all/read": lambda: client.post(f"{game}/conversations/all/read", json={},
                                                                    headers=france),
            }
            for name, call in rows.items():
                median, p90 = await timed(call, repeats)
                print(f"{backend:10} {count:6} messages  {name:30} median {median:7.1f} ms  p90 {p90:7.1f} ms",
                      flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--messages", default="100,1000")
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args()
    for count in (int(c) for c in args.messages.split(",")):
        asyncio.run(measure(args.backend, count, args.repeats))


if __name__ == "__main__":
    main()
