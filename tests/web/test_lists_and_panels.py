"""The lobby's lists of games and the game page's panels as a player reads them (docs/web.md):
what a full game, a game with a free seat, a game being played and a finished one offer; the
seat's name while the game forms; the points and gold left after the builds and purchases
ordered; the results shown on the board; the devastated centres listed once; Tale of Ekonia's
reports in words. Games are made over the API; the page is opened where the player looks."""
from __future__ import annotations

import re
import time
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, Route, ViewportSize, expect

from tests.web.pages import Player

pytestmark = pytest.mark.postgres

PHONE = ViewportSize(width=390, height=844)
DESKTOP = ViewportSize(width=1366, height=900)
PHASE_NAMES = {"S": "Spring", "F": "Fall", "W": "Winter"}

# Every text #me shows, from the page's first paint on (a flash of "null" is a text like another).
RECORD_ME = """
window.__me = [];
document.addEventListener("DOMContentLoaded", () => {
  const me = document.getElementById("me");
  const record = () => window.__me.push(me.textContent);
  record();
  new MutationObserver(record).observe(me, {childList: true, subtree: true, characterData: true});
});
"""


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def new_game(served: str, name: str, variant: str, players: int) -> tuple[str, str]:
    """A game created over the API: its id and its host's token."""
    body = {"name": name, "variant": variant, "settings": {"player_count": players}}
    answer = httpx.post(f"{served}/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()["id"], answer.json()["host_token"]


def take_seats(served: str, game_id: str, count: int) -> list[str]:
    tokens = []
    for _ in range(count):
        answer = httpx.post(f"{served}/games/{game_id}/players")
        assert answer.status_code == 201, answer.text
        tokens.append(answer.json()["token"])
    return tokens


def start(served: str, game_id: str, host: str) -> None:
    answer = httpx.post(f"{served}/games/{game_id}/start", headers=bearer(host))
    assert answer.status_code == 200, answer.text


def started_game(served: str, name: str, variant: str, players: int) -> tuple[str, dict[str, str]]:
    """A game with every seat taken and started: its id, and each seat's token by its power."""
    game_id, host = new_game(served, name, variant, players)
    tokens = take_seats(served, game_id, players)
    start(served, game_id, host)
    powers = {}
    for token in tokens:
        viewer = httpx.get(f"{served}/games/{game_id}/view", headers=bearer(token)).json()["viewer"]
        powers[viewer["power"]] = token
    return game_id, powers


def put_orders(served: str, game_id: str, token: str, orders: list[str]) -> None:
    answer = httpx.put(f"{served}/games/{game_id}/orders", json={"orders": orders}, headers=bearer(token))
    assert answer.status_code == 200, answer.text


def seat_page(browser: Browser, served: str, game_id: str, token: str, **context: Any) -> Player:
    """The player's page, opened with the seat's private link."""
    options: dict[str, Any] = {"viewport": DESKTOP, **context}
    player = Player(browser.new_context(**options).new_page(), token[:6])
    player.page.goto(f"{served}/play/{game_id}#token={token}")
    player.read_power()
    return player


def listed(page: Page, game_id: str) -> Locator:
    return page.locator(f'li[data-game="{game_id}"]')


def updated_at(served: str, status: str, game_id: str) -> datetime:
    games = httpx.get(f"{served}/games", params={"status": status}).json()["games"]
    return datetime.fromisoformat(next(g for g in games if g["id"] == game_id)["updated_at"])


def test_the_lobby_lists_forming_full_active_and_finished_games(browser: Browser, served_alone: str) -> None:
    """A full game waiting for its start offers no Join; a game with a free seat does; two games
    of one name are told apart by their date and id; a game being played offers Watch, which opens
    it as the public; a finished one is listed with its result; the variant menu narrows the
    lists; a forming game unchanged for 14 days is not listed (the browser's clock set forward)."""
    forgotten, _ = new_game(served_alone, "Forgotten table", "standard", 7)
    time.sleep(0.05)  # the next games changed later by more than the browser's clock tells apart
    full, _ = new_game(served_alone, "Full table", "standard", 2)
    take_seats(served_alone, full, 2)
    twin_a, _ = new_game(served_alone, "Friday game", "standard", 7)
    twin_b, _ = new_game(served_alone, "Friday game", "standard", 7)
    take_seats(served_alone, twin_b, 1)
    ekonia, _ = new_game(served_alone, "Ekonia table", "ekonia", 3)
    active, _ = started_game(served_alone, "Played now", "standard", 2)
    finished, tokens = started_game(served_alone, "Over and drawn", "standard", 2)
    for token in tokens.values():
        httpx.post(f"{served_alone}/games/{finished}/draw", json={"vote": True}, headers=bearer(token))
    assert httpx.get(f"{served_alone}/games/{finished}").json()["status"] == "finished"

    visitor = Player(browser.new_context(viewport=DESKTOP, timezone_id="UTC", locale="en-GB").new_page(), "visitor")
    page = visitor.page
    try:
        page.goto(f"{served_alone}/")
        forming = page.locator("#forming-games")
        expect(listed(page, forgotten)).to_be_visible()
        expect(forming.locator("li")).to_have_count(5)

        row = listed(page, full)
        expect(row).to_contain_text("2/2 seats taken")
        expect(row).to_contain_text("Full: waiting for the start")
        expect(row.get_by_role("button")).to_have_count(0)
        for game_id, seated in ((twin_a, 0), (twin_b, 1)):
            row = listed(page, game_id)
            expect(row.get_by_role("button", name="Join Friday game")).to_be_enabled()
            expect(row).to_contain_text(f"{seated}/7 seats taken")
            changed = updated_at(served_alone, "forming", game_id)
            when = f"changed {changed:%a}, {changed.day} {changed:%b %Y}, {changed:%H:%M} UTC"
            expect(row.locator(".small")).to_have_text(f"{when} · {game_id}")
        assert page.get_by_role("button", name="Join Full table").count() == 0

        row = listed(page, active)
        expect(page.locator("#active-games li")).to_have_count(1)
        # a game for two opens in 1914 (docs/hosting.md): the phase the server gives, in words
        phase = httpx.get(f"{served_alone}/games/{active}").json()["phase"]
        expect(row).to_contain_text(f"standard · 2 players · {PHASE_NAMES[phase[0]]} {phase[1:5]}, movement")
        expect(row.locator(".small")).to_contain_text(f"last move {updated_at(served_alone, 'active', active):%a}")
        expect(row.locator(".small")).to_contain_text(active)
        expect(row.get_by_role("link", name="Watch Played now")).to_have_attribute("href", f"/play/{active}")

        row = listed(page, finished)
        expect(page.locator("#finished-games li")).to_have_count(1)
        expect(row).to_contain_text("standard · 2 players · drawn: ")
        expect(row.locator(".small")).to_contain_text("ended ")
        expect(row.get_by_role("link", name="See Over and drawn")).to_have_attribute("href", f"/play/{finished}")

        page.get_by_role("combobox", name="Show").select_option("ekonia")
        expect(forming.locator("li")).to_have_count(1)
        expect(listed(page, ekonia)).to_contain_text("ekonia · 0/3 seats taken")
        expect(page.locator("#active-status")).to_have_text("No game is being played.")
        expect(page.locator("#finished-status")).to_have_text("No game has finished yet.")
        page.get_by_role("combobox", name="Show").select_option("standard")
        expect(forming.locator("li")).to_have_count(4)
        expect(listed(page, ekonia)).to_have_count(0)
        expect(listed(page, active)).to_be_visible()
        page.get_by_role("combobox", name="Show").select_option("")

        # 14 days after the forgotten game was made, and before the next one was: it alone is idle
        next_change = min(updated_at(served_alone, "forming", g) for g in (full, twin_a, twin_b, ekonia))
        last_change = updated_at(served_alone, "forming", forgotten)
        assert next_change > last_change
        page.clock.set_fixed_time(last_change + timedelta(days=14) + (next_change - last_change) / 2)
        page.get_by_role("button", name="Refresh the lists").click()
        expect(listed(page, forgotten)).to_have_count(0)
        expect(forming.locator("li")).to_have_count(4)
        expect(page.locator("#forming-status")).to_have_text("Games nobody joined for 14 days are not listed.")
        expect(listed(page, active)).to_be_visible()  # only forming games go idle

        listed(page, active).get_by_role("link", name="Watch Played now").click()
        page.wait_for_url(f"**/play/{active}")
        expect(page.locator("#me")).to_have_text("Watching (public view)")
        expect(page.locator("#phase")).to_contain_text(f"{PHASE_NAMES[phase[0]]} {phase[1:5]}, movement")
        expect(page.locator("#orders-panel")).to_be_hidden()
    finally:
        page.context.close()
    assert visitor.problems == []


def test_a_new_seat_is_named_from_the_join_to_the_start(browser: Browser, served: str) -> None:
    """The page joins a forming game: from the join to the start, the line naming the seat gives
    its codename (never "null" or "undefined"), even from a view read before the seat's codename
    reached it (as a view made just after the join may be: the join's answer names it); at the
    start it shows the powers drawn."""
    game_id, host = new_game(served, "Seat names", "standard", 2)
    player = Player(browser.new_context(viewport=DESKTOP).new_page(), "joiner")
    page = player.page

    def without_codename(route: Route) -> None:
        answer = route.fetch()
        view = answer.json()
        if view["viewer"]["kind"] == "player":
            view["viewer"]["codename"] = None
        route.fulfill(response=answer, json=view)

    try:
        page.add_init_script(RECORD_ME)
        page.route(f"**/games/{game_id}/view", without_codename)
        page.goto(f"{served}/play/{game_id}")
        expect(page.locator("#me")).to_have_text("Watching (public view)")
        with page.expect_response(lambda r: r.url.endswith(f"/games/{game_id}/players")) as joined:
            page.get_by_role("button", name="Join this game").click()
        codename = joined.value.json()["codename"]
        seated = f"Seated as {codename}; powers are drawn at the start"
        expect(page.locator("#me")).to_have_text(seated)
        expect(page.locator("#seat-status")).to_have_text(f"1 of 2 seats taken; you are {codename}.")
        take_seats(served, game_id, 1)
        expect(page.locator("#seat-status")).to_contain_text("2 of 2 seats taken", timeout=10_000)
        expect(page.locator("#me")).to_have_text(seated)
        start(served, game_id, host)
        expect(page.locator("#me .power-chip").first).to_be_visible(timeout=20_000)
        expect(page.locator("#me .codename")).to_have_text(codename)
        texts: list[str] = page.evaluate("window.__me")
        watching = [i for i, text in enumerate(texts) if text == "Watching (public view)"]
        after_join = texts[watching[-1] + 1:]
        assert after_join, texts
        assert all(re.search(r"null|undefined", text) is None for text in texts), texts
        assert all(text == seated or text.endswith(codename) for text in after_join), texts
    finally:
        page.context.close()
    assert player.problems == []


def own_fact(player: Player, label: str) -> Locator:
    """The value of the own panel's ``label`` line."""
    return player.page.locator("#own dt", has_text=re.compile(f"^{label}$")).locator("xpath=following-sibling::dd[1]")


def test_dirigible_builds_spend_the_points_shown_results_on_the_board_and_devastation(
        browser: Browser, served: str) -> None:
    """Germany in Winter 1900: the points left to build with fall by each build ordered. After
    spring, on a phone, **Show these results on the board** brings the board into view. A dirigible
    devastates neutral Denmark in the summer: the page lists it once, for every power, and not in
    Germany's own panel (which lists only Germany's devastated centres)."""
    game_id, powers = started_game(served, "Zeppelins", "dirigible", 7)
    germany = powers.pop("GERMANY")
    player = seat_page(browser, served, game_id, germany)
    page = player.page
    try:
        assert player.power == "GERMANY"
        expect(page.locator("#phase")).to_contain_text("Winter 1900, adjustments")
        left = own_fact(player, "Left to build with")
        expect(left).to_have_text("15 SP")
        expect(player.board().locator('[data-province="KIE"]')).to_have_count(1)  # the board drawn
        player.order_by_clicking("KIE", "", "D KIE B")
        expect(left).to_have_text("12 SP (3 SP in the builds ordered)")
        player.type_orders(["A MUN B"])
        expect(left).to_have_text("8 SP (7 SP in the builds ordered)")
        for token in powers.values():
            put_orders(served, game_id, token, ["WAIVE"])
        player.wait_for_phase("Spring 1901, movement")
        expect(left).to_have_count(0)  # no adjustments in spring

        put_orders(served, game_id, germany, ["D KIE - DEN", "A MUN H"])  # the only power with units
        player.wait_for_phase("Summer 1901, retreats and devastation")  # Dirigible's names (rule 13)
        page.set_viewport_size(PHONE)
        show = page.get_by_role("button", name="Show these results on the board")
        show.scroll_into_view_if_needed()
        expect(page.locator("#board")).not_to_be_in_viewport()
        show.click()
        expect(page.locator("#board")).to_have_attribute("data-phase", "S1901M")
        expect(page.locator("#history-label")).to_have_text("Spring 1901, movement (resolved)")
        expect(page.locator("#board")).to_be_in_viewport(ratio=0.9)
        expect(page.get_by_role("slider", name="Phase shown")).to_be_focused()
        page.keyboard.press("End")  # the slider back to now
        expect(page.locator("#history-label")).to_have_text("Now: Summer 1901, retreats and devastation")
        page.set_viewport_size(DESKTOP)

        put_orders(served, game_id, germany, ["D DEN DEVASTATE"])
        player.wait_for_phase("Fall 1901, movement")
        expect(page.locator("#units-dislodged")).to_have_text("Devastated (for every power): DEN.")
        expect(page.locator("#own")).to_contain_text("Supply centres3: BER, KIE, MUN")
        expect(page.locator("#own")).not_to_contain_text("Devastated")
        expect(page.locator("#units-text")).not_to_contain_text("Devastated")
        # once in the page's words; the board's key names the marker besides ("Devastated centre")
        words = page.locator("body").inner_text().replace("Devastated centre", "")
        assert words.count("Devastated") == 1
    finally:
        page.context.close()
    assert player.problems == []


# Field names of the engine's Ekonia reports (a history entry's ``details``: ledgers, missions,
# spending, rolls) as a raw dump would print them, underscores or not, before a colon; gas vents
# only as the engine spells them, since the worded map report says "gas vents: none" too.
RAW_FIELD = re.compile(r"\b(start[ _]gold|end[ _]gold|sea[ _]lane[ _]income|bti|costs|upkeep|shipyards|gas_vents"
                       r"|by[ _]location|total|found|success|index|needed|roll)\s*:", re.IGNORECASE)


def test_ekonia_gold_left_after_a_purchase_and_the_turns_reports_in_words(browser: Browser, served: str) -> None:
    """Turn 1: the gold shown falls by the purchase ordered, and by the mission (checked against
    the same purse when it is stored: the turn's "gold spent" counts both); the turn resolved,
    the results panel reports the mission, the spending and the ledger in sentences, with none
    of the engine's fields printed as ``key: value``."""
    game_id, powers = started_game(served, "Gold", "ekonia", 2)
    (mine, token), (rival, rival_token) = sorted(powers.items())
    player = seat_page(browser, served, game_id, token)
    page = player.page
    try:
        expect(page.locator("#phase")).to_contain_text("Turn 1")
        capital = httpx.get(f"{served}/variants/ekonia").json()["states"][mine]["capital"]
        gold = own_fact(player, "Gold")
        expect(gold).to_have_text("50")
        expect(player.board().locator(f'[data-province="{capital}"]')).to_have_count(1)  # the board drawn
        player.order_by_clicking(capital, "", f"BUY 1 INFANTRY AT {capital}")
        expect(gold).to_have_text("40 left after the 10 gold ordered (50 now)")
        expect(page.locator("#own")).to_contain_text("missions and morale counted")
        mission = f"SPY MAP {rival}"
        page.get_by_role("combobox", name="Orders of the state").select_option(mission)
        page.get_by_role("button", name="Add: Orders of the state").click()
        expect(player.results()).to_contain_text(f"{mission} accepted")
        expect(gold).to_have_text("0 left after the 50 gold ordered (50 now)")

        put_orders(served, game_id, rival_token, [])
        page.get_by_role("button", name="Done: my orders are final").click()
        player.wait_for_phase("Turn 2")
        results = page.locator("#results")
        expect(results).to_contain_text(f"BUY 1 INFANTRY AT {capital}")
        reports = results.locator("ul.reports li")
        name, other = mine.capitalize(), rival.capitalize()
        expect(reports.filter(has_text="Mission: ")).to_have_text(re.compile(
            rf"^Mission: Turn 1: {name}: map of {other} (succeeded: ship yards: .*; gas vents: .*|failed)$"))
        expect(reports.filter(has_text="Gold spent: ")).to_have_text(re.compile(rf"^Gold spent: .*\b{name} 50\b"))
        ledger = reports.filter(has_text=f"{name}'s ledger: ")
        for term in ("gold at the start 50", "spent 50", "income (BTI) ", "upkeep ", "gold at the end "):
            expect(ledger).to_contain_text(term)
        lines = reports.all_inner_texts()
        assert lines and not [line for line in lines if RAW_FIELD.search(line)], lines
        expect(results).not_to_contain_text(RAW_FIELD)
        expect(gold).to_have_text(re.compile(r"^\d+$"))  # nothing ordered yet this turn
    finally:
        page.context.close()
    assert player.problems == []
