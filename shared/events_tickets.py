"""Events of the live stream's tickets (docs/social.md, "Opening the stream from a browser").

A browser's EventSource cannot send an Authorization header, and long-lived tokens must not go
into URLs, so a client trades its credential for a ticket valid once, for a minute. Each ticket
has a stream of its own, ``ticket-{sha256 of the ticket}`` (the ticket itself is never stored):
``StreamTicketIssued`` at version 1, ``StreamTicketRedeemed`` at version 2 when a stream is
opened with it. The redemption is an append after version 1, so of two replicas that race to
redeem one ticket exactly one wins.
"""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from shared.events import Event, register_event


def ticket_stream(ticket_hash: str) -> str:
    return f"ticket-{ticket_hash}"


@register_event
class StreamTicketIssued(Event):
    """A ticket for one game's stream that acts as ``credential`` (its kind, the sha256 hash of
    the token that asked, the account of a session token) until ``expires_at``."""

    type: Literal["StreamTicketIssued"] = "StreamTicketIssued"
    game_id: str
    credential: dict[str, str]
    expires_at: datetime


@register_event
class StreamTicketRedeemed(Event):
    """The ticket opened a stream: it cannot open another."""

    type: Literal["StreamTicketRedeemed"] = "StreamTicketRedeemed"
