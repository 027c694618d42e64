"""Who has ordered: the view and the public summary say which powers have stored orders for the
phase and which are ready, never the orders (docs/api.md, "Who has ordered")."""
from __future__ import annotations

import json

from tests.games.test_ekonia_game import started_ekonia
from tests.utils.http import POWERS as SEVEN
from tests.utils.http import Host, start_at


async def test_the_view_and_the_summary_say_who_has_ordered_and_who_is_ready(host: Host) -> None:
    game = await host.started(7, require_ready=True)
    summary = await game.summary()
    assert summary["submitted"] == [] and summary["ready"] == []
    await game.order_ok("FRANCE", ["A PAR - BUR"])
    await game.order_ok("TURKEY", [])  # an empty submission holds everything: it counts
    await game.ready("TURKEY")
    for seen in (await game.summary(), await game.view(), await game.view("ENGLAND"), await game.view("FRANCE")):
        assert seen["submitted"] == ["FRANCE", "TURKEY"] and seen["ready"] == ["TURKEY"]
    public = await game.view()
    assert public["orders"] == {} and public["structured_orders"] == {}
    assert "BUR" not in json.dumps({k: public[k] for k in ("orders", "structured_orders", "submitted")})
    assert (await game.view("FRANCE"))["structured_orders"] == {"FRANCE": [
        {"text": "A PAR - BUR", "type": "move", "unit": "A PAR", "to": "BUR", "via_convoy": False}]}
    # a new submission clears the ready flag; the next phase starts with nobody
    await game.order_ok("TURKEY", ["F ANK - BLA"])
    assert (await game.summary())["ready"] == []
    await host.client.post(f"{game.url}/resolve", json={"phase": "S1901M"}, headers=game.host_auth)
    after = await game.summary()
    assert after["phase"] == "F1901M" and after["submitted"] == [] and after["ready"] == []
    # the list of games does not read order streams: no claim there
    listed = (await host.client.get("/games")).json()["games"]
    assert next(g for g in listed if g["id"] == game.game_id)["submitted"] is None


async def test_a_power_that_is_out_has_nothing_to_submit(host: Host) -> None:
    """Austria has no unit and no centre: it does not act, so it is never waiting to submit."""
    position = {"variant": "standard", "phase": "S1905M",
                "units": {"ENGLAND": ["F LON"], "FRANCE": ["A PAR"], "GERMANY": ["A BER"], "ITALY": ["A ROM"],
                          "RUSSIA": ["A MOS"], "TURKEY": ["A CON"]},
                "centers": {"ENGLAND": ["LON"], "FRANCE": ["PAR"], "GERMANY": ["BER"], "ITALY": ["ROM"],
                            "RUSSIA": ["MOS"], "TURKEY": ["CON"]}}
    game = await start_at(host, position, [p for p in SEVEN if p != "AUSTRIA"])
    refused = await game.order("AUSTRIA", [])
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "nothing_to_order"
    for power in ("ENGLAND", "FRANCE"):
        await game.order_ok(power, [])
    assert (await game.view())["submitted"] == ["ENGLAND", "FRANCE"]
    assert "AUSTRIA" not in (await game.view())["must_act"]


async def test_in_tale_of_ekonia_too_who_has_ordered_is_public(host: Host) -> None:
    """Every living state orders every turn, so that one has sent its orders says nothing of
    what they are: the same lists for every viewer, and no order text."""
    game = await started_ekonia(host, player_count=3)
    first, second = (p.powers[0] for p in game.players[:2])
    await game.order_ok(first, ["MORALE 1"])
    await game.order_ok(second, [])
    views = [await game.view(), *[await game.view(p.powers[0]) for p in game.players], await game.summary()]
    assert {tuple(v["submitted"]) for v in views} == {tuple(sorted([first, second]))}
    outsider = await game.view(game.players[2].powers[0])
    assert "MORALE" not in json.dumps(outsider) and outsider["orders"] == {}
