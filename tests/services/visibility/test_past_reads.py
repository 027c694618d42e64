"""Past views and older history pages read only the phases they show (docs/performance.md):
what they answer is what the whole game folded again gives, for every viewer, on both back
ends; the phases they read are a page, not the game; and what is kept of them stays within
the state cache's bound (ENTENTE_STATE_CACHE_MIB)."""
from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from services.visibility.past import past_of, past_view
from services.visibility.rendering import view_json
from services.visibility.view import HISTORY_PAGE, Viewer, view_of
from shared.clock import ManualClock
from shared.game.cached import caches_of
from shared.game.repository import bound_state_cache, full_state, read_game
from tests.games.test_ekonia_game import started_ekonia
from tests.utils.http import OPERATOR, Host, hosting
from tests.utils.played_game import play_game

PHASES = 2 * HISTORY_PAGE + 7


@pytest.fixture
async def host(store_url: str) -> AsyncIterator[Host]:
    async with hosting(store_url, ManualClock()) as opened:
        yield opened


async def asked(host: Host, game_id: str, headers: dict[str, str], **params: str) -> dict:
    response = await host.client.get(f"/games/{game_id}/view", params=params, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


async def assert_as_a_whole_fold_gives(host: Host, game_id: str, viewers: dict[str, tuple[Viewer, dict]]) -> None:
    state = await read_game(host.store, game_id)
    assert state is not None
    whole = await full_state(host.store, state)
    names = [event.phase for event in whole.resolved]
    assert [name for name, _ in state.resolved_index] == names
    caches_of(host.store).past_phases.clear()  # nothing read before
    for viewer, headers in viewers.values():
        for number in sorted({0, 1, HISTORY_PAGE, len(names) // 2, len(names) - 1}):
            expected = json.loads(view_json(past_view(whole, past_of(whole, number), viewer)))
            assert await asked(host, game_id, headers, phase=names[number]) == expected
            end = max(0, number - 3)
            expected = json.loads(view_json(past_view(whole, past_of(whole, number, end), viewer)))
            assert await asked(host, game_id, headers, phase=names[number], history_before=names[end]) == expected
            expected = json.loads(view_json(view_of(whole, {}, viewer, number)))
            assert await asked(host, game_id, headers, history_before=names[number]) == expected


async def test_standard_past_views_are_what_the_whole_game_gives(host: Host) -> None:
    game_id = await play_game(host.store, PHASES)  # every order is public once resolved
    await assert_as_a_whole_fold_gives(host, game_id, {"public": (Viewer.public(), {}),
                                                       "operator": (Viewer("operator"), OPERATOR)})


async def test_ekonia_past_views_are_what_the_whole_game_gives_to_each_state(host: Host) -> None:
    game = await started_ekonia(host)
    for _ in range(HISTORY_PAGE + 6):
        for player in game.players:
            assert (await game.order(player.powers[0], [])).status_code == 200
    viewers: dict[str, tuple[Viewer, dict[str, str]]] = {"public": (Viewer.public(), {})}
    for player in game.players[:3]:
        power = player.powers[0]
        viewers[power] = (Viewer("power", power, player.codename, (power,), player.player_id), player.auth)
    await assert_as_a_whole_fold_gives(host, game.game_id, viewers)


async def test_a_past_view_reads_a_page_of_the_game_not_the_game(host: Host) -> None:
    game_id = await play_game(host.store, PHASES)
    state = await read_game(host.store, game_id)
    assert state is not None
    first, last = state.resolved_index[0][0], state.resolved_index[-1][0]
    await asked(host, game_id, {}, phase=first)
    assert len(caches_of(host.store).past_phases) == 1  # the phase itself: no history before it
    await asked(host, game_id, {}, phase=last)
    assert len(caches_of(host.store).past_phases) == 1 + HISTORY_PAGE + 1  # its page and itself
    await asked(host, game_id, {}, history_before=state.resolved_index[HISTORY_PAGE][0])
    assert len(caches_of(host.store).past_phases) <= 1 + HISTORY_PAGE + 1 + HISTORY_PAGE


async def test_what_past_views_keep_stays_within_the_state_cache_bound(host: Host) -> None:
    game_id = await play_game(host.store, PHASES)
    bound = 200 * 1024
    bound_state_cache(host.store, bound)  # what the app does with a small ENTENTE_STATE_CACHE_MIB
    state = await read_game(host.store, game_id)
    assert state is not None
    for name, _ in state.resolved_index:
        await asked(host, game_id, {}, phase=name)
    kept = caches_of(host.store).past_phases
    assert kept.max_bytes == bound and 0 < kept.weight <= bound
    assert len(kept) < PHASES
