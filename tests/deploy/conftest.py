"""A fresh PostgreSQL database per test, for the tests that run the deployment's processes."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import _create_database, _drop_database, _server_url, fresh_database, run_coroutine_in_thread


@pytest.fixture
def fresh_database_url() -> Iterator[str]:
    """An empty database (no schema: the processes make it, as on a fresh deployment), made on
    the test server the way tests/conftest.py makes the session's, and dropped at the end."""
    with fresh_database("entente_deploy") as url:
        yield url


def drop_database(url: str) -> None:
    """Drop the database at ``url`` now, closing its connections (as if it went away)."""
    from urllib.parse import urlsplit

    run_coroutine_in_thread(lambda: _drop_database(_server_url(), urlsplit(url).path.lstrip("/")))


def create_database(url: str) -> None:
    """Make the (empty) database at ``url`` again, as if it came back."""
    from urllib.parse import urlsplit

    run_coroutine_in_thread(lambda: _create_database(_server_url(), urlsplit(url).path.lstrip("/")))
