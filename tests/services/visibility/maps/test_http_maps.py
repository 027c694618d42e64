"""Map data and pictures over HTTP: the boards, and a standard game's pictures for each caller."""
from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator

import pytest
from PIL import Image

from shared.clock import ManualClock
from tests.utils.http import OPERATOR, Host, HostedGame, bearer, hosting


@pytest.fixture
async def host(store_url: str) -> AsyncIterator[Host]:
    async with hosting(store_url, ManualClock()) as opened:
        yield opened


def attribute(svg: str, name: str) -> list[str]:
    return re.findall(rf'{name}="([^"]*)"', svg)


async def test_the_variants_and_their_maps(host: Host) -> None:
    listed = (await host.client.get("/variants")).json()["variants"]
    assert {(v["name"], v["board"]) for v in listed} == {("standard", "standard"), ("dirigible", "standard"),
                                                         ("ekonia", "ekonia")}
    standard = (await host.client.get("/variants/standard")).json()
    assert len(standard["provinces"]) == 76 and standard["provinces"]["STP"]["coasts"] == ["STP/NC", "STP/SC"]
    assert standard["provinces"]["PAR"] == {"name": "Paris", "kind": "land", "supply_centre": True,
                                            "home": "FRANCE", "coasts": []}
    assert standard["adjacency"]["A"]["PAR"] == ["BRE", "BUR", "GAS", "PIC"]
    assert standard["adjacency"]["F"]["STP/NC"] == ["BAR", "NWY"]
    assert standard["powers"]["FRANCE"]["colour"].startswith("#")
    assert "F STP/SC" in standard["opening"]["units"]["RUSSIA"]
    assert set(standard["geometry"]["regions"]) == set(standard["provinces"])
    dirigible = (await host.client.get("/variants/dirigible")).json()
    assert dirigible["unit_types"] == ["A", "F", "D"] and dirigible["opening"]["phase"] == "W1900A"
    assert "NTH" in dirigible["adjacency"]["D"]["LON"]
    ekonia = (await host.client.get("/variants/ekonia")).json()
    assert ekonia["territories"]["vieren"]["hex"] == [-2, 3] and "serane-sound" in ekonia["sea_lanes"]
    assert ekonia["states"]["VIEREN"]["capital"] == "vieren" and ekonia["hex_grid"]["impassable"] == [[0, 0]]
    missing = await host.client.get("/variants/chess")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "variant_not_found"
    assert (await host.client.get("/variants/chess/map.svg")).status_code == 404


async def test_the_empty_boards_name_every_province_and_coast(host: Host) -> None:
    for name in ("standard", "dirigible"):
        response = await host.client.get(f"/variants/{name}/map.svg")
        assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
        provinces = set(attribute(response.text, "data-province"))
        assert len(provinces) == 76 and {"PAR", "SWI", "NAO"} <= provinces
        assert set(attribute(response.text, "data-coast")) == {"BUL/EC", "BUL/SC", "SPA/NC", "SPA/SC",
                                                               "STP/NC", "STP/SC"}
        assert attribute(response.text, "data-unit") == [] and attribute(response.text, "data-order") == []
    ekonia = (await host.client.get("/variants/ekonia/map.svg")).text
    territories = (await host.client.get("/variants/ekonia")).json()["territories"]
    assert sorted(attribute(ekonia, "data-province")) == sorted(territories)


async def seven(host: Host) -> HostedGame:
    return await host.started(7)


