"""Press over HTTP: send a message, read the messages one may read.

Runs alone with ``entente serve --service press`` (``services.cli.serve``
builds the app: ``create_app`` is its factory); ``services.app`` serves it with the rest.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from shared.errors import BadRequest, ErrorCode
from shared.http.app import build_app
from shared.http.dependencies import CurrentCaller, CurrentGame, CurrentPlayer, Now, StoreDep, request_metadata
from shared.http.models import DateTimeText, RequestBody
from shared.http.paging import DEFAULT_LIMIT, MAX_CURSOR_LENGTH, decode_cursor, encode_cursor
from shared.http.rate_limits import rate_limited
from shared.settings import Settings
from shared.text import UserText

from . import service

router = APIRouter(tags=["press"])

PowerName = Annotated[str, StringConstraints(min_length=1, max_length=20)]


class SendMessage(RequestBody):
    model_config = ConfigDict(populate_by_name=True,
                              json_schema_extra={"examples": [{"to": ["ENGLAND"], "text": "Channel stays empty?"},
                                                              {"to": "all", "text": "Good luck, all."}]})
    to: Literal["all"] | Annotated[list[PowerName], Field(min_length=1, max_length=10)] = Field(
        ..., description='"all" for a public message, or the powers of a private one')
    text: UserText = Field(..., min_length=1, max_length=service.MAX_TEXT)
    sender: PowerName | None = Field(None, alias="from", description=(
        "which of the seat's powers signs (only for seats of several powers; default: the first)"))


class Signature(BaseModel):
    power: str
    codename: str


class Message(BaseModel):
    id: str
    position: int = Field(..., description=(
        "the message's place among the messages the caller may read (1, 2, 3, ...); it counts "
        "nothing the caller may not see"))
    phase: str
    sender: Signature = Field(..., alias="from")
    to: Literal["all"] | list[str]
    text: str
    sent_at: DateTimeText


class MessageList(BaseModel):
    messages: list[Message]
    next_cursor: str | None = Field(None, description=(
        "the cursor after the last message of this page: pass it as ?cursor= for the messages that follow, "
        "now or later (null: no message yet)"))
    more: bool = Field(False, description="more messages follow already: ask again with next_cursor")


@router.post("/games/{game_id}/messages", status_code=201, response_model=Message, response_model_by_alias=True,
             dependencies=[rate_limited("press")])
async def send_message(game: CurrentGame, caller: CurrentPlayer, body: SendMessage, store: StoreDep,
               request: Request, now: Now) -> Message:
    """Send a public message (``"to": "all"``) or a private one to some powers, signed by your
    power and codename."""
    assert caller.player_id is not None
    sent = await service.send_message(store, game.game_id, caller.player_id, body.sender, body.to, body.text,
                                      request_metadata(request, "player", caller.player_id), now=now)
    return Message.model_validate(sent)


@router.get("/games/{game_id}/messages", response_model=MessageList, response_model_by_alias=True)
async def list_messages(game: CurrentGame, caller: CurrentCaller, store: StoreDep,
               after: Annotated[int, Query(ge=0, le=2**53, description=(
                   "only the messages after this place among those the caller reads (a "
                   "message's position)"))] = 0,
               cursor: Annotated[str | None, Query(max_length=MAX_CURSOR_LENGTH, description=(
                   "next_cursor of an earlier answer: only the messages after it"))] = None,
               limit: Annotated[int, Query(ge=1, le=500)] = DEFAULT_LIMIT) -> MessageList:
    """The messages the caller may read, oldest first, a page at a time: public ones, and
    private ones they sent or received. Without a player token: public messages only; the
    operator reads everything."""
    powers = None if caller.is_operator else game.powers_of(caller.player_id)
    readable = await service.read_messages(store, game.game_id, powers, after)
    return message_page(readable, cursor, limit)


def message_page(readable: list[dict[str, Any]], cursor: str | None, limit: int) -> MessageList:
    """A page of the messages a caller reads. The cursor names the last message a page held by
    its id, which its reader saw: it counts nothing else of the log, and one made by a reader
    of other messages points at none of this reader's (400 invalid_cursor)."""
    start = 0
    if cursor is not None:
        last = decode_cursor(cursor, "messages").get("m")
        start = next((i + 1 for i, m in enumerate(readable) if m["id"] == last), -1)
        if start < 0:
            raise BadRequest("this cursor names no message you read; start again without one",
                             code=ErrorCode.INVALID_CURSOR, where="query.cursor")
    page = readable[start:start + limit]
    next_cursor = encode_cursor("messages", m=page[-1]["id"]) if page else cursor
    return MessageList.model_validate({"messages": page, "next_cursor": next_cursor,
                                       "more": start + limit < len(readable)})


def create_app(settings: Settings | None = None) -> FastAPI:
    return build_app("Entente press", [router], settings)
