"""What the page tells a player who is not looking at the present (docs/web.md, "History" and
"Notifications"): a past phase left on screen says when new results exist; the tab's title and
the browser's notifications tell of a new phase while the page is out of sight; the deadline is
written in the player's own time zone; the lobby's form creates a game the host may not resolve."""
from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.web.pages import DONE, hosted_game, others_submit
from tests.web.test_done import game_of, own_token

pytestmark = pytest.mark.postgres
# the whole browser: the headless shell grants no permission to notify (tests/web/conftest.py)
FULL_CHROMIUM = True

HOST_PLAYS = "I play too: the host may not resolve a phase early (the clock and the players do)"

# The page out of sight, as when the player switched tabs: the document's visibility read by the
# page is the test's to set, and each notification the page shows is recorded (the browser's own
# Notification still makes it).
HIDDEN_AND_NOTIFIED = """
window.__hidden = false;
window.__notified = [];
Object.defineProperty(Document.prototype, "visibilityState",
  {configurable: true, get() { return window.__hidden ? "hidden" : "visible"; }});
Object.defineProperty(Document.prototype, "hidden", {configurable: true, get() { return window.__hidden; }});
const BrowserNotification = window.Notification;
window.Notification = class extends BrowserNotification {
  constructor(title, options) { window.__notified.push([title, options && options.body]); super(title, options); }
};
"""
SET_HIDDEN = "(hidden) => { window.__hidden = hidden; document.dispatchEvent(new Event('visibilitychange')); }"


def resolve_over_the_api(served: str, page_url: str, tokens: list[str], own: str) -> None:
    """Every power sends its whole set (all hold): the phase resolves at once."""
    others_submit(served, page_url, [*tokens, own], [])


def test_a_page_left_on_a_past_phase_says_when_new_results_exist(browser: Browser, served: str) -> None:
    """Spring resolved, the player looks back at it with the slider; fall resolves meanwhile: the
    board stays on spring, a notice says the game moved on, and its button shows the board now."""
    player, tokens = hosted_game(browser, served, "Looking back", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        own = own_token(player)
        others_submit(served, page.url, tokens, [])
        page.get_by_role("button", name=DONE).click()
        player.wait_for_phase("Fall 1901, movement")
        slider = page.get_by_role("slider", name="Phase shown")
        slider.focus()
        page.keyboard.press("Home")
        expect(page.locator("#history-label")).to_have_text("Spring 1901, movement (resolved)")
        expect(page.locator("#board")).to_have_attribute("data-phase", "S1901M")
        notice = page.locator("#new-results")
        expect(notice).to_be_hidden()

        resolve_over_the_api(served, page.url, tokens, own)
        expect(notice).to_be_visible(timeout=20_000)
        expect(notice).to_contain_text(re.compile(r"New results: the game is now at (Winter 1901|Spring 1902)"))
        expect(page.locator("#board")).to_have_attribute("data-phase", "S1901M")  # not taken away
        expect(page.locator("#history-label")).to_have_text("Spring 1901, movement (resolved)")

        page.get_by_role("button", name="Show the board now").click()
        expect(notice).to_be_hidden()
        expect(page.locator("#board")).to_have_attribute("data-phase", "now")
        expect(page.locator("#history-label")).to_have_text(re.compile(r"^Now: (Winter 1901|Spring 1902)"))
    finally:
        player.page.context.close()
    assert player.problems == []


def test_the_lobby_form_switches_host_resolving_off(browser: Browser, served: str) -> None:
    """**I play too** on the lobby's form: the game is created with host_may_resolve false, and
    its host's page offers no **Resolve the phase now**."""
    player, _ = hosted_game(browser, served, "Host plays", "standard", 7, checked=(HOST_PLAYS,))
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        expect(page.get_by_role("button", name=DONE)).to_be_visible()
        expect(page.get_by_role("button", name="Resolve the phase now")).to_be_hidden()
        summary = httpx.get(f"{served}/games/{game_of(player)}").json()
        assert summary["settings"]["host_may_resolve"] is False
    finally:
        player.page.context.close()
    assert player.problems == []


def test_a_new_phase_while_out_of_sight_counts_in_the_title_and_notifies(browser: Browser, served: str) -> None:
    """In Tokyo, with notifications allowed: the deadline is written in Tokyo's time beside the
    countdown; the page is hidden and the phase resolves: the title says so and the browser
    shows one notification; the page shown again, the title is plain again."""
    player, tokens = hosted_game(browser, served, "Far east", "standard", 7, timezone_id="Asia/Tokyo",
                                 locale="en-GB", permissions=["notifications"])
    try:
        page = player.page
        page.add_init_script(HIDDEN_AND_NOTIFIED)
        page.reload()
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        view = httpx.get(f"{served}/games/{game_of(player)}/view",
                         headers={"authorization": f"Bearer {own_token(player)}"}).json()
        deadline = datetime.fromisoformat(view["clock"]["deadline"]).astimezone(ZoneInfo("Asia/Tokyo"))
        expected = f"Deadline {deadline:%a} {deadline.day} {deadline:%b}, {deadline:%H:%M} GMT+9"
        expect(page.locator("#deadline")).to_have_text(expected)
        expect(page.locator("#countdown")).to_have_text(re.compile(r"\d\d:\d\d:\d\d left$"))

        box = page.get_by_role("checkbox", name=re.compile("notify me in this browser"))
        box.check()
        expect(page.locator("#notify-status")).to_contain_text("This browser will tell you of a new phase")
        page.evaluate(SET_HIDDEN, True)
        resolve_over_the_api(served, page.url, tokens, own_token(player))
        expect(page).to_have_title("(1) New phase: Fall 1901, movement · Far east · Fall 1901, movement: Entente",
                                   timeout=20_000)
        assert page.evaluate("window.__notified") == [["Far east: a phase resolved", "Now: Fall 1901, movement."]]

        page.evaluate(SET_HIDDEN, False)
        expect(page).to_have_title("Far east · Fall 1901, movement: Entente")
        assert len(page.evaluate("window.__notified")) == 1  # nothing more once in sight
    finally:
        player.page.context.close()
    assert player.problems == []
