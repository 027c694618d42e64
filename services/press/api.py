"""Press over HTTP: send a message, read the messages one may read.

Runs alone with ``uvicorn services.press.api:app``; ``services.app`` serves it with the rest.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from shared.http.app import build_app
from shared.http.dependencies import CurrentCaller, CurrentGame, CurrentPlayer, StoreDep, request_metadata
from shared.settings import Settings
from shared.text import UserText

from . import service

router = APIRouter(tags=["press"])

PowerName = Annotated[str, StringConstraints(min_length=1, max_length=20)]


class SendMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
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
    sent_at: str


class MessageList(BaseModel):
    messages: list[Message]


@router.post("/games/{game_id}/messages", status_code=201, response_model=Message, response_model_by_alias=True)
async def send(game: CurrentGame, caller: CurrentPlayer, body: SendMessage, store: StoreDep,
               request: Request) -> dict[str, Any]:
    """Send a public message (``"to": "all"``) or a private one to some powers, signed by your
    power and codename."""
    assert caller.player_id is not None
    return await service.send_message(store, game.game_id, caller.player_id, body.sender, body.to, body.text,
                                      request_metadata(request, "player", caller.player_id))


@router.get("/games/{game_id}/messages", response_model=MessageList, response_model_by_alias=True)
async def read(game: CurrentGame, caller: CurrentCaller, store: StoreDep,
               after: Annotated[int, Query(ge=0, le=2**53, description=(
                   "only the messages after this place among those the caller reads (a "
                   "message's position)"))] = 0) -> dict:
    """The messages the caller may read: public ones, and private ones they sent or received.
    Without a player token: public messages only; the operator reads everything."""
    powers = None if caller.is_operator else game.powers_of(caller.player_id)
    return {"messages": await service.read_messages(store, game.game_id, powers, after)}


def create_app(settings: Settings | None = None):
    return build_app("Entente press", [router], settings)


app = create_app()
