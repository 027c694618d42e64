"""The lobby's decisions: create a game, seat a player, start it, and the host's clock acts
(extend, pause, resume) and the players' draw votes. Each writes its events to the game
stream and the games row (with the deadline the clock worker sweeps) in one transaction.
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from shared.auth import hash_token, new_token, same_hash
from shared.clock import SYSTEM_CLOCK
from shared.codenames import pick_codename
from shared.errors import Conflict, ErrorCode, Forbidden, NotFound, Unprocessable
from shared.events import (
    Event,
    EventMetadata,
    GameCreated,
    GameFinished,
    GameSettings,
    GameStarted,
    PlayerJoined,
    PowerJoin,
    SeatRemoved,
    from_recorded,
    game_stream,
    orders_stream,
    to_new_event,
)
from shared.events_daide import DaidePortOpened
from shared.events_social import SeatLinked, account_stream, members_stream
from shared.game import deadlines, guards, intake
from shared.game.commands import Concede, Player, VoteDraw
from shared.game.house_bots import check_bot_settings, house_bot_orders
from shared.game.repository import append_events, game_row, read_state
from shared.game.state import GameState, Seat, fold
from shared.rules.variants import UnsupportedPlayerCount, get_variant, variant_names
from shared.store import EventStore, Transaction
from shared.store.records import RecordedEvent

_codename_rng = random.SystemRandom()


def new_game_id() -> str:
    return "g_" + secrets.token_hex(6)


def new_player_id() -> str:
    return "p_" + secrets.token_hex(6)


def new_invite_code() -> str:
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class Created:
    state: GameState
    host_token: str
    invite_code: str | None = None  # a private game's, shown once like the host token


@dataclass(frozen=True)
class Joined:
    state: GameState
    player_id: str
    codename: str
    token: str


def _check_variant(variant: str) -> None:
    if variant not in variant_names():
        raise Unprocessable(f"variant {variant!r} is not supported; expected one of {variant_names()}",
                            code=ErrorCode.UNSUPPORTED_VARIANT, where="body.variant")


def settings_for(variant: str, given: dict[str, Any]) -> GameSettings:
    """The settings of a new game: what the creator gave, the variant's defaults for the rest
    (a Tale of Ekonia table is six players, a standard one seven)."""
    _check_variant(variant)
    chosen = {key: value for key, value in given.items() if value is not None}
    defaults = dict(get_variant(variant).default_settings)
    return GameSettings(**{**defaults, **chosen})


def check_settings(variant: str, settings: GameSettings) -> None:
    _check_variant(variant)
    check_bot_settings(variant, settings)
    deadlines.check_clock_settings(settings)
    try:  # the variant says how many it seats, in its own words (2 to 7, 7 only, 2 to 6)
        get_variant(variant).check_settings(settings.for_rules())
    except UnsupportedPlayerCount as error:
        raise Unprocessable(f"the {variant} game cannot be set up so: {error}",
                            code=ErrorCode.UNSUPPORTED_PLAYER_COUNT, where="body.settings.player_count") from None
    except ValueError as error:
        raise Unprocessable(f"the {variant} game cannot be set up so: {error}",
                            code=ErrorCode.UNSUPPORTED_SETTING, where="body.settings") from None
    try:
        get_variant(variant).opening(settings.for_rules(), 0)
    except ValueError as error:
        raise Unprocessable(f"the {variant} game cannot be set up so: {error}",
                            code=ErrorCode.UNSUPPORTED_PLAYER_COUNT, where="body.settings.player_count") from None


async def create_game(store: EventStore, *, name: str, variant: str, settings: GameSettings,
                      metadata: EventMetadata | None = None, now: datetime | None = None) -> Created:
    check_settings(variant, settings)
    game_id, host_token = new_game_id(), new_token()
    invite_code = new_invite_code() if settings.private else None
    created = GameCreated(game_id=game_id, variant=variant, name=name, settings=settings,
                          host_token_hash=hash_token(host_token),
                          invite_code_hash=hash_token(invite_code) if invite_code else "")
    state = fold([created])
    async with store.transaction() as tx:
        await tx.events.append(game_stream(game_id), [to_new_event(created, metadata)], expected_version=0)
        await tx.games.put_game(game_row(state, now))
    return Created(state, host_token, invite_code)


def check_invite(state: GameState, invite_code: str | None) -> None:
    """403 unless a private game's invite code is given (``invite_required``) and is its own
    (``invalid_invite_code``); a public game takes any (docs/hosting.md, "Private games")."""
    if not state.settings.private:
        return
    if not invite_code:
        raise Forbidden(f"game {state.game_id} is private: join it with the invite code its host was given",
                        code=ErrorCode.INVITE_REQUIRED, where="body.invite_code")
    if not state.invite_code_hash or not same_hash(hash_token(invite_code), state.invite_code_hash):
        raise Forbidden("this is not the game's invite code",
                        code=ErrorCode.INVALID_INVITE_CODE, where="body.invite_code")


async def join_game(store: EventStore, game_id: str, *, metadata: EventMetadata | None = None,
                    now: datetime | None = None, account_id: str | None = None,
                    invite_code: str | None = None, daide: bool = False) -> Joined:
    """Seat a new player; with ``account_id`` (a signed-in account joining), the seat is linked
    to the account (``SeatLinked`` in ``members-{game_id}`` and the account's stream) in the same
    transaction, under the game's lock, and an account already seated here gets 409 (403
    ``seat_removed`` when the host removed its seat). A private game needs its invite code.
    ``daide``: a DAIDE bot takes the seat by name on the game's own port (docs/bots.md)."""
    async with store.transaction(game_id, lock="exclusive") as tx:
        state = await read_state(tx, game_id)
        guards.require_forming(state)
        check_invite(state, invite_code)
        members = await tx.events.read_stream(members_stream(game_id)) if account_id else []
        taken = [from_recorded(r) for r in members if account_id and _seated(r, account_id)]
        if any(isinstance(e, SeatLinked) and state.seat(e.player_id) is None for e in taken):
            raise Forbidden("the host removed this account's seat from this game", code=ErrorCode.SEAT_REMOVED)
        if taken:
            raise Conflict("this account already has a seat in this game", code=ErrorCode.ALREADY_SEATED)
        if len(state.seats) >= state.settings.player_count:
            raise Conflict(f"game {game_id} is full ({state.settings.player_count} players)", code=ErrorCode.GAME_FULL)
        token = new_token()
        codename = pick_codename(_codename_rng, [s.codename for s in state.seats])
        joined = PlayerJoined(player_id=new_player_id(), codename=codename, token_hash=hash_token(token), daide=daide)
        state = await append_events(tx, state, [joined], metadata, now)
        if account_id:
            linked = to_new_event(SeatLinked(game_id=game_id, player_id=joined.player_id, account_id=account_id),
                                  {**(metadata or {}), "actor": "account"})
            await tx.events.append(members_stream(game_id), [linked], expected_version=len(members))
            await tx.events.append(account_stream(account_id), [linked], expected_version=None)
    return Joined(state, joined.player_id, codename, token)


