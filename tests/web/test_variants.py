"""The Dirigible variant and the Tale of Ekonia through the web client (docs/web.md): a
Dirigible opening build, and an Ekonia turn with a purchase and an espionage mission, made
on the page by one player while the others play over the API."""
from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.web.pages import DONE, Player, ekonia_opening, hosted_game, others_submit

pytestmark = pytest.mark.postgres


def test_a_dirigible_opening_build_on_the_page(browser: Browser, served: str, shots: Path) -> None:
    player, tokens = hosted_game(browser, served, "Zeppelins", "dirigible", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Winter 1900, adjustments")
        homes = httpx.get(f"{served}/variants/dirigible").json()["powers"][player.power]["home_centres"]
        expect(page.locator("#order-help")).to_contain_text("SP to build with")
        player.order_by_clicking(homes[0], "", f"D {homes[0]} B")  # a dirigible, from the site's menu
        player.type_orders([f"A {homes[1]} B"])
        expect(player.results()).to_contain_text(f"A {homes[1]} B accepted")
        player.shot(shots, "10-dirigible-opening-builds")
        others_submit(served, page.url, tokens, ["WAIVE"])
        player.wait_for_phase("Spring 1901, movement")
        expect(player.board().locator(f'[data-unit="D {homes[0]}"]')).to_have_count(1)
        expect(player.board().locator(f'[data-unit="A {homes[1]}"]')).to_have_count(1)
        expect(page.locator("#results")).to_contain_text(f"D {homes[0]} B")
        expect(page.get_by_role("combobox", name=f"Order for D {homes[0]}")).to_be_visible()  # the air layer's menu
        player.shot(shots, "11-dirigible-spring-1901")
        same_seat_elsewhere(browser, player)
    finally:
        player.page.context.close()
    assert player.problems == []


def same_seat_elsewhere(browser: Browser, player: Player) -> None:
    """The private link carries the token in its fragment: another browser opening it plays the
    same power, keeps the token, and the address bar keeps no token."""
    player.page.get_by_text("Play on another device").click()
    link = player.page.get_by_role("textbox", name="Your private link").input_value()
    assert "#token=" in link and "?" not in link
    other = Player(browser.new_context().new_page(), "another device")
    try:
        other.page.goto(link)
        assert other.read_power() == player.power
        assert "#" not in other.page.url and "token" not in other.page.url
        other.page.goto(link.split("#")[0])  # the token was kept in local storage
        assert other.read_power() == player.power
    finally:
        other.page.context.close()
    assert other.problems == []


def test_an_ekonia_turn_with_a_purchase_and_a_mission(browser: Browser, served: str, shots: Path) -> None:
    player, tokens = hosted_game(browser, served, "Ekonia", "ekonia", 2)
    try:
        page = player.page
        rival, capital = ekonia_opening(served, player, tokens)
        expect(page.locator("#own")).to_contain_text("Gold50")
        player.order_by_clicking(capital, "", f"BUY 1 INFANTRY AT {capital}")  # the capital's purchases
        mission = f"SPY MAP {rival}"
        page.get_by_role("combobox", name="Orders of the state").select_option(mission)
        page.get_by_role("button", name="Add: Orders of the state").click()
        expect(player.results()).to_contain_text(f"{mission} accepted")
        assert player.orders_box().input_value().splitlines() == [f"BUY 1 INFANTRY AT {capital}", mission]
        player.shot(shots, "12-ekonia-turn-1-orders")
        others_submit(served, page.url, tokens, [])
        expect(page.locator(f'#powers tr[data-power="{player.power}"] .status')).to_have_text("ordering")
        page.get_by_role("button", name=DONE).click()  # orders clicked: not done till said
        player.wait_for_phase("Turn 2")
        expect(page.locator("#results")).to_contain_text(f"BUY 1 INFANTRY AT {capital}")
        expect(page.locator("#results")).to_contain_text(mission)
        # the mission's private result, in the state's knowledge (its roll decides which)
        # in words: "Turn 1: map of Tenshores succeeded: ship yards: none; gas vents: none"
        found = re.compile(f"Turn 1: map of {rival.capitalize()} (succeeded: ship yards: .*; gas vents: |failed)")
        expect(page.locator("#own .knowledge")).to_contain_text(found)
        expect(page.locator("#own")).not_to_contain_text("Gold50")  # 50 spent, then the turn's income
        player.shot(shots, "13-ekonia-turn-2")
    finally:
        player.page.context.close()
    assert player.problems == []


def test_a_seat_of_several_powers_orders_for_each(browser: Browser, served: str, shots: Path) -> None:
    """In a game for two, each seat plays several powers: the page orders for the one chosen.
    Both seats then vote for a draw, and the page shows the game's end and its result."""
    player, tokens = hosted_game(browser, served, "Two of us", "standard", 2,
                                 checked=("Reveal who played whom at the end",))
    try:
        page = player.page
        choice = page.get_by_role("combobox", name="Ordering for")
        powers = choice.locator("option").all_inner_texts()
        assert len(powers) >= 2
        for power in powers[:2]:
            choice.select_option(label=power)
            expect(page.get_by_role("heading", name="Your orders")).to_be_visible()
            # the menus come with the chosen power's possible orders: wait for them, not the last power's
            expect(page.locator("#order-menus")).to_have_attribute("data-power", power.upper())
            first = page.locator("#order-menus label").first
            expect(first).to_contain_text("Order for ")
            unit = first.inner_text().removeprefix("Order for ")
            player.order_by_clicking(unit, unit.split()[1].split("/")[0], f"{unit} H")
            expect(player.board().locator(f'[data-order="{unit} H"]')).to_have_attribute("data-power", power.upper())
        player.shot(shots, "14-two-players-several-powers")
        page.get_by_role("checkbox", name="I vote for a draw").check()
        expect(page.locator("#draw-status")).to_have_text("You vote for a draw.")
        game_id = page.url.rsplit("/", 1)[1]
        other = httpx.post(f"{served}/games/{game_id}/draw", json={"vote": True},
                           headers={"authorization": f"Bearer {tokens[0]}"})
        assert other.json()["passed"] is True
        expect(page.get_by_role("status").filter(has_text="Game over")).to_contain_text("a draw between")
        expect(page.locator("#phase")).to_contain_text("finished")
        codename = page.locator("#me .codename").inner_text()
        expect(page.locator("#banner")).to_contain_text("Played by ")
        expect(page.locator("#banner")).to_contain_text(codename)
        expect(page.locator("#orders-panel")).to_be_hidden()
        player.shot(shots, "15-game-over-draw")
    finally:
        player.page.context.close()
    assert player.problems == []


def test_a_link_to_no_game_says_so(browser: Browser, served: str) -> None:
    player = Player(browser.new_context().new_page(), "lost")
    try:
        player.page.goto(f"{served}/play/g_000000000000")
        expect(player.page.get_by_role("heading", level=1)).to_have_text("No such game")
    finally:
        player.page.context.close()
    # the one error the browser reports is the API's 404 for the view, which the page shows
    assert len(player.problems) == 1 and "404" in player.problems[0]
