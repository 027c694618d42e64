"""One bot, one API key, two games at once (docs/social.md, "API keys"): it finds what it owes
from ``GET /me/games`` and then follows ``GET /me/stream``, one stream for all of its games,
ordering wherever a seat's entry says a power is waited for, against the app under a real
uvicorn."""
from __future__ import annotations

import asyncio
from typing import Any

import httpx

from services.app import create_app
from tests.utils.http import bearer, parse_sse, sign_in_with, social_settings
from tests.utils.oauth_provider import LocalProvider, serve_in_thread
from tests.utils.wait import until

PHASES = 2  # the bot plays the first two phases of each game


async def hosted(client: httpx.AsyncClient) -> dict[str, Any]:
    created = await client.post("/games", json={"name": "Bots welcome",
                                                "settings": {"player_count": 2, "bots_may_join": True}})
    assert created.status_code == 201, created.text
    return created.json()


async def order_everything(client: httpx.AsyncClient, token: str, game_id: str, powers: list[str]) -> None:
    """A pick from the possible orders of every unit of each power, submitted power by power."""
    for power in powers:
        possible = await client.get(f"/games/{game_id}/possible-orders", params={"power": power},
                                    headers=bearer(token))
        assert possible.status_code == 200, possible.text
        orders = [options[0] for options in possible.json()["orders"].values() if options]
        put = await client.put(f"/games/{game_id}/orders", json={"orders": orders, "power": power},
                               headers=bearer(token))
        assert put.status_code == 200 and put.json()["rejected"] == 0, put.text


async def seat_events(response: httpx.Response) -> Any:
    """The ``seat`` (and ``closed``) events of a /me/stream response, as they come."""
    block: list[str] = []
    async for line in response.aiter_lines():
        if line:
            block.append(line)
            continue
        for event in parse_sse("\n".join(block) + "\n\n"):
            yield event
        block = []


async def test_one_key_plays_two_games_at_once_from_one_stream(sqlite_url: str, provider: LocalProvider,
                                                              provider_url: str) -> None:
    provider.add_user("3101", "two-game-bot")
    with serve_in_thread(create_app(social_settings(sqlite_url, provider_url)), lifespan="on") as base:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            session = (await sign_in_with(client, provider_url, "3101"))["token"]
            key = (await client.post("/me/api-keys", json={"label": "bot"}, headers=bearer(session))).json()["key"]
            games = [await hosted(client), await hosted(client)]
            others: dict[str, str] = {}  # game id -> the other seat's token
            for game in games:
                assert (await client.post(f"/games/{game['id']}/players", headers=bearer(key))).status_code == 201
                other = await client.post(f"/games/{game['id']}/players")
                others[game["id"]] = other.json()["token"]
                assert (await client.post(f"/games/{game['id']}/start",
                                          headers=bearer(game["host_token"]))).status_code == 200

            listed = (await client.get("/me/games", headers=bearer(key))).json()["games"]
            assert sorted(s["game_id"] for s in listed) == sorted(g["id"] for g in games)
            assert all(s["waiting_for"] == s["powers"] != [] for s in listed), listed

            played: dict[str, list[str]] = {g["id"]: [] for g in games}  # game id -> phases the bot ordered
            seen: list[dict[str, Any]] = []
            latest: dict[str, str | None] = {}
            async with client.stream("GET", "/me/stream", params={"timeout": 60}, headers=bearer(key)) as stream:
                assert stream.status_code == 200
                assert stream.headers["content-type"].startswith("text/event-stream")
                async for event in seat_events(stream):
                    assert event["event"] == "seat", event
                    seat = event["data"]
                    seen.append(seat)
                    game_id, phase = seat["game_id"], seat["phase"]
                    if seat["waiting_for"] and phase not in played[game_id] and len(played[game_id]) < PHASES:
                        played[game_id].append(phase)
                        await order_everything(client, key, game_id, seat["waiting_for"])
                        other_powers = (await client.get(f"/games/{game_id}/view", headers=bearer(
                            others[game_id]))).json()["viewer"]["powers"]
                        await order_everything(client, others[game_id], game_id, other_powers)
                    latest[game_id] = phase
                    if all(len(played[g["id"]]) == PHASES and latest[g["id"]] not in played[g["id"]]
                           for g in games if g["id"] in latest) and len(latest) == len(games):
                        break  # both games are past the phases the bot was to play
            assert all(len(phases) == PHASES for phases in played.values())
            assert [s["phase"] for s in listed] == [played[s["game_id"]][0] for s in listed]
            # the first two events are the two seats as /me/games listed them; later ones are
            # seats that changed: the bot's own submissions and the new phases
            assert sorted(s["game_id"] for s in seen[:2]) == sorted(g["id"] for g in games)
            assert [s for s in seen[:2]] == sorted(listed, key=lambda s: s["game_id"])
            for game in games:
                mine = [s for s in seen if s["game_id"] == game["id"]]
                first, second = played[game["id"]]
                assert any(s["phase"] == first and s["submitted"] == s["powers"] for s in mine)
                assert any(s["phase"] == second and s["submitted"] == [] and s["waiting_for"] for s in mine)
            after = (await client.get("/me/games", headers=bearer(key))).json()["games"]
            assert all(s["phase"] not in played[s["game_id"]] for s in after)


