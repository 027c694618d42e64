"""Cheap requests that used to cost the server dear, against a real `entente serve` on SQLite
(docs/operations.md, "Request bodies"; docs/api.md, "resolve"): another user's latency
unloaded and beside each attack, medians.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/body_abuse.py [SECONDS] [--port PORT] [--server-code DIR]

- ``bodies``: two anonymous clients each send a 680 kB JSON array of zeros 1.1 times a second,
  one to ``POST /games``, one to a path no route serves (the review measured the other user's
  summary going from 3 ms to 2.7 s when every body was decoded with a Python call per number,
  before routing).
- ``past resolves``: two anonymous hosts each ask ``POST /resolve`` for the first phase of
  their own 120-phase game, 5 times a second (a 409 each; it used to fold the whole log under
  the writer's lock, and other games' writes went from 4 ms to 629 ms on SQLite).
- ``HST flood``: eight DAIDE observers (``OBS``) of a 300-phase game on an ``entente daide``
  beside the server, on the same store, each asking ``HST`` for a turn drawn at random as fast
  as the flood allowance lets a connection go on (an HST costs ten messages: two a second),
  coming back when closed (the review measured another bot's ``NOW`` round trip going from
  1 ms to 309 ms when every HST re-read the whole log; docs/bots.md, "Limits and bad input").

The other user reads a game's summary and writes orders in another game, one request after
the other, and the other bot (seated in a third game on ``entente daide``) asks ``NOW`` ten
times a second; the figures are each request's median and 90th percentile in milliseconds.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import httpx

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))

from tests.cli.test_serve import entente_command, wait_until_serving  # noqa: E402
from tests.utils.daide_client import DM, FM, IM, decode, dm  # noqa: E402
from tests.utils.processes import stop  # noqa: E402

ZEROS = b"[" + b",".join([b"0"] * 340_000) + b"]"  # 680 kB
JSON = {"content-type": "application/json"}
PAST_PHASES = 120
HST_PHASES = 300
OBSERVERS = 8


def resolve_past(client: httpx.Client, *, game_id: str, token: str, phase: str) -> int:
    """A host's ``POST /resolve`` of a phase long past: the status it gets."""
    return client.post(f"/games/{game_id}/resolve", json={"phase": phase},
                       headers={"authorization": f"Bearer {token}"}).status_code

def port_in(first: int, last: int) -> int:
    for port in range(first, last + 1):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise SystemExit(f"no free port in {first}-{last}")


def started_game(client: httpx.Client) -> tuple[str, str, dict[str, str]]:
    """A started seven-player game: its id, its host token, each power's token."""
    created = client.post("/games", json={"name": "Benchmark"}).json()
    tokens = [client.post(f"/games/{created['id']}/players").json()["token"] for _ in range(7)]
    client.post(f"/games/{created['id']}/start", headers={"authorization": f"Bearer {created['host_token']}"})
    powers = {}
    for token in tokens:
        view = client.get(f"/games/{created['id']}/view", headers={"authorization": f"Bearer {token}"}).json()
        for power in view["viewer"]["powers"]:
            powers[power] = token
    return created["id"], created["host_token"], powers


