"""A message's ``position`` is its place among the messages the caller may read: it counts no
private message between others, no order and no vote, so a reader learns nothing from it.
``?after=`` pages by the same numbering."""
from __future__ import annotations

from typing import Any

from tests.utils.http import OPERATOR, Table, running_client, started_table

# (sender, recipients or "all", text), in the order they are sent
SCRIPT: list[tuple[str, Any, str]] = [
    ("ENGLAND", "all", "p1"),
    ("GERMANY", ["ITALY"], "g-i"),
    ("ENGLAND", "all", "p2"),
    ("ITALY", ["GERMANY", "AUSTRIA"], "i-ga"),
    ("FRANCE", ["ENGLAND"], "f-e"),
    ("RUSSIA", "all", "p3"),
]


async def positions(table: Table, headers: dict[str, str], after: int = 0) -> list[tuple[int, str]]:
    response = await table.client.get(f"/games/{table.game_id}/messages", params={"after": after}, headers=headers)
    assert response.status_code == 200, response.text
    return [(m["position"], m["text"]) for m in response.json()["messages"]]


async def test_positions_count_only_what_the_caller_reads(store_url: str) -> None:
    async with running_client(store_url) as client:
        table = await started_table(client)
        sent = {}
        for sender, to, text in SCRIPT:
            await table.order_ok("TURKEY", ["A CON - BUL"])  # orders between the messages change nothing
            response = await client.post(f"/games/{table.game_id}/messages", headers=table.player(sender),
                                         json={"to": to, "text": text})
            assert response.status_code == 201, response.text
            sent[text] = response.json()["position"]
        assert await positions(table, {}) == [(1, "p1"), (2, "p2"), (3, "p3")]
        assert await positions(table, table.player("TURKEY")) == [(1, "p1"), (2, "p2"), (3, "p3")]
        assert await positions(table, table.player("GERMANY")) == [(1, "p1"), (2, "g-i"), (3, "p2"), (4, "i-ga"),
                                                                   (5, "p3")]
        assert await positions(table, table.player("ENGLAND")) == [(1, "p1"), (2, "p2"), (3, "f-e"), (4, "p3")]
        assert [p for p, _ in await positions(table, OPERATOR)] == [1, 2, 3, 4, 5, 6]
        # the sender is told the place among what the sender's seat reads
        assert sent == {"p1": 1, "g-i": 2, "p2": 2, "i-ga": 4, "f-e": 3, "p3": 3}
        # paging by the same numbering
        assert await positions(table, table.player("GERMANY"), after=3) == [(4, "i-ga"), (5, "p3")]
        assert await positions(table, {}, after=3) == []
        too_far = await client.get(f"/games/{table.game_id}/messages", params={"after": -1})
        assert too_far.status_code == 422


async def test_twin_games_differing_in_private_messages_number_public_ones_alike(store_url: str) -> None:
    async with running_client(store_url) as client:
        quiet, busy = await started_table(client), await started_table(client)
        for table in (quiet, busy):
            for number in range(3):
                if table is busy:
                    for sender, to in (("GERMANY", ["ITALY"]), ("AUSTRIA", ["RUSSIA", "TURKEY"])):
                        assert (await client.post(f"/games/{table.game_id}/messages", headers=table.player(sender),
                                                  json={"to": to, "text": "hidden"})).status_code == 201
                assert (await client.post(f"/games/{table.game_id}/messages", headers=table.player("FRANCE"),
                                          json={"to": "all", "text": f"public {number}"})).status_code == 201
        for viewer in ({}, quiet.player("ENGLAND")):
            assert await positions(quiet, viewer) == [(1, "public 0"), (2, "public 1"), (3, "public 2")]
        assert await positions(busy, {}) == await positions(quiet, {})
        assert await positions(busy, busy.player("ENGLAND")) == await positions(quiet, quiet.player("ENGLAND"))
