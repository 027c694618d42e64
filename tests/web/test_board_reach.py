"""The board for fingers and keyboards (docs/web.md, "Phones and keyboards"): on a 390-pixel
phone the zoomed board gives every unit a hit area a finger can take (44 pixels at least) and
legible names; without a mouse, a unit is ordered on the board by Tab and Enter alone."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.web.pages import DONE, Player, hosted_game, others_submit
from tests.web.test_done import unit_menus

pytestmark = pytest.mark.postgres

PHONE = {"width": 390, "height": 844}

# For one unit: the box of what takes its clicks, and which unit the points ``reach`` pixels
# left, right, above and below its middle belong to (the page's own hit testing).
HIT_AREA = """([unit, reach]) => {
  const node = document.querySelector(`#board [data-unit="${CSS.escape(unit)}"]`);
  node.scrollIntoView({block: "center", inline: "center"});
  const box = node.querySelector(".hit").getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const owner = (px, py) => document.elementFromPoint(px, py)?.closest("[data-unit]")?.dataset.unit ?? null;
  return {width: box.width, height: box.height,
          around: [owner(x - reach, y), owner(x + reach, y), owner(x, y - reach), owner(x, y + reach)]};
}"""
# The smallest province name's font size as drawn, in pixels of the page.
SMALLEST_NAME = """() => Math.min(...[...document.querySelectorAll("#board #names text")]
  .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))"""


def test_every_unit_is_a_finger_wide_target_on_a_phone(browser: Browser, served: str, shots: Path) -> None:
    """At 390 pixels, **Zoom the board**: each of the 22 units takes the clicks of a disc at
    least 44 pixels across (all four points 20 pixels from its middle are its own), the names
    are as tall as body text, and a tap off the unit's middle selects it."""
    player, _ = hosted_game(browser, served, "Phone", "standard", 7, viewport=PHONE)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        expect(page.locator("#board [data-unit]")).to_have_count(22)
        player.shot(shots, "40-phone-board")
        page.get_by_role("button", name="Zoom the board").click()
        expect(page.get_by_role("button", name="Zoom the board")).to_have_attribute("aria-pressed", "true")
        units = sorted(player.units_on_board())
        assert len(units) == 22
        small: list[tuple[str, Any]] = []
        for unit in units:
            hit = page.evaluate(HIT_AREA, [unit, 20])
            if hit["width"] < 44 or hit["height"] < 44 or hit["around"] != [unit] * 4:
                small.append((unit, hit))
        assert small == []
        assert page.evaluate(SMALLEST_NAME) >= 13

        own = unit_menus(player)[0]
        page.evaluate("(u) => document.querySelector(`#board [data-unit=\"${CSS.escape(u)}\"]`)"
                      ".scrollIntoView({block: 'center', inline: 'center'})", own)
        middle = page.locator(f'#board [data-unit="{own}"] .hit').bounding_box()
        assert middle is not None
        page.mouse.click(middle["x"] + middle["width"] / 2 + 18, middle["y"] + middle["height"] / 2 - 10)
        expect(page.locator("#order-status")).to_have_text(f"{own} selected: click where it goes.")
        expect(page.locator(f'#board [data-unit="{own}"]')).to_have_class(re.compile("selected"))
        page.locator(".board-area").screenshot(path=str(shots / "41-phone-board-zoomed.png"))
    finally:
        player.page.context.close()
    assert player.problems == []


# The board frame's width, the drawing's scrolled width and the frame's sideways scroll.
FRAME = "() => { const f = document.querySelector('#board'); return [f.clientWidth, f.scrollWidth, f.scrollLeft]; }"


