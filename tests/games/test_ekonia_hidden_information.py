"""Nothing leaks over HTTP in a hosted Tale of Ekonia game (docs/rules/ekonia.md section 14).

Twin games: in game A Paresque hides an infantry in Dermore, in game B in its own Kremarsh
(the same 10 gold); in game A Arelton investigates Vieren's capital, in game B it hides its
cities (the same 20 gold, whatever the dice of the mission). Vieren, the target of the mission,
then orders a move into Dermore. Everything Vieren, another state and the public get (views,
the order check, possible orders, the stream) is the same in both games. The full state is
for the operator's token only; the host's resolve shows no orders; a notification carries no
detail of the turn.
"""
from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta
from typing import Any

from services.notifications.planning import Context, plan
from shared.events import PhaseResolved, from_recorded
from shared.game.state import fold
from shared.store import RecordedEvent
from tests.services.visibility.sse import of_kind
from tests.utils.http import OPERATOR, Host, HostedGame, bearer, parse_sse, whole_views
from tests.utils.wait import streams_started, until

from .test_ekonia_game import started_ekonia

TWINS = {
    "A": {1: {"PARESQUE": ["MOVE 1 INFANTRY paresque -> mernesia"]},
          2: {"PARESQUE": ["MOVE 1 INFANTRY mernesia -> dermore", "HIDE 1 INFANTRY AT dermore"],
              "ARELTON": ["SPY INVESTIGATE vieren"]}},
    "B": {1: {"PARESQUE": ["MOVE 1 INFANTRY paresque -> mernesia"]},
          2: {"PARESQUE": ["MOVE 1 INFANTRY mernesia -> kremarsh", "HIDE 1 INFANTRY AT kremarsh"],
              "ARELTON": ["HIDE CITIES 3"]}},
}
MOVE_INTO_DERMORE = ["MOVE 1 INFANTRY inesterl -> dermore"]


async def play(game: HostedGame, turns: dict[int, dict[str, list[str]]]) -> None:
    for turn in sorted(turns):
        for player in game.players:
            await game.order_ok(player.powers[0], turns[turn].get(player.powers[0], []))
        assert (await game.summary())["phase"] == f"T{turn + 1:02d}"


def board_of(view: dict[str, Any]) -> str:
    """What a view shows of the game itself (not its id, codenames or clock); of a stream's
    first view frame too (its whole page under history_added)."""
    history = view["history"] if "history" in view else view["history_added"]
    return json.dumps({"position": view["position"], "history": history, "orders": view["orders"],
                       "must_act": view["must_act"]}, sort_keys=True)


async def twin_games(host: Host) -> dict[str, HostedGame]:
    games = {}
    for name, turns in TWINS.items():
        games[name] = await started_ekonia(host)
        await play(games[name], turns)
    return games


async def test_a_hidden_unit_and_a_mission_change_nothing_the_others_see(host: Host) -> None:
    games = await twin_games(host)
    stored = {name: (await game.resolutions())[-1]["position"] for name, game in games.items()}
    assert [u["location"] for u in stored["A"]["units"].values() if u["hidden_until"]] == ["dermore"]
    assert [u["location"] for u in stored["B"]["units"].values() if u["hidden_until"]] == ["kremarsh"]
    for viewer in ("VIEREN", "HERLORNE", None):
        a, b = await games["A"].view(viewer), await games["B"].view(viewer)
        assert board_of(a) == board_of(b), viewer
        assert "dermore" not in json.dumps(a["position"]["public"]["units"])
    # the order into Dermore is checked as one into an empty tile would be
    answers = [await game.order("VIEREN", MOVE_INTO_DERMORE) for game in games.values()]
    assert [r.status_code for r in answers] == [200, 200]
    assert answers[0].json() == answers[1].json()
    assert answers[0].json()["orders"] == [{"text": MOVE_INTO_DERMORE[0], "status": "accepted",
                                            "order": MOVE_INTO_DERMORE[0], "structured": {
                                                "text": MOVE_INTO_DERMORE[0], "type": "move",
                                                "unit": "1 INFANTRY at inesterl", "to": "dermore", "count": 1,
                                                "unit_type": "INFANTRY", "from": "inesterl",
                                                "path": ["inesterl", "dermore"]}}]
    possible = [await host.client.get(f"{g.url}/possible-orders", headers=g.player("VIEREN").auth)
                for g in games.values()]
    assert possible[0].json() == possible[1].json()
    # the stream sends Vieren the same view
    streams = [await host.client.get(f"{g.url}/stream", params={"timeout": 0.2}, headers=g.player("VIEREN").auth)
               for g in games.values()]
    first = [json.loads(next(line for line in s.text.splitlines() if line.startswith("data: "))[6:]) for s in streams]
    assert board_of(first[0]) == board_of(first[1])
    # and the spy's own history tells it how its mission went, to it alone
    mission = [m for h in (await games["A"].view("ARELTON"))["history"] for m in h["details"]["missions"]]
    assert [(m["mission"], m["target"]) for m in mission] == [("INVESTIGATE", "vieren")]
    assert (mission[0]["found"] is None) != mission[0]["success"]