async def test_a_player_sees_only_their_own_pending_orders(host: Host) -> None:
    game = await seven(host)
    await game.order_ok("FRANCE", ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE H"])
    await game.order_ok("GERMANY", ["A MUN - BUR"])
    france = await host.client.get(f"{game.url}/map.svg", headers=game.player("FRANCE").auth)
    assert france.status_code == 200
    assert attribute(france.text, "data-order") == ["A MAR S A PAR - BUR", "A PAR - BUR", "F BRE H"]
    assert {"A PAR", "F STP/SC", "F TRI"} <= set(attribute(france.text, "data-unit"))
    for headers in ({}, game.host_auth, game.player("ENGLAND").auth):
        other = await host.client.get(f"{game.url}/map.svg", headers=headers)
        assert other.status_code == 200 and attribute(other.text, "data-order") == []
        assert "BUR" not in re.sub(r'data-province="BUR"|>BUR<', "", other.text.split('<g id="ownership">')[1])
    operator = (await host.client.get(f"{game.url}/map.svg", headers=OPERATOR)).text
    assert set(attribute(operator, "data-order")) == {"A PAR - BUR", "A MAR S A PAR - BUR", "F BRE H", "A MUN - BUR"}
    as_germany = (await host.client.get(f"{game.url}/map.svg", params={"power": "GERMANY"}, headers=OPERATOR)).text
    assert attribute(as_germany, "data-order") == ["A MUN - BUR"]


async def test_a_resolved_phase_shows_every_order_and_its_result(host: Host) -> None:
    game = await seven(host)
    await game.order_ok("FRANCE", ["A PAR - BUR"])
    await game.order_ok("GERMANY", ["A MUN - BUR"])
    await game.order_ok("ENGLAND", ["F LON - NTH"])
    resolved = await host.client.post(f"{game.url}/resolve", headers=game.host_auth, json={"phase": "S1901M"})
    assert resolved.status_code == 200, resolved.text
    past = (await host.client.get(f"{game.url}/map.svg", params={"phase": "S1901M"})).text
    results = dict(re.findall(r'data-order="([^"]*)" data-power="[A-Z]+" data-result="([a-z]+)"', past))
    assert results["A PAR - BUR"] == "fails" and results["A MUN - BUR"] == "fails"
    assert results["F LON - NTH"] == "succeeds" and len(results) == 3
    assert 'data-unit="F LON"' in past and 'data-phase="S1901M"' in past
    now = (await host.client.get(f"{game.url}/map.svg")).text
    assert 'data-unit="F NTH"' in now and 'data-unit="F LON"' not in now and 'data-phase="F1901M"' in now
    assert attribute(now, "data-order") == []
    same = (await host.client.get(f"{game.url}/map.svg", params={"phase": "s1901m"})).text
    assert same == past


async def test_bad_phases_games_and_tokens(host: Host) -> None:
    game = await seven(host)
    bad = await host.client.get(f"{game.url}/map.svg", params={"phase": "X1901"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_phase"
    assert bad.json()["error"]["where"] == "query.phase"
    later = await host.client.get(f"{game.url}/map.png", params={"phase": "F1905M"})
    assert later.status_code == 404 and later.json()["error"]["code"] == "phase_not_found"
    assert (await host.client.get("/games/g_nope/map.svg")).json()["error"]["code"] == "game_not_found"
    assert (await host.client.get(f"{game.url}/map.svg", headers=bearer("nonsense"))).status_code == 401
    other = await host.client.get(f"{game.url}/map.svg", params={"power": "ITALY"}, headers=game.player("FRANCE").auth)
    assert other.status_code == 403 and other.json()["error"]["code"] == "not_your_power"
    forming = await host.create(7)
    early = await host.client.get(f"{forming.url}/map.png")
    assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_started"


async def test_the_png_is_a_wide_picture_with_a_board_on_it(host: Host) -> None:
    game = await seven(host)
    await game.order_ok("FRANCE", ["A PAR - BUR"])
    response = await host.client.get(f"{game.url}/map.png", headers=game.player("FRANCE").auth)
    assert response.status_code == 200 and response.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(response.content)).convert("RGB")
    assert image.width >= 1200 and image.height >= 800
    colours = image.resize((300, 220)).getcolors(maxcolors=100_000)
    assert colours is not None and len(colours) > 50  # land, sea, seven powers, text: not a blank page
    most = max(count for count, _ in colours)
    assert most < 0.6 * 300 * 220
    colour = (await host.client.get("/variants/standard")).json()["powers"]["FRANCE"]["colour"]
    france_blue = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))  # France's units are on it
    every_colour = image.getcolors(10**6)
    assert every_colour is not None
    assert any(isinstance(seen, tuple) and sum(abs(a - b) for a, b in zip(seen, france_blue, strict=True)) < 12
               for _, seen in every_colour)
