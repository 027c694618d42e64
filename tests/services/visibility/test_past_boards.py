"""Past boards: each resolved phase in the history carries the position it was played from, and
``GET /games/{id}/view?phase=`` shows the game as it stood then (docs/api.md, "Past boards")."""
from __future__ import annotations

from tests.utils.http import Host


async def test_every_resolved_phase_carries_its_board_and_can_be_viewed_again(host: Host) -> None:
    game = await host.started(7, require_ready=True)
    opening = (await game.view())["position"]
    await game.order_ok("FRANCE", ["A PAR - BUR"])
    await game.order_ok("GERMANY", ["A MUN - BUR"])
    await game.order_ok("ITALY", ["A VEN - TYR"])
    await host.client.post(f"{game.url}/resolve", json={"phase": "S1901M"}, headers=game.host_auth)
    fall = (await game.view())["position"]
    await game.order_ok("ITALY", ["A TYR - MUN"])
    await game.order_ok("FRANCE", ["A MAR - SPA"])
    await host.client.post(f"{game.url}/resolve", json={"phase": "F1901M"}, headers=game.host_auth)
    await game.order_ok("FRANCE", ["A MAR B"])  # France's pending build stays its own

    now = await game.view("FRANCE")
    assert [h["phase"] for h in now["history"]] == ["S1901M", "F1901M"]
    assert [h["position"] for h in now["history"]] == [opening, fall]
    assert now["resolution"] is None and now["orders"] == {"FRANCE": ["A MAR B"]}

    spring = await game.client.get(f"{game.url}/view", params={"phase": "s1901m"}, headers=game.player("ITALY").auth)
    assert spring.status_code == 200, spring.text
    then = spring.json()
    assert then["game"]["phase"] == "S1901M" and then["position"] == opening
    assert then["history"] == [] and then["orders"] == {} and then["must_act"] == sorted(then["must_act"])
    assert len(then["must_act"]) == 7 and then["ready"] is None and then["clock"] is None
    assert then["submitted"] == then["must_act"]  # nobody was in civil disorder
    results = {p: [(r["order"], r["result"]) for r in rs] for p, rs in then["resolution"]["orders"].items()}
    assert results["FRANCE"][0] == ("A PAR - BUR", "fails") and results["ITALY"][0] == ("A VEN - TYR", "succeeds")
    assert then["resolution"]["orders"]["ITALY"][0]["structured"]["to"] == "TYR"

    autumn = (await game.client.get(f"{game.url}/view", params={"phase": "F1901M"})).json()
    assert autumn["position"] == fall and [h["phase"] for h in autumn["history"]] == ["S1901M"]
    assert "A TYR" in autumn["position"]["units"]["ITALY"]
    # the phase being played now is the view now
    current = (await game.client.get(f"{game.url}/view", params={"phase": now["game"]["phase"]})).json()
    assert current == await game.view()


async def test_phases_the_game_has_not_played_or_that_do_not_exist(host: Host) -> None:
    game = await host.started(7, require_ready=True)
    for phase, status, code in (("S1905M", 404, "phase_not_found"), ("X1901", 422, "invalid_phase"),
                                ("T01", 422, "invalid_phase")):
        response = await game.client.get(f"{game.url}/view", params={"phase": phase})
        assert response.status_code == status and response.json()["error"] == {
            "code": code, "message": response.json()["error"]["message"], "where": "query.phase"}, response.text
    too_long = await game.client.get(f"{game.url}/view", params={"phase": "S" * 40})
    assert too_long.status_code == 422 and too_long.json()["error"]["code"] == "invalid_request"
    forming = await host.create(7)
    assert (await game.client.get(f"{forming.url}/view", params={"phase": "S1901M"})).status_code == 404
    other = await game.client.get(f"{game.url}/view", params={"phase": "S1901M", "power": "ENGLAND"},
                                  headers=game.player("FRANCE").auth)
    assert other.status_code == 403 and other.json()["error"]["code"] == "not_your_power"
