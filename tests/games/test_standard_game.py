"""A standard game played over HTTP from creation through the winter 1901 builds.

No unit can be dislodged in spring 1901 from the standard opening (no home unit has two
foreign units beside it), so spring sets up the attack and fall 1901 dislodges: Austria's
F TRI, supported from TYR, drives Italy's A VEN out; Italy retreats in F1901R; centres
change hands after fall; winter builds follow.
"""
from __future__ import annotations

import httpx

from tests.utils.http import OPERATOR, POWERS, Table, started_table

SPRING = {
    "AUSTRIA": ["A VIE - TYR", "A BUD - SER", "F TRI H"],
    "ITALY": ["A VEN H", "A ROM H", "F NAP - ION"],
    "FRANCE": ["A PAR - BUR", "Army Marseilles -> Spain", "F BRE - MAO"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "GERMANY": ["A MUN H", "A BER - KIE", "F KIE - DEN"],
    "RUSSIA": ["F SEV - RUM", "A MOS - UKR", "A WAR H", "F STP/SC - BOT"],
    "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY H"],
}
FALL = {
    "AUSTRIA": ["F TRI - VEN", "A TYR S F TRI - VEN", "A SER H"],
    "ITALY": ["A VEN H", "A ROM H", "F ION - TUN"],
    "FRANCE": ["A BUR - BEL", "A SPA H", "F MAO - POR"],
    "ENGLAND": ["F NTH - NWY", "F NWG S F NTH - NWY", "A YOR H"],
    "GERMANY": ["A MUN H", "A KIE - HOL", "F DEN H"],
    "RUSSIA": ["F RUM H", "A UKR H", "A WAR H", "F BOT - SWE"],
    "TURKEY": ["A BUL H", "F BLA H", "A SMY H"],
}
WINTER = {
    "AUSTRIA": ["A VIE B", "F TRI B"],
    "GERMANY": ["A BER B", "F KIE B"],
    "FRANCE": ["A PAR B"],  # two more builds allowed: missing builds are waived
}


def as_sets(mapping: dict[str, list[str]]) -> dict[str, set[str]]:
    return {power: set(items) for power, items in mapping.items() if items}


async def play_phase(table: Table, phase: str, orders: dict[str, list[str]]) -> dict:
    for power, texts in orders.items():
        body = await table.order_ok(power, texts)
        assert body["phase"] == phase and body["power"] == power
    # while orders are pending nobody sees anyone else's
    for power in POWERS:
        pending = (await table.view(power))["orders"]
        assert set(pending) <= {power}
        if power in orders:
            assert len(pending[power]) == len(orders[power])
    assert (await table.view())["orders"] == {}
    operator_view = (await table.client.get(f"/games/{table.game_id}/view", headers=OPERATOR)).json()
    assert set(operator_view["orders"]) == set(orders)
    return await table.resolve(phase)


