"""The phase sequence through adjudicate: S M -> S R -> F M -> F R -> W A -> S M, with skips."""
from __future__ import annotations

import random

from shared.rules.diplomacy import ParseError, adjudicate, initial_position, load_map, parse_order
from shared.rules.diplomacy.orders import Unit, Waive
from shared.rules.diplomacy.phase import Phase
from shared.rules.diplomacy.position import Position, PowerUnit

MAP = load_map("standard")


def unit_of(text: str) -> Unit:
    """The unit an order names (``F SEV H``: the fleet in Sevastopol)."""
    order = parse_order(text, game_map=MAP)
    assert not isinstance(order, (ParseError, Waive)), order
    return order.unit


def read(position: Position, written: dict[str, list[str]]) -> dict:
    return {
        power: [parse_order(t, game_map=MAP, phase_type=position.phase.type, power=power) for t in texts]
        for power, texts in written.items()
    }


def test_a_first_year_with_a_bounce_a_capture_and_builds() -> None:
    start = initial_position()
    spring = adjudicate(start, read(start, {
        "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
        "GERMANY": ["A MUN - BUR", "F KIE - DEN", "A BER - KIE"],
    }))
    assert str(spring.next_phase) == "F1901M"  # nobody dislodged: no spring retreats
    assert spring.position.centres == start.centres  # centres change only after the fall
    assert spring.must_act == {"AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"}

    fall_position = spring.position
    fall = adjudicate(fall_position, read(fall_position, {"FRANCE": ["F MAO - POR"], "GERMANY": ["A KIE - HOL"]}))
    assert str(fall.next_phase) == "W1901A"  # no dislodged unit: the fall retreats are skipped
    assert {c: o for c, o in fall.position.centres.items() if c in ("SPA", "POR", "DEN", "HOL")} == {
        "SPA": "FRANCE", "POR": "FRANCE", "DEN": "GERMANY", "HOL": "GERMANY"}
    assert fall.must_act == {"FRANCE", "GERMANY"}

    winter_position = fall.position
    builds = {"FRANCE": ["A MAR B", "F BRE B"], "GERMANY": ["A BER B"]}
    winter = adjudicate(winter_position, read(winter_position, builds))
    assert [r.result for r in winter.results] == ["succeeds", "succeeds", "succeeds"]
    assert str(winter.next_phase) == "S1902M"
    assert len(winter.position.units) == 25


def test_a_dislodgement_leads_to_a_retreat_phase_for_the_dislodged_power_only() -> None:
    position = Position(Phase.parse("F1901M"), {
        "SEV": PowerUnit("RUSSIA", unit_of("F SEV H")),
        "BLA": PowerUnit("TURKEY", unit_of("F BLA H")),
        "ARM": PowerUnit("TURKEY", unit_of("A ARM H")),
    }, {"SEV": "RUSSIA"})
    resolution = adjudicate(position, read(position, {"TURKEY": ["F BLA - SEV", "A ARM S F BLA - SEV"]}))
    assert str(resolution.next_phase) == "F1901R"
    assert resolution.must_act == {"RUSSIA"}
    assert [(d.power, str(d.unit), d.attacker_from, d.retreats) for d in resolution.dislodged] == [
        ("RUSSIA", "F SEV", "BLA", ("RUM",))]
    assert resolution.position.dislodged == resolution.dislodged
    assert resolution.position.centres == {"SEV": "RUSSIA"}  # not yet: after the retreats

    after = adjudicate(resolution.position, read(resolution.position, {"RUSSIA": ["F SEV R RUM"]}))
    assert after.position.centres == {"SEV": "TURKEY", "RUM": "RUSSIA"}
    assert str(after.next_phase) == "W1901A"  # Turkey has two units and one centre: a removal
    assert after.must_act == {"TURKEY"}


def test_the_outcome_does_not_depend_on_the_order_of_the_input() -> None:
    start = initial_position()
    written = {
        "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - ENG"],
        "GERMANY": ["A MUN - BUR", "F KIE - HOL", "A BER - KIE"],
        "ENGLAND": ["F LON - ENG", "F EDI - NTH", "A LVP - YOR"],
        "RUSSIA": ["A WAR - GAL", "F SEV - BLA", "A MOS - UKR", "F STP/SC - BOT"],
        "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
        "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY - CON"],
    }
    baseline = adjudicate(start, read(start, written))
    rng = random.Random(7)
    for _ in range(5):
        powers = list(written)
        rng.shuffle(powers)
        shuffled = {p: rng.sample(written[p], len(written[p])) for p in powers}
        again = adjudicate(start, read(start, shuffled))
        assert again.position == baseline.position
        assert again.next_phase == baseline.next_phase
        assert ({(r.power, r.order, r.result) for r in again.results}
                == {(r.power, r.order, r.result) for r in baseline.results})
        assert ([(r.power, r.order) for r in again.results]
                == [(p, o) for p, os in read(start, shuffled).items() for o in os])


def test_a_retreat_phase_in_which_nobody_can_retreat_is_skipped() -> None:
    # DATC 6.H.15: the English fleet in Portugal is dislodged from Spain and has nowhere to go.
    position = Position(Phase.parse("F1901M"), {
        "POR": PowerUnit("ENGLAND", unit_of("F POR H")),
        "SPA": PowerUnit("FRANCE", unit_of("F SPA/SC H")),
        "MAO": PowerUnit("FRANCE", unit_of("F MAO H")),
    }, {"POR": "ENGLAND"})
    resolution = adjudicate(position, read(position, {"FRANCE": ["F SPA/SC - POR", "F MAO S F SPA/SC - POR"]}))
    # docs/rules/standard.md: a phase in which nobody has anything to do is skipped; the fleet is disbanded
    assert [(d.power, str(d.unit), d.retreats) for d in resolution.dislodged] == [("ENGLAND", "F POR", ())]
    assert resolution.position.dislodged == ()
    assert "POR" in resolution.position.units and resolution.position.units["POR"].power == "FRANCE"
    assert resolution.position.centres == {"POR": "FRANCE"}
    assert str(resolution.next_phase) == "W1901A"  # France: two units, one centre, a removal
    assert resolution.must_act == {"FRANCE"}


def test_in_a_retreat_phase_only_powers_with_somewhere_to_go_must_act() -> None:
    position = Position(Phase.parse("S1901M"), {
        "POR": PowerUnit("ENGLAND", unit_of("F POR H")),
        "SPA": PowerUnit("FRANCE", unit_of("F SPA/SC H")),
        "MAO": PowerUnit("FRANCE", unit_of("F MAO H")),
        "SEV": PowerUnit("RUSSIA", unit_of("F SEV H")),
        "BLA": PowerUnit("TURKEY", unit_of("F BLA H")),
        "ARM": PowerUnit("TURKEY", unit_of("A ARM H")),
    }, {})
    resolution = adjudicate(position, read(position, {
        "FRANCE": ["F SPA/SC - POR", "F MAO S F SPA/SC - POR"], "TURKEY": ["F BLA - SEV", "A ARM S F BLA - SEV"]}))
    assert str(resolution.next_phase) == "S1901R"
    assert {d.power for d in resolution.position.dislodged} == {"ENGLAND", "RUSSIA"}
    assert resolution.must_act == {"RUSSIA"}
