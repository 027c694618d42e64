"""Absent players and the house bot, shown (docs/web.md, "Absent players"): the powers table,
the player's own panel and the orders panel say who missed phases, who is in civil disorder
and since when the house bot plays a power; a returning player reads the bot's orders as the
bot's, never as their own "done"."""
from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from shared.clock import ManualClock
from tests.conftest import run_coroutine_in_thread
from tests.utils.http import HostedGame, hosting
from tests.web.pages import DONE, Player

pytestmark = pytest.mark.postgres


def england_left_to_the_bot(database_url: str) -> tuple[str, str, str]:
    """A standard game of seven players with the holding bot after one missed phase; England's
    player misses Spring 1901 (the clock worker of an app on the same database, its clock set
    to now), so the bot plays England from Fall 1901. The game's id, England's token and France's."""
    async def prepare() -> tuple[str, str, str]:
        async with hosting(database_url, ManualClock(datetime.now(UTC))) as host:
            created = (await host.client.post("/games", json={"name": "Left to the bot", "variant": "standard",
                       "settings": {"player_count": 7, "house_bot": "holding", "bot_after_missed_phases": 1}})).json()
            game = HostedGame(host, created["id"], created["host_token"])
            for _ in range(7):
                await game.join()
            await game.start()
            for player in game.players:
                if "ENGLAND" not in player.powers:
                    await game.order_ok(player.powers[0], [])
            assert await host.tick(days=2) == 1
            return game.game_id, game.player("ENGLAND").token, game.player("FRANCE").token
    return run_coroutine_in_thread(prepare)


def test_the_returning_player_sees_the_bot_at_play_and_its_orders_as_the_bots(
        browser: Browser, served_alone: str, postgres_url: str, shots: Path) -> None:
    game_id, england, france = england_left_to_the_bot(postgres_url)
    player = Player(browser.new_context(viewport={"width": 1366, "height": 900}).new_page(), "england")
    watcher = Player(browser.new_context(viewport={"width": 1366, "height": 900}).new_page(), "france")
    try:
        page = player.page
        page.goto(f"{served_alone}/play/{game_id}#token={england}")
        expect(page.locator("#phase")).to_contain_text("Fall 1901, movement")
        row = page.locator('#powers tr[data-power="ENGLAND"]')
        expect(row.locator("td.player .away")).to_have_text(
            "house bot since Fall 1901 · civil disorder · NMR: 1 phase missed")
        expect(row.locator("td.status")).to_have_text("house bot")
        expect(page.locator("#own")).to_contain_text("The house bot has played your power since Fall 1901")
        expect(page.locator("#done-status")).to_contain_text("The orders stored are the house bot's")
        expect(page.locator("#done-status")).not_to_contain_text("your whole set was sent")
        expect(page.get_by_role("button", name=DONE)).to_be_visible()
        expect(player.orders_box()).to_have_value("F EDI H\nF LON H\nA LVP H")
        player.shot(shots, "30-returning-player-bot-orders")

        # every other table says it too: France's page
        watcher.page.goto(f"{served_alone}/play/{game_id}#token={france}")
        other = watcher.page.locator('#powers tr[data-power="ENGLAND"]')
        expect(other.locator("td.player")).to_contain_text("house bot since Fall 1901")
        expect(other.locator("td.status")).to_have_text("house bot")
        expect(watcher.page.locator('#powers tr[data-power="FRANCE"] td.player .away')).to_have_count(0)

        # Done keeps the bot's orders as the player's own: the power is theirs again
        page.get_by_role("button", name=DONE).click()
        expect(page.locator("#done-status")).to_contain_text("You are done: your whole set was sent.")
        options = httpx.get(f"{served_alone}/games/{game_id}/possible-orders",
                            headers={"authorization": f"Bearer {england}"}).json()
        assert options["submitted_by_house_bot"] is False and sorted(options["submitted"]) == [
            "A LVP H", "F EDI H", "F LON H"]
    finally:
        player.page.context.close()
        watcher.page.context.close()
    assert player.problems == [] and watcher.problems == []
