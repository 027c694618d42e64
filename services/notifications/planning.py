"""What notifications an event of the log causes: pure, so the projection only does I/O.

Each notification goes to one player's own webhook, is about that player's seat only, and
names other players by power and codename, never by identity. Kinds:

- ``message_received``: a press message, to every seat that may read it except the sender's;
- ``phase_resolved``: to every seat with a webhook; ``game_finished`` likewise at the end;
- ``deadline_approaching``: to the seats that must act, ``warning`` before the deadline; a
  resolution, pause, extension or the end cancels the reminder not yet sent (an extension or a
  resumption plans a new one, and so does a webhook set during the phase).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from shared.events import (
    DeadlineExtended,
    DeadlineSet,
    Event,
    GameFinished,
    GamePaused,
    GameResumed,
    PhaseResolved,
)
from shared.events_social import MessageSent, WebhookRemoved, WebhookSet
from shared.game.state import GameState
from shared.store import RecordedEvent

MESSAGE_PREVIEW = 500


@dataclass(frozen=True, slots=True)
class Planned:
    dedupe_key: str
    game_id: str
    player_id: str
    kind: str
    phase: str | None
    url: str
    payload: dict[str, Any]
    not_before: datetime


@dataclass(frozen=True, slots=True)
class Cancel:
    """Pending notifications of a game no longer owed (None: any kind, phase or player)."""

    game_id: str
    kind: str | None = None
    phase: str | None = None
    player_id: str | None = None


@dataclass(frozen=True, slots=True)
class Context:
    """The game as it was at the event, and the players' webhooks then (player_id -> URL)."""

    state: GameState
    webhooks: dict[str, str]


def plan(record: RecordedEvent, event: Event, context: Context,
         warning: timedelta) -> tuple[list[Planned], list[Cancel]]:
    state, game_id = context.state, context.state.game_id
    if isinstance(event, MessageSent):
        return _message(record, event, context), []
    if isinstance(event, PhaseResolved):
        cancel = [Cancel(game_id, "deadline_approaching", event.phase)]
        text = f"{state.name}: {event.phase} is resolved; next: {event.next_phase}."
        return _to_all(record, context, "phase_resolved", event.phase, text,
                       {"next_phase": event.next_phase, "winners": list(event.winners)}), cancel
    if isinstance(event, GameFinished):
        text = f"{state.name} has ended ({event.reason})."
        return (_to_all(record, context, "game_finished", event.phase, text,
                        {"reason": event.reason, "winners": list(event.winners)}),
                [Cancel(game_id, "deadline_approaching")])
    if isinstance(event, (DeadlineSet, DeadlineExtended, GameResumed)):
        return _deadline(record, event.phase, event.deadline, context, warning), \
            [Cancel(game_id, "deadline_approaching", event.phase)]
    if isinstance(event, GamePaused):
        return [], [Cancel(game_id, "deadline_approaching", event.phase)]
    if isinstance(event, WebhookRemoved):
        return [], [Cancel(game_id, None, None, event.player_id)]
    if isinstance(event, WebhookSet):
        # a webhook set during a phase still gets that phase's reminder (at its new URL)
        deadline = state.deadline
        reminder = (_deadline(record, state.phase or "", deadline, context, warning, only=event.player_id)
                    if deadline else [])
        return reminder, [Cancel(game_id, "deadline_approaching", None, event.player_id)]
    return [], []


def _payload(kind: str, game_id: str, phase: str | None, content: str, facts: dict[str, Any]) -> dict[str, Any]:
    """Discord's webhook shape (``content``; mentions switched off, so a message's text cannot
    ping anyone) plus the same facts for machines under ``entente``."""
    return {"content": content[:2000], "allowed_mentions": {"parse": []},
            "entente": {"kind": kind, "game_id": game_id, "phase": phase, **facts}}


def _to_all(record: RecordedEvent, context: Context, kind: str, phase: str, content: str,
            facts: dict[str, Any]) -> list[Planned]:
    game_id = context.state.game_id
    return [Planned(f"{record.position}:{player_id}", game_id, player_id, kind, phase, url,
                    _payload(kind, game_id, phase, content,
                             {**facts, "your_powers": context.state.powers_of(player_id)}),
                    record.recorded_at)
            for player_id, url in sorted(context.webhooks.items())]


def _message(record: RecordedEvent, message: MessageSent, context: Context) -> list[Planned]:
    state, game_id = context.state, context.state.game_id
    readers = set(state.codenames_by_power()) if message.recipients is None else set(message.recipients)
    preview = message.text if len(message.text) <= MESSAGE_PREVIEW else message.text[:MESSAGE_PREVIEW] + "..."
    scope = "public" if message.recipients is None else "private"
    content = f"{state.name}: {scope} message from {message.sender} ({message.codename}): {preview}"
    planned = []
    for player_id, url in sorted(context.webhooks.items()):
        powers = set(state.powers_of(player_id))
        if not powers & readers or message.sender in powers:
            continue
        facts = {"from": {"power": message.sender, "codename": message.codename},
                 "to": "all" if message.recipients is None else list(message.recipients),
                 "text": preview, "message_id": message.message_id}
        planned.append(Planned(f"{record.position}:{player_id}", game_id, player_id, "message_received",
                               message.phase, url, _payload("message_received", game_id, message.phase, content, facts),
                               record.recorded_at))
    return planned


def _deadline(record: RecordedEvent, phase: str, deadline: datetime, context: Context,
              warning: timedelta, only: str | None = None) -> list[Planned]:
    state, game_id = context.state, context.state.game_id
    if state.status != "active":
        return []
    must_act = set(state.must_act)
    planned = []
    for player_id, url in sorted(context.webhooks.items()):
        owing = sorted(must_act & set(state.powers_of(player_id)))
        if not owing or only not in (None, player_id):
            continue
        content = (f"{state.name}: the deadline of {phase} is {deadline.isoformat()}; "
                   f"orders are due for {', '.join(owing)}.")
        planned.append(Planned(f"deadline:{game_id}:{phase}:{deadline.isoformat()}:{player_id}", game_id, player_id,
                               "deadline_approaching", phase, url,
                               _payload("deadline_approaching", game_id, phase, content,
                                        {"deadline": deadline.isoformat(), "your_powers": owing}),
                               max(deadline - warning, record.recorded_at)))
    return planned
