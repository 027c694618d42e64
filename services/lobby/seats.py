"""``GET /games/{id}/seats``: the seats of a game, which a DAIDE bot or the house bot holds, and
what the DAIDE server recorded of them (docs/bots.md, "What the host sees").

The seats are public (codenames and powers, as the summary shows them; never player ids,
tokens or accounts). The DAIDE records (a seat that refused ``IAM`` after wrong passcodes, a
seat taken back by ``IAM``) are the host's and the operator's for every seat, a player's for
its own seat only: someone guessing at a seat is the seat's business, not the table's.
"""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from shared.auth import Caller
from shared.events import from_recorded
from shared.events_daide import DaideRejoinLocked, DaideSeatRejoined, daide_stream
from shared.game.state import GameState
from shared.http.models import DateTimeText
from shared.store import EventStore


class SeatOut(BaseModel):
    codename: str
    powers: list[str] = Field(..., description="the seat's powers once the game has started (empty before)")
    house_bot: bool = Field(False, description="the house bot holds the seat (docs/bots.md)")
    daide: bool = Field(False, description="a DAIDE bot took the seat on the game's own port (docs/bots.md)")


class DaideRecord(BaseModel):
    at: DateTimeText
    codename: str
    power: str
    kind: Literal["iam_locked", "iam_rejoined"] = Field(..., description=(
        "iam_locked: too many wrong IAM passcodes, the seat refuses IAM until `until`; iam_rejoined: a "
        "connection took the seat with IAM (`took_over`: another connection held it and was closed)"))
    until: DateTimeText | None = None
    wrong: int | None = None
    took_over: bool | None = None


class SeatList(BaseModel):
    seats: list[SeatOut]
    daide_port: int | None = Field(None, description="the game's own DAIDE port while it is open (docs/bots.md)")
    daide_records: list[DaideRecord] | None = Field(None, description=(
        "the host's and operator's: every seat's DAIDE records; a player's: its own seat's; null for anyone else"))


def _iso(moment: datetime) -> str:
    return moment.isoformat()


async def seat_list(store: EventStore, game: GameState, caller: Caller) -> SeatList:
    seats = [SeatOut(codename=s.codename, powers=list(s.powers), house_bot=s.house_bot, daide=s.daide)
             for s in sorted(game.seats, key=lambda s: s.codename)]
    summary = game.summary()
    if caller.role in ("host", "operator"):
        shown: set[str] | None = {s.player_id for s in game.seats}
    elif caller.role == "player" and caller.player_id is not None:
        shown = {caller.player_id}
    else:
        shown = None
    records = None
    if shown is not None:
        codenames = {s.player_id: s.codename for s in game.seats}
        records = []
        for record in await store.events.read_stream(daide_stream(game.game_id)):
            event = from_recorded(record)
            if not isinstance(event, DaideRejoinLocked | DaideSeatRejoined) or event.player_id not in shown:
                continue
            at, codename = _iso(record.recorded_at), codenames.get(event.player_id, "?")
            if isinstance(event, DaideRejoinLocked):
                records.append(DaideRecord(at=at, codename=codename, power=event.power, kind="iam_locked",
                                           until=_iso(event.until), wrong=event.wrong))
            else:
                records.append(DaideRecord(at=at, codename=codename, power=event.power, kind="iam_rejoined",
                                           took_over=event.took_over))
    return SeatList(seats=seats, daide_port=summary["daide_port"], daide_records=records)
