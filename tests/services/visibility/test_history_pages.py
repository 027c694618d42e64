"""A view's history is one page of the resolved phases, the 20 latest by default, older pages
by ``?history_before=`` (docs/api.md, "History pages"), so that a view's size does not grow
with the number of phases played."""
from __future__ import annotations

from dataclasses import replace

from services.visibility.view import HISTORY_PAGE
from shared.game.repository import RECENT_PHASES, full_state, read_game, with_recent_history
from tests.utils.http import Host
from tests.utils.played_game import play_game

PHASES = 2 * HISTORY_PAGE + 5


async def pages(host: Host, game_id: str, **params: str) -> list[list[str]]:
    """Every history page, the latest first, each as its phase names (oldest first)."""
    found, before = [], None
    while True:
        query = {**params, **({"history_before": before} if before else {})}
        response = await host.client.get(f"/games/{game_id}/view", params=query)
        assert response.status_code == 200, response.text
        view = response.json()
        found.append([entry["phase"] for entry in view["history"]])
        before = view["history_before"]
        if before is None:
            return found
        assert before == found[-1][0]


async def test_the_history_comes_in_pages_that_together_hold_every_phase_once(host: Host) -> None:
    game_id = await play_game(host.store, PHASES)
    found = await pages(host, game_id)

    assert [len(page) for page in found] == [HISTORY_PAGE, HISTORY_PAGE, PHASES - 2 * HISTORY_PAGE]
    phases = [phase for page in reversed(found) for phase in page]
    assert len(phases) == len(set(phases)) == PHASES
    assert phases[:2] == ["S1901M", "F1901M"]


async def test_a_past_phase_pages_its_own_history(host: Host) -> None:
    game_id = await play_game(host.store, PHASES)
    latest = await pages(host, game_id)
    phases = [phase for page in reversed(latest) for phase in page]
    then = phases[HISTORY_PAGE + 3]

    found = await pages(host, game_id, phase=then)
    assert [phase for page in reversed(found) for phase in page] == phases[:HISTORY_PAGE + 3]
    assert [len(page) for page in found] == [HISTORY_PAGE, 3]


async def test_a_history_cursor_that_names_no_phase_played_is_refused(host: Host) -> None:
    game_id = await play_game(host.store, 3)
    unknown = await host.client.get(f"/games/{game_id}/view", params={"history_before": "F1950M"})
    nonsense = await host.client.get(f"/games/{game_id}/view", params={"history_before": "later"})

    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "phase_not_found"
    assert unknown.json()["error"]["where"] == "query.history_before"
    assert nonsense.status_code == 422 and nonsense.json()["error"]["code"] == "invalid_phase"


async def test_the_cached_state_keeps_no_history_and_views_still_see_every_phase(host: Host) -> None:
    game_id = await play_game(host.store, PHASES)
    cached = await read_game(host.store, game_id)
    assert cached is not None and cached.resolved == []
    assert cached.resolved_count == PHASES and cached.earlier_resolved == PHASES
    recent = await with_recent_history(host.store, cached)
    assert RECENT_PHASES <= len(recent.resolved) <= 2 * RECENT_PHASES and recent.resolved_count == PHASES
    assert await with_recent_history(host.store, cached) is recent  # kept for the next view
    again = await with_recent_history(host.store, replace(cached))  # not this process's reading: folded again
    assert again is not recent and again.resolved == recent.resolved
    full = await full_state(host.store, cached)
    assert len(full.resolved) == PHASES and full.resolved[-len(recent.resolved):] == recent.resolved
    assert (recent.version, recent.phase, recent.position) == (full.version, full.phase, full.position)

    latest = await host.client.get(f"/games/{game_id}/view")
    assert [e["phase"] for e in latest.json()["history"]] == [r.phase for r in full.resolved[-HISTORY_PAGE:]]
    first = full.resolved[0].phase  # left out of the cached state, still viewed as it was
    then = await host.client.get(f"/games/{game_id}/view", params={"phase": first})
    picture = await host.client.get(f"/games/{game_id}/map.svg", params={"phase": first})
    assert then.status_code == 200 and then.json()["resolution"]["phase"] == first
    assert picture.status_code == 200 and picture.text.startswith("<svg")
