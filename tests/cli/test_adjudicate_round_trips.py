"""Every variant's ``entente adjudicate`` output is the next document (docs/api.md, "The entente
adjudicate document"): each output below is fed back to the installed command as it came out,
with only its ``phase`` set to its ``next_phase`` and new ``orders`` (no ``variant`` added), for a
whole game year; and the rules' forced removals are listed in every variant's output as the
hosted history lists them (docs/rules/standard.md, sections 4 and 8)."""
from __future__ import annotations

import json
from typing import Any

import httpx

from shared.rules.variants import RulesSettings, get_variant
from tests.games.test_dirigible_game import FALL, OPENING, SPRING, create_dirigible_table, play
from tests.utils.adjudicate_command import adjudicated
from tests.utils.ekonia_players import PLAYERS, orders_for
from tests.utils.http import Host, start_at

NOT_ORDERED = "removal not ordered: removed by the rules, farthest from home"


def fed_back(output: dict[str, Any], orders: dict[str, list[str]]) -> dict[str, Any]:
    """The documented rule, and nothing more: the output, ``phase`` := ``next_phase``, new orders."""
    return {**output, "phase": output["next_phase"], "orders": orders}


# --- the standard game: a year with a retreat and a removal France did not order -------------------------

SPRING_1901 = {
    "variant": "standard", "phase": "S1901M", "edition": "2023", "victory_centres": 12,
    "units": {"FRANCE": ["A BEL", "A PAR", "F BRE"], "GERMANY": ["A MUN", "F HOL", "A KIE"]},
    "centers": {"FRANCE": ["BEL", "PAR", "BRE"], "GERMANY": ["MUN", "HOL", "KIE", "BER"]},
    "orders": {"GERMANY": ["A MUN - RUH", "A KIE H", "F HOL H"], "FRANCE": ["A PAR H", "F BRE - MAO", "A BEL H"]},
}


def test_a_standard_year_fed_back_output_by_output_with_its_forced_removal_listed() -> None:
    spring = adjudicated(SPRING_1901)
    assert spring["next_phase"] == "F1901M"  # nobody dislodged: no spring retreats
    fall = adjudicated(fed_back(spring, {"GERMANY": ["A RUH - BEL", "F HOL S A RUH - BEL", "A KIE H"],
                                         "FRANCE": ["A BEL H", "A PAR H", "F MAO H"]}))
    assert fall["dislodged"] == {"FRANCE": [{"unit": "A BEL", "attacker_from": "RUH", "retreats": ["BUR", "PIC"]}]}
    retreat = adjudicated(fed_back(fall, {"FRANCE": ["A BEL R PIC"]}))
    assert retreat["orders"] == {
        "FRANCE": [{"order": "A BEL R PIC", "result": "succeeds", "reason": "retreated to PIC"}]}
    assert retreat["next_phase"] == "W1901A" and "BEL" in retreat["centers"]["GERMANY"]
    # France has two centres and three units, and orders no removal: the rules remove one, and say so
    winter = adjudicated(fed_back(retreat, {"GERMANY": ["A MUN B"], "FRANCE": []}))
    assert winter["orders"] == {
        "GERMANY": [{"order": "A MUN B", "result": "succeeds", "reason": "built"}],
        "FRANCE": [{"order": "F MAO D", "result": "succeeds", "reason": NOT_ORDERED}],
    }
    assert sorted(winter["units"]["FRANCE"]) == ["A PAR", "A PIC"]
    assert winter["next_phase"] == "S1902M"
    for output in (spring, fall, retreat, winter):  # the whole game's rules travel with every output
        assert output["edition"] == "2023" and output["victory_centres"] == 12
    nineteen_two = adjudicated(fed_back(winter, {"FRANCE": ["A PIC - BEL"]}))
    assert nineteen_two["phase"] == "S1902M" and nineteen_two["orders"]["FRANCE"][0]["result"] == "fails"


def test_a_power_in_civil_disorder_gets_its_removals_listed_without_having_ordered() -> None:
    winter = {"variant": "standard", "phase": "W1901A",
              "units": {"FRANCE": ["A PAR", "A PIC", "F MAO"]}, "centers": {"FRANCE": ["PAR", "BRE"]},
              "orders": {"FRANCE": ["A PAR D"]}, "civil_disorder": ["FRANCE"]}
    out = adjudicated(winter)
    assert out["orders"]["FRANCE"] == [
        {"order": "A PAR D", "result": "void", "reason": "civil disorder: orders ignored"},
        {"order": "F MAO D", "result": "succeeds", "reason": "civil disorder: removed, farthest from home"},
    ]
    assert "civil_disorder" not in out  # a fact of that one phase: the next document has none


async def test_the_hosted_history_and_the_cli_list_a_forced_removal_alike(host: Host) -> None:
    # docs/rules/standard.md, section 4: over HTTP, then the same phase through entente adjudicate
    position = {"variant": "standard", "phase": "W1901A",
                "units": {"FRANCE": ["A PAR", "A PIC", "F MAO"], "GERMANY": ["A BEL", "F HOL", "A KIE"]},
                "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN", "HOL", "KIE", "BER", "BEL"]}}
    game = await start_at(host, position, ["FRANCE", "GERMANY"])
    await game.order_ok("GERMANY", ["A MUN B"])
    assert (await game.order_ok("FRANCE", []))["resolved"] is True
    hosted = (await game.resolutions())[-1]["orders"]
    cli = adjudicated({**position, "orders": {"GERMANY": ["A MUN B"], "FRANCE": []}})["orders"]
    assert hosted["FRANCE"] == cli["FRANCE"] == [{"order": "F MAO D", "result": "succeeds", "reason": NOT_ORDERED}]
    assert hosted["GERMANY"] == cli["GERMANY"]


