"""How long a game's map takes: ``GET /games/{id}/map.svg`` and ``map.png`` (docs/maps.md).

Run: .venv/bin/python benchmarks/maps.py [--phases 6] [--repeats 40]

Plays a seven-player standard game on a fresh SQLite file in-process (the full app over
ASGI, no sockets), each power picking seeded random possible orders, until ``--phases``
phases are resolved; then France submits orders for the phase in play and the script times,
``--repeats`` times each after one warm-up call: France's map.svg and map.png of the phase in
play (its own pending orders drawn), the public map.svg of the last resolved phase (every
order with its result), and the drawing alone without HTTP and store (``game_layers`` and the
PNG rasteriser). Prints medians and 90th percentiles in milliseconds, and the picture sizes.
The machine is shared with other work: expect noise, and compare medians.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.visibility.maps.pictures import game_layers  # noqa: E402
from services.visibility.maps.png import layers_to_png  # noqa: E402
from services.visibility.view import Viewer  # noqa: E402
from shared.game.log import phase_submissions  # noqa: E402
from shared.game.repository import read_state  # noqa: E402
from tests.utils.http import hosting  # noqa: E402


def summary(name: str, times: list[float], size: int | None = None) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    extra = f", {size / 1024:.0f} KiB" if size else ""
    return f"{name:<44} median {statistics.median(times) * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms{extra}"


async def timed(call, repeats: int) -> tuple[list[float], Any]:
    result = await call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = await call()
        times.append(time.perf_counter() - start)
    return times, result


async def play(phases: int, repeats: int) -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        async with hosting(f"sqlite:///{folder}/maps.db") as host:
            game = await host.started(7)
            resolved = 0
            while resolved < phases:
                summary_now = await game.summary()
                for power in summary_now["must_act"]:
                    menu = (await host.client.get(f"{game.url}/possible-orders", params={"power": power},
                                                  headers=game.player(power).auth)).json()["orders"]
                    picks = [rng.choice(options) for options in menu.values() if options]
                    await game.order(power, picks)
                if (await game.summary())["phase"] != summary_now["phase"]:
                    resolved += 1
                else:  # nobody had to act, or a power held back: resolve by hand
                    await host.client.post(f"{game.url}/resolve", headers=game.host_auth)
                    resolved += 1
            state_now = await game.summary()
            last = (await game.resolutions())[-1]["phase"]
            france = game.player("FRANCE")
            menu = (await host.client.get(f"{game.url}/possible-orders", params={"power": "FRANCE"},
                                          headers=france.auth)).json()["orders"]
            await game.order("FRANCE", [options[-1] for options in menu.values() if options])
            print(f"game at {state_now['phase']} after {phases} phases; last resolved {last}")

            async def get(path: str, **params: str):
                headers = france.auth if params.pop("as_france", "") else {}
                response = await host.client.get(f"{game.url}/{path}", params=params, headers=headers)
                assert response.status_code == 200, response.text
                return response.content

            for name, path, params in (("France's map.svg (pending orders)", "map.svg", {"as_france": "1"}),
                                       ("public map.svg of the last resolved phase", "map.svg", {"phase": last}),
                                       ("France's map.png (pending orders)", "map.png", {"as_france": "1"})):
                times, body = await timed(lambda path=path, params=params: get(path, **params), repeats)
                print(summary(f"HTTP {name}", times, len(body)))

            async with host.store.reading() as tx:
                state = await read_state(tx, game.game_id)
                assert state.phase is not None
                submissions = await phase_submissions(tx, game.game_id, state.phase)
            viewer = Viewer("power", "FRANCE", powers=("FRANCE",))

            async def draw_svg():
                return game_layers(state, submissions, viewer).document()

            async def draw_png():
                return layers_to_png(game_layers(state, submissions, viewer))

            for name, call in (("drawing alone: SVG", draw_svg), ("drawing alone: PNG", draw_png)):
                times, body = await timed(call, repeats)
                print(summary(name, times, len(body)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=40)
    args = parser.parse_args(argv)
    asyncio.run(play(args.phases, args.repeats))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
