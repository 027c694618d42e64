"""The engine's values copy, deep-copy and pickle to equal values, in the compiled build as in
the pure-Python sources (tests/rules/diplomacy/test_compiled.py runs this file from the sources
too): a bot keeping a copy of a position, or a worker process handed one, gets the same game.
Maps are read-only and known by identity: a copy of a map is the map itself."""
from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from shared.rules.diplomacy import (
    Phase,
    Position,
    PowerUnit,
    adjudicate,
    load_map,
    parse_order,
    resolve_movement,
    resolve_retreats,
)
from shared.rules.diplomacy.adjustments import resolve_adjustments
from shared.rules.diplomacy.orders import Devastate, Unit, UnitType
from shared.rules.diplomacy.phase import PhaseType
from tests.utils.random_play import random_play

GAME_MAP = load_map()

COPIES: dict[str, Callable[[Any], Any]] = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda value: pickle.loads(pickle.dumps(value)),
}

ORDER_TEXTS = [
    ("A PAR H", PhaseType.MOVEMENT), ("A PAR - BUR", PhaseType.MOVEMENT), ("A LON - NWY VIA", PhaseType.MOVEMENT),
    ("A MAR S A PAR", PhaseType.MOVEMENT), ("A MAR S A PAR - BUR", PhaseType.MOVEMENT),
    ("F NTH C A LON - NWY", PhaseType.MOVEMENT), ("F STP/SC - BOT", PhaseType.MOVEMENT),
    ("A BUD R GAL", PhaseType.RETREATS), ("A BUD D", PhaseType.RETREATS),
    ("F STP/NC B", PhaseType.ADJUSTMENTS), ("A PAR D", PhaseType.ADJUSTMENTS), ("WAIVE", PhaseType.ADJUSTMENTS),
]


def a_game() -> list[tuple[Position, Any, Any]]:
    """Twenty phases of a seeded random game: positions with retreats and adjustments among them."""
    return list(random_play(4, phases=20))


def values() -> list[tuple[str, object]]:
    """One or more of each of the engine's values, as a game makes them."""
    made: list[tuple[str, object]] = []
    for text, phase_type in ORDER_TEXTS:
        order = parse_order(text, game_map=GAME_MAP, phase_type=phase_type)
        made.append((type(order).__name__, order))
    unit = Unit(UnitType.ARMY, "PAR")
    made += [("Unit", unit), ("Devastate", Devastate(unit)), ("PowerUnit", PowerUnit("FRANCE", unit)),
             ("Phase", Phase.parse("F1901R"))]
    game = a_game()
    for position, orders, resolution in game:
        made += [("Position", position), ("Resolution", resolution), *(("OrderResult", r) for r in resolution.results)]
        made += [("DislodgedUnit", d) for d in resolution.dislodged]
        if position.phase.type is PhaseType.MOVEMENT:
            made.append(("MovementOutcome", resolve_movement(position, orders, GAME_MAP)))
        elif position.phase.type is PhaseType.RETREATS:
            made.append(("RetreatOutcome", resolve_retreats(position.units, position.dislodged, orders)))
        else:
            made.append(("AdjustmentOutcome", resolve_adjustments(position, orders, GAME_MAP)))
    return made


VALUES = values()


def test_the_values_cover_every_kind_the_engine_hands_out() -> None:
    kinds = {name for name, _ in VALUES}
    assert kinds >= {"Hold", "Move", "SupportHold", "SupportMove", "Convoy", "Retreat", "Disband", "Build", "Remove",
                     "Waive", "Devastate", "Unit", "PowerUnit", "DislodgedUnit", "Phase", "Position", "OrderResult",
                     "Resolution", "MovementOutcome", "RetreatOutcome", "AdjustmentOutcome"}


def hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:  # a frozen outcome holding a dict
        return False
    return True


@pytest.mark.parametrize("how", sorted(COPIES))
def test_each_value_copies_to_an_equal_value_of_its_type(how: str) -> None:
    for name, value in VALUES:
        copied = COPIES[how](value)
        assert type(copied) is type(value), name
        assert copied == value, f"{how} of {name}: {copied!r} != {value!r}"
        if "__str__" in vars(type(value)):  # orders, units, phases: the notation they print
            assert str(copied) == str(value), name
        if hashable(value):
            assert hash(copied) == hash(value), name


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_copied_position_plays_on_to_the_same_outcome(how: str) -> None:
    for position, orders, resolution in a_game():
        again = adjudicate(COPIES[how](position), COPIES[how](orders))
        assert again == resolution, f"{how} of the position at {position.phase}"


def test_a_copy_of_a_map_is_the_map_itself() -> None:
    assert copy.copy(GAME_MAP) is GAME_MAP
    assert copy.deepcopy(GAME_MAP) is GAME_MAP
    position = a_game()[0][0]
    assert copy.deepcopy({"map": GAME_MAP, "position": position})["map"] is GAME_MAP
