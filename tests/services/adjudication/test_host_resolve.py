"""Who may resolve a phase at once (docs/hosting.md): the host or an operator; a host who also
plays must not be able to cut the others' time, so a game can switch the host's power off."""
from __future__ import annotations

from tests.utils.http import OPERATOR


async def log_of(game) -> str:
    return (await game.client.get(f"{game.url}/events", headers=OPERATOR)).text


async def test_the_host_may_resolve_by_default(host) -> None:
    game = await host.started()
    response = await game.client.post(f"{game.url}/resolve", json={"phase": "S1901M"}, headers=game.host_auth)
    assert response.status_code == 200, response.text
    assert response.json()["next_phase"] == "F1901M"


async def test_a_game_can_take_that_power_from_its_host(host) -> None:
    game = await host.started(host_may_resolve=False)
    before = await log_of(game)
    refused = await game.client.post(f"{game.url}/resolve", json={"phase": "S1901M"}, headers=game.host_auth)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "host_may_not_resolve"
    assert await log_of(game) == before
    allowed = await game.client.post(f"{game.url}/resolve", json={"phase": "S1901M"}, headers=OPERATOR)
    assert allowed.status_code == 200, allowed.text
