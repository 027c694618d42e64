"""Watchers of the live stream on PostgreSQL: a script that prints figures, not a test.

    python benchmarks/stream.py [--watchers 100,500,1000] [--resolutions 10] [--interval 2]
                                [--cycles 3] [--other-games 20] [--other-rate 20] [--workers 2]
                                [--client-processes 2] [--source DIR]
                                [--server-url postgresql://postgres@127.0.0.1:5432/postgres]

For each number of watchers N: a fresh database on the PostgreSQL server (ENTENTE_BENCH_POSTGRES_URL,
else ENTENTE_TEST_POSTGRES_URL, else postgresql://postgres@127.0.0.1:5432/test) and
``entente serve --workers W`` on it on a free port of 127.0.0.1; one watched game and
``--other-games`` other games, all started (seven players each, phases resolved by the operator
only). Then:

1. the busy game: ``--resolutions`` times, every ``--interval`` seconds, each of its powers
   submits orders, a public message is sent, and the phase is resolved, while PUTs of orders
   in the other games go on at ``--other-rate`` a second: nobody watching, the baseline;
2. N watchers open ``GET /games/{id}/stream`` of the watched game (one in seven as a player of
   the game, so that eight different views are watched, the others anonymously), from
   ``--client-processes`` processes of lean asyncio clients;
3. the same rounds and the same PUTs again, watched; then the watchers leave.

The three steps are repeated ``--cycles`` times, so that unwatched and watched windows take
turns and a busy spell of the machine falls on both kinds alike (one pair of 20-second windows
gave medians x0.81 to x1.24 of each other from run to run, whatever the code).

Delivery latency: from the moment the resolution request is sent (or the message's) to the moment
a watcher has read the ``view`` event of the next phase (or the message), over every watcher
and every resolution; an event not read within ``--give-up`` seconds counts as lost. The other
games' PUT latency under load is printed beside its baseline: the ratio of the medians of all
cycles, and each cycle's own. ``--source DIR`` serves the code
of another checkout (for example the same benchmark against an older commit: ``git archive
COMMIT | tar -x -C DIR``). The server is stopped and the database dropped at the end.

The machine may be shared: the figures are only as quiet as it is; repeat a run when they vary.
On a new virtual machine whose host backs its memory on first touch, the first watched window
pays for pages the machine never used before (docs/performance.md, 2026-12-06, night, "The first
watched window waits for the machine's memory").
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.api import (  # noqa: E402
    LOAD_FROM_ONE_ADDRESS,
    Connection,
    Refused,
    answers,
    free_port,
    pick_orders,
)
from benchmarks.scratch import fresh_database, metric_samples, server_url  # noqa: E402
from benchmarks.watchers import WatcherCrowd, delivery, figures  # noqa: E402

HOST = "127.0.0.1"
OPERATOR_TOKEN = "bench-" + secrets.token_hex(16)
STARTUP_SECONDS = 30
REQUEST_TIMEOUT = 60.0


# ----------------------------------------------------------------------------- a lean HTTP client


class Pool:
    """At most ``size`` requests in flight, each on a keep-alive connection."""

    def __init__(self, base: str, size: int) -> None:
        host, port = base.removeprefix("http://").split(":")
        self._idle: asyncio.Queue[Connection] = asyncio.Queue()
        for _ in range(size):
            self._idle.put_nowait(Connection(host, int(port)))

    async def call(self, method: str, path: str, body: Any = None, token: str | None = None,
                   expected: int = 200, timed: list[float] | None = None) -> Any:
        """The answer; with ``timed``, the latency from sending the request on a connection to
        reading the whole answer is appended there (the wait for a free connection is not)."""
        connection = await self._idle.get()
        try:
            started = time.monotonic()
            status, answer = await asyncio.wait_for(connection.request(method, path, body, token), REQUEST_TIMEOUT)
            if timed is not None and status == expected:
                timed.append(time.monotonic() - started)
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


TAILER_COUNTERS = ("entente_stream_log_reads_total", "entente_stream_deliveries_total")


async def tailer_counters(base: str) -> tuple[float, float] | None:
    """The live streams' tailers' reads of the log and deliveries so far, added up over the
    server's processes (its /metrics); None from a server that does not count them."""
    found = {name: value for name, _, value in await metric_samples(base, OPERATOR_TOKEN) or []
             if name in TAILER_COUNTERS}
    if len(found) < len(TAILER_COUNTERS):
        return None
    return found[TAILER_COUNTERS[0]], found[TAILER_COUNTERS[1]]