async def test_past_boards_tell_the_others_nothing_more(host: Host) -> None:
    """``?phase=`` builds a past turn from the variant's view and history view: the same for
    everyone but the state that hid the unit, which finds its own hidden unit there."""
    games = await twin_games(host)
    for phase in ("T01", "T02"):
        for viewer in ("VIEREN", "HERLORNE", None):
            seen = []
            for game in games.values():
                headers = game.player(viewer).auth if viewer else {}
                response = await host.client.get(f"{game.url}/view", params={"phase": phase}, headers=headers)
                assert response.status_code == 200, response.text
                seen.append(response.json())
            assert board_of(seen[0]) == board_of(seen[1]), (phase, viewer)
            assert json.dumps(seen[0]["resolution"], sort_keys=True) == json.dumps(seen[1]["resolution"],
                                                                                    sort_keys=True)
            assert "PARESQUE" not in seen[0]["resolution"]["orders"]
    # the state that hid its infantry finds its own orders in its past turn, and no one else's
    own = await host.client.get(f"{games['A'].url}/view", params={"phase": "T02"},
                                headers=games["A"].player("PARESQUE").auth)
    assert own.status_code == 200 and list(own.json()["resolution"]["orders"]) == ["PARESQUE"]
    assert [r["order"] for r in own.json()["resolution"]["orders"]["PARESQUE"]] == TWINS["A"][2]["PARESQUE"]
    assert "own" in own.json()["position"] and own.json()["position"]["own"]["power"] == "PARESQUE"


async def test_the_full_state_is_for_the_operator_alone(host: Host) -> None:
    game = await started_ekonia(host)
    await play(game, TWINS["A"])
    for headers in ({}, game.host_auth, game.player("VIEREN").auth):
        assert (await host.client.get(f"{game.url}/events", headers=headers)).status_code in (401, 403)
    assert (await host.client.get(f"{game.url}/events", headers=OPERATOR)).status_code == 200
    other = await host.client.get(f"{game.url}/view", params={"power": "PARESQUE"}, headers=game.player("VIEREN").auth)
    assert other.status_code == 403
    # the operator's view of a state is that state's view, not the full state
    as_operator = (await host.client.get(f"{game.url}/view", params={"power": "VIEREN"}, headers=OPERATOR)).json()
    assert board_of(as_operator) == board_of(await game.view("VIEREN"))
    assert "PARESQUE-" not in json.dumps(as_operator["position"])
    assert "ledgers\": {\"PARESQUE" not in json.dumps(as_operator)
    # the host resolves a turn and sees no orders (it may be playing too)
    for player in game.players[:-1]:
        await game.order_ok(player.powers[0], [])
    resolved = await host.client.post(f"{game.url}/resolve", headers=game.host_auth)
    assert resolved.status_code == 200 and resolved.json()["orders"] == {}
    by_operator = await host.client.post(f"{game.url}/resolve", headers=OPERATOR)
    assert by_operator.status_code == 200 and set(by_operator.json()["orders"]) == {p.powers[0] for p in game.players}


async def test_a_turn_notification_carries_no_detail_of_the_turn(host: Host) -> None:
    game = await started_ekonia(host)
    await play(game, TWINS["A"])
    records = [RecordedEvent(**{**e, "recorded_at": datetime.fromisoformat(e["recorded_at"])})
               for e in await game.game_events()]
    state = fold(from_recorded(r) for r in records)
    record = [r for r in records if r.type == "PhaseResolved"][-1]
    event = from_recorded(record)
    assert isinstance(event, PhaseResolved)
    webhooks = {p.player_id: "https://hooks.example/x" for p in game.players}
    planned, _ = plan(record, event, Context(state, webhooks), timedelta(hours=1))
    assert len(planned) == 6
    for item in planned:
        facts = item.payload["entente"]
        assert isinstance(facts, dict)
        assert set(facts) == {"kind", "game_id", "phase", "next_phase", "winners", "your_powers"}
        assert "dermore" not in json.dumps(item.payload) and "INVESTIGATE" not in json.dumps(item.payload)


async def test_a_player_token_is_refused_for_another_seat(host: Host) -> None:
    game = await started_ekonia(host)
    response = await host.client.put(f"{game.url}/orders", json={"orders": ["MORALE 1"], "power": "PARESQUE"},
                                     headers=bearer(game.player("VIEREN").token))
    assert response.status_code == 403 and "PARESQUE" in response.text and "gold" not in response.text


async def test_each_stream_appended_is_its_own_view_and_no_other(host: Host) -> None:
    """A state's frames after the first carry only the history entries added to its own view
    (docs/social.md, "Frames that send only what is new"): appended, they are what GET /view
    shows that viewer, and the spy's report of its mission reaches its own stream alone."""
    game = await started_ekonia(host)
    viewers = ("ARELTON", "VIEREN", None)
    streams = [asyncio.create_task(host.client.get(
        f"{game.url}/stream", params={"timeout": 2.5}, headers=game.player(viewer).auth if viewer else {}))
        for viewer in viewers]
    await until(lambda: streams_started(host.store) == len(viewers), what="the streams' starts")
    await play(game, TWINS["A"])
    for viewer, response in zip(viewers, await asyncio.gather(*streams), strict=True):
        frames = of_kind(parse_sse(response.text), "view")
        assert frames[0]["data"]["history_reset"] and not any(f["data"]["history_reset"] for f in frames[1:])
        assert all("history" not in f["data"] and "history_added" in f["data"] for f in frames)
        assert sum(len(f["data"]["history_added"]) for f in frames[1:]) == 2
        assert whole_views(frames)[-1]["data"] == await game.view(viewer)
        assert ("INVESTIGATE" in response.text) == (viewer == "ARELTON"), viewer
