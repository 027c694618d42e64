"""A live stream per viewer (server-sent events) of what changes in their view of a game.

``GET /games/{id}/stream`` sends the viewer's own projection, never raw events:

- ``event: view`` with the whole view (``view.py``) whenever it differs from the last one sent;
- ``event: message`` for each press message the viewer may read, as ``GET .../messages`` shows it;
- ``event: closed`` (no id) when the server ends the stream before its timeout: the credential
  was revoked, the client reads too slowly, or the log cannot be read.

Each id is a cursor that counts only what the viewer sees (cursors.py): ``Last-Event-ID`` (or
``?last_event_id=``) resumes exactly after it. Events the viewer may not see change nothing in
the projection, so they produce no event and no id. The streams of a process share one tailer
of the log and one rendering of each distinct view (hub.py). A browser, whose EventSource sends
no Authorization header, opens the stream with a single-use ticket (``POST .../stream-ticket``,
tickets.py). docs/social.md, "The live stream", has the contract.
"""
from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel
from starlette.background import BackgroundTask

from shared.errors import BadRequest, ErrorCode, Unauthorized
from shared.http.dependencies import BearerToken, CurrentCaller, CurrentGame, Now, StoreDep
from shared.http.observability import live_stream
from shared.http.rate_limits import rate_limited
from shared.http.stream_leases import close_shared_streams

from .credential import caller_of, credential_of, direct_lookups
from .cursors import MAX_CURSOR_LENGTH, Cursor, cursor_key, parse_cursor
from .document import add_visibility  # noqa: F401  (tagged positions, the stream's events in the document)
from .hub import StreamHub, Watcher, close_hub, hub_for
from .limits import Slot, take_everywhere
from .tickets import MAX_TICKET_LENGTH, issue_ticket, redeem_ticket
from .view import viewer_for

KEEP_ALIVE_SECONDS = 15.0
MAX_STREAM_SECONDS = 300.0
RETRY_MILLISECONDS = 2000
TOKEN_PARAMETERS = ("token", "access_token")


async def no_token_in_url(request: Request) -> None:
    """Long-lived tokens never go into URLs (they land in proxy logs): refuse them loudly."""
    for name in TOKEN_PARAMETERS:
        if name in request.query_params:
            raise BadRequest(f"tokens do not go into URLs (?{name}=): send 'Authorization: Bearer <token>', "
                             "or from a browser ask POST /games/{id}/stream-ticket for a ticket and pass ?ticket=",
                             code=ErrorCode.TOKEN_IN_URL, where=f"query.{name}")


@asynccontextmanager
async def streams_lifespan(app: Any) -> AsyncIterator[None]:
    """Inside the app's own lifespan (FastAPI merges a router's): the keeper of this process's
    stream leases and the streams' tailer stop before the store closes."""
    yield
    await close_shared_streams(app)
    store = getattr(app.state, "store", None)
    if store is not None:
        await close_hub(store)


router = APIRouter(tags=["visibility"], dependencies=[Depends(no_token_in_url)], lifespan=streams_lifespan)


def closed_event(reason: str) -> bytes:
    return b'event: closed\ndata: {"reason":"' + reason.encode("ascii") + b'"}\n\n'


async def sse_bytes(hub: StreamHub, watcher: Watcher, seconds: float, slot: Slot) -> AsyncIterator[bytes]:
    """The SSE bytes of one connection: what the hub queues for the watcher (keep-alive
    comments included, every ``KEEP_ALIVE_SECONDS`` on a fixed schedule whatever happens in
    the log), until ``seconds`` have passed or the hub closes it."""
    watcher.start_timers(seconds, KEEP_ALIVE_SECONDS)
    # the reconnection delay goes out in the first event's block, not in a block of its own,
    # which some clients (httpx-sse) hand on as an event with no data (docs/social.md)
    retry = b"retry: %d\n" % RETRY_MILLISECONDS
    try:
        while True:
            if data := watcher.take():
                yield retry + data if retry else data
                retry = b""
                watcher.sent()
            if watcher.closed:
                yield closed_event(watcher.closed)
                return
            if watcher.expired:
                return
            await watcher.wake.wait()
    finally:
        watcher.stop_timers()
        hub.leave(watcher)
        slot.release()


