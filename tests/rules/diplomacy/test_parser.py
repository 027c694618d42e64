"""The order parser: the short notation, English, Danish (docs/notation.md) and DAIDE, and its errors."""
from __future__ import annotations

import pytest

from shared.rules.diplomacy.geography import load_map
from shared.rules.diplomacy.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)
from shared.rules.diplomacy.parser import ParseError, parse_order, parse_orders
from shared.rules.diplomacy.phase import PhaseType

GAME_MAP = load_map()


def parse(text, **kwargs):
    return parse_order(text, game_map=GAME_MAP, **kwargs)


def canonical(text, **kwargs) -> str:
    result = parse(text, **kwargs)
    assert not isinstance(result, ParseError), f"{text!r}: {result.message}"
    return str(result)


SHORT = [
    ("A PAR - BUR", "A PAR - BUR"),
    ("A PAR H", "A PAR H"),
    ("A MUN S A BER - SIL", "A MUN S A BER - SIL"),
    ("A MUN S A BER", "A MUN S A BER"),
    ("A MUN S A BER H", "A MUN S A BER"),
    ("F NTH C A LON - NWY", "F NTH C A LON - NWY"),
    ("A LON - NWY VIA", "A LON - NWY VIA"),
    ("A LON - NWY via convoy", "A LON - NWY VIA"),
    ("A LON - NWY by convoy", "A LON - NWY VIA"),
    ("A LON - NWY (via convoy)", "A LON - NWY VIA"),
    ("F STP/SC - BOT", "F STP/SC - BOT"),
    ("A BUD R GAL", "A BUD R GAL"),
    ("A BUD D", "A BUD D"),
    ("F STP/NC B", "F STP/NC B"),
    ("A PAR B", "A PAR B"),
    ("WAIVE", "WAIVE"),
    ("  a   par  ->  bur  ", "A PAR - BUR"),
    ("A PAR to BUR", "A PAR - BUR"),
    ("A PAR moves to BUR", "A PAR - BUR"),
    ("A PAR move BUR", "A PAR - BUR"),
    ("A MUN supports A BER - SIL", "A MUN S A BER - SIL"),
    ("A MUN support A BER", "A MUN S A BER"),
    ("F NTH convoys A LON - NWY", "F NTH C A LON - NWY"),
    ("A PAR holds", "A PAR H"),
    ("A PAR hold", "A PAR H"),
    ("A BUD retreats to GAL", "A BUD R GAL"),
    ("A BUD retreat GAL", "A BUD R GAL"),
    ("A BUD disbands", "A BUD D"),
    ("A PAR builds", "A PAR B"),
    ("A PAR build", "A PAR B"),
    ("F LON removes", "F LON D"),
    ("Build A PAR", "A PAR B"),
    ("remove F LON", "F LON D"),
    ("F StP(nc) - BAR", "F STP/NC - BAR"),
    ("F stp/nc - bar", "F STP/NC - BAR"),
    ("F stp nc - bar", "F STP/NC - BAR"),
    ("F STP (north coast) - BAR", "F STP/NC - BAR"),
    ("F MAO - SPA(sc)", "F MAO - SPA/SC"),
    ("F CON - BUL/EC", "F CON - BUL/EC"),
    ("F NAt - Nwg", "F NAO - NWG"),
    ("F NAO - NWG", "F NAO - NWG"),
    ("F MID - MAO", "F MAO - MAO"),
    ("F TyS - ION", "F TYS - ION"),
    ("F TYN - ION", "F TYS - ION"),
    ("F Tyh - ION", "F TYS - ION"),
    ("F GoL - LYO", "F LYO - LYO"),
    ("F GoB - BOT", "F BOT - BOT"),
    ("F ECH - ENG", "F ENG - ENG"),
    ("A Nwy - Fin", "A NWY - FIN"),
    ("F NAf - MAO", "F NAF - MAO"),
    ("A War-Gal", "A WAR - GAL"),
    ("A Bud S A War-Gal", "A BUD S A WAR - GAL"),
    ("F Bla C A Sev-Ank", "F BLA C A SEV - ANK"),
    ("A Mos H", "A MOS H"),
    ("ENGLAND: F LON - NTH", "F LON - NTH"),
    ("ENG: F LON - NTH", "F LON - NTH"),
    ("England: F LON - NTH", "F LON - NTH"),
    ("A LON - NTH - NWY", "A LON - NWY VIA"),  # a convoy path written out
    ("A Rum S Turkish F Con-Bul(sc)", "A RUM S F CON - BUL/SC"),  # nationality ignored (DATC 4.C.6)
]


