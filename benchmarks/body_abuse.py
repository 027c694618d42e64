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

The other user reads a game's summary and writes orders in another game, one request after
the other; the figures are each request's median and 90th percentile in milliseconds.
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))

from tests.cli.test_serve import entente_command, wait_until_serving  # noqa: E402
from tests.utils.processes import stop  # noqa: E402

ZEROS = b"[" + b",".join([b"0"] * 340_000) + b"]"  # 680 kB
JSON = {"content-type": "application/json"}
PAST_PHASES = 120


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


def figures(taken: dict[str, list[float]]) -> str:
    parts = []
    for name, values in taken.items():
        ordered = sorted(values)
        parts.append(f"{name} median {statistics.median(ordered):.1f} ms, p90 "
                     f"{ordered[int(0.9 * (len(ordered) - 1))]:.1f} ms ({len(ordered)})")
    return "; ".join(parts)


def run(seconds: float, port: int, code: Path) -> None:
    base_url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as directory:
        env = {**os.environ, "ENTENTE_OPERATOR_TOKEN": "body-abuse-benchmark-token-0123456789",
               "ENTENTE_ENVIRONMENT": "test", "ENTENTE_RATE_LIMITS": "false", "PYTHONPATH": str(code)}
        process = subprocess.Popen(
            [*entente_command(), "serve", "--port", str(port), "--database", f"sqlite:///{directory}/b.db",
             "--no-worker", "--log-level", "warning"],
            cwd=REPOSITORY, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            wait_until_serving(base_url, process)
            with httpx.Client(base_url=base_url, timeout=60) as client:
                read_game, _, _ = started_game(client)
                write_game, _, powers = started_game(client)
                hosts = []
                for _ in range(2):
                    game_id, host_token, _ = started_game(client)
                    for _ in range(PAST_PHASES):
                        client.post(f"/games/{game_id}/resolve", headers={"authorization": f"Bearer {host_token}"})
                    first = client.get(f"/games/{game_id}/view").json()["history"]
                    hosts.append((game_id, host_token))
                first_phase = "S1901M"
                assert first, "the attackers' games resolved no phase"

                def measure(label: str, attacks: list[tuple[Callable[[httpx.Client], int], float]]) -> None:
                    stop_at, answers = [False], []
                    threads = [attacking(base_url, send, rate, stop_at, answers) for send, rate in attacks]
                    taken = other_user(client, read_game, write_game, powers, seconds)
                    stop_at[0] = True
                    for thread in threads:
                        thread.join()
                    counted = {code: answers.count(code) for code in sorted(set(answers))}
                    print(f"{label:>14}: {figures(taken)}; attack answers {counted}", flush=True)

                measure("unloaded", [])
                measure("bodies", [
                    (lambda c: c.post("/games", content=ZEROS, headers=JSON).status_code, 1.1),
                    (lambda c: c.post("/no/such/path", content=ZEROS, headers=JSON).status_code, 1.1)])
                measure("past resolves", [
                    (lambda c, g=g, t=t: c.post(f"/games/{g}/resolve", json={"phase": first_phase},
                                                headers={"authorization": f"Bearer {t}"}).status_code, 5.0)
                    for g, t in hosts])
                measure("unloaded again", [])
        finally:
            stop(process)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("seconds", type=float, nargs="?", default=20.0)
    parser.add_argument("--port", type=int, default=0, help="default: the first free one of 44000-44099")
    parser.add_argument("--server-code", type=Path, default=REPOSITORY,
                        help="the checkout the server runs (another one's: its figures before a change)")
    arguments = parser.parse_args()
    run(arguments.seconds, arguments.port or port_in(44000, 44099), arguments.server_code)
