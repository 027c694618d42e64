"""One log tailer per process, fanning each change out to the live streams of its game
(docs/social.md, "One tailer per process").

- The **tailer** is one task per store: it follows the log with ``EventStore.tail`` (woken by
  LISTEN/NOTIFY on PostgreSQL, one read per wake-up; polling on SQLite), and for each batch it
  finds the games whose own streams changed (``game-``, ``orders-``, ``press-``) among those
  watched here.
  A commit elsewhere costs one read of the log per process, not one per watcher.
- Each watched game has a **feed**: the game's state (through the repository's cache), its
  current submissions and its press, refreshed once per change with a few incremental reads,
  whatever the number of watchers. The feed renders each distinct view once per change
  (watchers with the same viewer share one text and one digest) and hands each watcher what it
  has not seen yet: the messages it may read after its cursor, the view if its digest differs.
- A watcher holds **no database connection** while idle: it waits on an ``asyncio.Event`` for
  text the feed queued for it. One that reads too slowly (what it holds, queued and being
  sent, over its bound: ENTENTE_STREAM_MAX_QUEUED_KIB, ``MAX_QUEUED`` by default) is closed
  and resumes with its last id (docs/social.md, "Limits").
- Once woken, the tailer waits ``coalesce_seconds`` (ENTENTE_STREAM_COALESCE_SECONDS) before
  it reads, so the read takes in what else committed meanwhile: the submissions of a phase,
  which come moments apart, make one delivery pass (one write per watcher) rather than one each
  (docs/social.md, "Wake-ups coalesced").
- Every ``CHECK_SECONDS`` (and at once when a bot or account stream changes) the tailer
  re-resolves each watcher's credential (credential.py); a revoked one closes its stream.

The tailer starts with the first watcher and stops with the last.
"""
from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import Mapping
from contextlib import closing
from dataclasses import dataclass, field
from typing import Literal

from shared import metrics
from shared.auth import Caller
from shared.errors import BadRequest, DomainError, ErrorCode
from shared.events_social import MessageSent, press_stream
from shared.game.cached import caches_of
from shared.game.log import phase_submissions
from shared.game.press import message_json, messages_of, visible_to
from shared.game.repository import read_game, with_recent_history
from shared.game.state import GameState
from shared.game.submissions import PowerSubmission
from shared.http.observability import DRAINING
from shared.store import EventStore, RecordedEvent

from .credential import Credential, CredentialCache, caller_of
from .cursors import NO_VIEW, Cursor
from .rendering import RenderedView, view_text
from .view import Viewer, view_of, viewer_for

log = logging.getLogger("entente.stream")

CHECK_SECONDS = 2.0  # credentials re-checked at least this often; also the tailer's longest wait
UNAVAILABLE_SECONDS = 10.0  # the log unreadable this long: every stream is closed (clients resume)
MAX_QUEUED = 2 * 1024 * 1024  # bytes one watcher may hold (queued and being sent) before it counts as too slow
BATCH = 1000  # events per read of the log

ReaderKey = tuple[str, ...] | None  # whose messages a watcher reads: its powers, None for all
Change = Literal["game", "orders", "press"]
CloseReason = Literal["credential_revoked", "too_slow", "unavailable", "forbidden", "shutting_down"]


def sse(event_id: str, kind: str, data: bytes) -> bytes:
    return b"id: " + event_id.encode("ascii") + b"\nevent: " + kind.encode("ascii") + b"\ndata: " + data + b"\n\n"


# a comment line and no blank line after it: nothing for any client to dispatch (a blank line
# after an id has been seen is an empty event to some, httpx-sse among them: docs/social.md)
KEEP_ALIVE = b": keep-alive\n"


def reader_of(caller: Caller, game: GameState) -> ReaderKey:
    """Whose messages the caller reads: the operator all (None), a player their seat's, others public."""
    return None if caller.is_operator else tuple(sorted(game.powers_of(caller.player_id)))


def classify(stream_id: str) -> tuple[Change | Literal["bots", "account"], str] | None:
    """(what changed, of which game or account) for the streams the hub follows."""
    kind, _, rest = stream_id.partition("-")
    if not rest:
        return None
    match kind:
        case "game" | "press" | "bots" | "account":
            return kind, rest
        case "orders":  # orders-{game}-{phase}-{POWER}; a game id may hold a dash
            parts = rest.rsplit("-", 2)
            return ("orders", parts[0]) if len(parts) == 3 else None
    return None


