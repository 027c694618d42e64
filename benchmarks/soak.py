"""A soak run: worker memory and latency over a few minutes of play, a script that prints
figures, not a test.

    python benchmarks/soak.py [--games 150] [--seconds 120] [--window 15] [--workers 2]
                              [--watchers 0] [--watched-connections 2]
                              [--database postgresql://.../existing | --sqlite]

Starts ``entente serve --workers N`` (benchmarks/api.py's server and database helpers), seats
``--games`` seven-player games and plays them all without a pause: in every phase each power
that must act fetches its possible orders and submits a random pick, so the phase resolves early
and the games grow older phase after phase. One game, the watched one, is played on
``--watched-connections`` connections of its own, so that it grows old as fast as the server
answers it (hundreds of phases in a few minutes, however many games share the others'
connections), and its public view is fetched after each of its phases. Every ``--window``
seconds it prints each worker's resident memory (VmRSS) and the window's submissions and their
worst latency, how old the games in play are (the fewest, median and most phases played: an
ended game is replaced by a new one, which makes the load younger), and the view's size and
latency at the phase that game has reached: memory should
level off once the game-state cache is full (it is bounded in bytes, docs/architecture.md,
"Performance", "Caches, each bounded"), the view should not grow with the phases. Each window
also gives the server's whole process tree's memory, the p99 of its submissions, and the three
ageing figures measured from the first window that ends after ``--warm-up`` seconds: how much
the tree grew, how much the submissions a second fell and how much their p99 rose (printed
again at the end, beside the aims: at most 15 %, 20 % and 50 %).

With ``--watchers N``, N anonymous watchers follow that game's live stream the whole time (from
two processes of benchmarks/stream.py's lean clients), and the end prints how long each new
phase's view took to reach them: from the moment the client had the response of the submission
that resolved the phase (0 when a watcher read it first) to the moment a watcher read it; a
phase not read whose successor was read counts as superseded (the successor resolved within
the stream's coalescing wait, so its view came instead: a game resolving several phases a
second, as in a soak of few games). Their
streams end after 300 s (the clients ask ``timeout=300``), so keep such a run within about 270 s.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for a run from anywhere

from benchmarks.api import (  # noqa: E402
    OPERATOR_TOKEN,
    SERVER_PIDS,
    Connection,
    Pool,
    Timings,
    database,
    milliseconds,
    play_phase,
    running_server,
    seated_game,
)
from benchmarks.scratch import metric_samples  # noqa: E402
from benchmarks.watchers import WatcherCrowd, delivery, figures  # noqa: E402
from tests.utils.processes import children_of, worker_pids  # noqa: E402

GIVE_UP_SECONDS = 30.0  # a view a watcher has not read within this counts as lost


def resident_mib(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:  # gone meanwhile (a picture renderer that finished)
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def cache_mib(base: str) -> str:
    """The caches' estimated memory, summed over the workers, from /metrics (MiB by cache)."""
    found = sorted((labels["cache"], value) for name, labels, value in await metric_samples(base, OPERATOR_TOKEN) or []
                   if name == "entente_cache_estimated_bytes")
    return ", ".join(f"{cache} {value / 2**20:.1f}" for cache, value in found)


def process_tree(root: int) -> list[int]:
    """``root`` and every process below it (the server, its workers, their picture renderers)."""
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children_of(pid))
    return found


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


class Ageing:
    """The ageing figures of a soak (docs/performance.md): from the first window that ends after
    the warm-up to each later one, how much the server's whole process tree grew in memory, how
    much the submissions a second and the requests of every kind a second fell, and how much the
    submissions' p99 rose."""

    def __init__(self, warm_up: float) -> None:
        self.warm_up = warm_up
        self.base: tuple[float, float, float, float] | None = None
        self.last: tuple[float, float, float, float] | None = None

    def add(self, elapsed: float, tree: float, rate: float, p99: float, requests: float) -> None:
        if self.base is None and elapsed >= self.warm_up:
            self.base = (tree, rate, p99, requests)
        self.last = (tree, rate, p99, requests)

    def _changes(self) -> tuple[float, float, float, float] | None:
        if self.base is None or self.last is None:
            return None
        (tree0, rate0, p990, requests0), (tree, rate, p99, requests) = self.base, self.last
        return (tree / tree0 - 1, 1 - rate / rate0 if rate0 else 0.0, p99 / p990 - 1 if p990 else 0.0,
                1 - requests / requests0 if requests0 else 0.0)

    def since_warm_up(self) -> str:
        changes = self._changes()
        if changes is None:
            return " (warming up)"
        grown, fallen, risen, requests_fallen = changes
        return (f" (since the warm-up: memory {grown:+.0%}, rate {-fallen:+.0%}, requests {-requests_fallen:+.0%}, "
                f"p99 {risen:+.0%})")

    def summary(self) -> str:
        changes = self._changes()
        if changes is None or self.base is None or self.last is None:
            return "ageing: no window after the warm-up"
        grown, fallen, risen, requests_fallen = changes
        ends = "; ".join(f"{name}: process tree {tree:.0f} MiB, {requests:.0f} requests/s of every kind, "
                         f"{rate:.0f} submissions/s, p99 {p99 * 1000:.0f} ms"
                         for name, (tree, rate, p99, requests) in (("warm-up end", self.base), ("end", self.last)))
        return (f"{ends}\nageing from the end of the warm-up to the end: the process tree's memory {grown:+.1%} (aim: "
                f"grows at most 15 %), requests of every kind a second {-requests_fallen:+.1%} and submissions a "
                f"second {-fallen:+.1%} (aim: fall at most 20 %), p99 {risen:+.1%} (aim: rises at most 50 %)")


