"""``ByDocument``, the per-document answers of the board variants (shared/rules/variants/board.py):
remembered by the document's identity, the oldest forgotten past its bound, and safe to ask
from the event loop and the view threads at once (a soak's 500 came from two threads
forgetting the same oldest document)."""
from __future__ import annotations

import sys
import threading
from typing import Any

from shared.rules.variants.board import ByDocument


def test_a_document_is_worked_out_once_while_remembered_and_the_oldest_is_forgotten() -> None:
    remembered: ByDocument[dict[str, int], int] = ByDocument(kept=2)
    calls: list[int] = []

    def work_out(document: Any) -> int:
        calls.append(document["n"])
        return document["n"] * 10

    first, second, third = {"n": 1}, {"n": 2}, {"n": 3}
    assert [remembered.get(d, work_out) for d in (first, second, first)] == [10, 20, 10]
    assert calls == [1, 2]
    assert remembered.get(third, work_out) == 30  # the oldest, the first, forgotten
    assert remembered.get(first, work_out) == 10 and calls == [1, 2, 3, 1]


def test_threads_asking_at_once_past_the_bound_all_get_their_answers() -> None:
    remembered: ByDocument[dict[str, int], int] = ByDocument(kept=1)
    documents = [{"n": n} for n in range(64)]
    failures: list[BaseException] = []
    start = threading.Barrier(8)

    def ask(offset: int) -> None:
        start.wait()
        try:
            for round_ in range(3000):
                document = documents[(offset + round_) % len(documents)]
                assert remembered.get(document, lambda d: d["n"] + 1) == document["n"] + 1
        except BaseException as error:  # noqa: BLE001 - any failure in a thread is the test's
            failures.append(error)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=ask, args=(n * 7,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
