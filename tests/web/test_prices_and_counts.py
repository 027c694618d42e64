"""What the variants' orders cost, and what a state holds, said right on the page (docs/web.md,
"The variants"): Dirigible's builds priced in supply points and its devastation in the map's
key; Tale of Ekonia's menus priced in gold, the gold left counting espionage, and the powers
table counting every group of one's own state (the public board leaves out what cities hide)."""
from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.web.pages import ekonia_opening, hosted_game

pytestmark = pytest.mark.postgres


def test_dirigible_builds_are_priced_and_the_key_names_devastation(browser: Browser, served: str, shots: Path) -> None:
    player, _ = hosted_game(browser, served, "Priced", "dirigible", 7)
    try:
        page = player.page
        expect(page.locator("#phase")).to_contain_text("Winter 1900, adjustments")
        home = httpx.get(f"{served}/variants/dirigible").json()["powers"][player.power]["home_centres"][0]
        options = page.get_by_role("combobox", name=f"Build at {home}").locator("option")
        expect(options.filter(has_text=f"D {home} B (3 SP)")).to_have_count(1)
        expect(options.filter(has_text=re.compile(rf"^A {home} B \(4 SP\)$"))).to_have_count(1)
        key = page.locator('#board [data-key="devastated"]')
        expect(key).to_have_count(1)
        expect(key).to_contain_text("Devastated centre")
        player.shot(shots, "14-dirigible-priced-builds")
    finally:
        player.page.context.close()
    assert player.problems == []


def test_ekonia_gold_counts_espionage_and_the_table_counts_every_own_group(
        browser: Browser, served: str, shots: Path) -> None:
    player, tokens = hosted_game(browser, served, "Purse", "ekonia", 2)
    try:
        page = player.page
        rival, capital = ekonia_opening(served, player, tokens)
        expect(page.locator("#own")).to_contain_text("Gold50")
        expect(page.locator("#own")).to_contain_text("Units3")
        # the table counts what the panel counts, hidden groups in the capital included
        expect(page.locator(f'#powers tr[data-power="{player.power}"] td').nth(2)).to_have_text("3")
        expect(page.locator("#units-text")).to_contain_text(f"INFANTRY at {capital}")

        state_menu = page.get_by_role("combobox", name="Orders of the state")
        mission = f"SPY MAP {rival}"
        expect(state_menu.locator("option", has_text=f"{mission} (40 gold)")).to_have_count(1)
        morale = re.compile(r"^MORALE 1 \(5 gold a unit: 15 gold\)$")  # three units held
        expect(state_menu.locator("option", has_text=morale)).to_have_count(1)
        buy = page.get_by_role("combobox", name=f"Buy or improve at {capital}")
        expect(buy.locator("option", has_text=f"BUY 1 INFANTRY AT {capital} (10 gold)")).to_have_count(1)

        state_menu.select_option(mission)
        page.get_by_role("button", name="Add: Orders of the state").click()
        expect(player.results()).to_contain_text(f"{mission} accepted")
        expect(page.locator("#own")).to_contain_text("Gold10 left after the 40 gold ordered (50 now)")
        player.shot(shots, "15-ekonia-gold-after-a-mission")
    finally:
        player.page.context.close()
    assert player.problems == []
