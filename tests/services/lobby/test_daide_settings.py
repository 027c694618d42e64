"""``daide_open`` over HTTP, and what the host and the seats see of DAIDE seats: the setting is
taken in standard games of seven (422 elsewhere, nothing written), the summary carries
``daide_port`` and ``daide_seats``, and ``GET /games/{id}/seats`` lists the seats with the
DAIDE server's records (IAM locks, takeovers) for the host and the seat's own player only."""
from __future__ import annotations

from datetime import timedelta

from services.lobby.service import join_game, open_daide_port
from shared.events import to_new_event
from shared.events_daide import DaideRejoinLocked, DaideSeatRejoined, daide_stream
from tests.utils.http import Host, bearer


async def test_daide_open_is_a_standard_setting_for_seven(host: Host) -> None:
    listed = len((await host.client.get("/games")).json()["games"])
    for settings, variant in (({"daide_open": True}, "dirigible"),
                              ({"daide_open": True, "player_count": 5}, "standard"),
                              ({"daide_open": True, "private": True}, "standard")):
        refused = await host.client.post("/games", json={"name": "x", "variant": variant, "settings": settings})
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["where"].startswith("body.settings"), refused.text
    assert len((await host.client.get("/games")).json()["games"]) == listed
    game = await host.create(7, daide_open=True)
    summary = await game.summary()
    assert summary["settings"]["daide_open"] is True
    assert summary["daide_port"] is None and summary["daide_seats"] == []  # no DAIDE server opened one yet


async def test_the_seats_list_shows_daide_seats_and_their_records_to_the_host_and_owner(host: Host) -> None:
    game = await host.create(7, daide_open=True, house_bot="heuristic", bots_fill_empty_seats=True)
    person = await game.join()
    bot = await join_game(host.store, game.game_id, daide=True)  # as the DAIDE server seats a bot by name
    await open_daide_port(host.store, game.game_id, 42123)
    summary = await game.summary()
    assert summary["daide_port"] == 42123 and summary["daide_seats"] == [bot.codename]
    seats = (await host.client.get(f"{game.url}/seats")).json()
    assert seats["daide_port"] == 42123 and seats["daide_records"] is None
    assert {s["codename"]: s["daide"] for s in seats["seats"]} == {person.codename: False, bot.codename: True}

    await game.start()
    summary = await game.summary()
    assert [s["daide"] for s in summary["powers"].values()].count(True) == 1
    power = next(p for p, s in summary["powers"].items() if s["daide"])
    records = [DaideRejoinLocked(player_id=bot.player_id, power=power, wrong=5,
                                 until=host.clock.now() + timedelta(minutes=15)),
               DaideSeatRejoined(player_id=bot.player_id, power=power, took_over=True)]
    async with host.store.transaction() as tx:  # what entente daide records (tests/services/daide/test_daide_rejoin.py)
        await tx.events.append(daide_stream(game.game_id), [to_new_event(r) for r in records], expected_version=None)

    by_host = (await host.client.get(f"{game.url}/seats", headers=game.host_auth)).json()
    assert [(r["kind"], r["codename"], r["power"]) for r in by_host["daide_records"]] == [
        ("iam_locked", bot.codename, power), ("iam_rejoined", bot.codename, power)]
    assert by_host["daide_records"][0]["wrong"] == 5 and by_host["daide_records"][1]["took_over"] is True
    owner = (await host.client.get(f"{game.url}/seats", headers=bearer(bot.token))).json()
    assert len(owner["daide_records"]) == 2
    other = (await host.client.get(f"{game.url}/seats", headers=person.auth)).json()
    assert other["daide_records"] == []  # another seat's records are not this player's
    public = (await host.client.get(f"{game.url}/seats")).json()
    assert public["daide_records"] is None and "player_id" not in str(public)
