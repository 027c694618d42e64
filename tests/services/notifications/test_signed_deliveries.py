"""Signed webhook deliveries (docs/social.md, "Signed deliveries"): every delivery to a real
receiver is verified by the ``standardwebhooks`` package (the Standard Webhooks reference
library) and by the verifier the documentation prints (its very code block, run here); a
redelivery carries the same id as the attempt before it; the ids are keyed by the server's
secret, so nothing public (the log, its positions) gives them; and a secret issued before
standard signing keeps verifying with the old scheme."""
from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import SecretStr
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from services.notifications.delivery import step
from shared.events_social import webhooks_stream
from shared.store import utc_now
from tests.utils.http import Table, started_table
from tests.utils.webhook_receiver import Receiver

DOCS = Path(__file__).resolve().parents[3] / "docs" / "social.md"
MESSAGE_ID = re.compile(r"msg_[a-z2-7]{26}")


def documented_verifier() -> Callable[..., bool]:
    """The five-line verifier of docs/social.md, as printed there."""
    section = DOCS.read_text(encoding="utf-8").split("### Signed deliveries", 1)[1]
    [code] = re.findall(r"```python\n(.*?)```", section.split("\n## ", 1)[0].split("\n### ", 1)[0], re.DOTALL)
    assert len(code.strip().splitlines()) == 5, code
    namespace: dict[str, object] = {}
    exec(compile(code, str(DOCS), "exec"), namespace)  # noqa: S102 (the documentation's own example)
    verify = namespace["verify"]
    assert callable(verify)
    return verify


def standard_verifies(secret: str, body: bytes, headers: dict[str, str]) -> bool:
    try:
        Webhook(secret).verify(body, headers, json_parse=False)
    except WebhookVerificationError:
        return False
    return True


def legacy_verify(secret: str, body: bytes, header: str, tolerance: int = 300) -> bool:
    """The verifier docs/social.md printed before standard signing, for the secrets issued then."""
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    t = fields.get("t", "")
    expected = hmac.new(secret.encode(), t.encode() + b"." + body, hashlib.sha256).hexdigest().encode()
    return (t.isascii() and t.isdigit() and abs(time.time() - int(t)) <= tolerance
            and hmac.compare_digest(expected, fields.get("v1", "").encode()))


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


async def test_deliveries_verify_with_standard_webhooks(social_any, receiver: Receiver, receiver_url: str) -> None:
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
    assert len(requests) == 2
    for headers, body in requests:
        assert standard_verifies(secret, body, headers)
        assert verify(secret, body, headers)
        assert abs(int(headers["webhook-timestamp"]) - time.time()) < 60
        assert "entente-signature" not in headers and "entente-delivery" not in headers
        forged = body.replace(b"one", b"eno").replace(b"two", b"owt")
        assert not standard_verifies(secret, forged, headers) and not verify(secret, forged, headers)
        other = await set_hook_secret_only()
        assert not standard_verifies(other, body, headers) and not verify(other, body, headers)
        stale = {**headers, "webhook-timestamp": str(int(headers["webhook-timestamp"]) - 3600)}
        assert not standard_verifies(secret, body, stale) and not verify(secret, body, stale)
        for garbage in ("", "garbage", "v1,", "v1," + "A" * 44, "v1,\u00e9"):
            assert not verify(secret, body, {**headers, "webhook-signature": garbage})  # refused, never raising
        assert not verify(secret, body, {**headers, "webhook-timestamp": "\u00b2"})
    ids = [headers["webhook-id"] for headers, _ in requests]
    assert len(set(ids)) == 2 and all(MESSAGE_ID.fullmatch(i) for i in ids)

    # set again: a new secret, and the old one no longer verifies what is sent
    new_secret = await set_hook(table, "FRANCE", f"{receiver_url}/ok/{name}")
    assert new_secret != secret
    await message(table, "FRANCE", "three")
    await step(store, settings, utc_now())
    headers, body = receiver.requests[name][-1]
    assert standard_verifies(new_secret, body, headers)
    assert not standard_verifies(secret, body, headers)

    # the host's channel webhook is signed with its own secret
    channel = f"channel-{table.game_id}"
    response = await client.put(f"/games/{table.game_id}/channel-webhook", headers=table.host,
                                json={"url": f"{receiver_url}/ok/{channel}"})
    assert response.status_code == 200, response.text
    channel_secret = response.json()["secret"]
    await table.resolve("S1901M")
    await step(store, settings, utc_now())
    [(headers, body)] = receiver.requests[channel]
    assert standard_verifies(channel_secret, body, headers)
    assert not standard_verifies(new_secret, body, headers)


