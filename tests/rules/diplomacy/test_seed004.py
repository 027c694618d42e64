"""Seed 004's worked example: fall 1907, all seven powers, orders in the seed's Danish wording.

The orders are read by the parser exactly as the seed writes them (bullets, mixed English and
Danish, the remark "(<– en konvoj)"), completed by normalise_order, and adjudicated by the
engine. Each order's outcome is the one the seed explains.
"""
from __future__ import annotations

import pytest

from shared.rules.diplomacy import adjudicate
from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.normalise import normalise_order
from shared.rules.diplomacy.orders import Unit, UnitType
from shared.rules.diplomacy.parser import ParseError, parse_order
from shared.rules.diplomacy.phase import Phase
from shared.rules.diplomacy.position import Position, PowerUnit

GAME_MAP = load_map()

UNITS = {
    "GERMANY": "A RUH, F KIE, A MUN, A PRU, A SIL",
    "ENGLAND": "A LON, F NTH, F HEL, A DEN, A PIC, F MAO, F ENG",
    "FRANCE": "F GAS, F IRI, F BRE, A PAR, A BUR",
    "RUSSIA": "F SEV, A MOS, F STP/NC, A FIN, A LVN",
    "AUSTRIA": "A UKR, F TRI, A BUD, A VIE",
    "TURKEY": "A GAL, F BLA, A ARM, A RUM",
    "ITALY": "A APU, F ADR, A VEN, F ALB",
}

# (power, the seed's line, the order it means, its outcome)
ORDERS = [
    # Ruhr's attack on Holland: Munich's support is void (Munich does not border Holland),
    # Kiel's is cut by the English army from Denmark; Ruhr bounces.
    ("GERMANY", "- Army Ruhr to Holland", "A RUH - HOL", "fails"),
    ("GERMANY", "- Fleet Kiel støtter Army Ruhr to Holland", "F KIE S A RUH - HOL", "fails"),
    ("GERMANY", "- Army Munich støtter Army Ruhr to Holland", "A MUN S A RUH - HOL", "void"),
    # Prussia's support is cut by Livonia; Silesia's stands, so Prussia holds.
    ("GERMANY", "- Hæren Preussen støtter Hæren Schlesien", "A PRU S A SIL", "fails"),
    ("GERMANY", "- Hæren Schlesien støtter Hæren Preussen", "A SIL S A PRU", "succeeds"),
    # London is convoyed into Holland with Heligoland's support.
    ("ENGLAND", "- Hær London til Holland", "A LON - HOL", "succeeds"),
    ("ENGLAND", "- Flåde Nordsøen konvojerer Hær London til Holland (<– en konvoj)", "F NTH C A LON - HOL", "succeeds"),
    ("ENGLAND", "- Flåde Helgoland Bugt støtter Hær London til Holland", "F HEL S A LON - HOL", "succeeds"),
    ("ENGLAND", "- Hær Danmark til Kiel", "A DEN - KIE", "fails"),
    # Both supports of Picardy are cut by the French fleets; Brest holds with Paris's support.
    ("ENGLAND", "- Hær Picardie til Brest", "A PIC - BRE", "fails"),
    ("ENGLAND", "- Flåde Mid-Atlantic Ocean støtter Hær Picardie til Brest", "F MAO S A PIC - BRE", "fails"),
    ("ENGLAND", "- Flåde English Channel støtter Hær Picardie til Brest", "F ENG S A PIC - BRE", "fails"),
    ("FRANCE", "- Flåde Gascogne til Mid-Atlanterhavet", "F GAS - MAO", "fails"),
    ("FRANCE", "- Flåde Irsk Hav til Den Engelske Kanal", "F IRI - ENG", "fails"),
    ("FRANCE", "- Flåden Brest holder", "F BRE H", "succeeds"),
    ("FRANCE", "- Hæren Paris støtter flåden Brest", "A PAR S F BRE", "succeeds"),
    ("FRANCE", "- Hær Burgund til Ruhr", "A BUR - RUH", "fails"),
    # Sevastopol: Turkey's three beat Russia's two (Ukraine's support is cut by Galicia).
    ("RUSSIA", "Flåden Sevastopol holder", "F SEV H", "fails"),
    ("RUSSIA", "Army Moscow støtter flåden Sevastopol", "A MOS S F SEV", "succeeds"),
    ("RUSSIA", "Fleet St. Petersborg (nordkysten) til Norge", "F STP/NC - NWY", "succeeds"),
    ("RUSSIA", "Army Finland støtter flåden St. Petersborg (nordkysten) til Norge", "A FIN S F STP/NC - NWY",
     "succeeds"),
    ("RUSSIA", "Army Livonia til Preussen", "A LVN - PRU", "fails"),
    ("AUSTRIA", "Army Ukraine støtter flåden Sevastopol", "A UKR S F SEV", "fails"),
    ("AUSTRIA", "Flåden Trieste holder", "F TRI H", "succeeds"),
    ("AUSTRIA", "Army Budapest støtter flåden Trieste", "A BUD S F TRI", "succeeds"),
    ("AUSTRIA", "Army Wien støtter flåden Trieste", "A VIE S F TRI", "succeeds"),
    ("TURKEY", "Army Galicia til Ukraine", "A GAL - UKR", "fails"),
    ("TURKEY", "Flåde Sortehavet til Sevastopol", "F BLA - SEV", "succeeds"),
    ("TURKEY", "Army Armenien støtter flåde Sortehavet til Sevastopol", "A ARM S F BLA - SEV", "succeeds"),
    ("TURKEY", "Army Rumænien støtter flåde Sortehavet til Sevastopol", "A RUM S F BLA - SEV", "succeeds"),
    # Apulia, convoyed with two supports, bounces off Trieste held with two supports.
    ("ITALY", "Hæren Apulien til Trieste", "A APU - TRI", "fails"),
    ("ITALY", "Flåden Adriaterhavet konvojerer hæren Apulien til Trieste", "F ADR C A APU - TRI", "succeeds"),
    ("ITALY", "Army Venezia støtter hæren Apulien til Trieste", "A VEN S A APU - TRI", "succeeds"),
    ("ITALY", "Flåden Albanien støtter hæren Apulien til Trieste", "F ALB S A APU - TRI", "succeeds"),
]