def test_the_phone_board_as_it_comes_is_read_and_hit_without_zooming(browser: Browser, served: str,
                                                                      shots: Path) -> None:
    """At 390x844, the board as it comes (not zoomed) is drawn wider than the screen and
    scrolled sideways, opening on the player's own units: its names are at least 9 pixels, each
    of the 22 units takes the taps of a disc at least 24 pixels across (all four points 12
    pixels from its middle are its own), and a tap 10 pixels off one's own unit's middle
    selects it."""
    player, _ = hosted_game(browser, served, "Glance", "standard", 7, viewport=PHONE)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        expect(page.locator("#board [data-unit]")).to_have_count(22)
        expect(page.get_by_role("button", name="Zoom the board")).to_have_attribute("aria-pressed", "false")
        frame = page.evaluate(FRAME)
        assert frame[0] < frame[1] <= 2.2 * frame[0] + 1, frame  # wider than the screen, scrolled sideways
        own = unit_menus(player)
        # the player's own units are in sight as the page opens, before anything is scrolled
        in_sight = page.evaluate("""(units) => { const f = document.querySelector('#board').getBoundingClientRect();
          return units.filter((u) => { const b = document.querySelector(`#board [data-unit="${CSS.escape(u)}"]`)
            .getBoundingClientRect(); return b.left >= f.left && b.right <= f.right; }); }""", own)
        assert in_sight == own
        player.shot(shots, "47-phone-board-as-it-comes")
        assert page.evaluate(SMALLEST_NAME) >= 9
        small: list[tuple[str, Any]] = []
        for unit in sorted(player.units_on_board()):
            hit = page.evaluate(HIT_AREA, [unit, 12])
            if hit["width"] < 24 or hit["height"] < 24 or hit["around"] != [unit] * 4:
                small.append((unit, hit))
        assert small == []
        page.evaluate("(u) => document.querySelector(`#board [data-unit=\"${CSS.escape(u)}\"]`)"
                      ".scrollIntoView({block: 'center', inline: 'center'})", own[0])
        middle = page.locator(f'#board [data-unit="{own[0]}"] .hit').bounding_box()
        assert middle is not None
        page.mouse.click(middle["x"] + middle["width"] / 2 + 10, middle["y"] + middle["height"] / 2 - 5)
        expect(page.locator("#order-status")).to_have_text(f"{own[0]} selected: click where it goes.")
        # turned sideways, the frame is wide enough for the board as on a desktop; back, the phone's again
        page.set_viewport_size({"width": 844, "height": 390})
        expect(page.locator("#board")).not_to_have_class(re.compile("phone"))
        assert page.evaluate(FRAME)[1] == page.evaluate(FRAME)[0]  # nothing to scroll
        page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
        expect(page.locator("#board")).to_have_class(re.compile("phone"))
        assert page.evaluate(FRAME) == frame[:2] + [page.evaluate(FRAME)[2]]
    finally:
        player.page.context.close()
    assert player.problems == []


def tab_to(player: Player, selector: str, backwards: bool = False, most: int = 200) -> None:
    """Presses Tab (or Shift+Tab) until the focus is on ``selector``."""
    page = player.page
    for _ in range(most):
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"{selector} was not reached by the keyboard in {most} presses")


