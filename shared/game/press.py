"""Who may send which press message, who reads it, and where it stands among what they read: pure. A message is
public (``to: "all"``) or private to its sender and recipients; the operator reads everything.
The press service and the live stream both show messages through ``readable``.

A message's ``position`` is its place among the messages *that viewer* may read (1, 2, 3, ...),
never its place in the log: the log's positions count every event of every stream, so they
would tell a reader how many private messages, orders and votes came in between
(docs/social.md, "Cursors that count only what the viewer sees").
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict

from shared.errors import ErrorCode, Forbidden, Unprocessable
from shared.events import from_recorded
from shared.events_social import MessageSent
from shared.store import RecordedEvent

from .guards import require_own_power, require_seat_powers, require_started, require_surviving
from .state import GameState

MAX_TEXT = 2000  # characters of a message's text


def visible_to(message: MessageSent, powers: Iterable[str] | None) -> bool:
    """Whether a viewer playing ``powers`` may read it (None: the operator, who reads all)."""
    if powers is None or message.recipients is None:
        return True
    return bool(set(powers) & ({message.sender} | set(message.recipients)))


class MessageSender(TypedDict):
    power: str
    codename: str


# A message as a viewer reads it (``message_json``; docs/social.md): the functional form, since
# one of its keys is ``from``.
MessageJSON = TypedDict("MessageJSON", {
    "id": str, "position": int, "phase": str, "from": MessageSender, "to": str | list[str], "text": str,
    "sent_at": str,
})


def message_json(message: MessageSent, record: RecordedEvent, position: int) -> MessageJSON:
    """The message as a viewer sees it, ``position`` being its place among what they read."""
    return {"id": message.message_id, "position": position, "phase": message.phase,
            "from": {"power": message.sender, "codename": message.codename},
            "to": "all" if message.recipients is None else list(message.recipients),
            "text": message.text, "sent_at": (message.sent_at or record.recorded_at).isoformat()}


def messages_of(records: Iterable[RecordedEvent]) -> list[tuple[MessageSent, RecordedEvent]]:
    """The messages of a press stream's records, in stream order."""
    out = []
    for record in records:
        message = from_recorded(record)
        if isinstance(message, MessageSent):
            out.append((message, record))
    return out


def readable(records: Iterable[RecordedEvent], powers: Iterable[str] | None,
             after: int = 0) -> list[MessageJSON]:
    """The messages a viewer playing ``powers`` may read, numbered 1, 2, ... among those, of
    which the ones numbered above ``after``. ``records`` is the whole press stream from its
    first version (the numbering counts from there). ``powers`` None: everything (operator);
    an empty list: public messages only."""
    powers = None if powers is None else list(powers)
    out: list[MessageJSON] = []
    place = 0
    for message, record in messages_of(records):
        if visible_to(message, powers):
            place += 1
            if place > after:
                out.append(message_json(message, record, place))
    return out


# ----------------------------------------------------------------------------- who may send what

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