# ----------------------------------------------------------------------------- games


@dataclass
class Table:
    game_id: str
    tokens_by_power: dict[str, str]
    possible: dict[str, list[str]] = field(default_factory=dict)  # POWER -> one legal order set


async def started_game(pool: Pool, name: str) -> Table:
    """A started seven-player game whose phases resolve only when the operator says so."""
    created = await pool.call("POST", "/games", {"name": name, "variant": "standard",
                                                 "settings": {"require_ready": True}}, expected=201)
    game_id = created["id"]
    codenames = {}
    for _ in range(7):
        joined = await pool.call("POST", f"/games/{game_id}/players", expected=201)
        codenames[joined["codename"]] = joined["token"]
    started = await pool.call("POST", f"/games/{game_id}/start", token=created["host_token"])
    return Table(game_id, {power: codenames[seat["codename"]] for power, seat in started["powers"].items()})


async def submit_random(pool: Pool, table: Table, power: str, rng: random.Random) -> None:
    token = table.tokens_by_power[power]
    possible = await pool.call("GET", f"/games/{table.game_id}/possible-orders", token=token)
    await pool.call("PUT", f"/games/{table.game_id}/orders", {"orders": pick_orders(possible, rng)}, token=token)


async def prepare_other_games(pool: Pool, tables: list[Table]) -> None:
    """Each power's possible orders, fetched once (these games never leave their first phase)."""
    rng = random.Random(7)
    for table in tables:
        for power, token in table.tokens_by_power.items():
            possible = await pool.call("GET", f"/games/{table.game_id}/possible-orders", token=token)
            table.possible[power] = pick_orders(possible, rng)


async def other_puts(pool: Pool, tables: list[Table], rate: float, stop: asyncio.Event,
                     latencies: list[float], failures: list[str]) -> None:
    """PUTs of orders in the other games at ``rate`` a second, each timed, until ``stop``."""
    rng = random.Random(11)
    loop = asyncio.get_running_loop()
    in_flight: set[asyncio.Task] = set()

    async def one() -> None:
        table = rng.choice(tables)
        power = rng.choice(sorted(table.tokens_by_power))
        try:
            await pool.call("PUT", f"/games/{table.game_id}/orders", {"orders": table.possible[power]},
                            token=table.tokens_by_power[power], timed=latencies)
        except Exception as error:  # counted, not fatal: the figures say how many failed
            failures.append(repr(error)[:200])

    next_at = loop.time()
    while not stop.is_set():
        task = asyncio.create_task(one())
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)
        next_at += 1.0 / rate
        await asyncio.sleep(max(0.0, next_at - loop.time()))
    await asyncio.gather(*in_flight, return_exceptions=True)


# ----------------------------------------------------------------------------- server and database


@asynccontextmanager
async def running_server(url: str, workers: int, source: str | None) -> AsyncIterator[str]:
    port = free_port()
    command = [sys.executable, "-c", "from services.cli import main; raise SystemExit(main())", "serve",
               "--host", HOST, "--port", str(port), "--database", url, "--workers", str(workers),
               "--log-level", os.environ.get("BENCH_LOG_LEVEL", "warning"), "--keep-alive", "120"]
    environment = {**os.environ, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "production",
                   **LOAD_FROM_ONE_ADDRESS}
    if source:
        environment["PYTHONPATH"] = os.path.abspath(source)
    # a session of its own, so that its worker processes stop with it (os.killpg below)
    server = subprocess.Popen(command, env=environment, cwd=os.path.abspath(source) if source else None,
                              start_new_session=True)
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
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:  # streams still open keep a graceful shutdown waiting
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


# ----------------------------------------------------------------------------- one run


