"""What one anonymous client's reads of the past cost, and what they cost everyone else
(docs/performance.md).

Run: .venv/bin/python benchmarks/past_reads.py [--backend sqlite|postgresql] [--source DIR]
     [--turns 3,100,300] [--repeats 10] [--seconds 15]

Builds, with this checkout's code, one standard game (seven powers ordering seeded random
possible orders) and one Tale of Ekonia game (six states holding) per count of ``--turns``
resolved phases, into a fresh database; then serves that database with ``entente serve``
run from ``--source`` (default: this checkout; a ``git archive`` of another revision gives
its figures on the same games) and prints, as an anonymous client over HTTP:

- the current view, and the view of the game's first phase (``view?phase=``), median and
  90th percentile of ``--repeats`` sequential requests after one warm-up;
- the first phase's ``map.png``: the first request (nothing cached) and the next ones;
- another user's ``GET /games/{id}`` latency (median, p90, worst) for ``--seconds``, alone
  then with 16 anonymous clients fetching ``map.png?phase=`` in a loop, each its own share of
  the past phases of the two longest games (600 pictures at 300 turns: more than the default
  picture cache holds, so that a cycle through them keeps missing it), then alone again
  (the machine is shared: the two unloaded figures show its drift), and the answers those
  clients got (200, 503).

The machine is shared with other work: expect noise; compare medians of runs made together.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.api import free_port  # noqa: E402
from benchmarks.scratch import scratch_database, server_url  # noqa: E402
from services.lobby.service import create_game, join_game, start_game  # noqa: E402
from shared.events import GameSettings  # noqa: E402
from shared.game.intake import submit_orders  # noqa: E402
from shared.game.repository import read_game  # noqa: E402
from shared.game.resolution import resolve_phase  # noqa: E402
from shared.rules.bots.reading import holdings  # noqa: E402
from shared.rules.diplomacy import load_map, position_from_document  # noqa: E402
from shared.store import EventStore, open_store  # noqa: E402
from tests.utils.random_play import random_orders  # noqa: E402

HOST = "127.0.0.1"
OPERATOR_TOKEN = "bench-operator-token-" + "x" * 40
PICTURE_CLIENTS = 16


async def build_game(store: EventStore, variant: str, turns: int, seed: int) -> tuple[str, list[str]]:
    """A game of ``variant`` with ``turns`` resolved phases: its id and its phases' names."""
    players = 6 if variant == "ekonia" else 7
    created = await create_game(store, name=f"{variant} at {turns}", variant=variant,
                                settings=GameSettings(player_count=players))
    game_id = created.state.game_id
    for _ in range(players):
        await join_game(store, game_id)
    state = await start_game(store, game_id)
    player_of = {seat.power: seat.player_id for seat in state.seats}
    rng, game_map = random.Random(seed), load_map("standard")
    phases: list[str] = []
    while len(phases) < turns:
        found = await read_game(store, game_id)
        assert found is not None
        state = found
        assert state is not None and state.position is not None and state.status == "active", "the game ended"
        if variant == "standard":
            centres = holdings(state.position, "centers")
            for power, orders in random_orders(position_from_document(state.position), game_map, rng).items():
                if power in state.must_act and len(centres.get(power, [])) <= 12 and orders:
                    await submit_orders(store, game_id, player_of[power], [str(order) for order in orders])
        phases.append(str(state.phase))
        await resolve_phase(store, game_id, state.phase)
    return game_id, phases


