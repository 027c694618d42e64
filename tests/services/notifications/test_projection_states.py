"""The notification projection folds each game on from where its last batch left it (a
per-process cache of game states, docs/architecture.md, "Performance"): what it plans must be what
the planner gives for every event with the game folded from its first event, whichever
process projects which batch, however long the game; and a worker told to stop stops between
batches, whatever is left of the log. What it keeps of a game is its state without the resolved
phases, which planning never reads."""
from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from services.notifications import outbox
from services.notifications.planning import Context, plan
from shared.events import from_recorded, game_stream
from shared.events_social import press_stream, webhooks_stream
from shared.game.cached import caches_of
from shared.game.repository import RECENT_PHASES, bound_state_cache
from shared.game.state import fold
from shared.store import EventStore, RecordedEvent, open_store
from tests.utils.http import started_table

WARNING = timedelta(minutes=60)


async def _log(store: EventStore) -> list[RecordedEvent]:
    async with store.transaction() as tx:
        return await tx.events.read_all(0, 100_000)


def planned_from_first_event(records: list[RecordedEvent], game_id: str) -> dict[str, tuple[Any, ...]]:
    """The notifications of every event of the game, each planned with the game folded from
    its first event up to that event (no cache): dedupe key -> (recipient, kind, phase, payload)."""
    game = [r for r in records if r.stream_id == game_stream(game_id)]
    hooks = [r for r in records if r.stream_id == webhooks_stream(game_id)]
    planned: dict[str, tuple[Any, ...]] = {}
    for record in records:
        if record.stream_id not in (game_stream(game_id), press_stream(game_id), webhooks_stream(game_id)):
            continue
        state = fold(from_recorded(r) for r in game if r.position <= record.position)
        webhooks, channel = outbox.hooks_at(hooks, record.position)
        notes, _ = plan(record, from_recorded(record), Context(state, webhooks, {}, channel), WARNING)
        planned.update({n.dedupe_key: (n.player_id, n.kind, n.phase, n.payload) for n in notes})
    return planned


async def test_a_long_game_projected_in_small_batches_by_two_processes_plans_what_a_full_fold_plans(
        social_any, store_url: str, receiver_url: str) -> None:
    app, client = social_any
    store = app.state.store
    table = await started_table(client)
    other = await open_store(store_url)  # a second process: a cache of its own
    phases = 2 * RECENT_PHASES + 5  # past the point where a cached state keeps only its latest phases
    try:
        for turn in range(phases):
            if turn == 3:
                put = await client.put(f"/games/{table.game_id}/webhook", headers=table.player("FRANCE"),
                                       json={"url": f"{receiver_url}/ok/projected-{table.game_id}"})
                assert put.status_code == 200, put.text
            if turn % 7 == 2:
                sent = await client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                                         json={"to": "all", "text": f"turn {turn}"})
                assert sent.status_code == 201, sent.text
            phase = (await client.get(f"/games/{table.game_id}")).json()["phase"]
            await table.resolve(phase)
            await outbox.project_all(store if turn % 3 else other, WARNING, batch=2)
        await outbox.project_all(other, WARNING, batch=2)
        # both folded on from a kept state
        assert len(caches_of(store).notification_games) == len(caches_of(other).notification_games) == 1
        # what is kept is the game without its history (planning never looks back): a few KB, not
        # a state's 20 to 40 phases of about 25 KB each
        game = await store.events.read_stream(game_stream(table.game_id))
        for process in (store, other):
            kept = caches_of(process).notification_games.peek(table.game_id)
            assert kept is not None and kept.state.resolved == []
            assert kept.state.resolved_count == sum(r.type == "PhaseResolved" and r.position <= kept.position
                                                    for r in game) > 2 * RECENT_PHASES
            assert caches_of(process).notification_games.weight < 32 * 1024
    finally:
        await other.close()
    rows = {r["dedupe_key"]: (r["player_id"], r["kind"], r["phase"], r["payload"])
            for r in await outbox.notifications(store, table.game_id)}
    expected = planned_from_first_event(await _log(store), table.game_id)
    assert rows == expected
    kinds = sorted({kind for _, kind, _, _ in rows.values()})
    assert kinds == ["deadline_approaching", "message_received", "phase_resolved"]
    assert sum(kind == "phase_resolved" for _, kind, _, _ in rows.values()) == phases - 3


async def test_the_projection_keeps_its_states_within_the_state_cache_bound(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        bound_state_cache(store, 3 * 2**20)  # what the app does with ENTENTE_STATE_CACHE_MIB=3
        assert caches_of(store).notification_games.max_bytes == 3 * 2**20
    finally:
        await store.close()


async def test_a_worker_told_to_stop_stops_between_batches(social_any) -> None:
    app, client = social_any
    store = app.state.store
    table = await started_table(client)
    for _ in range(3):
        await client.post(f"/games/{table.game_id}/messages", headers=table.player("ITALY"),
                          json={"to": "all", "text": "hello"})
    stop = asyncio.Event()
    stop.set()
    assert await outbox.project_all(store, WARNING, batch=1, stop=stop) == 0
    assert await store.projections.projection_position(outbox.PROJECTION) == 0
    stop.clear()
    assert await outbox.project_all(store, WARNING, batch=1, stop=stop) == len(await _log(store))
