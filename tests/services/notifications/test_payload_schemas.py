"""The webhook payloads a receiver gets are the ones the OpenAPI document's ``webhooks``
describe, kind by kind (docs/social.md, "Notifications"; services/notifications/payloads_doc.py):
a seat's webhook and the game's channel, through a message, a resolution, a deadline reminder
and the end of the game."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from services.notifications.delivery import step
from shared.store import utc_now
from tests.utils.http import OPERATOR, started_table
from tests.utils.webhook_receiver import Receiver

DOCUMENT_URI = "urn:entente:openapi"


def problems(document: dict[str, Any], payload: dict[str, Any]) -> list[str]:
    kind = payload["entente"]["kind"]
    schema = document["webhooks"][kind]["post"]["requestBody"]["content"]["application/json"]["schema"]
    registry = Registry().with_resource(DOCUMENT_URI, Resource.from_contents(document,
                                                                              default_specification=DRAFT202012))
    validator = Draft202012Validator({"$ref": DOCUMENT_URI + schema["$ref"]}, registry=registry)
    return [f"{kind}: {error.json_path}: {error.message[:200]}" for error in validator.iter_errors(payload)]


async def test_every_payload_delivered_is_valid_by_its_webhook_in_the_document(
        social, receiver: Receiver, receiver_url: str) -> None:
    app, client = social
    store, settings = app.state.store, app.state.settings
    document = app.openapi()
    assert sorted(document["webhooks"]) == ["deadline_approaching", "game_finished", "message_received",
                                            "phase_resolved"]
    table = await started_table(client)
    seat, channel = f"seat-{table.game_id}", f"channel-{table.game_id}"
    answer = await client.put(f"/games/{table.game_id}/webhook", headers=table.player("FRANCE"),
                              json={"url": f"{receiver_url}/ok/{seat}"})
    assert answer.status_code == 200, answer.text
    answer = await client.put(f"/games/{table.game_id}/channel-webhook", headers=table.host,
                              json={"url": f"{receiver_url}/ok/{channel}"})
    assert answer.status_code == 200, answer.text
    for to in ("all", ["FRANCE"]):
        sent = await client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                                 json={"to": to, "text": "hello"})
        assert sent.status_code == 201, sent.text
    await table.resolve("S1901M")
    await step(store, settings, utc_now())
    await step(store, settings, utc_now() + timedelta(days=30))  # the reminder of F1901M's deadline
    finished = await client.post(f"/games/{table.game_id}/finish", headers=OPERATOR, json={"reason": "draw"})
    assert finished.status_code == 200, finished.text
    await step(store, settings, utc_now() + timedelta(days=30))
    payloads = receiver.received[seat] + receiver.received[channel]
    kinds = {p["entente"]["kind"] for p in payloads}
    assert kinds == {"message_received", "phase_resolved", "deadline_approaching", "game_finished"}, kinds
    assert [found for payload in payloads for found in problems(document, payload)] == []
    # and the document is not so loose that anything passes: a payload without its facts fails
    broken = {**receiver.received[seat][0], "entente": {"kind": "message_received"}}
    assert problems(document, broken)
