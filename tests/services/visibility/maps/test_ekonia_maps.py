"""Tale of Ekonia's pictures show a viewer what its view holds and nothing more.

Twin games that differ only in hidden facts (where Paresque hid an infantry, what Arelton's
spy did; or, on the pure side, a state's gold, its knowledge and a unit hidden in its
capital) give every other viewer byte-identical pictures, SVG and PNG, now and for past turns.
"""
from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.visibility.maps.ekonia_svg import ekonia_layers
from services.visibility.maps.geometry import ekonia_geometry
from services.visibility.maps.pictures import PictureView, ekonia_picture, map_data_of
from services.visibility.view import Viewer
from shared.clock import ManualClock
from shared.rules.variants import get_variant
from tests.games.test_ekonia_hidden_information import twin_games
from tests.utils.http import Host, hosting

VARIANT = get_variant("ekonia")


@pytest.fixture
async def host(sqlite_url: str) -> AsyncIterator[Host]:
    async with hosting(sqlite_url, ManualClock()) as opened:
        yield opened


async def picture(host: Host, game, viewer: str | None, kind: str = "svg", **params: str) -> bytes:
    headers = game.player(viewer).auth if viewer else {}
    response = await host.client.get(f"{game.url}/map.{kind}", params=params, headers=headers)
    assert response.status_code == 200, response.text
    return response.content


async def test_hidden_facts_change_no_one_elses_picture(host: Host) -> None:
    games = await twin_games(host)
    for viewer in ("VIEREN", "HERLORNE", None):
        for params in ({}, {"phase": "T02"}, {"phase": "T01"}):
            a = await picture(host, games["A"], viewer, **params)
            b = await picture(host, games["B"], viewer, **params)
            assert a == b, (viewer, params)
        assert await picture(host, games["A"], viewer, "png") == await picture(host, games["B"], viewer, "png")
    # the states with the secrets see their own: Paresque its hidden infantry where it hid it
    paresque = {name: (await picture(host, game, "PARESQUE")).decode() for name, game in games.items()}
    assert re.search(r'data-unit="PARESQUE INFANTRY dermore" data-count="1" data-mark="hidden"', paresque["A"])
    assert re.search(r'data-unit="PARESQUE INFANTRY kremarsh" data-count="1" data-mark="hidden"', paresque["B"])
    assert "PARESQUE INFANTRY dermore" not in (await picture(host, games["A"], "VIEREN")).decode()
    # and its own orders of a past turn, with their results; nobody else's
    past = (await picture(host, games["A"], "PARESQUE", phase="T02")).decode()
    assert re.findall(r'data-order="([^"]*)" data-power="PARESQUE" data-result="ok"', past) == [
        "MOVE 1 INFANTRY mernesia -&gt; dermore", "HIDE 1 INFANTRY AT dermore"]
    assert 'data-power="ARELTON"' not in past.split('<g class="orders">')[1]


def pictures_for_others(state: dict[str, Any], secret: str) -> dict[str | None, str]:
    data, geometry = map_data_of("ekonia"), ekonia_geometry()
    assert data["board"] == "ekonia"
    out = {}
    for viewer in [p for p in state["powers"] if p != secret] + [None]:
        view: PictureView = {"position": VARIANT.view(state, viewer), "orders": {}}
        shown = Viewer("power", viewer) if viewer else Viewer.public()
        out[viewer] = ekonia_layers(data, geometry, ekonia_picture("Twins", view, None, shown)).document()
    return out


def twin(state: dict[str, Any], secret: str) -> dict[str, Any]:
    """``state`` with ``secret``'s gold, knowledge and garrison changed (the garrison stays
    under its capital's hidden strength value)."""
    changed = json.loads(json.dumps(state))
    mine = changed["powers"][secret]
    mine["gold"] += 1234
    changed["knowledge"].setdefault(secret, []).append(
        {"turn": 0, "mission": "MAP", "target": "VIEREN", "success": False, "found": None})
    number = mine["next_unit"]
    mine["next_unit"] += 1
    changed["units"][f"{secret}-{number}"] = {
        "id": f"{secret}-{number}", "type": "INFANTRY", "owner": secret, "location": mine["capital"],
        "stored": False, "privateer": False, "built": 0, "aboard": None, "hidden_until": None}
    return changed


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), secret=st.sampled_from(sorted(VARIANT.powers())),
       picks=st.lists(st.integers(0, 500), min_size=1, max_size=4))
def test_twin_states_draw_the_same_for_everyone_else(seed: int, secret: str, picks: list[int]) -> None:
    first = VARIANT.opening({}, seed).state
    second = twin(first, secret)
    assert VARIANT.view(first, None) == VARIANT.view(second, None)  # the garrison is hidden
    assert pictures_for_others(first, secret) == pictures_for_others(second, secret)
    # one turn on, every state ordering the same from its menu, the twins still look alike
    orders = {}
    for power in first["powers"]:
        menu = sorted(o for found in VARIANT.possible_orders(first, power).values() for o in found)
        orders[power] = list(dict.fromkeys(menu[p % len(menu)] for p in picks)) if menu and power != secret else []
    one = VARIANT.resolve(first, orders, settings={}, seed=seed).state
    two = VARIANT.resolve(second, orders, settings={}, seed=seed).state
    if VARIANT.view(one, None) == VARIANT.view(two, None):
        assert pictures_for_others(one, secret) == pictures_for_others(two, secret)
