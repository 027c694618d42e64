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
from typing import Any

from shared.events_social import press_stream
from shared.game import intake
from shared.game.commands import Player, SendPress
from shared.game.press import MAX_TEXT, check_message, readable
from shared.store import EventStore

__all__ = ["MAX_TEXT", "check_message", "read_messages", "send_message"]


# ----------------------------------------------------------------------------- store

async def send_message(store: EventStore, game_id: str, player_id: str, sender: str | None,
                       to: str | Sequence[str], text: str, metadata: dict[str, Any] | None = None, *,
                       now: datetime) -> dict[str, Any]:
    """A message sent: the intake's (shared/game/intake.py), as a DAIDE seat's SND is; the
    message as its sender reads it."""
    return (await intake.send_press(store, SendPress(game_id, Player(player_id), sender, to, text, metadata,
                                                     now))).message


async def read_messages(store: EventStore, game_id: str, powers: Iterable[str] | None,
                        after: int = 0) -> list[dict[str, Any]]:
    """The messages a viewer playing ``powers`` reads, numbered among those (shared/game/press.py),
    of which those numbered above ``after``."""
    return readable(await store.events.read_stream(press_stream(game_id)), powers, after)