async def open_daide_port(store: EventStore, game_id: str, port: int, now: datetime | None = None) -> GameState:
    """Record the game's own DAIDE port (``DaidePortOpened``: the summary's ``daide_port``), the
    DAIDE server's act; nothing is written when it is already the game's port or the game is over."""
    async with store.transaction(game_id, lock="exclusive") as tx:
        state = await read_state(tx, game_id)
        if state.daide_port == port or state.status == "finished":
            return state
        return await append_events(tx, state, [DaidePortOpened(port=port)], {"actor": "daide"}, now)


def _seated(record: RecordedEvent, account_id: str) -> bool:
    event = from_recorded(record)
    return isinstance(event, SeatLinked) and event.account_id == account_id


def seat_named(state: GameState, name: str) -> Seat:
    """The seat called ``name``: its codename (any case, as the public summary lists it) or its
    player id; 404 ``seat_not_found`` otherwise."""
    wanted = name.strip().casefold()
    for seat in state.seats:
        if seat.codename.casefold() == wanted or seat.player_id == name.strip():
            return seat
    raise NotFound(f"game {state.game_id} has no seat {name!r} (a codename of its summary, or a player id)",
                   code=ErrorCode.SEAT_NOT_FOUND, where="path.seat")


async def remove_seat(store: EventStore, game_id: str, name: str, metadata: EventMetadata | None = None,
                      now: datetime | None = None) -> GameState:
    """Free a seat before the start (the host's or the operator's act): ``SeatRemoved`` in the
    log, the seat's token plays nothing any more, and the place can be taken again; 404
    ``seat_not_found`` for no such seat, 409 once the game has started."""
    async with store.transaction(game_id, lock="exclusive") as tx:
        state = await read_state(tx, game_id)
        guards.require_forming(state)
        seat = seat_named(state, name)
        removed = SeatRemoved(player_id=seat.player_id, codename=seat.codename)
        return await append_events(tx, state, [removed], metadata, now)


