"""The render queue's two lanes (docs/maps.md, "Caching, ETags and the render queue"): a seat's
own current board is drawn first and never refused for others' load; everyone else's pictures
wait behind it, at most ENTENTE_PICTURE_RENDERS + ENTENTE_PICTURE_QUEUE of them, and at most two
anonymous ones from one address."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from services.visibility.maps.cache import KeptPictures, Pictures, RenderQueue, RenderQueueFull
from shared.clock import ManualClock
from tests.utils.http import OPERATOR, Host, hosting


async def test_a_seats_own_board_goes_first_and_is_not_refused_for_others() -> None:
    queue = RenderQueue(renders=1, waiting=1)
    drawn: list[str] = []
    hold = asyncio.Event()

    async def picture(name: str, lane: str, address: str | None = None) -> str:
        try:
            async with queue.turn(lane, address):  # type: ignore[arg-type]
                drawn.append(name)
                if name == "first":
                    await hold.wait()
            return "drawn"
        except RenderQueueFull:
            return "refused"

    first = asyncio.create_task(picture("first", "others", "192.0.2.1"))
    await asyncio.sleep(0)
    second = asyncio.create_task(picture("second", "others", "192.0.2.2"))
    await asyncio.sleep(0)
    assert await picture("third", "others", "192.0.2.3") == "refused"  # the others' lane is full
    own = asyncio.create_task(picture("own", "own"))  # a player's board, the others' lane full
    await asyncio.sleep(0)
    assert queue.in_lane == {"own": 1, "others": 2}
    hold.set()
    assert [await first, await second, await own] == ["drawn"] * 3
    assert drawn == ["first", "own", "second"]  # the seat's board before the anonymous one waiting
    assert queue.admitted == 0 and queue.drawing == 0 and queue.by_address == {}


async def test_one_address_holds_at_most_two_anonymous_pictures() -> None:
    queue = RenderQueue(renders=5, waiting=5)
    hold = asyncio.Event()

    async def picture(address: str) -> str:
        try:
            async with queue.turn("others", address):
                await hold.wait()
            return "drawn"
        except RenderQueueFull as refused:
            assert refused.where == "request" and "this address" in str(refused)
            return "refused"

    tasks = [asyncio.create_task(picture("192.0.2.1")) for _ in range(4)]
    tasks.append(asyncio.create_task(picture("192.0.2.2")))
    await asyncio.sleep(0.01)
    hold.set()
    assert sorted(await asyncio.gather(*tasks)) == ["drawn"] * 3 + ["refused"] * 2


@pytest.fixture
async def host(store_url: str) -> AsyncIterator[Host]:
    async with hosting(store_url, ManualClock()) as opened:
        yield opened


async def test_anonymous_past_boards_never_crowd_out_a_players_own(host: Host) -> None:
    game = await host.started(7)
    for _ in range(4):
        phase = (await game.summary())["phase"]
        resolved = await game.client.post(f"{game.url}/resolve", json={"phase": phase}, headers=OPERATOR)
        assert resolved.status_code == 200, resolved.text
    phases = [entry["phase"] for entry in await game.resolutions()]
    host.store.kept(KeptPictures).pictures = Pictures(32 * 2**20, renders=1, waiting=0)
    player = game.player("FRANCE")

    async def own() -> int:
        return (await game.client.get(f"{game.url}/map.png", headers=player.auth)).status_code

    async def anonymous(phase: str) -> int:
        return (await game.client.get(f"{game.url}/map.png", params={"phase": phase})).status_code

    answers = await asyncio.gather(*(anonymous(phase) for phase in phases * 2), own())
    assert answers[-1] == 200  # the player's own board, whatever the anonymous load
    assert 503 in answers[:-1]
