"""Press: messages between powers, stored as MessageSent events in ``press-{game_id}``.

A message is public (``to: "all"``) or private to a set of powers; its participants are its
sender and recipients. It is signed by power and codename, never by player. The game's
``press`` setting decides what may be sent (shared/game/press.py, ``check_message``): "full"
(anything), "public" (public messages only) or "none" (gunboat). A message is sent through the
intake (shared/game/intake.py) with a checked append, like an order submission, so it is never
accepted after the GameFinished it raced with has committed.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from shared.errors import ErrorCode, Unprocessable
from shared.events import EventMetadata, to_new_event
from shared.events_social import ConversationRead, press_stream, reads_stream
from shared.game import intake
from shared.game.commands import Player, SendPress
from shared.game.conversations import ConversationJSON, conversation_named, conversations, in_conversation, read_marks
from shared.game.press import MAX_TEXT, MessageJSON, check_message, readable
from shared.store import EventStore

__all__ = ["MAX_TEXT", "check_message", "list_conversations", "mark_read", "read_messages", "send_message"]


# ----------------------------------------------------------------------------- store

async def send_message(store: EventStore, game_id: str, player_id: str, sender: str | None,
                       to: str | Sequence[str], text: str, metadata: EventMetadata | None = None, *,
                       now: datetime) -> MessageJSON:
    """A message sent: the intake's (shared/game/intake.py), as a DAIDE seat's SND is; the
    message as its sender reads it."""
    return (await intake.send_press(store, SendPress(game_id, Player(player_id), sender, to, text, metadata,
                                                     now))).message


async def read_messages(store: EventStore, game_id: str, powers: Iterable[str] | None,
                        after: int = 0) -> list[MessageJSON]:
    """The messages a viewer playing ``powers`` reads, numbered among those (shared/game/press.py),
    of which those numbered above ``after``."""
    return readable(await store.events.read_stream(press_stream(game_id)), powers, after)


async def seat_marks(store: EventStore, game_id: str, player_id: str | None) -> dict[str, str]:
    """The seat's read marks (none for a caller without a seat)."""
    if player_id is None:
        return {}
    return read_marks(await store.events.read_stream(reads_stream(game_id)), player_id)


async def list_conversations(store: EventStore, game_id: str, powers: Sequence[str] | None,
                             player_id: str | None) -> list[ConversationJSON]:
    """The conversations a viewer playing ``powers`` reads (shared/game/conversations.py); a
    caller without a seat (the public, the host, the operator) keeps no marks: nothing unread."""
    messages = await read_messages(store, game_id, powers)
    listed = conversations(messages, powers, await seat_marks(store, game_id, player_id))
    return listed if player_id is not None else [{**c, "unread": 0} for c in listed]


async def mark_read(store: EventStore, game_id: str, player_id: str, powers: Sequence[str], name: str,
                    through: str | None, metadata: EventMetadata | None = None) -> ConversationJSON:
    """The seat's conversation marked read up to message ``through`` (None: its last), as a
    ConversationRead in ``reads-{game}``; nothing is written when the mark would not move or the
    conversation holds no message yet. The conversation as the seat reads it after."""
    held = in_conversation(await read_messages(store, game_id, powers), name, powers)
    if through is not None and not any(m["id"] == through for m in held):
        raise Unprocessable(f"no message {through!r} in your conversation {name!r}",
                            code=ErrorCode.UNKNOWN_MESSAGE, where="body.through")
    marks = await seat_marks(store, game_id, player_id)
    mark = through or (held[-1]["id"] if held else None)
    if mark is not None and marks.get(name) != mark:
        event = ConversationRead(player_id=player_id, conversation=name, message_id=mark)
        async with store.transaction() as tx:
            await tx.events.append(reads_stream(game_id), [to_new_event(event, metadata)], expected_version=None)
        marks[name] = mark
    return conversation_named(conversations(held, powers, marks), name)
