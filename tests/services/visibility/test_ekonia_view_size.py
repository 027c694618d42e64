"""A Tale of Ekonia view costs the same bytes at any age of the game (docs/api.md, "History
pages"): its position holds the spending and a spy's knowledge of the latest RECENT_TURNS
turns only, and nothing is lost, since each turn's spending and missions are in its history
entry and a past phase's view holds the turns before it (docs/rules/ekonia.md, V9)."""
from __future__ import annotations

from shared.rules.ekonia.policy import RECENT_TURNS
from tests.utils.ekonia_long import play_until, started_ekonia, view_bytes
from tests.utils.http import Host

SETTLED = 20 + RECENT_TURNS + 2  # past a full history page and a full window of recent turns
LATE = 100


async def test_an_ekonia_views_bytes_stay_the_same_as_the_game_ages(host: Host) -> None:
    game = await started_ekonia(host)
    spy = sorted(p for player in game.players for p in player.powers)[0]
    await play_until(game, SETTLED)
    early = {"player": await view_bytes(game, spy), "public": await view_bytes(game)}
    await play_until(game, LATE)
    late = {"player": await view_bytes(game, spy), "public": await view_bytes(game)}
    for who in early:  # a mission's success changes what a spy knows by a few bytes, not the count of turns
        assert late[who] <= early[who] * 1.03, (who, early, late)

    view = await game.view(spy)
    turn = LATE
    recent = [f"T{t:02d}" for t in range(turn - RECENT_TURNS, turn)]
    public, own = view["position"]["public"], view["position"]["own"]
    assert all(sorted(by_turn) == recent for by_turn in public["spent"].values()), public["spent"]
    assert sorted(own["spending"]) == recent
    assert own["knowledge"] and all(turn - RECENT_TURNS <= k["turn"] < turn for k in own["knowledge"])
    # each turn of the page names every state's spending in its details, as the position did
    for entry in view["history"]:
        played = int(entry["phase"].lstrip("T"))
        assert sorted(entry["details"]["spending"]) == sorted(public["spent"]), entry["phase"]
        if played >= turn - RECENT_TURNS:
            assert {p: rec["total"] for p, rec in entry["details"]["spending"].items()} == {
                p: by_turn[entry["phase"]] for p, by_turn in public["spent"].items()}
        assert all(m["power"] == spy for m in entry["details"]["missions"])
    # and an early turn's spending and missions are still there, on a past phase's view
    past = (await game.client.get(f"{game.url}/view", params={"phase": "T05"},
                                  headers=game.player(spy).auth)).json()
    earlier = ["T01", "T02", "T03", "T04"]
    assert all(sorted(by_turn) == earlier for by_turn in past["position"]["public"]["spent"].values())
    assert [e["phase"] for e in past["history"]] == earlier
    missions = [m["turn"] for e in past["history"] for m in e["details"]["missions"]]
    assert missions and [k["turn"] for k in past["position"]["own"]["knowledge"]] == missions
