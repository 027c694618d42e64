"""Text a hostile client controls on the way into the store through PUT /orders (docs/store.md,
"Appending in one round trip"): order texts the engine refuses come back exactly as sent and
are never stored, and the game plays on. (What is stored is the engine's canonical orders;
that any text is stored byte for byte is the store's test, tests/store/test_append_if_current.py.)"""
from __future__ import annotations

from tests.store.test_append_if_current import HOSTILE
from tests.utils.http import Host


async def test_hostile_order_text_is_refused_as_sent_and_stored_nowhere(host: Host) -> None:
    game = await host.started(7)
    response = await game.order("FRANCE", [*HOSTILE, "A PAR - BUR"])

    assert response.status_code == 200, response.text
    feedback = response.json()["orders"]
    assert [item["text"] for item in feedback] == [*HOSTILE, "A PAR - BUR"]
    assert [item["status"] for item in feedback] == ["rejected"] * len(HOSTILE) + ["accepted"]
    orders = [e for e in await game.events() if e["stream_id"].startswith(f"orders-{game.game_id}-")]
    assert [e["data"]["orders"] for e in orders] == [["A PAR - BUR"]]
    assert (await game.order_ok("ENGLAND", ["F LON - NTH"]))["phase"] == "S1901M"
