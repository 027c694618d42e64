"""Press as conversations (docs/social.md, "Conversations"): one per set of correspondents, its
own unread count kept per seat in the log, sending into one under the game's press rules, and
what a conversation's name may be; on both back ends."""
from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.utils.http import OPERATOR, Table, started_table


async def listed(table: Table, power: str | None) -> dict[str, Any]:
    headers = table.player(power) if power else {}
    answer = await table.client.get(f"/games/{table.game_id}/conversations", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


def unread(page: dict[str, Any]) -> dict[str, int]:
    return {c["id"]: c["unread"] for c in page["conversations"]}


async def say(table: Table, power: str, conversation: str, text: str) -> httpx.Response:
    return await table.client.post(f"/games/{table.game_id}/conversations/{conversation}/messages",
                                   headers=table.player(power), json={"text": text})


async def read(table: Table, power: str, conversation: str, through: str | None = None) -> httpx.Response:
    body = {} if through is None else {"through": through}
    return await table.client.post(f"/games/{table.game_id}/conversations/{conversation}/read",
                                   headers=table.player(power), json=body)


async def test_each_set_of_correspondents_is_a_conversation_with_its_own_unread_count(social_any) -> None:
    _, client = social_any
    table = await started_table(client)
    assert (await say(table, "FRANCE", "ENGLAND", "Channel stays empty?")).status_code == 201
    assert (await say(table, "FRANCE", "germany,ITALY", "Split Austria?")).status_code == 201
    assert (await say(table, "ENGLAND", "all", "Good luck, all.")).status_code == 201
    assert (await say(table, "ENGLAND", "FRANCE", "Agreed.")).status_code == 201
    assert (await say(table, "ITALY", "FRANCE,GERMANY", "Yes.")).status_code == 201

    france = await listed(table, "FRANCE")
    assert [c["id"] for c in france["conversations"]] == ["GERMANY,ITALY", "ENGLAND", "all"]
    assert unread(france) == {"GERMANY,ITALY": 1, "ENGLAND": 1, "all": 1} and france["unread"] == 3
    group = france["conversations"][0]
    assert group["with"] == ["GERMANY", "ITALY"] and group["messages"] == 2
    assert group["last_message"]["text"] == "Yes."
    assert group["last_message"]["from"] == {"power": "ITALY", "codename": table.codenames["ITALY"]}
    # the same group as Germany names it; England's writing answered what came before
    assert unread(await listed(table, "GERMANY")) == {"FRANCE,ITALY": 2, "all": 1}
    assert unread(await listed(table, "ENGLAND")) == {"FRANCE": 0, "all": 0}
    # someone outside every private conversation reads the public one alone
    assert unread(await listed(table, "RUSSIA")) == {"all": 1}
    assert unread(await listed(table, None)) == {"all": 0}

    marked = await read(table, "FRANCE", "ENGLAND")
    assert marked.status_code == 200, marked.text
    assert marked.json()["unread"] == 0 and marked.json()["with"] == ["ENGLAND"]
    # kept in the log for the seat: every later read (another device, a reload) says the same
    assert unread(await listed(table, "FRANCE")) == {"GERMANY,ITALY": 1, "ENGLAND": 0, "all": 1}
    assert unread(await listed(table, "ENGLAND")) == {"FRANCE": 0, "all": 0}  # marks are the seat's own

    messages = await client.get(f"/games/{table.game_id}/conversations/ITALY,GERMANY/messages",
                                headers=table.player("FRANCE"))
    assert messages.status_code == 200, messages.text
    assert [m["text"] for m in messages.json()["messages"]] == ["Split Austria?", "Yes."]
    first = messages.json()["messages"][0]["id"]
    assert (await read(table, "FRANCE", "GERMANY,ITALY", first)).json()["unread"] == 1
    assert (await read(table, "FRANCE", "GERMANY,ITALY")).json()["unread"] == 0
    operator = await client.get(f"/games/{table.game_id}/conversations", headers=OPERATOR)
    assert {c["id"] for c in operator.json()["conversations"]} == {"ENGLAND,FRANCE", "FRANCE,GERMANY,ITALY", "all"}


async def test_a_conversation_holds_only_what_its_reader_may_read(social_any) -> None:
    _, client = social_any
    table = await started_table(client)
    assert (await say(table, "FRANCE", "ENGLAND", "between us")).status_code == 201
    for power in ("GERMANY", "RUSSIA"):
        answer = await client.get(f"/games/{table.game_id}/conversations/ENGLAND,FRANCE/messages",
                                  headers=table.player(power))
        assert answer.status_code == 200 and answer.json()["messages"] == [], answer.text
    public = await client.get(f"/games/{table.game_id}/conversations/ENGLAND,FRANCE/messages")
    assert public.json()["messages"] == []
    # Germany marking a conversation it cannot read finds no message there, and writes nothing
    england = (await client.get(f"/games/{table.game_id}/conversations/FRANCE/messages",
                                headers=table.player("ENGLAND"))).json()["messages"]
    refused = await read(table, "GERMANY", "ENGLAND,FRANCE", england[0]["id"])
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "unknown_message"
    assert unread(await listed(table, "GERMANY")) == {"all": 0}
    body = (await client.get(f"/games/{table.game_id}/conversations", headers=table.player("GERMANY"))).text
    assert "between us" not in body and table.codenames["ENGLAND"] not in body


@pytest.mark.parametrize("press, refused", [("none", ["all", "GERMANY"]), ("public", ["GERMANY", "GERMANY,ITALY"])])
async def test_conversations_keep_the_games_press_rules(social_any, press: str, refused: list[str]) -> None:
    _, client = social_any
    table = await started_table(client, {"press": press, "require_ready": True})
    for conversation in refused:
        answer = await say(table, "FRANCE", conversation, "psst")
        assert answer.status_code == 403, answer.text
        assert answer.json()["error"]["code"] in ("press_disabled", "private_press_disabled")
    operator = await client.get(f"/games/{table.game_id}/messages", headers=OPERATOR)
    assert operator.json()["messages"] == []
    if press == "public":
        assert (await say(table, "FRANCE", "all", "open diplomacy")).status_code == 201
        assert unread(await listed(table, "GERMANY")) == {"all": 1}


async def test_bad_conversations_are_refused_with_a_clear_error_and_nothing_written(social_any) -> None:
    _, client = social_any
    table = await started_table(client)
    url = f"/games/{table.game_id}/conversations"
    cases = [
        (await say(table, "FRANCE", "ENGLAND;DROP", "x"), 422, "invalid_request"),  # not the document's pattern
        (await say(table, "FRANCE", "ATLANTIS", "x"), 422, "unknown_power"),
        (await say(table, "FRANCE", ",", "x"), 422, "invalid_request"),
        (await say(table, "FRANCE", "FRANCE", "x"), 422, "no_recipient"),
        (await say(table, "FRANCE", "ENGLAND", "   "), 422, "invalid_request"),
        (await read(table, "FRANCE", "ENGLAND", "m_nothing"), 422, "unknown_message"),
        (await client.post(f"{url}/ENGLAND/messages", json={"text": "who?"}), 401, "token_required"),
        (await client.post(f"{url}/ENGLAND/read", json={}, headers=table.host), 403, "wrong_role"),
        (await client.get(f"{url}/ATLANTIS/messages", headers=table.player("FRANCE")), 422, "unknown_power"),
        (await client.post(f"{url}/ENGLAND/read", json={"through": 7}, headers=table.player("FRANCE")),
         422, "invalid_request"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.text
        assert response.json()["error"]["code"] == code, response.text
    assert (await client.get(f"/games/{table.game_id}/messages", headers=OPERATOR)).json()["messages"] == []
    assert unread(await listed(table, "FRANCE")) == {"all": 0}
