"""The DAIDE server's TCP side: one port for every game (the game is chosen in NME, docs/bots.md),
the frames of each connection, and the limits that keep one client from hurting the others.

- the IM must come within ``im_seconds`` (EM 0x01), a seat must be named within
  ``join_seconds`` (OFF), and every protocol breach is an EM and a closed connection;
- at most ``per_address`` connections from one address at once, ``max_connections`` in all:
  one more is sent an FM and closed at once;
- a flood (more than ``burst`` messages at once, refilled at ``rate`` a second) gets an FM and
  a closed connection, as does a client that reads so slowly that ``max_buffer`` bytes of
  answers wait for it;
- a message the server cannot follow is answered HUH or PRN and the connection stays.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from dataclasses import dataclass

from .session import Session
from .syntax import (
    DM,
    EM,
    FM,
    IM,
    IM_NOT_FIRST,
    IM_TIMER_POPPED,
    MORE_THAN_ONE_IM,
    RM,
    RM_FROM_CLIENT,
    FrameError,
    FrameReader,
    Item,
    TooDeep,
    Unbalanced,
    check_initial,
    error_frame,
    frame,
    message,
    numbers_of,
    parse,
    prn_frame,
    representation,
    too_deep_echo,
)
from .tokens import POWERS, PROVINCE_CATEGORIES, TOKENS
from .watch import Hub

log = logging.getLogger("entente.daide")
READ_SIZE = 65536
STOP_SECONDS = 10.0  # at SIGTERM: how long the messages in hand may take to finish


@dataclass(frozen=True)
class Limits:
    per_address: int = 16
    max_connections: int = 1000
    im_seconds: float = 30.0
    join_seconds: float = 60.0
    rate: float = 20.0  # messages a second, refilled
    burst: int = 200  # messages at once
    max_buffer: int = 1 << 20  # bytes of answers waiting for a slow reader


HISTORY_COST = 10  # an HST reads a past phase (from a cache, else the log) and sends a whole ORD list
HST_TOKEN = TOKENS["HST"].to_bytes(2, "big")


def message_cost(kind: int, body: bytes) -> int:
    """What one message costs of the allowance: an HST ten, any other message one."""
    return HISTORY_COST if kind == DM and body[:2] == HST_TOKEN else 1


RM_NAMES = [*POWERS, *(name for _, names in PROVINCE_CATEGORIES for name in names)]


class Connection:
    def __init__(self, hub: Hub, limits: Limits, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 address: str, port: int | None = None, port_game: str | None = None) -> None:
        self.hub, self.limits, self.reader, self.writer, self.address = hub, limits, reader, writer, address
        self.frames = FrameReader()
        self.session = Session(hub, self._send, self.farewell, address, port, port_game)
        self.greeted = False
        self.allowance, self.refilled = float(limits.burst), time.monotonic()
        self.done = asyncio.Event()

    def _write(self, data: bytes) -> None:
        if self.writer.is_closing():
            return
        self.writer.write(data)
        if self.writer.transport.get_write_buffer_size() > self.limits.max_buffer:
            log.warning("daide client reads too slowly; closing", extra={"address": self.address})
            self._close()

    def _send(self, items: list[Item]) -> None:
        self._write(message(items))

    def farewell(self) -> None:
        """The server ends the connection: an FM, then it closes."""
        if not self.done.is_set():
            self._write(frame(FM))
            self._close()

    def _close(self) -> None:
        if not self.done.is_set():
            self.done.set()
            self.session.close()
            if not self.writer.is_closing():
                self.writer.close()

    def _error(self, code: int) -> None:
        self._write(error_frame(code))
        self._close()

    def _flooding(self, kind: int, body: bytes) -> bool:
        """Whether this message overdraws the connection's allowance, each message costing what
        it asks of the server (``message_cost``): a flood of cheap messages and a trickle of dear
        ones are held to the same budget (docs/bots.md, "Limits and bad input")."""
        now = time.monotonic()
        self.allowance = min(float(self.limits.burst), self.allowance + (now - self.refilled) * self.limits.rate)
        self.refilled = now
        self.allowance -= message_cost(kind, body)
        return self.allowance < 0

    async def run(self) -> None:
        joined_by = time.monotonic() + self.limits.im_seconds + self.limits.join_seconds
        try:
            while not self.done.is_set():
                if not self.greeted:
                    timeout: float | None = self.limits.im_seconds
                elif not self.session.joined:
                    timeout = max(0.0, joined_by - time.monotonic())
                else:
                    timeout = None
                try:
                    data = await asyncio.wait_for(self.reader.read(READ_SIZE), timeout)
                except TimeoutError:
                    if not self.greeted:
                        self._error(IM_TIMER_POPPED)
                    else:
                        self.session.admin("no game was joined in time")
                        self._send(["OFF"])
                        self.farewell()
                    break
                if not data:
                    break
                self.session.read_at_turn()  # what the client had been told when these bytes came in
                try:
                    for found in self.frames.feed(data):
                        if self.done.is_set():
                            break
                        if self._flooding(found.kind, found.body):
                            log.warning("daide client floods; closing", extra={"address": self.address})
                            self.farewell()
                            break
                        await self._frame(found.kind, found.body)
                except FrameError as error:
                    log.info("daide protocol error: %s", error, extra={"address": self.address})
                    self._error(error.code)
        except (ConnectionError, OSError):
            pass
        except Exception:
            log.exception("daide connection failed", extra={"address": self.address})
        finally:
            self._close()

    async def _frame(self, kind: int, body: bytes) -> None:
        if kind == IM:
            if self.greeted:
                raise FrameError(MORE_THAN_ONE_IM, "a second IM")
            check_initial(body)
            self.greeted = True
            self._write(frame(RM, representation(RM_NAMES)))
            return
        if not self.greeted:
            raise FrameError(IM_NOT_FIRST, "the first message must be an IM")
        if kind == FM:
            self._close()
        elif kind == EM:
            log.info("daide client sent error %s", body.hex(), extra={"address": self.address})
            self._close()
        elif kind == RM:
            raise FrameError(RM_FROM_CLIENT, "an RM from a client")
        elif kind == DM:
            numbers = numbers_of(body)
            if not numbers:
                return
            try:
                items = parse(numbers)
            except Unbalanced:
                self._write(prn_frame(numbers))
                return
            except TooDeep as error:
                self._write(too_deep_echo(numbers, error.at))
                return
            await self.session.handle(items)


class DaideServer:
    """Accepts connections within the limits and runs each."""

    def __init__(self, hub: Hub, limits: Limits) -> None:
        self.hub, self.limits = hub, limits
        self.per_address: Counter[str] = Counter()
        self.connections: set[Connection] = set()
        self.handlers: set[asyncio.Task[None]] = set()
        self.server: asyncio.Server | None = None

    async def start(self, host: str, port: int) -> int:
        self.server = await asyncio.start_server(self._accept, host, port)
        return int(self.server.sockets[0].getsockname()[1])

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self.accept(reader, writer)

    async def accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, port: int | None = None,
                     port_game: str | None = None, connections: set[Connection] | None = None) -> None:
        """Run one client within the limits (they count every port); ``port``/``port_game``: it
        came in on a game's own port (services/daide/ports.py), which counts its ``connections``."""
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        if self.per_address[address] >= self.limits.per_address or len(self.connections) >= self.limits.max_connections:
            log.warning("daide connection refused: too many", extra={"address": address})
            writer.write(frame(FM))
            writer.close()
            return
        connection = Connection(self.hub, self.limits, reader, writer, address, port, port_game)
        self.per_address[address] += 1
        self.connections.add(connection)
        handler = asyncio.current_task()
        if handler is not None:
            self.handlers.add(handler)
        if connections is not None:
            connections.add(connection)
        try:
            await connection.run()
        finally:
            if handler is not None:
                self.handlers.discard(handler)
            if connections is not None:
                connections.discard(connection)
            self.connections.discard(connection)
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]

    async def stop(self) -> None:
        """Tell every client OFF and close: SIGTERM's way out."""
        if self.server is not None:
            self.server.close()
        for connection in list(self.connections):
            connection._send(["OFF"])
            connection.farewell()
        # a message in hand (a SUB being stored) is finished before the store closes
        if self.handlers:
            await asyncio.wait(list(self.handlers), timeout=STOP_SECONDS)
        await self.hub.settle(STOP_SECONDS)
        if self.server is not None:
            await self.server.wait_closed()
