"""The games of benchmarks/storm.py, built in memory and copied into PostgreSQL (a helper module,
not a benchmark: it prints nothing).

A storm game is a started game a phase or more into play (random legal orders, fleets sent to
sea, so that convoys are possible), every power's orders in for its current phase and that
phase's deadline at the storm's moment. Building each game through the API would take hours at
100,000 games, so a few dozen *templates* are played out in memory through the same pure
functions the server uses (the lobby's ``started_event``, the adjudication service's
``resolution_plan``), and each storm game is a template's events under a game id of its own,
with orders drawn afresh for it. The rows go in with ``COPY`` (asyncpg's
``copy_records_to_table``), a batch of games a transaction: the events exactly as the store
writes them (``to_new_event``, the store's JSON), and the games row as ``game_row`` makes it.
Two passes, so that the deadline is one moment for every game however long the copy takes:
every event but the phase's deadline first; then, the deadline chosen a little after the
second pass should end (its pace judged from the first's), each game's ``DeadlineSet`` and
its games row, without which no worker sees the game.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from shared.auth import hash_token
from shared.events import (
    DeadlineSet,
    Event,
    GameCreated,
    GameSettings,
    OrdersSubmitted,
    PlayerJoined,
    game_stream,
    orders_stream,
    to_new_event,
)
from shared.game.state import GameState, fold
from shared.game.submissions import latest_submissions

MARK = "ZZZZZZZ"  # a template's game number, replaced by each storm game's own (hex hashes hold no Z)
TEMPLATE_ID = f"g_storm{MARK}"
EVENT_COLUMNS = ["stream_id", "version", "type", "schema_version", "data", "metadata", "recorded_at"]
SEATS = {"ekonia": 6}  # a full game's players where not seven
GAME_COLUMNS = ["game_id", "variant", "name", "status", "phase", "deadline", "summary", "updated_at"]


def dumps(value: Any) -> str:
    from shared.store.recorders import dumps as store_dumps

    return store_dumps(value)


def game_id(number: int) -> str:
    return TEMPLATE_ID.replace(MARK, f"{number:07d}")


@dataclass
class Template:
    """A game played out to its storm phase: its stream's events (JSON texts, ``MARK`` where
    the game number goes), the options of every power that must act, the convoys possible
    (each a pair of (power, unit, order)), and the games row's summary."""

    variant: str
    phase: str
    players: dict[str, str]  # power -> player id
    stream: list[tuple[str, int, str, int, str, str]]  # (stream, version, type, schema, data, metadata)
    options: dict[str, dict[str, list[str]]]  # power -> unit -> legal orders
    convoys: list[tuple[tuple[str, str, str], tuple[str, str, str]]]
    row: tuple[str, str, str, str | None, datetime | None, str] | None = None  # variant, name, status, phase, ...
    deadline_event: tuple[str, int, str, int, str, str] | None = None


def _started(variant: str, seed: int) -> list[Event]:
    from services.lobby.service import started_event

    seats = SEATS.get(variant, 7)
    settings = GameSettings(movement_minutes=60, retreat_minutes=60, player_count=seats)
    created = GameCreated(game_id=TEMPLATE_ID, variant=variant, name=f"Storm {MARK}", settings=settings,
                          host_token_hash=hash_token(MARK))
    events: list[Event] = [created]
    events += [PlayerJoined(player_id=f"p_{MARK}_{seat}", codename=f"Codename {seat}",
                            token_hash=hash_token(f"{MARK}-{seat}")) for seat in range(seats)]
    return [*events, started_event(fold(events), seed=seed)]


def player_of(state: GameState, power: str) -> str | None:
    return next((seat.player_id for seat in state.seats if power in seat.powers), None)


def _options(state: GameState) -> dict[str, dict[str, list[str]]]:
    from shared.game.guards import require_playing
    from shared.game.intake import variant_of

    variant, current = variant_of(state), require_playing(state)
    return {power: variant.possible_orders(current, power) for power in state.must_act}


