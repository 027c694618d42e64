"""What a reader sees and a finger hits on the game page (docs/web.md, "Figures").

Run: .venv/bin/python benchmarks/web_targets.py [--shots FOLDER]
Starts ``entente serve`` on a temporary SQLite file, seats seven players of a standard game and
opens the game page in Debian's Chromium as one of them at 1366x900 and at 390x844 (the board
as it comes, then zoomed), and prints: the board's width on screen, the smallest and median
province name as drawn (CSS pixels), the smallest unit target (its hit disc), and the smallest
control outside the board (a button, link, select, input or textarea of the page). With
``--shots`` it writes a screenshot of each to look at.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: tests.* below

from benchmarks.web_page import seated_game  # noqa: E402
from tests.utils.served import entente_serve  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

MEASURE = """() => {
  const names = [...document.querySelectorAll("#board #names text")]
    .map((t) => t.getBoundingClientRect().height).filter((h) => h > 0).sort((a, b) => a - b);
  const hits = [...document.querySelectorAll("#board .hit")].map((h) => h.getBoundingClientRect().width);
  const controls = [...document.querySelectorAll("button, a[href], select, input, textarea")]
    .filter((c) => !c.closest("#board") && c.offsetParent !== null)
    .map((c) => { const b = c.getBoundingClientRect();
                  return {what: c.id || c.textContent.trim().slice(0, 30), w: b.width, h: b.height}; })
    .filter((c) => c.w > 0 && c.h > 0);
  const smallest = controls.reduce((a, c) => (Math.min(c.w, c.h) < Math.min(a.w, a.h) ? c : a), controls[0]);
  return {board: Math.round(document.querySelector("#board svg").getBoundingClientRect().width),
          nameMin: names[0], nameMedian: names[Math.floor(names.length / 2)], hitMin: Math.min(...hits), smallest};
}"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shots", type=Path, default=None)
    shots = parser.parse_args().shots
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, entente_serve(f"sqlite:///{folder}/bench.db") as base_url:
        game_id, tokens = seated_game(base_url)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for width, height in ((1366, 900), (390, 844)):
                page = browser.new_context(viewport={"width": width, "height": height}).new_page()
                page.goto(f"{base_url}/play/{game_id}#token={tokens[0]}")
                page.wait_for_selector("#board [data-unit] .hit", state="attached")
                page.wait_for_selector("#order-menus select")
                for zoomed in (False, True):
                    if zoomed:
                        page.get_by_role("button", name="Zoom the board").click()
                        page.wait_for_timeout(300)
                    found = page.evaluate(MEASURE)
                    small = found["smallest"]
                    screen = f"{width}x{height}{' zoomed' if zoomed else ''}"
                    print(f"{screen}: board {found['board']} px wide; province names"
                          f" {found['nameMin']:.1f} px (smallest), {found['nameMedian']:.1f} px (median); smallest unit"
                          f" target {found['hitMin']:.1f} px; smallest control {small['w']:.0f}x{small['h']:.0f} px"
                          f" ({small['what']})")
                    if shots:
                        shots.mkdir(parents=True, exist_ok=True)
                        page.screenshot(path=str(shots / f"targets-{width}{'-zoomed' if zoomed else ''}.png"))
                page.context.close()
            browser.close()


if __name__ == "__main__":
    main()
