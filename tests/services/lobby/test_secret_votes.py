"""A secret draw vote changes nothing anyone but the voter can observe, its timing included
(docs/hosting.md, "Draws"): the games list (order and ``updated_at``), the summaries, the other
seats' and the public's views, the pictures' ETags, and the pictures kept (no redraw after the
vote: the next picture is the cached one). With public votes the same vote is seen."""
from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from services.visibility.maps.cache import KeptPictures
from shared.clock import ManualClock
from tests.utils.http import Host, HostedGame, hosting

OTHERS = (None, "GERMANY", "ENGLAND")  # the public and two seats that did not vote


@pytest.fixture
async def host(store_url: str) -> AsyncIterator[Host]:
    async with hosting(store_url, ManualClock()) as opened:
        yield opened


def drawings(host: Host) -> int:
    """How many pictures this process drew (misses of its picture cache)."""
    kept = host.store.kept(KeptPictures).pictures
    return kept.requests.misses if kept is not None else 0


async def observed(host: Host, game: HostedGame) -> dict[str, Any]:
    """Everything a client other than the voter reads of the game and the lobby."""
    seen: dict[str, Any] = {"list": (await host.client.get("/games")).content,
                            "summary": (await host.client.get(game.url)).content}
    for viewer in OTHERS:
        auth = game.player(viewer).auth if viewer else {}
        seen[f"view {viewer}"] = (await host.client.get(f"{game.url}/view", headers=auth)).content
        picture = await host.client.get(f"{game.url}/map.svg", headers=auth)
        seen[f"picture {viewer}"] = (picture.headers["etag"], picture.content)
    return seen


async def test_a_secret_vote_is_invisible_to_everyone_else(host: Host) -> None:
    quiet = await host.started(7)
    host.clock.advance(timedelta(minutes=1))
    other = await host.started(7)  # created later: listed first until ``quiet`` changes
    host.clock.advance(timedelta(minutes=1))  # a rewritten row would move ``updated_at`` on
    before = await observed(host, quiet)
    drawn = drawings(host)
    assert (await quiet.vote("FRANCE")).json() == {"passed": False, "your_vote": True}
    assert (await quiet.vote("ITALY")).status_code == 200
    assert (await quiet.vote("ITALY", False)).status_code == 200
    after = await observed(host, quiet)
    assert after == before  # byte for byte: lists, summary, views, ETags and pictures
    assert drawings(host) == drawn  # every picture answered from the cache, none redrawn
    listed = (await host.client.get("/games")).json()["games"]
    assert [g["id"] for g in listed] == [other.game_id, quiet.game_id]
    assert (await quiet.view("FRANCE"))["draw"]["your_vote"] is True  # the voter sees their vote
    assert [e["type"] for e in await quiet.game_events()].count("DrawVoted") == 3  # and the log holds it


async def test_a_public_vote_is_seen(host: Host) -> None:
    """The control: the same vote in a game with public votes moves the row and the summary."""
    public = await host.started(7, public_votes=True)
    host.clock.advance(timedelta(minutes=1))
    other = await host.started(7)
    host.clock.advance(timedelta(minutes=1))
    before = await observed(host, public)
    assert (await public.vote("FRANCE")).status_code == 200
    after = await observed(host, public)
    assert after["summary"] != before["summary"] and after["list"] != before["list"]
    listed = (await host.client.get("/games")).json()["games"]
    assert [g["id"] for g in listed] == [public.game_id, other.game_id]


async def test_the_vote_that_passes_the_draw_is_seen(host: Host) -> None:
    game = await host.started(2)
    host.clock.advance(timedelta(minutes=1))
    before = await observed_summary(host, game)
    first, second = game.players
    for player in (first, second):
        answer = await host.client.post(f"{game.url}/draw", json={"vote": True}, headers=player.auth)
        assert answer.status_code == 200, answer.text
        if player is first:
            assert await observed_summary(host, game) == before
    assert (await host.client.get(game.url)).json()["status"] == "finished"
    assert await observed_summary(host, game) != before


async def observed_summary(host: Host, game: HostedGame) -> tuple[bytes, bytes]:
    return (await host.client.get("/games")).content, (await host.client.get(game.url)).content
