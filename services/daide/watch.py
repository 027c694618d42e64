"""The DAIDE server's shared state: which clients follow which game, the log followed for all of
them by one tailer (``EventStore.tail``, shared/store/tail.py, as the HTTP live stream follows
it: woken by PostgreSQL's notifications, polling on SQLite), one watcher per game that looks at
its game (a read through the repository's cache) only when the tailer saw its game, press or
bots stream change, when a client of this server wrote to it, or each second while one of its
clients awaits a time mark (TME), the seats' rejoin passcodes (services/daide/rejoin.py), who
holds a seat now (a second connection for a seat takes it over: the first gets OFF and is
closed), and the seats whose credential was revoked (closed as soon as the tailer sees the
revocation: services/daide/seats.py). Press is relayed from the records the tailer read, never
read again (docs/bots.md, "Following the game").
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from shared.events import from_recorded
from shared.events_daide import DaideSeatTaken
from shared.events_social import MessageSent
from shared.game.repository import read_game
from shared.game.state import GameState
from shared.http.stream_leases import SharedStreams
from shared.store import EventStore, RecordedEvent
from shared.store.leases import Lease

from .board import POWER_CODES, standard_map_data, supply_centres
from .desk import Desk
from .grants import BotTokens
from .press import frm_message, press_of
from .rejoin import Held, remember
from .seats import Seated, revoked
from .syntax import Item

log = logging.getLogger("entente.daide")
BACKSTOP_SECONDS = 30.0  # a watcher looks at its game at least this often, whatever the tailer says
TAIL_SECONDS = 1.0  # the tailer's longest wait for the log (then it looks whether anyone still follows)


class WatchedSession(Seated, Protocol):
    """What the hub reads and calls of a client's session: session.py's ``Session``, which
    imports this module (so this one names only what it needs, and imports nothing of it);
    beyond what seats.py's ``Seated`` reads of it."""

    @property
    def passcode(self) -> int: ...
    @property
    def connection(self) -> str: ...
    @property
    def taken_at(self) -> int: ...
    @property
    def port(self) -> int | None: ...
    @property
    def started(self) -> bool: ...
    @property
    def timed(self) -> bool: ...
    @property
    def send(self) -> Callable[[list[Item]], None]: ...
    async def tick(self, state: GameState, now_seconds: float | None) -> None: ...


@dataclass
class _Watcher:
    sessions: set[WatchedSession] = field(default_factory=set)
    press: list[RecordedEvent] = field(default_factory=list)  # press the tailer read, not relayed yet
    check_grants: bool = True  # the game or its bot tokens changed: the seats' credentials checked again
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


def seat_key(game_id: str, player_id: str) -> str:
    """The seat's key among the store's leases (shared/store/leases.py)."""
    return f"daide:{game_id}:{player_id}"


def followed(stream_id: str) -> tuple[str, str] | None:
    """(kind, game id) of a stream a DAIDE watcher follows: its game, press and bots streams
    (the order streams, most of the log, tell a DAIDE client nothing)."""
    kind, _, game_id = stream_id.partition("-")
    return (kind, game_id) if kind in ("game", "press", "bots") and game_id else None


