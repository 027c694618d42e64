"""Each recorder a store transaction hands out (shared/store/recorders.py, shared/store/outboxes.py;
docs/store.md, "Recorders") and its contract suite: the modules of tests/store that check it,
every one on both back ends (the ``store`` fixture), and every operation the recorder has
(its reads included) checked there. The store hands out the recorders' reads alone."""
from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from shared.store import (
    EventReader,
    EventRecorder,
    EventStore,
    GameIndexReader,
    GameIndexRecorder,
    OutboxReader,
    OutboxRecorder,
    ProjectionReader,
    ProjectionRecorder,
)

HERE = Path(__file__).parent
SUITES: dict[type, tuple[str, ...]] = {
    EventRecorder: ("test_event_recorder.py", "test_append_on_commit.py"),
    GameIndexRecorder: ("test_game_index_recorder.py",),
    ProjectionRecorder: ("test_projection_recorder.py",),
    OutboxRecorder: ("test_outbox_recorder.py",),
}
READERS = {"events": (EventReader, EventRecorder), "games": (GameIndexReader, GameIndexRecorder),
           "projections": (ProjectionReader, ProjectionRecorder), "outbox": (OutboxReader, OutboxRecorder)}


def operations(recorder: type) -> list[str]:
    """The public operations of a recorder, those of the store's classes it extends included."""
    return sorted({name for cls in recorder.__mro__ if cls.__module__.startswith("shared.store")
                   for name, value in vars(cls).items()
                   if not name.startswith("_") and inspect.isfunction(value)})


@pytest.mark.parametrize("recorder", list(SUITES), ids=lambda recorder: recorder.__name__)
def test_every_operation_of_a_recorder_is_checked_by_its_contract_suite(recorder: type) -> None:
    text = "".join((HERE / module).read_text() for module in SUITES[recorder])
    assert len(operations(recorder)) >= 3, recorder
    assert [name for name in operations(recorder) if f".{name}(" not in text] == []


@pytest.mark.parametrize("module", sorted({m for modules in SUITES.values() for m in modules}))
def test_every_suite_runs_on_both_back_ends(module: str) -> None:
    assert "(store: EventStore)" in (HERE / module).read_text()  # the fixture parametrized sqlite, postgresql


@pytest.mark.parametrize("name", list(READERS))
async def test_the_store_hands_out_the_reads_and_a_transaction_the_whole_recorder(store: EventStore,
                                                                                  name: str) -> None:
    reader, recorder = READERS[name]
    assert type(getattr(store, name)) is reader  # reads only: no write outside a transaction
    assert not set(operations(reader)) & {"append", "put_game", "lock_projection", "plan_notification"}
    async with store.transaction() as tx:
        assert isinstance(getattr(tx, name), recorder)
    async with store.reading() as tx:
        assert isinstance(getattr(tx, name), recorder)
