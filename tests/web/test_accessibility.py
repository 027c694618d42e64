"""An automated accessibility scan (axe-core) of the lobby and a game page: no serious or
critical violation (docs/web.md, "Accessibility").

axe-core comes from npm at the version tests/node_tools pins (tests/utils/node_tools.py), and
is served to the test browser by the test itself under the page's own origin, so the pages keep
their Content-Security-Policy and nothing is fetched from elsewhere.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.utils.node_tools import node_modules
from tests.web.pages import hosted_game

pytestmark = pytest.mark.postgres

SCRIPT_PATH = "/static/axe.test.min.js"  # answered by the test's route, never by the server
SCAN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" "))}));
}"""


@pytest.fixture(scope="module")
def axe_script() -> Path:
    """axe-core's script, at the version tests/node_tools pins (tests/utils/node_tools.py)."""
    return node_modules() / "axe-core" / "axe.min.js"


def violations(page: Page, base_url: str, script: Path) -> list[dict[str, Any]]:
    def serve(route: Route) -> None:
        route.fulfill(path=str(script), content_type="text/javascript")

    page.route(f"{base_url}{SCRIPT_PATH}", serve)
    page.add_script_tag(url=SCRIPT_PATH)
    found: list[dict[str, Any]] = page.evaluate(SCAN)
    return found


def serious(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [v for v in found if v["impact"] in ("serious", "critical")]


def test_the_lobby_and_a_game_page_have_no_serious_accessibility_violation(
        browser: Browser, served_alone: str, axe_script: Path, shots: Path) -> None:
    """The game page of a seated player, the lobby, and on a phone the game watched by a spectator."""
    player, _ = hosted_game(browser, served_alone, "Scanned", "standard", 7)
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        expect(page.get_by_role("region", name="Units on the board")).to_contain_text(f"{player.power.capitalize()} (")
        game_page = violations(page, served_alone, axe_script)
        player.shot(shots, "30-scanned-game-page")

        page.goto(f"{served_alone}/")
        expect(page.locator("#active-games")).to_contain_text("Scanned")
        lobby = violations(page, served_alone, axe_script)

        # a spectator on a phone: the lobby, then the game watched as the public
        phone.goto(f"{served_alone}/")
        phone.get_by_role("link", name="Watch Scanned").click()
        expect(phone.locator("#me")).to_have_text("Watching (public view)")
        expect(phone.get_by_role("region", name="Units on the board")).to_contain_text("Austria (3)")
        watched = violations(phone, served_alone, axe_script)
        assert serious(game_page) == [], game_page
        assert serious(lobby) == [], lobby
        assert serious(watched) == [], watched
    finally:
        player.page.context.close()
        phone.context.close()
    assert player.problems == []


@pytest.mark.parametrize(("variant", "players", "phase"), [("dirigible", 7, "Winter 1900, adjustments"),
                                                            ("ekonia", 2, "Turn 1")])
def test_the_variants_game_pages_have_no_serious_accessibility_violation(
        browser: Browser, served: str, axe_script: Path, shots: Path, variant: str, players: int, phase: str) -> None:
    """Dirigible's and Tale of Ekonia's pages: the seated player's (with the host's tools, the
    prices in the menus and the own panel), and the public's on a phone."""
    player, _ = hosted_game(browser, served, f"Scanned {variant}", variant, players)
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text(phase)
        expect(page.locator("#order-menus select").first).to_be_visible()
        seated = violations(page, served, axe_script)
        player.shot(shots, f"31-scanned-{variant}")
        phone.goto(page.url.split("#")[0])
        expect(phone.locator("#me")).to_have_text("Watching (public view)")
        expect(phone.locator("#board [data-province]").first).to_be_attached()
        watched = violations(phone, served, axe_script)
        phone.screenshot(path=str(shots / f"32-scanned-{variant}-phone.png"), full_page=True)
        assert serious(seated) == [], seated
        assert serious(watched) == [], watched
    finally:
        player.page.context.close()
        phone.context.close()
    assert player.problems == []