def draw_seats(seed: int, player_ids: list[str], seats: Sequence[Sequence[str]]) -> dict[str, list[str]]:
    """Each player's seat (the powers they play), drawn by ``random.Random(seed)``: a replay
    draws the same. Seats are put in a canonical order first, so only the seed decides."""
    shuffled = sorted(sorted(seat) for seat in seats)
    random.Random(seed).shuffle(shuffled)
    return dict(zip(player_ids, shuffled, strict=False))


def started_event(state: GameState, seed: int) -> GameStarted:
    first = get_variant(state.variant).opening(state.settings.for_rules(), seed)
    player_ids = [s.player_id for s in state.seats]
    seats = draw_seats(seed, player_ids, first.seats)
    seat_index = {tuple(sorted(seat)): i for i, seat in enumerate(first.seats)}
    player_of_seat = {seat_index[tuple(powers)]: player for player, powers in seats.items()}
    joins = [PowerJoin(power=power, player_id=player_of_seat[index], phase=phase)
             for power, index, phase in first.joins if index in player_of_seat]
    return GameStarted(seed=seed, powers=seats, phase=first.phase, position=first.state,
                       must_act=first.must_act, joins=joins)


async def start_game(store: EventStore, game_id: str, metadata: EventMetadata | None = None,
                     now: datetime | None = None) -> GameState:
    now = now or SYSTEM_CLOCK.now()
    async with store.transaction(game_id, lock="exclusive") as tx:
        state = await read_state(tx, game_id)
        guards.require_forming(state)
        needed = state.settings.player_count
        filled = state.settings.bots_fill_empty_seats and state.settings.house_bot is not None
        if len(state.seats) != needed and not (filled and state.seats):
            raise Conflict(f"game {game_id} needs {needed} players to start, has {len(state.seats)}"
                           + ("" if filled else " (or house bots for the empty seats: docs/bots.md)"),
                           code=ErrorCode.NOT_ENOUGH_PLAYERS)
        bots = bot_seats(state, needed - len(state.seats))
        seated = fold(bots, onto=state) if bots else state
        started = started_event(seated, secrets.randbits(63))
        deadline = deadlines.opening_deadline(state, started.phase, now)
        state = await append_events(tx, state, [*bots, started, deadline], metadata, now)
        await append_bot_orders(tx, state)
        return state


def bot_seats(state: GameState, count: int) -> list[PlayerJoined]:
    """The house bot's seats for the ``count`` seats nobody joined: no token, a codename that
    says what it is (docs/bots.md)."""
    taken = len([s for s in state.seats if s.house_bot])
    return [PlayerJoined(player_id=f"bot_{taken + n}", codename=f"House Bot {taken + n}", token_hash="",
                         house_bot=True) for n in range(1, count + 1)]


