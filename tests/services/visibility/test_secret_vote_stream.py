"""A secret draw vote sends nothing to anyone's live stream but the voter's (docs/hosting.md,
"Draws"): the voter's stream shows its own vote; another seat's next frame is the next change it
can see, not one caused by the vote. On a real uvicorn, both back ends."""
from __future__ import annotations

import pytest

from .test_stream_frames import BACKENDS, Reader, game_served, stream_url


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_secret_vote_reaches_only_the_voters_stream(backend: str, request: pytest.FixtureRequest,
                                                            provider_url: str) -> None:
    async with game_served(backend, request, provider_url) as (base, table, browser):
        url, params = stream_url(base, table)
        async with (browser.stream("GET", url, params=params, headers=table.player("FRANCE")) as france,
                    browser.stream("GET", url, params=params, headers=table.player("GERMANY")) as germany):
            voter, other = Reader(france), Reader(germany)
            await voter.next_view()
            before = await other.next_view()
            vote = await table.client.post(f"/games/{table.game_id}/draw", json={"vote": True},
                                           headers=table.player("FRANCE"))
            assert vote.status_code == 200, vote.text
            assert (await voter.next_view())["draw"]["your_vote"] is True
            await table.order_ok("FRANCE", ["A PAR H"])  # a change Germany does see
            seen = await other.next_view()
            assert seen != before and seen == await table.view("GERMANY")
            assert [event["event"] for event in other.events].count("view") == 2  # nothing for the vote