class Watchers:
    """``count`` anonymous watchers of one game's live stream, in two processes of their own."""

    def __init__(self, base: str, game_id: str, count: int) -> None:
        self.crowd = WatcherCrowd(base, game_id, [None] * count, processes=2)
        self.count = count

    async def start(self) -> None:
        seconds, failed = await self.crowd.start()
        print(f"{self.count} watchers connected and shown the view in {seconds:.1f}s ({failed} failed)", flush=True)

    async def stop(self, sent: dict[str, float]) -> None:
        await asyncio.sleep(GIVE_UP_SECONDS if sent else 0)
        logs = await self.crowd.stop()
        latencies, lost = delivery(sent, logs.views, GIVE_UP_SECONDS)
        skipped = superseded(list(sent), logs.views)
        ended = logs.errors.count("stream ended")  # the server ended it: its 300 s were up
        errors = [error for error in logs.errors if error != "stream ended"]
        print(f"view of each new phase to the watchers ({len(sent)} phases x {self.count}): "
              f"{figures(latencies)}; {lost} not read within {GIVE_UP_SECONDS:.0f}s, of which {skipped} superseded "
              f"(a later phase's view read instead); {ended} streams ended by their timeout; "
              f"{len(errors)} watcher errors" + (f", e.g. {errors[:2]}" if errors else ""), flush=True)


def superseded(phases: list[str], views: list[list[tuple[str, float]]]) -> int:
    """(watcher, phase) pairs where the watcher never read that phase's view but read a later
    phase's: a phase that the next one followed within the stream's coalescing wait is not
    sent alone (docs/social.md, "Wake-ups coalesced"), which is not a view lost."""
    count = 0
    for log in views:
        seen = {phase for phase, _ in log}
        later_seen = False
        for phase in reversed(phases):
            if phase in seen:
                later_seen = True
            elif later_seen:
                count += 1
    return count


