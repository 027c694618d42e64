"""What the standard board draws of the orders (docs/maps.md, "Pictures of a game"): a convoyed
army's arrow runs through the fleets that carry it; the board now shows the last phase's moves;
a picture's legend names every dislodged unit it draws."""
from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from services.visibility.maps.board_svg import BoardPicture, DrawnOrder, place, render_board
from services.visibility.maps.geometry import geometry_for
from services.visibility.maps.pictures import map_data_of
from services.visibility.maps.svg import num
from shared.clock import ManualClock
from tests.utils.http import Host, HostedGame, hosting


async def resolve(game: HostedGame, phase: str) -> None:
    answer = await game.client.post(f"{game.url}/resolve", headers=game.host_auth, json={"phase": phase})
    assert answer.status_code == 200, answer.text


@pytest.fixture
async def host(store_url: str) -> AsyncIterator[Host]:
    async with hosting(store_url, ManualClock()) as opened:
        yield opened


def group(svg: str, attribute: str, value: str) -> str:
    """The SVG group that carries ``attribute="value"``."""
    found = re.search(rf'<g {attribute}="{re.escape(value)}"[^>]*>.*?</g>', svg, re.S)
    assert found, f"no {attribute}={value}"
    return found.group(0)


def points_of(path_d: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r"[ML](-?[\d.]+) (-?[\d.]+)", path_d)]


def test_a_convoyed_armys_arrow_runs_through_its_fleets() -> None:
    """A LON - POR by the Channel and the Mid-Atlantic: the arrow's line passes through both
    fleets' points, in the order the army sails; the fleets carry a dotted ring, not a line to
    the middle of a straight arrow. The same move without its convoys is drawn straight."""
    data = map_data_of("standard")
    assert data["board"] == "standard"
    geometry = geometry_for("standard")
    units = {"ENGLAND": ["A LON", "F ENG", "F MAO"]}
    orders = [DrawnOrder("ENGLAND", "A LON - POR VIA"), DrawnOrder("ENGLAND", "F ENG C A LON - POR"),
              DrawnOrder("ENGLAND", "F MAO C A LON - POR")]
    svg = render_board(data, geometry, BoardPicture("Convoy", "S1901M", units, {}, (), orders))
    line = re.search(r'd="([^"]+)"', group(svg, "data-order", "A LON - POR VIA")).group(1)  # type: ignore[union-attr]
    drawn = points_of(line)
    channel, atlantic = place(geometry, "F", "ENG"), place(geometry, "F", "MAO")
    assert len(drawn) == 4
    assert drawn[1] == (float(num(channel[0])), float(num(channel[1])))
    assert drawn[2] == (float(num(atlantic[0])), float(num(atlantic[1])))
    for fleet in ("F ENG C A LON - POR", "F MAO C A LON - POR"):
        drawing = group(svg, "data-order", fleet)
        assert 'stroke-dasharray="2 4"' in drawing and "<circle" in drawing
    # drawn under the units, so that the fleets stand on their army's line
    assert svg.index('data-order="A LON - POR VIA"') < svg.index('<g id="units">')

    alone = render_board(data, geometry, BoardPicture("Alone", "S1901M", units, {}, (),
                                                      [DrawnOrder("ENGLAND", "A LON - POR VIA")]))
    line = re.search(r'd="([^"]+)"', group(alone, "data-order", "A LON - POR VIA")).group(1)  # type: ignore[union-attr]
    assert len(points_of(line)) == 2


async def test_the_board_now_shows_the_last_phases_moves(host: Host) -> None:
    """After spring, the board of fall draws spring's moves and retreats faint, with their
    results, for every viewer (the standard game's history shows every order); a past picture
    and a game not yet resolved draw none."""
    game = await host.started(7)
    before = (await host.client.get(f"{game.url}/map.svg")).text
    assert "data-last-order" not in before
    await game.order_ok("FRANCE", ["A PAR - BUR", "F BRE - MAO"])
    await game.order_ok("GERMANY", ["A MUN - BUR"])
    await resolve(game, "S1901M")
    for headers in ({}, game.player("FRANCE").auth, game.player("TURKEY").auth):
        now = (await host.client.get(f"{game.url}/map.svg", headers=headers)).text
        drawn = dict(re.findall(r'data-last-order="([^"]*)" data-power="[A-Z]+" data-result="([a-z]+)"', now))
        assert drawn == {"A PAR - BUR": "fails", "A MUN - BUR": "fails", "F BRE - MAO": "succeeds"}
        assert '<g id="last-orders" opacity="0.55" pointer-events="none" data-phase="S1901M">' in now
        assert "Faint arrows: the moves of" in now and "Spring 1901, movement" in now
        assert 'data-unit="F MAO"' in now
    past = (await host.client.get(f"{game.url}/map.svg", params={"phase": "S1901M"})).text
    assert "data-last-order" not in past


async def test_a_past_movement_pictures_legend_names_the_dislodged_unit(host: Host) -> None:
    """Fall 1901: Austria's fleet, supported from Tyrolia, dislodges Italy's army in Venice. The
    fall picture draws the dislodged army and its legend lists it, with where the attack came from."""
    game = await host.started(7)
    await game.order_ok("AUSTRIA", ["A VIE - TYR"])
    await resolve(game, "S1901M")
    await game.order_ok("AUSTRIA", ["F TRI - VEN", "A TYR S F TRI - VEN"])
    await game.order_ok("ITALY", ["A VEN H"])
    await resolve(game, "F1901M")
    fall = (await host.client.get(f"{game.url}/map.svg", params={"phase": "F1901M"})).text
    assert re.search(r'<g data-unit="A VEN" data-power="ITALY" data-dislodged="true">', fall)
    assert '>Dislodged (1)</text>' in fall
    assert re.search(r'data-legend-dislodged="A VEN">Italy: A VEN \(from TRI\)</text>', fall)
