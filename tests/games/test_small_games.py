"""Fewer than seven (docs/rules/standard.md's table) through the API: seats of several powers drawn from the
stored seed, sitting-out powers holding, the two-player game from 1914 with Italy joining in 1915."""
from __future__ import annotations

import pytest

from tests.utils.http import OPERATOR_TOKEN, Host, bearer

TABLE = {
    6: [["AUSTRIA"], ["ENGLAND"], ["FRANCE"], ["GERMANY"], ["RUSSIA"], ["TURKEY"]],
    5: [["AUSTRIA"], ["ENGLAND"], ["FRANCE"], ["RUSSIA"], ["TURKEY"]],
    4: [["ENGLAND"], ["AUSTRIA", "FRANCE"], ["GERMANY", "TURKEY"], ["ITALY", "RUSSIA"]],
    3: [["AUSTRIA", "ENGLAND", "GERMANY"], ["ITALY", "RUSSIA"], ["FRANCE", "TURKEY"]],
    2: [["ENGLAND", "FRANCE", "RUSSIA"], ["AUSTRIA", "GERMANY", "TURKEY"]],
}
SITTING_OUT = {6: ["ITALY"], 5: ["GERMANY", "ITALY"], 4: [], 3: [], 2: ["ITALY"]}


@pytest.mark.parametrize("players", [6, 5, 4, 3, 2])
async def test_the_table_of_seed_003(host: Host, players: int) -> None:
    game = await host.started(players)
    seats = sorted(sorted(p.powers) for p in game.players)
    assert seats == sorted(TABLE[players])
    summary = await game.summary()
    assert summary["phase"] == ("S1914M" if players == 2 else "S1901M")
    seated = sorted(p for seat in TABLE[players] for p in seat)
    assert summary["must_act"] == seated
    assert sorted(summary["powers"]) == seated
    for player in game.players:  # every power of a seat under the seat's one codename
        assert all(summary["powers"][p]["codename"] == player.codename for p in player.powers)
    assert summary["codenames"] == sorted(p.codename for p in game.players)
    board = (await game.view())["position"]["units"]
    for power in SITTING_OUT[players]:
        assert board[power]  # its units stand on the board, ordered by nobody


async def test_sitting_out_powers_hold_and_defend_themselves(host: Host) -> None:
    game = await host.started(6)
    refused = await host.client.put(f"{game.url}/orders", json={"orders": ["A VEN - TYR"], "power": "ITALY"},
                                    headers=game.players[0].auth)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_your_power"
    await game.order_ok("AUSTRIA", ["A VIE - TRI"])  # into its own fleet's place: fails, nothing moves
    for power in ("ENGLAND", "FRANCE", "GERMANY", "RUSSIA"):
        await game.order_ok(power, [])
    assert (await game.order_ok("TURKEY", []))["resolved"] is True  # nobody waits for Italy
    spring = (await game.resolutions())[-1]
    assert "ITALY" not in spring["orders"] and spring["civil_disorder"] == []
    assert sorted((await game.view())["position"]["units"]["ITALY"]) == ["A ROM", "A VEN", "F NAP"]


async def test_two_players_from_1914_and_italy_joins_a_side_in_1915(host: Host) -> None:
    game = await host.started(2)
    first, second = game.players
    assert (await game.summary())["phase"] == "S1914M"
    unnamed = await host.client.put(f"{game.url}/orders", json={"orders": []}, headers=first.auth)
    assert unnamed.status_code == 422 and unnamed.json()["error"]["code"] == "power_required"
    possible = await host.client.get(f"{game.url}/possible-orders", params={"power": first.powers[1]},
                                     headers=first.auth)
    assert possible.status_code == 200 and possible.json()["power"] == first.powers[1]
    assert possible.json()["powers"] is None
    every = await host.client.get(f"{game.url}/possible-orders", headers=first.auth)  # no ?power=: all of them
    assert every.status_code == 200, every.text
    by_power = every.json()["powers"]
    acting = [p for p in first.powers if p in (await game.summary())["must_act"]]
    assert sorted(by_power) == sorted(acting) and len(acting) > 1
    for power in acting:
        one = (await host.client.get(f"{game.url}/possible-orders", params={"power": power},
                                     headers=first.auth)).json()
        assert by_power[power] == {k: v for k, v in one.items() if k != "powers"}
    assert every.json()["power"] == acting[0] and every.json()["orders"] == by_power[acting[0]]["orders"]
    other_side = await host.client.get(f"{game.url}/view", params={"power": second.powers[0]}, headers=first.auth)
    assert other_side.status_code == 403

    async def everyone_holds() -> None:
        for player in game.players:
            summary = await game.summary()
            for power in player.powers:
                if power in summary["must_act"]:
                    await game.order_ok(power, [])

    await everyone_holds()
    assert (await game.summary())["phase"] == "F1914M"
    await everyone_holds()
    summary = await game.summary()
    assert summary["phase"] == "S1915M" and "ITALY" in summary["must_act"]
    for player in game.players:
        player.powers = (await game.view(player.powers[0]))["viewer"]["powers"]
    joined = [p for p in game.players if "ITALY" in p.powers]
    assert len(joined) == 1 and len(joined[0].powers) == 4
    assert summary["powers"]["ITALY"]["codename"] == joined[0].codename
    body = await game.order_ok("ITALY", ["A VEN - TYR"])
    assert body["power"] == "ITALY"
    italy_view = await game.view("ITALY")
    assert italy_view["orders"] == {"ITALY": ["A VEN - TYR"]}
    started = next(e for e in await game.game_events() if e["type"] == "GameStarted")
    assert started["schema_version"] == 2 and started["data"]["joins"] == [
        {"power": "ITALY", "player_id": joined[0].player_id, "phase": "S1915M"}]


async def test_a_seat_of_several_powers_sends_no_private_message_to_itself(host: Host) -> None:
    game = await host.started(4)
    seat = game.player("AUSTRIA")  # Austria and France
    assert sorted(seat.powers) == ["AUSTRIA", "FRANCE"]
    url = f"{game.url}/messages"
    for to in (["FRANCE"], ["AUSTRIA", "FRANCE"]):
        refused = await host.client.post(url, json={"to": to, "text": "note to self", "from": "AUSTRIA"},
                                         headers=seat.auth)
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["code"] == "no_recipient"
    mixed = await host.client.post(url, json={"to": ["FRANCE", "ENGLAND"], "text": "hello", "from": "AUSTRIA"},
                                   headers=seat.auth)
    assert mixed.status_code == 201, mixed.text
    assert mixed.json()["to"] == ["ENGLAND"]  # the seat's own France reads it already
    messages = (await host.client.get(url, headers=bearer(OPERATOR_TOKEN))).json()["messages"]
    assert [m["text"] for m in messages] == ["hello"]
