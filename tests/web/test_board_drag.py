"""Orders drawn by dragging (docs/web.md, "Orders"): one's own unit dragged by the mouse, or by a
finger on a phone, to a place it may move to gives that move, as a click on the unit and then the
place does; dragged to a place it cannot reach, nothing is stored and the page says so; a
movement of a few pixels is a click."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, CDPSession, Page, expect

from tests.web.pages import Player, hosted_game
from tests.web.test_board_reach import PHONE, SCROLLS, VISIBLE_POINT
from tests.web.test_done import unit_menus

pytestmark = pytest.mark.postgres

# Places far from every opening unit: one of them is never a destination of the unit dragged.
FAR = ("MOS", "NAF", "FIN", "SYR", "SPA", "NWY", "TUN", "ARM")


def middle_of(page: Page, unit: str) -> tuple[float, float]:
    """The middle of ``unit``'s hit disc, scrolled into view first. The locator waits for the
    unit to be drawn: the board is redrawn when the game's state arrives, after the menus may."""
    page.locator(f'#board [data-unit="{unit}"]').evaluate(
        "(e) => e.scrollIntoView({block: 'center', inline: 'center'})")
    box = page.locator(f'#board [data-unit="{unit}"] .hit').bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def moves_of(page: Page, unit: str) -> list[str]:
    """The places ``unit`` may move to, from its order menu."""
    menu = page.get_by_role("combobox", name=f"Order for {unit}")
    return [text.split(" - ")[1] for text in menu.locator("option").all_inner_texts()
            if re.fullmatch(rf"{unit} - \w+", text)]


def mouse_drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def finger_drag(touch: CDPSession, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger put down at ``start`` and moved to ``end`` in ten steps, then lifted."""
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
    for step in range(1, 11):
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": start[0] + (end[0] - start[0]) * step / 10, "y": start[1] + (end[1] - start[1]) * step / 10}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def pick_move(player: Player, move: str) -> None:
    """The short menu, when the drop can mean several orders (a support into the same place)."""
    dialog = player.page.get_by_role("dialog")
    if dialog.is_visible():
        dialog.get_by_role("button", name=move, exact=True).click()


def test_a_unit_dragged_by_the_mouse_is_ordered_there(browser: Browser, served: str, shots: Path) -> None:
    player, _ = hosted_game(browser, served, "Drag", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        expect(page.locator("#board [data-unit]")).to_have_count(22)  # the board is drawn after the menus
        unit = unit_menus(player)[0]
        reachable = moves_of(page, unit)
        page.locator("#board").scroll_into_view_if_needed()
        # a press moved by four pixels is a click: the unit is selected, nothing is ordered
        x, y = middle_of(page, unit)
        mouse_drag(page, (x, y), (x + 4, y))
        expect(page.locator("#order-status")).to_have_text(f"{unit} selected: click where it goes.")
        page.keyboard.press("Escape")
        expect(page.locator("#order-status")).to_have_text("Nothing selected.")

        # dragged to a place it cannot reach: nothing stored, and the page says why
        texts = " ".join(page.get_by_role("combobox", name=f"Order for {unit}").locator("option").all_inner_texts())
        far = next(code for code in FAR if code not in texts and page.evaluate(VISIBLE_POINT, code))
        mouse_drag(page, middle_of(page, unit), page.evaluate(VISIBLE_POINT, far))
        expect(page.locator("#order-status")).to_have_text(f"{unit} has no order toward {far}.")
        expect(page.locator("#board [data-order]")).to_have_count(0)
        expect(page.locator("#board .drag-line")).to_have_count(0)
        expect(page.locator(f'#board [data-unit="{unit}"]')).not_to_have_class(re.compile("selected"))

        # dragged to a place it may move to: the move is stored and drawn
        target = next(code for code in reachable if page.evaluate(VISIBLE_POINT, code))
        move = f"{unit} - {target}"
        mouse_drag(page, middle_of(page, unit), page.evaluate(VISIBLE_POINT, target))
        pick_move(player, move)
        expect(player.results()).to_contain_text(f"{move} accepted")
        expect(page.locator(f'#board [data-order="{move}"]')).to_have_count(1)
        expect(page.get_by_role("combobox", name=f"Order for {unit}")).to_have_value(move)
        player.shot(shots, "45-desktop-dragged-move")

        # another power's unit is not dragged: the press and drag order nothing
        others = [u for u in player.units_on_board() if u not in unit_menus(player)]
        mouse_drag(page, middle_of(page, others[0]), page.evaluate(VISIBLE_POINT, target))
        expect(page.locator("#board [data-order]")).to_have_count(1)
    finally:
        player.page.context.close()
    assert player.problems == []


def test_a_unit_dragged_by_a_finger_on_a_phone_is_ordered_there(browser: Browser, served: str, shots: Path) -> None:
    """At 390x844 with a touch screen: a finger's drag (touch events through Chromium's
    DevTools protocol, which the page gets as pointer events of type "touch") from one's own unit
    to a place it may move to gives the move."""
    player, _ = hosted_game(browser, served, "Finger", "standard", 7, viewport=PHONE, has_touch=True)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        expect(page.locator("#board [data-unit]")).to_have_count(22)  # the board is drawn after the menus
        found = None
        for unit in unit_menus(player):
            start = middle_of(page, unit)
            target = next((code for code in moves_of(page, unit) if page.evaluate(VISIBLE_POINT, code)), None)
            if target:
                found = unit, target, start
                break
        assert found, "no unit of the player's has a move to a place in sight"
        unit, target, (x, y) = found
        end = page.evaluate(VISIBLE_POINT, target)
        touch = page.context.new_cdp_session(page)
        before = page.evaluate(SCROLLS)
        finger_drag(touch, (x, y), end)
        move = f"{unit} - {target}"
        pick_move(player, move)
        expect(player.results()).to_contain_text(f"{move} accepted")
        expect(page.locator(f'#board [data-order="{move}"]')).to_have_count(1)
        assert page.evaluate(SCROLLS) == before  # the finger dragged the unit, not the board
        # a finger's swipe that starts off one's units still scrolls the board sideways
        start = page.evaluate(VISIBLE_POINT, target)
        finger_drag(touch, start, (start[0] + (120 if before[0] > 150 else -120), start[1]))
        page.wait_for_timeout(300)
        assert page.evaluate(SCROLLS)[0] != before[0]
        page.screenshot(path=str(shots / "46-phone-dragged-move.png"))
    finally:
        player.page.context.close()
    assert player.problems == []
