"""What regulars look for (docs/web.md, "Settings in sight", "Host tools", "Your games"): the
lobby form's clocks in days and hours and its house-bot settings, the settings shown in the
lobby's list and on the game page; the host removing a seat, extending, pausing and resuming
from the page; "Your games" with each game's power, phase, deadline and **Orders needed**; the
skip links; the board downloaded as PNG."""
from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.web.pages import DONE, hosted_game

pytestmark = pytest.mark.postgres


def test_the_form_takes_clocks_in_days_and_hours_and_the_settings_are_in_sight(
        browser: Browser, served: str, shots: Path) -> None:
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    try:
        page.goto(f"{served}/")
        page.get_by_role("textbox", name="Name").fill("Clocks")
        page.get_by_role("spinbutton", name="Movement clock").fill("2")
        page.get_by_role("combobox", name="Movement clock in").select_option("days")
        page.get_by_role("spinbutton", name="Retreat and build clock").fill("90")
        page.get_by_role("combobox", name="Retreat and build clock in").select_option("minutes")
        page.get_by_role("combobox", name="Press").select_option("public")
        page.get_by_role("combobox", name=re.compile("^House bot")).select_option("heuristic")
        page.get_by_role("checkbox", name=re.compile("takes the seats nobody joined")).check()
        page.get_by_role("spinbutton", name=re.compile("missed phases")).fill("2")
        page.get_by_role("button", name="Create game").click()
        page.wait_for_url(re.compile(r"/play/g_"))
        game_id = page.url.rsplit("/", 1)[1]
        settings = httpx.get(f"{served}/games/{game_id}").json()["settings"]
        assert (settings["movement_minutes"], settings["retreat_minutes"], settings["press"]) == (2880, 90, "public")
        assert (settings["house_bot"], settings["bots_fill_empty_seats"], settings["bot_after_missed_phases"]) == (
            "heuristic", True, 2)
        said = page.locator("#game-settings")
        for words in ("movement 2 days", "retreats and builds 1 hour 30 minutes", "public press only",
                      "house bot (heuristic), fills empty seats, plays for a player after 2 missed phases",
                      "draw: every surviving power votes, votes secret", "anonymous: players known only by codename"):
            expect(said).to_contain_text(words)
        page.screenshot(path=str(shots / "50-settings-on-the-game-page.png"), full_page=True)
        page.goto(f"{served}/")
        listed = page.locator(f'#forming-games li[data-game="{game_id}"] .settings')
        expect(listed).to_contain_text("movement 2 days · retreats and builds 1 hour 30 minutes · public press only")
        expect(listed).to_contain_text("house bot (heuristic)")
        page.screenshot(path=str(shots / "51-settings-in-the-lobby.png"), full_page=True)
    finally:
        page.context.close()


def test_the_host_removes_a_seat_then_extends_pauses_and_resumes(browser: Browser, served: str) -> None:
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    try:
        page.goto(f"{served}/")
        page.get_by_role("textbox", name="Name").fill("Hosted")
        page.get_by_role("button", name="Create game").click()
        page.wait_for_url(re.compile(r"/play/g_"))
        game_id = page.url.rsplit("/", 1)[1]
        joined = [httpx.post(f"{served}/games/{game_id}/players").json() for _ in range(7)]
        leaving = joined[0]["codename"]
        seat_list = page.get_by_role("list", name="Seats taken")
        expect(seat_list.locator("li")).to_have_count(7, timeout=10_000)
        page.get_by_role("button", name=f"Remove {leaving}").click()
        expect(seat_list.locator("li")).to_have_count(7)  # asked first
        page.get_by_role("button", name=f"Yes, remove {leaving}").click()
        expect(page.locator("#host-status")).to_have_text(f"{leaving} removed: the seat is free again.")
        expect(seat_list.locator("li")).to_have_count(6)
        summary = httpx.get(f"{served}/games/{game_id}").json()
        assert summary["players"] == 6 and leaving not in summary["codenames"]
        httpx.post(f"{served}/games/{game_id}/players")  # another takes the place
        expect(seat_list.locator("li")).to_have_count(7, timeout=10_000)

        page.get_by_role("button", name="Start the game").click()
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        clock = page.get_by_role("group", name="The clock")
        clock.get_by_role("spinbutton", name="Hours").fill("2")
        clock.get_by_role("button", name="Extend the deadline").click()
        expect(page.locator("#host-status")).to_have_text("Deadline extended by 2 hours.")
        assert httpx.get(f"{served}/games/{game_id}").json()["clock"]["extended_minutes"] == 120
        clock.get_by_role("button", name="Pause the game").click()
        expect(clock.get_by_role("button", name="Resume the game")).to_be_visible()
        expect(page.locator("#countdown")).to_contain_text("Paused until")
        assert httpx.get(f"{served}/games/{game_id}").json()["clock"]["paused_until"]
        clock.get_by_role("button", name="Resume the game").click()
        expect(clock.get_by_role("button", name="Pause the game")).to_be_visible()
        assert httpx.get(f"{served}/games/{game_id}").json()["clock"]["paused_until"] is None
    finally:
        page.context.close()


def test_your_games_say_the_power_phase_deadline_and_orders_needed(browser: Browser, served: str, shots: Path) -> None:
    player, _ = hosted_game(browser, served, "Mine", "standard", 7)
    try:
        page = player.page
        game_id = page.url.rsplit("/", 1)[1]
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        page.goto(f"{served}/")
        mine = page.locator(f'#my-games li[data-game="{game_id}"]')
        expect(mine).to_contain_text(player.power.capitalize())
        expect(mine).to_contain_text("Spring 1901, movement")
        expect(mine).to_contain_text(re.compile(r"deadline \w"))
        expect(mine.get_by_text("Orders needed")).to_be_visible()
        page.screenshot(path=str(shots / "52-your-games.png"), full_page=True)
        mine.get_by_role("link", name="Mine").click()
        page.get_by_role("button", name=DONE).click()
        expect(page.locator(f'#powers tr[data-power="{player.power}"] td.status')).to_have_text("done")
        page.goto(f"{served}/")
        expect(mine).to_contain_text("Spring 1901, movement")
        expect(mine.get_by_text("Orders needed")).to_have_count(0)
    finally:
        player.page.context.close()
    assert player.problems == []


def test_skip_links_lead_to_the_board_and_ones_own_units_and_the_board_downloads(
        browser: Browser, served: str, tmp_path: Path) -> None:
    player, _ = hosted_game(browser, served, "Skips", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        expect(page.locator("#board [data-unit]")).to_have_count(22)
        page.reload()
        expect(page.locator("#board [data-unit]")).to_have_count(22)
        page.keyboard.press("Tab")
        expect(page.get_by_role("link", name="Skip to the board")).to_be_focused()
        page.keyboard.press("Tab")
        expect(page.get_by_role("link", name="Skip to your units")).to_be_focused()
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.dataset.power") == player.power
        unit = page.evaluate("document.activeElement.dataset.unit")
        page.keyboard.press("Enter")  # the board's own flow from there
        expect(page.locator("#order-status")).to_have_text(f"{unit} selected: click where it goes.")

        with page.expect_download() as waiting:
            page.get_by_role("button", name="Download the board (PNG)").click()
        download = waiting.value
        assert download.suggested_filename == "Skips-S1901M.png"
        saved = tmp_path / "board.png"
        download.save_as(saved)
        assert saved.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        player.page.context.close()
    assert player.problems == []
