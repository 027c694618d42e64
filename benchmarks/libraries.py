"""What the maintained libraries would cost where Entente hand-rolls the thing (docs/architecture.md,
"Libraries measured"): the LRU cache, the JSON log formatter, SSE framing, and the import
time of the OAuth clients. It prints figures; it is not a timed test.

    pip install cachetools python-json-logger sse-starlette authlib httpx-oauth
    python benchmarks/libraries.py

None of those is a dependency of entente: the script skips what is not installed.
"""
from __future__ import annotations

import json
import logging
import statistics
import subprocess
import sys
import timeit
from typing import Any


def per_call(stmt: Any, number: int, repeat: int = 7) -> float:
    """The median time of one call, in microseconds."""
    return statistics.median(timeit.repeat(stmt, number=number, repeat=repeat)) / number * 1e6


def lru() -> None:
    from shared.bounded import BoundedCache

    ours: BoundedCache[int, str] = BoundedCache("bench", 1000, 10**9)
    for i in range(1000):
        ours.put(i, "x", 100)
    keys = iter(range(10**9))

    def ours_put() -> None:
        ours.put(next(keys) + 10_000, "x", 100)  # a new key: one eviction each

    print(f"LRU hit, ours (BoundedCache):            {per_call(lambda: ours.get(500), 200_000):.3f} µs")
    print(f"LRU put with eviction, ours:             {per_call(ours_put, 100_000):.3f} µs")
    try:
        import cachetools
    except ImportError:
        print("cachetools not installed")
        return
    theirs: Any = cachetools.LRUCache(maxsize=100_000, getsizeof=lambda value: 100)
    for i in range(1000):
        theirs[i] = "x"
    more = iter(range(10**9))

    def theirs_put() -> None:
        theirs[next(more) + 10_000] = "x"

    print(f"LRU hit, cachetools.LRUCache:            {per_call(lambda: theirs.get(500), 200_000):.3f} µs")
    print(f"LRU put with eviction, cachetools:       {per_call(theirs_put, 100_000):.3f} µs")


def record() -> logging.LogRecord:
    made = logging.LogRecord("entente.http", logging.INFO, __file__, 1, "request", None, None)
    made.__dict__.update({"route": "/games/{game_id}/orders", "method": "PUT", "status": 200,
                          "duration_ms": 3.21, "game_id": "g_0123456789ab"})
    return made


def logs() -> None:
    from shared.logs import JsonFormatter

    line = record()
    ours = JsonFormatter()
    print(f"JSON log line, ours (shared/logs.py):    {per_call(lambda: ours.format(line), 50_000):.2f} µs")
    try:
        from pythonjsonlogger.json import JsonFormatter as Theirs
    except ImportError:
        print("python-json-logger not installed")
        return
    theirs = Theirs("%(asctime)s %(levelname)s %(name)s %(message)s")
    print(f"JSON log line, python-json-logger:       {per_call(lambda: theirs.format(line), 50_000):.2f} µs")
    print("   ours:  ", ours.format(line))
    print("   theirs:", theirs.format(line))


def sse() -> None:
    view = json.dumps({"phase": "S1901M", "units": [{"province": f"p{i}", "type": "A"} for i in range(400)]},
                      separators=(",", ":"))
    data = view.encode()

    def ours() -> bytes:
        return b"id: 12.3\nevent: view\ndata: " + data + b"\n\n"

    print(f"SSE frame of {len(data)} bytes, ours:          {per_call(ours, 100_000):.3f} µs")
    try:
        from sse_starlette import ServerSentEvent
    except ImportError:
        print("sse-starlette not installed")
        return
    print(f"SSE frame, sse_starlette.ServerSentEvent: "
          f"{per_call(lambda: ServerSentEvent(data=view, event='view', id='12.3').encode(), 20_000):.3f} µs")


def imports() -> None:
    for module in ("authlib.integrations.httpx_client", "httpx_oauth.clients.discord", "sse_starlette",
                   "cachetools", "pythonjsonlogger.json"):
        # what the module adds to a process that already has httpx and starlette (as entente's have)
        code = ("import httpx, starlette.responses, time; t = time.perf_counter(); "
                f"import {module}; print(time.perf_counter() - t)")
        found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if found.returncode:
            print(f"import {module}: not installed")
            continue
        runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
                for _ in range(5)]
        print(f"import {module}: +{statistics.median(runs) * 1000:.0f} ms over httpx and starlette (median of 5)")


if __name__ == "__main__":
    lru()
    logs()
    sse()
    imports()
