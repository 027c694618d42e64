"""The lobby's decisions: create a game, seat a player, start a game. Each writes its events
to the game stream and the games row in one transaction.
"""
from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone

from shared.auth import hash_token, new_token
from shared.codenames import pick_codename
from shared.errors import Conflict, Unprocessable
from shared.events import (
    Event, GameCreated, GameFinished, GameSettings, GameStarted, PlayerJoined, from_recorded,
    game_stream, to_new_event,
)
from shared.store import EventStore, GameRow
from shared.store.records import RecordedEvent

from services.adjudication.variants import variant_names

from .state import GameState, fold

SUPPORTED_PLAYER_COUNTS = (7,)
_codename_rng = random.SystemRandom()


def new_game_id() -> str:
    return "g_" + secrets.token_hex(6)


def new_player_id() -> str:
    return "p_" + secrets.token_hex(6)


def game_row(state: GameState) -> GameRow:
    return GameRow(game_id=state.game_id, variant=state.variant, name=state.name,
                   status=state.status, phase=state.phase, deadline=None,
                   summary=state.summary(), updated_at=datetime.now(timezone.utc))


def fold_records(records: list[RecordedEvent]) -> GameState:
    return fold(from_recorded(r) for r in records)


@dataclass(frozen=True)
class Created:
    state: GameState
    host_token: str


@dataclass(frozen=True)
class Joined:
    state: GameState
    player_id: str
    codename: str
    token: str


async def create_game(store: EventStore, *, name: str, variant: str, settings: GameSettings,
                      metadata: dict | None = None) -> Created:
    if variant not in variant_names():
        raise Unprocessable(f"variant {variant!r} is not supported; expected one of {variant_names()}",
                            code="unsupported_variant", where="body.variant")
    if settings.player_count not in SUPPORTED_PLAYER_COUNTS:
        raise Unprocessable(f"player_count {settings.player_count} is not supported yet; expected 7",
                            code="unsupported_player_count", where="body.settings.player_count")
    game_id, host_token = new_game_id(), new_token()
    created = GameCreated(game_id=game_id, variant=variant, name=name, settings=settings,
                          host_token_hash=hash_token(host_token))
    state = fold([created])
    async with store.transaction() as tx:
        await tx.append(game_stream(game_id), [to_new_event(created, metadata)], expected_version=0)
        await tx.put_game(game_row(state))
    return Created(state, host_token)


async def _append_to_game(tx, state: GameState, events: list[Event], metadata: dict | None) -> GameState:
    await tx.append(game_stream(state.game_id), [to_new_event(e, metadata) for e in events],
                    expected_version=state.version)
    records = await tx.read_stream(game_stream(state.game_id))
    new_state = fold_records(records)
    await tx.put_game(game_row(new_state))
    return new_state


async def join_game(store: EventStore, game_id: str, metadata: dict | None = None) -> Joined:
    async with store.transaction(game_id, lock="exclusive") as tx:
        state = fold_records(await tx.read_stream(game_stream(game_id)))
        if state.status != "forming":
            raise Conflict(f"game {game_id} has already started", code="game_started")
        if len(state.seats) >= state.settings.player_count:
            raise Conflict(f"game {game_id} is full ({state.settings.player_count} players)", code="game_full")
        token = new_token()
        codename = pick_codename(_codename_rng, [s.codename for s in state.seats])
        joined = PlayerJoined(player_id=new_player_id(), codename=codename, token_hash=hash_token(token))
        state = await _append_to_game(tx, state, [joined], metadata)
    return Joined(state, joined.player_id, codename, token)


def draw_powers(seed: int, player_ids: list[str], powers: list[str]) -> dict[str, str]:
    """Powers for players in join order, drawn by ``random.Random(seed)``: a replay draws the same."""
    shuffled = sorted(powers)
    random.Random(seed).shuffle(shuffled)
    return dict(zip(player_ids, shuffled))


async def start_game(store: EventStore, game_id: str, metadata: dict | None = None) -> GameState:
    from services.adjudication.service import opening  # the rules engine, behind the adjudication service

    async with store.transaction(game_id, lock="exclusive") as tx:
        state = fold_records(await tx.read_stream(game_stream(game_id)))
        if state.status != "forming":
            raise Conflict(f"game {game_id} has already started", code="game_started")
        needed = state.settings.player_count
        if len(state.seats) != needed:
            raise Conflict(f"game {game_id} needs {needed} players to start, has {len(state.seats)}",
                           code="not_enough_players")
        seed = secrets.randbits(63)
        first = opening(state.variant, state.settings.model_dump(), seed)
        powers = [power for seat in first.seats for power in seat]
        started = GameStarted(seed=seed, powers=draw_powers(seed, [s.player_id for s in state.seats], powers),
                              phase=first.phase, position=first.state, must_act=first.must_act)
        return await _append_to_game(tx, state, [started], metadata)


async def finish_game(store: EventStore, game_id: str, reason: str, metadata: dict | None = None) -> GameState:
    """End a game without a winner (a draw agreed by the players, or an abandoned game)."""
    async with store.transaction(game_id, lock="exclusive") as tx:
        state = fold_records(await tx.read_stream(game_stream(game_id)))
        if state.status == "finished":
            raise Conflict(f"game {game_id} is already finished", code="game_finished")
        finished = GameFinished(reason=reason, winners=[], phase=state.phase or "")  # type: ignore[arg-type]
        return await _append_to_game(tx, state, [finished], metadata)


async def list_games(store: EventStore, status: str | None, limit: int) -> list[dict]:
    rows = await store.list_games(status=status, limit=limit)
    return [row.summary for row in rows]