class Daide:
    """One DAIDE connection, synchronous: the IM sent and the RM read at once."""

    def __init__(self, port: int) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.socket.sendall(struct.pack(">BBHHH", IM, 0, 4, 1, 0xDA10))
        self.frame()  # the RM

    def _exactly(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.socket.recv(size - len(data))
            if not chunk:
                raise ConnectionError("closed by the server")
            data += chunk
        return data

    def frame(self) -> tuple[int, bytes]:
        kind, _, length = struct.unpack(">BBH", self._exactly(4))
        return kind, self._exactly(length) if length else b""

    def send(self, written: str) -> None:
        self.socket.sendall(dm(written))

    def until(self, prefix: str) -> str:
        """DMs read up to the first whose written form starts with ``prefix``: that one."""
        while True:
            kind, body = self.frame()
            if kind == FM:
                raise ConnectionError("the server ended the connection")
            if kind == DM and decode(body).startswith(prefix):
                return decode(body)

    def close(self) -> None:
        self.socket.close()


def seated_bot(port: int, game_id: str, token: str) -> Daide:
    """A bot in its seat (NME with the seat's credential, the map taken), its first NOW read."""
    bot = Daide(port)
    bot.send(f"NME ('{game_id}/{token}') ('benchmark bot')")
    bot.until("MAP")
    bot.send("YES (MAP ('STANDARD'))")
    bot.until("NOW")
    return bot


def now_round_trips(bot: Daide, seconds: float) -> list[float]:
    """``NOW`` ten times a second (half its allowance): each round trip in milliseconds."""
    taken = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        bot.send("NOW")
        bot.until("NOW")
        taken.append((time.perf_counter() - started) * 1000)
        time.sleep(0.1)
    return taken


def observing(port: int, game_id: str, turns: list[str], stop_at: list[bool], answers: list[int]) -> threading.Thread:
    """An observer asking HST for a random past turn twice a second (the sustained allowance:
    20 messages a second, ten an HST), reading what comes back in a thread of its own; a closed
    connection (a flood, a slow reader) opens anew. ``answers`` counts the ORD messages read (1
    each) and the connections closed (-1 each)."""
    def drain(watcher: Daide) -> None:
        try:
            while True:
                kind, body = watcher.frame()
                if kind == DM and body[:2] == dm("ORD")[4:6]:
                    answers.append(1)
        except (ConnectionError, OSError):
            return

    def run() -> None:
        while not stop_at[0]:
            watcher = Daide(port)
            watcher.send(f"OBS ('{game_id}')")
            reader = threading.Thread(target=drain, args=(watcher,), daemon=True)
            reader.start()
            try:
                while not stop_at[0] and reader.is_alive():
                    watcher.send(f"HST ({random.choice(turns)})")
                    time.sleep(0.5)
            except OSError:
                pass
            watcher.close()
            if not stop_at[0]:
                answers.append(-1)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def other_user(client: httpx.Client, summary_of: str, orders_in: str, powers: dict[str, str], seconds: float
               ) -> dict[str, list[float]]:
    taken: dict[str, list[float]] = {"summary": [], "orders": []}
    end = time.monotonic() + seconds
    turns = 0
    while time.monotonic() < end:
        power = sorted(powers)[turns % len(powers)]  # at most 300 writes a power a phase
        turns += 1
        started = time.perf_counter()
        client.get(f"/games/{summary_of}")
        taken["summary"].append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        answer = client.put(f"/games/{orders_in}/orders", json={"power": power, "orders": []},
                            headers={"authorization": f"Bearer {powers[power]}"})
        assert answer.status_code == 200, answer.text
        taken["orders"].append((time.perf_counter() - started) * 1000)
        time.sleep(0.05)
    return taken


def attacking(base_url: str, send: Callable[[httpx.Client], int], per_second: float, stop_at: list[bool],
              answers: list[int]) -> threading.Thread:
    def run() -> None:
        with httpx.Client(base_url=base_url, timeout=60) as client:
            while not stop_at[0]:
                started = time.monotonic()
                answers.append(send(client))
                time.sleep(max(0.0, 1 / per_second - (time.monotonic() - started)))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


class Attackers:
    """The attacks' threads in a process of their own (forked), so that the attackers' Python
    never holds the measuring client's interpreter lock: what the other user and the other bot
    wait for is the server, not the attacks' own client code. ``stop`` ends them and gives the
    answers they counted."""

    def __init__(self, start: Callable[[list[bool], list[int]], list[threading.Thread]]) -> None:
        context = multiprocessing.get_context("fork")
        self._stop = context.Event()
        self._answers: multiprocessing.Queue[list[int]] = context.Queue()
        self._process = context.Process(target=self._run, args=(start,), daemon=True)
        self._process.start()

    def _run(self, start: Callable[[list[bool], list[int]], list[threading.Thread]]) -> None:
        stop_at: list[bool] = [False]
        answers: list[int] = []
        threads = start(stop_at, answers)
        self._stop.wait()
        stop_at[0] = True
        for thread in threads:
            thread.join()
        self._answers.put(answers)

    def stop(self) -> list[int]:
        self._stop.set()
        answers = self._answers.get(timeout=300)
        self._process.join(timeout=60)
        return answers


def figures(taken: dict[str, list[float]]) -> str:
    parts = []
    for name, values in taken.items():
        ordered = sorted(values)
        parts.append(f"{name} median {statistics.median(ordered):.1f} ms, p90 "
                     f"{ordered[int(0.9 * (len(ordered) - 1))]:.1f} ms ({len(ordered)})")
    return "; ".join(parts)


def resolved(client: httpx.Client, phases: int) -> tuple[str, str]:
    """A started game resolved ``phases`` times by its host (everyone holds): its id and host token."""
    game_id, host_token, _ = started_game(client)
    for _ in range(phases):
        client.post(f"/games/{game_id}/resolve", headers={"authorization": f"Bearer {host_token}"})
    assert client.get(f"/games/{game_id}/view").json()["history"], "the game resolved no phase"
    return game_id, host_token


def played_turns(client: httpx.Client, game_id: str) -> list[str]:
    """The DAIDE names of the movement turns before the game's current year."""
    year = int(client.get(f"/games/{game_id}").json()["phase"][1:5])
    return [f"{season} {y}" for y in range(1901, year) for season in ("SPR", "FAL")]


def run(seconds: float, port: int, code: Path) -> None:
    base_url = f"http://127.0.0.1:{port}"
    daide_port = port_in(port + 1, port + 99)
    with tempfile.TemporaryDirectory() as directory:
        database = f"sqlite:///{directory}/b.db"
        env = {**os.environ, "ENTENTE_OPERATOR_TOKEN": "body-abuse-benchmark-token-0123456789",
               "ENTENTE_ENVIRONMENT": "test", "ENTENTE_RATE_LIMITS": "false", "PYTHONPATH": str(code)}
        process = subprocess.Popen(
            [*entente_command(), "serve", "--port", str(port), "--database", database,
             "--no-worker", "--log-level", "warning"],
            cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        daide: subprocess.Popen | None = None
        try:
            wait_until_serving(base_url, process)
            daide = subprocess.Popen(
                [*entente_command(), "daide", "--port", str(daide_port), "--database", database,
                 "--max-per-address", str(OBSERVERS + 4)],
                cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            with httpx.Client(base_url=base_url, timeout=60) as client:
                read_game, _, _ = started_game(client)
                write_game, _, powers = started_game(client)
                hosts = [resolved(client, PAST_PHASES) for _ in range(2)]
                first_phase = "S1901M"
                watched, _ = resolved(client, HST_PHASES)
                turns = played_turns(client, watched)
                bot_game, _, bot_powers = started_game(client)
                for _ in range(300):
                    try:
                        bot = seated_bot(daide_port, bot_game, next(iter(bot_powers.values())))
                        break
                    except OSError:
                        time.sleep(0.1)  # entente daide is still starting
                else:
                    raise SystemExit("entente daide did not answer")

                def measure(label: str, attacks: list[tuple[Callable[[httpx.Client], int], float]],
                            observers: int = 0) -> None:
                    def start(stop_at: list[bool], answers: list[int]) -> list[threading.Thread]:
                        return ([attacking(base_url, send, rate, stop_at, answers) for send, rate in attacks]
                                + [observing(daide_port, watched, turns, stop_at, answers)
                                   for _ in range(observers)])

                    attackers = Attackers(start)
                    round_trips: list[float] = []

                    def time_the_bot() -> None:
                        round_trips.extend(now_round_trips(bot, seconds))

                    timer = threading.Thread(target=time_the_bot)
                    timer.start()
                    taken = other_user(client, read_game, write_game, powers, seconds)
                    timer.join()
                    answers = attackers.stop()
                    taken["bot's NOW"] = round_trips
                    counted: dict[object, int]
                    if observers:
                        counted = {"ORD messages read": answers.count(1), "connections closed": answers.count(-1)}
                    else:
                        counted = {code: answers.count(code) for code in sorted(set(answers))}
                    print(f"{label:>14}: {figures(taken)}; attack answers {counted}", flush=True)

                measure("unloaded", [])
                measure("bodies", [
                    (lambda c: c.post("/games", content=ZEROS, headers=JSON).status_code, 1.1),
                    (lambda c: c.post("/no/such/path", content=ZEROS, headers=JSON).status_code, 1.1)])
                measure("past resolves", [
                    (partial(resolve_past, game_id=g, token=t, phase=first_phase), 5.0) for g, t in hosts])
                measure("HST flood", [], observers=OBSERVERS)
                measure("unloaded again", [])
                bot.close()
        finally:
            if daide is not None:
                stop(daide)
            stop(process)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("seconds", type=float, nargs="?", default=20.0)
    parser.add_argument("--port", type=int, default=0,
                        help="default: the first free one of 44000-44099 (entente daide takes the next free one)")
    parser.add_argument("--server-code", type=Path, default=REPOSITORY,
                        help="the checkout the server runs (another one's: its figures before a change)")
    arguments = parser.parse_args()
    run(arguments.seconds, arguments.port or port_in(44000, 44099), arguments.server_code)