async def soak(base: str, games: int, seconds: float, window: float, connections: int, watchers: int = 0,
               watched_connections: int = 2, warm_up: float = 30.0) -> None:
    timings = Timings()
    ageing = Ageing(warm_up)
    pool = Pool(base, connections, timings)
    # the watched game's own connections: it ages as fast as the server answers it, not at the
    # pace of one game among thousands sharing ``pool``
    watched_pool = Pool(base, watched_connections, timings)
    views: list[tuple[int, int, float]] = []  # (phase count, bytes, seconds) of the watched game's view
    games_ended = [0]
    ages = [0] * games  # the phases each game in play has played (a replacement starts at 0)
    try:
        tables = await asyncio.gather(*(seated_game(pool, f"soak {n}") for n in range(games)))
        stop = time.monotonic() + seconds
        watched = tables[0]
        watching = Watchers(base, watched.game_id, watchers) if watchers else None
        if watching is not None:
            await watching.start()
        phases_sent: dict[str, float] = {}  # the watched game's new phases: when the client saw each
        host, port = base.removeprefix("http://").split(":")
        view_connection = Connection(host, int(port))

        async def play(index: int) -> None:
            """Play game ``index``; a game that ends (a solo win) gives its place to a new one, so
            that the load stays at ``games`` games in play (the watched game is played to its
            end, then the view is no longer fetched)."""
            rng = random.Random(index)
            played, table = 0, tables[index]
            while time.monotonic() < stop:
                if not await play_phase(watched_pool if table is watched else pool, table, rng):
                    table = await seated_game(pool, f"soak {index} again")
                    games_ended[0] += 1
                    ages[index] = 0
                    continue
                played += 1
                ages[index] += 1
                if table is watched:
                    started = time.monotonic()
                    status, body = await view_connection.request("GET", f"/games/{watched.game_id}/view")
                    if isinstance(body, dict) and body.get("game", {}).get("phase"):
                        phases_sent.setdefault(body["game"]["phase"], started)
                    views.append((played, len(str(body)), time.monotonic() - started))

        async def report() -> None:
            seen = resolved = requested = 0
            begun = window_began = time.monotonic()
            while time.monotonic() < stop:
                await asyncio.sleep(window)
                # the window as it was: reporting takes a while on a busy machine, and the play
                # stops at ``stop``, so the last window may end after it
                span = max(min(time.monotonic(), stop) - window_began, 1e-3)
                window_began = time.monotonic()
                submits = timings.latencies.get("submit", [])[seen:]
                seen += len(submits)
                every = sum(len(values) for values in timings.latencies.values())
                requests, requested = (every - requested) / span, every
                memory = ", ".join(f"{resident_mib(pid):.0f}" for pid in worker_pids(SERVER_PIDS[-1]))
                tree = sum(resident_mib(pid) for pid in process_tree(SERVER_PIDS[-1]))
                elapsed = time.monotonic() - begun
                line = f"t={elapsed:5.0f}s workers MiB [{memory}], process tree {tree:.0f} MiB"
                if submits:
                    rate, p99 = len(submits) / span, percentile(submits, 0.99)
                    line += (f"; {requests:.0f} requests/s, {rate:.0f} submissions/s, p99 {p99 * 1000:.0f} ms, "
                             f"worst {max(submits) * 1000:.0f} ms")
                    # fewer powers act as the games age (eliminated ones sit out): phases a second too
                    line += f", {(timings.resolutions - resolved) / span:.1f} phases/s"
                    resolved = timings.resolutions
                    ageing.add(elapsed, tree, rate, p99, requests)
                    line += ageing.since_warm_up()
                line += (f"; games in play {min(ages)}-{sorted(ages)[len(ages) // 2]}-{max(ages)} phases old "
                         f"(least, median, most), {games_ended[0]} ended and replaced;")
                line += f" caches MiB [{await cache_mib(base)}]"
                if views:
                    phases, size, took = views[-1]
                    line += f"; view of a game at phase {phases}: {size / 1024:.0f} KB, {took * 1000:.1f} ms"
                print(line, flush=True)

        await asyncio.gather(report(), *(play(index) for index in range(games)))
        view_connection.close()
        if watching is not None:
            await watching.stop(phases_sent)
    finally:
        pool.close()
        watched_pool.close()
    print(ageing.summary(), flush=True)
    submits = timings.latencies.get("submit", [])
    if submits:
        print(f"all submissions: {len(submits)}, {milliseconds(submits)}; {len(timings.failures)} failed")
        # the codes, not the messages (which name games and phases); ``wrong_phase`` is the game's
        # own race: a power left only forced removals is not waited for, so the phase may resolve
        # before its submission arrives (docs/api.md)
        codes = Counter(re.sub(r"/games/[^/]+/", "/games/{id}/", f.split(" {")[0]) + " " +
                        (re.findall(r'"code": "([a-z_]+)"', f) or ["?"])[0] for f in timings.failures)
        for reason, count in codes.most_common(5):
            print(f"  {count} x {reason}")
    if len(views) > 10:
        early, late = views[:5], views[-5:]
        print(f"the watched game's view: phases {early[0][0]}-{early[-1][0]} "
              f"{sum(v[2] for v in early) / 5 * 1000:.1f} ms, {sum(v[1] for v in early) / 5 / 1024:.0f} KB; "
              f"phases {late[0][0]}-{late[-1][0]} {sum(v[2] for v in late) / 5 * 1000:.1f} ms, "
              f"{sum(v[1] for v in late) / 5 / 1024:.0f} KB")


async def main_async(args: argparse.Namespace) -> int:
    async with database(args) as url, running_server(url, args.workers, False) as base:
        print(f"server up on {base} ({args.workers} workers), {url}; {args.games} games for {args.seconds:.0f}s",
              flush=True)
        await soak(base, args.games, args.seconds, args.window, args.connections, args.watchers,
                   args.watched_connections, args.warm_up)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--window", type=float, default=15.0)
    parser.add_argument("--warm-up", type=float, default=30.0,
                        help="seconds before the figures the ageing is measured from (the first window ending after)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--watchers", type=int, default=0, help="watchers of one game's live stream (0: none)")
    parser.add_argument("--watched-connections", type=int, default=2,
                        help="connections of the watched game's own players (so that it grows old fast)")
    parser.add_argument("--database", help="an existing PostgreSQL database, wiped first (its public schema dropped)")
    parser.add_argument("--sqlite", action="store_true", help="a fresh SQLite file")
    parser.add_argument("--server-url", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()
    if not (1 <= args.games <= 3000 and 10 <= args.seconds <= 900 and 1 <= args.workers <= 8
            and 0 <= args.watchers <= 2000 and 1 <= args.watched_connections <= 8):
        parser.error("keep --games within 1..3000, --seconds within 10..900, --workers within 1..8, "
                     "--watchers within 0..2000, --watched-connections within 1..8")
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    raise SystemExit(main())
