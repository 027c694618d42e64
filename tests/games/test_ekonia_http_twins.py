"""Twin Tale of Ekonia games over HTTP, on both back ends, in process and on a real ``entente
serve``, that differ only in one hidden fact
(docs/rules/ekonia.md, "Who holds a lane", "A trade proposal's answer", "Hidden troops and
captures", D30): whose two privateers are (one beside another state's flagged trireme, one
beside that state's privateer), whose privateer fights a battle beside a state's flag,
whether the partner of a trade proposal that cannot succeed proposed too, and where another
state's hidden infantry stands when a state marches into neutral land.
Every observable of every viewer that does not know the fact (views, past views, map.svg now
and past, the stream's first frame with its ids, possible orders, its own order answers, the
game's summary and its lobby entry) is byte for byte the same in both twins, once each game's
own id and codenames are named alike.

The twins start at a position written as the game's start (``GameStarted``, as
tests/utils/http.py's ``start_at`` does for the standard game): the real board's opening with
the units of the shape added, so that each shape stands on the board in its first turn; then
every state orders over HTTP and the last order resolves the turn.
"""
from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from services.adjudication.worker import ClockWorker
from shared.clock import ManualClock
from shared.events import GameStarted
from shared.game.deadlines import deadline_for
from shared.game.repository import append_events, read_state
from shared.rules.variants import get_variant
from shared.store import open_store
from tests.utils.http import Host, HostedGame, hosting
from tests.utils.served import entente_serve
from tests.utils.twins import ids_checked, named_alike

VARIANT = get_variant("ekonia")
STATES = sorted(VARIANT.powers())
Position = dict[str, Any]
Orders = dict[str, list[str]]


def opening() -> Position:
    return copy.deepcopy(VARIANT.opening({"player_count": 6}, 1).state)


def add_unit(state: Position, uid: str, unit_type: str, location: str, **extra: Any) -> None:
    owner, _, number = uid.rpartition("-")
    state["units"][uid] = {"id": uid, "type": unit_type, "owner": owner, "location": location, "stored": False,
                           "privateer": False, "built": 0, "aboard": None, "hidden_until": None, **extra}
    state["powers"][owner]["next_unit"] = max(state["powers"][owner]["next_unit"], int(number) + 1)


def privateers_of(owner: str) -> Position:
    """Everyone spares everyone (no battle at sea); Arelton's flagged trireme and ``owner``'s
    privateer share the Calder Sound, Arelton's privateer and ``owner``'s the Ilmara Sound."""
    state = opening()
    for power in state["powers"]:
        state["powers"][power]["spared"] = [p for p in STATES if p != power]
    add_unit(state, "ARELTON-4", "TRIREME", "calder-sound")
    add_unit(state, "ARELTON-5", "TRIREME", "ilmara-sound", privateer=True)
    add_unit(state, f"{owner}-8", "TRIREME", "calder-sound", privateer=True)
    add_unit(state, f"{owner}-9", "TRIREME", "ilmara-sound", privateer=True)
    return state


def privateer_of_in_battle(owner: str) -> Position:
    """Arelton, at war with Vieren, has a flagged trireme in the Calder Sound, and ``owner`` a
    privateer there; Vieren's two triremes are there too. Arelton and Herlorne spare each other
    and neither spares Vieren: the privateer fights Vieren beside Arelton's flag."""
    state = opening()
    state["wars"], state["war_since"] = [["ARELTON", "VIEREN"]], {"ARELTON:VIEREN": 0}
    state["powers"]["ARELTON"]["spared"], state["powers"]["HERLORNE"]["spared"] = ["HERLORNE"], ["ARELTON"]
    add_unit(state, "ARELTON-4", "TRIREME", "calder-sound")
    add_unit(state, f"{owner}-8", "TRIREME", "calder-sound", privateer=True)
    add_unit(state, "VIEREN-4", "TRIREME", "calder-sound")
    add_unit(state, "VIEREN-5", "TRIREME", "calder-sound")
    return state


def hidden_infantry_at(where: str) -> Position:
    """Vieren's three infantry in Inesterl, Paresque's infantry hidden by espionage in ``where``."""
    state = opening()
    add_unit(state, "VIEREN-4", "INFANTRY", "inesterl")
    add_unit(state, "VIEREN-5", "INFANTRY", "inesterl")
    add_unit(state, "PARESQUE-9", "INFANTRY", where, hidden_until=1)
    return state


MARCH = ["MOVE 3 INFANTRY inesterl -> dermore"]
# name: (twin A's position and orders, twin B's, the states that know the fact)
TWINS: dict[str, tuple[tuple[Callable[[], Position], Orders], tuple[Callable[[], Position], Orders], set[str]]] = {
    "whose privateers share the lanes": (
        (lambda: privateers_of("ARELTON"), {}), (lambda: privateers_of("HERLORNE"), {}), {"ARELTON", "HERLORNE"}),
    "whose privateer fights beside a flag": (
        (lambda: privateer_of_in_battle("ARELTON"), {}), (lambda: privateer_of_in_battle("HERLORNE"), {}),
        {"ARELTON", "HERLORNE"}),
    "whether the trade partner proposed too": (
        (opening, {"ARELTON": ["TRADE WITH VIEREN"]}),
        (opening, {"ARELTON": ["TRADE WITH VIEREN"], "VIEREN": ["TRADE WITH ARELTON"]}), {"VIEREN"}),
    "where hidden troops stand when land is marched into": (
        (lambda: hidden_infantry_at("dermore"), {"VIEREN": MARCH, "PARESQUE": ["HIDE 1 INFANTRY AT dermore"]}),
        (lambda: hidden_infantry_at("kremarsh"), {"VIEREN": MARCH, "PARESQUE": ["HIDE 1 INFANTRY AT kremarsh"]}),
        {"PARESQUE"}),
}


