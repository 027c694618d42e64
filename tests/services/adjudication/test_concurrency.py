"""Many requests at once on PostgreSQL: submissions never lost or doubled, one resolution per phase."""
from __future__ import annotations

import asyncio
import random
from collections import Counter

import httpx
import pytest

from tests.utils.http import OPERATOR, POWERS, started_table

CHOICES = {
    "AUSTRIA": [["A VIE - GAL"], ["A VIE - TYR", "F TRI - ALB"], ["A BUD - SER"]],
    "ENGLAND": [["F LON - NTH"], ["F EDI - NWG", "A LVP - YOR"], ["F LON - ENG"]],
    "FRANCE": [["A PAR - BUR"], ["A MAR - SPA", "F BRE - MAO"], ["A PAR - PIC"]],
    "GERMANY": [["A MUN - RUH"], ["F KIE - DEN", "A BER - KIE"], ["A MUN - BUR"]],
    "ITALY": [["A VEN - TYR"], ["F NAP - ION", "A ROM - APU"], ["A VEN H"]],
    "RUSSIA": [["A WAR - GAL"], ["F SEV - BLA", "A MOS - UKR"], ["F STP/SC - BOT"]],
    "TURKEY": [["F ANK - BLA"], ["A CON - BUL", "A SMY - ARM"], ["A SMY H"]],
}


@pytest.mark.postgres
async def test_fifty_concurrent_submissions_then_last_wins(postgres_client: httpx.AsyncClient) -> None:
    table = await started_table(postgres_client)
    rng = random.Random(7)
    plan = [(POWERS[i % 7], rng.choice(CHOICES[POWERS[i % 7]])) for i in range(50)]
    responses = await asyncio.gather(*(table.order(power, orders) for power, orders in plan))
    assert all(r.status_code == 200 for r in responses), [r.text for r in responses if r.status_code != 200]

    events = await table.events()
    submissions = [e for e in events if e["type"] == "OrdersSubmitted"]
    assert Counter(e["data"]["power"] for e in submissions) == Counter(power for power, _ in plan)
    assert Counter(tuple(e["data"]["orders"]) for e in submissions) == Counter(tuple(o) for _, o in plan)
    latest = {}
    for event in sorted(submissions, key=lambda e: e["position"]):
        latest[event["data"]["power"]] = event["data"]["orders"]
        assert event["stream_id"] == f"orders-{table.game_id}-S1901M-{event['data']['power']}"
    for power in POWERS:
        stream = [e["version"] for e in submissions if e["data"]["power"] == power]
        assert sorted(stream) == list(range(1, len(stream) + 1))
    operator = (await postgres_client.get(f"/games/{table.game_id}/view", headers=OPERATOR)).json()
    assert operator["orders"] == latest

    resolved = await table.resolve("S1901M")
    adjudicated = {p: [o["order"] for o in orders] for p, orders in resolved["orders"].items()}
    assert adjudicated == latest


async def test_racing_resolutions_resolve_once(client: httpx.AsyncClient) -> None:
    """On both back ends: PostgreSQL's row lock, SQLite's one writer at a time."""
    table = await started_table(client)
    await table.order_ok("FRANCE", ["A PAR - BUR"])
    url = f"/games/{table.game_id}/resolve"
    racing = await asyncio.gather(*(client.post(url, json={"phase": "S1901M"}, headers=OPERATOR)
                                     for _ in range(6)))
    statuses = sorted(r.status_code for r in racing)
    assert statuses == [200] + [409] * 5
    assert {r.json()["error"]["code"] for r in racing if r.status_code == 409} == {"phase_already_resolved"}
    kinds = [e["type"] for e in await table.events()]
    assert kinds.count("PhaseResolved") == 1
    assert (await table.view())["game"]["phase"] == "F1901M"


@pytest.mark.postgres
async def test_submissions_racing_a_resolution_are_counted_or_refused(postgres_client: httpx.AsyncClient) -> None:
    """An accepted order is counted in the phase it was accepted for; a late one is refused."""
    table = await started_table(postgres_client)
    url = f"/games/{table.game_id}/resolve"
    submissions = [table.client.put(f"/games/{table.game_id}/orders", headers=table.player(power),
                                    json={"orders": CHOICES[power][0], "phase": "S1901M"})
                   for power in POWERS]
    results = await asyncio.gather(*submissions[:4],
                                   postgres_client.post(url, json={"phase": "S1901M"}, headers=OPERATOR),
                                   *submissions[4:])
    resolve = results[4]
    assert resolve.status_code == 200
    replies = dict(zip(POWERS, results[:4] + results[5:], strict=True))
    for power, reply in replies.items():
        if reply.status_code == 200:
            assert power in resolve.json()["orders"], power
        else:
            assert reply.status_code == 409 and reply.json()["error"]["code"] == "wrong_phase"
            assert power not in resolve.json()["orders"]
