"""The watchers of a live stream as benchmarks/stream.py and benchmarks/soak.py run them: lean
asyncio clients reading ``GET /games/{id}/stream`` off raw sockets, in processes of their own
(``WatcherCrowd``), and the figures made of what they read (``delivery``, ``figures``)."""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import re
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

CONNECT_SECONDS = 120.0  # how long the watchers may take to connect and read their first view
PHASE_IN_VIEW = re.compile(r'"phase":"([A-Z0-9]+)"')


# ----------------------------------------------------------------------------- the watchers


async def watch(host: str, port: int, path: str, token: str | None, ready: asyncio.Event,
                views: list[tuple[str, float]], messages: list[tuple[str, float]], stop: asyncio.Event,
                errors: list[str]) -> None:
    """One watcher: the stream read off a raw socket (chunked transfer coding), each view's
    phase and each message's text noted with the time it was read."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as error:
        errors.append(f"connect: {error!r}")
        ready.set()
        return
    head = f"GET {path} HTTP/1.1\r\nhost: {host}\r\naccept: text/event-stream\r\n"
    if token:
        head += f"authorization: Bearer {token}\r\n"
    writer.write((head + "\r\n").encode())
    buffer = ""
    try:
        status = await reader.readline()
        if b" 200 " not in status:
            errors.append(f"status {status!r}")
            return
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        while not stop.is_set():
            size_line = await reader.readline()
            if not size_line:
                errors.append("closed by the server")
                return
            size = int(size_line.strip() or b"0", 16)
            if size == 0:
                errors.append("stream ended")
                return
            chunk = await reader.readexactly(size + 2)
            buffer += chunk[:-2].decode()
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                now = time.monotonic()
                if "event: view" in block:
                    found = PHASE_IN_VIEW.search(block)
                    views.append((found.group(1) if found else "?", now))
                    ready.set()
                elif "event: message" in block:
                    text = re.search(r'"text":"([^"]*)"', block)
                    messages.append((text.group(1) if text else "?", now))
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        errors.append(repr(error)[:200])
    finally:
        ready.set()
        writer.close()


async def watchers_main(base: str, game_id: str, tokens: list[str | None], commands: Any, results: Any) -> None:
    host, port = base.removeprefix("http://").split(":")
    stop = asyncio.Event()
    errors: list[str] = []
    logs = [([], []) for _ in tokens]  # type: ignore[var-annotated]
    readies = [asyncio.Event() for _ in tokens]
    path = f"/games/{game_id}/stream?timeout=300"
    tasks = []
    started = time.monotonic()
    for token, ready, (views, messages) in zip(tokens, readies, logs, strict=True):
        tasks.append(asyncio.create_task(watch(host, int(port), path, token, ready, views, messages, stop, errors)))
        await asyncio.sleep(0.002)  # a browser crowd arrives over a moment, not in one instant
    try:
        await asyncio.wait_for(asyncio.gather(*(ready.wait() for ready in readies)), CONNECT_SECONDS)
    except TimeoutError:
        errors.append(f"{sum(not r.is_set() for r in readies)} watchers shown no view in {CONNECT_SECONDS:.0f}s")
    results.put(("ready", time.monotonic() - started, len(errors)))
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, commands.get)  # "stop"
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    results.put(("done", [views for views, _ in logs], [messages for _, messages in logs], errors))


def watchers_process(base: str, game_id: str, tokens: list[str | None], commands: Any, results: Any,
                     niceness: int) -> None:
    os.nice(niceness)  # the load generator yields the cores to the server under test (docs above)
    asyncio.run(watchers_main(base, game_id, tokens, commands, results))


@dataclass
class WatchedLogs:
    """What a crowd of watchers read: per watcher, the views' phases and the messages' texts,
    each with the time it was read; and the errors they met."""

    views: list[list[tuple[str, float]]] = field(default_factory=list)
    messages: list[list[tuple[str, float]]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class WatcherCrowd:
    """Watchers of one game's live stream (a bearer token each, None: anonymous), shared out
    among ``processes`` processes of lean clients (``watchers_process``) at ``niceness``. Also
    used by benchmarks/soak.py."""

    def __init__(self, base: str, game_id: str, tokens: list[str | None], processes: int, niceness: int = 0) -> None:
        context = multiprocessing.get_context("spawn")
        shares = [share for share in (tokens[k::processes] for k in range(processes)) if share]
        self.commands = [context.Queue() for _ in shares]
        self.results = context.Queue()
        self.processes = [context.Process(target=watchers_process, daemon=True,
                                          args=(base, game_id, share, queue, self.results, niceness))
                          for share, queue in zip(shares, self.commands, strict=True)]
        self.count = len(tokens)

    async def start(self) -> tuple[float, int]:
        """Once every watcher has its first view: (seconds that took, watchers that failed)."""
        for process in self.processes:
            process.start()
        loop = asyncio.get_running_loop()
        readies = [await loop.run_in_executor(None, self.results.get, True, CONNECT_SECONDS + 60)
                   for _ in self.processes]
        return max(r[1] for r in readies), sum(r[2] for r in readies)

    async def stop(self) -> WatchedLogs:
        """Close every stream; what the watchers read."""
        for queue in self.commands:
            queue.put("stop")
        loop = asyncio.get_running_loop()
        logs = WatchedLogs()
        for _ in self.processes:
            _, views, messages, errors = await loop.run_in_executor(None, self.results.get, True, 120)
            logs.views += views
            logs.messages += messages
            logs.errors += errors
        for process in self.processes:
            process.join(timeout=30)
        self.terminate()
        return logs

    def terminate(self) -> None:
        for process in self.processes:
            if process.is_alive():
                process.terminate()


# ----------------------------------------------------------------------------- the figures


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def figures(values: list[float]) -> str:
    """Median, p90, p99 and max in ms: tenths below 10 ms, so that a PUT's 4-6 ms median can be
    compared loaded and unloaded within 10 %."""
    if not values:
        return "none"

    def ms(seconds: float) -> str:
        return f"{seconds * 1000:.1f} ms" if seconds < 0.01 else f"{seconds * 1000:.0f} ms"

    return (f"median {ms(statistics.median(values))}, p90 {ms(percentile(values, 0.9))}, "
            f"p99 {ms(percentile(values, 0.99))}, max {ms(max(values))}")


def delivery(sent: dict[str, float], received: list[list[tuple[str, float]]], give_up: float
             ) -> tuple[list[float], int]:
    """Latencies of every (watcher, sent item) pair read within ``give_up`` seconds, and how many
    were not."""
    latencies, lost = [], 0
    for log in received:
        first: dict[str, float] = {}
        for key, at in log:
            first.setdefault(key, at)
        for key, at_sent in sent.items():
            first_at = first.get(key)
            if first_at is None or first_at - at_sent > give_up:
                lost += 1
            else:
                latencies.append(max(0.0, first_at - at_sent))
    return latencies, lost
