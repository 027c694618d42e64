"""What a player has picked and not yet sent survives the redraws that views cause while they
pick (another power's submission, an order stored from their other device), and goes when
the phase it was picked in resolves under it (docs/web.md, "Live updates")."""
from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.web.pages import Player, hosted_game, others_submit

pytestmark = pytest.mark.postgres


def game_of(player: Player) -> str:
    return player.page.url.rsplit("/", 1)[1]


def power_of(base_url: str, game_id: str, token: str) -> str:
    view = httpx.get(f"{base_url}/games/{game_id}/view", headers={"authorization": f"Bearer {token}"}).json()
    return str(view["viewer"]["power"])


def own_token(player: Player) -> str:
    """The seat's token, as the page offers it for another device."""
    player.page.get_by_text("Play on another device").click()
    link = player.page.get_by_role("textbox", name="Your private link").input_value()
    player.page.get_by_text("Play on another device").click()
    return link.split("#token=", 1)[1]


def shown_as(player: Player, power: str, status: str) -> None:
    """Waits until the page shows ``power`` as ``status`` ("done", "ordered": a whole set sent in
    a game that asks for ready flags, "ordering": orders stored one at a time): the view of its
    submission has arrived."""
    expect(player.page.locator(f'#powers tr[data-power="{power}"] td.status')).to_have_text(status)


def type_without_sending(player: Player, text: str) -> None:
    box = player.orders_box()
    box.focus()
    player.page.keyboard.press("Control+End")
    if box.input_value():
        player.page.keyboard.press("Enter")
    player.page.keyboard.type(text)


def unit_menus(player: Player) -> list[str]:
    labels = player.page.locator("#order-menus label").filter(has_text="Order for ")
    expect(labels.first).to_be_visible()
    return [label.removeprefix("Order for ") for label in labels.all_inner_texts()]


def test_a_pick_survives_the_views_that_arrive_while_the_player_picks(browser: Browser, served: str) -> None:
    """Tale of Ekonia, ready flags required (nothing resolves meanwhile): a mission picked in the
    state's menu and not added, the capital's purchases open beside the board, a line half
    typed; then the rival orders and the player's other device stores an order. All three
    are still there, and each is then sent as it was picked."""
    player, tokens = hosted_game(browser, served, "Picking", "ekonia", 2,
                                 checked=("Resolve early only when everyone is ready",))
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Turn 1")
        game_id = game_of(player)
        rival = power_of(served, game_id, tokens[0])
        capital = httpx.get(f"{served}/variants/ekonia").json()["states"][player.power]["capital"]
        mission, half_line = f"SPY MAP {rival}", "BUY 1 CAV"
        purchase = f"BUY 1 INFANTRY AT {capital}"

        type_without_sending(player, half_line)
        state_menu = page.get_by_role("combobox", name="Orders of the state")
        state_menu.select_option(mission)
        player.click_province(capital)
        choices = page.get_by_role("dialog")
        expect(choices.get_by_role("button", name=purchase, exact=True)).to_be_visible()

        others_submit(served, page.url, tokens, [])
        shown_as(player, rival, "ordered")
        elsewhere = httpx.patch(f"{served}/games/{game_id}/orders", json={"orders": [f"TRADE WITH {rival}"]},
                                headers={"authorization": f"Bearer {own_token(player)}"})
        assert elsewhere.status_code == 200, elsewhere.text
        shown_as(player, player.power, "ordering")  # the view of the other device's order has arrived

        expect(choices).to_be_visible()
        expect(state_menu).to_have_value(mission)
        expect(player.orders_box()).to_have_value(half_line)
        choices.get_by_role("button", name=purchase, exact=True).click()
        expect(player.results()).to_contain_text(f"{purchase} accepted")
        page.get_by_role("button", name="Add: Orders of the state").click()
        expect(player.results()).to_contain_text(f"{mission} accepted")
        # the box, being typed in, kept the half line as it was and took in every stored order
        # above it: the other device's, then each pick's (docs/web.md, "Orders")
        expect(player.orders_box()).to_have_value(f"{mission}\nTRADE WITH {rival}\n{purchase}\n{half_line}")
    finally:
        player.page.context.close()
    assert player.problems == []


