"""Press: messages between powers, stored as MessageSent events in ``press-{game_id}``.

A message is public (``to: "all"``) or private to a set of powers; its participants are its
sender and recipients. It is signed by power and codename, never by player. The game's
``press`` setting decides what may be sent: "full" (anything), "public" (public messages only)
or "none" (gunboat). Checks run under the game row's share lock, like order submissions, so a
message is never accepted after the GameFinished it raced with has committed.
"""
from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from shared.errors import ErrorCode, Forbidden, Unprocessable
from shared.events import to_new_event
from shared.events_social import MessageSent, press_stream
from shared.game.guards import require_own_power, require_seat_powers, require_started, require_surviving
from shared.game.press import message_json, readable
from shared.game.repository import read_state
from shared.game.state import GameState
from shared.store import EventStore

MAX_TEXT = 2000


# ----------------------------------------------------------------------------- pure rules

@dataclass(frozen=True, slots=True)
class Draft:
    sender: str
    codename: str
    recipients: list[str] | None  # None: public
    text: str


def check_message(state: GameState, player_id: str, sender: str | None, to: str | Sequence[str],
                  text: str) -> Draft:
    """The message a seat may send, or the 4xx that says why not (nothing is written then)."""
    require_started(state)
    powers = require_seat_powers(state, player_id)
    power = require_own_power(state, player_id, sender, "body.from") if sender is not None else powers[0]
    require_surviving(state, power, "send messages")
    press = state.settings.press
    if press == "none":
        raise Forbidden("this is a gunboat game: no messages", code=ErrorCode.PRESS_DISABLED, where="body")
    recipients = _recipients(state, powers, to)
    if recipients is not None and press == "public":
        raise Forbidden("this game allows public messages only (to: \"all\")", code=ErrorCode.PRIVATE_PRESS_DISABLED,
                        where="body.to")
    if not text.strip():
        raise Unprocessable("a message needs some text", code=ErrorCode.INVALID_REQUEST, where="body.text")
    seat = state.seat(player_id)
    assert seat is not None
    return Draft(power, seat.codename, recipients, text)


def _recipients(state: GameState, seat: Sequence[str], to: str | Sequence[str]) -> list[str] | None:
    """The powers a private message goes to: those named that another seat plays. The sender's
    own seat already reads it, whichever of its powers signs (docs/social.md)."""
    if isinstance(to, str):
        if to.lower() != "all":
            raise Unprocessable('"to" is "all" or a list of powers', code=ErrorCode.INVALID_REQUEST, where="body.to")
        return None
    in_game = set(state.codenames_by_power())
    wanted = sorted({p.upper() for p in to})
    unknown = [p for p in wanted if p not in in_game]
    if unknown:
        raise Unprocessable(f"not a power of this game: {', '.join(unknown)}",
                            code=ErrorCode.UNKNOWN_POWER, where="body.to")
    others = [p for p in wanted if p not in seat]
    if not others:
        raise Unprocessable("a private message needs at least one power another player plays",
                            code=ErrorCode.NO_RECIPIENT, where="body.to")
    return others


# ----------------------------------------------------------------------------- store

async def send_message(store: EventStore, game_id: str, player_id: str, sender: str | None,
                       to: str | Sequence[str], text: str, metadata: dict[str, Any] | None = None, *,
                       now: datetime) -> dict[str, Any]:
    async with store.transaction(game_id, lock="share") as tx:
        state = await read_state(tx, game_id)
        draft = check_message(state, player_id, sender, to, text)
        message = MessageSent(message_id="m_" + secrets.token_hex(8), phase=state.phase or "",
                              sender=draft.sender, codename=draft.codename, recipients=draft.recipients,
                              text=draft.text, sent_at=now)
        [record] = await tx.events.append(press_stream(game_id), [to_new_event(message, metadata)],
                                          expected_version=None)
        # its place among the messages the sender's seat reads; the new message is the stream's
        # last until this transaction ends (an append after the end locks the stream on
        # PostgreSQL, and SQLite has one writer: docs/store.md)
        place = len(readable(await tx.events.read_stream(press_stream(game_id)), state.powers_of(player_id)))
    return message_json(message, record, place)


async def read_messages(store: EventStore, game_id: str, powers: Iterable[str] | None,
                        after: int = 0) -> list[dict[str, Any]]:
    """The messages a viewer playing ``powers`` reads, numbered among those (shared/game/press.py),
    of which those numbered above ``after``."""
    return readable(await store.events.read_stream(press_stream(game_id)), powers, after)
