"""Notifications off the page (docs/social.md, "Web Push" and "E-mail"): a seat's browsers get
its notifications as Web Push, encrypted for the browser alone (RFC 8291) and signed with the
server's VAPID key (RFC 8292), checked here as a browser and a push service would (the body
decrypted with the browser's own key by the ``http_ece`` package, the JWT's signature checked
against the key the page subscribed with); its e-mail address gets the deadline reminders,
through a real SMTP server (aiosmtpd). Nobody else gets either, and bad subscriptions and
addresses are refused with a reason."""
from __future__ import annotations

import base64
import json
import os
import re
import socket
import time
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from email import message_from_bytes
from typing import Any

import http_ece
import pytest
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from pydantic import SecretStr

from services.notifications import outbox
from services.notifications.delivery import deliver_due, step
from services.notifications.webpush import VapidKey
from shared.store import utc_now
from tests.utils.http import running_app, social_settings, started_table
from tests.utils.webhook_receiver import Receiver

SUBJECT = "mailto:ops@diplomacy.example.org"
SITE = "https://diplomacy.example.org"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """What a browser's push subscription holds: its own key pair and secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": b64url(public),
                                                                      "auth": b64url(self.auth)}}

    def read(self, body: bytes) -> dict[str, Any]:
        """The push as the browser's service worker gets it."""
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def vapid_claims(authorization: str, server_key: str) -> dict[str, Any]:
    """The claims of a push's VAPID header, once its ES256 signature checks out against the key
    the browser subscribed with (as a push service checks it)."""
    scheme, _, rest = authorization.partition(" ")
    fields = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert scheme == "vapid" and fields["k"] == server_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    return json.loads(unb64url(claims))


