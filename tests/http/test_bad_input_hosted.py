"""Bad input on the hosted game's endpoints: a clear 4xx and nothing written; what the public
summary and the game list never show."""
from __future__ import annotations

from tests.services.lobby.test_draws import ENDGAME
from tests.utils.http import Host, start_at


async def test_orders_and_flags_from_a_power_that_is_out_another_game_or_a_finished_game(host: Host) -> None:
    game = await start_at(host, ENDGAME, ["FRANCE", "GERMANY"])
    other = await host.started(7)
    before = await game.events()
    out = await game.order("ENGLAND", ["F LON H"])
    assert out.status_code == 409 and out.json()["error"]["code"] == "nothing_to_order"
    assert (await game.ready("ENGLAND")).json()["error"]["code"] == "nothing_to_order"
    foreign = await host.client.put(f"{other.url}/orders", json={"orders": ["A PAR H"]},
                                    headers=game.player("FRANCE").auth)
    assert foreign.status_code == 401
    wrong_power = await host.client.put(f"{game.url}/orders", json={"orders": ["A MUN H"], "power": "GERMANY"},
                                        headers=game.player("FRANCE").auth)
    assert wrong_power.status_code == 403 and wrong_power.json()["error"]["code"] == "not_your_power"
    extend_by_nothing = await host.client.post(f"{game.url}/extend", json={"minutes": 0}, headers=game.host_auth)
    assert extend_by_nothing.status_code == 422
    pause_for_words = await host.client.post(f"{game.url}/pause", json={"minutes": "long"}, headers=game.host_auth)
    assert pause_for_words.status_code == 422
    assert (await host.client.post(f"{game.url}/extend", json={"minutes": 5})).status_code == 401
    assert (await host.client.post(f"{game.url}/pause", headers=game.player("FRANCE").auth)).status_code == 403
    assert (await host.client.post(f"{game.url}/resolve", headers=game.player("FRANCE").auth)).status_code == 403
    assert await game.events() == before

    await game.vote("FRANCE")
    await game.vote("GERMANY")
    await game.vote("TURKEY")
    ended = await game.events()
    for response in (await game.order("FRANCE", ["A PAR H"]), await game.ready("FRANCE"),
                     await game.vote("FRANCE", False),
                     await host.client.post(f"{game.url}/extend", json={"minutes": 5}, headers=game.host_auth),
                     await host.client.post(f"{game.url}/pause", headers=game.host_auth)):
        assert response.status_code == 409 and response.json()["error"]["code"] == "game_finished", response.text
    assert await game.events() == ended


async def test_the_summary_and_the_list_show_codenames_and_powers_only(host: Host) -> None:
    game = await host.started(4)
    summary = await game.summary()
    listed = (await host.client.get("/games")).json()["games"]
    assert summary["codenames"] == sorted(summary["codenames"])
    for text in (str(summary), str(listed)):
        for player in game.players:
            assert player.player_id not in text and player.token not in text
        assert game.host_token not in text
    assert set(summary) >= {"codenames", "powers"} and "seats" not in summary and "players_ids" not in summary