def test_a_pick_goes_when_the_phase_resolves_under_it(browser: Browser, served: str) -> None:
    """Standard, seven seats: a unit selected on the board stays selected while another power
    orders (its next click gives its order); a second one selected and a line half typed are
    dropped when the last power's orders resolve the phase."""
    player, tokens = hosted_game(browser, served, "Resolving", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        game_id = game_of(player)
        first, second, third = unit_menus(player)[:3]
        player.order_by_clicking(first, first.split()[1].split("/")[0], f"{first} H")  # its own province: its hold

        player.click_unit(second)
        expect(player.board().locator(".selected")).to_have_attribute("data-unit", second)
        others_submit(served, page.url, tokens[:1], [])
        shown_as(player, power_of(served, game_id, tokens[0]), "done")
        expect(player.board().locator(".selected")).to_have_attribute("data-unit", second)
        player.click_unit(second)
        expect(player.results()).to_contain_text(f"{second} H accepted")

        player.click_unit(third)
        expect(player.board().locator(".selected")).to_have_attribute("data-unit", third)
        half_line = f"{third} -"
        type_without_sending(player, half_line)
        others_submit(served, page.url, tokens[1:], [])
        shown_as(player, player.power, "ordering")  # its clicks stored orders, but it is not done
        done = httpx.post(f"{served}/games/{game_id}/ready", headers={"authorization": f"Bearer {own_token(player)}"})
        assert done.status_code == 200 and done.json()["resolved"] is True, done.text  # done on another device
        player.wait_for_phase("Fall 1901, movement")

        expect(player.board().locator(".selected")).to_have_count(0)
        expect(player.orders_box()).to_have_value("")
        player.click_unit(third)  # selected anew, not ordered by the click picked last phase
        expect(page.locator("#order-status")).to_have_text(f"{third} selected: click where it goes.")
        expect(player.results()).to_be_empty()
    finally:
        player.page.context.close()
    assert player.problems == []


def unit_menu(player: Player, unit: str) -> Any:
    return player.page.get_by_role("combobox", name=f"Order for {unit}")


def test_orders_stored_from_the_other_device_show_at_once(browser: Browser, served: str) -> None:
    """Standard, seven seats: orders the seat's other device stores appear in the page's menus,
    its warning about units without orders and its orders box without a reload; while the player types in the box, the
    box stays theirs and the menus still follow."""
    player, _ = hosted_game(browser, served, "Two devices", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        game_id = game_of(player)
        first, second = unit_menus(player)[:2]
        lacking = re.compile(rf"no order yet: [A-Z/, ]*\b{re.escape(first)}\b")
        expect(page.locator("#lacking")).to_contain_text(lacking)
        other_device = {"authorization": f"Bearer {own_token(player)}"}

        stored = httpx.put(f"{served}/games/{game_id}/orders", json={"orders": [f"{first} H"]}, headers=other_device)
        assert stored.status_code == 200, stored.text
        expect(player.orders_box()).to_have_value(f"{first} H")
        expect(unit_menu(player, first)).to_have_value(f"{first} H")
        expect(page.locator("#lacking")).not_to_contain_text(lacking)
        expect(page.locator("#order-status")).to_contain_text("changed elsewhere")

        type_without_sending(player, f"{second} -")
        added = httpx.patch(f"{served}/games/{game_id}/orders", json={"orders": [f"{second} H"]}, headers=other_device)
        assert added.status_code == 200, added.text
        expect(unit_menu(player, second)).to_have_value(f"{second} H")
        expect(player.orders_box()).to_have_value(f"{first} H\n{second} -")  # what is being typed stays
    finally:
        player.page.context.close()
    assert player.problems == []
