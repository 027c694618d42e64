"""One player's browser page on the web client, driven as a person would: controls found by
role and accessible name, the board clicked where a province or unit is drawn; and a game the
page's player hosts while the other seats play over the API."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

SEND_ALL = "Submit all these orders: done"
# The same button in any game: in one that asks for ready flags it reads without ": done"
# (sending the box is not being done there; docs/web.md, Done).
SEND_ALL_ANY = re.compile(r"^Submit all these orders(: done)?$")
DONE = "Done: my orders are final"
POWER_NAMES = {"Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"}

# A point inside the province's drawn region that the region itself receives (not a unit or
# another region drawn over it), in the page's coordinates.
POINT_INSIDE = """(code) => {
  const region = document.querySelector(`#board [data-province="${code}"]`);
  region.scrollIntoView({block: "center", inline: "center"});
  const box = region.getBoundingClientRect();
  for (let i = 1; i < 16; i++) for (let j = 1; j < 16; j++) {
    const x = box.left + box.width * i / 16, y = box.top + box.height * j / 16;
    const hit = document.elementFromPoint(x, y);
    if (hit && hit.closest("[data-unit]") === null && hit.closest("[data-province]") === region) return [x, y];
  }
  return null;
}"""


@dataclass
class Player:
    page: Page
    name: str
    problems: list[str] = field(default_factory=list)
    power: str = ""

    def __post_init__(self) -> None:
        def console(message: ConsoleMessage) -> None:
            if message.type == "error":
                self.problems.append(f"console: {message.text}")

        self.page.on("console", console)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))

    # the lobby and the seats ---------------------------------------------------------

    def join_from_lobby(self, base_url: str, game_name: str, shot: Path | None = None) -> None:
        self.page.goto(f"{base_url}/")
        join = self.page.get_by_role("button", name=f"Join {game_name}")
        expect(join).to_be_visible()
        if shot:
            self.page.screenshot(path=str(shot), full_page=True)
        join.click()
        self.page.wait_for_url(re.compile(r"/play/g_"))
        expect(self.page.locator("#seat-status")).to_contain_text("you are")

    def read_power(self) -> str:
        chip = self.page.locator("#me .power-chip").first  # a seat for several powers shows each
        expect(chip).to_be_visible()
        self.power = chip.inner_text().upper()
        return self.power

    # the board -------------------------------------------------------------------------

    def board(self) -> Any:
        return self.page.locator("#board")

    def click_unit(self, unit: str) -> None:
        self.board().locator(f'[data-unit="{unit}"]').first.click()

    def click_province(self, code: str) -> None:
        point = self.page.evaluate(POINT_INSIDE, code)
        assert point, f"no point of {code} can be clicked"
        self.page.mouse.click(*point)

    def order_by_clicking(self, first: str, then: str, order: str) -> None:
        """Clicks ``first`` (a unit, or a place with nothing selected), then ``then`` (a
        province), picking ``order`` from the short menu if one opens; waits until stored."""
        if first[:2] in ("A ", "F ", "D "):
            self.click_unit(first)
        else:
            self.click_province(first)
        if then:
            self.click_province(then)
        menu = self.page.get_by_role("dialog")
        if menu.is_visible():
            menu.get_by_role("button", name=order, exact=True).click()
        else:
            assert order.split()[2:3] not in (["S"], ["C"]), f"{order}: a support or convoy comes from the menu"
        expect(self.page.locator("#order-results")).to_contain_text(f"{order} accepted")

    def drawn_orders(self) -> list[tuple[str, str, str | None]]:
        found = self.page.eval_on_selector_all(
            "#board [data-order]",
            "nodes => nodes.map(n => [n.dataset.order, n.dataset.power, n.dataset.result || null])")
        return [(order, power, result) for order, power, result in found]

    def units_on_board(self) -> set[str]:
        return set(self.page.eval_on_selector_all("#board [data-unit]", "nodes => nodes.map(n => n.dataset.unit)"))

    # orders ------------------------------------------------------------------------------

    def orders_box(self) -> Any:
        return self.page.get_by_role("textbox", name="Orders, one per line, in any notation")

    def type_orders(self, lines: list[str]) -> None:
        """Adds ``lines`` under the orders already in the box, then sends them all, by the
        keyboard alone: Tab leads from the box to its button, **Submit all these orders**."""
        box = self.orders_box()
        box.focus()
        self.page.keyboard.press("Control+End")
        for line in lines:
            if box.input_value():
                self.page.keyboard.press("Enter")
            self.page.keyboard.type(line)
        self.page.keyboard.press("Tab")
        expect(self.page.get_by_role("button", name=SEND_ALL_ANY)).to_be_focused()
        self.page.keyboard.press("Enter")
        for line in lines:
            expect(self.page.locator("#order-results")).to_contain_text(line)

    def results(self) -> Any:
        return self.page.locator("#order-results")

    def mark_ready(self, last: bool = False) -> None:
        """Presses **Done** (the ready flag); the last one waited for resolves the phase at once
        (the orders panel then gives way to the next phase's)."""
        done = self.page.get_by_role("button", name=DONE)
        expect(done).to_be_enabled()
        done.click()
        if not last:
            expect(self.page.get_by_role("button", name="Undo done")).to_be_visible()
            expect(self.page.get_by_role("status").filter(has_text="Done.")).to_be_visible()

    def wait_for_phase(self, text: str) -> None:
        expect(self.page.locator("#phase")).to_contain_text(text, timeout=20_000)

    def shot(self, folder: Path, name: str) -> None:
        self.page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def hosted_game(browser: Browser, base_url: str, name: str, variant: str, players: int,
                checked: tuple[str, ...] = (), **context: Any) -> tuple[Player, list[str]]:
    """The page's player creates the game and takes the first seat; the others join over the
    API (their tokens are returned); the page starts the game. ``context``: the browser
    context's options (a time zone, permissions, a phone's viewport)."""
    options: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}, **context}
    player = Player(browser.new_context(**options).new_page(), variant)
    page = player.page
    page.goto(f"{base_url}/")
    page.get_by_role("textbox", name="Name").fill(name)
    page.get_by_role("combobox", name="Variant").select_option(variant)
    page.get_by_role("spinbutton", name="Players").fill(str(players))
    for box in checked:
        page.get_by_role("checkbox", name=box).check()
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/play/g_*")
    page.get_by_role("button", name="Join this game").click()
    expect(page.locator("#seat-status")).to_contain_text(f"1 of {players} seats taken")
    game_id = page.url.rsplit("/", 1)[1]
    tokens = [httpx.post(f"{base_url}/games/{game_id}/players").json()["token"] for _ in range(players - 1)]
    page.reload()
    page.get_by_role("button", name="Start the game").click()
    player.read_power()
    return player, tokens


def others_submit(base_url: str, page_url: str, tokens: list[str], orders: list[str]) -> None:
    game_id = page_url.rsplit("/", 1)[1]
    for token in tokens:
        answer = httpx.put(f"{base_url}/games/{game_id}/orders", json={"orders": orders},
                           headers={"authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text


def ekonia_opening(base_url: str, player: Player, tokens: list[str]) -> tuple[str, str]:
    """In a two-player Tale of Ekonia game the page's player has just started: the rival state
    (the other seat's, as its own view names it) and the player's capital."""
    expect(player.page.locator("#phase")).to_contain_text("Turn 1")
    game_id = player.page.url.rsplit("/", 1)[1]
    rival = httpx.get(f"{base_url}/games/{game_id}/view",
                      headers={"authorization": f"Bearer {tokens[0]}"}).json()["viewer"]["power"]
    capital = httpx.get(f"{base_url}/variants/ekonia").json()["states"][player.power]["capital"]
    return rival, capital