class Mailbox:
    """aiosmtpd's handler: every message the SMTP server takes."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's name)
        self.messages.append((list(envelope.rcpt_tos), bytes(envelope.content)))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield box, controller.port
    finally:
        controller.stop()


@pytest.fixture
async def channels_app(store_url: str, provider_url: str, mailbox: tuple[Mailbox, int]) -> AsyncIterator[Any]:
    settings = social_settings(store_url, provider_url, vapid_private_key=SecretStr(VapidKey.generate()),
                               vapid_subject=SUBJECT, smtp_url=SecretStr(f"smtp://127.0.0.1:{mailbox[1]}"),
                               public_url=SITE)
    async with running_app(settings) as opened:
        yield opened


async def test_a_seats_browsers_get_its_notifications_encrypted_and_signed(
        channels_app: Any, receiver: Receiver, receiver_url: str) -> None:
    app, client = channels_app
    store, settings = app.state.store, app.state.settings
    assert (await client.get("/auth/options")).json()["web_push"] is True
    server_key = (await client.get("/push/key")).json()["public_key"]
    table = await started_table(client)
    phone, laptop = Browser(), Browser()
    names = {"phone": f"phone-{table.game_id}", "laptop": f"laptop-{table.game_id}"}
    for browser, name in ((phone, names["phone"]), (laptop, names["laptop"])):
        put = await client.put(f"/games/{table.game_id}/push", headers=table.player("FRANCE"),
                               json=browser.subscription(f"{receiver_url}/push/{name}"))
        assert put.status_code == 200, put.text
    listed = await client.get(f"/games/{table.game_id}/push", headers=table.player("FRANCE"))
    assert listed.json()["endpoints"] == [f"{receiver_url}/push/{names['phone']}",
                                          f"{receiver_url}/push/{names['laptop']}"]
    assert (await client.get(f"/games/{table.game_id}/push", headers=table.player("ITALY"))).json() == {
        "endpoints": []}
    sent = await client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                             json={"to": ["FRANCE"], "text": "Shall we share the Mediterranean?"})
    assert sent.status_code == 201, sent.text
    await step(store, settings, utc_now())
    for browser, name in ((phone, names["phone"]), (laptop, names["laptop"])):
        [(headers, body)] = receiver.requests[name]
        assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
        assert b"Mediterranean" not in body  # the push service sees ciphertext only
        claims = vapid_claims(headers["authorization"], server_key)
        assert claims["aud"] == receiver_url and claims["sub"] == SUBJECT
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600
        push = browser.read(body)
        assert push["kind"] == "message_received" and "Shall we share the Mediterranean?" in push["body"]
        assert push["url"] == f"/play/{table.game_id}" and "**" not in push["body"]
    # one browser unsubscribes: the next message reaches the other one only
    gone = await client.delete(f"/games/{table.game_id}/push", headers=table.player("FRANCE"),
                               params={"endpoint": f"{receiver_url}/push/{names['laptop']}"})
    assert gone.status_code == 204
    await client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                      json={"to": ["FRANCE"], "text": "Still there?"})
    await step(store, settings, utc_now())
    assert len(receiver.requests[names["phone"]]) == 2 and len(receiver.requests[names["laptop"]]) == 1
    assert "Still there?" in phone.read(receiver.requests[names["phone"]][1][1])["body"]


async def test_an_expired_subscription_is_dead_lettered_at_once(channels_app: Any, receiver: Receiver,
                                                                receiver_url: str) -> None:
    app, client = channels_app
    store, settings = app.state.store, app.state.settings
    table = await started_table(client)
    name = f"expired-{table.game_id}"
    await client.put(f"/games/{table.game_id}/push", headers=table.player("RUSSIA"),
                     json=Browser().subscription(f"{receiver_url}/gone/{name}"))
    await client.post(f"/games/{table.game_id}/messages", headers=table.player("TURKEY"),
                      json={"to": ["RUSSIA"], "text": "hello"})
    await step(store, settings, utc_now())
    [row] = [r for r in await outbox.notifications(store, table.game_id) if r["kind"] == "message_received"]
    assert row["status"] == "dead" and row["attempts"] == 1 and "gone" in row["last_error"]
    assert len(receiver.requests[name]) == 1


def mail_text(raw: bytes) -> str:
    payload = message_from_bytes(raw).get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


async def test_an_address_is_confirmed_by_its_first_mail_before_any_reminder(
        channels_app: Any, mailbox: tuple[Mailbox, int]) -> None:
    """The address set for a seat gets a mail with a code and a link; no reminder goes there
    until the code comes back; a wrong code, or the code of an earlier mail, is refused."""
    app, client = channels_app
    store, settings = app.state.store, app.state.settings
    box, _ = mailbox
    table = await started_table(client)
    url = f"/games/{table.game_id}/email"
    put = await client.put(url, headers=table.player("AUSTRIA"), json={"address": "archduke@example.org"})
    assert put.status_code == 200 and put.json() == {"address": "archduke@example.org", "confirmed": False}
    await step(store, settings, utc_now())
    [(recipients, raw)] = box.messages
    first = message_from_bytes(raw)
    assert recipients == ["archduke@example.org"] and first["Subject"].startswith("Confirm this address")
    old_code = re.search(r"the code (\w+)", mail_text(raw))
    assert old_code is not None and f"{SITE}/play/{table.game_id}#email-code={old_code[1]}" in mail_text(raw)
    # unconfirmed: the phase's reminder is owed to the seat's other channels, never to the address
    assert [r for r in await outbox.notifications(store, table.game_id) if r["url"].startswith("mailto:")
            and r["kind"] == "deadline_approaching"] == []
    # the same address again mails a new code, and the first one no longer confirms
    await client.put(url, headers=table.player("AUSTRIA"), json={"address": "archduke@example.org"})
    await step(store, settings, utc_now())
    assert len(box.messages) == 2
    code = re.search(r"the code (\w+)", mail_text(box.messages[1][1]))
    assert code is not None and code[1] != old_code[1]
    for wrong in (old_code[1], "ABCDEFGHJKLM"):
        refused = await client.post(f"{url}/confirm", headers=table.player("AUSTRIA"), json={"code": wrong})
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "wrong_email_code"
    # another seat cannot confirm it: it has no address of its own
    other = await client.post(f"{url}/confirm", headers=table.player("ITALY"), json={"code": code[1]})
    assert other.status_code == 404 and other.json()["error"]["code"] == "email_not_found"
    assert (await client.get(url, headers=table.player("AUSTRIA"))).json() == {
        "address": "archduke@example.org", "confirmed": False}
    typed = "-".join((code[1][:6].lower(), code[1][6:]))  # as one may type it from the mail
    confirmed = await client.post(f"{url}/confirm", headers=table.player("AUSTRIA"), json={"code": typed})
    assert confirmed.status_code == 200 and confirmed.json() == {"address": "archduke@example.org", "confirmed": True}
    await step(store, settings, utc_now())
    [row] = [r for r in await outbox.notifications(store, table.game_id)
             if r["kind"] == "deadline_approaching" and r["url"].startswith("mailto:")]
    await deliver_due(store, settings, row["next_attempt_at"])
    assert len(box.messages) == 3 and message_from_bytes(box.messages[2][1])["Subject"] == "Orders due: S1901M"


async def test_deadline_reminders_go_by_email_and_nothing_else_does(
        channels_app: Any, mailbox: tuple[Mailbox, int]) -> None:
    app, client = channels_app
    store, settings = app.state.store, app.state.settings
    box, _ = mailbox
    assert (await client.get("/auth/options")).json()["email"] is True
    table = await started_table(client)
    put = await client.put(f"/games/{table.game_id}/email", headers=table.player("AUSTRIA"),
                           json={"address": "archduke@example.org"})
    assert put.status_code == 200 and put.json() == {"address": "archduke@example.org", "confirmed": False}
    await step(store, settings, utc_now())
    [(_, raw)] = box.messages
    code = re.search(r"the code (\w+)", mail_text(raw))
    assert code is not None
    box.messages.clear()
    confirmed = await client.post(f"/games/{table.game_id}/email/confirm", headers=table.player("AUSTRIA"),
                                  json={"code": code[1]})
    assert confirmed.status_code == 200, confirmed.text
    assert (await client.get(f"/games/{table.game_id}/email", headers=table.player("AUSTRIA"))).json() == {
        "address": "archduke@example.org", "confirmed": True}
    assert (await client.get(f"/games/{table.game_id}/email", headers=table.player("ITALY"))).json() == {
        "address": None, "confirmed": False}
    await client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                      json={"to": ["AUSTRIA"], "text": "a message is not mailed"})
    await step(store, settings, utc_now())
    [row] = [r for r in await outbox.notifications(store, table.game_id)
             if r["kind"] == "deadline_approaching" and r["url"].startswith("mailto:")]
    await deliver_due(store, settings, row["next_attempt_at"] - timedelta(seconds=1))
    assert box.messages == []
    await deliver_due(store, settings, row["next_attempt_at"])
    [(recipients, raw)] = box.messages
    mail = message_from_bytes(raw)
    assert recipients == ["archduke@example.org"] and mail["To"] == "archduke@example.org"
    assert mail["Subject"] == "Orders due: S1901M" and mail["Auto-Submitted"] == "auto-generated"
    text = mail_text(raw)
    assert "AUSTRIA" in text and f"{SITE}/play/{table.game_id}" in text and "<t:" not in text
    removed = await client.delete(f"/games/{table.game_id}/email", headers=table.player("AUSTRIA"))
    assert removed.status_code == 204
    assert (await client.delete(f"/games/{table.game_id}/email", headers=table.player("AUSTRIA"))).status_code == 404


@pytest.mark.parametrize(("body", "where"), [
    ({"endpoint": "https://push.example.org/x", "keys": {"p256dh": "A" * 87, "auth": "B" * 22}}, "body.keys"),
    ({"endpoint": "ftp://push.example.org/x", "keys": None}, "body.keys"),
    ({"endpoint": "file:///etc/passwd", "keys": "k"}, "body.keys"),
], ids=["not-a-point", "null-keys", "string-keys"])
async def test_bad_push_subscriptions_are_refused_with_where(channels_app: Any, body: dict[str, Any],
                                                             where: str) -> None:
    _, client = channels_app
    table = await started_table(client)
    answer = await client.put(f"/games/{table.game_id}/push", headers=table.player("ENGLAND"), json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"].get("where", "").startswith(where) or where in answer.text
    assert (await client.get(f"/games/{table.game_id}/push", headers=table.player("ENGLAND"))).json() == {
        "endpoints": []}


async def test_a_push_endpoint_on_a_private_host_is_refused(store_url: str, provider_url: str) -> None:
    settings = social_settings(store_url, provider_url, vapid_private_key=SecretStr(VapidKey.generate())).model_copy(
        update={"webhook_allow_private_hosts": False})
    async with running_app(settings) as (_, client):
        table = await started_table(client)
        answer = await client.put(f"/games/{table.game_id}/push", headers=table.player("ENGLAND"),
                                  json=Browser().subscription("https://127.0.0.1/push"))
        assert answer.status_code == 422 and answer.json()["error"]["where"] == "body.endpoint"


@pytest.mark.parametrize("address", ["no-at-sign", "a@b", "x@example.org\r\nBcc: all@example.org",
                                     "Name <x@example.org>", "x" * 250 + "@example.org"],
                         ids=["no-at", "no-dot", "header-injection", "display-name", "too-long"])
async def test_bad_email_addresses_are_refused(channels_app: Any, address: str) -> None:
    _, client = channels_app
    table = await started_table(client)
    answer = await client.put(f"/games/{table.game_id}/email", headers=table.player("GERMANY"),
                              json={"address": address})
    assert answer.status_code == 422, answer.text
    assert "address" in answer.json()["error"].get("where", "") or "address" in answer.text
    assert (await client.get(f"/games/{table.game_id}/email", headers=table.player("GERMANY"))).json() == {
        "address": None, "confirmed": False}


async def test_without_a_key_or_smtp_server_the_channels_say_so(social: Any) -> None:
    _, client = social
    table = await started_table(client)
    key = await client.get("/push/key")
    assert key.status_code == 404 and key.json()["error"]["code"] == "push_unavailable"
    answer = await client.put(f"/games/{table.game_id}/email", headers=table.player("GERMANY"),
                              json={"address": "kaiser@example.org"})
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "email_unavailable"
    asked = await client.get(f"/games/{table.game_id}/email", headers=table.player("GERMANY"))
    assert asked.status_code == 404 and asked.json()["error"]["code"] == "email_unavailable"


def test_push_key_makes_a_key_the_server_takes(capsys: pytest.CaptureFixture[str]) -> None:
    from services.cli.push_key import run

    assert run("push-key", []) == 0
    made = json.loads(capsys.readouterr().out)
    assert VapidKey(made["private_key"]).public == made["public_key"] and len(unb64url(made["public_key"])) == 65
    assert run("push-key", ["--env"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("ENTENTE_VAPID_PRIVATE_KEY=") and len(line.split("=", 1)[1]) == 43
