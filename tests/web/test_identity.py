"""Signing in on the pages and "your games" on every device (docs/web.md, "Signing in"); the
tab's title counting what is new (docs/web.md, "Notifications")."""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.utils.oauth_provider import CLIENT_ID, CLIENT_SECRET, LocalProvider, serve_in_thread
from tests.utils.served import entente_serve
from tests.web.pages import Player, hosted_game

pytestmark = pytest.mark.postgres

USER = "424242"


@pytest.fixture
def signing_in(postgres_url: str) -> Iterator[str]:
    """``entente serve`` whose sign-in goes to a local provider, where user 424242 approves at
    once (the provider's page stands in for the person logging in: the ``user`` parameter)."""
    provider = LocalProvider()
    provider.add_user(USER, "ada", "Ada Lovelace")
    with serve_in_thread(provider.app()) as provider_url:
        def settings(base_url: str) -> dict[str, str]:
            return {"ENTENTE_OAUTH_AUTHORIZE_URL": f"{provider_url}/oauth2/authorize?user={USER}",
                    "ENTENTE_OAUTH_TOKEN_URL": f"{provider_url}/api/oauth2/token",
                    "ENTENTE_OAUTH_USER_URL": f"{provider_url}/api/users/@me",
                    "ENTENTE_OAUTH_CLIENT_ID": CLIENT_ID, "ENTENTE_OAUTH_CLIENT_SECRET": CLIENT_SECRET,
                    "ENTENTE_OAUTH_REDIRECT_URI": f"{base_url}/auth/callback"}

        with entente_serve(postgres_url, settings) as base_url:
            yield base_url


def sign_in(player: Player, base_url: str) -> None:
    page = player.page
    page.goto(f"{base_url}/")
    page.get_by_role("link", name="Sign in").click()
    expect(page.locator("#account-name")).to_contain_text("Signed in as Ada Lovelace")
    assert "#" not in page.url and "session" not in page.url  # the token left the address bar


def test_a_signed_in_player_finds_the_same_seat_on_a_second_browser(browser: Browser, signing_in: str,
                                                                     shots: Path) -> None:
    """Ada signs in through the provider on her laptop, joins a game from the lobby, and the
    game starts; on her phone (another browser context, nothing in its storage) she signs in
    again: "Your games" lists the game, and its page is her seat: her power and codename, her
    orders panel. Without signing in, the phone sees the public view only."""
    laptop = Player(browser.new_context(viewport={"width": 1366, "height": 900}).new_page(), "laptop")
    phone = Player(browser.new_context(viewport={"width": 390, "height": 844}).new_page(), "phone")
    try:
        created = httpx.post(f"{signing_in}/games",
                             json={"name": "Across devices", "settings": {"player_count": 2}}).json()
        game_id = created["id"]
        sign_in(laptop, signing_in)
        laptop.page.get_by_role("button", name="Join Across devices").click()
        laptop.page.wait_for_url(f"**/play/{game_id}")
        expect(laptop.page.locator("#seat-status")).to_contain_text("you are")
        assert httpx.post(f"{signing_in}/games/{game_id}/players").status_code == 201
        started = httpx.post(f"{signing_in}/games/{game_id}/start",
                             headers={"authorization": f"Bearer {created['host_token']}"})
        assert started.status_code == 200, started.text
        expect(laptop.page.locator("#phase")).to_contain_text(re.compile(r"Spring \d{4}, movement"))
        powers = laptop.page.locator("#me .power-chip").all_inner_texts()
        codename = laptop.page.locator("#me .codename").inner_text()
        assert powers and codename

        phone.page.goto(f"{signing_in}/play/{game_id}")
        expect(phone.page.locator("#me")).to_have_text("Watching (public view)")
        sign_in(phone, signing_in)
        mine = phone.page.locator("#my-games")
        expect(mine).to_contain_text("Across devices")
        expect(mine).to_contain_text(codename)
        phone.shot(shots, "20-phone-signed-in-lobby")
        mine.get_by_role("link", name="Across devices").click()
        phone.page.wait_for_url(f"**/play/{game_id}")
        expect(phone.page.locator("#me .codename")).to_have_text(codename)
        assert phone.page.locator("#me .power-chip").all_inner_texts() == powers
        expect(phone.page.get_by_role("region", name=re.compile(r"Your orders: Spring \d{4}"))).to_be_visible()
        phone.shot(shots, "21-phone-same-seat")

        phone.page.goto(f"{signing_in}/")
        phone.page.get_by_role("button", name="Sign out").click()
        expect(phone.page.get_by_role("link", name="Sign in")).to_be_visible()
        expect(phone.page.locator("#my-games")).not_to_contain_text("Across devices")
    finally:
        laptop.page.context.close()
        phone.page.context.close()
    assert laptop.problems == [] and phone.problems == []


def test_the_tab_title_counts_new_press_until_it_is_read(browser: Browser, served: str) -> None:
    """A message from another power while the press panel is out of view: the tab's title
    counts it; once the player scrolls to the press, the count goes."""
    player, tokens = hosted_game(browser, served, "Title", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901, movement")
        expect(page).to_have_title("Title · Spring 1901, movement: Entente")
        page.evaluate("window.scrollTo(0, 0)")
        game_id = page.url.rsplit("/", 1)[1]
        sent = httpx.post(f"{served}/games/{game_id}/messages", json={"to": "all", "text": "Peace in our time?"},
                          headers={"authorization": f"Bearer {tokens[0]}"})
        assert sent.status_code == 201, sent.text
        expect(page).to_have_title("(1) 1 new message · Title · Spring 1901, movement: Entente")
        expect(page.locator("#press-unread")).to_have_text("1 new")
        page.get_by_role("region", name=re.compile("^Press")).scroll_into_view_if_needed()
        expect(page.locator("#messages")).to_contain_text("Peace in our time?")
        expect(page).to_have_title("Title · Spring 1901, movement: Entente")
    finally:
        player.page.context.close()
    assert player.problems == []