def fall_1907() -> Position:
    units = {}
    for power, listed in UNITS.items():
        for text in listed.split(", "):
            kind, location = text.split()
            unit = Unit(UnitType(kind), location)
            units[unit.province] = PowerUnit(power, unit)
    return Position(Phase.parse("F1907M"), units, {})


@pytest.fixture(scope="module")
def resolution():
    position = fall_1907()
    orders: dict[str, list] = {}
    for power, line, _, _ in ORDERS:
        order = parse_order(line, game_map=GAME_MAP, phase_type=position.phase.type, power=power)
        assert not isinstance(order, ParseError), f"{line!r}: {order.message}"
        orders.setdefault(power, []).append(normalise_order(order, position, GAME_MAP))
    return adjudicate(position, orders)


def test_every_unit_has_an_order():
    assert len(ORDERS) == sum(len(u.split(", ")) for u in UNITS.values()) == 34


@pytest.mark.parametrize("index", range(len(ORDERS)), ids=[line.lstrip("- ") for _, line, _, _ in ORDERS])
def test_each_order_has_the_outcome_the_seed_describes(resolution, index):
    power, _, expected_order, expected_result = ORDERS[index]
    result = resolution.results[index]
    assert (result.power, str(result.order), result.result) == (power, expected_order, expected_result)


def test_the_board_after_the_moves(resolution):
    after = {province: (pu.power, str(pu.unit)) for province, pu in resolution.position.units.items()}
    assert after["HOL"] == ("ENGLAND", "A HOL")
    assert after["NWY"] == ("RUSSIA", "F NWY")
    assert after["SEV"] == ("TURKEY", "F SEV")
    assert after["TRI"] == ("AUSTRIA", "F TRI")
    assert after["BRE"] == ("FRANCE", "F BRE")
    assert after["PRU"] == ("GERMANY", "A PRU") and after["RUH"] == ("GERMANY", "A RUH")
    assert "LON" not in after and "BLA" not in after and "STP" not in after
    assert len(after) == 33  # 34 units, the Russian fleet of Sevastopol dislodged


def test_the_fleet_of_sevastopol_has_nowhere_to_go_and_is_disbanded(resolution):
    # Armenia and Rumania are occupied, the Black Sea is where the attack came from.
    [dislodged] = resolution.dislodged
    assert (dislodged.power, str(dislodged.unit), dislodged.retreats) == ("RUSSIA", "F SEV", ())
    # Nobody has a retreat to order, so the retreat phase is skipped and the fleet disbands.
    assert str(resolution.next_phase) == "W1907A"
    assert resolution.position.dislodged == ()
    russian = {str(pu.unit) for pu in resolution.position.units.values() if pu.power == "RUSSIA"}
    assert russian == {"A MOS", "F NWY", "A FIN", "A LVN"}
