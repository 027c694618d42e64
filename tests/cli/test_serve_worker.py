"""`entente serve` runs a clock worker in-process: a due phase resolves with nobody asking."""
from __future__ import annotations

import httpx
from pydantic import SecretStr

from services.app import create_app
from services.cli.serve import with_clock_worker
from shared.clock import ManualClock
from shared.settings import Settings
from tests.utils.http import OPERATOR_TOKEN, bearer
from tests.utils.wait import until


async def test_the_in_process_worker_resolves_due_phases(sqlite_url: str) -> None:
    app = create_app(Settings(database_url=sqlite_url, operator_token=SecretStr(OPERATOR_TOKEN), environment="test"))
    clock = ManualClock()
    app.state.clock = clock
    with_clock_worker(app, poll_seconds=0.01)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://entente.test") as client:
            created = (await client.post("/games", json={"name": "x", "settings": {"movement_minutes": 1}})).json()
            game = f"/games/{created['id']}"
            tokens = [(await client.post(f"{game}/players")).json()["token"] for _ in range(7)]
            await client.post(f"{game}/start", headers=bearer(created["host_token"]))
            ordered = await client.put(f"{game}/orders", json={"orders": []}, headers=bearer(tokens[0]))
            assert ordered.status_code == 200
            clock.advance(minutes=1)
            async def moved_on() -> bool:  # the worker sweeps every 10 ms of real time
                return (await client.get(game)).json()["phase"] != "S1901M"

            await until(moved_on, what="the worker to resolve S1901M")
            assert (await client.get(game)).json()["phase"] == "F1901M"