async def test_the_stream_closes_when_its_key_is_revoked(sqlite_url: str, provider: LocalProvider,
                                                        provider_url: str) -> None:
    provider.add_user("3102", "revoked-bot")
    with serve_in_thread(create_app(social_settings(sqlite_url, provider_url)), lifespan="on") as base:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            session = (await sign_in_with(client, provider_url, "3102"))["token"]
            made = (await client.post("/me/api-keys", headers=bearer(session))).json()
            refused = await client.get("/me/stream", headers=bearer("k.a_0123456789abcdef.forged"))
            assert refused.status_code == 401 and refused.json()["error"]["code"] == "invalid_token"
            async with client.stream("GET", "/me/stream", params={"timeout": 30},
                                     headers=bearer(made["key"])) as stream:
                events = seat_events(stream)
                revoke = asyncio.create_task(client.delete(f"/me/api-keys/{made['key_id']}",
                                                           headers=bearer(session)))
                event = await asyncio.wait_for(anext(events), 20)
                assert event == {"id": None, "event": "closed", "data": {"reason": "revoked"}}
                assert (await revoke).status_code == 204


async def test_an_account_holds_a_bounded_number_of_streams(sqlite_url: str, provider: LocalProvider,
                                                           provider_url: str) -> None:
    """ENTENTE_STREAM_MAX_PER_VIEWER (2 here) streams of one account at once; one more is 429
    ``too_many_streams`` with Retry-After, and a stream that ended gives its place back."""
    provider.add_user("3103", "greedy-bot")
    settings = social_settings(sqlite_url, provider_url, stream_max_per_viewer=2)
    with serve_in_thread(create_app(settings), lifespan="on") as base:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            session = (await sign_in_with(client, provider_url, "3103"))["token"]
            key = (await client.post("/me/api-keys", headers=bearer(session))).json()["key"]
            async with client.stream("GET", "/me/stream", params={"timeout": 30}, headers=bearer(key)) as one, \
                    client.stream("GET", "/me/stream", params={"timeout": 30}, headers=bearer(session)) as two:
                assert one.status_code == two.status_code == 200
                third = await client.get("/me/stream", params={"timeout": 1}, headers=bearer(key))
                assert third.status_code == 429 and third.json()["error"]["code"] == "too_many_streams"
                assert third.headers["retry-after"] == "30"
            async def admitted() -> httpx.Response | None:
                short = await client.get("/me/stream", params={"timeout": 0.2}, headers=bearer(key))
                return short if short.status_code == 200 else None

            short = await until(admitted, what="the server to notice the closed connections", every=0.1)
            assert short.status_code == 200 and short.headers["content-type"].startswith("text/event-stream")


async def test_opening_the_account_stream_is_rate_limited(sqlite_url: str, provider: LocalProvider,
                                                         provider_url: str) -> None:
    """``GET /me/stream`` is opened at most as often as a game's stream (the ``stream`` rate
    limits, docs/operations.md): past them 429 ``rate_limited`` with Retry-After, nothing opened."""
    provider.add_user("3104", "reopening-bot")
    settings = social_settings(sqlite_url, provider_url, rate_limits=True, rate_stream_per_token="3/minute")
    with serve_in_thread(create_app(settings), lifespan="on") as base:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            session = (await sign_in_with(client, provider_url, "3104"))["token"]
            key = (await client.post("/me/api-keys", json={"label": "bot"}, headers=bearer(session))).json()["key"]
            for _ in range(3):
                opened = await client.get("/me/stream", params={"timeout": 0.1}, headers=bearer(key))
                assert opened.status_code == 200, opened.text
            refused = await client.get("/me/stream", params={"timeout": 0.1}, headers=bearer(key))
            assert refused.status_code == 429, refused.text
            assert refused.json()["error"]["code"] == "rate_limited" and int(refused.headers["retry-after"]) > 0


async def test_each_entry_says_which_of_the_seats_writes_it_reflects(sqlite_url: str, provider: LocalProvider,
                                                                     provider_url: str) -> None:
    """Read with httpx-sse as a Python bot reads it: the first event is a seat (the reconnection
    delay with it, no empty event before it), and each entry counts the writes of the phase it
    reflects, per power, so a bot tells an entry computed before its write from one after it
    (docs/social.md, "API keys")."""
    from httpx_sse import aconnect_sse

    provider.add_user("3104", "careful-bot")
    with serve_in_thread(create_app(social_settings(sqlite_url, provider_url)), lifespan="on") as base:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            session = (await sign_in_with(client, provider_url, "3104"))["token"]
            key = (await client.post("/me/api-keys", json={"label": "bot"}, headers=bearer(session))).json()["key"]
            game = await hosted(client)
            assert (await client.post(f"/games/{game['id']}/players", headers=bearer(key))).status_code == 201
            assert (await client.post(f"/games/{game['id']}/players")).status_code == 201
            assert (await client.post(f"/games/{game['id']}/start",
                                      headers=bearer(game["host_token"]))).status_code == 200
            [listed] = (await client.get("/me/games", headers=bearer(key))).json()["games"]
            assert listed["writes"] == {power: 0 for power in listed["powers"]}
            async with aconnect_sse(client, "GET", "/me/stream", params={"timeout": 30},
                                    headers=bearer(key)) as source:
                events = source.aiter_sse()
                first = await asyncio.wait_for(anext(events), 10)
                assert first.event == "seat" and first.retry == 2000, first
                assert first.json() == listed
                power = listed["waiting_for"][0]
                for written in (1, 2):  # a bot's first write, then a change of its mind
                    await order_everything(client, key, game["id"], [power])
                    while True:  # entries computed before this write say fewer writes: not yet
                        seat = (await asyncio.wait_for(anext(events), 10)).json()
                        assert seat["writes"][power] <= written
                        if seat["writes"][power] == written:
                            break
                    assert power in seat["submitted"] and power not in seat["waiting_for"]
                    assert seat["phase"] == listed["phase"]
