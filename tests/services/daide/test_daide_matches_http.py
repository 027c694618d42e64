"""The same random legal orders, given by seven DAIDE clients to a real ``entente daide`` in one
game and by seven players over the HTTP API in its twin, give the same game: every phase's
adjudicated orders, dislodgements and next position are equal in the two event logs, on both
back ends. The orders are drawn by the house bots (random and heuristic, seeded), so each run
plays the same sixteen phases of moves, supports, bounces, retreats and builds; the test writes
them in DAIDE tokens with a converter of its own (convoys are left out: a convoyed move's
DAIDE form names its route, which a bot's order does not).
"""
from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx

from services.cli.ops import game_stream_id
from shared.events import PhaseResolved, from_recorded
from shared.game.repository import read_game
from shared.rules.bots.play import orders_for
from shared.rules.variants.standard import standard_map
from shared.store import EventStore
from tests.conftest import open_store
from tests.utils.daide_client import DaideClient
from tests.utils.daide_server import entente_daide, seated_game
from tests.utils.http import Table, started_table
from tests.utils.wait import until

CODES = {"AUSTRIA": "AUS", "ENGLAND": "ENG", "FRANCE": "FRA", "GERMANY": "GER", "ITALY": "ITA", "RUSSIA": "RUS",
         "TURKEY": "TUR"}
COASTS = {"NC": "NCS", "SC": "SCS", "EC": "ECS", "WC": "WCS"}
PHASES = 16


def owner_of(position: dict[str, Any], unit: str) -> str:
    where = unit.split()[1].split("/")[0]
    for power, units in position["units"].items():
        if any(u.split()[1].split("/")[0] == where for u in units):
            return power
    for power, dislodged in position.get("dislodged", {}).items():
        if any(d["unit"].split()[1].split("/")[0] == where for d in dislodged):
            return power
    raise AssertionError(f"no unit at {unit}")


DAIDE_SEAS = {"BOT": "GOB", "ENG": "ECH", "LYO": "GOL"}  # our codes for three seas DAIDE names otherwise


def place(location: str) -> str:
    province, _, coast = location.partition("/")
    province = DAIDE_SEAS.get(province, province)
    return f"({province} {COASTS[coast]})" if coast else province


def unit_tokens(unit: str, power: str) -> str:
    kind, location = unit.split()
    return f"({CODES[power]} {'AMY' if kind == 'A' else 'FLT'} {place(location)})"


def daide_of(order: str, power: str, position: dict[str, Any]) -> str | None:
    """One of our orders in DAIDE's written form (None for a convoy or a convoyed move)."""
    words = order.split()
    if words == ["WAIVE"]:
        return f"{CODES[power]} WVE"
    unit, rest = unit_tokens(f"{words[0]} {words[1]}", power), words[2:]
    phase = str(position["phase"])
    if rest == ["H"]:
        return f"({unit} HLD)"
    if rest[0] == "-":
        if "VIA" in rest or words[0] == "A" and rest[1] not in standard_map().army_neighbours(words[1]):
            return None
        return f"({unit} MTO {place(rest[1])})"
    if rest[0] == "S":
        supported = f"{rest[1]} {rest[2]}"
        theirs = unit_tokens(supported, owner_of(position, supported))
        return f"({unit} SUP {theirs})" if len(rest) == 3 else f"({unit} SUP {theirs} MTO {rest[4].split('/')[0]})"
    if rest[0] == "R":
        return f"({unit} RTO {place(rest[1])})"
    if rest == ["D"]:
        return f"({unit} {'REM' if phase.endswith('A') else 'DSB'})"
    if rest == ["B"]:
        return f"({unit} BLD)"
    return None  # a convoy


def drawn_orders(position: dict[str, Any], power: str, seed: int) -> tuple[list[str], list[str]]:
    """A power's orders for this phase (ours, DAIDE's), convoys and convoyed moves held instead."""
    strength = random.Random(f"{seed}:{power}").choice(["random", "heuristic"])
    ours, daide = [], []
    for order in orders_for("standard", position, power, strength=strength, seed=seed):  # type: ignore[arg-type]
        written = daide_of(order, power, position)
        if written is None:
            order = f"{order.split()[0]} {order.split()[1]} H"
            written = daide_of(order, power, position)
        assert written is not None
        ours.append(order)
        daide.append(written)
    return ours, daide