async def play_rounds(pool: Pool, watched: Table, rounds: int, interval: float, rng: random.Random,
                      phases_sent: dict[str, float], messages_sent: dict[str, float]) -> float:
    """The busy game: each round every power that must act submits orders, a public message is
    sent and the phase resolved, every ``interval`` seconds; when each message and each
    resolution was sent go into the two dictionaries. Returns the seconds the rounds took."""
    loop = asyncio.get_running_loop()
    powers = sorted(watched.tokens_by_power)
    started = loop.time()
    for number in range(rounds):
        round_started = loop.time()
        summary = await pool.call("GET", f"/games/{watched.game_id}")
        if summary["status"] != "active":
            break
        phase = summary["phase"]
        await asyncio.gather(*(submit_random(pool, watched, power, rng) for power in summary["must_act"]))
        text = f"{phase} round {number}"
        messages_sent[text] = time.monotonic()
        # a power that must act is still in the game (an eliminated one may not send press)
        senders = sorted(summary["must_act"]) or powers
        await pool.call("POST", f"/games/{watched.game_id}/messages", {"to": "all", "text": text},
                        token=watched.tokens_by_power[senders[number % len(senders)]], expected=201)
        sent_at = time.monotonic()
        resolved = await pool.call("POST", f"/games/{watched.game_id}/resolve", {"phase": phase},
                                   token=OPERATOR_TOKEN)
        phases_sent[resolved["next_phase"]] = sent_at
        await asyncio.sleep(max(0.0, round_started + interval - loop.time()))
    return loop.time() - started


async def timed_rounds(pool: Pool, puts: Pool, watched: Table, others: list[Table], args: argparse.Namespace,
                       rng: random.Random, latencies: list[float], failures: list[str],
                       phases_sent: dict[str, float], messages_sent: dict[str, float]) -> float:
    """The busy game's rounds while the other games' PUTs go on, each PUT timed into ``latencies``."""
    stop = asyncio.Event()
    putting = asyncio.create_task(other_puts(puts, others, args.other_rate, stop, latencies, failures))
    try:
        return await play_rounds(pool, watched, args.resolutions, args.interval, rng, phases_sent, messages_sent)
    finally:
        stop.set()
        await putting


