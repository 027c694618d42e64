"""Anonymity: everything one player sees across a whole short game (every response body, stream
event and webhook payload) names the others only by power and codename. With
``reveal_identities`` on, identities appear, and only once the game has ended."""
from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import httpx
import pytest

from services.notifications.delivery import step
from shared.store import utc_now
from tests.utils.http import OPERATOR, AccountTable, account_table, bearer, parse_sse
from tests.utils.oauth_provider import LocalProvider
from tests.utils.webhook_receiver import Receiver

ME = "FRANCE"


class Witness:
    """One player's eyes: every answer they got, as text."""

    def __init__(self, client: httpx.AsyncClient, token: str) -> None:
        self.client, self.headers = client, bearer(token)
        self.seen: list[str] = []

    async def __call__(self, method: str, url: str, **options: Any) -> httpx.Response:
        headers = {**self.headers, **options.pop("headers", {})}
        response = await self.client.request(method, url, headers=headers, **options)
        self.seen.append(response.text)
        return response


def secrets_of_others(table: AccountTable, provider: LocalProvider) -> dict[str, str]:
    """Every identity of every other player: names, account ids, tokens, player ids, provider ids."""
    found = {}
    for power, account in table.accounts.items():
        if power == ME:
            continue
        user_id = next(u for u, user in provider.users.items() if user.global_name == account["name"])
        user = provider.users[user_id]
        for label, value in (("name", account["name"]), ("username", user.username), ("provider id", user_id),
                             ("account id", account["account_id"]), ("session token", account["token"]),
                             ("seat token", account["seat_token"]), ("player id", table.player_ids[power])):
            found[f"{power} {label}"] = value
    return found


def lists_in(value: Any) -> list[list[Any]]:
    if isinstance(value, list):
        return [value] + [inner for item in value for inner in lists_in(item)]
    if isinstance(value, dict):
        return [inner for item in value.values() for inner in lists_in(item)]
    return []


def leaks(texts: list[str], table: AccountTable, provider: LocalProvider) -> list[str]:
    """What in ``texts`` identifies another player, or tells the order the players joined in."""
    found = [label for label, secret in secrets_of_others(table, provider).items() if any(secret in t for t in texts)]
    join_orders = [table.join_order, [table.codenames[p] for p in table.join_order]]
    for text in texts:
        for data in _json_values(text):
            for listed in lists_in(data):
                if any(listed == order and order != sorted(order) for order in join_orders):
                    found.append(f"join order: {listed}")
    return found


def _json_values(text: str) -> list[Any]:
    try:
        return [json.loads(text)]
    except ValueError:
        return [event["data"] for event in parse_sse(text)] if "event:" in text else []