@asynccontextmanager
async def served(url: str, source: Path) -> AsyncIterator[str]:
    """``entente serve`` of ``source``'s code on ``url`` (one process, the clock worker off)."""
    port = free_port()
    command = [sys.executable, "-c", "from services.cli import main; raise SystemExit(main())", "serve",
               "--host", HOST, "--port", str(port), "--database", url, "--log-level", "error"]
    environment = {**os.environ, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "production",
                   "ENTENTE_RUN_WORKER": "false", "PYTHONPATH": str(source)}
    server = subprocess.Popen(command, env=environment, cwd=source)
    base = f"http://{HOST}:{port}"
    try:
        async with httpx.AsyncClient() as client:
            for _ in range(150):
                if server.poll() is not None:
                    raise RuntimeError(f"entente serve exited with status {server.returncode}")
                try:
                    if (await client.get(f"{base}/healthz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.2)
            else:
                raise RuntimeError("entente serve did not answer in time")
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def figures(times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {statistics.median(ordered) * 1000:7.1f} ms  p90 {p90 * 1000:7.1f} ms"


async def timed_get(client: httpx.AsyncClient, url: str, **params: str) -> tuple[float, httpx.Response]:
    started = time.perf_counter()
    response = await client.get(url, params=params)
    return time.perf_counter() - started, response


async def repeated(client: httpx.AsyncClient, url: str, repeats: int, **params: str) -> list[float]:
    times = []
    for _ in range(repeats):
        elapsed, response = await timed_get(client, url, **params)
        assert response.status_code == 200, (url, params, response.status_code, response.text[:200])
        times.append(elapsed)
    return times


async def costs(client: httpx.AsyncClient, base: str, games: dict[tuple[str, int], tuple[str, list[str]]],
                repeats: int) -> None:
    print(f"{'game':<18} {'request':<30} figures")
    for (variant, turns), (game_id, phases) in games.items():
        url, first = f"{base}/games/{game_id}", phases[0]
        label = f"{variant} turn {turns}"
        await client.get(f"{url}/view")
        print(f"{label:<18} {'view (current)':<30} {figures(await repeated(client, f'{url}/view', repeats))}")
        await client.get(f"{url}/view", params={"phase": first})
        print(f"{label:<18} {'view?phase=' + first:<30} "
              f"{figures(await repeated(client, f'{url}/view', repeats, phase=first))}")
        elapsed, response = await timed_get(client, f"{url}/map.png", phase=first)
        assert response.status_code == 200, response.text[:200]
        print(f"{label:<18} {'map.png?phase=' + first + ' first':<30} {elapsed * 1000:7.1f} ms")
        print(f"{label:<18} {'map.png?phase=' + first + ' again':<30} "
              f"{figures(await repeated(client, f'{url}/map.png', repeats, phase=first))}")


async def other_user(base: str, game_id: str, seconds: float) -> list[float]:
    """Another user's ``GET /games/{id}``, five a second for ``seconds``: each one's latency."""
    times: list[float] = []
    async with httpx.AsyncClient(timeout=60) as client:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            elapsed, response = await timed_get(client, f"{base}/games/{game_id}")
            assert response.status_code == 200
            times.append(elapsed)
            await asyncio.sleep(max(0.0, 0.2 - elapsed))
    return times


async def picture_client(base: str, pictures: list[tuple[str, str]], stop: asyncio.Event,
                         answers: Counter[int]) -> None:
    """One anonymous client fetching past pictures (game, phase) in a loop, as fast as they
    come (after a 503, as soon as its Retry-After says)."""
    async with httpx.AsyncClient(timeout=120) as client:
        for game_id, phase in pictures:
            if stop.is_set():
                return
            response = await client.get(f"{base}/games/{game_id}/map.png", params={"phase": phase})
            answers[response.status_code] += 1
            if response.status_code == 503:
                await asyncio.sleep(float(response.headers.get("retry-after", "1")))


async def under_load(base: str, games: dict[tuple[str, int], tuple[str, list[str]]], seconds: float) -> None:
    (_, _), (target, _) = next(iter(games.items()))
    longest = max(turns for _, turns in games)
    pictures = [(game_id, phase) for (_, turns), (game_id, phases) in games.items() if turns == longest
                for phase in phases]
    alone = await other_user(base, target, seconds)
    stop, answers = asyncio.Event(), Counter[int]()
    shares = [pictures[index::PICTURE_CLIENTS] for index in range(PICTURE_CLIENTS)]
    clients = [asyncio.create_task(picture_client(base, share * 50, stop, answers)) for share in shares]
    await asyncio.sleep(1.0)
    loaded = await other_user(base, target, seconds)
    stop.set()
    await asyncio.gather(*clients, return_exceptions=True)
    after = await other_user(base, target, seconds)  # the machine is shared: unloaded once more
    print(f"another user's GET /games/{{id}} alone:            {figures(alone)}  worst {max(alone) * 1000:7.1f} ms")
    print(f"... with {PICTURE_CLIENTS} anonymous picture clients:      {figures(loaded)}  "
          f"worst {max(loaded) * 1000:7.1f} ms")
    print(f"... alone again:                                 {figures(after)}  worst {max(after) * 1000:7.1f} ms")
    print(f"... the picture clients' answers: {dict(sorted(answers.items()))}")


async def benchmark(args: argparse.Namespace) -> None:
    turn_counts = [int(part) for part in args.turns.split(",")]
    async with scratch_database(args.backend, server_url(), "visperf33_bench") as url:
        store = await open_store(url)
        try:
            started = time.perf_counter()
            games = {(variant, turns): await build_game(store, variant, turns, seed=turns)
                     for variant in ("standard", "ekonia") for turns in turn_counts}
            print(f"built {len(games)} games on {args.backend} in {time.perf_counter() - started:.0f} s; "
                  f"serving {args.source}")
        finally:
            await store.close()
        async with served(url, args.source) as base:
            async with httpx.AsyncClient(timeout=120) as client:
                await costs(client, base, games, args.repeats)
            await under_load(base, games, args.seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--source", type=Path, default=ROOT)
    parser.add_argument("--turns", default="3,100,300")
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    args.source = args.source.resolve()
    asyncio.run(benchmark(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