@pytest.mark.parametrize("text, expected", SHORT, ids=[t for t, _ in SHORT])
def test_short_notation(text, expected):
    assert canonical(text) == expected


def test_short_notation_gives_the_right_classes():
    assert parse("A PAR - BUR") == Move(Unit(UnitType.ARMY, "PAR"), "BUR")
    assert parse("A LON - NWY VIA") == Move(Unit(UnitType.ARMY, "LON"), "NWY", via_convoy=True)
    assert parse("A MUN S A BER - SIL") == SupportMove(
        Unit(UnitType.ARMY, "MUN"), Unit(UnitType.ARMY, "BER"), "SIL"
    )
    assert parse("A MUN S A BER") == SupportHold(Unit(UnitType.ARMY, "MUN"), Unit(UnitType.ARMY, "BER"))
    assert parse("F NTH C A LON - NWY") == Convoy(
        Unit(UnitType.FLEET, "NTH"), Unit(UnitType.ARMY, "LON"), "NWY"
    )
    assert parse("A PAR H") == Hold(Unit(UnitType.ARMY, "PAR"))
    assert parse("WAIVE") == Waive()
    assert parse("A PAR B") == Build(Unit(UnitType.ARMY, "PAR"))


# --- omitted and odd unit types (DATC 4.C.1, 4.C.3) --------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("PAR - BUR", "A PAR - BUR"),  # inland: an army
        ("NTH - NWG", "F NTH - NWG"),  # at sea: a fleet
        ("STP/SC - BOT", "F STP/SC - BOT"),  # a coast named: a fleet
        ("LON - NTH", "A LON - NTH"),  # coastal: guessed army; normalise_order takes the real unit
        ("A MUN S BER - SIL", "A MUN S A BER - SIL"),
        ("F NTH C LON - NWY", "F NTH C A LON - NWY"),  # only armies are convoyed
        ("ENG: F nth convoys yor -> yor", "F NTH C A YOR - YOR"),  # DATC 6.A.5 as datc.json writes it
        ("Build Paris", "A PAR B"),
        ("Build STP/NC", "F STP/NC B"),
    ],
)
def test_omitted_unit_type(text, expected):
    assert canonical(text) == expected


def test_build_in_a_coastal_province_needs_a_type():
    error = parse("Build STP")
    assert isinstance(error, ParseError)
    assert error.expected == ("A", "F")
    assert error.word == "STP" and error.offset == 6


def test_army_coasts_are_dropped():
    assert canonical("A NWY - STP/NC") == "A NWY - STP"
    assert canonical("ENG: A lvp -> stp(nc)") == "A LVP - STP"


def test_coast_a_province_lacks_is_ignored():
    # DATC 4.B.6: "Spain west coast", "Brest east coast" are garbage to ignore
    assert canonical("F GAS - SPA/WC") == "F GAS - SPA"
    assert canonical("F ENG - BRE(ec)") == "F ENG - BRE"


