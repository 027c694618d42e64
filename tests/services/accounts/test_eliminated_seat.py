"""An eliminated seat hands nothing on: no new bot token, no webhook (409 ``power_eliminated``,
nothing written), while a surviving seat of the same game may do both."""
from __future__ import annotations

from tests.utils.http import Host, start_at

ENDGAME = {"variant": "standard", "phase": "S1910M",
           "units": {"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A MUN"]},
           "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN"]}}


async def test_an_eliminated_seat_creates_no_bot_token_and_sets_no_webhook(host: Host) -> None:
    game = await start_at(host, ENDGAME, ["FRANCE", "GERMANY"])
    england = game.player("ENGLAND").auth
    before = await game.events()
    token = await host.client.post(f"{game.url}/bot-tokens", json={"label": "late bot"}, headers=england)
    assert token.status_code == 409, token.text
    assert token.json()["error"]["code"] == "power_eliminated"
    assert "ENGLAND" in token.json()["error"]["message"]
    hook = await host.client.put(f"{game.url}/webhook", json={"url": "https://example.com/hook"}, headers=england)
    assert hook.status_code == 409 and hook.json()["error"]["code"] == "power_eliminated"
    assert await game.events() == before
    listed = await host.client.get(f"{game.url}/bot-tokens", headers=england)
    assert listed.status_code == 200 and listed.json() == {"bot_tokens": []}
    assert (await host.client.get(f"{game.url}/webhook", headers=england)).json() == {"url": None}

    france = game.player("FRANCE").auth
    alive = await host.client.post(f"{game.url}/bot-tokens", json={"label": "bot"}, headers=france)
    assert alive.status_code == 201, alive.text
    alive_hook = await host.client.put(f"{game.url}/webhook", json={"url": "https://example.com/hook"},
                                       headers=france)
    assert alive_hook.status_code != 409, alive_hook.text