def convoys_in(options: dict[str, dict[str, list[str]]]) -> list[tuple[tuple[str, str, str], tuple[str, str, str]]]:
    """Every convoy order whose army may take the convoyed move: ((power, fleet, "F X C A Y - Z"),
    (power, army, "A Y - Z" or "A Y - Z VIA"))."""
    moves = {order: (power, unit) for power, units in options.items()
             for unit, orders in units.items() for order in orders}
    pairs = []
    for power, units in options.items():
        for unit, orders in units.items():
            for order in orders:
                _, sep, convoyed = order.partition(" C ")
                if not sep:
                    continue
                for move in (convoyed, convoyed + " VIA"):
                    if move in moves:
                        pairs.append(((power, unit, order), (*moves[move], move)))
                        break
    return pairs


def _wandering(options: dict[str, list[str]], rng: random.Random) -> list[str]:
    """A random order per unit, moves three times in four (so that fleets reach the sea)."""
    chosen = []
    for _, orders in sorted(options.items()):
        moves = [o for o in orders if " - " in o and " S " not in o and " C " not in o]
        chosen.append(rng.choice(moves if moves and rng.random() < 0.75 else orders) if orders else None)
    return [order for order in chosen if order is not None]


def play_template(variant: str, seed: int, resolutions: int, now: datetime) -> Template | None:
    """A template: ``resolutions`` phases played with random orders, then the phase reached
    (None when the game ended or its phase is not one in which powers order)."""
    from shared.game.resolution import resolution_plan

    rng = random.Random(seed)
    events = _started(variant, seed)
    state = fold(events)
    for _ in range(resolutions):
        orders = [OrdersSubmitted(phase=str(state.phase), power=power, player_id=player_of(state, power),
                                  orders=_wandering(units, rng))
                  for power, units in _options(state).items()]
        plan = resolution_plan(state, latest_submissions(orders, str(state.phase)), now, deadline=True)
        events += plan.events
        state = plan.state
        if state.status != "active" or not state.must_act:
            return None
    while isinstance(events[-1], DeadlineSet):  # the storm's own deadline goes in per game
        events.pop()
    options = _options(state)
    if not any(options.values()):
        return None
    stream = [(game_stream(TEMPLATE_ID), version, new.type, new.schema_version, dumps(new.data), dumps(new.metadata))
              for version, new in enumerate((to_new_event(e) for e in events), start=1)]
    players = {power: player_of(state, power) or "" for power in state.must_act}
    return Template(variant, str(state.phase), players, stream, options, convoys_in(options))


def templates(variant: str, count: int, resolutions: int, now: datetime, *, want_convoys: bool) -> list[Template]:
    """``count`` templates of different seeds; with ``want_convoys`` only those in which a
    convoy is possible, unless none of the first ``4 * count`` seeds gives one."""
    found: list[Template] = []
    others: list[Template] = []
    for seed in range(1, count * 4 + 1):
        template = play_template(variant, seed, resolutions, now)
        if template is not None:
            (found if template.convoys or not want_convoys else others).append(template)
        if len(found) == count:
            break
    return found or others[:count]


def at_deadline(template: Template, deadline: datetime, now: datetime) -> Template:
    """The template with the storm phase's deadline: its games row (``row``) and the event that
    sets it (``deadline_event``), written after the rest of the games (``deadline_rows``)."""
    from shared.events import from_recorded
    from shared.game.repository import game_row
    from shared.store.records import RecordedEvent

    new = to_new_event(DeadlineSet(phase=template.phase, deadline=deadline, minutes=60))
    last = (game_stream(TEMPLATE_ID), len(template.stream) + 1, new.type, new.schema_version, dumps(new.data),
            dumps(new.metadata))
    state = fold(from_recorded(RecordedEvent(stream_id=s, version=v, position=v, type=t, schema_version=sv,
                                             data=_loads(d), metadata=_loads(m), recorded_at=now))
                 for s, v, t, sv, d, m in [*template.stream, last])
    row = game_row(state, now)
    return replace(template, deadline_event=last,
                   row=(row.variant, row.name, row.status, row.phase, row.deadline, dumps(row.summary)))


