"""``POST /games/{id}/resolve`` naming a phase the game resolved already answers 409
``phase_already_resolved`` from the game's index of resolved phases (the one past views use),
without the game's lock and without reading its log (docs/api.md): it answers while another
transaction holds the game, on both back ends, for a phase long out of the cached history."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from shared.clock import ManualClock
from shared.game.repository import RECENT_PHASES, read_game
from tests.utils.http import OPERATOR, Host, hosting
from tests.utils.played_game import play_game

PHASES = 2 * RECENT_PHASES + 5  # the earliest phases are left out of the cached state


@pytest.fixture
async def host(store_url: str) -> AsyncIterator[Host]:
    async with hosting(store_url, ManualClock()) as opened:
        yield opened


async def test_a_past_phase_is_refused_without_the_lock_or_the_log(host: Host) -> None:
    game_id = await play_game(host.store, PHASES)
    state = await read_game(host.store, game_id)
    assert state is not None and state.earlier_resolved > 0 and state.status == "active"
    first = state.resolved_index[0][0]
    url = f"/games/{game_id}/resolve"
    async with host.store.transaction(game_id, lock="exclusive"):  # another writer holds the game
        # (a request that waited for the lock would never finish here: the bound only ends the test)
        answer = await asyncio.wait_for(host.client.post(url, json={"phase": first}, headers=OPERATOR), 60)
    assert answer.status_code == 409, answer.text
    error = answer.json()["error"]
    assert error["code"] == "phase_already_resolved" and error["where"] == "body.phase"
    assert first in error["message"] and str(state.phase) in error["message"]
    after = await read_game(host.store, game_id)
    assert after is not None and after.version == state.version  # nothing written
    current = await host.client.post(url, json={"phase": state.phase}, headers=OPERATOR)
    assert current.status_code == 200, current.text  # the current phase still resolves
    again = await host.client.post(url, json={"phase": state.phase}, headers=OPERATOR)
    assert again.status_code == 409 and again.json()["error"]["code"] == "phase_already_resolved"
