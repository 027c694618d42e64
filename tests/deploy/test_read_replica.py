"""ENTENTE_READ_DATABASE_URL, a read replica for the reads that may lag (docs/scale.md, "Read
replicas"): the games list, past phases' views and pictures read from it; the current game, its
orders and every write from the primary.

On PostgreSQL, two ways: the replica is the primary itself (a replica that has caught up: every
answer is what the primary alone gives), and the replica is another, empty database (a replica
that lags behind everything): the list, read from it, has not seen the game yet, while the
game's own summary (the primary's) has it, and a past phase's view and picture, which the
replica cannot give whole, come from the primary unchanged.
"""
from __future__ import annotations

import pytest
from pydantic import SecretStr

from services.app import create_app
from shared.settings import Settings
from tests.games.test_standard_game import play_1901
from tests.utils.http import OPERATOR_TOKEN, running_app

pytestmark = pytest.mark.postgres


def settings(primary: str, replica: str) -> Settings:
    return Settings(database_url=primary, read_database_url=replica, operator_token=SecretStr(OPERATOR_TOKEN),
                    environment="test", run_worker=False)


async def test_the_reads_that_may_lag_come_from_the_replica(postgres_url: str, fresh_database_url: str) -> None:
    async with running_app(settings(postgres_url, postgres_url), create_app) as (_, client):
        table = await play_1901(client)
        game_id = table.game_id
        caught_up = (await client.get("/games")).json()
        assert [game["id"] for game in caught_up["games"]] == [game_id]
        past = await client.get(f"/games/{game_id}/view", params={"phase": "F1901M"})
        assert past.status_code == 200 and past.json()["resolution"]["phase"] == "F1901M", past.text
        picture = await client.get(f"/games/{game_id}/map.svg", params={"phase": "S1901M"})
        assert picture.status_code == 200 and b"<svg" in picture.content[:1000], picture.text[:300]

    async with running_app(settings(postgres_url, fresh_database_url), create_app) as (_, client):
        lagging = (await client.get("/games")).json()
        assert lagging["games"] == []  # the replica has not seen the game yet
        summary = await client.get(f"/games/{game_id}")
        assert summary.status_code == 200 and summary.json()["phase"] == "S1902M"  # the primary's
        again = await client.get(f"/games/{game_id}/view", params={"phase": "F1901M"})
        assert again.status_code == 200 and again.json() == past.json()  # the primary's, whole
        drawn = await client.get(f"/games/{game_id}/map.svg", params={"phase": "S1901M"})
        assert drawn.status_code == 200 and drawn.content == picture.content