# --- the Dirigible game: from the opening builds to the next spring ---------------------------------------

def test_a_dirigible_year_fed_back_output_by_output() -> None:
    opening = get_variant("dirigible").opening({}, 0).state
    builds = adjudicated({**opening, "edition": "2023", "orders": {
        "ENGLAND": ["F LON B", "F EDI B", "A LVP B", "D LON B"],
        "FRANCE": ["A PAR B", "A MAR B", "F BRE B"], "GERMANY": ["A BER B", "A MUN B", "F KIE B"]}})
    assert builds["variant"] == "dirigible" and builds["next_phase"] == "S1901M"
    spring = adjudicated(fed_back(builds, {"ENGLAND": ["D LON - NTH"], "FRANCE": ["A PAR - BUR"],
                                           "GERMANY": ["A MUN - RUH"]}))
    assert "D NTH" in spring["units"]["ENGLAND"]
    fall = adjudicated(fed_back(spring, {"ENGLAND": ["D NTH - BEL"], "FRANCE": ["A BUR - MUN"]}))
    assert fall["next_phase"] == "F1901R"  # the dirigible over empty Belgium may devastate it
    late_fall = adjudicated(fed_back(fall, {"ENGLAND": ["D BEL devastate"]}))
    assert late_fall["devastated"] == ["BEL"] and "MUN" in late_fall["centers"]["FRANCE"]
    # Germany: BER and KIE, 10 points for 12 of upkeep, and no removal ordered: the rules remove A RUH
    winter = adjudicated(fed_back(late_fall, {"GERMANY": [], "FRANCE": ["A PAR B"]}))
    assert winter["orders"]["GERMANY"] == [{"order": "A RUH D", "result": "succeeds", "reason": NOT_ORDERED}]
    assert winter["orders"]["FRANCE"] == [{"order": "A PAR B", "result": "succeeds", "reason": "built"}]
    assert winter["points"]["GERMANY"] == 10 and winter["devastated"] == []
    assert winter["next_phase"] == "S1902M"
    for output in (builds, spring, fall, late_fall, winter):
        assert output["variant"] == "dirigible" and output["edition"] == "2023"
    again = adjudicated(fed_back(winter, {"ENGLAND": ["D BEL - HOL"]}))
    assert again["phase"] == "S1902M" and "D HOL" in again["units"]["ENGLAND"]


async def test_a_hosted_dirigible_year_and_the_cli_outputs_fed_back_agree_phase_by_phase(
        sqlite_client: httpx.AsyncClient) -> None:
    # tests/games/test_dirigible_game.py's year over HTTP; beside it, the hosted game's opening
    # position as a document, then each output fed back with the same orders
    table = await create_dirigible_table(sqlite_client)
    document: dict[str, Any] = {**(await table.view())["position"], "variant": "dirigible"}
    year = [("W1900A", OPENING), ("S1901M", SPRING), ("F1901M", FALL), ("F1901R", {"ENGLAND": ["D BRE devastate"]}),
            ("W1901A", {"FRANCE": ["A MAR D"], "GERMANY": ["A KIE B"]})]
    for phase, orders in year:
        hosted = await play(table, phase, orders)
        out = adjudicated({**document, "orders": orders})
        assert out["phase"] == phase and out["next_phase"] == hosted["next_phase"]
        assert {p: items for p, items in hosted["orders"].items() if items} == out["orders"], phase
        units = (await table.view())["position"]["units"]
        assert {p: sorted(u) for p, u in out["units"].items()} == {p: sorted(u) for p, u in units.items()}, phase
        document = fed_back(out, {})
    assert out["orders"]["FRANCE"][-1] == {"order": "F MAO D", "result": "succeeds", "reason": NOT_ORDERED}


# --- Tale of Ekonia: turns fed back play the game the hosted engine plays ----------------------------------

def test_ekonia_turns_fed_back_play_the_same_game_as_the_engine_with_that_seed() -> None:
    variant = get_variant("ekonia")
    seed, settings = 11, RulesSettings(player_count=6, max_turns=4)
    state = variant.opening(settings, seed).state
    document: dict[str, Any] = {"variant": "ekonia", "seed": seed, "settings": settings, "state": state}
    kinds = set()
    for turn in range(1, 5):
        orders = {power: orders_for(turn, power, variant.view(state, power)) for power in PLAYERS}
        out = adjudicated({**document, "orders": orders})
        hosted = variant.resolve(state, orders, settings=settings, seed=seed)  # what a hosted game does
        assert out["phase"] == hosted.phase == f"T{turn:02d}"
        assert out["state"] == json.loads(json.dumps(hosted.state))
        assert out["rolls"] == json.loads(json.dumps(hosted.details["rolls"]))
        assert out["seed"] == seed and out["settings"] == settings
        kinds |= {roll["kind"] for roll in out["rolls"]}
        state, document = hosted.state, fed_back(out, {})
    assert kinds  # a mission's roll (Vieren's Steal Map on turn 3) came from the seed carried along
    assert out["winners"]  # max_turns travelled with the outputs: the game ends after turn 4
