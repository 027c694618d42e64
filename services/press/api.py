"""Press over HTTP: send a message, read the messages one may read.

Runs alone with ``entente serve --service press`` (``services.cli.serve``
builds the app: ``create_app`` is its factory); ``services.app`` serves it with the rest.
"""
from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, FastAPI, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from shared.auth import Caller
from shared.errors import BadRequest, ErrorCode, Unprocessable
from shared.game.conversations import MAX_NAME, NAME_PATTERN, PUBLIC, in_conversation, parse_name, recipients_of
from shared.game.press import MessageJSON
from shared.game.state import GameState
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


def message_page(readable: list[MessageJSON], cursor: str | None, limit: int) -> MessageList:
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


# ----------------------------------------------------------------------------- conversations

ConversationName = Annotated[str, Path(min_length=1, max_length=MAX_NAME, pattern=NAME_PATTERN, description=(
    '"all" (public messages), or the powers one writes with, separated by commas ("ENGLAND,FRANCE")'))]


class Conversation(BaseModel):
    id: str = Field(..., description='"all", or the correspondents\' powers, sorted, separated by commas')
    with_: Literal["all"] | list[str] = Field(..., alias="with", description=(
        "whom a message sent into it goes to: everyone, or these powers"))
    messages: int = Field(..., description="how many messages it holds that the caller reads")
    last_message: Message | None
    unread: int = Field(..., description=(
        "messages of others after the seat's read mark and after its own last message there"))


class ConversationList(BaseModel):
    conversations: list[Conversation] = Field(..., description=(
        "the latest first; the public conversation is always listed"))
    unread: int = Field(..., description="the unread messages of every conversation together")


class SendIntoConversation(RequestBody):
    model_config = ConfigDict(populate_by_name=True,
                              json_schema_extra={"examples": [{"text": "Channel stays empty?"}]})
    text: UserText = Field(..., min_length=1, max_length=service.MAX_TEXT)
    sender: PowerName | None = Field(None, alias="from", description=(
        "which of the seat's powers signs (only for seats of several powers; default: the first)"))


class MarkRead(RequestBody):
    model_config = ConfigDict(json_schema_extra={"examples": [{}, {"through": "m_1c0e9a2b3c4d5e6f"}]})
    through: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = Field(None, description=(
        "the id of the last message read (default: the conversation's last)"))


def correspondents(game: GameState, powers: list[str] | None, raw: str) -> str:
    """The conversation a path names, checked: ``all``, or powers of this game, not all of them
    the caller's own (422 ``invalid_request``, ``unknown_power``, ``no_recipient``); the
    caller's own powers left out, as the conversation's name leaves them out."""
    name = parse_name(raw)
    if name == PUBLIC:
        return name
    named = recipients_of(name)
    unknown = [p for p in named if p not in game.codenames_by_power()]
    if unknown:
        raise Unprocessable(f"not a power of this game: {', '.join(unknown)}", code=ErrorCode.UNKNOWN_POWER,
                            where="path.conversation")
    others = [p for p in named if p not in (powers or ())]
    if not others:
        raise Unprocessable("a conversation is with powers another player plays", code=ErrorCode.NO_RECIPIENT,
                            where="path.conversation")
    return ",".join(others)


def reader_powers(game: GameState, caller: Caller) -> list[str] | None:
    """Whose messages the caller reads: the operator's (None) all, a seat's its own, others public."""
    return None if caller.is_operator else game.powers_of(caller.player_id)


@router.get("/games/{game_id}/conversations", response_model=ConversationList, response_model_by_alias=True)
async def list_conversations(game: CurrentGame, caller: CurrentCaller, store: StoreDep) -> ConversationList:
    """The caller's conversations (docs/social.md, "Conversations"): one per set of
    correspondents and the public one, each with its last message and its unread count. Without
    a player token: the public conversation alone, never unread."""
    listed = await service.list_conversations(store, game.game_id, reader_powers(game, caller), caller.player_id)
    return ConversationList.model_validate({"conversations": listed, "unread": sum(c["unread"] for c in listed)})


@router.get("/games/{game_id}/conversations/{conversation}/messages", response_model=MessageList,
            response_model_by_alias=True)
async def conversation_messages(game: CurrentGame, caller: CurrentCaller, store: StoreDep,
                                conversation: ConversationName,
                                cursor: Annotated[str | None, Query(max_length=MAX_CURSOR_LENGTH, description=(
                                    "next_cursor of an earlier answer: only the messages after it"))] = None,
                                limit: Annotated[int, Query(ge=1, le=500)] = DEFAULT_LIMIT) -> MessageList:
    """One conversation's messages, oldest first, a page at a time (positions as in
    ``/messages``: among everything the caller reads)."""
    powers = reader_powers(game, caller)
    name = correspondents(game, powers, conversation)
    held = in_conversation(await service.read_messages(store, game.game_id, powers), name, powers)
    return message_page(held, cursor, limit)


@router.post("/games/{game_id}/conversations/{conversation}/messages", status_code=201, response_model=Message,
             response_model_by_alias=True, dependencies=[rate_limited("press")])
async def send_into_conversation(game: CurrentGame, caller: CurrentPlayer, store: StoreDep, request: Request,
                                 now: Now, conversation: ConversationName,
                                 body: SendIntoConversation) -> Message:
    """A message to the conversation's correspondents (or everyone), as ``POST /messages`` with
    their powers in ``to``: the game's press rules apply alike."""
    assert caller.player_id is not None
    name = correspondents(game, game.powers_of(caller.player_id), conversation)
    sent = await service.send_message(store, game.game_id, caller.player_id, body.sender, recipients_of(name),
                                      body.text, request_metadata(request, "player", caller.player_id), now=now)
    return Message.model_validate(sent)


@router.post("/games/{game_id}/conversations/{conversation}/read", response_model=Conversation,
             response_model_by_alias=True)
async def mark_conversation_read(game: CurrentGame, caller: CurrentPlayer, store: StoreDep, request: Request,
                                 conversation: ConversationName, body: MarkRead) -> Conversation:
    """Mark the conversation read up to a message (default: its last): stored for the seat, so
    every device of the seat reads the same unread counts."""
    assert caller.player_id is not None
    powers = game.powers_of(caller.player_id)
    name = correspondents(game, powers, conversation)
    marked = await service.mark_read(store, game.game_id, caller.player_id, powers, name, body.through,
                                     request_metadata(request, "player", caller.player_id))
    return Conversation.model_validate(marked)


def create_app(settings: Settings | None = None) -> FastAPI:
    return build_app("Entente press", [router], settings)
