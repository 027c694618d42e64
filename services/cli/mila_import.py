"""``entente import --format mila``: a saved game of MILA's ``diplomacy`` package as a hosted
game of ours (docs/store.md, "MILA's format").

Each MILA phase's orders are submitted for its power's seat and resolved by our engine, as a
hosted game is; the game goes on from where the saved game stops, on the clock, its seats'
tokens printed for the operator to hand out. Where MILA's engine reached a position ours does
not (its departures from the fourth edition: docs/store.md), the import stops after that phase
and says so: what follows in the file was played from a board our rules never reached.
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from shared.auth import hash_token, new_token
from shared.codenames import pick_codename
from shared.events import (
    Event,
    GameCreated,
    GameFinished,
    GameSettings,
    GameStarted,
    OrdersSubmitted,
    PlayerJoined,
    game_stream,
    orders_stream,
    to_new_event,
)
from shared.game import deadlines
from shared.game.state import GameState, apply
from shared.rules.variants import get_variant
from shared.store import RecordedEvent

from .common import OpsError

MILA_PRESS: dict[str, Literal["none", "public"]] = {"NO_PRESS": "none", "PUBLIC_PRESS": "public"}


@dataclass
class Imported:
    """A MILA game as our log: its records, the tokens of its host and seats, and how far it went."""

    game_id: str
    mila_id: str
    records: list[RecordedEvent] = field(default_factory=list)
    host_token: str = ""
    tokens: dict[str, str] = field(default_factory=dict)  # POWER -> the seat's token
    phases: int = 0  # MILA phases resolved here
    rejected: list[str] = field(default_factory=list)  # "S1901M FRANCE 'A PAR - MOS': reason"
    stopped: str | None = None  # where and why the import stopped before the file's end

    def summary(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "mila_id": self.mila_id, "phases": self.phases,
                "host_token": self.host_token, "tokens": self.tokens, "rejected": self.rejected,
                "stopped": self.stopped}


def game_id_of(mila_id: str) -> str:
    """The same MILA game always gets the same id here, so a second import is refused."""
    return "g_" + hashlib.sha256(f"mila:{mila_id}".encode()).hexdigest()[:12]


def _board(units: list[str]) -> set[str]:
    return {unit for unit in units if not unit.startswith("*")}


def mila_game(saved: dict[str, Any], now: datetime) -> Imported:
    """Our log of ``saved`` (a dict of MILA's saved-game format), resolved by our engine."""
    mila_id, phases = str(saved.get("id") or ""), saved.get("phases")
    if not mila_id or not isinstance(phases, list) or not phases:
        raise OpsError("not a MILA saved game: it needs an id and a list of phases")
    if saved.get("map", "standard") != "standard":
        raise OpsError(f"MILA game {mila_id} is played on {saved.get('map')!r}; only the standard map is read")
    if phases[0].get("name") != "S1901M":
        raise OpsError(f"MILA game {mila_id} starts in {phases[0].get('name')}, not S1901M")
    digest = hashlib.sha256(f"mila:{mila_id}".encode()).digest()
    draw, seed = random.Random(digest), int.from_bytes(digest[8:16], "big") >> 1
    press: Literal["full", "public", "none"] = next(
        (MILA_PRESS[r] for r in saved.get("rules", []) if r in MILA_PRESS), "full")
    imported = Imported(game_id_of(mila_id), mila_id, host_token=new_token())
    log = _Log(imported, now)
    state = log.game(GameCreated(game_id=imported.game_id, variant="standard", name=f"MILA game {mila_id}"[:100],
                                 settings=GameSettings(press=press), host_token_hash=hash_token(imported.host_token)))
    rules = get_variant("standard")
    opening = rules.opening(state.settings.for_rules(), seed)
    seat_of: dict[str, str] = {}
    for power in opening.powers:
        token, player_id = new_token(), "p_" + hashlib.sha256(digest + power.encode()).hexdigest()[:12]
        codename = pick_codename(draw, [s.codename for s in state.seats])
        state = log.game(PlayerJoined(player_id=player_id, codename=codename, token_hash=hash_token(token)))
        imported.tokens[power], seat_of[power] = token, player_id
    state = log.game(GameStarted(seed=seed, powers={seat_of[p]: [p] for p in opening.powers}, phase=opening.phase,
                                 position=opening.state, must_act=opening.must_act))
    for phase, following in zip(phases, phases[1:], strict=False):
        state, stop = _resolve(log, state, phase, following, seat_of)
        if stop is not None or state.status != "active":
            imported.stopped = stop
            break
    if state.status == "active":
        log.game(deadlines.deadline_for(state, str(state.phase), now))
    return imported


def _resolve(log: _Log, state: GameState, phase: dict[str, Any], following: dict[str, Any],
             seat_of: dict[str, str]) -> tuple[GameState, str | None]:
    """One MILA phase: its orders submitted and resolved here; a reason to stop, or None."""
    from shared.game.adjudicate import adjudicate_phase

    name = str(phase.get("name"))
    if name != state.phase:
        return state, f"MILA's file has {name} where our game is at {state.phase}"
    rules, position = get_variant("standard"), state.position or {}
    given = phase.get("orders") or {}
    submitted: dict[str, list[str]] = {}
    for power in state.must_act:
        texts = given.get(power)
        if texts is None:
            continue  # MILA: no orders set (civil disorder at its deadline)
        checks = rules.check_orders(position, power, [str(t) for t in texts])
        log.imported.rejected += [f"{name} {power} {c.text!r}: {c.reason}" for c in checks if not c.accepted]
        submitted[power] = [c.order for c in checks if c.accepted and c.order]
        log.orders(OrdersSubmitted(phase=name, power=power, player_id=seat_of[power], orders=submitted[power]))
    disorder = frozenset(p for p in state.must_act if p not in submitted)
    resolved = adjudicate_phase(state, position, submitted, disorder)
    state = log.game(resolved)
    if resolved.winners:
        state = log.game(GameFinished(reason="victory", winners=resolved.winners, phase=resolved.next_phase))
    log.imported.phases += 1
    return state, _difference(resolved.position, following.get("state") or {}, name)


def _difference(ours: dict[str, Any], theirs: dict[str, Any], phase: str) -> str | None:
    """Where MILA's next board differs from the one our rules reached, or None."""
    for power in sorted(set(ours.get("units", {})) | set(theirs.get("units", {}))):
        here, there = set(ours.get("units", {}).get(power, [])), _board(theirs.get("units", {}).get(power, []))
        if here != there:
            return (f"after {phase} MILA's {power} has {sorted(there)}, our rules give {sorted(here)}: "
                    "MILA adjudicated otherwise (docs/store.md, \"MILA's format\"); imported up to here")
    for power in sorted(set(ours.get("centers", {})) | set(theirs.get("centers", {}))):
        if set(ours.get("centers", {}).get(power, [])) != set(theirs.get("centers", {}).get(power, [])):
            return f"after {phase} MILA's centres of {power} differ from ours; imported up to here"
    return None


class _Log:
    """The records of the game being built, in log order, with their versions and positions."""

    def __init__(self, imported: Imported, now: datetime) -> None:
        self.imported, self.now = imported, now
        self.state: GameState | None = None
        self.versions: dict[str, int] = {}

    def _record(self, stream: str, event: Event) -> None:
        new = to_new_event(event, {"actor": "operator", "reason": "mila import"})
        self.versions[stream] = self.versions.get(stream, 0) + 1
        self.imported.records.append(RecordedEvent(stream, self.versions[stream], len(self.imported.records) + 1,
                                                   new.type, new.schema_version, new.data, new.metadata, self.now))

    def game(self, event: Event) -> GameState:
        self._record(game_stream(self.imported.game_id), event)
        self.state = apply(self.state, event)
        return self.state

    def orders(self, event: OrdersSubmitted) -> None:
        self._record(orders_stream(self.imported.game_id, event.phase, event.power), event)


def saved_games(text: str) -> Iterator[dict[str, Any]]:
    """The saved games of a MILA file: one JSON object, or JSON Lines of them."""
    import json

    stripped = text.strip()
    try:
        whole = json.loads(stripped)
    except ValueError:
        whole = None
    if isinstance(whole, dict):
        yield whole
        return
    for number, line in enumerate(stripped.splitlines(), 1):
        if line.strip():
            try:
                game = json.loads(line)
            except ValueError as error:
                raise OpsError(f"line {number}: not JSON ({error})") from None
            if not isinstance(game, dict):
                raise OpsError(f"line {number}: not a saved game")
            yield game
