"""What notifications an event of the log causes: pure, so the projection only does I/O.

A seat's notifications go to its own webhook and, when its player signed in with Discord and
the server has a Discord bot, as direct messages from the bot; each is about that seat only
and names other players by power and codename, never by identity. A game's channel webhook
(set by the host) gets the public events only, as the public sees them. Kinds:

- ``message_received``: a press message, to every seat that may read it except the sender's;
- ``phase_resolved``: to every seat and the channel, with the results the public may see
  (the variant's ``history_view`` for nobody: every order in the standard game, none in Tale
  of Ekonia); ``game_finished`` likewise at the end;
- ``deadline_approaching``: to the seats that must act and the channel, ``warning`` before the
  deadline (a Discord timestamp, ``<t:…:R>``); a resolution, pause, extension or the end
  cancels the reminder not yet sent (an extension or a resumption plans a new one, and so does
  a webhook set during the phase).

Payloads are Discord's message shape within its limits (discord.py), the facts for machines
under ``entente``, and under ``_map`` which picture delivery attaches: the recipient's own
view (the public one for the channel), drawn when the notification is sent.

A seat's browsers subscribed to Web Push get every kind of its notifications; the e-mail
address it gave gets one ``email_confirmation`` mail with a code, then, once that code came back,
the deadline reminders only (docs/social.md, "Web Push" and "E-mail").

Recipients in the outbox's ``player_id``: a seat's player id (its webhook), the player id with
``@discord`` (its direct messages), with ``@push:`` and a digest of the endpoint (one browser's
pushes), with ``@mail`` (its e-mail), ``#channel`` (the game's channel webhook).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
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
from shared.events_social import (
    ChannelWebhookRemoved,
    ChannelWebhookSet,
    EmailConfirmed,
    EmailRemoved,
    EmailSet,
    MessageSent,
    PushSubscribed,
    PushUnsubscribed,
    WebhookRemoved,
    WebhookSet,
)
from shared.game.state import GameState
from shared.rules.variants import get_variant
from shared.store import NewNotification, RecordedEvent

from . import discord, mail

MESSAGE_PREVIEW = 500
CHANNEL = "#channel"
DIRECT = "@discord"
PUSH = "@push:"
MAIL = "@mail"
MAILED_KINDS = frozenset({"deadline_approaching"})  # what goes by e-mail


def push_recipient(player_id: str, endpoint: str) -> str:
    """The outbox recipient of one browser's pushes: the endpoint itself is kept out of it."""
    return f"{player_id}{PUSH}{hashlib.sha256(endpoint.encode()).hexdigest()[:16]}"


def _owed(record: RecordedEvent, dedupe_key: str, *, game_id: str, player_id: str, kind: str, phase: str | None,
          url: str, payload: dict[str, Any], not_before: datetime) -> NewNotification:
    """The outbox's row of a notification planned from ``record`` (first due at ``not_before``)."""
    return NewNotification(dedupe_key=dedupe_key, game_id=game_id, player_id=player_id, kind=kind, phase=phase,
                           url=url, payload=payload, not_before=not_before, source_position=record.position,
                           created_at=record.recorded_at)


@dataclass(frozen=True, slots=True)
class Cancel:
    """Pending notifications of a game no longer owed (None: any kind, phase or player)."""

    game_id: str
    kind: str | None = None
    phase: str | None = None
    player_id: str | None = None


@dataclass(frozen=True, slots=True)
class Context:
    """The game as it was at the event, the players' webhooks then (player_id -> URL), the
    Discord ids of the players who signed in with Discord (when the server has a bot), and the
    game's channel webhook."""

    state: GameState
    webhooks: dict[str, str]
    direct: dict[str, str] = field(default_factory=dict)  # player_id -> Discord user id
    channel: str | None = None
    pushes: dict[str, dict[str, str]] = field(default_factory=dict)  # player_id -> endpoint -> address
    emails: dict[str, str] = field(default_factory=dict)  # player_id -> e-mail address

    def seats(self, kind: str = "") -> list[tuple[str, str, str]]:
        """(recipient, player_id, address) of every seat's webhook, direct messages and
        browsers, and of its e-mail for the kinds that are mailed."""
        found = [(player_id, player_id, url) for player_id, url in self.webhooks.items()]
        found += [(player_id + DIRECT, player_id, discord.DM_PREFIX + user) for player_id, user in self.direct.items()]
        found += [(push_recipient(player_id, endpoint), player_id, address)
                  for player_id, browsers in self.pushes.items() for endpoint, address in browsers.items()]
        if kind in MAILED_KINDS:
            found += [(player_id + MAIL, player_id, mail.PREFIX + address)
                      for player_id, address in self.emails.items()]
        return sorted(found)


