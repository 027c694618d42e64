"""The LISTEN connection that wakes readers: when it cannot be had, readers fall back to the
backstop at once and nobody tries again for a while (no reader queues behind a slow connect)."""
from __future__ import annotations

import logging

import pytest

from shared.store.notify import CommitListener


async def test_a_failed_listen_is_logged_once_and_not_retried_at_once(caplog: pytest.LogCaptureFixture) -> None:
    listener = CommitListener("postgresql://nobody@127.0.0.1:1/none")  # nothing listens on port 1
    with caplog.at_level(logging.WARNING, logger="entente.store"):
        assert await listener.ensure_listening() is False
        assert await listener.ensure_listening() is False
    warnings = [r for r in caplog.records if "cannot LISTEN" in r.getMessage()]
    assert len(warnings) == 1
    await listener.close()
