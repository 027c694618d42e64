"""What a watcher is sent of the history (docs/social.md, "Frames that send only what is new"):
every view event in one shape; the first of a connection has the whole history page
(``history_reset``); later ones only the resolved phases added since, and a client that
appends them has exactly what GET /view shows, as the page slides past 20 phases, for each
viewer its own history; a new connection (late or resumed) starts with the whole page again.
On a real uvicorn, both back ends."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from tests.utils.http import Table, started_table

from .sse import read_events, served, whole_views

RESOLUTIONS = 23  # past the 20 phases of a page, so that it slides and history_before is set
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


class Reader:
    """One connection read as a client reads it: events in order, views made whole."""

    def __init__(self, response: httpx.Response) -> None:
        self.lines = response.aiter_lines()
        self.events: list[dict[str, Any]] = []

    async def next_view(self) -> dict[str, Any]:
        """The next view event, made whole by appending to the page of the ones before."""
        while True:
            [event] = await asyncio.wait_for(read_events(self.lines, 1), 10)
            self.events.append(event)
            if event["event"] == "view":
                return whole_views(self.events)[-1]["data"]


def stream_url(base: str, table: Table, **params: Any) -> tuple[str, dict[str, Any]]:
    return f"{base}/games/{table.game_id}/stream", {"timeout": 60, **params}


@asynccontextmanager
async def game_served(backend: str, request: pytest.FixtureRequest,
                      provider_url: str) -> AsyncIterator[tuple[str, Table, httpx.AsyncClient]]:
    """A started game on a real uvicorn over ``backend``: (base URL, its table, a client to watch with)."""
    database_url = request.getfixturevalue("sqlite_url" if backend == "sqlite" else "postgres_url")
    with served(database_url, provider_url) as base:
        async with httpx.AsyncClient(base_url=base, timeout=20) as api, httpx.AsyncClient(timeout=20) as browser:
            yield base, await started_table(api), browser


@pytest.mark.parametrize("backend", BACKENDS)
async def test_appending_the_frames_gives_what_get_view_shows(backend: str, request: pytest.FixtureRequest,
                                                              provider_url: str) -> None:
    async with game_served(backend, request, provider_url) as (base, table, browser):
        url, params = stream_url(base, table)
        async with (browser.stream("GET", url, params=params, headers=table.player("FRANCE")) as france,
                    browser.stream("GET", url, params=params) as public):
            readers = {"FRANCE": Reader(france), None: Reader(public)}
            for power, reader in readers.items():
                first = await reader.next_view()
                frame = reader.events[0]["data"]
                assert "history" not in frame and frame["history_reset"] is True
                assert first == await table.view(power) and frame["history_added"] == first["history"]
            phase = "S1901M"
            for number in range(RESOLUTIONS):
                if number % 5 == 0:  # a view change without a resolution: nothing added
                    await table.order_ok("FRANCE", ["A PAR H"])
                    for power, reader in readers.items():
                        assert await reader.next_view() == await table.view(power)
                        assert reader.events[-1]["data"]["history_added"] == []
                        assert reader.events[-1]["data"]["history_reset"] is False
                phase = (await table.resolve(phase))["next_phase"]
                for power, reader in readers.items():
                    assert await reader.next_view() == await table.view(power)
                    frame = reader.events[-1]["data"]
                    assert "history" not in frame and len(frame["history_added"]) == 1
                    assert frame["history_reset"] is False
        ended = await table.view("FRANCE")
        assert len(ended["history"]) == 20 and ended["history_before"] is not None
        assert [e["phase"] for e in ended["history"]][-1] != "S1901M"


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_new_connection_starts_with_the_whole_history(backend: str, request: pytest.FixtureRequest,
                                                              provider_url: str) -> None:
    async with game_served(backend, request, provider_url) as (base, table, browser):
        phase = "S1901M"
        for _ in range(3):
            phase = (await table.resolve(phase))["next_phase"]
        url, params = stream_url(base, table)
        async with browser.stream("GET", url, params=params, headers=table.player("ENGLAND")) as late:
            reader = Reader(late)
            first = await reader.next_view()
            assert reader.events[0]["data"]["history_added"] == first["history"]
            assert reader.events[0]["data"]["history_reset"] is True
            assert first == await table.view("ENGLAND") and len(first["history"]) == 3
            phase = (await table.resolve(phase))["next_phase"]
            await reader.next_view()
            last_id = reader.events[-1]["id"]
        await table.resolve(phase)
        # resumed after its last id: the view it missed comes whole
        params["last_event_id"] = last_id
        async with browser.stream("GET", url, params=params, headers=table.player("ENGLAND")) as resumed:
            reader = Reader(resumed)
            again = await reader.next_view()
            assert len(reader.events[-1]["data"]["history_added"]) == 5 and reader.events[-1]["data"]["history_reset"]
            assert again == await table.view("ENGLAND")


@pytest.mark.parametrize("backend", BACKENDS)
async def test_an_sse_client_gets_a_real_event_first(backend: str, request: pytest.FixtureRequest,
                                                     provider_url: str) -> None:
    """httpx-sse, as a Python bot reads the stream: its first event is the view (with the
    reconnection delay), never an event with no data; nor is any event after it."""
    from httpx_sse import aconnect_sse

    async with game_served(backend, request, provider_url) as (base, table, browser):
        url, params = stream_url(base, table, timeout=5)
        async with aconnect_sse(browser, "GET", url, params=params, headers=table.player("FRANCE")) as source:
            events = source.aiter_sse()
            first = await asyncio.wait_for(anext(events), 10)
            assert first.event == "view" and first.retry == 2000 and first.id, first
            assert first.json()["history_reset"] is True and first.json()["viewer"]["power"] == "FRANCE"
            await table.order_ok("FRANCE", ["A PAR H"])
            second = await asyncio.wait_for(anext(events), 10)
            assert second.event == "view" and second.data and second.retry is None


def test_keep_alives_and_the_retry_line_are_no_events_to_httpx_sse() -> None:
    """The bytes the game stream sends around its events (the retry line in the first block,
    keep-alive comments between events), read by httpx-sse's own decoder: exactly the events
    sent, none empty, even after an id has been seen (httpx-sse dispatches a bare blank line then)."""
    from httpx_sse._decoders import SSEDecoder, SSELineDecoder

    from services.visibility.hub import KEEP_ALIVE, sse
    from services.visibility.stream import RETRY_MILLISECONDS

    sent = (b"retry: %d\n" % RETRY_MILLISECONDS + KEEP_ALIVE + sse("0.1234567890abcdef", "view", b"{}")
            + KEEP_ALIVE + KEEP_ALIVE + sse("1.1234567890abcdef", "message", b'{"n":1}') + KEEP_ALIVE)
    decoder, lines = SSEDecoder(), SSELineDecoder()
    events = [event for line in lines.decode(sent.decode()) if (event := decoder.decode(line)) is not None]
    assert [(e.event, e.data, e.retry) for e in events] == [("view", "{}", 2000), ("message", '{"n":1}', None)]
