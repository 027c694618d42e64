"""Replay-verify of a long game: a script that prints figures, not a test.

    python benchmarks/replay.py [--phases 1000] [--seed 1]

Plays one standard game of ``--phases`` resolved phases into a fresh SQLite file through the
services' own code (random legal orders; a power holding more than 12 centres holds, so that
nobody wins and the game runs its whole length), then runs ``entente replay`` on it: every
phase re-adjudicated from its stored position and the orders current when it resolved, and
compared with what is stored. Prints the command's own timing of the verification and the
whole command's wall time (start-up and reading the log included).
"""
from __future__ import annotations

import argparse
import asyncio
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services.lobby.service import create_game, join_game, start_game  # noqa: E402
from shared.events import GameSettings  # noqa: E402
from shared.game.intake import submit_orders  # noqa: E402
from shared.game.repository import read_game  # noqa: E402
from shared.game.resolution import resolve_phase  # noqa: E402
from shared.rules.bots.reading import holdings  # noqa: E402
from shared.rules.diplomacy import load_map, position_from_document  # noqa: E402
from shared.store import EventStore, open_store  # noqa: E402
from tests.utils.random_play import random_orders  # noqa: E402

CENTRES_BEFORE_HOLDING = 12


async def play_long_game(store: EventStore, phases: int, seed: int) -> tuple[str, int]:
    """A game of ``phases`` resolved phases (fewer if it ended); its id and how many."""
    created = await create_game(store, name="long game", variant="standard", settings=GameSettings())
    game_id = created.state.game_id
    for _ in range(7):
        await join_game(store, game_id)
    state = await start_game(store, game_id)
    player_of = {seat.power: seat.player_id for seat in state.seats}
    rng, game_map = random.Random(seed), load_map("standard")
    resolved = 0
    while resolved < phases:
        found = await read_game(store, game_id)
        assert found is not None
        state = found
        assert state is not None and state.position is not None
        if state.status != "active":
            break
        centres = holdings(state.position, "centers")
        for power, orders in random_orders(position_from_document(state.position), game_map, rng).items():
            if power in state.must_act and len(centres.get(power, [])) <= CENTRES_BEFORE_HOLDING and orders:
                await submit_orders(store, game_id, player_of[power], [str(order) for order in orders])
        await resolve_phase(store, game_id, state.phase)
        after = await read_game(store, game_id)
        assert after is not None
        resolved = after.earlier_resolved + len(after.resolved)  # the cached state keeps the latest only
    return game_id, resolved


async def build(url: str, phases: int, seed: int) -> tuple[str, int]:
    store = await open_store(url)
    try:
        return await play_long_game(store, phases, seed)
    finally:
        await store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 1 <= args.phases <= 5000:
        parser.error("keep --phases within 1..5000")
    with tempfile.TemporaryDirectory(prefix="entente-replay-") as folder:
        url = f"sqlite:///{folder}/long.db"
        started = time.monotonic()
        game_id, played = asyncio.run(build(url, args.phases, args.seed))
        print(f"played a {played}-phase standard game in {time.monotonic() - started:.1f}s", flush=True)
        started = time.monotonic()
        replay = subprocess.run([sys.executable, "-c", "from services.cli import main; raise SystemExit(main())",
                                 "replay", game_id, "--database", url], capture_output=True, text=True, timeout=600)
        wall = time.monotonic() - started
        print(f"entente replay (exit {replay.returncode}), {wall:.2f}s for the whole command: "
              f"{(replay.stdout or replay.stderr).strip()}")
    return replay.returncode


if __name__ == "__main__":
    raise SystemExit(main())
