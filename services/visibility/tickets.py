"""Stream tickets: a credential traded for a single-use, one-minute ticket that a browser passes
as ``GET /games/{id}/stream?ticket=`` (EventSource sends no Authorization header, and a
long-lived token in a URL lands in proxy logs). docs/social.md, "Opening the stream from a
browser".

The ticket is 32 random bytes; the store keeps only its sha256 hash, as the name of the
ticket's own stream (shared/events_tickets.py), with the game, the credential that asked and
the expiry. Every replica reads the same store, so a ticket issued by one opens a stream on any
other; redeeming is an append at version 2 of that stream, which exactly one of two racing
redemptions wins (the other gets ConcurrencyError: 401 like any spent ticket).
"""
from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from shared.auth import hash_token
from shared.errors import ErrorCode, Unauthorized
from shared.events import from_recorded, to_new_event
from shared.events_tickets import StreamTicketIssued, StreamTicketRedeemed, ticket_stream
from shared.store import ConcurrencyError, EventStore

from .credential import Credential

TICKET_LIFETIME = timedelta(seconds=60)
MAX_TICKET_LENGTH = 100


def _refused(message: str) -> Unauthorized:
    return Unauthorized(message, code=ErrorCode.INVALID_TICKET, where="query.ticket")


async def issue_ticket(store: EventStore, game_id: str, credential: Credential,
                       now: datetime) -> tuple[str, datetime]:
    """A new ticket for the game's stream acting as ``credential``, and when it expires."""
    ticket = "st_" + secrets.token_urlsafe(32)
    expires_at = now + TICKET_LIFETIME
    issued = StreamTicketIssued(game_id=game_id, credential=credential.as_json(), expires_at=expires_at)
    async with store.transaction() as tx:
        await tx.events.append(ticket_stream(hash_token(ticket)), [to_new_event(issued)], expected_version=0)
    return ticket, expires_at


async def redeem_ticket(store: EventStore, game_id: str, ticket: str, now: datetime) -> Credential:
    """The credential a ticket stands for, the ticket spent; 401 ``invalid_ticket`` for an
    unknown, spent or expired ticket, or one of another game."""
    if not ticket.startswith("st_") or len(ticket) > MAX_TICKET_LENGTH:
        raise _refused("not a stream ticket (POST /games/{id}/stream-ticket gives one)")
    stream = ticket_stream(hash_token(ticket))
    records = await store.events.read_stream(stream)
    if not records:
        raise _refused("unknown stream ticket")
    issued = from_recorded(records[0])
    if not isinstance(issued, StreamTicketIssued) or issued.game_id != game_id:
        raise _refused("this ticket is not for this game's stream")
    if len(records) > 1:
        raise _refused("this ticket was used already: ask for a new one")
    if now >= issued.expires_at:
        raise _refused("this ticket has expired: ask for a new one")
    try:
        async with store.transaction() as tx:
            await tx.events.append(stream, [to_new_event(StreamTicketRedeemed())], expected_version=1)
    except ConcurrencyError:
        raise _refused("this ticket was used already: ask for a new one") from None
    return Credential.from_json(issued.credential)