async def play_a_short_game(table: AccountTable, me: Witness, receiver_url: str) -> None:
    client, game = table.client, table.game_id
    other = (await client.post("/games", json={"name": "Elsewhere"})).json()["id"]
    await me("PUT", f"/games/{game}/webhook", json={"url": f"{receiver_url}/ok/anon-{game}"})
    for url in ("/me", "/me/games", "/games", f"/games/{game}", f"/games/{game}/view",
                f"/games/{game}/possible-orders", f"/games/{game}/webhook"):
        assert (await me("GET", url)).status_code == 200, url
    # mistakes: the errors must not tell anything either
    for method, url, body in (("GET", f"/games/{game}/view?power=ENGLAND", None),
                              ("PUT", f"/games/{other}/orders", {"orders": ["A PAR H"]}),
                              ("POST", f"/games/{game}/messages", {"to": ["ATLANTIS"], "text": "hi"}),
                              ("POST", f"/games/{game}/resolve", None),
                              ("DELETE", f"/games/{game}/bot-tokens/bt_000000000000", None),
                              ("POST", f"/games/{game}/players", None)):
        assert (await me(method, url, json=body)).status_code >= 400
    bot = (await me("POST", f"/games/{game}/bot-tokens", json={"label": "helper"})).json()["token"]
    await me("GET", f"/games/{game}/view", headers=bearer(bot))
    await me("GET", f"/games/{game}/bot-tokens")
    last_id = parse_sse((await me("GET", f"/games/{game}/stream", params={"timeout": 0.05})).text)[0]["id"]
    chatter = [("ENGLAND", ["GERMANY"], "secret between us"), ("GERMANY", "all", "hello everyone"),
               ("ITALY", [ME], "just for France"), (ME, "all", "France speaks"),
               ("RUSSIA", ["TURKEY", ME], "three of us")]
    for phase in ("S1901M", "F1901M"):
        for sender, to, text in chatter:
            response = await client.post(f"/games/{game}/messages", headers=table.player(sender),
                                         json={"to": to, "text": f"{phase}: {text}"})
            assert response.status_code == 201, response.text
        for power in table.tokens:
            possible = (await client.get(f"/games/{game}/possible-orders", headers=table.player(power))).json()
            orders = [choices[0] for choices in possible["orders"].values()]
            if power == ME:
                await me("PUT", f"/games/{game}/orders", json={"orders": orders})
            else:
                await table.order_ok(power, orders)
        await me("GET", f"/games/{game}/view")
        await me("GET", f"/games/{game}/messages")
        resumed = await me("GET", f"/games/{game}/stream", params={"timeout": 0.1},
                           headers={"last-event-id": str(last_id)})
        last_id = parse_sse(resumed.text)[-1]["id"]
        if (await client.get(f"/games/{game}")).json()["phase"] == phase:  # else it resolved early
            await table.resolve(phase)
    hidden = await me("GET", f"/games/{game}/identities")
    assert hidden.status_code == 403 and hidden.json()["error"]["code"] == "identities_hidden"
    await me("GET", f"/games/{game}")


async def finish(table: AccountTable, me: Witness) -> None:
    finished = await table.client.post(f"/games/{table.game_id}/finish", headers=OPERATOR, json={"reason": "draw"})
    assert finished.status_code == 200, finished.text
    for url in (f"/games/{table.game_id}", f"/games/{table.game_id}/view", f"/games/{table.game_id}/messages",
                "/me/games"):
        await me("GET", url)


@pytest.mark.parametrize("reveal", [False, True])
async def test_one_player_sees_no_other_identity_across_a_game(
        social, provider: LocalProvider, provider_url: str, receiver: Receiver, receiver_url: str,
        reveal: bool) -> None:
    app, client = social
    table = await account_table(client, app, provider, provider_url, {"reveal_identities": reveal},
                                prefix="r" if reveal else "h")
    me = Witness(client, table.tokens[ME])
    await play_a_short_game(table, me, receiver_url)
    await finish(table, me)
    await step(app.state.store, app.state.settings, utc_now() + timedelta(days=3))
    payloads = [json.dumps(p) for p in receiver.received[f"anon-{table.game_id}"]]
    assert len(payloads) >= 8  # messages, resolutions, the end (and reminders)
    stream = (await me("GET", f"/games/{table.game_id}/stream", params={"timeout": 0.05},
                       headers={"last-event-id": "0"})).text
    assert "secret between us" not in stream and "France speaks" in stream
    everything = me.seen + payloads
    # the detector itself finds each identity, and a list in join order
    assert len(leaks([json.dumps(secrets_of_others(table, provider))], table, provider)) == 6 * 7
    if table.join_order != sorted(table.join_order):
        assert leaks([json.dumps({"seats": table.join_order})], table, provider)
    assert any(table.codenames["ENGLAND"] in text for text in everything)  # others appear, by codename
    assert leaks(everything, table, provider) == []
    assert all(table.accounts[ME]["name"] not in p for p in payloads)
    identities = await me("GET", f"/games/{table.game_id}/identities")
    if not reveal:
        assert identities.status_code == 403 and leaks([identities.text], table, provider) == []
        return
    assert identities.status_code == 200
    named = {power: row["name"] for row in identities.json()["identities"] for power in row["powers"]}
    assert named == {power: account["name"] for power, account in table.accounts.items()}
    revealed = leaks([identities.text], table, provider)
    assert revealed and all(label.split()[1] == "name" for label in revealed)  # names only: no ids, no tokens
