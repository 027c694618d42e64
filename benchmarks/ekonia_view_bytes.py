"""The bytes of a Tale of Ekonia view as the game ages (docs/performance.md, "Views in bytes").

Run: .venv/bin/python benchmarks/ekonia_view_bytes.py [--turns 3,100,300]

Plays one six-state game on a fresh SQLite store through the platform's service functions
(tests/utils/ekonia_long.py: every state that can pay sends a spy for the next state's records
each turn, so spending and knowledge grow every turn) and, at each count of ``--turns``, prints
the bytes of the view a player (the spy of the first state) and the public read over HTTP: the
current view, and the past view of the turn before (``?phase=``). Run it from an older
checkout (``git archive`` of a revision, with this file copied in) for that revision's figures.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.utils.ekonia_long import play_until, started_ekonia, view_bytes  # noqa: E402
from tests.utils.http import hosting  # noqa: E402


async def measure(turns: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with hosting(f"sqlite:///{Path(folder) / 'store.db'}") as host:
            game = await started_ekonia(host)
            spy = sorted(p for player in game.players for p in player.powers)[0]
            print(f"{'turn':>5} {'player now':>11} {'public now':>11} {'player past':>12} {'public past':>12}"
                  f" {'played in':>10}")
            for turn in sorted(turns):
                started = time.perf_counter()
                reached = await play_until(game, turn)
                played = time.perf_counter() - started
                past = f"T{reached - 1:02d}"
                print(f"{reached:>5} {await view_bytes(game, spy):>11,} {await view_bytes(game):>11,}"
                      f" {await view_bytes(game, spy, phase=past):>12,} {await view_bytes(game, phase=past):>12,}"
                      f" {played:>9.1f}s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", default="3,100,300", help="the turns at which to measure (comma-separated)")
    args = parser.parse_args()
    asyncio.run(measure([int(t) for t in args.turns.split(",")]))


if __name__ == "__main__":
    main()
