"""Notifications with the page closed, on the page (docs/social.md, "Web Push" and "E-mail"): on
a server with a Web Push key and an SMTP server, a seated player finds the Web Push switch and the
e-mail form in the notifications card; the address saved there is the seat's, as the API reads
it back; a server without them shows neither."""
from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, expect

from services.notifications.webpush import VapidKey
from tests.utils.served import entente_serve
from tests.web.pages import hosted_game
from tests.web.test_done import own_token

pytestmark = pytest.mark.postgres


def closed_port() -> int:
    """A port nothing listens on: the SMTP server is never reached by these tests."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def served_with_channels(postgres_url: str) -> Iterator[str]:
    key, port = VapidKey.generate(), closed_port()
    with entente_serve(postgres_url, lambda _: {"ENTENTE_VAPID_PRIVATE_KEY": key,
                                                "ENTENTE_SMTP_URL": f"smtp://127.0.0.1:{port}"}) as base_url:
        yield base_url


def test_a_seat_sets_its_reminder_address_on_the_page(browser: Browser, served_with_channels: str) -> None:
    player, _ = hosted_game(browser, served_with_channels, "Reminders", "standard", 7)
    try:
        page = player.page
        card = page.locator("#notify-panel")
        expect(card.get_by_role("checkbox", name="Notify me on this device with the page closed")).to_be_visible()
        field = card.get_by_role("textbox", name="E-mail for deadline reminders")
        field.fill("a@b")  # a form the browser takes, the server does not (no domain with a dot)
        card.get_by_role("button", name="Save").click()
        expect(page.locator("#offpage-status")).to_contain_text("Not saved")
        field.fill("archduke@example.org")
        card.get_by_role("button", name="Save").click()
        expect(page.locator("#offpage-status")).to_have_text("Deadline reminders go to archduke@example.org.")
        game_id = page.url.rsplit("/", 1)[1]
        stored = httpx.get(f"{served_with_channels}/games/{game_id}/email",
                           headers={"Authorization": f"Bearer {own_token(player)}"})
        assert stored.json() == {"address": "archduke@example.org"}
        page.reload()
        expect(page.locator("#notify-panel").get_by_role("textbox", name="E-mail for deadline reminders")
               ).to_have_value("archduke@example.org")
    finally:
        player.page.context.close()


def test_a_server_without_them_offers_neither(browser: Browser, served: str) -> None:
    player, _ = hosted_game(browser, served, "No reminders", "standard", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Spring 1901")
        expect(page.locator("#push-row")).to_be_hidden()
        expect(page.locator("#email-form")).to_be_hidden()
    finally:
        player.page.context.close()
    assert player.problems == []  # nothing the server lacks was asked for (no 404 in the console)