class Watcher:
    """One open stream: who watches, what it has been sent, and the bytes queued for it.
    Its two timers (the stream's end, the next keep-alive) are set once per connection and
    once per keep-alive, never per wake-up."""

    def __init__(self, game_id: str, caller: Caller, power: str | None, credential: Credential,
                 operator_hash: str, key: bytes, *, resume: Cursor | None = None,
                 resume_where: str = "header.last-event-id") -> None:
        self.game_id = game_id
        self.caller = caller
        self.power = power
        self.credential = credential
        self.operator_hash = operator_hash
        self.key = key  # of the views' digests (cursors.py)
        self.resume = resume
        self.resume_where = resume_where  # where a bad cursor came from, for the 400
        self.ready = False  # the feed has given it its start
        self.reader: ReaderKey = ()
        self.sent_messages = 0  # messages it has, by its own numbering
        self.sent_view = NO_VIEW
        self.sent_page: tuple[Viewer, int] | None = None  # the last view frame's viewer and history end
        self.closed: CloseReason | None = None
        self.expired = False  # its timeout has passed
        self.wake = asyncio.Event()
        self._queued: list[bytes] = []
        self._size = 0
        self._sending = 0  # bytes taken and not yet sent (``sent`` says when they are)
        self.max_queued = MAX_QUEUED
        self._timers: list[asyncio.TimerHandle] = []

    def push(self, data: bytes) -> None:
        if self.closed:
            return
        self._queued.append(data)
        self._size += len(data)
        if self._size + self._sending > self.max_queued:
            self._queued.clear()
            self._size = 0
            self.close("too_slow")
        self.wake.set()

    def close(self, reason: CloseReason) -> None:
        if self.closed is None:
            self.closed = reason
        self.wake.set()

    def take(self) -> bytes:
        """Everything queued so far (and the wake-up cleared)."""
        queued = self._queued
        data = queued[0] if len(queued) == 1 else b"".join(queued)
        self._queued = []
        self._size = 0
        self._sending = len(data)
        self.wake.clear()
        return data

    def sent(self) -> None:
        """What ``take`` gave has been handed to the connection (the client read enough of it)."""
        self._sending = 0

    def start_timers(self, seconds: float, keep_alive_seconds: float) -> None:
        loop = asyncio.get_running_loop()
        self._timers = [loop.call_later(seconds, self._expire),
                        loop.call_later(keep_alive_seconds, self._keep_alive, keep_alive_seconds)]

    def stop_timers(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers = []

    def _expire(self) -> None:
        self.expired = True
        self.wake.set()

    def _keep_alive(self, seconds: float) -> None:
        self.push(KEEP_ALIVE)
        if self._timers:
            self._timers[1] = asyncio.get_running_loop().call_later(seconds, self._keep_alive, seconds)


@dataclass
class DeliveryPass:
    """What one change's delivery computes once for all the watchers of a game: who each
    caller is in the game, the messages' text per reader, the frames (bytes) as sent."""

    viewers: dict[tuple[Caller, str | None], Viewer | None] = field(default_factory=dict)
    readers: dict[Caller, ReaderKey] = field(default_factory=dict)
    messages: dict[tuple[ReaderKey, int], bytes] = field(default_factory=dict)
    frames: dict[tuple[str, str, object], bytes] = field(default_factory=dict)  # (kind, id, view or reader)


@dataclass
class Stats:
    """What the hub did, for the tests and the benchmark's curiosity."""

    log_reads: int = 0
    refreshes: int = 0
    views_rendered: int = 0


class GameFeed:
    """The watched game as the hub keeps it: state, submissions, press, rendered views."""

    def __init__(self, hub: StreamHub, game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        self.lock = asyncio.Lock()
        self.watchers: set[Watcher] = set()
        self.loaded = False
        self.state: GameState | None = None
        self.submissions: Mapping[str, PowerSubmission] = {}
        self.messages: list[tuple[MessageSent, RecordedEvent]] = []
        self.press_version = 0
        self._places: dict[ReaderKey, list[int]] = {}  # reader -> indices of the messages it reads
        self._scanned: dict[ReaderKey, int] = {}  # reader -> how many messages ``_places`` has looked at
        self._views: dict[Viewer, RenderedView] = {}

    async def refresh(self, changes: set[Change]) -> None:
        """Read what changed (everything on the first call) through incremental reads."""
        store = self.hub.store
        first = not self.loaded
        if first or "game" in changes:
            state = await read_game(store, self.game_id)
            if state is not None:
                state = await with_recent_history(store, state)
            if state is not self.state:
                before = self.state
                self.state = state
                self._forget_views(before, state)
                if state is None or before is None or (state.phase, state.status) != (before.phase, before.status):
                    changes = changes | {"orders"}
        if first or "orders" in changes:
            state = self.state
            active = state is not None and state.status == "active" and bool(state.phase)
            submissions = await phase_submissions(store, self.game_id, str(state.phase)) \
                if state is not None and active else {}
            if submissions != self.submissions:
                self.submissions = submissions
                self._views.clear()
        if first or "press" in changes:
            records = await store.events.read_stream(press_stream(self.game_id), after_version=self.press_version)
            if records:
                self.messages.extend(messages_of(records))
                self.press_version = records[-1].version
        self.loaded = True

    def _forget_views(self, before: GameState | None, state: GameState | None) -> None:
        """Drop the views ``state`` changes: all, or after secret draw votes and concessions only
        (the version others see did not move) the voters' own: no one else's is rendered (docs/hosting.md)."""
        if before is None or state is None or state.shown_version != before.shown_version:
            self._views.clear()
            return
        voters = {seat.player_id for seat in state.seats
                  if before.ballot(seat.player_id) != state.ballot(seat.player_id)}
        self._views = {viewer: rendered for viewer, rendered in self._views.items()
                       if viewer.player_id not in voters and viewer.kind != "operator"}

    def places(self, reader: ReaderKey) -> list[int]:
        """The indices (into ``messages``) of the messages ``reader`` may read, in order."""
        found = self._places.setdefault(reader, [])
        for index in range(self._scanned.get(reader, 0), len(self.messages)):
            if visible_to(self.messages[index][0], reader):
                found.append(index)
        self._scanned[reader] = len(self.messages)
        return found

    def view_for(self, viewer: Viewer) -> RenderedView:
        rendered = self._views.get(viewer)
        if rendered is None:
            assert self.state is not None
            caches = caches_of(self.hub.store)
            seen = view_of(self.state, self.submissions, viewer, caches=caches)
            # the same text as GET .../view
            rendered = self._views[viewer] = RenderedView(view_text(seen, caches=caches), self.state.resolved_count)
            self.hub.stats.views_rendered += 1
        return rendered

    def start(self, watcher: Watcher) -> None:
        """The watcher's starting point: fresh (the view now, messages from now on) or resumed
        after its cursor (400 if the cursor is ahead of what this viewer was ever sent)."""
        assert self.state is not None
        watcher.reader = reader_of(watcher.caller, self.state)
        readable = len(self.places(watcher.reader))
        if watcher.resume is None:
            watcher.sent_messages = readable
        else:
            if watcher.resume.messages > readable:
                raise BadRequest("Last-Event-ID is ahead of what this stream has sent",
                                 code=ErrorCode.INVALID_LAST_EVENT_ID,
                                 where=watcher.resume_where)
            watcher.sent_messages = watcher.resume.messages
            watcher.sent_view = watcher.resume.view
        watcher.ready = True
        self.deliver(watcher, DeliveryPass())

    def _viewer(self, watcher: Watcher, state: GameState, done: DeliveryPass) -> Viewer | None:
        key = (watcher.caller, watcher.power)
        if key not in done.viewers:
            try:
                done.viewers[key] = viewer_for(watcher.caller, state, watcher.power)
            except DomainError:
                done.viewers[key] = None
        return done.viewers[key]

    def _reader(self, caller: Caller, state: GameState, done: DeliveryPass) -> ReaderKey:
        if caller not in done.readers:
            done.readers[caller] = reader_of(caller, state)
        return done.readers[caller]

    def _message_frame(self, reader: ReaderKey, place: int, index: int, sent_view: str,
                       done: DeliveryPass) -> bytes:
        event_id = f"{place}.{sent_view}"
        frame = done.frames.get(("message", event_id, reader))
        if frame is None:
            body = done.messages.get((reader, place))
            if body is None:
                message, record = self.messages[index]
                body = done.messages[(reader, place)] = json.dumps(
                    message_json(message, record, place), separators=(",", ":")).encode()
            frame = done.frames[("message", event_id, reader)] = sse(event_id, "message", body)
        return frame

    def deliver(self, watcher: Watcher, done: DeliveryPass) -> None:
        """Queue for ``watcher`` the messages it may read that it has not been sent, then the
        view if it differs from the last one it was sent. ``done`` holds what this pass has
        computed for the game's other watchers (the same frames for the same viewer)."""
        state = self.state
        viewer = self._viewer(watcher, state, done) if state is not None else None
        if state is None or viewer is None:
            watcher.close("forbidden")
            return
        reader = self._reader(watcher.caller, state, done)
        if reader != watcher.reader:
            self._renumber(watcher, reader, done)
        places = self.places(reader)
        for place in range(watcher.sent_messages + 1, len(places) + 1):
            watcher.push(self._message_frame(reader, place, places[place - 1], watcher.sent_view, done))
        watcher.sent_messages = len(places)
        view = self.view_for(viewer)
        digest = view.digest(watcher.key)
        if digest != watcher.sent_view:
            watcher.sent_view = digest
            watcher.push(self._view_frame(watcher, viewer, view, f"{watcher.sent_messages}.{digest}", done))

    @staticmethod
    def _view_frame(watcher: Watcher, viewer: Viewer, view: RenderedView, event_id: str,
                    done: DeliveryPass) -> bytes:
        """The whole page for the first view frame of a connection (or of a new viewer), then
        only the history entries added since the watcher's last view frame, in one shape
        (docs/social.md, "Frames that send only what is new")."""
        sent, watcher.sent_page = watcher.sent_page, (viewer, view.end)
        end = sent[1] if sent is not None and sent[0] == viewer else None
        key = ("view", event_id, (id(view), end))
        frame = done.frames.get(key)
        if frame is None:
            body = view.since(end) if end is not None else None
            frame = done.frames[key] = sse(event_id, "view", view.first() if body is None else body)
        return frame

    def _renumber(self, watcher: Watcher, reader: ReaderKey, done: DeliveryPass) -> None:
        """The watcher now reads as another set of powers (a seat took over a power): it gets
        the messages newly readable to it, numbered as the new reader numbers them."""
        had = set(self.places(watcher.reader)[:watcher.sent_messages])
        places = self.places(reader)
        watcher.reader = reader
        for place, index in enumerate(places, start=1):
            if index not in had:
                watcher.push(self._message_frame(reader, place, index, watcher.sent_view, done))
        watcher.sent_messages = len(places)


class StreamHub:
    """The streams of one store in this process (``hub_for(store)``)."""

    def __init__(self, store: EventStore, coalesce_seconds: float = 0.0) -> None:
        self.store = store
        self.coalesce_seconds = coalesce_seconds  # how long a wake-up waits for more commits; 0: not at all
        self.feeds: dict[str, GameFeed] = {}
        self.stats = Stats()
        self.credentials = CredentialCache(store)
        self._watchers = 0
        self._task: asyncio.Task[None] | None = None
        self._starting = asyncio.Lock()
        self._checked_at = 0.0

    @property
    def watchers(self) -> int:
        return self._watchers

    @property
    def tailing(self) -> bool:
        return self._task is not None and not self._task.done()

    async def join(self, watcher: Watcher) -> None:
        """Add a watcher and queue its start; raises (and adds nothing) on a bad cursor."""
        feed = self.feeds.get(watcher.game_id)
        if feed is None:
            feed = self.feeds[watcher.game_id] = GameFeed(self, watcher.game_id)
        feed.watchers.add(watcher)  # not ready: the tailer passes it by until it has its start
        if DRAINING.stopping:  # a stream that came in while the server stops: its start, then closed
            watcher.close("shutting_down")
        self._watchers += 1
        try:
            await self._ensure_tailer()  # its position is read before the feed: no change falls between
            async with feed.lock:
                if not feed.loaded:
                    await feed.refresh(set())
                feed.start(watcher)
        except BaseException:
            self.leave(watcher)
            raise

    def leave(self, watcher: Watcher) -> None:
        """Forget a watcher (idempotent); the last one out stops the tailer."""
        feed = self.feeds.get(watcher.game_id)
        if feed is None or watcher not in feed.watchers:
            return
        feed.watchers.discard(watcher)
        self._watchers -= 1
        if not feed.watchers:
            del self.feeds[watcher.game_id]
        if self._watchers == 0 and self._task is not None:
            self._task.cancel()
            self._task = None

    def close_streams(self, reason: CloseReason) -> None:
        """Close every open stream (each sends its ``closed`` event and ends)."""
        for feed in list(self.feeds.values()):
            for watcher in list(feed.watchers):
                watcher.close(reason)

    async def close(self) -> None:
        """Close every stream and stop the tailer (the app is shutting down)."""
        self.close_streams("shutting_down")
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _ensure_tailer(self) -> None:
        if self.tailing:
            return
        async with self._starting:
            if self.tailing or self._watchers == 0:
                return
            start = await self.store.events.head()
            self._task = asyncio.create_task(self._tail(start), name="entente stream tailer")

    async def _tail(self, start: int) -> None:
        """Follow the log from ``start`` (the head when the first watcher came)."""
        loop = asyncio.get_running_loop()
        failing_since: float | None = None
        with closing(self.store.tail(start)) as tail:
            while True:
                try:
                    reads = tail.reads
                    try:
                        records = await tail.next(CHECK_SECONDS, settle=self.coalesce_seconds, limit=BATCH)
                    finally:
                        self._count_reads(tail.reads - reads)
                    credentials_changed = await self._apply(records) if records else False
                    await self._check_credentials(force=credentials_changed)
                    failing_since = None
                except asyncio.CancelledError:
                    raise
                except Exception:
                    if failing_since is None:
                        failing_since = loop.time()
                        log.exception("the stream tailer cannot read the log; retrying")
                    elif loop.time() - failing_since > UNAVAILABLE_SECONDS:
                        for feed in list(self.feeds.values()):
                            for watcher in list(feed.watchers):
                                watcher.close("unavailable")
                    await asyncio.sleep(1.0)

    def _count_reads(self, reads: int) -> None:
        self.stats.log_reads += reads
        metrics.STREAM_LOG_READS.inc(reads)

    async def _apply(self, records: list[RecordedEvent]) -> bool:
        """Refresh the feeds of the games these records changed; whether a credential changed."""
        changes: dict[str, set[Change]] = {}
        credentials_changed = False
        for record in records:
            found = classify(record.stream_id)
            if found is None:
                continue
            kind, ident = found
            if kind == "bots" or kind == "account":
                self.credentials.changed(kind, ident)
                credentials_changed = True
            elif ident in self.feeds:
                changes.setdefault(ident, set()).add(kind)
        await asyncio.gather(*(self._update(self.feeds[game_id], changed)
                               for game_id, changed in changes.items() if game_id in self.feeds))
        return credentials_changed

    async def _update(self, feed: GameFeed, changes: set[Change]) -> None:
        async with feed.lock:
            try:
                await feed.refresh(changes)
            except Exception:
                log.exception("cannot refresh the streams of game %s; closing them", feed.game_id)
                for watcher in list(feed.watchers):
                    watcher.close("unavailable")
                feed.loaded = False
                return
            self.stats.refreshes += 1
            metrics.STREAM_DELIVERIES.inc()
            done = DeliveryPass()
            for watcher in list(feed.watchers):
                if watcher.ready:
                    feed.deliver(watcher, done)

    async def _check_credentials(self, force: bool) -> None:
        now = asyncio.get_running_loop().time()
        if not force and now - self._checked_at < CHECK_SECONDS:
            return
        self._checked_at = now
        self.credentials.prune()
        lookups = self.credentials.lookups()
        for feed in list(self.feeds.values()):
            state = feed.state
            if state is None:
                continue
            for watcher in list(feed.watchers):
                if not watcher.ready or watcher.closed or watcher.credential.kind == "public":
                    continue
                if await caller_of(watcher.credential, state, watcher.operator_hash, lookups) != watcher.caller:
                    watcher.close("credential_revoked")


_hubs: weakref.WeakKeyDictionary[EventStore, StreamHub] = weakref.WeakKeyDictionary()


def close_every_stream() -> None:
    """The server is stopping: every stream of this process gets ``closed: shutting_down``
    now, not at its next keep-alive (docs/social.md, "The live stream"; docs/deploy.md, "Stopping")."""
    for hub in list(_hubs.values()):
        hub.close_streams("shutting_down")


DRAINING.on_stop(close_every_stream)


async def close_hub(store: EventStore) -> None:
    hub = _hubs.pop(store, None)
    if hub is not None:
        await hub.close()


def hub_for(store: EventStore, coalesce_seconds: float | None = None) -> StreamHub:
    """The hub of ``store`` in this process (one tailer per store); ``coalesce_seconds`` (the
    setting) when given."""
    hub = _hubs.get(store)
    if hub is None:
        hub = _hubs[store] = StreamHub(store)
    if coalesce_seconds is not None:
        hub.coalesce_seconds = coalesce_seconds
    return hub

