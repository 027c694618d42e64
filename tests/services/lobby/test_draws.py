"""Draws: every surviving seat votes for it; votes withdrawn until it passes; eliminated powers
do not vote; secret votes by default, public as a game option."""
from __future__ import annotations

from tests.utils.http import POWERS as SEVEN
from tests.utils.http import Host, start_at

ENDGAME = {"variant": "standard", "phase": "S1910M",
           "units": {"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A MUN"], "TURKEY": []},
           "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN"], "TURKEY": ["CON"]}}


async def test_only_surviving_powers_vote_and_the_draw_is_theirs(host: Host) -> None:
    game = await start_at(host, ENDGAME, ["FRANCE", "GERMANY"])
    before = await game.events()
    out = await game.vote("ENGLAND")
    assert out.status_code == 409 and out.json()["error"]["code"] == "power_eliminated"
    assert await game.events() == before  # nothing written
    # an eliminated seat reads the draw as any seat does: its own vote (none) named
    eliminated = await host.client.get(f"{game.url}/draw", headers=game.player("ENGLAND").auth)
    assert eliminated.status_code == 200 and eliminated.json() == {"passed": False, "your_vote": None}
    assert (await game.vote("FRANCE")).json() == {"passed": False, "your_vote": True}
    assert (await game.vote("TURKEY")).json()["passed"] is False  # a centre and no unit: still alive
    passed = await game.vote("GERMANY")
    assert passed.json() == {"passed": True, "your_vote": True}
    summary = await game.summary()
    assert summary["status"] == "finished"
    assert summary["result"] == {"reason": "draw", "winners": [], "drawn": ["FRANCE", "GERMANY", "TURKEY"]}
    assert (await game.vote("FRANCE", False)).json()["error"]["code"] == "game_finished"


async def test_votes_are_secret_unless_the_game_makes_them_public(host: Host) -> None:
    secret = await host.started(7)
    await secret.vote("FRANCE")
    assert (await secret.view("FRANCE"))["draw"]["your_vote"] is True
    assert (await secret.view("GERMANY"))["draw"] == {"passed": False, "your_vote": None}
    own = await host.client.get(f"{secret.url}/draw", headers=secret.player("GERMANY").auth)
    assert own.json() == {"passed": False, "your_vote": None}
    listed = (await host.client.get("/games")).json()["games"]
    assert all(g["draw"].get("votes") is None for g in listed)
    assert "true" not in str((await secret.summary())["draw"]).lower()

    public = await host.started(7, public_votes=True)
    await public.vote("FRANCE")
    await public.vote("ITALY")
    await public.vote("ITALY", False)
    assert (await public.summary())["draw"]["votes"] == {"FRANCE": True, "ITALY": False}
    assert (await public.view("GERMANY"))["draw"]["votes"] == {"FRANCE": True, "ITALY": False}


async def test_who_may_vote(host: Host) -> None:
    game = await host.create(7)
    seated = await game.join()
    early = await host.client.post(f"{game.url}/draw", json={"vote": True}, headers=seated.auth)
    assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_started"
    other = await host.started(7)
    foreign = await host.client.post(f"{other.url}/draw", json={"vote": True}, headers=seated.auth)
    assert foreign.status_code == 401
    by_host = await host.client.post(f"{other.url}/draw", json={"vote": True}, headers=other.host_auth)
    assert by_host.status_code == 403
    assert (await host.client.post(f"{other.url}/draw", json={"vote": "maybe"},
                                   headers=other.player("FRANCE").auth)).status_code == 422
    assert not [e for e in await other.events() if e["type"] == "DrawVoted"]
    for power in SEVEN:
        await other.vote(power)
    assert (await other.summary())["result"]["drawn"] == list(SEVEN)
