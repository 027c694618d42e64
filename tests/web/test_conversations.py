"""Press in threads on a phone (docs/web.md, "Press"): on a 390-pixel screen, where the tab's
title is out of sight, a mark that stays in view counts the unread messages; the press shows a
thread per correspondent and per group, each with its unread count; opening a thread shows its
messages alone and marks it read, which a reload (another device) still says; and the draw
panel offers the partial draw and the concession the game's settings allow."""
from __future__ import annotations

import re
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect

from tests.web.pages import hosted_game

PHONE = {"width": 390, "height": 844}


def seats_by_power(served: str, game_id: str, tokens: list[str]) -> dict[str, str]:
    """Each other seat's token by the power it drew."""
    found = {}
    for token in tokens:
        view = httpx.get(f"{served}/games/{game_id}/view", headers={"authorization": f"Bearer {token}"}).json()
        found[view["viewer"]["power"]] = token
    return found


def send(served: str, game_id: str, token: str, to: list[str], text: str) -> None:
    sent = httpx.post(f"{served}/games/{game_id}/messages", json={"to": to, "text": text},
                      headers={"authorization": f"Bearer {token}"})
    assert sent.status_code == 201, sent.text


def test_threads_and_their_unread_mark_on_a_phone(browser: Browser, served: str, shots: Path) -> None:
    player, tokens = hosted_game(browser, served, "Threads", "standard", 7,
                                 checked=("Partial draws", "Concessions"), viewport=PHONE)
    try:
        page = player.page
        game_id = page.url.rsplit("/", 1)[1]
        me = player.power.upper()
        others = seats_by_power(served, game_id, tokens)
        one, two, three = sorted(others)[:3]
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        page.evaluate("window.scrollTo(0, 0)")
        send(served, game_id, others[one], [me], "Just between us.")
        send(served, game_id, others[two], [me, three], "The three of us?")

        mark = page.locator("#unread-mark")
        expect(mark).to_have_text("✉ 2 unread")
        box = mark.bounding_box()
        assert box is not None  # in the viewport with the page scrolled to its top
        assert box["y"] + box["height"] <= PHONE["height"] and box["x"] + box["width"] <= PHONE["width"]
        assert box["height"] >= 44  # a finger's target
        player.shot(shots, "conversations-unread-mark")

        threads = page.get_by_role("list", name="Conversations")
        single = threads.get_by_role("button", name=re.compile(f"^{one.title()}"))
        group = threads.get_by_role("button", name=re.compile(f"^{', '.join(sorted([two.title(), three.title()]))}"))
        expect(single).to_contain_text("1")
        expect(group).to_contain_text("1")
        mark.click()  # to the press, the latest thread with something unread opened: the group's
        expect(group).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#messages li:visible .text")).to_have_text(["The three of us?"])
        expect(mark).to_have_text("✉ 1 unread")
        single.click()
        expect(single).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#messages li:visible .text")).to_have_text(["Just between us."])
        expect(page.locator("#press-to")).to_have_value(one)
        expect(mark).to_be_hidden()
        player.shot(shots, "conversations-thread-open")

        page.reload()  # marks are kept by the server: a reload, or another device, reads them
        expect(page.locator("#threads")).to_be_visible()
        expect(threads.get_by_role("button", name=re.compile(f"^{one.title()}"))).not_to_contain_text("1")

        concede = page.get_by_role("combobox", name="Concede the game to")
        expect(concede).to_be_visible()
        expect(page.get_by_role("group", name="Or the draw of some powers only")).to_be_visible()
        concede.select_option(one)
        page.get_by_role("button", name="Concede", exact=True).click()
        expect(page.locator("#endgame-status")).to_have_text(f"You concede the game to {one.title()}.")
    finally:
        player.page.context.close()
    assert player.problems == []
