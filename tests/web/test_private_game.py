"""A private game through the web client (docs/hosting.md, "Private games"): the host creates
it on the lobby page and is shown an invite link; the lobby does not list it; a stranger who
finds its page cannot join; a friend with the link joins from it."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.web.pages import Player

pytestmark = pytest.mark.postgres


def test_a_private_game_is_joined_from_its_invite_link_only(browser: Browser, served_alone: str) -> None:
    host, stranger, friend = (Player(browser.new_context().new_page(), name) for name in ("host", "stranger", "friend"))
    host.page.goto(f"{served_alone}/")
    host.page.get_by_label("Name", exact=True).fill("Secret table")
    host.page.get_by_label("Private: not listed here; only players with the invite link can join").check()
    host.page.get_by_role("button", name="Create game").click()
    host.page.wait_for_url(re.compile(r"/play/g_"))
    game_url = host.page.url.split("#")[0]
    link = host.page.get_by_label("A private game: give the players this invite link")
    expect(link).to_be_visible(timeout=15_000)
    invite = link.input_value()
    assert invite.startswith(f"{game_url}#invite=")

    stranger.page.goto(f"{served_alone}/")
    expect(stranger.page.get_by_role("button", name="Create game")).to_be_visible()
    expect(stranger.page.locator("#forming-status")).to_contain_text("No game is waiting", timeout=15_000)
    expect(stranger.page.get_by_role("button", name="Join Secret table")).to_have_count(0)
    stranger.page.goto(game_url)
    expect(stranger.page.locator("#seat-status")).to_contain_text("0 of 7 seats taken", timeout=15_000)
    stranger.page.get_by_role("button", name="Join this game").click()
    expect(stranger.page.locator("#seat-status")).to_contain_text("Could not join", timeout=15_000)
    expect(stranger.page.locator("#seat-status")).to_contain_text("private")

    friend.page.goto(invite)
    friend.page.get_by_role("button", name="Join this game").click()
    expect(friend.page.locator("#seat-status")).to_contain_text("you are", timeout=15_000)
    assert "#invite" not in friend.page.url  # taken out of the address
    for player in (host, friend):
        assert player.problems == [], player.problems
    assert all("403" in problem for problem in stranger.problems), stranger.problems  # the refused join only
