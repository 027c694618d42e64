"""What the panels say (docs/web.md, "Orders", "Done"): a convoyed army typed with VIA has its
order; a retreat phase says unordered dislodged units are disbanded, and the results say where
the attack came from; unused builds are warned of; a move by convoy beside the same move
overland is offered once by a click and named in the menu.

The game is played over the API (each power's orders sent with its token) and each page is
opened with the seat's own token in the link, as "Play on another device" gives it."""
from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.web.pages import SEND_ALL, Player

pytestmark = pytest.mark.postgres

ORDERS = {  # what each power sends in each phase; the others hold
    "S1901M": {"ITALY": ["A ROM - APU", "F NAP - ION"], "AUSTRIA": ["A VIE - TYR"],
               "RUSSIA": ["F SEV - BLA", "A MOS - SEV"]},
    "F1901M": {"ITALY": ["A APU - TUN VIA", "F ION C A APU - TUN", "A VEN H"],
               "AUSTRIA": ["F TRI - VEN", "A TYR S F TRI - VEN"], "RUSSIA": ["A SEV - ARM"]},
    "F1901R": {"ITALY": ["A VEN - PIE"]},
    "W1901A": {"AUSTRIA": ["WAIVE"]},
}


def seated_game(base_url: str) -> tuple[str, dict[str, str]]:
    created = httpx.post(f"{base_url}/games", json={"name": "Panels", "variant": "standard",
                                                    "settings": {"player_count": 7}}).json()
    game_id = created["id"]
    tokens = [httpx.post(f"{base_url}/games/{game_id}/players").json()["token"] for _ in range(7)]
    started = httpx.post(f"{base_url}/games/{game_id}/start", headers=auth(created["host_token"]))
    assert started.status_code == 200, started.text
    by_power = {}
    for token in tokens:
        view = httpx.get(f"{base_url}/games/{game_id}/view", headers=auth(token)).json()
        by_power[view["viewer"]["power"]] = token
    return game_id, by_power


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def play(base_url: str, game_id: str, tokens: dict[str, str], phase: str, *, leave: str = "") -> None:
    """Every power that must act sends its orders of ``phase``, but ``leave``'s."""
    summary = httpx.get(f"{base_url}/games/{game_id}").json()
    assert summary["phase"] == phase, summary
    for power in summary["must_act"]:
        if power != leave:
            sent = httpx.put(f"{base_url}/games/{game_id}/orders", headers=auth(tokens[power]),
                             json={"orders": ORDERS[phase].get(power, []), "phase": phase})
            assert sent.status_code == 200 and sent.json()["rejected"] == 0, sent.text


def page_of(browser: Browser, base_url: str, game_id: str, token: str) -> Player:
    player = Player(browser.new_context(viewport={"width": 1366, "height": 900}).new_page(), "seat")
    player.page.goto(f"{base_url}/play/{game_id}#token={token}")
    return player


def test_the_panels_say_what_the_orders_are_and_what_becomes_of_the_rest(
        browser: Browser, served: str, shots: Path) -> None:
    game_id, tokens = seated_game(served)
    play(served, game_id, tokens, "S1901M")
    play(served, game_id, tokens, "F1901M", leave="ITALY")
    italy = page_of(browser, served, game_id, tokens["ITALY"])
    players = [italy]
    try:
        page = italy.page
        expect(page.locator("#phase")).to_contain_text("Fall 1901, movement")
        # a line refused keeps Italy ordering (docs/api.md, "A refused line"): the phase waits
        italy.orders_box().fill("\n".join([*ORDERS["F1901M"]["ITALY"][:2], "A VEN - Atlantis"]))
        page.get_by_role("button", name=SEND_ALL).click()
        expect(italy.results()).to_contain_text("A APU - TUN VIA accepted")
        # the convoyed army has its order: its menu shows it, and it is not "no order yet"
        expect(page.get_by_role("combobox", name="Order for A APU")).to_have_value("A APU - TUN VIA")
        expect(page.locator("#lacking")).to_have_text(
            "1 unit has no order yet: A VEN. They hold if you are done without ordering them.")
        italy.shot(shots, "40-convoyed-army-ordered")
        italy.orders_box().fill("\n".join(ORDERS["F1901M"]["ITALY"]))
        page.get_by_role("button", name=SEND_ALL).click()

        # the retreat: where the attack came from, and what becomes of a unit left unordered
        italy.wait_for_phase("Fall 1901, retreats")
        expect(page.locator("#results")).to_contain_text("A VEN dislodged by the attack from TRI")
        expect(page.locator("#order-help")).to_contain_text("A VEN was dislodged by the attack from TRI")
        expect(page.locator("#lacking")).to_have_text(
            "1 unit has no order yet: A VEN. It is disbanded if you are done without ordering it.")
        italy.shot(shots, "41-retreat-warning")
        play(served, game_id, tokens, "F1901R")

        # the winter: Austria's build not ordered is warned of
        austria = page_of(browser, served, game_id, tokens["AUSTRIA"])
        players.append(austria)
        expect(austria.page.locator("#phase")).to_contain_text("Winter 1901, adjustments")
        expect(austria.page.locator("#lacking")).to_have_text(
            "1 build is not ordered: it is waived if you are done now.")
        austria.shot(shots, "42-unused-build-warning")
        play(served, game_id, tokens, "W1901A")

        # spring 1902: Russia's army in Armenia beside its fleet in the Black Sea
        russia = page_of(browser, served, game_id, tokens["RUSSIA"])
        players.append(russia)
        expect(russia.page.locator("#phase")).to_contain_text("Spring 1902, movement")
        menu = russia.page.get_by_role("combobox", name="Order for A ARM")
        expect(menu.locator("option", has_text="A ARM - SEV VIA (by convoy)")).to_have_count(1)
        expect(menu.locator("option", has_text="A ARM - SEV")).to_have_count(2)  # the move, and by convoy
        russia.click_unit("A ARM")
        expect(russia.page.locator("#order-status")).to_have_text("A ARM selected: click where it goes.")
        russia.click_province("SEV")  # the move and the supports into Sevastopol: the move once, not twice
        dialog = russia.page.get_by_role("dialog")
        expect(dialog).to_be_visible()
        expect(dialog.get_by_role("button", name="A ARM - SEV", exact=True)).to_have_count(1)
        expect(dialog.get_by_role("button", name=re.compile("VIA"))).to_have_count(0)
        russia.shot(shots, "43-adjacent-move-offered-once")
        dialog.get_by_role("button", name="A ARM - SEV", exact=True).click()
        expect(russia.results()).to_contain_text("A ARM - SEV accepted")
        expect(menu).to_have_value("A ARM - SEV")
    finally:
        for player in players:
            player.page.context.close()
    assert all(player.problems == [] for player in players), [p.problems for p in players]
