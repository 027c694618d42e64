"""Group commit: the writes that arrive while one is being written go together in the next
(docs/store.md, "Appends gathered into one commit").

A ``GroupCommit`` takes items one caller at a time and writes them in batches with the
function it was given, one batch at a time: the first item is written at once, alone; those
that arrive while it is written wait and go together in the next batch, and so on. Under no
load an item costs what it cost alone; under load the round trips and the commits (and the
time the log's position lock is held) are shared by every item of a batch. Each caller gets its
own item's answer, or its own item's exception: the batch function answers per item.
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Generic, TypeVar

Item = TypeVar("Item")
Answer = TypeVar("Answer")


class GroupCommit(Generic[Item, Answer]):
    """Items written in batches of at most ``max_items``, one batch in flight at a time;
    ``write`` answers each item of a batch with its answer or the exception it raises."""

    def __init__(self, write: Callable[[Sequence[Item]], Awaitable[Sequence[Answer | BaseException]]], *,
                 max_items: int = 64) -> None:
        self._write = write
        self._max_items = max_items
        self._waiting: list[tuple[Item, asyncio.Future[Answer]]] = []
        self._writing = False
        self._writer: asyncio.Task[None] | None = None  # held: the loop keeps only a weak reference
        self.batches = 0  # written so far (the benchmarks and the tests read them)
        self.items = 0

    async def submit(self, item: Item) -> Answer:
        """Write ``item`` (with the others waiting then) and return its answer."""
        answer: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, answer))
        if not self._writing:
            self._writing = True
            self._writer = asyncio.get_running_loop().create_task(self._write_all())
        return await asyncio.shield(answer)  # a caller that gives up leaves its batch whole

    async def _write_all(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting[:self._max_items], self._waiting[self._max_items:]
                await self._write_one(batch)
        except BaseException:  # the writer itself cancelled (the loop stopping): nobody is left waiting
            waiting, self._waiting = self._waiting, []
            _fail(waiting, None)
            raise
        finally:
            self._writing = False

    async def _write_one(self, batch: list[tuple[Item, asyncio.Future[Answer]]]) -> None:
        try:
            outcomes = await self._write([item for item, _ in batch])
        except Exception as error:  # the whole batch failed: each caller hears it
            _fail(batch, error)
            return
        except BaseException:
            _fail(batch, None)
            raise
        self.batches += 1
        self.items += len(batch)
        for (_, answer), outcome in zip(batch, outcomes, strict=True):
            if answer.done():
                continue
            if isinstance(outcome, BaseException):
                answer.set_exception(outcome)
            else:
                answer.set_result(outcome)


def _fail(waiting: Sequence[tuple[object, asyncio.Future[Any]]], error: Exception | None) -> None:
    """Each caller still waiting hears ``error`` (None: its wait is cancelled)."""
    for _, answer in waiting:
        if answer.done():
            continue
        if error is None:
            answer.cancel()
        else:
            answer.set_exception(error)
