"""The streams of a process share one tailer of the log and one rendering of each distinct view
(services/visibility/hub.py): what a change costs does not grow with the number of watchers,
and a commit in another game costs the watchers nothing."""
from __future__ import annotations

import asyncio
from typing import Any

import httpx
from prometheus_client import REGISTRY

from services.visibility.hub import hub_for
from services.visibility.limits import limits_of
from tests.utils.http import Table, started_table
from tests.utils.wait import until

from .sse import of_kind, parse_sse

PUBLIC_WATCHERS = 40


def counted() -> tuple[float, float]:
    """The tailers' reads of the log and deliveries, as /metrics reports them."""
    return (REGISTRY.get_sample_value("entente_stream_log_reads_total") or 0.0,
            REGISTRY.get_sample_value("entente_stream_deliveries_total") or 0.0)


def started(hub: Any) -> int:
    """How many watchers the hub has given their start (their first view)."""
    return sum(watcher.ready for feed in hub.feeds.values() for watcher in feed.watchers)


def watch(client: httpx.AsyncClient, table: Table, power: str | None, seconds: float) -> asyncio.Task:
    headers = table.player(power) if power else {}
    return asyncio.create_task(client.get(f"/games/{table.game_id}/stream", params={"timeout": seconds},
                                          headers=headers))


async def test_many_watchers_share_one_rendering_of_each_view(social_any) -> None:
    app, client = social_any
    limits_of(app).per_address = PUBLIC_WATCHERS + 3  # every test client comes from one address
    table = await started_table(client)
    hub = hub_for(app.state.store)
    watchers = [watch(client, table, None, 3.0) for _ in range(PUBLIC_WATCHERS)]
    watchers += [watch(client, table, "FRANCE", 3.0) for _ in range(3)]
    await until(lambda: started(hub) == len(watchers))
    assert len(hub.feeds) == 1 and hub.tailing
    rendered, refreshes, reads = hub.stats.views_rendered, hub.stats.refreshes, hub.stats.log_reads
    reads_counted, deliveries_counted = counted()
    await table.resolve("S1901M")
    responses = await asyncio.gather(*watchers)
    # what the hub did is what the metrics say
    assert counted() == (reads_counted + hub.stats.log_reads - reads,
                         deliveries_counted + hub.stats.refreshes - refreshes)
    for response in responses:
        views = of_kind(parse_sse(response.text), "view")
        assert [v["data"]["game"]["phase"] for v in views] == ["S1901M", "F1901M"]
    # the public view and FRANCE's, once per refresh, for 43 watchers
    assert 1 <= hub.stats.refreshes - refreshes <= 2
    assert hub.stats.views_rendered - rendered == 2 * (hub.stats.refreshes - refreshes)
    # the same frames to every watcher of one view
    public = {parse_sse(r.text)[-1]["id"] for r in responses[:PUBLIC_WATCHERS]}
    assert len(public) == 1
    await until(lambda: not hub.tailing)  # the last watcher out stopped the tailer
    assert hub.feeds == {}


async def test_commits_in_other_games_cost_the_watchers_nothing(social_any) -> None:
    app, client = social_any
    watched, other = await started_table(client), await started_table(client)
    hub = hub_for(app.state.store)
    watchers = [watch(client, watched, None, 2.5) for _ in range(20)]
    await until(lambda: started(hub) == len(watchers))
    reads, refreshes, rendered = hub.stats.log_reads, hub.stats.refreshes, hub.stats.views_rendered
    for power in ("FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        await other.order_ok(power, [])
    # not a wait for work: what is checked is that nothing is refreshed in this window, in which
    # the tailer wakes for the other game's commits
    await asyncio.sleep(0.5)
    # the tailer read the log (once per wake-up, not once per watcher) and refreshed nothing
    assert 1 <= hub.stats.log_reads - reads <= 5 + 3
    assert hub.stats.refreshes == refreshes and hub.stats.views_rendered == rendered
    for response in await asyncio.gather(*watchers):
        assert [e["event"] for e in parse_sse(response.text)] == ["view"]


BURST = ("FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


async def views_seen_by_watchers(client: httpx.AsyncClient, app: Any, coalesce_seconds: float,
                                 pause: float) -> list[int]:
    """Three watchers of a started game while five powers submit (``pause`` seconds apart, or
    all at once): how many view events each watcher got."""
    table = await started_table(client)
    hub = hub_for(app.state.store)
    # the streams stay open long enough for the last submission's view on a busy machine (the
    # five submissions take under a second; their views must all arrive before the streams end)
    watchers = [watch(client, table, None, max(8.0, coalesce_seconds + 5.0)) for _ in range(3)]
    await until(lambda: started(hub) == len(watchers))
    hub.coalesce_seconds = coalesce_seconds  # after the streams opened (each passes the setting)
    if pause:
        for power in BURST:
            await table.order_ok(power, [])
            await asyncio.sleep(pause)  # the pace of the submissions is what is under test
    else:
        await asyncio.gather(*(table.order_ok(power, []) for power in BURST))
    responses = await asyncio.gather(*watchers)
    return [len(of_kind(parse_sse(response.text), "view")) for response in responses]


async def test_a_burst_of_submissions_is_delivered_in_one_pass(social_any) -> None:
    """With the tailer's wake-ups coalesced (ENTENTE_STREAM_COALESCE_SECONDS), five submissions
    that commit within the delay reach each watcher as one view after its first."""
    app, client = social_any
    # (a delay well past the burst's commits: a few hundred ms, and more than 2.5 s on SQLite
    # in one CI run of a machine the suite keeps busy)
    assert await views_seen_by_watchers(client, app, 5.0, 0) == [2, 2, 2]


async def test_without_coalescing_each_submission_is_delivered(social_any) -> None:
    app, client = social_any
    # (paced well apart, so that no wake-up of the tailer finds two commits on a busy machine)
    assert await views_seen_by_watchers(client, app, 0.0, 0.5) == [6, 6, 6]


async def test_a_secret_vote_renders_only_the_voters_view(social_any) -> None:
    """A secret draw vote changes no view but the voter's: the public's and another seat's are
    not rendered again for it (docs/hosting.md, "Draws"), while the voter's is."""
    app, client = social_any
    table = await started_table(client)
    hub = hub_for(app.state.store)
    watchers = [watch(client, table, power, 3.0) for power in (None, "GERMANY", "FRANCE")]
    await until(lambda: started(hub) == len(watchers))
    refreshes, rendered = hub.stats.refreshes, hub.stats.views_rendered
    voted = await client.post(f"/games/{table.game_id}/draw", json={"vote": True}, headers=table.player("FRANCE"))
    assert voted.status_code == 200, voted.text
    await until(lambda: hub.stats.refreshes > refreshes)
    responses = await asyncio.gather(*watchers)
    assert hub.stats.views_rendered - rendered == hub.stats.refreshes - refreshes  # France's alone
    views = [len(of_kind(parse_sse(response.text), "view")) for response in responses]
    assert views == [1, 1, 2]  # the public, Germany: their first view only; France: its vote too
