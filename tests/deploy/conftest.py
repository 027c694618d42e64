"""A fresh PostgreSQL database per test, for the tests that run the deployment's processes."""
from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from tests.conftest import (
    _create_database,
    _drop_database,
    _server_url,
    run_coroutine_in_thread,
    unreachable_reason,
    with_database,
)


@pytest.fixture
def fresh_database_url() -> Iterator[str]:
    """An empty database (no schema: the processes make it, as on a fresh deployment), made on
    the test server the way tests/conftest.py makes the session's, and dropped at the end."""
    server_url = _server_url()
    name = f"entente_deploy_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    try:
        run_coroutine_in_thread(lambda: _create_database(server_url, name))
    except Exception as error:
        reason = unreachable_reason(server_url, error)
        if os.environ.get("ENTENTE_REQUIRE_POSTGRES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        yield with_database(server_url, name)
    finally:
        run_coroutine_in_thread(lambda: _drop_database(server_url, name))


def drop_database(url: str) -> None:
    """Drop the database at ``url`` now, closing its connections (as if it went away)."""
    from urllib.parse import urlsplit

    run_coroutine_in_thread(lambda: _drop_database(_server_url(), urlsplit(url).path.lstrip("/")))


def create_database(url: str) -> None:
    """Make the (empty) database at ``url`` again, as if it came back."""
    from urllib.parse import urlsplit

    run_coroutine_in_thread(lambda: _create_database(_server_url(), urlsplit(url).path.lstrip("/")))
