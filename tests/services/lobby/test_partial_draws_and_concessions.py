"""Partial draws and conceding, as game settings (docs/hosting.md, "Victory and draws"): a
draw of some surviving powers passes when every surviving seat votes for the same powers; a
game ends as one power's victory when every other surviving seat concedes to it; both off by
default, refused with a clear 4xx and nothing written; on both back ends."""
from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from shared.clock import ManualClock
from tests.utils.http import Host, HostedGame, hosting, start_at

# France, Germany, Russia and Turkey survive; England, Austria and Italy are out
ENDGAME = {"variant": "standard", "phase": "S1910M",
           "units": {"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A MUN"], "RUSSIA": ["A MOS"], "TURKEY": []},
           "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN"], "RUSSIA": ["MOS"], "TURKEY": ["CON"]}}
ALIVE = ["FRANCE", "GERMANY", "RUSSIA", "TURKEY"]



@pytest.fixture
async def host_any(store_url: str) -> AsyncIterator[Host]:
    async with hosting(store_url, ManualClock()) as opened:
        yield opened


async def draw(game: HostedGame, power: str, powers: list[str] | None = None, vote: bool = True) -> httpx.Response:
    body: dict[str, Any] = {"vote": vote} if powers is None else {"vote": vote, "powers": powers}
    return await game.client.post(f"{game.url}/draw", json=body, headers=game.player(power).auth)


async def concede(game: HostedGame, power: str, to: str | None) -> httpx.Response:
    return await game.client.post(f"{game.url}/concede", json={"to": to}, headers=game.player(power).auth)


async def test_a_partial_draw_passes_when_every_survivor_votes_for_the_same_powers(host_any: Host) -> None:
    game = await start_at(host_any, ENDGAME, ALIVE, partial_draws=True, concessions=True)
    assert (await draw(game, "FRANCE", ["germany", "FRANCE"])).json() == {
        "passed": False, "your_vote": True, "your_powers": ["FRANCE", "GERMANY"]}
    assert (await draw(game, "GERMANY", ["FRANCE", "GERMANY"])).json()["passed"] is False
    assert (await draw(game, "RUSSIA", ["FRANCE", "GERMANY"])).json()["passed"] is False
    # Turkey votes for the draw of every survivor: not the same draw, so nothing passes
    assert (await draw(game, "TURKEY")).json() == {"passed": False, "your_vote": True}
    assert (await game.summary())["status"] == "active"
    # Turkey gives in: the draw of France and Germany, which Russia and Turkey agreed to leave
    passed = await draw(game, "TURKEY", ["FRANCE", "GERMANY"])
    assert passed.json()["passed"] is True
    summary = await game.summary()
    assert summary["status"] == "finished"
    assert summary["result"] == {"reason": "draw", "winners": [], "drawn": ["FRANCE", "GERMANY"]}
    assert (await draw(game, "FRANCE", vote=False)).json()["error"]["code"] == "game_finished"


async def test_naming_every_survivor_is_the_whole_draw(host_any: Host) -> None:
    game = await start_at(host_any, ENDGAME, ALIVE, partial_draws=True, concessions=True)
    for power in ("FRANCE", "GERMANY", "RUSSIA"):
        assert (await draw(game, power)).json()["passed"] is False
    assert (await draw(game, "TURKEY", list(reversed(ALIVE)))).json()["passed"] is True
    assert (await game.summary())["result"]["drawn"] == ALIVE


async def test_conceding_ends_the_game_as_that_powers_victory(host_any: Host) -> None:
    game = await start_at(host_any, ENDGAME, ALIVE, partial_draws=True, concessions=True)
    assert (await concede(game, "GERMANY", "france")).json() == {
        "passed": False, "your_vote": None, "your_concession": "FRANCE"}
    assert (await concede(game, "RUSSIA", "FRANCE")).json()["your_concession"] == "FRANCE"
    assert (await concede(game, "TURKEY", "RUSSIA")).json()["passed"] is False
    assert "your_concession" not in (await concede(game, "TURKEY", None)).json()  # withdrawn
    assert (await game.summary())["status"] == "active"
    # France need not concede to itself; the eliminated seats have no say
    assert (await concede(game, "TURKEY", "FRANCE")).status_code == 200
    summary = await game.summary()
    assert summary["status"] == "finished"
    assert summary["result"] == {"reason": "victory", "winners": ["FRANCE"], "drawn": []}
    finished = [e["data"] for e in await game.game_events() if e["type"] == "GameFinished"]
    assert finished[0]["conceded"] is True


async def test_concessions_and_partial_draws_are_secret_unless_votes_are_public(host_any: Host) -> None:
    secret = await start_at(host_any, ENDGAME, ALIVE, partial_draws=True, concessions=True)
    await concede(secret, "GERMANY", "FRANCE")
    await draw(secret, "RUSSIA", ["FRANCE", "RUSSIA"])
    assert (await secret.view("FRANCE"))["draw"] == {"passed": False, "your_vote": None}
    assert (await secret.view("GERMANY"))["draw"] == {"passed": False, "your_vote": None, "your_concession": "FRANCE"}
    assert (await secret.summary())["draw"] == {"passed": False, "votes": None}
    public = await start_at(host_any, ENDGAME, ALIVE, public_votes=True, partial_draws=True, concessions=True)
    await concede(public, "GERMANY", "FRANCE")
    await draw(public, "RUSSIA", ["FRANCE", "RUSSIA"])
    await draw(public, "TURKEY")
    assert (await public.summary())["draw"] == {
        "passed": False, "votes": {"RUSSIA": True, "TURKEY": True}, "proposals": {"RUSSIA": ["FRANCE", "RUSSIA"]},
        "concessions": {"GERMANY": "FRANCE"}}


async def test_refusals_are_clear_and_write_nothing(host_any: Host) -> None:
    plain = await start_at(host_any, ENDGAME, ALIVE)
    game = await start_at(host_any, ENDGAME, ALIVE, partial_draws=True, concessions=True)
    before = (await plain.game_events(), await game.game_events())
    cases = [
        (await draw(plain, "FRANCE", ["FRANCE", "GERMANY"]), 403, "partial_draws_disabled"),
        (await concede(plain, "GERMANY", "FRANCE"), 403, "concessions_disabled"),
        (await draw(game, "FRANCE", ["FRANCE", "ENGLAND"]), 422, "not_surviving"),
        (await draw(game, "FRANCE", ["FRANCE", "ATLANTIS"]), 422, "unknown_power"),
        (await draw(game, "FRANCE", ["FRANCE", "france"]), 422, "invalid_request"),
        (await draw(game, "FRANCE", ["FRANCE"]), 422, "invalid_request"),
        (await draw(game, "FRANCE", []), 422, "invalid_request"),
        (await concede(game, "GERMANY", "ITALY"), 422, "not_surviving"),
        (await concede(game, "GERMANY", "GERMANY"), 422, "invalid_request"),
        (await concede(game, "GERMANY", "NARNIA"), 422, "unknown_power"),
        (await concede(game, "ENGLAND", "FRANCE"), 409, "power_eliminated"),
        (await game.client.post(f"{game.url}/concede", json={"to": "FRANCE"}, headers=game.host_auth),
         403, "wrong_role"),
        (await game.client.post(f"{game.url}/concede", json={"to": 7}, headers=game.player("GERMANY").auth),
         422, "invalid_request"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.text
        assert response.json()["error"]["code"] == code, response.text
    assert (await plain.game_events(), await game.game_events()) == before
