"""A turn is over when the player says so (docs/web.md, "Done"), and the orders a player gives by
clicking, by the menus and by typing never overwrite one another (docs/web.md, "Orders")."""
from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Request, Route, expect

from tests.web.pages import DONE, SEND_ALL, Player, hosted_game, others_submit

pytestmark = pytest.mark.postgres


def game_of(player: Player) -> str:
    return player.page.url.rsplit("/", 1)[1]


def own_token(player: Player) -> str:
    player.page.get_by_text("Play on another device").click()
    link = player.page.get_by_role("textbox", name="Your private link").input_value()
    player.page.get_by_text("Play on another device").click()
    return link.split("#token=", 1)[1]


def stored_orders(base_url: str, game_id: str, token: str) -> list[str]:
    answer = httpx.get(f"{base_url}/games/{game_id}/possible-orders", headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    return list(answer.json()["submitted"])


def unit_menus(player: Player) -> list[str]:
    labels = player.page.locator("#order-menus label").filter(has_text="Order for ")
    expect(labels.first).to_be_visible()
    return [label.removeprefix("Order for ") for label in labels.all_inner_texts()]


def status_of(player: Player, power: str) -> Any:
    return player.page.locator(f'#powers tr[data-power="{power}"] td.status')


def place_of(unit: str) -> str:
    return unit.split()[1].split("/")[0]


def test_the_last_power_clicking_one_order_does_not_resolve_the_phase_until_it_is_done(
        browser: Browser, served: str) -> None:
    """Standard with the defaults (no ready flags): six powers have sent their orders; the
    seventh clicks one order of its three. The phase waits, the page says for whom and which
    units have no order yet; **Done** resolves it, with the clicked order in the results."""
    player, tokens = hosted_game(browser, served, "Last one", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        game_id = game_of(player)
        others_submit(served, page.url, tokens, [])
        name = player.power.capitalize()
        expect(page.locator("#waiting")).to_have_text(f"Waiting for {name}.")
        first, *rest = unit_menus(player)
        player.order_by_clicking(first, place_of(first), f"{first} H")
        expect(status_of(player, player.power)).to_have_text("ordering")
        expect(page.locator("#waiting")).to_have_text(f"Waiting for {name}.")
        expect(page.locator("#lacking")).to_contain_text(f"no order yet: {', '.join(rest)}")
        summary = httpx.get(f"{served}/games/{game_id}").json()
        assert summary["phase"] == "S1901M" and summary["waiting_for"] == [player.power]

        page.get_by_role("button", name=DONE).click()
        player.wait_for_phase("Fall 1901, movement")
        expect(page.locator("#results")).to_contain_text(f"{first} H")
        assert httpx.get(f"{served}/games/{game_id}").json()["phase"] == "F1901M"
    finally:
        player.page.context.close()
    assert player.problems == []


def test_done_is_undone_by_undo_done_and_by_changing_an_order(browser: Browser, served: str) -> None:
    """A clicked order, then Done, then Undo done: ordering again. Done again, then a click that
    changes an order: ordering again, and the page says so. Done with nothing stored sends an
    empty whole set (every unit holds), which stays done until an order is changed."""
    player, tokens = hosted_game(browser, served, "Undo", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        first, second = unit_menus(player)[:2]
        own = status_of(player, player.power)
        page.get_by_role("button", name=DONE).click()  # nothing stored yet: an empty whole set
        expect(own).to_have_text("done")
        expect(page.locator("#done-status")).to_contain_text("your whole set was sent")
        expect(page.get_by_role("button", name="Undo done")).to_be_hidden()

        player.order_by_clicking(first, place_of(first), f"{first} H")
        expect(own).to_have_text("ordering")
        page.get_by_role("button", name=DONE).click()
        expect(own).to_have_text("done")
        page.get_by_role("button", name="Undo done").click()
        expect(page.get_by_role("button", name=DONE)).to_be_visible()
        expect(own).to_have_text("ordering")

        page.get_by_role("button", name=DONE).click()
        expect(own).to_have_text("done")
        player.order_by_clicking(second, place_of(second), f"{second} H")
        expect(page.get_by_role("button", name=DONE)).to_be_visible()
        expect(own).to_have_text("ordering")
        expect(page.locator("#done-status")).to_have_text("Not done: the phase waits for you until the deadline.")
        assert httpx.get(f"{served}/games/{game_of(player)}").json()["phase"] == "S1901M"
    finally:
        player.page.context.close()
    assert player.problems == []


def test_typing_while_a_clicks_answer_is_delayed_keeps_both_orders(browser: Browser, served: str) -> None:
    """The player clicks one unit's order; its PATCH is held back while they type another
    unit's order in the box; the answer then arrives. Not a typed character is lost, the
    clicked order joins the box, and sending the box stores both."""
    player, _ = hosted_game(browser, served, "Delayed", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        first, second = unit_menus(player)[:2]
        held: list[Route] = []

        def hold_patches(route: Route, request: Request) -> None:
            if request.method == "PATCH":
                held.append(route)
            else:
                route.continue_()

        page.route("**/orders", hold_patches)
        player.click_unit(first)
        player.click_province(place_of(first))
        for _ in range(100):  # until the click's request reaches the route
            if held:
                break
            page.wait_for_timeout(50)
        assert len(held) == 1
        box = player.orders_box()
        box.focus()
        typed = f"{second} H"
        page.keyboard.type(typed[:4])
        held[0].continue_()
        expect(player.results()).to_contain_text(f"{first} H accepted")
        page.keyboard.type(typed[4:])  # typing goes on where it was
        expect(box).to_have_value(f"{first} H\n{typed}")
        page.unroute("**/orders")

        page.get_by_role("button", name=SEND_ALL).click()
        expect(player.results()).to_contain_text(f"{typed} accepted")
        assert sorted(stored_orders(served, game_of(player), own_token(player))) == sorted([f"{first} H", typed])
    finally:
        player.page.context.close()
    assert player.problems == []


def test_a_menu_walked_by_the_arrow_keys_stores_nothing_until_chosen(browser: Browser, served: str) -> None:
    """Three arrow key presses on a unit's menu show three choices and send nothing; Enter
    gives the one shown, once."""
    player, _ = hosted_game(browser, served, "Arrows", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        first = unit_menus(player)[0]
        token = own_token(player)
        sent: list[str] = []
        page.on("request", lambda request: sent.append(request.method) if request.url.endswith("/orders") else None)
        menu = page.get_by_role("combobox", name=f"Order for {first}")
        menu.focus()
        for _ in range(3):
            page.keyboard.press("ArrowDown")
        shown = menu.input_value()
        assert shown and shown != "", "the arrow keys walk the menu"
        expect(page.locator("#order-status")).to_have_text(re.compile(rf"{re.escape(shown)} for {first}: press Enter"))
        assert stored_orders(served, game_of(player), token) == []
        assert sent == []

        page.keyboard.press("Enter")
        expect(player.results()).to_contain_text(f"{shown} accepted")
        assert sent == ["PATCH"]
        assert stored_orders(served, game_of(player), token) == [shown]
        expect(menu).to_have_value(shown)
    finally:
        player.page.context.close()
    assert player.problems == []


def test_resolve_now_asks_first_and_sends_once(browser: Browser, served: str) -> None:
    """The host's **Resolve the phase now** names the phase and asks; a double click on the
    confirmation sends one request, and the phase resolves once."""
    player, _ = hosted_game(browser, served, "Host resolves", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        resolves: list[str] = []
        page.on("request",
                lambda request: resolves.append(request.method) if request.url.endswith("/resolve") else None)
        page.get_by_role("button", name="Resolve the phase now").click()
        expect(page.locator("#resolve-question")).to_contain_text("Resolve Spring 1901, movement now for everyone?")
        page.get_by_role("button", name="Cancel").click()
        expect(page.locator("#resolve-confirm")).to_be_hidden()
        assert resolves == []

        page.get_by_role("button", name="Resolve the phase now").click()
        page.get_by_role("button", name="Yes, resolve it now").dblclick()
        player.wait_for_phase("Fall 1901, movement")
        assert resolves == ["POST"]
        expect(page.locator("#seat-status")).not_to_contain_text("Refused")
    finally:
        player.page.context.close()
    assert player.problems == []


def test_where_ready_flags_are_asked_for_a_whole_set_sent_is_not_done(browser: Browser, served: str) -> None:
    """A game that resolves early only when everyone is ready: the box's button and note say
    that sending it is not yet done, the page does not call the sent set done, and the phase
    waits for this power until it presses **Done**."""
    player, tokens = hosted_game(browser, served, "Ready flags", "standard", 7,
                                 checked=("Resolve early only when everyone is ready",))
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        game_id = game_of(player)
        others_submit(served, page.url, tokens, [])
        for token in tokens:
            ready = httpx.post(f"{served}/games/{game_id}/ready", headers={"authorization": f"Bearer {token}"})
            assert ready.status_code == 200, ready.text
        first, *_ = unit_menus(player)
        send = page.get_by_role("button", name="Submit all these orders", exact=True)
        expect(send).to_be_visible()
        expect(page.locator("#orders-note")).to_contain_text("this game also asks you to say Done")
        page.locator("#orders").fill(f"{first} H")
        send.click()
        expect(page.locator("#order-status")).to_have_text("1 order stored.")
        expect(page.locator("#done-status")).to_have_text("Not done: the phase waits for you until the deadline.")
        assert httpx.get(f"{served}/games/{game_id}").json()["waiting_for"] == [player.power]

        page.get_by_role("button", name=DONE).click()
        player.wait_for_phase("Fall 1901, movement")
        expect(page.locator("#results")).to_contain_text(f"{first} H")
    finally:
        player.page.context.close()
    assert player.problems == []
