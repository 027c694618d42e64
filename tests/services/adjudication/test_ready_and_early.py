"""Early resolution once everyone who must act has submitted; ready flags where the game asks
for them; phases in which nobody has anything to do are skipped."""
from __future__ import annotations

from tests.utils.http import POWERS as SEVEN
from tests.utils.http import Host


async def test_a_phase_resolves_early_once_everyone_has_submitted(host: Host) -> None:
    game = await host.started(7)
    for power in SEVEN[:-1]:
        assert (await game.order_ok(power, []))["resolved"] is False  # an empty list: hold everything
    assert (await game.summary())["phase"] == "S1901M"
    assert (await game.order_ok("TURKEY", ["F ANK - BLA"]))["resolved"] is True
    assert (await game.summary())["phase"] == "F1901M"
    for power in SEVEN:
        await game.order_ok(power, [])
    # no centre changed hands: no builds phase, straight on to spring
    assert [r["phase"] for r in await game.resolutions()] == ["S1901M", "F1901M"]
    assert (await game.summary())["phase"] == "S1902M"


async def test_ready_flags_where_the_game_asks_for_them(host: Host) -> None:
    game = await host.started(7, require_ready=True)
    no_orders = await game.ready("FRANCE")
    assert no_orders.status_code == 409 and no_orders.json()["error"]["code"] == "nothing_submitted"
    for power in SEVEN:
        assert (await game.order_ok(power, []))["resolved"] is False  # submitted is not ready
    for power in SEVEN[:-1]:
        response = await game.ready(power)
        assert response.status_code == 200 and response.json() == {
            "phase": "S1901M", "power": power, "ready": True, "resolved": False}
    # Austria changes its mind: un-ready, and a new submission clears the flag anyway
    assert (await game.ready("AUSTRIA", False)).json()["ready"] is False
    await game.ready("AUSTRIA")
    await game.order_ok("AUSTRIA", ["A VIE - GAL"])
    assert (await game.ready("TURKEY")).json()["resolved"] is False  # Austria is not ready again
    assert (await game.summary())["phase"] == "S1901M"
    assert (await game.ready("AUSTRIA")).json()["resolved"] is True
    resolved = (await game.resolutions())[-1]
    assert [o["order"] for o in resolved["orders"]["AUSTRIA"]] == ["A VIE - GAL"]
    kinds = [e["type"] for e in await game.events()]
    assert kinds.count("ReadySet") == 10


async def test_ready_is_only_for_a_power_that_must_act(host: Host) -> None:
    game = await host.started(7)
    other = await host.client.post(f"{game.url}/ready", json={"power": "ENGLAND"}, headers=game.player("FRANCE").auth)
    assert other.status_code == 403 and other.json()["error"]["code"] == "not_your_power"
    assert (await host.client.post(f"{game.url}/ready", headers=game.host_auth)).status_code == 403
