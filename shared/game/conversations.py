"""Press as conversations, pure: the messages a seat reads, grouped by the powers it writes
with, each conversation with its last message and its own unread count (docs/social.md,
"Conversations").

A conversation is named as its reader sees it: ``"all"`` for public messages, else the powers
of a private message's participants (its sender and recipients) other than the reader's own,
sorted and joined by commas (``"ENGLAND,FRANCE"``). So a conversation holds nothing its reader
may not read (it is built from ``readable``'s messages alone), and its name holds only powers
those messages already name: never a player, never a codename behind a power.

Unread: the messages of a conversation after the later of the seat's read mark
(ConversationRead) and the seat's own last message there, not counting its own. A mark names a
message by id, not by position: the positions a seat reads move when its seat gains a power
(the two-player game's Italy), the ids do not.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypedDict

from shared.errors import ErrorCode, Unprocessable
from shared.events import from_recorded
from shared.events_social import ConversationRead
from shared.store import RecordedEvent

from .press import MessageJSON

PUBLIC = "all"

# One conversation as a reader lists it (``conversations``; docs/social.md): the functional
# form, since one of its keys is ``with``.
ConversationJSON = TypedDict("ConversationJSON", {
    "id": str, "with": str | list[str], "messages": int, "last_message": MessageJSON | None, "unread": int,
})
MAX_NAME = 10 * 21  # ten powers of at most 20 letters and their commas
# what ``parse_name`` reads, for the OpenAPI document: "all" in any case, or up to ten power names
NAME_PATTERN = r"^([Aa][Ll][Ll]|[A-Za-z]{1,20}(,[A-Za-z]{1,20}){0,9})$"


def conversation_of(message: MessageJSON, powers: Sequence[str] | None) -> str:
    """The conversation a readable message (``message_json``'s shape) belongs to, as a reader
    playing ``powers`` names it (None: the operator, who names every participant)."""
    if message["to"] == PUBLIC:
        return PUBLIC
    participants = {message["from"]["power"], *message["to"]}
    others = participants - set(powers or ())
    return ",".join(sorted(others or participants))


def parse_name(name: str) -> str:
    """A conversation's name as a URL gives it, normalised (upper case, sorted, no repeats),
    or 422 invalid_request when it is not ``all`` nor a list of power names (the API's path
    pattern refuses those first; this holds for any other caller)."""
    if name.strip().lower() == PUBLIC:
        return PUBLIC
    powers = sorted({part.strip().upper() for part in name.split(",")})
    if len(name) > MAX_NAME or not powers or not all(p.isalpha() and len(p) <= 20 for p in powers):
        raise Unprocessable('a conversation is "all" or powers separated by commas, such as "ENGLAND,FRANCE"',
                            code=ErrorCode.INVALID_REQUEST, where="path.conversation")
    return ",".join(powers)


def recipients_of(name: str) -> str | list[str]:
    """Whom a message sent into the conversation goes to: ``"all"`` or its powers."""
    return PUBLIC if name == PUBLIC else name.split(",")


def read_marks(records: Iterable[RecordedEvent], player_id: str) -> dict[str, str]:
    """The seat's latest read mark of each conversation (a message id), from ``reads-{game}``."""
    marks: dict[str, str] = {}
    for record in records:
        event = from_recorded(record)
        if isinstance(event, ConversationRead) and event.player_id == player_id:
            marks[event.conversation] = event.message_id
    return marks


def in_conversation(messages: Iterable[MessageJSON], name: str,
                    powers: Sequence[str] | None) -> list[MessageJSON]:
    """The readable messages of one conversation, in order."""
    return [m for m in messages if conversation_of(m, powers) == name]


def unread_count(messages: Sequence[MessageJSON], mark: str | None, powers: Sequence[str] | None) -> int:
    """How many of one conversation's messages the seat has not read: those after its mark and
    after its own last message there (writing answers what came before), its own never."""
    own = set(powers or ())
    start = 0
    for index, message in enumerate(messages):
        if message["id"] == mark or message["from"]["power"] in own:
            start = index + 1
    return sum(1 for m in messages[start:] if m["from"]["power"] not in own)


def conversations(messages: Sequence[MessageJSON], powers: Sequence[str] | None,
                  marks: dict[str, str]) -> list[ConversationJSON]:
    """Each conversation of the readable ``messages``: its name, its correspondents, how many
    messages it holds, its last message and its unread count; the latest first, the public
    conversation always there (empty until someone writes)."""
    grouped: dict[str, list[MessageJSON]] = {PUBLIC: []}
    for message in messages:
        grouped.setdefault(conversation_of(message, powers), []).append(message)
    listed: list[ConversationJSON] = [{"id": name, "with": recipients_of(name), "messages": len(held),
               "last_message": held[-1] if held else None,
               "unread": unread_count(held, marks.get(name), powers)}
              for name, held in grouped.items()]
    return sorted(listed, key=lambda c: -(c["last_message"]["position"] if c["last_message"] else 0))


def conversation_named(listed: Sequence[ConversationJSON], name: str) -> ConversationJSON:
    """The conversation of that name among those listed, or an empty one (nobody wrote yet)."""
    found = next((c for c in listed if c["id"] == name), None)
    return found or {"id": name, "with": recipients_of(name), "messages": 0, "last_message": None, "unread": 0}