def test_support_keeps_a_fleets_coast_and_convoys_go_to_provinces():
    # DATC 3.0 6.B.9: a support to the wrong coast is void, so the written coast must survive
    assert canonical("F POR S F MAO - SPA(nc)") == "F POR S F MAO - SPA/NC"
    assert canonical("F POR S F MAO - SPA") == "F POR S F MAO - SPA"
    assert canonical("A GAS S A MAR - SPA/NC") == "A GAS S A MAR - SPA"  # armies: no coast
    assert canonical("F WES C A NAF - SPA(sc)") == "F WES C A NAF - SPA"
    assert canonical("F NTH S F STP(nc) - NWY") == "F NTH S F STP/NC - NWY"


# --- the phase decides D and - ------------------------------------------------------------------


def test_d_is_disband_in_retreats_and_remove_in_adjustments():
    unit = Unit(UnitType.ARMY, "BUD")
    assert parse("A BUD D", phase_type=PhaseType.RETREATS) == Disband(unit)
    assert parse("A BUD D", phase_type=PhaseType.ADJUSTMENTS) == Remove(unit)
    assert parse("A BUD D") == Disband(unit)
    assert parse("A BUD disband", phase_type=PhaseType.ADJUSTMENTS) == Remove(unit)
    assert parse("A BUD remove") == Remove(unit)
    assert parse("A BUD remove", phase_type=PhaseType.RETREATS) == Disband(unit)


def test_dash_is_a_retreat_in_retreat_phases():
    unit = Unit(UnitType.ARMY, "BUD")
    assert parse("A BUD - GAL", phase_type=PhaseType.RETREATS) == Retreat(unit, "GAL")
    assert parse("A BUD - GAL", phase_type=PhaseType.MOVEMENT) == Move(unit, "GAL")
    assert parse("A BUD R GAL", phase_type=PhaseType.MOVEMENT) == Retreat(unit, "GAL")


# --- the power prefix ---------------------------------------------------------------------------


def test_power_prefix_is_checked_against_the_submitting_power():
    assert canonical("ENGLAND: F LON - NTH", power="ENGLAND") == "F LON - NTH"
    error = parse("ENG: F LON - NTH", power="FRANCE")
    assert isinstance(error, ParseError)
    assert error.offset == 0 and error.word == "ENG"
    assert "ENGLAND" in error.message and "FRANCE" in error.message
    assert canonical("F LON - NTH", power="FRANCE") == "F LON - NTH"  # no prefix: nothing to check


def test_a_province_is_not_mistaken_for_a_power():
    # ENG is also the English Channel; without a colon it is the province
    assert canonical("F ENG - BRE") == "F ENG - BRE"


# --- English ------------------------------------------------------------------------------------

ENGLISH = [
    ("Army Rome to Venice", "A ROM - VEN"),
    ("Fleet Brest to English Channel", "F BRE - ENG"),
    ("Fleet Brest to the English Channel", "F BRE - ENG"),
    ("Army Munich supports Army Ruhr to Holland", "A MUN S A RUH - HOL"),
    ("Fleet North Sea convoys Army London to Holland", "F NTH C A LON - HOL"),
    ("Fleet the North Sea convoys the Army London to Holland", "F NTH C A LON - HOL"),
    ("Army Rome holds", "A ROM H"),
    ("Fleet St Petersburg (north coast) to Barents Sea", "F STP/NC - BAR"),
    ("Fleet St. Petersburg (south coast) to Gulf of Bothnia", "F STP/SC - BOT"),
    ("Fleet Mid-Atlantic Ocean to Spain (north coast)", "F MAO - SPA/NC"),
    ("Fleet Mid Atlantic Ocean to Spain north coast", "F MAO - SPA/NC"),
    ("Fleet Gulf of Lyon to Tyrrhenian Sea", "F LYO - TYS"),
    ("Army Liverpool to Edinburgh", "A LVP - EDI"),
    ("Army Marseilles supports Army Paris to Burgundy", "A MAR S A PAR - BUR"),
    ("Fleet Constantinople to Bulgaria (east coast)", "F CON - BUL/EC"),
    ("Army Budapest retreats to Galicia", "A BUD R GAL"),
    ("Army Budapest disbands", "A BUD D"),
    ("Build army Paris", "A PAR B"),
    ("Build fleet St Petersburg north coast", "F STP/NC B"),
]