async def append_bot_orders(tx: Transaction, state: GameState) -> None:
    """The house bot's orders for the powers it plays in the phase that just began."""
    for orders in house_bot_orders(state):
        await tx.events.append_on_commit(orders_stream(state.game_id, orders.phase, orders.power),
                                         [to_new_event(orders, {"actor": "house_bot"})], expected_version=None)


async def finish_game(store: EventStore, game_id: str, reason: Literal["draw", "abandoned"],
                      metadata: EventMetadata | None = None,
                      now: datetime | None = None) -> GameState:
    """End a game without a winner (a draw agreed by the players, or an abandoned game)."""
    async with store.transaction(game_id, lock="exclusive") as tx:
        state = await read_state(tx, game_id)
        if state.status == "finished":
            raise Conflict(f"game {game_id} is already finished", code=ErrorCode.GAME_FINISHED)
        finished = GameFinished(reason=reason, winners=[], phase=state.phase or "")
        return await append_events(tx, state, [finished], metadata, now)


async def clock_act(store: EventStore, game_id: str, act: str, *, now: datetime, by: Any,
                    minutes: int | None = None, metadata: EventMetadata | None = None) -> GameState:
    """The host's (or operator's) clock acts, each bounded by ``clock``: extend, pause, resume."""
    async with store.transaction(game_id, lock="exclusive") as tx:
        state = await read_state(tx, game_id)
        if act == "extend":
            event: Event = deadlines.extend(state, int(minutes or 0), now, by)
        elif act == "pause":
            event = deadlines.pause(state, minutes, now, by)
        elif act == "resume":
            event = deadlines.resume(state, now, by)
        else:  # pragma: no cover - the API names the act
            raise ValueError(act)
        return await append_events(tx, state, [event], metadata, now)


async def vote_draw(store: EventStore, game_id: str, player_id: str, in_favour: bool,
                    powers: Sequence[str] | None = None, *, metadata: EventMetadata | None = None,
                    now: datetime | None = None) -> GameState:
    """A seat's draw vote: the intake's (shared/game/intake.py), as a DAIDE seat's DRW is."""
    command = VoteDraw(game_id, Player(player_id), in_favour, metadata, now, powers=powers)
    return (await intake.vote(store, command)).state


async def concede(store: EventStore, game_id: str, player_id: str, to: str | None, *,
                  metadata: EventMetadata | None = None, now: datetime | None = None) -> GameState:
    """A seat's concession (or its withdrawal): the intake's, as a draw vote is."""
    return (await intake.vote(store, Concede(game_id, Player(player_id), to, metadata, now))).state


def check_variant_filter(variant: str) -> None:
    """422 ``unsupported_variant`` for a list filtered by a name that is no variant: a typo
    would otherwise look like a variant nobody plays."""
    if variant not in variant_names():
        raise Unprocessable(f"variant {variant!r} is not supported; expected one of {variant_names()}",
                            code=ErrorCode.UNSUPPORTED_VARIANT, where="query.variant")


async def list_games(store: EventStore, status: str | None, limit: int,
                     after: tuple[datetime, str] | None = None,
                     variant: str | None = None, *, listed_only: bool = True, bots_may_join: bool | None = None,
                     ) -> tuple[list[dict[str, Any]], tuple[datetime, str] | None]:
    """A page of the games list, latest changed first, and where the next page starts (None:
    this was the last). A game that changes while a client pages moves to the front of the
    list: it is on a fresh first page, never twice in one walk through it. Each summary says
    when its game last changed (``updated_at``, the row's), so a client can tell same-named
    games apart and leave out those long idle. ``listed_only``: private games left out (the
    operator's list has them). ``bots_may_join``: only the games that seat bots (true) or do
    not (false)."""
    rows = await store.games.list_games(status=status, limit=limit + 1, after=after, variant=variant,
                                        listed_only=listed_only, bots_may_join=bots_may_join)
    more = len(rows) > limit
    rows = rows[:limit]
    summaries = [{**row.summary, "updated_at": row.updated_at.isoformat()} for row in rows]
    return summaries, ((rows[-1].updated_at, rows[-1].game_id) if more else None)