async def joined(client: DaideClient, credential: str) -> None:
    await client.hello()
    client.send(f"NME ('{credential}') ('twin bot')")
    await client.until("MAP")
    client.send("YES (MAP ('STANDARD'))")
    await client.turn()


async def play_http_phase(table: Table, orders: dict[str, list[str]]) -> None:
    for power, given in orders.items():
        response = await table.client.put(f"/games/{table.game_id}/orders", json={"orders": given},
                                          headers=table.player(power))
        assert response.status_code == 200, response.text
        assert response.json()["rejected"] == 0, response.text


async def resolved_phases(store: EventStore, game_id: str) -> list[dict[str, Any]]:
    """Each PhaseResolved of a game, without what differs between any two games (ids, times)."""
    found = [from_recorded(r) for r in await store.events.read_stream(game_stream_id(game_id))]
    return [{"phase": e.phase, "orders": {p: [o.model_dump() for o in os] for p, os in e.orders.items()},
             "dislodged": [d.model_dump() for d in e.dislodged], "position": e.position,
             "next_phase": e.next_phase, "civil_disorder": e.civil_disorder}
            for e in found if isinstance(e, PhaseResolved)]


async def wait_for_phase(store: EventStore, game_id: str, phase: str, timeout: float = 60) -> None:
    async def left() -> bool:
        state = await read_game(store, game_id)
        return state is not None and (state.phase != phase or state.status != "active")

    await until(left, timeout, what=f"{game_id} to leave {phase}", every=0.1)


async def test_daide_orders_give_the_game_the_same_orders_give_over_http(store_url: str,
                                                                          client: httpx.AsyncClient) -> None:
    store: EventStore = await open_store(store_url)
    try:
        daide_game = await seated_game(store)
        table = await started_table(client, settings={})  # the defaults, as seated_game's
        with entente_daide(store_url) as served:
            clients = {power: await DaideClient.connect(served.port) for power in CODES}
            await asyncio.gather(*(joined(clients[p], daide_game.credentials[p]) for p in CODES))
            for turn in range(PHASES):
                state = await read_game(store, daide_game.game_id)
                twin = await read_game(store, table.game_id)
                assert state is not None and twin is not None and state.phase == twin.phase
                if state.position != twin.position:
                    a, b = [await resolved_phases(store, g) for g in (daide_game.game_id, table.game_id)]
                    raise AssertionError(f"before {state.phase}: {a[-1]['orders']} != {b[-1]['orders']}")
                if state.status != "active":
                    break
                if turn:  # as a real client does: order once the NOW of the new turn is in
                    await asyncio.gather(*(c.turn(timeout=60) for c in clients.values()))
                position = dict(state.position or {})
                drawn = {p: drawn_orders(position, p, turn) for p in state.must_act}
                for power, (_, daide) in drawn.items():
                    if daide:
                        clients[power].send("SUB " + " ".join(daide))
                await play_http_phase(table, {p: ours for p, (ours, _) in drawn.items()})
                await wait_for_phase(store, daide_game.game_id, str(state.phase))
                await wait_for_phase(store, table.game_id, str(state.phase))
            for daide_client in clients.values():
                await daide_client.close()
        over_daide = await resolved_phases(store, daide_game.game_id)
        over_http = await resolved_phases(store, table.game_id)
    finally:
        await store.close()

    assert len(over_daide) >= PHASES - 2  # nearly every phase played (a year can skip its retreats)
    assert [p["phase"] for p in over_daide] == [p["phase"] for p in over_http]
    for daide_phase, http_phase in zip(over_daide, over_http, strict=True):
        assert daide_phase == http_phase, daide_phase["phase"]
    # the orders were those of a real game: something moved, something was supported
    written_orders = [o["order"] for p in over_daide for os in p["orders"].values() for o in os]
    assert any(" - " in o for o in written_orders) and any(" S " in o for o in written_orders)
    assert {p["phase"][-1] for p in over_daide} == {"M", "R", "A"}  # movement, retreats and adjustments
    assert any(o.endswith(" B") for o in written_orders) and any(" R " in o for o in written_orders)