async def set_hook_secret_only() -> str:
    """A secret of the same form that signed nothing here."""
    from services.notifications.signing import new_secret

    return new_secret()


async def test_a_redelivery_carries_the_same_id(social_any, receiver: Receiver, receiver_url: str) -> None:
    app, client = social_any
    store, settings = app.state.store, app.state.settings
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
    assert len({headers["webhook-id"] for headers, _ in attempts}) == 1
    assert all(standard_verifies(secret, body, headers) for headers, body in attempts)
    assert len({body for _, body in attempts}) == 1  # the same notification each time


async def test_ids_come_from_the_servers_secret_not_the_log(social_any, receiver: Receiver,
                                                            receiver_url: str) -> None:
    """Two servers with different secrets give the same notification of the same log different
    ids, and the same server the same id: the id is a keyed function, so no receiver can work
    out a log position from it, nor count the events between two of its deliveries."""
    app, client = social_any
    store, settings = app.state.store, app.state.settings
    other_server = settings.model_copy(update={"operator_token": SecretStr("another-servers-long-secret-" + "x" * 20)})
    table = await started_table(client)
    name = f"two-servers-{table.game_id}"
    await set_hook(table, "TURKEY", f"{receiver_url}/fail/{name}")
    for text in ("first", "second", "third"):
        await message(table, "TURKEY", text)
    now = utc_now()
    await step(store, settings, now)
    wait = timedelta(seconds=settings.webhook_backoff_seconds)
    await step(store, other_server, now + wait)
    await step(store, settings, now + wait * 3)
    attempts = receiver.requests[name]
    assert len(attempts) == 9
    by_text: dict[str, list[str]] = {}
    for headers, body in attempts:
        text = next(t for t in ("first", "second", "third") if t.encode() in body)
        by_text.setdefault(text, []).append(headers["webhook-id"])
    for first, other, again in by_text.values():
        assert first == again and other != first  # the same server: the same id; another: another
    ours = [ids[0] for ids in by_text.values()]
    assert all(MESSAGE_ID.fullmatch(i) for i in ours) and len(set(ours)) == 3
    positions = [str(r.position) for r in await store.events.read_all(0, 100_000)]
    assert not any(p in i.removeprefix("msg_") and len(p) > 2 for i in ours for p in positions)


async def test_a_secret_from_before_standard_signing_keeps_working(social_any, receiver: Receiver,
                                                                   receiver_url: str) -> None:
    """A secret issued before standard signing (``whsec_`` and 43 URL-safe characters, keyed as a
    UTF-8 string) still verifies with the verifier printed then; setting the webhook again gives
    a standard secret (docs/social.md, "Secrets from before standard signing")."""
    import secrets as random

    app, client = social_any
    store, settings = app.state.store, app.state.settings
    table = await started_table(client)
    name = f"legacy-{table.game_id}"
    await set_hook(table, "AUSTRIA", f"{receiver_url}/ok/{name}")
    [webhook_set] = [r for r in await store.events.read_stream(webhooks_stream(table.game_id))
                     if r.type == "WebhookSet"]
    old = "whsec_" + random.token_urlsafe(32)
    async with store.transaction() as tx:  # as the store holds a secret issued by the release before
        await tx.outbox.set_webhook_secret(table.game_id, webhook_set.data["player_id"], old, utc_now())
    await message(table, "AUSTRIA", "old ways")
    await step(store, settings, utc_now())
    [(headers, body)] = receiver.requests[name]
    assert legacy_verify(old, body, headers["entente-signature"])
    assert not legacy_verify(old, body + b" ", headers["entente-signature"])
    assert headers["entente-delivery"] == headers["webhook-id"] and MESSAGE_ID.fullmatch(headers["webhook-id"])
    assert "webhook-signature" not in headers
    with pytest.raises((WebhookVerificationError, ValueError)):  # no standard library reads the old form
        Webhook(old).verify(body, headers)

    fresh = await set_hook(table, "AUSTRIA", f"{receiver_url}/ok/{name}")
    await message(table, "AUSTRIA", "new ways")
    await step(store, settings, utc_now())
    headers, body = receiver.requests[name][-1]
    assert standard_verifies(fresh, body, headers) and "entente-signature" not in headers


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
    records = await app.state.store.events.read_all(0, 100_000)
    assert not any(secret in str(r.data) or again in str(r.data) or again in str(r.metadata) for r in records)
