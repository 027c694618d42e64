"""Seven players in seven browser contexts play standard 1901 through the web client, from the
lobby to the winter builds (docs/web.md): each joins through the page, orders one unit by
clicking and the rest by typing, sees its own orders and nobody else's, sees each phase
resolve and the moves on the board; Italy retreats and three powers build through the page.

The game requires ready flags, so nothing resolves before every player has checked what the
others can (and cannot) see; the last ready flag resolves the phase at once.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.pages import Player

pytestmark = pytest.mark.postgres

GAME = "Browser game"
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1366, "height": 900}

# power -> (clicked: first, then, the order it gives), then the orders typed, any notation
SPRING = {
    "AUSTRIA": (("A VIE", "TYR", "A VIE - TYR"), ["Army Budapest -> Serbia", "F TRI H"]),
    "ITALY": (("F NAP", "ION", "F NAP - ION"), ["A VEN H", "A ROM H"]),
    "FRANCE": (("A PAR", "BUR", "A PAR - BUR"), ["Army Marseilles -> Spain", "F BRE - MAO"]),
    "ENGLAND": (("F LON", "NTH", "F LON - NTH"), ["F EDI - NWG", "A LVP - YOR"]),
    "GERMANY": (("F KIE", "DEN", "F KIE - DEN"), ["A MUN H", "A BER - KIE"]),
    "RUSSIA": (("F SEV", "RUM", "F SEV - RUM"), ["A MOS - UKR", "A WAR H", "F STP/SC - BOT"]),
    "TURKEY": (("F ANK", "BLA", "F ANK - BLA"), ["A CON - BUL", "A SMY H"]),
}
# Austria's fleet, supported from Tyrolia, drives Italy's army out of Venice.
FALL = {
    "AUSTRIA": (("F TRI", "VEN", "F TRI - VEN"), ["A TYR S F TRI - VEN", "A SER H"]),
    "ITALY": (("F ION", "TUN", "F ION - TUN"), ["A VEN H", "A ROM H"]),
    "FRANCE": (("A BUR", "BEL", "A BUR - BEL"), ["A SPA H", "F MAO - POR"]),
    "ENGLAND": (("F NWG", "NWY", "F NWG S F NTH - NWY"), ["F NTH - NWY", "A YOR H"]),  # a support, from the menu
    "GERMANY": (("A KIE", "HOL", "A KIE - HOL"), ["A MUN H", "F DEN H"]),
    "RUSSIA": (("F BOT", "SWE", "F BOT - SWE"), ["F RUM H", "A UKR H", "A WAR H"]),
    "TURKEY": (("A SMY", "SMY", "A SMY H"), ["A BUL H", "F BLA H"]),
}
# a build site clicked with nothing selected opens its builds
WINTER = {
    "AUSTRIA": (("VIE", "", "A VIE B"), ["F TRI B"]),
    "GERMANY": (("BER", "", "A BER B"), ["F KIE B"]),
    "FRANCE": (("PAR", "", "A PAR B"), []),
    "ENGLAND": (None, ["WAIVE"]),
    "RUSSIA": (None, ["WAIVE"]),
    "TURKEY": (None, ["WAIVE"]),
}


def seat_seven(browser: Browser, base_url: str, shots: Path) -> tuple[list[Player], dict[str, Player]]:
    """The host creates the game on the lobby page and takes a seat; six more join from the
    lobby (the seventh on a phone's screen); the host starts it."""
    contexts = [browser.new_context(viewport=PHONE if i == 6 else DESKTOP) for i in range(7)]
    players = [Player(context.new_page(), f"player {i + 1}") for i, context in enumerate(contexts)]
    host = players[0]
    host.page.goto(f"{base_url}/")
    host.page.get_by_role("textbox", name="Name").fill(GAME)
    host.page.get_by_role("combobox", name="Variant").select_option("standard")
    host.page.get_by_role("checkbox", name="Resolve early only when everyone is ready").check()
    host.shot(shots, "01-lobby-create")
    host.page.get_by_role("button", name="Create game").click()
    host.page.wait_for_url("**/play/g_*")
    host.page.get_by_role("button", name="Join this game").click()
    expect(host.page.locator("#seat-status")).to_contain_text("1 of 7 seats taken")
    for index, player in enumerate(players[1:], start=1):
        shot = shots / "02-lobby-open-games-phone.png" if index == 6 else None
        player.join_from_lobby(base_url, GAME, shot)
    host.page.reload()
    expect(host.page.locator("#seat-status")).to_contain_text("7 of 7 seats taken")
    host.shot(shots, "02-seats-taken-host")
    host.page.get_by_role("button", name="Start the game").click()
    by_power = {}
    for player in players:
        expect(player.page.locator("#phase")).to_contain_text("Spring 1901, movement")
        by_power[player.read_power()] = player
    assert set(by_power) == set(SPRING)
    return players, by_power


def order_phase(by_power: dict[str, Player], orders: dict) -> None:
    for power, (clicked, typed) in orders.items():
        player = by_power[power]
        if clicked:
            player.order_by_clicking(*clicked)
        if typed:
            player.type_orders(typed)


def expected_texts(orders: dict) -> dict[str, int]:
    return {power: (1 if clicked else 0) + len(typed) for power, (clicked, typed) in orders.items()}


def check_only_own_orders_seen(players: list[Player], orders: dict) -> None:
    """Every page draws its own pending orders and nobody else's; the table shows who ordered."""
    counts = expected_texts(orders)
    for player in players:
        drawn = player.drawn_orders()
        if player.power in orders:
            expect(player.board().locator("[data-order]")).to_have_count(counts[player.power])
            drawn = player.drawn_orders()
            assert {power for _, power, _ in drawn} == {player.power}
            assert player.orders_box().input_value().count("\n") + 1 == counts[player.power]
        else:
            assert drawn == []
        for power in orders:
            expect(player.page.locator(f'#powers tr[data-power="{power}"] .status')).to_have_text("ordered")


def ready_all(by_power: dict[str, Player], orders: dict) -> None:
    powers = list(orders)
    for power in powers:
        by_power[power].mark_ready(last=power == powers[-1])


def test_seven_browsers_play_1901(browser: Browser, served: str, shots: Path) -> None:
    players, by_power = seat_seven(browser, served, shots)
    try:
        play(players, by_power, shots)
    finally:
        for player in players:
            player.page.context.close()
    problems = [f"{p.name} ({p.power}): {problem}" for p in players for problem in p.problems]
    assert problems == []


def play(players: list[Player], by_power: dict[str, Player], shots: Path) -> None:
    france, england, italy, austria = (by_power[p] for p in ("FRANCE", "ENGLAND", "ITALY", "AUSTRIA"))
    countdown = france.page.get_by_role("timer", name="Time left")
    expect(countdown).to_have_text(re.compile(r"^23:\d\d:\d\d left$"))  # the 24-hour movement clock, ticking
    first = countdown.inner_text()
    expect(countdown).not_to_have_text(first)
    phone = players[6].page.get_by_role("button", name="Zoom the board")  # the phone orders on a zoomed board
    phone.click()
    expect(phone).to_have_attribute("aria-pressed", "true")
    # Spring: nobody resolves it early (ready flags are required), each sees only its own
    order_phase(by_power, SPRING)
    a_refused_order_is_corrected(france)
    check_only_own_orders_seen(players, SPRING)
    france.shot(shots, "03-spring-orders-france")
    players[6].shot(shots, "04-spring-orders-phone")
    assert players[6].page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    press_and_draw(by_power)
    ready_all(by_power, SPRING)
    for player in players:
        player.wait_for_phase("Fall 1901, movement")
        expect(player.board().locator('[data-unit="A BUR"]')).to_have_count(1)  # the moves, on every board
        expect(player.page.locator("#results")).to_contain_text("A PAR - BUR")  # everyone's orders, resolved
    assert {"A BUR", "A SPA", "F MAO", "F NTH", "F ION"} <= england.units_on_board()
    england.shot(shots, "05-fall-board-england")

    # spring's board with every power's orders and their results, from the results panel, then
    # the history slider (by the keyboard) back to now and to spring again
    england.page.get_by_role("button", name="Show these results on the board").click()
    expect(england.board()).to_have_attribute("data-phase", "S1901M")
    slider = england.page.get_by_role("slider", name="Phase shown")
    expect(slider).to_be_focused()
    england.page.keyboard.press("End")
    expect(england.board()).to_have_attribute("data-phase", "now")
    england.page.keyboard.press("ArrowLeft")
    expect(england.board()).to_have_attribute("data-phase", "S1901M")
    expect(england.page.locator("#history-label")).to_have_text("Spring 1901, movement (resolved)")
    drawn = england.drawn_orders()
    assert {power for _, power, _ in drawn} == set(SPRING) and all(result for _, _, result in drawn)
    assert ("A PAR - BUR", "FRANCE", "succeeds") in drawn
    england.shot(shots, "06-history-spring")
    england.page.keyboard.press("End")
    expect(england.board()).to_have_attribute("data-phase", "now")

    # Fall: Venice changes hands and Italy's army is dislodged
    order_phase(by_power, FALL)
    check_only_own_orders_seen(players, FALL)
    ready_all(by_power, FALL)
    for player in players:
        player.wait_for_phase("Fall 1901, retreats")
    expect(italy.page.locator("#results")).to_contain_text(
        "A VEN dislodged by the attack from TRI: may retreat to APU, PIE, TUS")
    expect(france.page.get_by_role("region", name="Your orders: Fall 1901, retreats")).to_be_hidden()
    italy.shot(shots, "07-retreat-italy")
    italy.order_by_clicking("A VEN", "TUS", "A VEN R TUS")
    italy.mark_ready(last=True)
    for player in players:
        player.wait_for_phase("Winter 1901, adjustments")
    expect(austria.page.locator("#order-help")).to_contain_text("You may build 2.")
    expect(italy.page.locator("#orders-panel")).to_be_hidden()  # nothing to build or remove

    # Winter: builds by clicking a home centre, and typed
    order_phase(by_power, WINTER)
    austria.shot(shots, "08-winter-builds-austria")
    ready_all(by_power, WINTER)
    for player in players:
        player.wait_for_phase("Spring 1902, movement")
        expect(player.board().locator('[data-unit="F KIE"]')).to_have_count(1)  # built
    assert {"A VIE", "F TRI", "F VEN", "A TYR", "A SER", "A BER", "F KIE", "A PAR", "A TUS"} <= italy.units_on_board()
    expect(austria.page.locator("#own")).to_contain_text("Supply centres5: BUD, SER, TRI, VEN, VIE")
    austria.shot(shots, "09-spring-1902-austria")


def a_refused_order_is_corrected(player: Player) -> None:
    """A typed order the server refuses comes back with its reason beside it and stays in the
    box, as typed, to be corrected; the others are stored."""
    box = player.orders_box()
    box.fill(box.input_value().replace("F BRE - MAO", "F BRE - Atlantis"))
    player.page.get_by_role("button", name="Submit all these orders", exact=True).click()
    expect(player.results()).to_contain_text("F BRE - Atlantis refused: 'Atlantis' is not a province")
    expect(player.page.locator("#order-status")).to_have_text("2 orders stored; 1 refused: you are not done.")
    assert box.input_value().splitlines() == ["A PAR - BUR", "A MAR - SPA", "F BRE - Atlantis"]
    box.fill(box.input_value().replace("F BRE - Atlantis", "Fleet Brest -> Mid-Atlantic Ocean"))
    player.page.get_by_role("button", name="Submit all these orders", exact=True).click()
    expect(player.results()).to_contain_text("Fleet Brest -> Mid-Atlantic Ocean → F BRE - MAO accepted")
    expect(box).to_have_value("A PAR - BUR\nA MAR - SPA\nF BRE - MAO")


def press_and_draw(by_power: dict[str, Player]) -> None:
    """A private message reaches its recipient only; a public one everybody; a draw vote."""
    austria, italy, germany = by_power["AUSTRIA"], by_power["ITALY"], by_power["GERMANY"]
    austria.page.get_by_role("combobox", name="To").select_option("ITALY")
    austria.page.get_by_role("textbox", name="Message").fill("Venice looks lonely.")
    austria.page.get_by_role("button", name="Send").click()
    messages = italy.page.get_by_role("list", name="Messages")
    expect(messages).to_contain_text("Austria")
    expect(messages).to_contain_text("Venice looks lonely.")
    germany.page.get_by_role("combobox", name="To").select_option("all")
    germany.page.get_by_role("textbox", name="Message").fill("Peace in the north.")
    germany.page.get_by_role("button", name="Send").click()
    for player in by_power.values():
        expect(player.page.get_by_role("list", name="Messages")).to_contain_text("Peace in the north.")
    expect(germany.page.get_by_role("list", name="Messages")).not_to_contain_text("Venice")
    italy.page.get_by_role("checkbox", name="I vote for a draw").check()
    expect(italy.page.locator("#draw-status")).to_have_text("You vote for a draw.")