@pytest.mark.parametrize("text, expected", ENGLISH, ids=[t for t, _ in ENGLISH])
def test_english(text, expected):
    assert canonical(text) == expected


# --- Danish, as docs/notation.md writes orders ----------------------------------------------------------

DANISH = [
    ("Hær Rom holder", "A ROM H"),
    ("Italien: Hær Rom holder.", "A ROM H"),
    ("Army Rom til Venedig", "A ROM - VEN"),
    ("Flåde Nordsøen konvojerer Army Yorkshire til Norge", "F NTH C A YOR - NWY"),
    ("Hæren Preussen støtter Hæren Schlesien", "A PRU S A SIL"),
    ("Flåden Trieste holder", "F TRI H"),
    ("Armé Rom til Venedig", "A ROM - VEN"),
    ("Fleet Kiel støtter Army Ruhr to Holland", "F KIE S A RUH - HOL"),
    ("Fleet Brest til Den Engelske Kanal", "F BRE - ENG"),
    ("Army München til Tyrolia", "A MUN - TYR"),
    ("Hær Danmark til Kiel", "A DEN - KIE"),
    ("Flåde Irsk Hav til Den Engelske Kanal", "F IRI - ENG"),
    ("Flåde Gascogne til Mid-Atlanterhavet", "F GAS - MAO"),
    ("Army Armenien støtter flåde Sortehavet til Sevastopol", "A ARM S F BLA - SEV"),
    ("Army Rumænien støtter flåde Sortehavet til Sevastopol", "A RUM S F BLA - SEV"),
    ("Flåden Adriaterhavet konvojerer hæren Apulien til Trieste", "F ADR C A APU - TRI"),
    ("Flåden Albanien støtter hæren Apulien til Trieste", "F ALB S A APU - TRI"),
    ("Fleet St. Petersborg (nordkysten) til Norge", "F STP/NC - NWY"),
    ("Hær Picardie til Burgund", "A PIC - BUR"),
    ("Flåde Østersøen til Den Botniske Bugt", "F BAL - BOT"),
    ("Østrig-Ungarn: Hær Wien holder", "A VIE H"),
]


@pytest.mark.parametrize("text, expected", DANISH, ids=[t for t, _ in DANISH])
def test_danish(text, expected):
    assert canonical(text) == expected


