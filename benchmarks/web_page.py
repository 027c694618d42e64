"""What the web client costs a browser (docs/web.md, "Figures").

Run: .venv/bin/python benchmarks/web_page.py [--loads N]
Starts ``entente serve`` on a temporary SQLite file, seats seven players over the API, opens
the game page in Debian's Chromium as one of them and prints: the bytes the page loads (its
own files, the map and the API answers, uncompressed), the time until the board is drawn
(median of N loads), the time from the click that gives an order to that order drawn on the
board, and how many times the board is fetched while five other powers order (each of their
orders changes the page's view: who has ordered; the board is redrawn only when the phase or
the player's own orders change).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: tests.* below

from tests.utils.served import entente_serve  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.pages import Player  # noqa: E402


def seated_game(base_url: str) -> tuple[str, list[str]]:
    game = httpx.post(f"{base_url}/games", json={"name": "Bench", "variant": "standard"}).json()
    tokens = [httpx.post(f"{base_url}/games/{game['id']}/players").json()["token"] for _ in range(7)]
    httpx.post(f"{base_url}/games/{game['id']}/start", headers={"authorization": f"Bearer {game['host_token']}"})
    return game["id"], tokens


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loads", type=int, default=10)
    loads = parser.parse_args().loads
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, entente_serve(f"sqlite:///{folder}/bench.db") as base_url, \
            sync_playwright() as playwright:
        game_id, tokens = seated_game(base_url)
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            player = Player(page, "bench")
            timings = []
            for index in range(loads):
                started = time.perf_counter()
                fragment = f"#token={tokens[0]}" if index == 0 else ""  # the token, kept after the first load
                page.goto(f"{base_url}/play/{game_id}{fragment}")
                page.locator("#board [data-unit]").first.wait_for()
                page.locator("#order-menus select").first.wait_for()
                timings.append(time.perf_counter() - started)
            sizes = page.evaluate("performance.getEntriesByType('resource').map(r => [r.name, r.decodedBodySize])")
            own = sum(size for name, size in sizes if "/static/" in name)
            board = sum(size for name, size in sizes if "map.svg" in name)
            power = player.read_power()
            unit = httpx.get(f"{base_url}/games/{game_id}/view", headers={"authorization": f"Bearer {tokens[0]}"}
                             ).json()["position"]["units"][power][0]
            fetched: list[str] = []
            page.on("request", lambda request: fetched.append(request.url) if "map.svg" in request.url else None)
            started = time.perf_counter()
            player.click_unit(unit)
            player.click_province(unit.split()[1].split("/")[0])  # a hold: the unit's own place
            page.locator("#board [data-order]").first.wait_for()
            click_to_drawn = time.perf_counter() - started
            before = len(fetched)
            for token in tokens[1:6]:  # the seventh would resolve the phase
                httpx.put(f"{base_url}/games/{game_id}/orders", json={"orders": []},
                          headers={"authorization": f"Bearer {token}"})
            page.locator("#powers .status.done").nth(4).wait_for()  # five powers done by their whole sets
            print(f"page's own files: {own / 1024:.1f} KiB; the board (map.svg): {board / 1024:.1f} KiB; "
                  f"all answers of the last load: {sum(s for _, s in sizes) / 1024:.1f} KiB")
            print(f"open the game page to board and menus drawn: median {statistics.median(timings) * 1000:.0f} ms, "
                  f"first {timings[0] * 1000:.0f} ms ({loads} loads)")
            print(f"click a unit and its place to the hold drawn on the board: {click_to_drawn * 1000:.0f} ms")
            print(f"board fetched while five other powers ordered: {len(fetched) - before} times "
                  f"(redrawing on every view would fetch it 5 times)")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