async def left(hub: StreamHub, watcher: Watcher, slot: Slot) -> None:
    """After the response, in case the body never ran (``async``: a plain function would be
    run in a worker thread, away from the event loop the hub lives on)."""
    hub.leave(watcher)
    slot.release()


def _cursor(header: str | None, query: str | None) -> tuple[Cursor | None, str]:
    """The cursor to resume after: the header (EventSource sets it when it reconnects by
    itself) before the query parameter (a page that opens a new EventSource passes it so)."""
    if header is not None:
        return parse_cursor(header, "header.last-event-id"), "header.last-event-id"
    if query is not None:
        return parse_cursor(query, "query.last_event_id"), "query.last_event_id"
    return None, ""


@router.get("/games/{game_id}/stream", response_class=StreamingResponse, dependencies=[rate_limited("stream")],
            responses={200: {"content": {"text/event-stream": {}}}})
async def game_stream(game: CurrentGame, caller: CurrentCaller, token: BearerToken, store: StoreDep, request: Request,
                 now: Now,
                 last_event_id: Annotated[str | None, Header(max_length=MAX_CURSOR_LENGTH)] = None,
                 last_event_id_query: Annotated[str | None, Query(
                     alias="last_event_id", max_length=MAX_CURSOR_LENGTH,
                     description="the id to resume after, where a Last-Event-ID header cannot be sent")] = None,
                 ticket: Annotated[str | None, Query(
                     max_length=MAX_TICKET_LENGTH,
                     description="a ticket from POST /games/{id}/stream-ticket, instead of a token")] = None,
                 power: Annotated[str | None, Query(max_length=20)] = None,
                 timeout: Annotated[float, Query(gt=0, le=MAX_STREAM_SECONDS)] = MAX_STREAM_SECONDS,
                 ) -> StreamingResponse:
    """Server-sent events of the caller's view (``view``) and readable messages (``message``),
    resumable with ``Last-Event-ID``; the stream ends after ``timeout`` seconds."""
    resume, where = _cursor(last_event_id, last_event_id_query)
    operator_hash: str = request.app.state.operator_hash
    if ticket is not None:
        if token is not None:
            raise BadRequest("send a ticket or an Authorization header, not both", code=ErrorCode.TICKET_AND_TOKEN,
                             where="query.ticket")
        credential = await redeem_ticket(store, game.game_id, ticket, now)
        found = await caller_of(credential, game, operator_hash, direct_lookups(store))
        if found is None:
            raise Unauthorized("the credential this ticket was issued for is no longer valid",
                               code=ErrorCode.INVALID_TICKET, where="query.ticket")
        caller = found
    else:
        credential = credential_of(caller, token)
    viewer_for(caller, game, power)  # 403 / 422 now, before the stream starts
    settings = request.app.state.settings
    slot = await take_everywhere(request.app, store, request.client.host if request.client else None,
                                 caller)  # else 429
    hub = hub_for(store, settings.stream_coalesce_seconds)
    watcher = Watcher(game.game_id, caller, power, credential, operator_hash, cursor_key(operator_hash),
                      resume=resume, resume_where=where or "header.last-event-id")
    watcher.max_queued = settings.stream_max_queued_kib * 1024
    try:
        await hub.join(watcher)
    except BaseException:
        slot.release()
        raise
    return StreamingResponse(live_stream(sse_bytes(hub, watcher, timeout, slot)), media_type="text/event-stream",
                             headers={"cache-control": "no-cache", "x-accel-buffering": "no"},
                             background=BackgroundTask(left, hub, watcher, slot))


class StreamTicket(BaseModel):
    ticket: str
    expires_at: str


@router.post("/games/{game_id}/stream-ticket", status_code=201, response_model=StreamTicket)
async def stream_ticket(game: CurrentGame, caller: CurrentCaller, token: BearerToken, store: StoreDep,
                        now: Now) -> StreamTicket:
    """A single-use ticket, valid for a minute, that opens this game's stream as the caller
    (``GET /games/{id}/stream?ticket=``): for a browser's EventSource, which cannot send an
    Authorization header. The store keeps only its hash (docs/social.md)."""
    ticket, expires_at = await issue_ticket(store, game.game_id, credential_of(caller, token), now)
    return StreamTicket(ticket=ticket, expires_at=expires_at.isoformat())