# Every order line of the Danish worked example (docs/notation.md: the fall 1907 example, the
# Yorkshire convoy and the short forms), copied as written, bullets and remarks included.
SEED_004_ORDER_LINES = [
    ("Army Rom til Venedig", "A ROM - VEN"),
    ("Fleet Brest til Den Engelske Kanal", "F BRE - ENG"),
    ("Flåden Trieste holder", "F TRI H"),
    ("Hæren Venedig til Trieste", "A VEN - TRI"),
    ("Army München til Tyrolia", "A MUN - TYR"),
    ("Army Venedig til Tyrolia", "A VEN - TYR"),
    ("- Army Ruhr to Holland", "A RUH - HOL"),
    ("- Fleet Kiel støtter Army Ruhr to Holland", "F KIE S A RUH - HOL"),
    ("- Army Munich støtter Army Ruhr to Holland", "A MUN S A RUH - HOL"),
    ("- Hæren Preussen støtter Hæren Schlesien", "A PRU S A SIL"),
    ("- Hæren Schlesien støtter Hæren Preussen", "A SIL S A PRU"),
    ("- Hær London til Holland", "A LON - HOL"),
    ("- Flåde Nordsøen konvojerer Hær London til Holland (<– en konvoj)", "F NTH C A LON - HOL"),
    ("- Flåde Helgoland Bugt støtter Hær London til Holland", "F HEL S A LON - HOL"),
    ("- Hær Danmark til Kiel", "A DEN - KIE"),
    ("- Hær Picardie til Brest", "A PIC - BRE"),
    ("- Flåde Mid-Atlantic Ocean støtter Hær Picardie til Brest", "F MAO S A PIC - BRE"),
    ("- Flåde English Channel støtter Hær Picardie til Brest", "F ENG S A PIC - BRE"),
    ("- Flåde Gascogne til Mid-Atlanterhavet", "F GAS - MAO"),
    ("- Flåde Irsk Hav til Den Engelske Kanal", "F IRI - ENG"),
    ("- Flåden Brest holder", "F BRE H"),
    ("- Hæren Paris støtter flåden Brest", "A PAR S F BRE"),
    ("- Hær Burgund til Ruhr", "A BUR - RUH"),
    ("Flåden Sevastopol holder", "F SEV H"),
    ("Army Moscow støtter flåden Sevastopol", "A MOS S F SEV"),
    ("Fleet St. Petersborg (nordkysten) til Norge", "F STP/NC - NWY"),
    ("Army Finland støtter flåden St. Petersborg (nordkysten) til Norge", "A FIN S F STP/NC - NWY"),
    ("Army Livonia til Preussen", "A LVN - PRU"),
    ("Army Ukraine støtter flåden Sevastopol", "A UKR S F SEV"),
    ("Army Budapest støtter flåden Trieste", "A BUD S F TRI"),
    ("Army Wien støtter flåden Trieste", "A VIE S F TRI"),
    ("Army Galicia til Ukraine", "A GAL - UKR"),
    ("Flåde Sortehavet til Sevastopol", "F BLA - SEV"),
    ("Army Armenien støtter flåde Sortehavet til Sevastopol", "A ARM S F BLA - SEV"),
    ("Army Rumænien støtter flåde Sortehavet til Sevastopol", "A RUM S F BLA - SEV"),
    ("Hæren Apulien til Trieste", "A APU - TRI"),
    ("Flåden Adriaterhavet konvojerer hæren Apulien til Trieste", "F ADR C A APU - TRI"),
    ("Army Venezia støtter hæren Apulien til Trieste", "A VEN S A APU - TRI"),
    ("Flåden Albanien støtter hæren Apulien til Trieste", "F ALB S A APU - TRI"),
    ("Army Yorkshire til Norge", "A YOR - NWY"),
    ("Flåde Nordsøen konvojerer Army Yorkshire til Norge", "F NTH C A YOR - NWY"),
    ("A Mos H", "A MOS H"),
    ("A War-Gal", "A WAR - GAL"),
    ("A Bud S A War-Gal", "A BUD S A WAR - GAL"),
    ("A Sev-Ank", "A SEV - ANK"),
    ("F Bla C A Sev-Ank", "F BLA C A SEV - ANK"),
]


@pytest.mark.parametrize("text, expected", SEED_004_ORDER_LINES, ids=[t for t, _ in SEED_004_ORDER_LINES])
def test_every_order_line_of_seed_004(text, expected):
    assert canonical(text) == expected


@pytest.mark.parametrize(
    "prose",
    [
        "Hæren Venedig og flåden Trieste bevæger sig ikke, medmindre de angribes.",
        "Flåden Sevastopol støttes af Army Moscow.",
        "Army Yorkshire",
    ],
)
def test_seed_prose_is_not_an_order(prose):
    assert isinstance(parse(prose), ParseError)


# --- DAIDE --------------------------------------------------------------------------------------

