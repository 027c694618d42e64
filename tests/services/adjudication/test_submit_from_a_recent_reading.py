"""A PUT of orders decides from the game as its process last read it, without reading the store
again (docs/architecture.md, "Performance"): when another process has moved the game on, the
append's version check or a refusal sends it to a fresh read, so that the answer is always the
one the current game gives. Two apps on one store stand for two processes."""
from __future__ import annotations

from tests.utils.http import OPERATOR, Table, running_client, started_table


async def test_orders_for_the_phase_another_process_moved_to_are_judged_by_it(store_url: str) -> None:
    async with running_client(store_url) as first, running_client(store_url) as second:
        table = await started_table(first)
        elsewhere = Table(second, table.game_id, table.host_token, table.tokens, table.codenames)

        async def put(power: str, orders: list[str], phase: str | None) -> tuple[int, dict]:
            body: dict = {"orders": orders} | ({"phase": phase} if phase else {})
            response = await first.put(f"/games/{table.game_id}/orders", json=body, headers=table.player(power))
            return response.status_code, response.json()

        status, body = await put("FRANCE", ["A PAR - BUR"], "S1901M")
        assert status == 200 and body["accepted"] == 1
        await elsewhere.resolve("S1901M")  # the first app's reading is now a phase behind

        # an order that only the new position allows: judged by it, stored for F1901M
        status, body = await put("FRANCE", ["A BUR - MUN"], "F1901M")
        assert status == 200 and body["phase"] == "F1901M" and body["accepted"] == 1, body
        await elsewhere.resolve("F1901M")

        # the phase the caller names is over: refused, naming the phase the game is at now
        status, body = await put("FRANCE", ["A BUR H"], "F1901M")
        assert status == 409 and body["error"]["code"] == "wrong_phase", body
        assert "S1902M" in body["error"]["message"]

        # no phase named: the current one, read when the request came
        status, body = await put("ENGLAND", ["F LON - ENG"], None)
        assert status == 200 and body["phase"] == "S1902M" and body["accepted"] == 1, body

        # the other process sees what was stored, for the phase it was stored for
        view = await elsewhere.view("ENGLAND")
        assert view["orders"] == {"ENGLAND": ["F LON - ENG"]}


async def test_a_token_the_recent_reading_does_not_know_is_checked_on_a_fresh_read(store_url: str) -> None:
    async with running_client(store_url) as first, running_client(store_url) as second:
        table = await started_table(first)
        for token in ("not-a-token-of-this-game", table.host_token):
            response = await first.put(f"/games/{table.game_id}/orders", json={"orders": [], "phase": "S1901M"},
                                       headers={"Authorization": f"Bearer {token}"})
            assert response.status_code in (401, 403), response.text
        operator = await first.put(f"/games/{table.game_id}/orders", json={"orders": []}, headers=OPERATOR)
        assert operator.status_code == 403 and operator.json()["error"]["code"] == "wrong_role"
        missing = await second.put("/games/g_nosuchgame/orders", json={"orders": []}, headers=table.player("ITALY"))
        assert missing.status_code == 404


async def test_a_seat_taken_in_another_process_after_this_one_last_read_the_game_may_order(store_url: str) -> None:
    """The recent reading is from before the seat was taken: the token is unknown to it, and the
    refusal that reading would give is checked on a fresh read, which knows the seat."""
    async with running_client(store_url) as first, running_client(store_url) as second:
        created = (await first.post("/games", json={"name": "Late seat", "variant": "standard"})).json()
        game_id, host = created["id"], {"Authorization": f"Bearer {created['host_token']}"}
        for _ in range(6):
            assert (await first.post(f"/games/{game_id}/players")).status_code == 201
        assert (await first.get(f"/games/{game_id}")).status_code == 200  # the first app reads six seats
        late = (await second.post(f"/games/{game_id}/players")).json()
        started = await second.post(f"/games/{game_id}/start", headers=host)
        assert started.status_code == 200, started.text
        view = (await second.get(f"/games/{game_id}/view", headers={"Authorization": f"Bearer {late['token']}"})).json()
        power = view["viewer"]["power"]

        response = await first.put(f"/games/{game_id}/orders", json={"orders": [], "phase": "S1901M"},
                                   headers={"Authorization": f"Bearer {late['token']}"})
        assert response.status_code == 200, response.text
        assert response.json()["power"] == power
