"""A set with a refused line never finishes a power's orders (docs/api.md, "A refused line"):
the accepted orders are stored, the power stays ordering, and the phase does not resolve
until the line is fixed (a set with nothing refused) or the power says it is done."""
from __future__ import annotations

from tests.utils.http import POWERS as SEVEN
from tests.utils.http import hosting


async def test_a_put_with_a_refused_line_stores_the_rest_and_leaves_the_power_ordering(store_url: str) -> None:
    async with hosting(store_url) as host:
        game = await host.started(7)
        answer = await game.order("FRANCE", ["A PAR - BUR", "A MAR - SAP", "F BRE - MAO"])
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert (body["accepted"], body["rejected"], body["done"], body["resolved"]) == (2, 1, False, False)
        assert [o["status"] for o in body["orders"]] == ["accepted", "rejected", "accepted"]
        view = await game.view("FRANCE")
        assert view["orders"]["FRANCE"] == ["A PAR - BUR", "F BRE - MAO"]  # stored as far as it goes
        summary = await game.summary()
        assert "FRANCE" not in summary["submitted"]
        assert "FRANCE" in summary["ordering"] and "FRANCE" in summary["waiting_for"]
        # the line fixed: a set with nothing refused is done
        fixed = (await game.order("FRANCE", ["A PAR - BUR", "A MAR H", "F BRE - MAO"])).json()
        assert fixed["done"] is True
        assert "FRANCE" in (await game.summary())["submitted"]


async def test_the_last_power_sending_a_refused_line_does_not_resolve_the_phase(store_url: str) -> None:
    async with hosting(store_url) as host:
        game = await host.started(7)
        for power in SEVEN:
            if power != "RUSSIA":
                await game.order_ok(power, [])
        # an over-budget or misspelt line: the phase waits for Russia, it does not resolve
        answer = (await game.order("RUSSIA", ["A MOS - UKR", "A WAR - SEV - MOS"])).json()
        assert (answer["rejected"], answer["done"], answer["resolved"]) == (1, False, False)
        summary = await game.summary()
        assert summary["phase"] == "S1901M" and summary["waiting_for"] == ["RUSSIA"]
        assert await game.resolutions() == []
        # the player's explicit Done after seeing the refusal finishes it
        ready = (await game.ready("RUSSIA")).json()
        assert ready["resolved"] is True
        resolved = (await game.resolutions())[-1]
        assert [o["order"] for o in resolved["orders"]["RUSSIA"]][:1] == ["A MOS - UKR"]


async def test_a_build_refused_in_an_occupied_centre_leaves_the_power_ordering(store_url: str) -> None:
    async with hosting(store_url) as host:
        game = await host.started(7)
        for _ in range(2):  # spring and fall: Russia takes Sweden and Rumania and keeps its army in Warsaw
            phase = (await game.summary())["phase"]
            for power in SEVEN:
                orders = {"S1901M": ["A MOS - UKR", "F SEV - BLA", "A WAR H", "F STP/SC - BOT"],
                          "F1901M": ["F BOT - SWE", "A UKR - RUM", "F BLA S A UKR - RUM", "A WAR H"]}
                await game.order_ok(power, orders[phase] if power == "RUSSIA" else [])
        summary = await game.summary()
        assert summary["phase"] == "W1901A" and summary["must_act"] == ["RUSSIA"], summary
        answer = (await game.order("RUSSIA", ["A MOS B", "A WAR B"])).json()  # Warsaw is occupied
        assert [o["status"] for o in answer["orders"]] == ["accepted", "rejected"], answer
        assert answer["done"] is False and answer["resolved"] is False
        summary = await game.summary()
        assert summary["phase"] == "W1901A" and summary["ordering"] == ["RUSSIA"]
