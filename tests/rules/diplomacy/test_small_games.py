"""Fewer than seven players (docs/rules/standard.md) and victory: setup, sitting out, teams, thresholds."""
from __future__ import annotations

import pytest

from shared.rules.diplomacy import adjudicate, initial_position, load_map, parse_order
from shared.rules.diplomacy.adjudicate import victory
from shared.rules.diplomacy.orders import Retreat, Unit, UnitType
from shared.rules.diplomacy.phase import Phase
from shared.rules.diplomacy.position import DislodgedUnit, Position, PowerUnit
from shared.rules.diplomacy.small_games import POWERS, draw_italy_side, small_game

MAP = load_map("standard")


def orders(power: str, phase: Phase, *texts: str) -> dict:
    return {power: [parse_order(t, game_map=MAP, phase_type=phase.type, power=power) for t in texts]}


@pytest.mark.parametrize(
    ("players", "seats", "sitting_out"),
    [
        (7, [{p} for p in POWERS], set()),
        (6, [{p} for p in POWERS if p != "ITALY"], {"ITALY"}),
        (5, [{p} for p in POWERS if p not in ("ITALY", "GERMANY")], {"ITALY", "GERMANY"}),
        (4, [{"ENGLAND"}, {"AUSTRIA", "FRANCE"}, {"GERMANY", "TURKEY"}, {"ITALY", "RUSSIA"}], set()),
        (3, [{"ENGLAND", "GERMANY", "AUSTRIA"}, {"RUSSIA", "ITALY"}, {"FRANCE", "TURKEY"}], set()),
        (2, [{"ENGLAND", "FRANCE", "RUSSIA"}, {"AUSTRIA", "GERMANY", "TURKEY"}], {"ITALY"}),
    ],
)
def test_who_plays_what(players: int, seats: list[set[str]], sitting_out: set[str]) -> None:
    game = small_game(players)
    assert [set(s) for s in game.seats] == seats
    assert set(game.sitting_out) == sitting_out
    played = [p for s in game.seats for p in s] + list(game.sitting_out)
    assert sorted(played) == sorted(POWERS)  # every power once


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_games_of_three_or_more_start_in_1901_and_need_18(players: int) -> None:
    game = small_game(players)
    assert (str(game.first_phase), game.victory_centres, game.joins) == ("S1901M", 18, ())
    assert game.sitting_out_at(Phase.parse("F1910M")) == frozenset(game.sitting_out)


def test_two_players_start_in_1914_italy_joins_the_drawn_side_in_1915() -> None:
    game = small_game(2, italy_joins_seat=1)
    assert (str(game.first_phase), game.victory_centres) == ("S1914M", 24)
    for phase in ("S1914M", "F1914R", "W1914A"):
        assert game.sitting_out_at(Phase.parse(phase)) == {"ITALY"}
        assert game.seats_at(Phase.parse(phase))[1] == ("AUSTRIA", "GERMANY", "TURKEY")
    assert game.sitting_out_at(Phase.parse("S1915M")) == frozenset()
    assert game.seats_at(Phase.parse("S1915M")) == (("ENGLAND", "FRANCE", "RUSSIA"),
                                                    ("AUSTRIA", "GERMANY", "ITALY", "TURKEY"))
    assert game.teams_at(Phase.parse("F1916M"))[1] == {"AUSTRIA", "GERMANY", "ITALY", "TURKEY"}


def test_the_side_italy_joins_is_drawn_from_the_seed_reproducibly() -> None:
    draws = [draw_italy_side(seed) for seed in range(40)]
    assert draws == [draw_italy_side(seed) for seed in range(40)]
    assert set(draws) == {0, 1}


@pytest.mark.parametrize("players", [0, 1, 8, "two"])
def test_player_counts_outside_two_to_seven_are_refused(players: object) -> None:
    with pytest.raises(ValueError, match="2 to 7"):
        small_game(players)  # type: ignore[arg-type]  # on purpose


def test_a_two_player_game_starts_from_the_usual_position_in_1914() -> None:
    position = initial_position("standard", year=1914)
    assert str(position.phase) == "S1914M"
    assert len(position.units) == 22 and len(position.centres) == 22


# --- a power that sits out is in civil disorder ------------------------------------------------


def test_a_power_sitting_out_holds_whatever_is_written_for_it_and_may_be_supported() -> None:
    start = initial_position()
    phase = start.phase
    given = {
        **orders("ITALY", phase, "A VEN - TYR", "A ROM - APU"),
        **orders("AUSTRIA", phase, "F TRI - VEN", "A VIE - TYR"),
    }
    resolution = adjudicate(start, given, civil_disorder=small_game(6).sitting_out_at(phase))
    assert [r.result for r in resolution.results[:2]] == ["void", "void"]
    assert resolution.position.units["VEN"].power == "ITALY"  # held: Trieste bounced
    assert resolution.position.units["ROM"].power == "ITALY"
    assert resolution.position.units["TYR"].power == "AUSTRIA"


def test_a_dislodged_unit_of_a_power_sitting_out_is_disbanded() -> None:
    sev = Unit(UnitType.FLEET, "SEV")
    position = Position(
        Phase.parse("S1902R"),
        {"SEV": PowerUnit("TURKEY", Unit(UnitType.FLEET, "SEV"))},
        {},
        (DislodgedUnit("ITALY", sev, "BLA", ("RUM",)),),
    )
    resolution = adjudicate(position, {"ITALY": [Retreat(sev, "RUM")]}, civil_disorder=frozenset({"ITALY"}))
    assert resolution.results[0].result == "void"
    assert "RUM" not in resolution.position.units


# --- victory -------------------------------------------------------------------------------------


def centres(**counts: int) -> dict[str, str]:
    provinces = sorted(MAP.supply_centres)
    owned: dict[str, str] = {}
    for power, n in counts.items():
        for _ in range(n):
            owned[provinces[len(owned)]] = power
    return owned


def test_eighteen_centres_win_alone() -> None:
    assert victory(centres(FRANCE=18, GERMANY=16), 18) == {"FRANCE"}
    assert victory(centres(FRANCE=17, GERMANY=17), 18) == frozenset()


def test_a_team_wins_together_with_24_centres() -> None:
    teams = small_game(2).teams_at(Phase.parse("F1915M"))
    assert victory(centres(ENGLAND=10, FRANCE=8, RUSSIA=6, GERMANY=10), 24, teams) == {"ENGLAND", "FRANCE", "RUSSIA",
                                                                                       "ITALY"}
    assert victory(centres(ENGLAND=10, FRANCE=8, RUSSIA=5, GERMANY=11), 24, teams) == frozenset()
    # 18 for one power of a team is no win in the two-player game
    assert victory(centres(ENGLAND=18), 24, teams) == frozenset()


def test_victory_is_decided_after_a_fall_turn_by_adjudicate() -> None:
    # France holds 17 centres and takes an 18th, Belgium, in the fall.
    owned = {c: "FRANCE" for c in sorted(MAP.supply_centres - {"BEL"})[:17]}
    units = {"PIC": PowerUnit("FRANCE", Unit(UnitType.ARMY, "PIC"))}
    fall = Position(Phase.parse("F1910M"), units, owned)
    spring = Position(Phase.parse("S1910M"), units, owned)
    move = orders("FRANCE", fall.phase, "A PIC - BEL")
    assert adjudicate(spring, move).winners == frozenset()  # spring moves take no centre
    resolution = adjudicate(fall, move)
    assert resolution.winners == {"FRANCE"}
    assert resolution.position.centres["BEL"] == "FRANCE"
    assert adjudicate(fall, move, victory_centres=19).winners == frozenset()
