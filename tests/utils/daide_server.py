"""A real ``entente daide`` process on a test database, and hosted games seated for its clients
(made with the lobby's own service functions, as the HTTP API makes them)."""
from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from services.lobby.service import create_game, join_game, settings_for, start_game
from shared.store import EventStore
from tests.cli.test_serve import REPOSITORY, entente_command, free_port
from tests.utils.daide_client import DaideClient
from tests.utils.processes import stop
from tests.utils.wait import wait_until


@dataclass
class Served:
    port: int
    process: subprocess.Popen

    def log(self) -> str:
        return self.process.stderr.read() if self.process.stderr and self.process.poll() is not None else ""


@contextmanager
def entente_daide(database_url: str, *options: str) -> Iterator[Served]:
    """``entente daide`` on ``database_url`` (its own port), stopped with SIGTERM at the end."""
    port = free_port()
    env = {**os.environ, "ENTENTE_ENVIRONMENT": "test"}
    process = subprocess.Popen(
        [*entente_command(), "daide", "--port", str(port), "--database", database_url, "--poll", "0.2", *options],
        cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_port(port, process)
        yield Served(port, process)
    finally:
        stop(process)


@contextmanager
def clock_worker(url: str) -> Iterator[None]:
    """A real ``entente worker`` on ``url``, sweeping every half second."""
    process = subprocess.Popen([*entente_command(), "worker", "--database", url, "--poll", "0.5"], cwd=REPOSITORY,
                               env={**os.environ, "ENTENTE_ENVIRONMENT": "test"}, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        stop(process)


async def joined(client: DaideClient, credential: str) -> list[str]:
    """A client's NME for ``credential`` through the map to its first turn: what it was sent
    (the turn's messages but the last)."""
    await client.hello()
    client.send(f"NME ('{credential}') ('late bot')")
    await client.until("MAP")
    client.send("YES (MAP ('STANDARD'))")
    return (await client.turn())[:-1]


GAME_PORTS = range(42000, 43000)  # this area's ports for game ports (tests pick free runs of them)


def game_port_range(count: int) -> str:
    """``LOW-HIGH`` for ``--game-ports``: ``count`` ports in a row of 42000-42999, all free now."""
    for low in range(GAME_PORTS.start, GAME_PORTS.stop - count, count):
        sockets = []
        try:
            for port in range(low, low + count):
                listening = socket.socket()
                sockets.append(listening)
                listening.bind(("127.0.0.1", port))
            return f"{low}-{low + count - 1}"
        except OSError:
            continue
        finally:
            for listening in sockets:
                listening.close()
    raise RuntimeError("no free run of game ports in 42000-42999")


async def daide_game(store: EventStore, **settings: Any) -> str:
    """A standard game open to DAIDE bots (``daide_open``), nobody seated: its id."""
    chosen = settings_for("standard", {"daide_open": True, **settings})
    return (await create_game(store, name="daide port test", variant="standard", settings=chosen)).state.game_id


def _wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30.0) -> None:
    """Wait until ``entente daide`` takes connections on ``port``; its exit stops the wait."""
    def listening() -> bool:
        if process.poll() is not None:
            said = process.stderr.read() if process.stderr else ""
            raise RuntimeError(f"entente daide exited {process.returncode}: {said}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            return False

    wait_until(listening, timeout, "entente daide to listen", 0.1)


@dataclass
class SeatedGame:
    game_id: str
    credentials: dict[str, str]  # POWER -> the NME credential ('g_.../TOKEN')
    player_ids: dict[str, str]  # POWER -> player id
    host_token: str


async def seated_game(store: EventStore, variant: str = "standard", *, start: bool = True,
                      started_ago: timedelta = timedelta(0), **settings: Any) -> SeatedGame:
    """A game with every seat taken (and started): each power's credential for NME.
    ``started_ago`` starts it that long in the past, so that a test of a deadline waits out
    only the rest of its clock (docs/testing.md, "Clocks")."""
    chosen = settings_for(variant, settings)
    created = await create_game(store, name="daide test", variant=variant, settings=chosen)
    game_id = created.state.game_id
    joined = [await join_game(store, game_id) for _ in range(chosen.player_count)]
    if not start:
        return SeatedGame(game_id, {j.player_id: f"{game_id}/{j.token}" for j in joined},
                          {j.player_id: j.player_id for j in joined}, created.host_token)
    state = await start_game(store, game_id, now=datetime.now(UTC) - started_ago)
    credentials, players = {}, {}
    for j in joined:
        for power in state.powers_of(j.player_id):
            credentials[power] = f"{game_id}/{j.token}"
            players[power] = j.player_id
    return SeatedGame(game_id, credentials, players, created.host_token)