def test_a_unit_is_ordered_on_the_board_by_the_keyboard_alone(browser: Browser, served: str, shots: Path) -> None:
    """Tab reaches one's own unit on the board (named "Power: A XXX"); Enter selects it; Shift+Tab
    reaches a province it may move to; Enter gives the move (or opens the short menu, walked by
    Tab and Enter); the board is redrawn with the order and the focus is still on that province.
    Once the phase resolves, the board now shows that move faint (**Last phase's moves**)."""
    player, tokens = hosted_game(browser, served, "Keys", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        unit = unit_menus(player)[0]
        menu = page.get_by_role("combobox", name=f"Order for {unit}")
        moves = [text for text in menu.locator("option").all_inner_texts() if re.fullmatch(rf"{unit} - \w+", text)]
        move = moves[0]
        target = move.split(" - ")[1]
        name = player.power.capitalize()
        expect(page.get_by_role("button", name=f"{name}: {unit}")).to_be_visible()
        expect(page.get_by_role("checkbox", name="Last phase's moves")).to_be_hidden()  # nothing resolved yet

        page.locator("#game-name").click()  # the page's start: the keyboard from there
        tab_to(player, f'#board [data-unit="{unit}"]')
        page.keyboard.press("Enter")
        expect(page.locator("#order-status")).to_have_text(f"{unit} selected: click where it goes.")
        tab_to(player, f'#board [data-province="{target}"]', backwards=True)
        page.keyboard.press("Enter")
        dialog = page.get_by_role("dialog")
        if dialog.is_visible():
            for _ in range(10):
                if page.evaluate("document.activeElement.textContent") == move:
                    break
                page.keyboard.press("Tab")
            page.keyboard.press("Enter")
        expect(player.results()).to_contain_text(f"{move} accepted")
        expect(page.locator(f'#board [data-order="{move}"]')).to_have_count(1)
        assert page.evaluate("document.activeElement.dataset.province") == target
        player.shot(shots, "42-desktop-keyboard-order")

        # the phase resolves: the board now draws the move just made, faint, until the box is unticked
        others_submit(served, page.url, tokens, [])
        page.get_by_role("button", name=DONE).click()
        player.wait_for_phase("Fall 1901, movement")
        last = page.locator(f'#board #last-orders [data-last-order="{move}"]')
        expect(last).to_be_visible()
        expect(page.locator("#board")).to_have_attribute("data-phase", "now")
        player.shot(shots, "43-desktop-last-moves")
        page.get_by_role("checkbox", name="Last phase's moves").uncheck()
        expect(last).to_be_hidden()
    finally:
        player.page.context.close()
    assert player.problems == []


# The board frame's scroll and the page's, as a reader's eye keeps them.
SCROLLS = """() => { const frame = document.querySelector("#board");
  return [Math.round(frame.scrollLeft), Math.round(frame.scrollTop), Math.round(window.scrollY)]; }"""
# A point of province ``code`` inside the board's frame as it is scrolled now (nothing scrolled
# to reach it), which the province itself receives.
VISIBLE_POINT = """(code) => {
  const frame = document.querySelector("#board").getBoundingClientRect();
  const region = document.querySelector(`#board [data-province="${code}"]`);
  const box = region.getBoundingClientRect();
  for (let i = 1; i < 16; i++) for (let j = 1; j < 16; j++) {
    const x = box.left + box.width * i / 16, y = box.top + box.height * j / 16;
    const bottom = Math.min(frame.bottom, innerHeight) - 4;
    const inside = x > frame.left + 4 && x < frame.right - 4 && y > frame.top + 4 && y < bottom;
    if (!inside) continue;
    const hit = document.elementFromPoint(x, y);
    if (hit && hit.closest("[data-unit]") === null && hit.closest("[data-province]") === region) return [x, y];
  }
  return null;
}"""


def test_a_stored_order_keeps_the_zoomed_board_where_it_was(browser: Browser, served: str, shots: Path) -> None:
    """On a phone, zoomed and scrolled to one's own unit: the unit clicked, then the place it
    goes; the board redrawn with the order is still scrolled where the finger left it (the
    frame and the page), so the next tap lands where the player looks."""
    player, _ = hosted_game(browser, served, "Still", "standard", 7, viewport=PHONE)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        expect(page.locator("#board [data-unit]")).to_have_count(22)  # the board is drawn after the menus
        page.get_by_role("button", name="Zoom the board").click()
        units = unit_menus(player)
        for unit in units:
            menu = page.get_by_role("combobox", name=f"Order for {unit}")
            moves = [text for text in menu.locator("option").all_inner_texts() if re.fullmatch(rf"{unit} - \w+", text)]
            page.evaluate("(u) => document.querySelector(`#board [data-unit=\"${CSS.escape(u)}\"]`)"
                          ".scrollIntoView({block: 'center', inline: 'center'})", unit)
            target = next((m.split(" - ")[1] for m in moves if page.evaluate(VISIBLE_POINT, m.split(" - ")[1])), None)
            if target:
                break
        assert target, "no unit of the player's has a move to a place in sight"
        move = f"{unit} - {target}"
        before = page.evaluate(SCROLLS)
        assert before[0] > 0 or before[1] > 0, before  # the frame is scrolled away from its corner
        hit = page.locator(f'#board [data-unit="{unit}"] .hit').bounding_box()
        assert hit is not None
        page.mouse.click(hit["x"] + hit["width"] / 2, hit["y"] + hit["height"] / 2)
        expect(page.locator("#order-status")).to_have_text(f"{unit} selected: click where it goes.")
        assert page.evaluate(SCROLLS) == before
        page.mouse.click(*page.evaluate(VISIBLE_POINT, target))
        dialog = page.get_by_role("dialog")
        if dialog.is_visible():  # the short menu: the move, or a support into the same place
            dialog.get_by_role("button", name=move, exact=True).click()
        expect(player.results()).to_contain_text(f"{move} accepted")
        expect(page.locator(f'#board [data-order="{move}"]')).to_have_count(1)
        page.wait_for_timeout(300)  # any later redraw of the same answer
        assert page.evaluate(SCROLLS) == before
        page.screenshot(path=str(shots / "44-phone-zoomed-after-order.png"))
    finally:
        player.page.context.close()
    assert player.problems == []
