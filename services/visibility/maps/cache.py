"""Game pictures remembered, revalidated and drawn in turn (docs/maps.md, "Caching, ETags and
the render queue").

- A picture is remembered under everything it is drawn from: the kind (SVG or PNG), the game
  and the version of its stream others can see (``shown_version``: a secret draw vote does
  not move it, so it redraws nothing) (a past turn's picture of Tale of Ekonia shows what the viewer
  knows *now*), the phase, the whole viewer (kind, power, powers, codename and seat: what one
  viewer sees never answers another) and the viewer's own pending orders. Two viewers' requests
  never share an entry.
- Its ETag is a digest of the viewer and the picture's bytes, so it says nothing that the
  picture does not, and two viewers never get the same ETag even for identical pictures. A
  request whose ``If-None-Match`` names it gets 304 without a body.
- The bytes are kept once per distinct picture (viewers and versions that draw the same
  document share them), bounded in bytes by ENTENTE_PICTURE_CACHE_MIB.
- Pictures not remembered are drawn in a worker thread, at most ENTENTE_PICTURE_RENDERS at a
  time per process, with ENTENTE_PICTURE_QUEUE more waiting their turn in each of two lanes: a
  seat's own current board first, then everyone else's, at most ANONYMOUS_PER_ADDRESS anonymous
  ones from one address (``RenderQueue``); beyond that a request gets 503 ``render_queue_full``
  with ``Retry-After`` at once, before any work is done. A seat's own board is never refused
  for others' load.
- A PNG is drawn whole (its view, its document, its pixels) in separate processes of a lower
  priority, as many as ENTENTE_PICTURE_RENDERS, started the first time one is needed and
  stopped with the app, so that it never holds the server process's interpreter lock nor
  takes the processor from its requests (ENTENTE_PICTURE_PROCESSES=false draws in the worker
  thread instead). An SVG, cheaper than sending a process its inputs, is drawn in the thread.
"""
from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import os
import threading
import weakref
from collections import deque
from collections.abc import AsyncIterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal

from shared.bounded import BoundedCache
from shared.errors import DomainError, ErrorCode
from shared.events import PhaseResolved
from shared.game.state import GameState
from shared.game.submissions import PowerSubmission
from shared.store import EventStore

from ..past import PastPhase
from ..view import Viewer
from .pictures import game_layers
from .png import layers_to_png

Kind = Literal["svg", "png"]
REQUESTS_KEPT = 20_000  # request keys remembered (each a few hundred bytes: the bytes bind first)
KEY_BYTES = 600  # a request key's estimated memory: its tuple, the viewer and the orders' digest
PICTURES_KEPT = 10_000
RETRY_AFTER_SECONDS = 2  # about two renders' time: the queue has moved on by then
PROCESS_NICENESS = 10  # the drawing processes' niceness, above the server's own


class RenderQueueFull(DomainError):
    status_code = 503
    code = ErrorCode.RENDER_QUEUE_FULL
    retry_after = RETRY_AFTER_SECONDS


@dataclass(frozen=True, slots=True)
class Picture:
    etag: str
    digest: str  # of the bytes' source: the key of the bytes in ``Pictures.bodies``


def _viewer_text(viewer: Viewer) -> str:
    return repr((viewer.kind, viewer.power, viewer.codename, viewer.powers, viewer.player_id))


def etag_of(kind: Kind, viewer: Viewer, digest: str) -> str:
    """A strong ETag of one viewer's picture: a digest of the viewer and of what was drawn."""
    text = f"{kind}\0{_viewer_text(viewer)}\0{digest}".encode()
    return '"' + hashlib.blake2b(text, digest_size=16).hexdigest() + '"'


