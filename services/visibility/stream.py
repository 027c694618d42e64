"""A live stream per viewer (server-sent events) of what changes in their view of a game.

``GET /games/{id}/stream`` sends the viewer's own projection, never raw events:

- ``event: view`` with the whole view (``view.py``) whenever it differs from the last one sent;
- ``event: message`` for each press message the viewer may read, as ``GET .../messages`` shows it.

Each event's ``id`` is the global log position it reflects. A client that reconnects with
``Last-Event-ID: N`` gets exactly what changed after position N: the server rebuilds the view as
it was at N and compares, so nothing is missed and nothing is sent twice. Events the viewer may
not see (another power's orders, a private message between others) change nothing in the
projection, so they produce no event at all. The log is tailed with ``EventStore.wait_for_events``
(LISTEN/NOTIFY on PostgreSQL, polling on SQLite). A stream ends after ``timeout`` seconds (a
comment line keeps idle connections open meanwhile); the client reconnects with its last id.
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import StreamingResponse

from shared.auth import Caller
from shared.errors import BadRequest
from shared.events import game_stream, orders_prefix
from shared.events_social import press_stream
from shared.game.log import read_log_at
from shared.game.press import readable
from shared.game.state import GameState
from shared.http.dependencies import CurrentCaller, CurrentGame, StoreDep
from shared.http.observability import live_stream
from shared.store import EventStore
from shared.text import is_ascii_number

from .schemas import GameView
from .view import view_of, viewer_for

router = APIRouter(tags=["visibility"])

KEEP_ALIVE_SECONDS = 15.0
MAX_STREAM_SECONDS = 300.0
RETRY_MILLISECONDS = 2000


def belongs_to(stream_id: str, game_id: str) -> bool:
    """Whether a stream is one of the game's own: its events, its orders, its press."""
    return stream_id in (game_stream(game_id), press_stream(game_id)) or stream_id.startswith(orders_prefix(game_id))


def sse(event_id: int, kind: str, data: Any) -> str:
    return f"id: {event_id}\nevent: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def log_head(store: EventStore) -> int:
    """The position of the last event in the log (0 when empty)."""
    return await store.head()


async def view_at(store: EventStore, game_id: str, caller: Caller, power: str | None,
                  up_to: int) -> tuple[dict[str, Any] | None, GameState | None]:
    """The caller's view of the game as it was at log position ``up_to``, and the game then
    (None before the game existed)."""
    log, state = await read_log_at(store, game_id, up_to)
    if state is None:
        return None, None
    seen = view_of(state, log.submissions(state.phase), viewer_for(caller, state, power))
    return GameView.model_validate(seen).model_dump(mode="json"), state  # the same shape as GET .../view


def message_powers(caller: Caller, game: Any) -> list[str] | None:
    """Whose messages the caller reads: the operator all (None), a player their seat's, others public."""
    return None if caller.is_operator else game.powers_of(caller.player_id)


async def projection_stream(store: EventStore, game_id: str, caller: Caller, power: str | None,
                            last_event_id: int | None, seconds: float) -> AsyncIterator[str]:
    """The SSE text of one connection: changes after ``last_event_id`` (or the view now)."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + seconds
    head = await log_head(store)
    position = head if last_event_id is None else last_event_id
    shown, _ = await view_at(store, game_id, caller, power, position)
    yield f"retry: {RETRY_MILLISECONDS}\n\n"
    if last_event_id is None:
        yield sse(position, "view", shown)
    while (remaining := ends - loop.time()) > 0:
        records = await store.wait_for_events(position, timeout=min(remaining, KEEP_ALIVE_SECONDS))
        if not records:
            yield ": keep-alive\n\n"
            continue
        position = records[-1].position
        ours = [r for r in records if belongs_to(r.stream_id, game_id)]
        if not ours:
            continue
        latest, state = await view_at(store, game_id, caller, power, position)
        if state is None:
            continue
        press = (r for r in ours if r.stream_id == press_stream(game_id))
        for message in readable(press, message_powers(caller, state)):
            yield sse(message["position"], "message", message)
        if latest != shown:
            shown = latest
            yield sse(position, "view", latest)


@router.get("/games/{game_id}/stream", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}}}})
async def stream(game: CurrentGame, caller: CurrentCaller, store: StoreDep,
                 last_event_id: Annotated[str | None, Header(max_length=20)] = None,
                 power: Annotated[str | None, Query(max_length=20)] = None,
                 timeout: Annotated[float, Query(gt=0, le=MAX_STREAM_SECONDS)] = MAX_STREAM_SECONDS,
                 ) -> StreamingResponse:
    """Server-sent events of the caller's view (``view``) and readable messages (``message``),
    resumable with ``Last-Event-ID``; the stream ends after ``timeout`` seconds."""
    viewer_for(caller, game, power)  # 403 / 422 now, before the stream starts
    resume = None
    if last_event_id is not None:
        if not is_ascii_number(last_event_id.strip()):  # "²".isdigit() is true, int("²") fails
            raise BadRequest("Last-Event-ID must be an id this stream sent", code="invalid_last_event_id",
                             where="header.last-event-id")
        resume = int(last_event_id.strip())
        if resume > await log_head(store):
            raise BadRequest("Last-Event-ID is ahead of the log", code="invalid_last_event_id",
                             where="header.last-event-id")
    return StreamingResponse(live_stream(projection_stream(store, game.game_id, caller, power, resume, timeout)),
                             media_type="text/event-stream",
                             headers={"cache-control": "no-cache", "x-accel-buffering": "no"})
