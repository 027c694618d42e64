"""A Dirigible game played over HTTP from the Winter 1900 builds through the Winter 1901 adjustments.

The plot: every power opens with builds paid in supply points; in spring a French and a German
dirigible fight over Burgundy and stand each other off; in fall a German dirigible over Munich
supports the army retaking Munich against a French attack, an English and a German dirigible
bounce over Belgium, and an English dirigible ends the Fall alone over French Brest; England
devastates Brest in the Late Fall; in Winter France has 10 points for 15 of upkeep and, having
removed too little, loses its fleet to civil disorder. The game is then replayed from its events.
"""
from __future__ import annotations

import asyncio

import httpx
import pytest

from services.cli.ops import run
from tests.utils.http import POWERS, Table, bearer

OPENING = {
    "ENGLAND": ["F LON B", "F EDI B", "A LVP B", "D LON B"],
    "FRANCE": ["A PAR B", "A MAR B", "F BRE B", "D PAR B"],
    "GERMANY": ["A MUN B", "A BER B", "F KIE B", "D MUN B"],
    "RUSSIA": ["F STP/SC B", "A MOS B", "A WAR B", "F SEV B", "D MOS B"],
    "ITALY": ["A ROM B", "F NAP B", "D VEN B"],
    "AUSTRIA": ["A VIE B", "A BUD B", "D TRI B"],
    "TURKEY": ["F ANK B", "A CON B", "D SMY B"],
}
SPRING = {
    "ENGLAND": ["D LON - ENG", "F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "FRANCE": ["D PAR - BUR", "A PAR - BUR", "F BRE - MAO", "A MAR H"],
    "GERMANY": ["D MUN - BUR", "A MUN - RUH", "F KIE - HOL", "A BER H"],
}
FALL = {
    "ENGLAND": ["D ENG - BRE", "F NTH H", "F NWG H", "A YOR H"],
    "FRANCE": ["A BUR - MUN", "D PAR H", "F MAO H", "A MAR H"],
    "GERMANY": ["A RUH - MUN", "D MUN S A RUH - MUN", "F HOL H", "A BER H"],
}


async def create_dirigible_table(client: httpx.AsyncClient) -> Table:
    response = await client.post("/games", json={"name": "Zeppelins", "variant": "dirigible"})
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["variant"] == "dirigible"
    table = Table(client, created["id"], created["host_token"])
    seats = []
    for _ in range(7):
        joined = await client.post(f"/games/{table.game_id}/players")
        assert joined.status_code == 201, joined.text
        seats.append(joined.json())
    started = await client.post(f"/games/{table.game_id}/start", headers=table.host)
    assert started.status_code == 200, started.text
    for seat in seats:
        view = (await client.get(f"/games/{table.game_id}/view", headers=bearer(seat["token"]))).json()
        table.tokens[view["viewer"]["power"]] = seat["token"]
    assert sorted(table.tokens) == list(POWERS)
    return table


async def play(table: Table, phase: str, orders: dict[str, list[str]]) -> dict:
    """Submit the orders; the host resolves the phase unless every power that must act has
    ordered (the platform then resolves it at once). Returns the phase as the history shows it."""
    for power, texts in orders.items():
        body = await table.order_ok(power, texts)
        assert body["phase"] == phase
    if (await table.view())["game"]["phase"] == phase:
        await table.resolve(phase)
    view = await table.view()
    entry = next(h for h in view["history"] if h["phase"] == phase)
    for results in entry["orders"].values():  # every order also structured (docs/api.md)
        for result in results:
            assert result.pop("structured")["text"] == result["order"]
    return {**entry, "must_act": view["must_act"]}


async def possible(table: Table, power: str) -> dict:
    response = await table.client.get(f"/games/{table.game_id}/possible-orders", headers=table.player(power))
    assert response.status_code == 200, response.text
    return response.json()


async def stored_position(table: Table) -> dict:
    """The state document of the last resolution, as the event log keeps it."""
    resolved = [e for e in await table.events() if e["type"] == "PhaseResolved"]
    return resolved[-1]["data"]["position"]


def results(resolved: dict, power: str) -> list[tuple[str, str]]:
    return [(o["order"], o["result"]) for o in resolved["orders"][power]]


async def test_a_dirigible_game_from_winter_1900_to_winter_1901_over_http(
        sqlite_client: httpx.AsyncClient, sqlite_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    table = await create_dirigible_table(sqlite_client)
    public = await table.view()
    assert public["game"]["phase"] == "W1900A" and public["position"]["units"] == {}
    assert (await possible(table, "ENGLAND"))["adjustment"] == 15  # supply points to build with
    russia = await possible(table, "RUSSIA")
    assert russia["adjustment"] == 20
    assert "F STP/NC B" not in {o for found in russia["orders"].values() for o in found}
    refused = await table.order("RUSSIA", ["F STP/NC B"])
    assert refused.status_code in (409, 422) and "STP/NC" in refused.text

    opening = await play(table, "W1900A", OPENING)
    assert opening["next_phase"] == "S1901M"
    assert all(r == "succeeds" for _, r in results(opening, "ENGLAND"))
    units = (await table.view())["position"]["units"]
    assert set(units["ENGLAND"]) == {"F LON", "D LON", "F EDI", "A LVP"}

    spring = await play(table, "S1901M", SPRING)
    assert results(spring, "FRANCE")[:2] == [("D PAR - BUR", "fails"), ("A PAR - BUR", "succeeds")]
    assert results(spring, "GERMANY")[0] == ("D MUN - BUR", "fails")  # the air battle: a standoff
    assert spring["next_phase"] == "F1901M"  # nothing to retreat, nothing to devastate

    fall = await play(table, "F1901M", FALL)
    assert results(fall, "GERMANY")[:2] == [("A RUH - MUN", "succeeds"), ("D MUN S A RUH - MUN", "succeeds")]
    assert results(fall, "FRANCE")[0] == ("A BUR - MUN", "fails")
    assert fall["next_phase"] == "F1901R" and fall["must_act"] == ["ENGLAND"]
    assert (await possible(table, "ENGLAND"))["orders"]["D BRE"] == ["D BRE DEVASTATE"]

    late_fall = await play(table, "F1901R", {"ENGLAND": ["D BRE devastate"]})
    assert results(late_fall, "ENGLAND") == [("D BRE DEVASTATE", "succeeds")]
    assert late_fall["next_phase"] == "W1901A"
    assert "BRE" in (await table.view())["position"]["centres"]["FRANCE"]  # a dirigible captures nothing
    assert (await stored_position(table))["devastated"] == ["BRE"]
    france = await possible(table, "FRANCE")  # 10 points for 15 of upkeep: two units must go
    assert france["adjustment"] == -2 and "A MAR" in france["orders"]

    winter = await play(table, "W1901A", {"FRANCE": ["A MAR D"], "GERMANY": ["A KIE B"]})
    assert winter["orders"]["FRANCE"] == [
        {"order": "A MAR D", "result": "succeeds", "reason": "removed"},
        {"order": "F MAO D", "result": "succeeds",
         "reason": "removal not ordered: removed by the rules, farthest from home"}]
    assert results(winter, "GERMANY") == [("A KIE B", "succeeds")]
    assert winter["next_phase"] == "S1902M"
    after = (await table.view("FRANCE"))["position"]
    assert set(after["units"]["FRANCE"]) == {"A BUR", "D PAR"}
    assert (await stored_position(table))["devastated"] == []
    assert set(after["units"]["GERMANY"]) == {"A MUN", "D MUN", "A BER", "F HOL", "A KIE"}
    history = [h["phase"] for h in (await table.view("TURKEY"))["history"]]
    assert history == ["W1900A", "S1901M", "F1901M", "F1901R", "W1901A"]

    replayed = await asyncio.to_thread(run, "replay", [table.game_id, "--database", sqlite_url])
    assert replayed == 0
    assert "5 resolved phases re-adjudicated" in capsys.readouterr().out


@pytest.mark.parametrize("players", [2, 3, 6])
async def test_reading_R12_a_dirigible_game_for_fewer_than_seven_is_refused(client: httpx.AsyncClient,
                                                                           players: int) -> None:
    response = await client.post("/games", json={"name": "Few zeppelins", "variant": "dirigible",
                                                 "settings": {"player_count": players}})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "unsupported_player_count"
    assert error["where"] == "body.settings.player_count"
    assert f"seats 7 players, one power each, not {players}" in error["message"]
    assert (await client.get("/games")).json()["games"] == []  # nothing was written
    seven = await client.post("/games", json={"name": "Zeppelins", "variant": "dirigible",
                                              "settings": {"player_count": 7}})
    assert seven.status_code == 201, seven.text


async def test_rule_7_the_game_opens_with_a_negotiation_period_on_the_movement_clock(
        client: httpx.AsyncClient) -> None:
    response = await client.post("/games", json={"name": "Talks first", "variant": "dirigible",
                                                 "settings": {"movement_minutes": 2880, "retreat_minutes": 30}})
    assert response.status_code == 201, response.text
    game = response.json()
    for _ in range(7):
        assert (await client.post(f"/games/{game['id']}/players")).status_code == 201
    started = await client.post(f"/games/{game['id']}/start", headers=bearer(game["host_token"]))
    assert started.status_code == 200, started.text
    summary = started.json()
    assert summary["phase"] == "W1900A"
    assert summary["clock"]["phase_minutes"] == 2880  # talks, then the builds: not the 30-minute build clock
    # the host may extend the opening by up to one such phase length
    extended = await client.post(f"/games/{game['id']}/extend", headers=bearer(game["host_token"]),
                                 json={"minutes": 2880})
    assert extended.status_code == 200, extended.text
