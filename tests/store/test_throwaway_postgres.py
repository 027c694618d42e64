"""The suite's own PostgreSQL cluster, for a machine where no server answers (docs/testing.md,
"PostgreSQL"): it starts on a free port, lets `postgres` in without a password, holds the
store's schema, and is gone once stopped."""
from __future__ import annotations

import asyncio

import pytest

from tests.conftest import open_store
from tests.utils.throwaway_postgres import answers, postgres_binaries, start_cluster

pytestmark = [pytest.mark.medium,  # it starts a PostgreSQL server (docs/testing.md, "Tiers")
              pytest.mark.skipif(postgres_binaries() is None,
                                 reason="initdb is not installed: apt-get install postgresql")]


def test_a_throwaway_cluster_serves_the_store_and_goes_away() -> None:
    cluster = start_cluster()
    try:
        assert answers(cluster.url)

        async def round_trip() -> list[object]:
            store = await open_store(cluster.url)
            try:
                return list(await store.games.list_games())
            finally:
                await store.close()

        assert asyncio.run(round_trip()) == []
    finally:
        cluster.stop()
    assert not answers(cluster.url)
    assert not cluster.folder.exists()