def _loads(text: str) -> Any:
    import orjson

    return orjson.loads(text)


def drawn_orders(template: Template, rng: random.Random, convoy: bool) -> dict[str, list[str]]:
    """A random legal order for every unit of every power that must act; with ``convoy`` (and
    one possible) a convoy and the convoyed army's move among them."""
    chosen = {power: {unit: rng.choice(orders) for unit, orders in units.items() if orders}
              for power, units in template.options.items()}
    if convoy and template.convoys:
        for power, unit, order in rng.choice(template.convoys):
            chosen[power][unit] = order
    return {power: [units[unit] for unit in sorted(units)] for power, units in chosen.items()}


def game_rows(number: int, template: Template, rng: random.Random, convoy: bool,
              now: datetime) -> list[tuple[Any, ...]]:
    """One storm game's event rows but the deadline's: its stream, then one order stream a power."""
    mark = f"{number:07d}"
    events: list[tuple[Any, ...]] = [(s.replace(MARK, mark), v, t, sv, d.replace(MARK, mark), m, now)
                                     for s, v, t, sv, d, m in template.stream]
    for power, orders in drawn_orders(template, rng, convoy).items():
        submitted = to_new_event(OrdersSubmitted(phase=template.phase, power=power,
                                                 player_id=template.players[power].replace(MARK, mark), orders=orders))
        events.append((orders_stream(game_id(number), template.phase, power), 1, submitted.type,
                       submitted.schema_version, dumps(submitted.data), dumps(submitted.metadata), now))
    return events


def deadline_rows(number: int, template: Template, now: datetime) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """One storm game's last event (its phase's deadline) and its games row (``at_deadline``'s)."""
    assert template.row is not None and template.deadline_event is not None, "at_deadline first"
    mark = f"{number:07d}"
    s, v, t, sv, d, m = template.deadline_event
    variant, name, status, phase, deadline, summary = template.row
    return ((s.replace(MARK, mark), v, t, sv, d, m, now),
            (game_id(number), variant, name.replace(MARK, mark), status, phase, deadline, summary.replace(MARK, mark),
             now))


def storm_batches(templates_: list[Template], count: int, batch: int, seed: int, now: datetime,
                  convoy_share: float = 0.2) -> Iterator[tuple[list[tuple[Any, ...]], int]]:
    """Batches of (event rows but the deadlines', convoys drawn) of games 0 .. ``count``."""
    rng = random.Random(seed)
    for start in range(0, count, batch):
        events: list[tuple[Any, ...]] = []
        convoys = 0
        for number in range(start, min(start + batch, count)):
            template = templates_[number % len(templates_)]
            convoy = bool(template.convoys) and rng.random() < convoy_share
            convoys += convoy
            events += game_rows(number, template, rng, convoy, now)
        yield events, convoys


def deadline_batches(templates_: list[Template], count: int, batch: int,
                     now: datetime) -> Iterator[tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]]:
    """Batches of (deadline events, games rows) of games 0 .. ``count``."""
    for start in range(0, count, batch):
        rows = [deadline_rows(number, templates_[number % len(templates_)], now)
                for number in range(start, min(start + batch, count))]
        yield [event for event, _ in rows], [game for _, game in rows]


async def copy_games(connection: Any, events: list[tuple[Any, ...]], games: list[tuple[Any, ...]]) -> None:
    """One batch in one transaction, by COPY."""
    async with connection.transaction():
        await connection.copy_records_to_table("events", records=events, columns=EVENT_COLUMNS)
        if games:
            await connection.copy_records_to_table("games", records=games, columns=GAME_COLUMNS)


def jsonb_as_text(connection: Any) -> Any:
    """COPY's binary format writes jsonb as a version byte and the text: let asyncpg take str."""
    return connection.set_type_codec("jsonb", encoder=lambda text: b"\x01" + text.encode(),
                                     decoder=lambda data: data[1:].decode(), schema="pg_catalog", format="binary")
