"""Properties of the parser: it never raises, and the canonical notation reads back to the same order."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)
from shared.rules.diplomacy.parser import ParseError, parse_order
from shared.rules.diplomacy.parser.lexicon import UNIT_WORDS, VERB_WORDS
from shared.rules.diplomacy.phase import PhaseType

GAME_MAP = load_map()
LAND = sorted(p for p in GAME_MAP.provinces if GAME_MAP.is_land(p))
FLEET_LOCATIONS = sorted(loc for p in GAME_MAP.provinces for loc in GAME_MAP.fleet_locations(p))
PROVINCES = sorted(GAME_MAP.provinces)
PHASES = st.sampled_from([None, PhaseType.MOVEMENT, PhaseType.RETREATS, PhaseType.ADJUSTMENTS])

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

armies = st.builds(lambda p: Unit(UnitType.ARMY, p), st.sampled_from(LAND))
fleets = st.builds(lambda loc: Unit(UnitType.FLEET, loc), st.sampled_from(FLEET_LOCATIONS))
units = st.one_of(armies, fleets)


@st.composite
def unit_moves(draw) -> tuple[Unit, str]:
    unit = draw(units)
    if unit.type is UnitType.ARMY:
        return unit, draw(st.sampled_from(LAND))
    return unit, draw(st.sampled_from(FLEET_LOCATIONS))


movement_orders = st.one_of(
    st.builds(Hold, units),
    st.builds(lambda um, via: Move(um[0], um[1], via), unit_moves(), st.booleans()),
    st.builds(SupportHold, units, units),
    st.builds(lambda u, um: SupportMove(u, um[0], um[1]), units, unit_moves()),
    st.builds(Convoy, fleets, units, st.sampled_from(PROVINCES)),
)
retreat_orders = st.one_of(st.builds(lambda um: Retreat(*um), unit_moves()), st.builds(Disband, units))
adjustment_orders = st.one_of(st.builds(Build, units), st.builds(Remove, units), st.just(Waive()))


def phase_of(order: Order) -> PhaseType:
    if isinstance(order, (Retreat, Disband)):
        return PhaseType.RETREATS
    if isinstance(order, (Build, Remove, Waive)):
        return PhaseType.ADJUSTMENTS
    return PhaseType.MOVEMENT


@FAST
@given(st.one_of(movement_orders, retreat_orders, adjustment_orders))
def test_canonical_text_round_trips(order):
    assert parse_order(str(order), game_map=GAME_MAP, phase_type=phase_of(order)) == order


@FAST
@given(movement_orders)
def test_canonical_text_round_trips_in_lower_case_with_odd_spacing(order):
    text = "  " + str(order).lower().replace(" ", "   ") + " "
    assert parse_order(text, game_map=GAME_MAP, phase_type=PhaseType.MOVEMENT) == order


@FAST
@given(st.text(max_size=200), PHASES, st.sampled_from([None, "ENGLAND", "FRANCE"]))
def test_arbitrary_text_never_raises(text, phase_type, power):
    result = parse_order(text, game_map=GAME_MAP, phase_type=phase_type, power=power)
    assert isinstance(result, (ParseError, Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build,
                               Remove, Waive))
    if isinstance(result, ParseError):
        assert 0 <= result.offset <= len(text)
        assert result.message and "could not be read" not in result.message


# Word salad from the parser's own vocabulary reaches far deeper into the grammar than random
# text: a unit, a place and a verb, then a few more words of any kind.
PLACES = PROVINCES + ["StP(nc)", "spa sc", "St. Petersborg (nordkysten)", "Den Engelske Kanal", "Mid-Atlantic",
                      "BUL/EC", "Munchen", "(STP SCS)"]
EXTRAS = sorted(set(VERB_WORDS) | set(UNIT_WORDS)) + PLACES + [
    "via", "(via convoy)", ".", "(", ")", ":", "/", "ENGLAND:", "AMY", "FLT", "MTO", "SUP", "CTO", "WVE", "12"]


@st.composite
def word_salad(draw) -> str:
    words = [
        draw(st.sampled_from(sorted(UNIT_WORDS) + [""])),
        draw(st.sampled_from(PLACES)),
        draw(st.sampled_from(sorted(VERB_WORDS))),
        *draw(st.lists(st.sampled_from(EXTRAS), max_size=4)),
    ]
    return " ".join(w for w in words if w)


@FAST
@given(word_salad(), PHASES)
def test_word_salad_never_raises_and_what_it_reads_reads_back(text, phase_type):
    result = parse_order(text, game_map=GAME_MAP, phase_type=phase_type)
    if isinstance(result, ParseError):
        assert 0 <= result.offset <= len(text)
        assert "could not be read" not in result.message  # no internal failure behind the error
        return
    if isinstance(result, Remove) and phase_type is not PhaseType.ADJUSTMENTS:
        return  # outside adjustments the canonical "D" reads as a disband (documented)
    assert parse_order(str(result), game_map=GAME_MAP, phase_type=phase_type) == result
