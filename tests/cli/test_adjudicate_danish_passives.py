"""Danish builds and removals in the passive (docs/notation.md, "The passive"): ``Hær Paris bygges``
is ``A PAR B`` through ``entente adjudicate`` and in a hosted game; a passive that names another
order than the unit's own (``holdes``, ``støttes``) is refused with the word it stumbled on."""
from __future__ import annotations

from tests.utils.adjudicate_command import adjudicated
from tests.utils.http import Host, start_at

WINTER = {"variant": "standard", "phase": "W1901A",
          "units": {"FRANCE": ["A SPA", "F MAO"], "GERMANY": ["F KIE", "A BER", "A MUN"]},
          "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "GERMANY": ["BER", "MUN"]}}
ORDERS = {"FRANCE": ["Hær Paris bygges", "Flåde Brest bygges"], "GERMANY": ["Flåde Kiel fjernes"]}
EXPECTED = {"FRANCE": [("A PAR B", "succeeds"), ("F BRE B", "succeeds")], "GERMANY": [("F KIE D", "succeeds")]}


def test_passive_builds_and_removals_through_entente_adjudicate() -> None:
    out = adjudicated({**WINTER, "orders": ORDERS})
    assert {p: [(o["order"], o["result"]) for o in items] for p, items in out["orders"].items()} == EXPECTED
    assert sorted(out["units"]["FRANCE"]) == ["A PAR", "A SPA", "F BRE", "F MAO"]
    refused = adjudicated({**WINTER, "orders": {"FRANCE": ["Hær Paris holdes"]}})
    [item] = refused["orders"]["FRANCE"]
    assert item["order"] == "Hær Paris holdes" and item["result"] == "void" and "holdes" in item["reason"]


async def test_passive_builds_and_removals_in_a_hosted_game(host: Host) -> None:
    game = await start_at(host, WINTER, ["FRANCE", "GERMANY"])
    refused = await game.order("FRANCE", ["Flåde Brest støttes"])
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"]["code"] == "orders_rejected"
    assert refused.json()["error"]["details"][0]["word"] == "støttes"
    accepted = await game.order_ok("FRANCE", ORDERS["FRANCE"])
    assert [o["order"] for o in accepted["orders"]] == ["A PAR B", "F BRE B"]
    assert (await game.order_ok("GERMANY", ORDERS["GERMANY"]))["resolved"] is True
    winter = (await game.resolutions())[-1]
    assert {p: [(o["order"], o["result"]) for o in items] for p, items in winter["orders"].items()} == EXPECTED
