"""A game open to DAIDE bots created from the lobby page's form (docs/bots.md, "A port per game"):
the box sets ``daide_open``, and the game's summary says so."""
from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser

pytestmark = pytest.mark.postgres


def test_the_lobby_form_opens_a_game_to_daide_bots(browser: Browser, served: str) -> None:
    page = browser.new_context().new_page()
    page.goto(f"{served}/")
    page.get_by_label("Name", exact=True).fill("Bots night")
    page.get_by_label(re.compile("Open to DAIDE bots")).check()
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r"/play/g_"))
    game_id = re.search(r"/play/(g_[0-9a-f]+)", page.url)
    assert game_id is not None
    summary = httpx.get(f"{served}/games/{game_id.group(1)}").json()
    assert summary["settings"]["daide_open"] is True and summary["daide_port"] is None
