"""Waiting for background work by its condition, not for a fixed time (docs/testing.md, "Waiting
for background work"): a server to answer, a stream to have its start, a worker to act, a
statement to be waiting on a lock. A fixed sleep is either too short on a busy machine (a flaky
test) or longer than needed everywhere else; these return as soon as the condition holds, and
fail with what was awaited when it does not hold in time.

``until`` (async) and ``wait_until`` (sync) take a predicate, called until it returns something
true, which they return; ``until`` also takes a coroutine function. A predicate that raises
stops the wait with its error (a check that a server process still runs can stop it early).
``context``, if given, is called on a timeout and its text follows the message (a server's log).
"""
from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, overload

import httpx

T = TypeVar("T")

EVERY = 0.01  # seconds between two looks


@overload
async def until(predicate: Callable[[], Awaitable[T | None]], timeout: float = ..., what: str = ...,
                every: float = ..., *, context: Callable[[], str] | None = ...) -> T: ...
@overload
async def until(predicate: Callable[[], T | None], timeout: float = ..., what: str = ...,
                every: float = ..., *, context: Callable[[], str] | None = ...) -> T: ...
async def until(predicate: Callable[[], Any], timeout: float = 10.0, what: str = "the condition",
                every: float = EVERY, *, context: Callable[[], str] | None = None) -> Any:
    """Wait, on the event loop, until ``predicate()`` (awaited when it is a coroutine) is true."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value: Any = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if loop.time() >= deadline:
            raise AssertionError(_timed_out(timeout, what, context))
        await asyncio.sleep(every)


def wait_until(predicate: Callable[[], T | None], timeout: float = 10.0, what: str = "the condition",
               every: float = EVERY, *, context: Callable[[], str] | None = None) -> T:
    """Wait, blocking the thread, until ``predicate()`` is true."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(_timed_out(timeout, what, context))
        time.sleep(every)


def _timed_out(timeout: float, what: str, context: Callable[[], str] | None) -> str:
    message = f"timed out after {timeout:g} s waiting for {what}"
    return f"{message}\n{context()}" if context is not None else message


def streams_started(store: Any) -> int:
    """How many live-stream watchers the store's hub (in this process) has given their start
    (their first view): a stream opened in a task has read its starting point once this counts it."""
    from services.visibility.hub import hub_for

    hub = hub_for(store)
    return sum(watcher.ready for feed in hub.feeds.values() for watcher in feed.watchers)


def answers(client: httpx.Client, path: str) -> bool:
    """Whether the server behind ``client`` answers ``GET path`` with 200 (False while it does not
    listen yet)."""
    try:
        return client.get(path).status_code == 200
    except httpx.TransportError:
        return False