@pytest.fixture(params=["in process", "entente serve"])
async def hosted(store_url: str, request: pytest.FixtureRequest) -> AsyncIterator[Host]:
    """The app in process with a hand-moved clock (every byte compared, times included), or a
    real ``entente serve`` on a socket (its wall clock: the times of a twin's events differ by
    the seconds between the twins, so ``named_alike`` names every time alike)."""
    if request.param == "in process":
        async with hosting(store_url) as host:
            yield host
        return
    with entente_serve(store_url) as base_url:
        store = await open_store(store_url)
        clock = ManualClock(datetime(2031, 1, 6, 12, tzinfo=UTC))  # the first deadline, after the wall clock's now
        try:
            async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
                yield Host(client, store, clock, ClockWorker(store, clock))
        finally:
            await store.close()


async def started_at(host: Host, position: Position) -> HostedGame:
    """An Ekonia game of six seats (the states in join order) started at ``position``."""
    response = await host.client.post("/games", json={"name": "Twin", "variant": "ekonia"})
    assert response.status_code == 201, response.text
    game = HostedGame(host, response.json()["id"], response.json()["host_token"])
    for _ in STATES:
        await game.join()
    async with host.store.transaction(game.game_id, lock="exclusive") as tx:
        state = await read_state(tx, game.game_id)
        powers = {p.player_id: [power] for p, power in zip(game.players, STATES, strict=True)}
        started = GameStarted(seed=1, powers=powers, phase="T01", position=position, must_act=STATES)
        await append_events(tx, state, [started, deadline_for(state, "T01", host.clock.now())],
                            None, host.clock.now())
    for player, power in zip(game.players, STATES, strict=True):
        player.powers = [power]
    return game


async def observables(game: HostedGame, viewer: str | None, answers: dict[str, str]) -> dict[str, str]:
    """Everything ``viewer`` (a state, or the public) reads of the game after its first turn."""
    client, headers = game.client, game.player(viewer).auth if viewer else {}
    asked = {
        "view": client.get(f"{game.url}/view", headers=headers),
        "view of T01": client.get(f"{game.url}/view", params={"phase": "T01"}, headers=headers),
        "map.svg": client.get(f"{game.url}/map.svg", headers=headers),
        "map.svg of T01": client.get(f"{game.url}/map.svg", params={"phase": "T01"}, headers=headers),
        "stream": client.get(f"{game.url}/stream", params={"timeout": 0.1}, headers=headers),
        "summary": client.get(game.url, headers=headers),
    }
    if viewer is not None:
        asked["possible orders"] = client.get(f"{game.url}/possible-orders", headers=headers)
    seen = {}
    for name, request in asked.items():
        response = await request
        text = ids_checked(response.text) if name == "stream" else response.text
        seen[name] = f"{response.status_code} {named_alike(game, text)}"
    listed = (await client.get("/games", params={"limit": 500}, headers=headers)).json()["games"]
    seen["lobby"] = named_alike(game, repr([g for g in listed if g["id"] == game.game_id]))
    if viewer is not None:
        seen["its order answer"] = named_alike(game, answers[viewer])
    return seen


async def play_first_turn(game: HostedGame, orders: Orders) -> dict[str, str]:
    """Every state orders (the last order resolves the turn); each state's answer."""
    answers = {}
    for power in STATES:
        response = await game.order(power, orders.get(power, []))
        assert response.status_code == 200, response.text
        answers[power] = response.text
    assert (await game.summary())["phase"] == "T02"
    return answers


@pytest.mark.parametrize("shape", list(TWINS))
async def test_twins_that_differ_in_a_hidden_fact_look_the_same_to_all_who_do_not_know_it(
        hosted: Host, shape: str) -> None:
    (make_a, orders_a), (make_b, orders_b), knowing = TWINS[shape]
    games = [await started_at(hosted, make_a()), await started_at(hosted, make_b())]
    answers = [await play_first_turn(games[0], orders_a), await play_first_turn(games[1], orders_b)]
    for power in knowing:  # the twins do differ: those who know the fact see it
        views = [await game.view(power) for game in games]
        assert json.dumps(views[0]["position"]["own"]) != json.dumps(views[1]["position"]["own"]) or \
            json.dumps(views[0]["history"]) != json.dumps(views[1]["history"]), power
    for viewer in [*(s for s in STATES if s not in knowing), None]:
        seen_one = await observables(games[0], viewer, answers[0])
        seen_two = await observables(games[1], viewer, answers[1])
        for name in seen_one:
            assert seen_one[name] == seen_two[name], (shape, viewer, name)