DAIDE = [
    ("(ENG AMY LVP) MTO YOR", "A LVP - YOR"),
    ("(ENG FLT NTH) CVY (ENG AMY LON) CTO NWY", "F NTH C A LON - NWY"),
    ("(ENG AMY LON) CTO NWY VIA (NTH)", "A LON - NWY VIA"),
    ("(ENG AMY LON) CTO NWY VIA (NTH NWG)", "A LON - NWY VIA"),
    ("(ENG AMY LON) CTO NWY", "A LON - NWY VIA"),
    ("(RUS FLT (STP SCS)) MTO GOB", "F STP/SC - BOT"),
    ("(FRA FLT MAO) MTO (SPA NCS)", "F MAO - SPA/NC"),
    ("(FRA AMY PAR) SUP (FRA AMY MAR) MTO BUR", "A PAR S A MAR - BUR"),
    ("(FRA AMY PAR) SUP (FRA AMY MAR)", "A PAR S A MAR"),
    ("(FRA AMY PAR) SUP (GER AMY MUN) MTO BUR", "A PAR S A MUN - BUR"),
    ("(FRA AMY PAR) HLD", "A PAR H"),
    ("(RUS FLT SEV) RTO ARM", "F SEV R ARM"),
    ("(RUS FLT SEV) DSB", "F SEV D"),
    ("(ENG FLT LON) BLD", "F LON B"),
    ("(ENG FLT LON) REM", "F LON D"),
    ("(ENG FLT ECH) MTO NTH", "F ENG - NTH"),
    ("(FRA FLT GOL) MTO WES", "F LYO - WES"),
    ("ENG WVE", "WAIVE"),
    ("(eng amy lvp) mto yor", "A LVP - YOR"),
]


@pytest.mark.parametrize("text, expected", DAIDE, ids=[t for t, _ in DAIDE])
def test_daide(text, expected):
    assert canonical(text) == expected


def test_daide_classes_follow_the_phase():
    fleet = Unit(UnitType.FLEET, "LON")
    assert parse("(ENG FLT LON) REM") == Remove(fleet)
    assert parse("(ENG FLT LON) REM", phase_type=PhaseType.RETREATS) == Disband(fleet)
    assert parse("(ENG FLT LON) DSB", phase_type=PhaseType.ADJUSTMENTS) == Remove(fleet)
    assert parse("(ENG FLT LON) MTO NTH", phase_type=PhaseType.RETREATS) == Retreat(fleet, "NTH")


def test_daide_power_is_checked():
    assert canonical("(ENG FLT LON) HLD", power="ENGLAND") == "F LON H"
    error = parse("(ENG FLT LON) HLD", power="FRANCE")
    assert isinstance(error, ParseError) and error.word == "ENG" and error.offset == 1
    # the supported unit's nationality is not the ordering power's business (DATC 4.C.5)
    assert canonical("(FRA AMY PAR) SUP (GER AMY MUN)", power="FRANCE") == "A PAR S A MUN"
    assert isinstance(parse("ENG WVE", power="FRANCE"), ParseError)


def test_daide_errors():
    error = parse("(ENG AMY LVP) XYZ YOR")
    assert isinstance(error, ParseError)
    assert error.word == "XYZ" and error.offset == 14 and "MTO" in error.expected
    error = parse("(ENG AMY LVP) MTO")
    assert isinstance(error, ParseError) and error.word == "" and error.offset == len("(ENG AMY LVP) MTO")
    error = parse("(ENG CAR LVP) HLD")
    assert isinstance(error, ParseError) and error.expected == ("AMY", "FLT")


# --- errors -------------------------------------------------------------------------------------


def test_unknown_verb_has_its_word_offset_and_expectations():
    error = parse("A PAR xyz BUR")
    assert isinstance(error, ParseError)
    assert (error.word, error.offset) == ("xyz", 6)
    assert "-" in error.expected and "S" in error.expected
    assert "xyz" in error.message


def test_misspelt_province_has_suggestions():
    error = parse("A Munchen - BUR")
    assert isinstance(error, ParseError)
    assert (error.word, error.offset) == ("Munchen", 2)
    assert error.suggestions[0] == "MUN"
    assert "MUN" in error.message
    error = parse("Fleet Nordsoen holder")
    assert isinstance(error, ParseError) and error.suggestions[0] == "NTH"
    error = parse("A PAR - Burgandy")
    assert isinstance(error, ParseError) and error.suggestions == ("BUR",) and error.offset == 8


