"""A game's log as its readers need it: the game stream and its order streams in log order,
up to a global position if asked. The views, the live stream, the operator's export of the log
and replay all read it here.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from shared.events import Event, from_recorded, game_stream, orders_prefix, orders_stream
from shared.store import EventStore, RecordedEvent, Transaction

from .cached import FoldedSubmissions, caches_of, reads_committed
from .state import GameState, fold
from .submissions import PowerSubmission, latest_submissions


def is_order_stream_of(stream_id: str, game_id: str) -> bool:
    """``orders-{game}-{phase}-{POWER}``: the phase and the power hold no dash (a game id may)."""
    prefix = orders_prefix(game_id)
    return stream_id.startswith(prefix) and stream_id[len(prefix):].count("-") == 1


@dataclass(frozen=True)
class GameLog:
    """The game stream's records and the order streams' records (one phase, or all), each
    list in global position order."""

    game: list[RecordedEvent]
    orders: list[RecordedEvent]

    def records(self) -> list[RecordedEvent]:
        """Every record, in global position order."""
        return sorted([*self.game, *self.orders], key=lambda record: record.position)

    def state(self) -> GameState | None:
        """The game folded from its stream (None when the log is empty)."""
        return fold(from_recorded(r) for r in self.game) if self.game else None

    def order_events(self) -> list[Event]:
        return [from_recorded(r) for r in self.orders]

    def submissions(self, phase: str | None) -> dict[str, PowerSubmission]:
        """Each power's latest submission for ``phase`` among the order records."""
        return latest_submissions(self.order_events(), phase) if phase else {}


def _until(records: list[RecordedEvent], up_to: int | None) -> list[RecordedEvent]:
    return records if up_to is None else [r for r in records if r.position <= up_to]


async def _order_records(reader: EventStore | Transaction, game_id: str, phase: str | None,
                         up_to: int | None) -> list[RecordedEvent]:
    """The order records of ``phase`` (None: of every phase), in global position order."""
    streams = await reader.events.read_streams(orders_prefix(game_id, phase))
    orders = [record for stream_id, records in streams.items()
              if is_order_stream_of(stream_id, game_id) for record in _until(records, up_to)]
    return sorted(orders, key=lambda record: record.position)


async def read_log(reader: EventStore | Transaction, game_id: str, *, phase: str | None = None,
                   all_orders: bool = False, up_to: int | None = None) -> GameLog:
    """The game's log: its stream and the order streams of ``phase`` (or of every phase with
    ``all_orders``), only records at or before ``up_to`` when given. Every record up to a
    position the caller has seen has committed, so separate reads filtered by it agree."""
    game = _until(await reader.events.read_stream(game_stream(game_id)), up_to)
    if not game or not (phase or all_orders):
        return GameLog(game, [])
    return GameLog(game, await _order_records(reader, game_id, None if all_orders else phase, up_to))


def _weight(submissions: dict[str, PowerSubmission]) -> int:
    """The estimated memory of a phase's submissions: a Python string is about 50 bytes
    beside its text; a power's entry, and the entry itself, a few hundred."""
    return 300 + sum(300 + sum(60 + len(text) for text in s.orders or ()) for s in submissions.values())


class PhaseSubmissions:
    """One phase's submissions as this process last folded them, and the position of the last
    order event folded in: ``after`` is what a read of the events since needs, ``advanced``
    the submissions once those events are folded in (and remembered for the next reader)."""

    def __init__(self, reader: EventStore | Transaction, game_id: str, phase: str) -> None:
        self.entries = caches_of(reader).submissions  # by game: the submissions of the last phase read
        self.cacheable = reads_committed(reader)
        self.game_id, self.phase, self.prefix = game_id, phase, orders_prefix(game_id, phase)
        found = self.entries.get(game_id)
        self._entry = found if found is not None and found.phase == phase else FoldedSubmissions(phase, {}, 0)

    @property
    def after(self) -> int:
        return self._entry.position

    def known(self, power: str) -> PowerSubmission:
        """The power's submission as this process last folded it (no read: it may be a little
        behind another process's writes)."""
        return self._entry.submissions.get(power, PowerSubmission())

    def streams(self, powers: Iterable[str]) -> list[str]:
        """The phase's order streams of ``powers``: given the powers that must act in the phase,
        every stream the phase's submissions can be in (only those powers may submit, and a
        phase keeps its list from its start to its resolution)."""
        return [orders_stream(self.game_id, self.phase, power) for power in powers]

    def advanced(self, records: Iterable[RecordedEvent]) -> dict[str, PowerSubmission]:
        """The submissions after ``records`` (every order event of the phase after ``after``
        up to some position, as the store gave them)."""
        mine = sorted((r for r in records if is_order_stream_of(r.stream_id, self.game_id)
                       and r.stream_id.startswith(self.prefix)), key=lambda record: record.position)
        entry = self._entry
        if mine:
            folded = latest_submissions((from_recorded(r) for r in mine), onto=entry.submissions)
            entry = FoldedSubmissions(self.phase, folded, mine[-1].position)
        if self.cacheable:
            entries, key = self.entries, self.game_id
            current = entries.peek(key)
            if current is None or current.phase != self.phase or current.position <= entry.position:
                entries.put(key, entry, _weight(entry.submissions))
            else:
                entries.touch(key)
        return entry.submissions


async def phase_submissions(reader: EventStore | Transaction, game_id: str, phase: str) -> dict[str, PowerSubmission]:
    """Each power's latest orders and ready flag in ``phase``, read from its order streams
    through a per-process cache: only the events after the last position folded are read
    (positions become visible in commit order), so the cost does not grow with the
    submissions the phase already holds. The dict is shared: read it, never change it."""
    folded = PhaseSubmissions(reader, game_id, phase)
    streams = await reader.events.read_streams(folded.prefix, folded.after)
    return folded.advanced(record for records in streams.values() for record in records)


async def phases_submissions(tx: Transaction, phases: Sequence[tuple[str, str]]) -> list[dict[str, PowerSubmission]]:
    """``phase_submissions`` of each (game, phase) of distinct games, their order streams read in
    one statement (``read_prefixes``), each after the position this process last folded."""
    folded = [PhaseSubmissions(tx, game_id, phase) for game_id, phase in phases]
    found = await tx.events.read_prefixes({each.prefix: each.after for each in folded})
    return [each.advanced(record for records in found[each.prefix].values() for record in records)
            for each in folded]