def etag_matches(header: str | None, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (or is ``*``); weak tags compare by value."""
    if not header:
        return False
    tags = [part.strip() for part in header.split(",")]
    return "*" in tags or etag in (tag.removeprefix("W/") for tag in tags)


def drawing(kind: Kind, state: GameState, submissions: Mapping[str, PowerSubmission], viewer: Viewer,
            past: PastPhase | None, last: PhaseResolved | None = None) -> tuple[str, bytes]:
    """The picture itself, from the caller's view: a digest of what was drawn, and the bytes
    (in a drawing process, or a worker thread)."""
    layers = game_layers(state, submissions, viewer, past, last)
    source = layers.document() if kind == "svg" else f"{layers.static_key}\0{layers.dynamic_document()}"
    digest = hashlib.blake2b(f"{kind}\0{source}".encode(), digest_size=20).hexdigest()
    return digest, source.encode() if kind == "svg" else layers_to_png(layers)


def _lower_priority() -> None:
    """A drawing process yields the processor to the server's requests (and the database)."""
    os.nice(PROCESS_NICENESS)


class Drawer:
    """Pictures drawn whole (view, document, pixels) in ``processes`` separate processes of a
    lower priority, started on first use; in the calling thread with ``processes`` 0."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def draw(self, kind: Kind, state: GameState, submissions: Mapping[str, PowerSubmission], viewer: Viewer,
             past: PastPhase | None, last: PhaseResolved | None = None) -> tuple[str, bytes]:
        """Blocks the calling (worker) thread until the picture is drawn."""
        if not self.processes or kind == "svg":  # an SVG costs less than sending it its inputs
            return drawing(kind, state, submissions, viewer, past, last)
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_lower_priority)
                weakref.finalize(self, self._pool.shutdown, False)  # a store dropped without ``close``
            pool = self._pool
        try:
            return pool.submit(drawing, kind, state, dict(submissions), viewer, past, last).result()
        except BrokenProcessPool:  # a process died (killed, out of memory): start afresh next time
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            return drawing(kind, state, submissions, viewer, past, last)

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


Lane = Literal["own", "others"]
ANONYMOUS_PER_ADDRESS = 2  # anonymous pictures drawing or waiting at once from one address


class RenderQueue:
    """At most ``renders`` drawings at a time (per process and store), in two lanes (docs/maps.md,
    "Caching, ETags and the render queue"):

    - ``own``: a seat's own current board (and the operator's): never refused for anyone
      else's load. It waits only behind others of its lane and drawings already under way, and
      is refused only when ``renders + waiting`` of its own lane are admitted already.
    - ``others``: everything else (the public's pictures, past boards): ``renders + waiting``
      admitted at most, and at most ``per_address`` anonymous ones from one address. It gets a
      drawing slot only when no ``own`` picture waits.

    ``turn()`` refuses at once with ``RenderQueueFull``, before any work is done."""

    def __init__(self, renders: int, waiting: int, per_address: int = ANONYMOUS_PER_ADDRESS) -> None:
        self.renders, self.waiting, self.per_address = renders, waiting, per_address
        self.in_lane: dict[Lane, int] = {"own": 0, "others": 0}  # drawing or waiting, by lane
        self.by_address: dict[str, int] = {}  # anonymous pictures admitted, by address
        self.drawing = 0
        self._waiters: dict[Lane, deque[asyncio.Future[None]]] = {"own": deque(), "others": deque()}

    @property
    def admitted(self) -> int:
        """Pictures drawing or waiting, both lanes."""
        return self.in_lane["own"] + self.in_lane["others"]

    @asynccontextmanager
    async def turn(self, lane: Lane = "others", address: str | None = None) -> AsyncIterator[None]:
        if self.in_lane[lane] >= self.renders + self.waiting:
            raise RenderQueueFull(f"{self.in_lane[lane]} pictures are being drawn or waiting: try again in "
                                  f"{RETRY_AFTER_SECONDS} s", where="path")
        if address is not None and self.by_address.get(address, 0) >= self.per_address:
            raise RenderQueueFull(f"{self.per_address} pictures asked from this address are being drawn or "
                                  f"waiting: try again in {RETRY_AFTER_SECONDS} s", where="request")
        self.in_lane[lane] += 1
        if address is not None:
            self.by_address[address] = self.by_address.get(address, 0) + 1
        try:
            await self._acquire(lane)
            try:
                yield
            finally:
                self._release()
        finally:
            self.in_lane[lane] -= 1
            if address is not None:
                left = self.by_address[address] - 1
                if left:
                    self.by_address[address] = left
                else:
                    del self.by_address[address]

    def _ahead(self, lane: Lane) -> bool:
        return bool(self._waiters["own"]) or (lane == "others" and bool(self._waiters["others"]))

    async def _acquire(self, lane: Lane) -> None:
        if self.drawing < self.renders and not self._ahead(lane):
            self.drawing += 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters[lane].append(waiter)
        try:
            await waiter
        except BaseException:
            if waiter.done() and not waiter.cancelled():
                self._release()  # handed a slot as it was cancelled: pass it on
            else:
                self._waiters[lane].remove(waiter)
            raise

    def _release(self) -> None:
        """A drawing ended: its slot goes to the first waiting ``own`` picture, else ``others``."""
        self.drawing -= 1
        for lane in ("own", "others"):
            waiters = self._waiters[lane]
            while waiters:
                waiter = waiters.popleft()
                if not waiter.done():
                    self.drawing += 1
                    waiter.set_result(None)
                    return


class Pictures:
    """The pictures of one store in this process: request keys to pictures, the bytes by
    digest, and the render queue."""

    def __init__(self, max_bytes: int, renders: int, waiting: int, *, processes: bool = False) -> None:
        self.requests: BoundedCache[tuple[Any, ...], Picture] = BoundedCache(
            "picture_requests", REQUESTS_KEPT, max(1, max_bytes // 8))
        self.bodies: BoundedCache[str, bytes] = BoundedCache("picture_bytes", PICTURES_KEPT, max_bytes)
        self.queue = RenderQueue(renders, waiting)
        self.drawer = Drawer(renders if processes else 0)

    def remembered(self, key: tuple[Any, ...]) -> tuple[Picture, bytes] | None:
        """The picture of ``key`` and its bytes, if they are still kept."""
        found = self.requests.get(key)
        body = self.bodies.get(found.digest) if found is not None else None
        return (found, body) if found is not None and body is not None else None

    def remember(self, key: tuple[Any, ...], picture: Picture) -> None:
        self.requests.put(key, picture, KEY_BYTES)


class KeptPictures:
    """The store's pictures in this process (``EventStore.kept``): made with the app's settings
    the first time they are asked for, dropped by the store's ``truncate``."""

    def __init__(self) -> None:
        self.pictures: Pictures | None = None

    def clear(self) -> None:
        self.pictures = None


def pictures_of(store: EventStore, settings: Any) -> Pictures:
    """The store's pictures in this process, made with the app's settings the first time."""
    kept = store.kept(KeptPictures)
    if kept.pictures is None:
        kept.pictures = Pictures(settings.picture_cache_mib * 2**20, settings.picture_renders,
                                 settings.picture_queue, processes=settings.picture_processes)
    return kept.pictures


async def close_pictures(store: EventStore) -> None:
    """Stop the store's drawing processes (the app is shutting down)."""
    found = store.kept(KeptPictures).pictures
    if found is not None:
        await asyncio.to_thread(found.drawer.close)
