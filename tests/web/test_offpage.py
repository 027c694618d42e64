"""Notifications with the page closed, on the page (docs/social.md, "Web Push" and "E-mail"): on
a server with a Web Push key and an SMTP server, a seated player finds the Web Push switch and the
e-mail form in the notifications card; the address saved there is the seat's, as the API reads
it back, and is confirmed by the link of the mail it gets (a real SMTP server, aiosmtpd, and the
operator's ``entente notifier --once``); a server without them shows neither."""
from __future__ import annotations

import os
import re
import socket
import subprocess
from collections.abc import Iterator
from email import message_from_bytes

import httpx
import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Browser, expect

from services.notifications.webpush import VapidKey
from tests.cli.test_serve import entente_command
from tests.services.notifications.test_push_and_mail import Mailbox, mail_text
from tests.utils.served import OPERATOR_TOKEN, entente_serve
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
        expect(page.locator("#offpage-status")).to_have_text(
            "A mail with a code went to archduke@example.org: open its link, or type the code here."
            " Reminders go there once it is confirmed.")
        game_id = page.url.rsplit("/", 1)[1]
        stored = httpx.get(f"{served_with_channels}/games/{game_id}/email",
                           headers={"Authorization": f"Bearer {own_token(player)}"})
        assert stored.json() == {"address": "archduke@example.org", "confirmed": False}
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


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=closed_port())
    controller.start()
    try:
        yield box, controller.port
    finally:
        controller.stop()


def test_the_confirmation_mails_link_confirms_the_address(browser: Browser, postgres_url: str,
                                                         smtp: tuple[Mailbox, int]) -> None:
    """The address saved on the page gets a mail (sent by the operator's notifier) whose link,
    opened in the player's browser, confirms it: the page says where reminders go now, the API
    agrees, and the code leaves the address bar. A wrong code typed first is refused with the
    reason."""
    box, port = smtp
    environment = {"ENTENTE_SMTP_URL": f"smtp://127.0.0.1:{port}", "ENTENTE_MAIL_FROM": "entente@example.org"}
    with entente_serve(postgres_url, lambda base: {**environment, "ENTENTE_PUBLIC_URL": base}) as base_url:
        player, _ = hosted_game(browser, base_url, "Confirmed", "standard", 7)
        try:
            page = player.page
            card = page.locator("#notify-panel")
            card.get_by_role("textbox", name="E-mail for deadline reminders").fill("archduke@example.org")
            card.get_by_role("button", name="Save").click()
            expect(page.locator("#offpage-status")).to_contain_text("A mail with a code went to archduke@example.org")
            subprocess.run([*entente_command(), "notifier", "--once", "--database", postgres_url], check=True,
                           env={**os.environ, **environment, "ENTENTE_PUBLIC_URL": base_url,
                                "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "test"},
                           capture_output=True, timeout=60)
            [(recipients, raw)] = [m for m in box.messages if m[0] == ["archduke@example.org"]]
            assert message_from_bytes(raw)["Subject"] == "Confirm this address for your deadline reminders"
            link = re.search(r"(http\S+#email-code=\w+)", mail_text(raw))
            assert link is not None and link[1].startswith(f"{base_url}/play/")

            card.get_by_role("textbox", name="Code from the confirmation mail").fill("WRONGCODE234")
            card.get_by_role("button", name="Confirm").click()
            expect(page.locator("#offpage-status")).to_contain_text("Not confirmed: not the code")

            opened = page.context.new_page()  # the link opened from the mail: a new tab of the same browser
            errors: list[str] = []
            opened.on("pageerror", lambda error: errors.append(str(error)))
            opened.goto(link[1])
            expect(opened.locator("#offpage-status")).to_have_text("Deadline reminders go to archduke@example.org.")
            expect(opened.get_by_role("textbox", name="Code from the confirmation mail")).to_be_hidden()
            assert "email-code" not in opened.url and errors == []
            game_id = opened.url.rsplit("/", 1)[1]
            stored = httpx.get(f"{base_url}/games/{game_id}/email",
                               headers={"Authorization": f"Bearer {own_token(player)}"})
            assert stored.json() == {"address": "archduke@example.org", "confirmed": True}
        finally:
            player.page.context.close()
        # the browser logs the one refused code (422), nothing else
        assert len(player.problems) == 1 and "422" in player.problems[0], player.problems
