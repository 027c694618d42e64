"""What the orders panels read (docs/web.md, "Orders"): a convoyed army has an order however it
was typed, and the board's legend counts one order as "1 order"."""
from __future__ import annotations

from tests.utils.http import POWERS as SEVEN
from tests.utils.http import hosting


async def test_a_convoyed_army_typed_with_via_is_not_lacking_an_order(store_url: str) -> None:
    async with hosting(store_url) as host:
        game = await host.started(7)
        for power in SEVEN:
            await game.order_ok(power, ["A ROM - APU", "F NAP - ION"] if power == "ITALY" else [])
        assert (await game.summary())["phase"] == "F1901M"
        await game.order_ok("ITALY", ["A APU - TUN VIA", "F ION C A APU - TUN"])
        italy = game.player("ITALY").auth
        options = (await host.client.get(f"{game.url}/possible-orders", headers=italy)).json()
        assert options["submitted"] == ["A APU - TUN VIA", "F ION C A APU - TUN"]
        assert options["lacking"] == ["VEN"]


async def test_the_boards_legend_says_one_order(store_url: str) -> None:
    async with hosting(store_url) as host:
        game = await host.started(7)
        await game.order_ok("FRANCE", ["A PAR - BUR"])
        drawn = await host.client.get(f"{game.url}/map.svg", headers=game.player("FRANCE").auth)
        assert drawn.status_code == 200
        assert ">1 order</text>" in drawn.text and "1 orders" not in drawn.text
