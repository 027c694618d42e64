"""A game longer than one page of history through the web client (docs/web.md): views carry
the latest 20 resolved phases, and the page reads the earlier ones when asked, so that the
history slider reaches back to spring 1901."""
from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.web.pages import Player

pytestmark = pytest.mark.postgres

PHASES = 22  # all hold: spring and fall of 11 years, no winter (nobody gains or loses a centre)


def played_by_holds(base_url: str) -> tuple[str, list[str]]:
    """A standard game of seven seats over the API, every phase held until ``PHASES`` resolved."""
    with httpx.Client(base_url=base_url, timeout=30) as client:
        created = client.post("/games", json={"name": "Long game", "variant": "standard"}).json()
        game_id = created["id"]
        tokens = [client.post(f"/games/{game_id}/players").json()["token"] for _ in range(7)]
        started = client.post(f"/games/{game_id}/start", headers={"authorization": f"Bearer {created['host_token']}"})
        assert started.status_code == 200, started.text
        for _ in range(PHASES):
            for token in tokens:
                answer = client.put(f"/games/{game_id}/orders", json={"orders": []},
                                    headers={"authorization": f"Bearer {token}"})
                assert answer.status_code == 200, answer.text
        assert client.get(f"/games/{game_id}").json()["phase"] == "S1912M"
    return game_id, tokens


def test_the_history_slider_reaches_the_first_phase_of_a_long_game(browser: Browser, served: str,
                                                                      shots: Path) -> None:
    game_id, tokens = played_by_holds(served)
    player = Player(browser.new_context(viewport={"width": 1366, "height": 900}).new_page(), "long")
    page = player.page
    page.goto(f"{served}/play/{game_id}#token={tokens[0]}")
    slider = page.get_by_role("slider", name="Phase shown")
    expect(slider).to_have_attribute("max", "20")  # the latest page: 20 resolved phases and now
    earlier = page.get_by_role("button", name="Earlier phases")
    expect(earlier).to_be_visible()
    earlier.click()
    expect(slider).to_have_attribute("max", str(PHASES))
    expect(earlier).to_be_hidden()  # nothing before spring 1901
    slider.focus()
    page.keyboard.press("Home")
    expect(page.locator("#history-label")).to_contain_text("1901")
    expect(page.locator("#history-label")).to_contain_text("resolved")
    page.screenshot(path=str(shots / "16-long-game-spring-1901.png"), full_page=True)
    assert player.problems == []