def test_unknown_province_without_anything_close():
    error = parse("A PAR - Qqqqqq")
    assert isinstance(error, ParseError)
    assert error.suggestions == () and error.expected == ("province",)


@pytest.mark.parametrize("text", ["", "   ", "\n", "the"])
def test_empty_text(text):
    error = parse(text)
    assert isinstance(error, ParseError)
    assert error.word == "" and "empty" in error.message


def test_text_ending_too_early():
    error = parse("A PAR -")
    assert isinstance(error, ParseError)
    assert error.word == "" and error.offset == 7 and error.expected == ("province",)
    error = parse("A PAR")
    assert isinstance(error, ParseError) and error.offset == 5 and "H" in error.expected


def test_trailing_words_are_refused():
    error = parse("A PAR - BUR now")
    assert isinstance(error, ParseError)
    assert (error.word, error.offset) == ("now", 12)


@pytest.mark.parametrize("value", [None, 42, 3.5, b"A PAR H", ["A PAR H"], object()])
def test_non_text_is_an_error_not_an_exception(value):
    assert isinstance(parse(value), ParseError)


def test_huge_text_is_refused_quickly():
    assert isinstance(parse("A PAR - BUR " * 10_000), ParseError)


def test_parse_error_is_frozen():
    error = parse("A PAR xyz")
    with pytest.raises(AttributeError):
        error.word = "other"


def test_parse_orders_keeps_one_result_per_item():
    results = parse_orders(["A PAR - BUR", "", "F BRE H"], game_map=GAME_MAP)
    assert [type(r).__name__ for r in results] == ["Move", "ParseError", "Hold"]


def test_parse_orders_splits_text_and_skips_blank_lines():
    results = parse_orders("A PAR - BUR\n\n  \nF BRE H\n", game_map=GAME_MAP, power="FRANCE")
    assert [str(r) for r in results] == ["A PAR - BUR", "F BRE H"]


def test_game_map_defaults_to_standard():
    assert str(parse_order("A PAR - BUR")) == "A PAR - BUR"


def test_no_two_provinces_share_a_name():
    from shared.rules.diplomacy.parser.lexicon import lexicon_for

    lexicon = lexicon_for(GAME_MAP)
    assert len(set(lexicon.provinces.values())) == 76


@pytest.mark.parametrize("text, phase_type, expected", [
    ("Hær Paris bygges", PhaseType.ADJUSTMENTS, "A PAR B"),
    ("Flåde Brest bygges", PhaseType.ADJUSTMENTS, "F BRE B"),
    ("Flåden St. Petersborg (nordkysten) bygges", PhaseType.ADJUSTMENTS, "F STP/NC B"),
    ("Flåde London fjernes", PhaseType.ADJUSTMENTS, "F LON D"),
    ("Hæren München opløses", PhaseType.ADJUSTMENTS, "A MUN D"),
    ("Hæren München opløses", PhaseType.RETREATS, "A MUN D"),
    ("Hær Paris flyttes til Burgund", PhaseType.MOVEMENT, "A PAR - BUR"),
])
def test_danish_passives_of_the_units_own_order(text, phase_type, expected):
    # docs/notation.md, "The passive": read where it says what the active verb says of the unit
    assert canonical(text, phase_type=phase_type) == expected


@pytest.mark.parametrize("text, word", [
    ("Flåde Nordsøen støttes af Hær London", "støttes"),
    ("Hær London konvojeres til Norge", "konvojeres"),
    ("Hær Paris angribes", "angribes"),
    ("Hær Paris holdes", "holdes"),
])
def test_danish_passives_that_name_another_order_are_not_read(text, word):
    error = parse(text)
    assert isinstance(error, ParseError)
    assert error.word == word


