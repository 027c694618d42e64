"""Orders are never lost nor given behind the player's back (docs/web.md, "Orders", "Done",
"The connection"): a set with a refused line does not finish the power, a destructive order
never comes from a click alone, and with the server out of reach the page says so and shows
only what the server stored."""
from __future__ import annotations

import re
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.utils.served import entente_serve
from tests.web.pages import DONE, SEND_ALL, hosted_game, others_submit
from tests.web.test_done import game_of, own_token, place_of, status_of, stored_orders, unit_menus

pytestmark = pytest.mark.postgres


def test_the_last_power_with_a_refused_line_is_not_done_until_it_fixes_it(
        browser: Browser, served: str, shots: Path) -> None:
    """Six powers are done; the seventh types three orders, one of them refused, and submits.
    The phase does not resolve: the power is ordering, the refusal stays listed (even after a
    click stores another order) until the line is fixed; the fixed set resolves the phase."""
    player, tokens = hosted_game(browser, served, "Refused line", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        game_id = game_of(player)
        others_submit(served, page.url, tokens, [])
        first, second, third = unit_menus(player)[:3]
        typo = f"{second} - Atlantis"
        box = player.orders_box()
        box.fill("\n".join([f"{first} H", typo, f"{third} H"]))
        page.get_by_role("button", name=SEND_ALL).click()
        expect(player.results()).to_contain_text(f"{typo} refused")
        expect(page.locator("#order-status")).to_contain_text("1 refused: you are not done")
        expect(page.locator("#done-status")).to_contain_text("1 line was refused")
        expect(status_of(player, player.power)).to_have_text("ordering")
        expect(page.locator("#waiting")).to_have_text(f"Waiting for {player.power.capitalize()}.")
        summary = httpx.get(f"{served}/games/{game_id}").json()
        assert summary["phase"] == "S1901M" and summary["waiting_for"] == [player.power]
        player.shot(shots, "20-refused-line-not-done")

        # a click stores another order: the refusal is still on screen, the line still in the box
        player.order_by_clicking(third, place_of(third), f"{third} H")
        expect(player.results()).to_contain_text(f"{typo} refused")
        assert typo in box.input_value().splitlines()

        box.fill("\n".join([f"{first} H", f"{second} H", f"{third} H"]))  # the line fixed
        expect(player.results()).not_to_contain_text("refused")  # the refusal goes with its line
        page.get_by_role("button", name=SEND_ALL).click()
        player.wait_for_phase("Fall 1901, movement")
        assert httpx.get(f"{served}/games/{game_id}").json()["phase"] == "F1901M"
    finally:
        player.page.context.close()
    assert player.problems == []


def test_done_after_seeing_a_refusal_finishes_the_power(browser: Browser, served: str) -> None:
    player, tokens = hosted_game(browser, served, "Refused then done", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        others_submit(served, page.url, tokens, [])
        first = unit_menus(player)[0]
        player.orders_box().fill(f"{first} H\nA XXX - YYY")
        page.get_by_role("button", name=SEND_ALL).click()
        expect(page.locator("#done-status")).to_contain_text("press Done to keep only the orders stored")
        page.get_by_role("button", name=DONE).click()
        player.wait_for_phase("Fall 1901, movement")
        expect(page.locator("#results")).to_contain_text(f"{first} H")
    finally:
        player.page.context.close()
    assert player.problems == []


def test_two_clicks_on_ones_own_unit_never_disband_it(browser: Browser, served: str, shots: Path) -> None:
    """Tale of Ekonia: the unit on one's capital clicked twice opens a menu whose choice is
    named "Disband: … (destroys the unit)"; nothing is stored by the clicks; Escape closes the
    menu, and a second Escape lets go of the unit."""
    player, _ = hosted_game(browser, served, "Ekonia clicks", "ekonia", 2)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Turn 1")
        capital = httpx.get(f"{served}/variants/ekonia").json()["states"][player.power]["capital"]
        # the groups on the board in words, for a reader who does not see it
        expect(page.locator("#units-text")).to_contain_text(re.compile(r"[A-Z]+ at [a-z-]+"))
        expect(page.locator("#units-text")).not_to_contain_text("[object Object]")
        unit = player.board().locator(f'[data-unit^="{player.power} "][data-unit$=" {capital}"]').first
        expect(unit).to_be_attached()
        unit.click()
        expect(page.locator("#order-status")).to_contain_text("selected")
        unit.click()
        menu = page.get_by_role("dialog")
        expect(menu).to_be_visible()
        expect(menu.get_by_role("button", name=re.compile(r"^Disband: .*\(destroys the unit\)$"))).to_be_visible()
        player.shot(shots, "21-ekonia-disband-is-a-menu-choice")
        assert stored_orders(served, game_of(player), own_token(player)) == []
        page.keyboard.press("Escape")
        expect(menu).to_be_hidden()
        page.keyboard.press("Escape")
        expect(page.locator("#order-status")).to_have_text("Nothing selected.")
        expect(player.board().locator(".selected")).to_have_count(0)
        assert stored_orders(served, game_of(player), own_token(player)) == []
    finally:
        player.page.context.close()
    assert player.problems == []


def test_with_the_server_down_the_page_says_so_and_shows_only_what_was_stored(
        browser: Browser, postgres_url: str, shots: Path) -> None:
    """The server stops while a player orders: the page shows that the connection is lost,
    the menu picked goes back to the order stored (none), and when the server is back the
    banner goes and nothing was sent behind the player's back."""
    with ExitStack() as running:
        served = running.enter_context(entente_serve(postgres_url))
        port = urlsplit(served).port
        player, _ = hosted_game(browser, served, "Server down", "standard", 7)
        try:
            page = player.page
            expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
            first = unit_menus(player)[0]
            token = own_token(player)
            running.close()  # the server goes away
            expect(page.locator("#connection")).to_be_visible(timeout=15_000)
            menu = page.get_by_role("combobox", name=f"Order for {first}")
            menu.select_option(f"{first} H")
            expect(page.locator("#order-status")).to_contain_text("Not sent: the server cannot be reached")
            expect(menu).to_have_value("")  # "no order": what the server has
            player.shot(shots, "22-server-down")

            with entente_serve(postgres_url, port=port) as again:
                expect(page.locator("#connection")).to_be_hidden(timeout=20_000)
                assert stored_orders(again, game_of(player), token) == []  # nothing resent by itself
                expect(menu).to_have_value("")
        finally:
            player.page.context.close()
    assert [p for p in player.problems if "Failed to load resource" not in p] == []
