"""Game pictures are remembered per viewer with an ETag, and drawn in turn (docs/maps.md,
"Caching, ETags and the render queue"): ``If-None-Match`` gets 304 while the picture is the
same and 200 once it changed; two viewers never get each other's picture or ETag, whichever
asked first; a full render queue answers 503 with Retry-After and nothing else changes."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from services.visibility.maps.cache import KeptPictures, Pictures
from shared.clock import ManualClock
from tests.games.test_ekonia_game import started_ekonia
from tests.utils.http import OPERATOR, Host, HostedGame, hosting


@pytest.fixture
async def host(store_url: str) -> AsyncIterator[Host]:
    async with hosting(store_url, ManualClock()) as opened:
        yield opened


def auth_of(game: HostedGame, viewer: str | None) -> dict[str, str]:
    if viewer == "operator":
        return OPERATOR
    return game.player(viewer).auth if viewer else {}


async def fetch(game: HostedGame, viewer: str | None, kind: str = "svg", etag: str | None = None,
                **params: str) -> Any:
    headers = {**auth_of(game, viewer), **({"if-none-match": etag} if etag else {})}
    return await game.client.get(f"{game.url}/map.{kind}", params=params, headers=headers)


async def resolve(game: HostedGame) -> None:
    phase = (await game.summary())["phase"]
    response = await game.client.post(f"{game.url}/resolve", json={"phase": phase}, headers=OPERATOR)
    assert response.status_code == 200, response.text


async def test_a_picture_is_revalidated_until_it_changes(host: Host) -> None:
    game = await host.started(7)
    public = await fetch(game, None)
    assert public.status_code == 200 and public.headers["cache-control"] == "private, no-cache"
    etag = public.headers["etag"]
    same = await fetch(game, None, etag=etag)
    assert same.status_code == 304 and same.content == b"" and same.headers["etag"] == etag
    assert (await fetch(game, None, etag=f'W/{etag}, "other"')).status_code == 304

    france = await fetch(game, "FRANCE")
    assert (await game.order("FRANCE", ["A PAR - BUR"])).status_code == 200
    ordered = await fetch(game, "FRANCE", etag=france.headers["etag"])
    assert ordered.status_code == 200 and ordered.headers["etag"] != france.headers["etag"]
    assert ordered.content != france.content  # its own pending order drawn
    assert (await fetch(game, None, etag=etag)).status_code == 304  # the public sees no orders

    await resolve(game)
    moved = await fetch(game, None, etag=etag)
    assert moved.status_code == 200 and moved.headers["etag"] != etag
    past = await fetch(game, None, phase="S1901M")
    assert past.status_code == 200
    assert (await fetch(game, None, etag=past.headers["etag"], phase="S1901M")).status_code == 304
    png = await fetch(game, None, "png", phase="S1901M")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    assert png.headers["etag"] != past.headers["etag"]
    assert (await fetch(game, None, "png", etag=png.headers["etag"], phase="S1901M")).status_code == 304


async def pictures_of_everyone(game: HostedGame, viewers: list[str | None], kind: str,
                               **params: str) -> dict[str | None, tuple[str, bytes]]:
    seen = {}
    for viewer in viewers:
        response = await fetch(game, viewer, kind, **params)
        assert response.status_code == 200, response.text
        seen[viewer] = (response.headers["etag"], response.content)
    return seen


async def assert_viewers_apart(host: Host, game: HostedGame, viewers: list[str | None], **params: str) -> None:
    """Each viewer's picture, asked with the cache warm from the others and then cold in the
    other order, is the same; no two viewers share an ETag; one's ETag is no 304 for another."""
    for kind in ("svg", "png"):
        warm = await pictures_of_everyone(game, viewers, kind, **params)
        host.store.kept(KeptPictures).clear()
        cold = await pictures_of_everyone(game, viewers[::-1], kind, **params)
        assert warm == cold
        etags = [etag for etag, _ in warm.values()]
        assert len(set(etags)) == len(etags)
        for viewer, other in zip(viewers, viewers[1:] + viewers[:1], strict=True):
            response = await fetch(game, viewer, kind, etag=warm[other][0], **params)
            assert response.status_code == 200 and response.content == warm[viewer][1]


async def test_ekonia_viewers_never_get_each_others_picture_or_etag(host: Host) -> None:
    game = await started_ekonia(host)
    states = [player.powers[0] for player in game.players]
    viewers: list[str | None] = [None, "operator", *states]
    await assert_viewers_apart(host, game, viewers)
    drawn = await pictures_of_everyone(game, viewers, "svg")
    assert len({body for _, body in drawn.values()}) > 2  # each state's own section differs
    for player in game.players:
        assert (await game.order(player.powers[0], [])).status_code == 200  # the turn resolves
    await assert_viewers_apart(host, game, viewers, phase="T01")


async def test_identical_pictures_of_two_players_still_have_their_own_etags(host: Host) -> None:
    game = await host.started(7)
    viewers: list[str | None] = [None, "FRANCE", "ENGLAND"]
    drawn = await pictures_of_everyone(game, viewers, "svg")
    assert len({body for _, body in drawn.values()}) == 1  # nothing pending: the same picture
    assert len({etag for etag, _ in drawn.values()}) == 3
    await assert_viewers_apart(host, game, viewers)


async def test_a_full_render_queue_answers_503_with_retry_after(host: Host) -> None:
    game = await host.started(7)
    for _ in range(4):
        await resolve(game)
    phases = [entry["phase"] for entry in await game.resolutions()]
    host.store.kept(KeptPictures).pictures = Pictures(32 * 2**20, renders=1, waiting=0)
    answers = await asyncio.gather(*(fetch(game, None, "png", phase=phase) for phase in phases))
    statuses = sorted(response.status_code for response in answers)
    assert set(statuses) == {200, 503}, statuses
    for response in answers:
        if response.status_code == 503:
            assert response.json()["error"]["code"] == "render_queue_full"
            assert int(response.headers["retry-after"]) > 0
    for phase in phases:  # once the queue has room, each is drawn
        assert (await fetch(game, None, "png", phase=phase)).status_code == 200
    pictures = host.store.kept(KeptPictures).pictures
    assert pictures is not None and pictures.queue.admitted == 0