class Hub:
    def __init__(self, store: EventStore, desk: Desk, *, poll: float = 1.0,
                 on_beat: Callable[[bool], None] | None = None) -> None:
        self.store, self.desk, self.poll = store, desk, poll
        self.map_data = standard_map_data()
        self.centres = supply_centres(self.map_data)
        self._watchers: dict[str, _Watcher] = {}
        self._seats: dict[tuple[str, str], WatchedSession] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self.bot_tokens = BotTokens()
        # which connection holds each seat, for every process: a lease in the store, so that an
        # IAM on another process sees a takeover (services/daide/seats.py)
        self.holders = SharedStreams(store)
        self._leases: dict[int, Lease] = {}
        self._on_beat = on_beat
        self._tailer: asyncio.Task[None] | None = None
        self._tailing = asyncio.Event()  # set once the tailer has its start: watchers look after it
        self.log_reads = 0  # the tailer's reads of the log so far (tests, the curious)

    # ------------------------------------------------------------------------- sessions

    def join(self, session: WatchedSession) -> None:
        assert session.game_id is not None
        if session.player_id is not None:
            key = (session.game_id, session.player_id)
            previous = self._seats.get(key)
            self._seats[key] = session
            if previous is not None and previous is not session:
                previous.admin("this seat was taken over by a new connection")
                previous.send(["OFF"])
                previous.close()
        watcher = self._watchers.setdefault(session.game_id, _Watcher())
        watcher.sessions.add(session)
        if self._tailer is None or self._tailer.done():
            self._tailing.clear()
            self._tailer = asyncio.create_task(self._tail(), name="entente daide tailer")
        if watcher.task is None:
            watcher.task = asyncio.create_task(self._watch(session.game_id, watcher))

    async def hold(self, session: WatchedSession) -> None:
        """``session`` holds its seat now, for every process (its lease in the store; a failure
        is logged: only the record of a later takeover across processes then misses it)."""
        if session.game_id is None or session.player_id is None:
            return
        try:
            self._leases[id(session)] = await self.holders.hold(seat_key(session.game_id, session.player_id),
                                                                session.connection)
        except Exception:
            log.exception("holding the seat's lease of game %s failed", session.game_id)

    async def held_elsewhere(self, game_id: str, player_id: str) -> bool:
        """Whether a connection on any process holds the seat now."""
        return await self.holders.is_held(seat_key(game_id, player_id))

    def leave(self, session: WatchedSession) -> None:
        self._locks.pop(id(session), None)
        if (lease := self._leases.pop(id(session), None)) is not None:
            self.holders.release(lease)  # (a later connection's lease of the seat is not this one)
        if session.game_id is None:
            return
        if session.player_id is not None and self._seats.get((session.game_id, session.player_id)) is session:
            del self._seats[(session.game_id, session.player_id)]
        watcher = self._watchers.get(session.game_id)
        if watcher is not None:
            watcher.sessions.discard(session)
            if not watcher.sessions:
                watcher.wake.set()  # its loop ends

    def finished(self, session: WatchedSession) -> None:
        """A client told of the end of its game: closed a moment later (after OFF)."""
        asyncio.get_running_loop().call_later(1.0, session.close)

    def lock_of(self, session: WatchedSession) -> asyncio.Lock:
        return self._locks.setdefault(id(session), asyncio.Lock())

    def poke(self, game_id: str) -> None:
        """Look at the game now (a client of this server just wrote to it)."""
        watcher = self._watchers.get(game_id)
        if watcher is not None:
            watcher.wake.set()

    async def settle(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) for the watchers to end once their clients have
        left: at SIGTERM, before the store closes under them."""
        tasks = [w.task for w in self._watchers.values() if w.task is not None and not w.task.done()]
        if self._tailer is not None and not self._tailer.done():
            tasks.append(self._tailer)
        for watcher in self._watchers.values():
            watcher.wake.set()
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
        await self.holders.close()
        if self._tailer is not None and not self._tailer.done():
            self._tailer.cancel()
            await asyncio.gather(self._tailer, return_exceptions=True)

    @property
    def games_watched(self) -> int:
        return len(self._watchers)

    # ------------------------------------------------------------------------- rejoining

    async def remember(self, session: WatchedSession) -> None:
        """Keep the seat of an HLO for IAM (power) (passcode), in the store for every process:
        keyed by its game (and port). A failure is logged: the seat then comes back by NME."""
        if session.game_id is None or session.player_id is None or session.power is None or session.grant is None:
            return
        try:
            await remember(self.store, Held(session.game_id, session.player_id, session.power, session.grant,
                                            session.port), session.passcode, session.address, time.time())
        except Exception:
            log.exception("keeping the seat of game %s for IAM failed", session.game_id)

    def _seat_taken(self, record: RecordedEvent) -> None:
        """A connection took a seat, on this process or another: the seat's holder here, if it
        is another connection that took it before, is sent OFF (the latest connection holds a
        seat, whichever process it is on)."""
        event = from_recorded(record)
        if not isinstance(event, DaideSeatTaken):
            return
        game_id = record.stream_id.removeprefix("daide-")
        holder = self._seats.get((game_id, event.player_id))
        if holder is None or holder.connection == event.connection or holder.taken_at >= record.position:
            return
        del self._seats[(game_id, event.player_id)]
        holder.admin("this seat was taken over by a new connection")
        holder.send(["OFF"])
        holder.close()

    def holder(self, game_id: str, player_id: str) -> WatchedSession | None:
        """The connection that holds a seat now, if any."""
        return self._seats.get((game_id, player_id))

    # ------------------------------------------------------------------------- the clock

    def seconds_left(self, state: GameState) -> float | None:
        if state.status != "active" or state.deadline is None:
            return None
        return max(0.0, (state.deadline - self.desk.now()).total_seconds())

    # ------------------------------------------------------------------------- following a game

    async def _tail(self) -> None:
        """Follow the log for every watched game, from the head when the first client came,
        while anyone follows a game: wake the watcher of each game whose game, press or bots
        stream changed, handing it the press read."""
        while True:
            try:
                start = await self.store.events.head()
                break
            except Exception:
                log.exception("reading the log's head failed; trying again")
                self._beat(False)
                await asyncio.sleep(1.0)
        async with self.store.tail(start) as tail:
            self._tailing.set()
            while self._watchers:
                reads = tail.reads
                try:
                    records = await tail.next(TAIL_SECONDS, limit=1000)
                except Exception:
                    log.exception("following the log failed; trying again")
                    self._beat(False)
                    await asyncio.sleep(1.0)
                    continue
                finally:
                    self.log_reads += tail.reads - reads
                for record in records:
                    if record.type == "DaideSeatTaken":
                        self._seat_taken(record)
                        continue
                    found = followed(record.stream_id)
                    watcher = self._watchers.get(found[1]) if found is not None else None
                    if found is None or watcher is None:
                        continue
                    if found[0] == "press":
                        watcher.press.append(record)
                    else:
                        watcher.check_grants = True  # a seat removed, a bot token revoked
                        if found[0] == "bots":
                            self.bot_tokens.forget(found[1])
                    watcher.wake.set()
                self._beat(True)

    async def _watch(self, game_id: str, watcher: _Watcher) -> None:
        await self._tailing.wait()  # the tailer's start is read before this watcher's first look
        version = -1
        while watcher.sessions:
            try:
                state = await read_game(self.store, game_id)
                if state is not None:
                    left = self.seconds_left(state)
                    if state.version != version or any(s.timed for s in watcher.sessions):
                        version = state.version
                        for session in list(watcher.sessions):
                            await self._tick(session, state, left)
                    if watcher.check_grants:
                        watcher.check_grants = False
                        for gone in await revoked(self, state, watcher.sessions):
                            gone.send(["OFF"])
                            gone.close()
                self._relay_press(watcher)
            except Exception:
                log.exception("following game %s failed; trying again", game_id)
                self._beat(False)
            watcher.wake.clear()
            await self._until_due(watcher)
        if self._watchers.get(game_id) is watcher:
            del self._watchers[game_id]

    async def _until_due(self, watcher: _Watcher) -> None:
        """Wait until the watcher is woken (the tailer saw its game change, a client of this
        server wrote to it), a client of it awaits a time mark (TME, looked at each ``poll``
        seconds, reading nothing in between), or the backstop is due."""
        waited = 0.0
        while waited < BACKSTOP_SECONDS:
            try:
                await asyncio.wait_for(watcher.wake.wait(), self.poll)
                return
            except TimeoutError:
                waited += self.poll
                if any(s.timed for s in watcher.sessions):
                    return
        watcher.check_grants = True  # the backstop: as if the tailer had seen a change

    def _relay_press(self, watcher: _Watcher) -> None:
        """Messages the tailer read whose text is level-10 press: FRM to the DAIDE seats among
        their recipients (every power but the sender for a public one). Press sent before the
        game's first client came is not replayed."""
        records, watcher.press = watcher.press, []
        for record in records:
            sent = from_recorded(record)
            press = press_of(sent.text) if isinstance(sent, MessageSent) else None
            if press is None or not isinstance(sent, MessageSent):
                continue
            for session in list(watcher.sessions):
                if session.power is None or session.power == sent.sender or not session.started:
                    continue
                if sent.recipients is None or session.power in sent.recipients:
                    everyone = sent.recipients or sorted(p for p in POWER_CODES if p != sent.sender)
                    session.send(frm_message(POWER_CODES[sent.sender], [POWER_CODES[p] for p in everyone], press))

    async def _tick(self, session: WatchedSession, state: GameState, left: float | None) -> None:
        try:
            await session.tick(state, left)
        except Exception:
            log.exception("telling a client of game %s failed; closing it", state.game_id)
            session.close()

    def _beat(self, ok: bool) -> None:
        if self._on_beat is not None:
            self._on_beat(ok)

    def describe(self) -> dict[str, object]:
        return {"games": len(self._watchers), "seats": len(self._seats)}
