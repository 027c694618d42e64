"""One hosted phase's resolution, step by step, before and after the C core: a script that prints figures.

    python benchmarks/hosted_phase.py [--games 12] [--phases 40] [--repeats 5] [--rounds 3]

Plays ``--games`` standard games of ``--phases`` phases through the services' own code into a
temporary SQLite file (every power gives random legal orders: tests/utils/played_game.py), then
takes each resolved phase from the records the store gives back and times, on them, the steps
the service takes to resolve it (``resolution_plan``, services/adjudication/service.py; the
store's reads and writes are not in the figures):

- fold: the game's state folded on over the events the previous resolution appended (what
  ``read_state`` folds onto the per-process cache's state);
- orders: the phase's order records read, each power's latest submission (``phase_submissions``);
- resolve: the variant's ``resolve`` of the stored position and orders (the Python engine, or
  the C core where it takes the phase: docs/rules/c_core.md, "Hosted games");
- events: the rest of ``resolution_plan`` (the PhaseResolved event built from the outcome, the
  state folded on with it, the checks for the game's end and the next deadline's event) and the
  plan's events serialised as the store writes them: the whole plan's time less resolve's.

Each build runs in a process of its own, alternately, ``--rounds`` times: before
(``ENTENTE_NO_C_CORE=1``, the compiled engine) and after (the C core); a step's figure is its
median over the phases of the best of ``--repeats`` runs, the best round counting. Prints
microseconds a phase, for the movement phases (the C core's) and for all phases.

``--before-tree DIR``: "before" runs the code of another checkout (say, the commit before a
change, its compiled modules copied beside it), with this script copied into its benchmarks/;
this checkout's own code without the core is then a third row.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson  # noqa: E402

from shared.events import from_recorded, to_new_event  # noqa: E402
from shared.game.repository import without_history  # noqa: E402
from shared.game.resolution import resolution_plan  # noqa: E402
from shared.game.state import GameState, fold  # noqa: E402
from shared.game.submissions import latest_submissions, submitted_orders  # noqa: E402
from shared.rules.variants import engine_build, get_variant  # noqa: E402
from shared.store import RecordedEvent, open_store  # noqa: E402
from tests.utils.played_game import play_game  # noqa: E402

STEPS = ("fold", "orders", "resolve", "events")
NO_CORE = {"ENTENTE_NO_C_CORE": "1"}
HERE = Path(__file__).resolve()
NOW = datetime(2026, 12, 7, tzinfo=UTC)


async def play(url: str, games: int, phases: int) -> None:
    store = await open_store(url)
    try:
        for seed in range(games):
            await play_game(store, phases, seed)
    finally:
        await store.close()


async def read_records(url: str) -> list[RecordedEvent]:
    store = await open_store(url)
    try:
        return list(await store.events.read_all(limit=10_000_000))
    finally:
        await store.close()


Phase = tuple[GameState | None, list[RecordedEvent], list[RecordedEvent], str]


def phases_of(records: list[RecordedEvent]) -> list[Phase]:
    """Each resolved phase as (the state before the previous resolution's events, as the cache
    holds it, without its history; those events; the phase's order records; the phase)."""
    games: dict[str, list[RecordedEvent]] = {}
    orders: dict[tuple[str, str], list[RecordedEvent]] = {}
    for record in records:
        if record.stream_id.startswith("game-"):
            games.setdefault(record.stream_id.removeprefix("game-"), []).append(record)
        elif record.stream_id.startswith("orders-") and record.type == "OrdersSubmitted":
            orders.setdefault((record.stream_id.split("-")[1], str(record.data["phase"])), []).append(record)
    found: list[Phase] = []
    for game_id, stream in games.items():
        cached: GameState | None = None
        since = 0
        for index, record in enumerate(stream):
            if record.type != "PhaseResolved":
                continue
            phase = str(record.data["phase"])
            found.append((cached, stream[since:index], orders.get((game_id, phase), []), phase))
            cached = without_history(fold((from_recorded(r) for r in stream[since:index]), onto=cached))[0]
            since = index
    return [phase for phase in found if phase[0] is not None]


def best(step: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """The best of ``repeats`` runs of ``step``, in microseconds, and its answer."""
    fastest, answer = None, None
    for _ in range(repeats):
        start = time.perf_counter_ns()
        answer = step()
        elapsed = time.perf_counter_ns() - start
        fastest = elapsed if fastest is None else min(fastest, elapsed)
    return (fastest or 0) / 1000, answer


def time_phase(phase: Phase, repeats: int) -> dict[str, float]:
    cached, since, order_records, name = phase
    fold_us, state = best(lambda: fold((from_recorded(r) for r in since), onto=cached), repeats)
    orders_us, submissions = best(lambda: latest_submissions((from_recorded(r) for r in order_records), name),
                                  repeats)
    submitted = submitted_orders(submissions)
    variant = get_variant(state.variant)
    settings = state.settings.model_dump()
    seed = state.seed if state.seed is not None else 0
    resolve_us, _ = best(lambda: variant.resolve(state.position, submitted, settings=settings, seed=seed), repeats)

    def plan() -> None:  # the whole plan, resolution included, and its events as the store writes them
        for event in resolution_plan(state, submissions, NOW).events:
            orjson.dumps(to_new_event(event).data, option=orjson.OPT_NON_STR_KEYS).decode()

    plan_us, _ = best(plan, repeats)
    return {"fold": fold_us, "orders": orders_us, "resolve": resolve_us, "events": max(0.0, plan_us - resolve_us)}


def measure(url: str, repeats: int) -> dict[str, Any]:
    """This process's build's medians, movement phases and all phases."""
    phases = phases_of(asyncio.run(read_records(url)))
    for phase in phases[:20]:  # warm the caches the service keeps warm (maps, parsed orders)
        time_phase(phase, 1)
    timed = [(phase[3], time_phase(phase, repeats)) for phase in phases]
    medians = {}
    for label, chosen in (("movement", [t for n, t in timed if n.endswith("M")]), ("all", [t for _, t in timed])):
        medians[label] = {step: statistics.median(t[step] for t in chosen) for step in STEPS}
        medians[label]["phases"] = len(chosen)
    return {"build": " ".join(engine_build()).strip(), "medians": medians}


def run_build(url: str, repeats: int, script: Path, switches: dict[str, str]) -> dict[str, Any]:
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("ENTENTE_NO_C_CORE", "ENTENTE_PURE_PYTHON", "PYTHONPATH")}
    done = subprocess.run([sys.executable, str(script), "--measure", url, "--repeats", str(repeats)],
                          capture_output=True, text=True, env={**environment, **switches}, check=True, timeout=3600)
    answer: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--phases", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before-tree", type=Path, help="a checkout whose code runs as 'before'")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # a child: time the phases of this store
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.repeats)))
        return 0
    rows = {"before": (HERE, NO_CORE), "after": (HERE, {})}
    if args.before_tree:
        rows = {"before": (args.before_tree.resolve() / "benchmarks" / HERE.name, NO_CORE),
                "no core": (HERE, NO_CORE), "after": (HERE, {})}
    with tempfile.TemporaryDirectory(prefix="entente-hosted-phase-") as folder:
        url = f"sqlite:///{folder}/games.db"
        started = time.monotonic()
        asyncio.run(play(url, args.games, args.phases))
        print(f"played {args.games} games of {args.phases} phases in {time.monotonic() - started:.0f} s", flush=True)
        rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in rows}
        for _ in range(args.rounds):
            for name, (script, switches) in rows.items():
                rounds[name].append(run_build(url, args.repeats, script, switches))
    for label in ("movement", "all"):
        count = rounds["after"][0]["medians"][label]["phases"]
        print(f"\n{label} phases ({count}), µs a phase (median of the best of {args.repeats}; best of "
              f"{args.rounds} rounds):")
        print(f"{'build':<44}" + "".join(f"{step:>9}" for step in STEPS) + f"{'total':>9}")
        for name in rows:
            figures = {step: min(r["medians"][label][step] for r in rounds[name]) for step in STEPS}
            build = f"{name}: {rounds[name][0]['build']}"
            print(f"{build:<44}" + "".join(f"{figures[s]:>9.1f}" for s in STEPS) + f"{sum(figures.values()):>9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
