"""The map a notification carries is remembered (docs/social.md, "Discord"): every delivery
attempt and every recipient with the same view shares one drawing, the public one with
``GET .../map.png`` itself, and it is drawn in the render queue, in turn with everyone's."""
from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from services.visibility.maps.attachments import notification_map
from services.visibility.maps.cache import KeptPictures
from shared.clock import ManualClock
from tests.utils.http import OPERATOR, Host, hosting

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
async def host(store_url: str) -> AsyncIterator[Host]:
    async with hosting(store_url, ManualClock()) as opened:
        yield opened


async def test_a_notification_picture_is_drawn_once_for_every_attempt(host: Host) -> None:
    game = await host.started(7)
    resolved = await host.client.post(f"{game.url}/resolve", json={"phase": "S1901M"}, headers=OPERATOR)
    assert resolved.status_code == 200, resolved.text
    settings = host.client._transport.app.state.settings  # type: ignore[attr-defined]  # the app's own
    first = await notification_map(host.store, settings, game.game_id, None, "S1901M")
    assert first is not None and first.startswith(PNG_SIGNATURE)
    pictures = host.store.kept(KeptPictures).pictures
    assert pictures is not None
    drawn = pictures.requests.misses
    for _ in range(8):  # retried deliveries, other channels of the same game
        assert await notification_map(host.store, settings, game.game_id, None, "S1901M") == first
    france = await notification_map(host.store, settings, game.game_id, "FRANCE", "S1901M")
    assert france is not None and france.startswith(PNG_SIGNATURE)
    assert await notification_map(host.store, settings, game.game_id, "FRANCE", "S1901M") == france
    assert pictures.requests.misses == drawn + 2  # only France's picture was drawn (looked for twice)
    assert pictures.queue.admitted == 0
    public = await host.client.get(f"{game.url}/map.png", params={"phase": "S1901M"})
    assert public.status_code == 200 and public.content == first
    assert pictures.requests.misses == drawn + 2  # the public's own request found the notification's