def plan(record: RecordedEvent, event: Event, context: Context,
         warning: timedelta) -> tuple[list[NewNotification], list[Cancel]]:
    state, game_id = context.state, context.state.game_id
    if isinstance(event, MessageSent):
        return _message(record, event, context), []
    if isinstance(event, PhaseResolved):
        cancel = [Cancel(game_id, "deadline_approaching", event.phase)]
        text = f"**{state.name}**: {event.phase} is resolved; next: {event.next_phase}."
        return _to_all(record, context, "phase_resolved", event.phase, text,
                       facts={"next_phase": event.next_phase, "winners": list(event.winners)},
                       embeds=[_results(state, event)], picture_phase=event.phase), cancel
    if isinstance(event, GameFinished):
        ending = {"victory": f"won by {', '.join(event.winners)}", "draw": f"drawn by {', '.join(event.drawn)}",
                  "abandoned": "abandoned"}[event.reason]
        text = f"**{state.name}** has ended: {ending}."
        return (_to_all(record, context, "game_finished", event.phase, text,
                        facts={"reason": event.reason, "winners": list(event.winners)}, embeds=[], picture_phase=None),
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
    if isinstance(event, PushSubscribed):  # a browser subscribed during a phase gets its reminder too
        recipient = push_recipient(event.player_id, event.endpoint)
        return _reminder_for(record, state, context, warning, recipient), []
    if isinstance(event, PushUnsubscribed):
        return [], [Cancel(game_id, None, None, push_recipient(event.player_id, event.endpoint))]
    if isinstance(event, EmailSet):  # a new address: its confirmation first, what was owed to the old one gone
        recipient = event.player_id + MAIL
        confirm = [_confirmation(record, event, context)] if event.code else []  # none before codes existed
        return confirm, [Cancel(game_id, None, None, recipient)]
    if isinstance(event, EmailConfirmed):  # confirmed during a phase: that phase's reminder too
        return _reminder_for(record, state, context, warning, event.player_id + MAIL), []
    if isinstance(event, EmailRemoved):
        return [], [Cancel(game_id, None, None, event.player_id + MAIL)]
    if isinstance(event, ChannelWebhookSet):
        deadline = state.deadline
        reminder = (_deadline(record, state.phase or "", deadline, context, warning, only=CHANNEL)
                    if deadline else [])
        return reminder, [Cancel(game_id, None, None, CHANNEL)]
    if isinstance(event, ChannelWebhookRemoved):
        return [], [Cancel(game_id, None, None, CHANNEL)]
    return [], []


def _confirmation(record: RecordedEvent, event: EmailSet, context: Context) -> NewNotification:
    """The mail that asks an address just set for a seat to confirm it (its code), sent even
    though the address gets nothing else until then (docs/social.md, "E-mail")."""
    state, game_id = context.state, context.state.game_id
    recipient = event.player_id + MAIL
    content = f"Confirm this address for the deadline reminders of **{state.name}**."
    return _owed(record, f"{record.position}:{recipient}", game_id=game_id, player_id=recipient,
                 kind=mail.CONFIRMATION, phase=state.phase, url=mail.PREFIX + event.address,
                 payload=_payload(mail.CONFIRMATION, game_id, state.phase, content,
                                  {"code": event.code, "game_name": state.name}),
                 not_before=record.recorded_at)


def _reminder_for(record: RecordedEvent, state: GameState, context: Context, warning: timedelta,
                  recipient: str) -> list[NewNotification]:
    """The current phase's reminder for one recipient that has just been added."""
    if not state.deadline:
        return []
    return [n for n in _deadline(record, state.phase or "", state.deadline, context, warning)
            if n.player_id == recipient]


def _payload(kind: str, game_id: str, phase: str | None, content: str, facts: dict[str, Any], *,
             embeds: list[dict[str, Any]] | None = None, picture: dict[str, Any] | None = None) -> dict[str, Any]:
    """Discord's message shape (``content``, ``embeds``; mentions switched off, so a message's
    text cannot ping anyone), cut to Discord's limits, plus the same facts for machines under
    ``entente`` and the picture to attach under ``_map``."""
    body: dict[str, Any] = {"content": content, "allowed_mentions": {"parse": []},
                            "entente": {"kind": kind, "game_id": game_id, "phase": phase, **facts}}
    if embeds:
        body["embeds"] = embeds
    body = discord.fitted(body)
    if picture is not None:
        body["_map"] = {"game_id": game_id, **picture}
    return body


def _results(state: GameState, event: PhaseResolved) -> dict[str, Any]:
    """The phase's results as the public may see them (the variant's ``history_view``)."""
    seen = get_variant(state.variant).history_view(event.model_dump(mode="json"), None)
    fields = []
    for power, results in sorted(seen.get("orders", {}).items()):
        lines = [r["order"] + ("" if r["result"] in ("succeeds", "ok") else f" ({r['result']})") for r in results]
        if lines:
            fields.append({"name": power.title(), "value": "\n".join(lines), "inline": True})
    won = f"; won by {', '.join(event.winners)}" if event.winners else ""
    return {"title": f"{event.phase} resolved", "description": f"Next: {event.next_phase}{won}",
            "fields": fields, "footer": {"text": state.name}}


def _first_power(state: GameState, player_id: str) -> str | None:
    powers = state.powers_of(player_id)
    return powers[0] if powers else None


def _to_all(record: RecordedEvent, context: Context, kind: str, phase: str, content: str, *,
            facts: dict[str, Any], embeds: list[dict[str, Any]], picture_phase: str | None) -> list[NewNotification]:
    """A public event, to every seat (as its own view draws it) and to the channel (public)."""
    state, game_id = context.state, context.state.game_id
    planned = [_owed(record, f"{record.position}:{recipient}", game_id=game_id, player_id=recipient, kind=kind,
                     phase=phase, url=url,
                     payload=_payload(kind, game_id, phase, content,
                                      {**facts, "your_powers": state.powers_of(player_id)}, embeds=embeds,
                                      picture={"phase": picture_phase, "power": _first_power(state, player_id)}),
                     not_before=record.recorded_at)
               for recipient, player_id, url in context.seats(kind)]
    if context.channel:
        planned.append(_owed(record, f"{record.position}:{CHANNEL}", game_id=game_id, player_id=CHANNEL, kind=kind,
                             phase=phase, url=context.channel,
                             payload=_payload(kind, game_id, phase, content, facts, embeds=embeds,
                                              picture={"phase": picture_phase, "power": None}),
                             not_before=record.recorded_at))
    return planned


def _message(record: RecordedEvent, message: MessageSent, context: Context) -> list[NewNotification]:
    state, game_id = context.state, context.state.game_id
    readers = set(state.codenames_by_power()) if message.recipients is None else set(message.recipients)
    preview = message.text if len(message.text) <= MESSAGE_PREVIEW else message.text[:MESSAGE_PREVIEW] + "..."
    scope = "public" if message.recipients is None else "private"
    content = f"{state.name}: {scope} message from {message.sender} ({message.codename}): {preview}"
    planned = []
    for recipient, player_id, url in context.seats("message_received"):
        powers = set(state.powers_of(player_id))
        if not powers & readers or message.sender in powers:
            continue
        facts = {"from": {"power": message.sender, "codename": message.codename},
                 "to": "all" if message.recipients is None else list(message.recipients),
                 "text": preview, "message_id": message.message_id}
        planned.append(_owed(record, f"{record.position}:{recipient}", game_id=game_id, player_id=recipient,
                             kind="message_received", phase=message.phase, url=url,
                             payload=_payload("message_received", game_id, message.phase, content, facts),
                             not_before=record.recorded_at))
    return planned


def _deadline(record: RecordedEvent, phase: str, deadline: datetime, context: Context,
              warning: timedelta, *, only: str | None = None) -> list[NewNotification]:
    state, game_id = context.state, context.state.game_id
    if state.status != "active":
        return []
    must_act = set(state.must_act)
    due, when = max(deadline - warning, record.recorded_at), discord.timestamp(deadline)
    planned = []
    for recipient, player_id, url in context.seats("deadline_approaching"):
        owing = sorted(must_act & set(state.powers_of(player_id)))
        if not owing or only not in (None, player_id):
            continue
        content = (f"**{state.name}**: orders for {phase} are due {when} ({discord.timestamp(deadline, 'f')}) "
                   f"for {', '.join(owing)}.")
        planned.append(_owed(record, f"deadline:{game_id}:{phase}:{deadline.isoformat()}:{recipient}",
                             game_id=game_id, player_id=recipient, kind="deadline_approaching", phase=phase, url=url,
                             payload=_payload("deadline_approaching", game_id, phase, content,
                                              {"deadline": deadline.isoformat(), "your_powers": owing},
                                              picture={"phase": phase, "power": owing[0]}),
                             not_before=due))
    if context.channel and only in (None, CHANNEL):
        content = f"**{state.name}**: the deadline of {phase} is {when} ({discord.timestamp(deadline, 'f')})."
        planned.append(_owed(record, f"deadline:{game_id}:{phase}:{deadline.isoformat()}:{CHANNEL}",
                             game_id=game_id, player_id=CHANNEL, kind="deadline_approaching", phase=phase,
                             url=context.channel,
                             payload=_payload("deadline_approaching", game_id, phase, content,
                                              {"deadline": deadline.isoformat()},
                                              picture={"phase": phase, "power": None}),
                             not_before=due))
    return planned
