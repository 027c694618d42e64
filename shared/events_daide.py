"""Events of the DAIDE server's seats (docs/bots.md): what the host and a seat's owner are
shown of DAIDE rejoins, and the port of a game open to the field's DAIDE bots.

- ``daide-{game_id}`` keeps the rejoins: a seat that refuses ``IAM`` after too many wrong
  passcodes (``DaideRejoinLocked``) and a seat taken back by ``IAM`` (``DaideSeatRejoined``);
  and which connection holds a seat (``DaideSeatTaken``), so that a DAIDE process holding it
  for another connection sends that one OFF; none of it contends with the game's version.
- the game's own stream keeps ``DaidePortOpened``: the public summary's ``daide_port`` is folded
  from it (shared/game/state.py), written in the same transaction as the games row.
"""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from shared.events import Event, register_event


def daide_stream(game_id: str) -> str:
    return f"daide-{game_id}"


@register_event
class DaideRejoinLocked(Event):
    """Too many wrong ``IAM`` passcodes for one seat: it refuses every ``IAM`` until ``until``."""

    type: Literal["DaideRejoinLocked"] = "DaideRejoinLocked"
    player_id: str
    power: str
    wrong: int
    until: datetime


@register_event
class DaideSeatRejoined(Event):
    """A connection took the seat with ``IAM (power) (passcode)``; ``took_over``: another
    connection held it then and was sent OFF."""

    type: Literal["DaideSeatRejoined"] = "DaideSeatRejoined"
    player_id: str
    power: str
    took_over: bool


@register_event
class DaideSeatTaken(Event):
    """A DAIDE connection took the seat (``NME`` or ``IAM``) on some process of the DAIDE
    server; ``connection``: that connection's random id. The connection that held it before,
    on whichever process, is sent OFF (services/daide/watch.py)."""

    type: Literal["DaideSeatTaken"] = "DaideSeatTaken"
    player_id: str
    connection: str


@register_event
class DaidePortOpened(Event):
    """The DAIDE server listens for this game on ``port`` (docs/bots.md, "A port per game")."""

    type: Literal["DaidePortOpened"] = "DaidePortOpened"
    port: int
