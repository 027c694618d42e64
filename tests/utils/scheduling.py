"""How pytest-xdist's workers get the suite's tests (docs/testing.md, "Parallel").

xdist's own ``load`` scheduler sends each worker a quarter of its share at once, then refills a
worker that runs low with half of what is left per worker. A worker can so hold minutes of tests
queued behind a long one while the others have nothing left: in CI's run of 2026-12-07 two of
four workers were idle for the last 319 s, and one ran all of tests/cli alone for the last 120.

``ModuleRuns`` keeps a worker's queue short instead: a worker is sent more only when it is down
to the one test it holds back (xdist runs a test only once it knows the next), and then one run:
the tests that follow in the collection's order from the same file, so that a module's fixtures
(a browser, a deployment) are set up once for the run, at most a share of what is left, so that
runs shorten as the suite nears its end. The files named ``single`` (the longest) go one test
at a time, so that their tests start side by side on every worker.
"""
from __future__ import annotations

from collections.abc import Iterable

import pytest
from xdist.remote import Producer
from xdist.scheduler import LoadScheduling
from xdist.workermanage import WorkerController


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def next_run(collection: list[str], pending: list[int], cap: int, single: tuple[str, ...]) -> int:
    """How many of ``pending`` (indices into ``collection``, in order) the next run takes: the
    tests that follow from the first one's file, at most ``cap``, one alone from a ``single`` file."""
    if not pending:
        return 0
    first = file_of(collection[pending[0]])
    if first in single:
        return 1
    taken = 1
    while taken < min(cap, len(pending)) and file_of(collection[pending[taken]]) == first:
        taken += 1
    return taken


class ModuleRuns(LoadScheduling):
    """``load`` with short queues: runs of one file's tests, sent as a worker runs out."""

    collection: list[str] | None
    pending: list[int]
    node2pending: dict[WorkerController, list[int]]

    def __init__(self, config: pytest.Config, log: Producer | None = None, single: Iterable[str] = ()) -> None:
        super().__init__(config, log)
        self.single = tuple(single)

    def schedule(self) -> None:
        assert self.collection_is_completed
        if self.collection is not None:  # called again for a node added later
            for node in self.nodes:
                self.check_schedule(node)
            return
        if not self._check_nodes_have_same_collection():
            self.log("**Different tests collected, aborting run**")
            return
        collection: list[str] = next(iter(self.node2collection.values()))
        self.collection = collection
        self.pending[:] = range(len(collection))
        # two runs each, dealt round the workers: each worker starts at once on one of the
        # first (the longest) tests and knows the next
        for _ in range(2):
            for node in self.nodes:
                self._send_run(node)
        if not self.pending:
            for node in self.nodes:
                node.shutdown()

    def check_schedule(self, node: WorkerController, duration: float = 0) -> None:
        if node.shutting_down:
            return
        if not self.pending:
            node.shutdown()
            return
        while len(self.node2pending[node]) < 2 and self.pending:
            self._send_run(node)

    def _send_run(self, node: WorkerController) -> None:
        assert self.collection is not None
        cap = max(1, len(self.pending) // (4 * len(self.nodes)))
        self._send_tests(node, next_run(self.collection, self.pending, cap, self.single))
