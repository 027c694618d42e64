"""What the standard board shows a player (docs/maps.md, "How the standard board is drawn"):
Ireland drawn as impassable land that no click or key reaches, and every province's name
inside its own region and inside the board, on a desktop and on a phone."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.web.pages import hosted_game
from tests.web.test_done import unit_menus

pytestmark = pytest.mark.postgres

# Ireland's middle on the page, and what the page's own hit testing finds there.
IRELAND = """() => {
  const island = document.querySelector('#board [data-decoration="Ireland"]');
  island.scrollIntoView({block: "center", inline: "center"});
  const box = island.getBoundingClientRect();
  const x = box.left + box.width * 0.6, y = box.top + box.height * 0.5;
  const hit = document.elementFromPoint(x, y);
  return {x, y, decoration: hit?.closest("[data-decoration]")?.dataset.decoration ?? null,
          province: hit?.closest("[data-province]")?.dataset.province ?? null,
          focusable: island.hasAttribute("tabindex"), title: island.querySelector("title")?.textContent};
}"""
# Each province name whose capitals (from its baseline up 0.72 of its font size as the page
# draws it, as wide as its box) do not lie inside its region and the board, in the drawing's units.
NAMES_OUTSIDE = """() => {
  const svg = document.querySelector("#board svg");
  const board = [...svg.querySelectorAll("rect")].find((r) => !r.closest("defs"));
  const width = Number(board.getAttribute("width")), height = Number(board.getAttribute("height"));
  const out = [];
  for (const name of svg.querySelectorAll("#names text")) {
    const code = name.textContent, box = name.getBBox();
    const size = parseFloat(getComputedStyle(name).fontSize), baseline = Number(name.getAttribute("y"));
    const region = svg.querySelector(`[data-province="${code}"]`);
    const corners = [[box.x, baseline - 0.72 * size], [box.x + box.width, baseline - 0.72 * size],
                     [box.x, baseline], [box.x + box.width, baseline]];
    const fits = corners.every(([x, y]) => x >= 0 && x <= width && y >= 0 && y <= height
                                           && region.isPointInFill(new DOMPoint(x, y)));
    if (!fits) out.push(code);
  }
  return out;
}"""


def test_ireland_is_drawn_but_cannot_be_clicked_or_ordered(browser: Browser, served: str, shots: Path) -> None:
    """Ireland is on the board west of Britain, titled as impassable; a tap on it with a unit
    selected gives no order and leaves the unit selected; the keyboard never stops on it; and
    every province's name lies wholly inside its region and the board."""
    player, _ = hosted_game(browser, served, "Ireland", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        island = page.locator('#board [data-decoration="Ireland"]')
        expect(island).to_be_visible()
        found = page.evaluate(IRELAND)
        assert found["decoration"] == "Ireland" and found["province"] is None
        assert found["focusable"] is False and "impassable" in found["title"]
        assert page.locator('#board [data-province="IRE"]').count() == 0
        assert page.evaluate(NAMES_OUTSIDE) == []

        unit = unit_menus(player)[0]
        player.click_unit(unit)
        expect(page.locator("#order-status")).to_have_text(f"{unit} selected: click where it goes.")
        found = page.evaluate(IRELAND)
        page.mouse.click(found["x"], found["y"])
        expect(page.locator("#order-status")).to_have_text(f"{unit} selected: click where it goes.")
        expect(page.locator("#board [data-order]")).to_have_count(0)
        expect(page.get_by_role("dialog")).to_be_hidden()
        player.shot(shots, "50-desktop-ireland")
    finally:
        player.page.context.close()
    assert player.problems == []


def test_names_stay_inside_their_regions_on_a_zoomed_phone(browser: Browser, served: str, shots: Path) -> None:
    player, _ = hosted_game(browser, served, "Names", "standard", 7, viewport={"width": 390, "height": 844})
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        assert page.evaluate(NAMES_OUTSIDE) == []
        page.get_by_role("button", name="Zoom the board").click()
        expect(page.get_by_role("button", name="Zoom the board")).to_have_attribute("aria-pressed", "true")
        assert page.evaluate(NAMES_OUTSIDE) == []
        page.locator('#board [data-province="POR"]').scroll_into_view_if_needed()
        page.locator(".board-area").screenshot(path=str(shots / "51-phone-zoomed-portugal.png"))
    finally:
        player.page.context.close()
    assert player.problems == []