async def run_once(args: argparse.Namespace, watchers: int) -> None:
    """``--cycles`` times: the rounds unwatched (the baseline), then the same rounds with the
    watchers connected, so that both kinds of window sample the machine's busy and quiet spells
    alike; the ratio is of all loaded PUTs' median to all baseline ones', with each cycle's beside it."""
    baseline: list[float] = []
    loaded: list[float] = []
    ratios: list[float] = []
    failures: list[str] = []
    view_latency: list[float] = []
    message_latency: list[float] = []
    views_lost = messages_lost = rounds = 0
    rounds_took = 0.0
    watch_errors: list[str] = []
    tailer_reads = tailer_deliveries = 0.0
    tailer_counted = True
    async with (fresh_database(args.server_url, "entente_bench_streams") as url,
                running_server(url, args.workers, args.source) as base):
        pool = Pool(base, 8)  # the watched game's players and the operator
        puts = Pool(base, 8)  # the other games' PUTs
        try:
            watched = await started_game(pool, "watched")
            others = [await started_game(pool, f"other {n}") for n in range(args.other_games)]
            await prepare_other_games(pool, others)
            powers = sorted(watched.tokens_by_power)
            tokens: list[str | None] = [watched.tokens_by_power[powers[(k // 7) % 7]] if k % 7 == 0 else None
                                        for k in range(watchers)]
            rng = random.Random(2)
            for cycle in range(1, args.cycles + 1):
                unloaded_here: list[float] = []
                await timed_rounds(pool, puts, watched, others, args, rng, unloaded_here, failures, {}, {})
                crowd = WatcherCrowd(base, watched.game_id, tokens, args.client_processes, args.nice)
                try:
                    seconds, connect_errors = await crowd.start()
                    print(f"  cycle {cycle}: {watchers} watchers connected and shown the view in {seconds:.1f}s"
                          f" ({connect_errors} failed)", flush=True)
                    loaded_here: list[float] = []
                    phases_sent: dict[str, float] = {}
                    messages_sent: dict[str, float] = {}
                    counted_before = await tailer_counters(base)
                    took = await timed_rounds(pool, puts, watched, others, args, rng, loaded_here, failures,
                                              phases_sent, messages_sent)
                    counted_after = await tailer_counters(base)
                    rounds_took += took
                    if counted_before is not None and counted_after is not None:
                        tailer_reads += counted_after[0] - counted_before[0]
                        tailer_deliveries += counted_after[1] - counted_before[1]
                    else:
                        tailer_counted = False
                    await asyncio.sleep(args.give_up)  # what has not arrived by now counts as lost
                    logs = await crowd.stop()
                finally:
                    crowd.terminate()
                rounds += len(phases_sent)
                found, lost = delivery(phases_sent, logs.views, args.give_up)
                view_latency += found
                views_lost += lost
                found, lost = delivery(messages_sent, logs.messages, args.give_up)
                message_latency += found
                messages_lost += lost
                watch_errors += logs.errors
                baseline += unloaded_here
                loaded += loaded_here
                if unloaded_here and loaded_here:
                    ratios.append(statistics.median(loaded_here) / statistics.median(unloaded_here))
        finally:
            pool.close()
            puts.close()
    planned = args.cycles * args.resolutions * args.interval
    print(f"  {rounds} watched rounds took {rounds_took:.1f}s (planned {planned:.0f}s)")
    print(f"  view of each new phase ({rounds} resolutions x {watchers} watchers): "
          f"{figures(view_latency)}; {views_lost} not read within {args.give_up:.0f}s", flush=True)
    print(f"  public message ({rounds} x {watchers}): {figures(message_latency)}; "
          f"{messages_lost} not read within {args.give_up:.0f}s", flush=True)
    ratio = (statistics.median(loaded) / statistics.median(baseline)) if loaded and baseline else float("nan")
    print(f"  other games' PUTs unloaded: {len(baseline)}, {figures(baseline)} (the same rounds, nobody watching)",
          flush=True)
    print(f"  other games' PUTs loaded:   {len(loaded)} ({len(loaded) / max(rounds_took, 1e-9):.1f}/s), "
          f"{figures(loaded)} (median x{ratio:.2f} of unloaded; by cycle "
          f"{', '.join(f'x{r:.2f}' for r in ratios)}); {len(failures)} failed", flush=True)
    if tailer_counted:
        print(f"  the tailers of all {args.workers} processes, watched windows: {tailer_reads:.0f} reads of the log "
              f"({tailer_reads / max(rounds_took, 1e-9):.1f}/s), {tailer_deliveries:.0f} deliveries "
              f"({tailer_deliveries / max(rounds_took, 1e-9):.1f}/s)", flush=True)
    for failure in failures[:3]:
        print(f"    failed: {failure}")
    if watch_errors:
        print(f"  watcher errors: {len(watch_errors)}, e.g. {watch_errors[:3]}")


async def benchmark(args: argparse.Namespace) -> int:
    print(f"benchmarks/stream.py: {args.workers} server processes, {args.client_processes} watcher processes, "
          f"{args.other_games} other games at {args.other_rate:g} PUTs/s, {args.cycles} cycles of "
          f"{args.resolutions} resolutions every {args.interval:g}s unwatched then watched; "
          f"watchers at niceness {args.nice}; source {args.source or 'this checkout'}; load average now "
          f"{os.getloadavg()[0]:.2f} (a shared machine: repeat when the figures vary)", flush=True)
    for watchers in args.watchers:
        print(f"N = {watchers}", flush=True)
        await run_once(args, watchers)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", default="100,500,1000",
                        type=lambda text: [int(n) for n in text.split(",")])
    parser.add_argument("--resolutions", type=int, default=10, help="rounds in each window")
    parser.add_argument("--cycles", type=int, default=3,
                        help="unwatched and watched windows, alternated this many times")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between resolutions")
    parser.add_argument("--other-games", type=int, default=20)
    parser.add_argument("--other-rate", type=float, default=20.0, help="other games' PUTs a second")
    parser.add_argument("--give-up", type=float, default=30.0, help="seconds after which an event counts as lost")
    parser.add_argument("--workers", type=int, default=2, help="server worker processes")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--nice", type=int, default=0,
                        help="niceness of the watcher processes (for example 10: they then take the cores "
                             "the server and PostgreSQL leave, and their read latency counts in the figures)")
    parser.add_argument("--source", help="serve the code of this checkout instead of this one")
    parser.add_argument("--server-url", default=server_url())
    args = parser.parse_args()
    if not all(1 <= n <= 5000 for n in args.watchers) or not 1 <= args.resolutions <= 100 \
            or not 1 <= args.cycles <= 20:
        parser.error("keep --watchers within 1..5000, --resolutions within 1..100 and --cycles within 1..20")
    if not (1 <= args.workers <= 8 and 1 <= args.client_processes <= 8 and args.other_rate > 0):
        parser.error("keep --workers and --client-processes within 1..8, --other-rate above 0")
    return asyncio.run(benchmark(args))


if __name__ == "__main__":
    raise SystemExit(main())