# --- docs/notation.md: Danish retreats, every dash, full-width forms, one order a text, 200 characters


@pytest.mark.parametrize("text", [
    "Flåde Trieste trækker sig tilbage til Albanien",
    "Flåden Trieste trækkes tilbage til Albanien",
    "Flaade Trieste traekker sig tilbage til Albanien",
    "Flåde Trieste til Albanien",
])
def test_danish_retreats_as_seed_004_writes_them(text):
    assert canonical(text, phase_type=PhaseType.RETREATS) == "F TRI R ALB"


@pytest.mark.parametrize("sign", ["-", "\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2015", "\u2212",
                                  "\ufe58", "\ufe63", "\uff0d", "->", "=>", "→", "⇒", "⟶"])
def test_the_minus_sign_and_every_dash_are_the_move_sign(sign):
    assert canonical(f"A PAR {sign} BUR") == "A PAR - BUR"
    assert canonical(f"A MUN S A BER {sign} SIL") == "A MUN S A BER - SIL"


def test_full_width_forms_read_as_their_plain_forms_and_errors_point_at_the_text_as_written():
    assert canonical("Ａ ＰＡＲ － ＢＵＲ") == "A PAR - BUR"
    assert canonical("ＦＲＡＮＣＥ： Ｆ ＢＲＥ － ＭＡＯ", power="FRANCE") == "F BRE - MAO"
    assert canonical("Ｆ ＳＴＰ／ＳＣ － ＢＯＴ") == "F STP/SC - BOT"
    assert canonical("Hær Mu\u0308nchen til Tyrolia") == "A MUN - TYR"  # a combining mark composes
    error = parse("Ａ ＰＡＲ － ＡＴＬ")
    assert isinstance(error, ParseError)
    assert (error.word, error.offset) == ("ＡＴＬ", 8)


@pytest.mark.parametrize("text, first, second", [
    ("A PAR - BUR A MAR - SPA", "A PAR - BUR", "A MAR - SPA"),
    ("A PAR - BUR, A MAR - SPA", "A PAR - BUR", "A MAR - SPA"),
    ("A PAR - BUR; F BRE - MAO", "A PAR - BUR", "F BRE - MAO"),
    ("A PAR - BUR\nA MAR - SPA", "A PAR - BUR", "A MAR - SPA"),
    ("Hær Paris holder Hær Marseille holder", "Hær Paris holder", "Hær Marseille holder"),
])
def test_two_orders_in_one_text_are_named_as_such(text, first, second):
    error = parse(text)
    assert isinstance(error, ParseError)
    assert error.message == (f"two orders in one text: {first!r}, then {second!r}; "
                             "send each order as a text of its own")
    assert error.word == second.split()[0]


def test_three_orders_in_one_text_are_several():
    error = parse("A PAR H A MAR H F BRE H")
    assert isinstance(error, ParseError)
    assert error.message.startswith("several orders in one text: 'A PAR H', then 'A MAR H F BRE H'")


def test_an_order_is_at_most_200_characters_long():
    padded = "A PAR - BUR".ljust(200)
    assert canonical(padded) == "A PAR - BUR"
    error = parse(padded + " ")
    assert isinstance(error, ParseError)
    assert error.message == "an order is at most 200 characters long"


def test_docs_notation_lists_every_danish_verb():
    from pathlib import Path

    from shared.rules.diplomacy.parser.lexicon import DANISH_VERB_WORDS

    notation = (Path(__file__).resolve().parents[3] / "docs" / "notation.md").read_text()
    listed = notation.split("Danish verbs:", 1)[1].split("\n\n", 1)[0]
    words = {w.strip("`") for w in listed.replace(",", " ").replace(";", " ").replace(".", " ").split()
             if w.startswith("`")}
    assert words == set(DANISH_VERB_WORDS)
