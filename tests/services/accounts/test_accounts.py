"""Sign-in through the whole OAuth2 flow against the local provider, accounts and their seats,
bot tokens scoped to one seat, revocation."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx

from tests.utils.http import OPERATOR, app_client, bearer, query_of, sign_in, started_table
from tests.utils.oauth_provider import LocalProvider


async def test_the_whole_flow_creates_the_account_once_and_opens_a_session_each_time(
        social, provider: LocalProvider, provider_url: str) -> None:
    app, client = social
    provider.add_user("1001", "ada", "Ada Lovelace")
    first = await sign_in(app, provider_url, "1001")
    again = await sign_in(app, provider_url, "1001")
    assert first["account_id"] == again["account_id"] and first["account_id"].startswith("a_")
    assert first["name"] == "Ada Lovelace" and first["token"] != again["token"]
    for token in (first["token"], again["token"]):
        me = await client.get("/me", headers=bearer(token))
        assert me.json() == {"account_id": first["account_id"], "name": "Ada Lovelace", "provider": "discord"}
    assert (await client.get("/auth/options")).json() == {"sign_in": True, "provider": "discord", "web_push": False,
                                                            "email": False}
    login = await client.get("/auth/login")
    sent = query_of(login.headers["location"])
    assert sent["client_id"] == "entente-test-client" and sent["response_type"] == "code"
    assert sent["redirect_uri"] == "http://entente.test/auth/callback" and sent["scope"] == "identify"


async def test_a_callback_needs_this_servers_state_in_the_same_browser(
        social, provider: LocalProvider, provider_url: str) -> None:
    app, client = social
    provider.add_user("1002", "bob")
    async with app_client(app) as browser, app_client(app) as other_browser, httpx.AsyncClient() as outside:
        authorize = (await browser.get("/auth/login")).headers["location"]
        back = query_of((await outside.get(f"{authorize}&user=1002")).headers["location"])
        forged = await browser.get("/auth/callback", params={"code": back["code"], "state": back["state"] + "0"})
        assert forged.status_code == 400 and forged.json()["error"]["code"] == "invalid_state"
        elsewhere = await other_browser.get("/auth/callback", params=back)
        assert elsewhere.status_code == 400 and elsewhere.json()["error"]["code"] == "invalid_state"
        # over-long ones are the documented 400s too, never the framework's 422, and spend nothing
        for params, code in (({"code": back["code"], "state": "x" * 513}, "invalid_state"),
                             ({"code": back["code"], "state": back["state"] + "0" * 600}, "invalid_state"),
                             ({"code": "c" * 5000, "state": back["state"]}, "invalid_code")):
            long = await browser.get("/auth/callback", params=params)
            assert long.status_code == 400, long.text
            assert long.json()["error"]["code"] == code and long.json()["error"]["where"] == f"query.{code[8:]}"
        assert provider.codes, "a refused callback does not spend the code"
        good = await browser.get("/auth/callback", params=back)
        assert good.status_code == 200
        replayed = await browser.get("/auth/callback", params=back)
        assert replayed.status_code == 400  # the state cookie was cleared at the first success
        authorize = (await browser.get("/auth/login")).headers["location"]
        state = query_of(authorize)["state"]
        reused = await browser.get("/auth/callback", params={"code": back["code"], "state": state})
        assert reused.status_code == 401 and reused.json()["error"]["code"] == "oauth_refused"
        denied = await browser.get("/auth/callback", params={"error": "access_denied", "state": state})
        assert denied.status_code == 401 and denied.json()["error"]["code"] == "oauth_denied"
        assert (await client.get("/me")).status_code == 401


async def test_sign_in_uses_pkce_and_lets_the_provider_decide_whether_to_ask(
        social, provider: LocalProvider, provider_url: str) -> None:
    """The authorize URL carries an S256 challenge and no forced ``prompt``; the provider (which
    enforces PKCE as Discord does) exchanges the code only with its verifier, which only this
    server can make: a code caught on its way back is refused at the provider without it."""
    app, client = social
    provider.add_user("1009", "pkce")
    assert (await sign_in(app, provider_url, "1009"))["token"].startswith("s.")
    sent = provider.authorize_queries[-1]
    assert sent["code_challenge_method"] == "S256" and len(sent["code_challenge"]) == 43
    assert "prompt" not in sent
    async with app_client(app) as browser, httpx.AsyncClient() as outside:
        first = query_of((await browser.get("/auth/login")).headers["location"])
        second = query_of((await browser.get("/auth/login")).headers["location"])
        assert first["code_challenge"] != second["code_challenge"]  # one verifier per sign-in
        back = query_of((await outside.get(f"{provider_url}/oauth2/authorize", params={**second, "user": "1009"}))
                        .headers["location"])
        stolen = await outside.post(f"{provider_url}/api/oauth2/token", data={
            "grant_type": "authorization_code", "code": back["code"], "redirect_uri": second["redirect_uri"],
            "client_id": "entente-test-client", "client_secret": "entente-test-client-secret-0123456789"})
        assert stolen.status_code == 400 and stolen.json()["error"] == "invalid_grant"


async def test_a_page_navigation_comes_back_to_the_lobby_with_the_token_in_the_fragment(
        social, provider: LocalProvider, provider_url: str) -> None:
    """The web client's sign-in: the browser itself opens the callback (Sec-Fetch-Dest:
    document), and is sent to the lobby page with its session token in the fragment, never in
    the path or query; a refusal comes back as words for the page (docs/web.md, "Signing in")."""
    app, client = social
    provider.add_user("1010", "eve", "Eve Page")
    page = {"sec-fetch-dest": "document", "accept": "text/html,application/xhtml+xml"}
    async with app_client(app) as browser, httpx.AsyncClient() as outside:
        authorize = (await browser.get("/auth/login", headers=page)).headers["location"]
        back = query_of((await outside.get(f"{authorize}&user=1010")).headers["location"])
        landed = await browser.get("/auth/callback", params=back, headers=page)
        assert landed.status_code == 303
        location = urlsplit(landed.headers["location"])
        assert (location.path, location.query) == ("/", "") and location.fragment.startswith("session=s.")
        token = parse_qs(location.fragment)["session"][0]
        me = await client.get("/me", headers=bearer(token))
        assert me.status_code == 200 and me.json()["name"] == "Eve Page"
        again = await browser.get("/auth/callback", params=back, headers=page)  # the state was spent
        assert again.status_code == 303
        said = parse_qs(urlsplit(again.headers["location"]).fragment)
        assert "session" not in said and "start again" in said["sign_in_error"][0]
        fetched = await browser.get("/auth/callback", params=back, headers={"sec-fetch-dest": "empty"})
        assert fetched.status_code == 400 and fetched.json()["error"]["code"] == "invalid_state"


async def test_logging_out_ends_the_session_only(social, provider: LocalProvider, provider_url: str) -> None:
    app, client = social
    provider.add_user("1003", "cy")
    phone, laptop = await sign_in(app, provider_url, "1003"), await sign_in(app, provider_url, "1003")
    assert (await client.post("/auth/logout", headers=bearer(phone["token"]))).status_code == 204
    refused = await client.get("/me", headers=bearer(phone["token"]))
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "invalid_token"
    assert (await client.get("/me", headers=bearer(laptop["token"]))).status_code == 200


async def test_an_account_joins_lists_and_plays_its_seat(social, provider: LocalProvider, provider_url: str) -> None:
    app, client = social
    provider.add_user("1004", "dee")
    account = await sign_in(app, provider_url, "1004")
    mine = bearer(account["token"])
    created = (await client.post("/games", json={"name": "Account game"})).json()
    game_id = created["id"]
    joined = await client.post(f"/games/{game_id}/players", headers=mine)
    assert joined.status_code == 201
    twice = await client.post(f"/games/{game_id}/players", headers=mine)
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "already_seated"
    for _ in range(6):
        assert (await client.post(f"/games/{game_id}/players")).status_code == 201
    assert (await client.post(f"/games/{game_id}/start", headers=bearer(created["host_token"]))).status_code == 200
    listed = (await client.get("/me/games", headers=mine)).json()["games"]
    assert len(listed) == 1 and listed[0]["game_id"] == game_id
    assert listed[0]["player_id"] == joined.json()["player_id"] and listed[0]["codename"] == joined.json()["codename"]
    power = listed[0]["power"]
    view = (await client.get(f"/games/{game_id}/view", headers=mine)).json()
    assert view["viewer"]["power"] == power
    possible = (await client.get(f"/games/{game_id}/possible-orders", headers=mine)).json()
    first_unit = possible["lacking"][0]
    submitted = await client.put(f"/games/{game_id}/orders", headers=mine,
                                 json={"orders": [possible["orders"][first_unit][0]]})
    assert submitted.status_code == 200 and submitted.json()["power"] == power
    # the seat's own token still works, and sees the account's orders as the seat's
    seat_view = (await client.get(f"/games/{game_id}/view", headers=bearer(joined.json()["token"]))).json()
    assert seat_view["orders"] == view["orders"] | {power: [submitted.json()["orders"][0]["order"]]}
    # signed in but without a seat: the public view, and no orders
    provider.add_user("1005", "eve")
    stranger = bearer((await sign_in(app, provider_url, "1005"))["token"])
    assert (await client.get(f"/games/{game_id}/view", headers=stranger)).json()["viewer"]["kind"] == "public"
    assert (await client.put(f"/games/{game_id}/orders", headers=stranger, json={"orders": []})).status_code == 401


async def test_a_bot_token_acts_for_its_seat_in_its_game_and_nowhere_else(social) -> None:
    _, client = social
    table = await started_table(client)
    other = await started_table(client)
    owner = table.player("FRANCE")
    issued = await client.post(f"/games/{table.game_id}/bot-tokens", headers=owner, json={"label": "my bot"})
    assert issued.status_code == 201, issued.text
    bot_token, token_id = issued.json()["token"], issued.json()["token_id"]
    bot = bearer(bot_token)
    view = (await client.get(f"/games/{table.game_id}/view", headers=bot)).json()
    assert view["viewer"]["power"] == "FRANCE"
    placed = await client.put(f"/games/{table.game_id}/orders", headers=bot, json={"orders": ["A PAR - BUR"]})
    assert placed.status_code == 200 and placed.json()["power"] == "FRANCE"
    for response in (
        await client.get(f"/games/{table.game_id}/view", headers=bot, params={"power": "GERMANY"}),
        await client.put(f"/games/{other.game_id}/orders", headers=bot, json={"orders": ["A PAR - BUR"]}),
        await client.get(f"/games/{other.game_id}/view", headers=bot),
        await client.get("/me", headers=bot),
        await client.get("/games", headers=bot),
        await client.post(f"/games/{table.game_id}/bot-tokens", headers=bot),
        await client.post(f"/games/{table.game_id}/resolve", headers=bot),
    ):
        assert response.status_code == 403, response.text
        assert response.json()["error"]["code"] in ("out_of_scope", "not_your_power", "wrong_role")
    listed = (await client.get(f"/games/{table.game_id}/bot-tokens", headers=owner)).json()
    assert listed == {"bot_tokens": [{"token_id": token_id, "label": "my bot"}]}
    others = await client.get(f"/games/{table.game_id}/bot-tokens", headers=table.player("ITALY"))
    assert others.json() == {"bot_tokens": []}
    stolen = await client.delete(f"/games/{table.game_id}/bot-tokens/{token_id}", headers=table.player("ITALY"))
    assert stolen.status_code == 404
    assert (await client.delete(f"/games/{table.game_id}/bot-tokens/{token_id}", headers=owner)).status_code == 204
    revoked = await client.get(f"/games/{table.game_id}/view", headers=bot)
    assert revoked.status_code == 401 and revoked.json()["error"]["code"] == "invalid_token"
    forged = bearer(f"b.{table.game_id}.not-a-real-secret")
    assert (await client.put(f"/games/{table.game_id}/orders", headers=forged, json={"orders": []})).status_code == 401
    events = (await client.get(f"/games/{table.game_id}/events", headers=OPERATOR)).text
    assert bot_token not in events


async def test_sign_in_needs_a_configured_client(sqlite_url: str, provider_url: str) -> None:
    from tests.utils.http import running_app, social_settings

    no_client = social_settings(sqlite_url, provider_url).model_copy(update={"oauth_client_id": ""})
    async with running_app(no_client) as (_, client):
        response = await client.get("/auth/login")
        assert response.status_code == 404 and response.json()["error"]["code"] == "sign_in_unavailable"
        assert (await client.get("/auth/options")).json() == {"sign_in": False, "provider": "discord",
                                                                "web_push": False, "email": False}


async def test_racing_first_sign_ins_of_one_user_both_open_a_session_on_one_account(store) -> None:
    """Two first sign-ins of the same provider user at once: one account, two sessions, no 409."""
    import asyncio

    from services.accounts.service import sign_in as open_session

    first, second = await asyncio.gather(*(open_session(store, "discord", "race-1", "Ada") for _ in range(2)))
    assert first.account.account_id == second.account.account_id
    assert first.token != second.token