async def play_1901(client: httpx.AsyncClient) -> Table:
    table = await started_table(client)
    summary = (await client.get(f"/games/{table.game_id}")).json()
    assert summary["status"] == "active" and summary["phase"] == "S1901M"
    assert {p: s["codename"] for p, s in summary["powers"].items()} == table.codenames

    spring = await play_phase(table, "S1901M", SPRING)
    assert spring["next_phase"] == "F1901M" and spring["dislodged"] == []
    assert all(o["result"] == "succeeds" for o in spring["orders"]["FRANCE"])
    france = await table.view("FRANCE")
    assert france["viewer"]["power"] == "FRANCE"
    assert set(france["position"]["units"]["FRANCE"]) == {"A BUR", "A SPA", "F MAO"}
    assert france["history"][0]["orders"]["FRANCE"][1]["order"] == "A MAR - SPA"
    assert set(france["position"]["centres"]["FRANCE"]) == {"BRE", "MAR", "PAR"}  # not before fall

    fall = await play_phase(table, "F1901M", FALL)
    assert fall["next_phase"] == "F1901R"
    assert fall["dislodged"] == [{"power": "ITALY", "unit": "A VEN", "attacker_from": "TRI",
                                  "retreats": ["APU", "PIE", "TUS"]}]
    assert fall["must_act"] == ["ITALY"]
    italy = await table.view("ITALY")
    assert italy["position"]["dislodged"][0]["retreats"] == ["APU", "PIE", "TUS"]
    refused = await table.order("FRANCE", ["A BEL H"])
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "nothing_to_order"

    possible = (await table.client.get(f"/games/{table.game_id}/possible-orders", headers=table.player("ITALY"))).json()
    assert possible["lacking"] == ["VEN"]
    assert set(possible["orders"]["VEN"]) == {"A VEN R APU", "A VEN R PIE", "A VEN R TUS", "A VEN D"}

    retreat = await play_phase(table, "F1901R", {"ITALY": ["A VEN R TUS"]})
    assert retreat["next_phase"] == "W1901A"
    public = await table.view()
    centres = as_sets(public["position"]["centres"])
    assert centres["AUSTRIA"] == {"BUD", "SER", "TRI", "VEN", "VIE"}
    assert centres["ITALY"] == {"NAP", "ROM", "TUN"}
    assert centres["FRANCE"] == {"BEL", "BRE", "MAR", "PAR", "POR", "SPA"}
    assert centres["ENGLAND"] == {"EDI", "LON", "LVP", "NWY"}
    assert centres["GERMANY"] == {"BER", "DEN", "HOL", "KIE", "MUN"}
    assert centres["RUSSIA"] == {"MOS", "RUM", "SEV", "STP", "SWE", "WAR"}
    assert centres["TURKEY"] == {"ANK", "BUL", "CON", "SMY"}
    assert "ITALY" not in public["must_act"] and "AUSTRIA" in public["must_act"]

    builds = (await table.client.get(f"/games/{table.game_id}/possible-orders", headers=table.player("AUSTRIA"))).json()
    assert builds["adjustment"] == 2 and builds["lacking"] == []
    assert {"A VIE B", "F TRI B", "A BUD B", "WAIVE"} <= {o for found in builds["orders"].values() for o in found}

    winter = await play_phase(table, "W1901A", WINTER)
    assert winter["next_phase"] == "S1902M"
    units = as_sets((await table.view("AUSTRIA"))["position"]["units"])
    assert units["AUSTRIA"] == {"A SER", "A TYR", "A VIE", "F TRI", "F VEN"}
    assert units["GERMANY"] == {"A BER", "A HOL", "A MUN", "F DEN", "F KIE"}
    assert units["FRANCE"] == {"A BEL", "A PAR", "A SPA", "F POR"}
    assert units["ITALY"] == {"A ROM", "A TUS", "F TUN"}
    assert units["ENGLAND"] == {"A YOR", "F NWG", "F NWY"}
    return table


async def test_standard_game_1901_over_http(client: httpx.AsyncClient) -> None:
    table = await play_1901(client)
    view = await table.view("TURKEY")
    assert [h["phase"] for h in view["history"]] == ["S1901M", "F1901M", "F1901R", "W1901A"]
    assert view["game"]["phase"] == "S1902M"
    assert view["powers"]["FRANCE"] == {"codename": table.codenames["FRANCE"], "house_bot": False, "daide": False,
                                        "house_bot_since": None, "missed": 0, "civil_disorder": False}
    events = await table.events()
    kinds = [e["type"] for e in events if e["stream_id"] == f"game-{table.game_id}"]
    assert kinds == (["GameCreated"] + ["PlayerJoined"] * 7 + ["GameStarted", "DeadlineSet"]
                     + ["PhaseResolved", "DeadlineSet"] * 4)
    log_text = str(events)
    assert table.host_token not in log_text
    assert not any(token in log_text for token in table.tokens.values())
