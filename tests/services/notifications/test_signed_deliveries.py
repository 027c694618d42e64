"""Signed webhook deliveries (docs/social.md, "Signed deliveries"): every delivery to a real
receiver is checked with the verifier the documentation prints (its very code block, run
here), and a redelivery carries the same delivery id as the attempt before it."""
from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from services.notifications.delivery import step
from shared.store import utc_now
from tests.utils.http import Table, started_table
from tests.utils.webhook_receiver import Receiver

DOCS = Path(__file__).resolve().parents[3] / "docs" / "social.md"


def documented_verifier() -> Callable[..., bool]:
    """The five-line verifier of docs/social.md, as printed there."""
    section = DOCS.read_text(encoding="utf-8").split("### Signed deliveries", 1)[1]
    [code] = re.findall(r"```python\n(.*?)```", section.split("\n## ", 1)[0], re.DOTALL)
    assert len(code.strip().splitlines()) == 5, code
    namespace: dict[str, object] = {}
    exec(compile(code, str(DOCS), "exec"), namespace)  # noqa: S102 (the documentation's own example)
    verify = namespace["verify"]
    assert callable(verify)
    return verify


async def set_hook(table: Table, power: str, url: str) -> str:
    response = await table.client.put(f"/games/{table.game_id}/webhook", headers=table.player(power),
                                      json={"url": url})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["url"] == url and body["secret"].startswith("whsec_") and len(body["secret"]) > 40
    return body["secret"]


async def message(table: Table, to: str, text: str) -> None:
    response = await table.client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                                       json={"to": [to], "text": text})
    assert response.status_code == 201, response.text


async def test_deliveries_verify_with_the_documented_verifier(social_any, receiver: Receiver,
                                                              receiver_url: str) -> None:
    app, client = social_any
    store, settings = app.state.store, app.state.settings
    verify = documented_verifier()
    table = await started_table(client)
    name = f"signed-{table.game_id}"
    secret = await set_hook(table, "FRANCE", f"{receiver_url}/ok/{name}")
    got = await client.get(f"/games/{table.game_id}/webhook", headers=table.player("FRANCE"))
    assert got.json() == {"url": f"{receiver_url}/ok/{name}"}  # the secret is shown once only
    await message(table, "FRANCE", "one")
    await message(table, "FRANCE", "two")
    report = await step(store, settings, utc_now())
    assert report.delivered == 2 and report.errors == []
    requests = receiver.requests[name]
    assert [r[1] for r in requests] and len(requests) == 2
    for headers, body in requests:
        assert verify(secret, body, headers["entente-signature"])
        assert not verify(secret, body.replace(b"one", b"eno").replace(b"two", b"owt"), headers["entente-signature"])
        assert not verify(secret + "x", body, headers["entente-signature"])
        assert not verify(secret, body, "t=1,v1=" + headers["entente-signature"].split("v1=")[1])  # too old
        for garbage in ("", "garbage", "t=abc,v1=00", "t=\u00b2,v1=00", "v1=" + "0" * 64, "t=1,v1=\u00e9"):
            assert not verify(secret, body, garbage)  # refused, never raising
    ids = [headers["entente-delivery"] for headers, _ in requests]
    assert len(set(ids)) == 2 and all(re.fullmatch(r"[0-9a-f-]{36}", i) for i in ids)

    # set again: a new secret, and the old one no longer verifies what is sent
    new_secret = await set_hook(table, "FRANCE", f"{receiver_url}/ok/{name}")
    assert new_secret != secret
    await message(table, "FRANCE", "three")
    await step(store, settings, utc_now())
    headers, body = receiver.requests[name][-1]
    assert verify(new_secret, body, headers["entente-signature"])
    assert not verify(secret, body, headers["entente-signature"])

    # the host's channel webhook is signed with its own secret
    channel = f"channel-{table.game_id}"
    response = await client.put(f"/games/{table.game_id}/channel-webhook", headers=table.host,
                                json={"url": f"{receiver_url}/ok/{channel}"})
    assert response.status_code == 200, response.text
    channel_secret = response.json()["secret"]
    await table.resolve("S1901M")
    await step(store, settings, utc_now())
    [(headers, body)] = receiver.requests[channel]
    assert verify(channel_secret, body, headers["entente-signature"])
    assert not verify(new_secret, body, headers["entente-signature"])


async def test_a_redelivery_carries_the_same_id(social_any, receiver: Receiver, receiver_url: str) -> None:
    app, client = social_any
    store, settings = app.state.store, app.state.settings
    verify = documented_verifier()
    table = await started_table(client)
    name = f"failing-{table.game_id}"
    secret = await set_hook(table, "GERMANY", f"{receiver_url}/fail/{name}")
    await message(table, "GERMANY", "are you there?")
    now = utc_now()
    await step(store, settings, now)
    await step(store, settings, now + timedelta(seconds=settings.webhook_backoff_seconds))
    await step(store, settings, now + timedelta(seconds=settings.webhook_backoff_seconds * 3))
    attempts = receiver.requests[name]
    assert len(attempts) == 3
    assert len({headers["entente-delivery"] for headers, _ in attempts}) == 1
    assert all(verify(secret, body, headers["entente-signature"]) for headers, body in attempts)
    assert len({body for _, body in attempts}) == 1  # the same notification each time


async def test_a_removed_webhook_keeps_no_secret(social_any, receiver: Receiver, receiver_url: str) -> None:
    """Removing the webhook drops its secret; set anew it signs with a new one. Nothing of a
    secret is in the game's log, which operators read and export."""
    app, client = social_any
    table = await started_table(client)
    secret = await set_hook(table, "ENGLAND", f"{receiver_url}/ok/removed-{table.game_id}")
    removed = await client.delete(f"/games/{table.game_id}/webhook", headers=table.player("ENGLAND"))
    assert removed.status_code == 204
    again = await set_hook(table, "ENGLAND", f"{receiver_url}/ok/removed-{table.game_id}")
    assert again != secret
    records = await app.state.store.read_all(0, 100_000)
    assert not any(secret in str(r.data) or again in str(r.data) or again in str(r.metadata) for r in records)
