"""A port per game open to DAIDE bots (docs/bots.md, "A port per game"), as MILA's server runs
one: an unmodified bot (Albert, DumbBot) knows a host and a port, and names only itself in NME.

The range ``entente daide --game-ports LOW-HIGH`` gives is shared out among the open games
(``daide_open``, standard, forming or under way): each gets a listener on a port of its own,
recorded in the game's stream (``DaidePortOpened``, the summary's ``daide_port``), found at the
start from the games' rows and afterwards from the log as games are created and finish. A
connection on a game's port is run like any (the same limits, counted with the one port's), its
session knowing the port's game: NME takes the next free seat, IAM and OBS are that game's.

When the game ends its listener answers every new connection with an FM for ``grace`` seconds,
then closes once no client of the game is connected; the port then rests ``rest`` seconds and
the port rested longest is given first, so a port is never handed to another game while a
client of the old one may still be connected, nor soon after.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from shared.store import EventStore
from shared.store.records import RecordedEvent

from .syntax import FM, frame

if TYPE_CHECKING:
    from .server import Connection, DaideServer

log = logging.getLogger("entente.daide")
PAGE = 500  # games rows read a page at a time at the start


def parse_range(text: str) -> tuple[int, int]:
    """``LOW-HIGH`` (1024 to 65535, LOW <= HIGH) as two ports; ValueError says what is wrong."""
    low_text, dash, high_text = text.partition("-")
    if not dash or not low_text.strip().isdigit() or not high_text.strip().isdigit():
        raise ValueError(f"--game-ports takes LOW-HIGH, two port numbers, not {text!r}")
    low, high = int(low_text), int(high_text)
    if not 1024 <= low <= high <= 65535:
        raise ValueError(f"--game-ports takes 1024 <= LOW <= HIGH <= 65535, not {text!r}")
    return low, high


def _daide_open(document: Mapping[str, object]) -> bool:
    """Whether a game's summary or its GameCreated event says its DAIDE port is open."""
    settings = document.get("settings")
    return isinstance(settings, dict) and bool(settings.get("daide_open"))


@dataclass
class _Listener:
    game_id: str
    port: int
    server: asyncio.Server
    connections: set[Connection] = field(default_factory=set)
    ended_at: float | None = None  # the game ended: new connections get an FM


class GamePorts:
    def __init__(self, daide: DaideServer, host: str, low: int, high: int, *, grace: float = 60.0,
                 rest: float = 600.0) -> None:
        self.daide, self.host, self.grace, self.rest = daide, host, grace, rest
        self.free: dict[int, float] = {port: 0.0 for port in range(low, high + 1)}  # port -> rested since
        self.listeners: dict[int, _Listener] = {}
        self.by_game: dict[str, int] = {}
        self.waiting: set[str] = set()  # open games no port was free for
        self.position = 0

    @property
    def store(self) -> EventStore:
        return self.daide.hub.store

    async def start(self) -> None:
        """Open a port for every game open to DAIDE bots now; the log is followed from here."""
        self.position = await self.store.events.head()
        for status in ("forming", "active"):
            after: tuple[datetime, str] | None = None
            while True:
                rows = await self.store.games.list_games(status, PAGE, after, "standard")
                for row in rows:
                    if _daide_open(row.summary):
                        port = row.summary.get("daide_port")
                        await self.open(row.game_id, port if isinstance(port, int) else None)
                if len(rows) < PAGE:
                    break
                after = (rows[-1].updated_at, rows[-1].game_id)

    async def follow(self) -> None:
        """One look at the log since the last: games created open, games ended close."""
        while records := await self.store.events.read_all(self.position, 1000):
            for record in records:
                self.position = record.position
                await self._seen(record)
        self._release()
        for game_id in sorted(self.waiting):
            await self.open(game_id, None)

    async def _seen(self, record: RecordedEvent) -> None:
        if not record.stream_id.startswith("game-"):
            return
        if record.type == "GameCreated" and _daide_open(record.data):
            await self.open(str(record.data["game_id"]), None)
        elif record.type == "GameFinished":
            await self.close(record.stream_id.removeprefix("game-"))

    def _next_port(self, wanted: int | None) -> int | None:
        now = time.monotonic()
        if wanted is not None and wanted in self.free:
            return wanted
        rested = [port for port, since in self.free.items() if now - since >= self.rest or since == 0.0]
        return min(rested, key=lambda port: (self.free[port], port)) if rested else None

    async def open(self, game_id: str, wanted: int | None) -> None:
        if game_id in self.by_game:
            return
        while (port := self._next_port(wanted)) is not None:
            wanted = None
            del self.free[port]
            try:
                server = await asyncio.start_server(self._accepting(game_id, port), self.host, port)
            except OSError as error:
                log.warning("daide game port %s could not be opened: %s", port, error, extra={"game_id": game_id})
                continue  # taken by another process: left out of the range from now on
            self.listeners[port] = _Listener(game_id, port, server)
            self.by_game[game_id] = port
            self.waiting.discard(game_id)
            log.info("daide game port opened", extra={"game_id": game_id, "port": port})
            await self._record(game_id, port)
            return
        log.warning("no free daide game port", extra={"game_id": game_id})
        self.waiting.add(game_id)

    async def _record(self, game_id: str, port: int) -> None:
        desk = self.daide.hub.desk
        if desk.open_port is None:
            return
        try:
            await desk.open_port(self.store, game_id, port, desk.now())
        except Exception:
            log.exception("recording the daide port of %s failed", game_id)

    def _accepting(self, game_id: str,
                   port: int) -> Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]:
        async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            listener = self.listeners.get(port)
            if listener is None or listener.game_id != game_id or listener.ended_at is not None:
                writer.write(frame(FM))  # the game has ended: nothing more on this port
                writer.close()
                return
            await self.daide.accept(reader, writer, port, game_id, listener.connections)
        return accept

    async def close(self, game_id: str) -> None:
        """The game has ended: its port takes no one new; it closes once its clients are gone."""
        self.waiting.discard(game_id)
        port = self.by_game.pop(game_id, None)
        if port is not None:
            await self.store.rejoins.forget(game_id)  # its seats come back by IAM no more
        if port is not None and port in self.listeners:
            self.listeners[port].ended_at = time.monotonic()
            log.info("daide game port closing: the game ended", extra={"game_id": game_id, "port": port})

    def _release(self) -> None:
        now = time.monotonic()
        for port, listener in list(self.listeners.items()):
            if listener.ended_at is None or listener.connections or now - listener.ended_at < self.grace:
                continue
            listener.server.close()
            del self.listeners[port]
            self.free[port] = now
            log.info("daide game port closed", extra={"game_id": listener.game_id, "port": port})

    async def stop(self) -> None:
        for listener in self.listeners.values():
            listener.server.close()
        for listener in self.listeners.values():
            await listener.server.wait_closed()
        self.listeners.clear()
