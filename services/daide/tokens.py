"""The DAIDE token numbers (docs/bots.md has the same table): every token of the client-server
protocol's diplomacy messages is two bytes, its category in the high byte.

- 0x00-0x3F: integers, 14 bits in two's complement (-8192 to 8191);
- 0x40 brackets, 0x41 powers, 0x42 unit types, 0x43 orders, 0x44 order notes, 0x45 results,
  0x46 coasts, 0x47 phases, 0x48 commands, 0x49 parameters, 0x4A press;
- 0x4B: one ASCII character of a text;
- 0x50-0x57: the standard map's provinces, the category saying inland / sea / coastal /
  bicoastal and whether it is a supply centre, the low byte numbering them 0 to 74.
"""
from __future__ import annotations

TEXT_CATEGORY = 0x4B
INTEGER_LIMIT = 0x4000  # numbers below this are integers

_FIXED: dict[int, tuple[str, ...]] = {
    0x40: ("BRA", "KET"),
    0x41: ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"),
    0x42: ("AMY", "FLT"),
    0x47: ("SPR", "SUM", "FAL", "AUT", "WIN"),
    0x48: ("CCD", "DRW", "FRM", "GOF", "HLO", "HST", "HUH", "IAM", "LOD", "MAP", "MDF", "MIS", "NME", "NOT",
           "NOW", "OBS", "OFF", "ORD", "OUT", "PRN", "REJ", "SCO", "SLO", "SND", "SUB", "SVE", "THX", "TME",
           "YES", "ADM", "SMR"),
    0x44: ("MBV", "BPR", "CST", "ESC", "FAR", "HSC", "NAS", "NMB", "NMR", "NRN", "NRS", "NSA", "NSC", "NSF",
           "NSP", "NST", "NSU", "NVR", "NYU", "YSC"),
    0x45: ("SUC", "BNC", "CUT", "DSR", "FLD", "NSO", "RET"),
}
# categories whose numbers are not consecutive from 0
_SPARSE: dict[str, int] = {
    "CTO": 0x4320, "CVY": 0x4321, "HLD": 0x4322, "MTO": 0x4323, "SUP": 0x4324, "VIA": 0x4325,
    "DSB": 0x4340, "RTO": 0x4341, "BLD": 0x4380, "REM": 0x4381, "WVE": 0x4382,
    "NCS": 0x4600, "NEC": 0x4602, "ECS": 0x4604, "SEC": 0x4606, "SCS": 0x4608, "SWC": 0x460A, "WCS": 0x460C,
    "NWC": 0x460E,
    "AOA": 0x4900, "BTL": 0x4901, "ERR": 0x4902, "LVL": 0x4903, "MRT": 0x4904, "MTL": 0x4905, "NPB": 0x4906,
    "NPR": 0x4907, "PDA": 0x4908, "PTL": 0x4909, "RTL": 0x490A, "UNO": 0x490B, "DSD": 0x490D,
    # press: numbered in alphabetical order from ALY, then the later additions from CHO
    "ALY": 0x4A00, "AND": 0x4A01, "BWX": 0x4A02, "DMZ": 0x4A03, "ELS": 0x4A04, "EXP": 0x4A05, "FCT": 0x4A06,
    "FOR": 0x4A07, "FWD": 0x4A08, "HOW": 0x4A09, "IDK": 0x4A0A, "IFF": 0x4A0B, "INS": 0x4A0C, "OCC": 0x4A0E,
    "ORR": 0x4A0F, "PCE": 0x4A10, "POB": 0x4A11, "PRP": 0x4A13, "QRY": 0x4A14, "SCD": 0x4A15, "SRY": 0x4A16,
    "SUG": 0x4A17, "THK": 0x4A18, "THN": 0x4A19, "TRY": 0x4A1A, "VSS": 0x4A1C, "WHT": 0x4A1D, "WHY": 0x4A1E,
    "XDO": 0x4A1F, "XOY": 0x4A20, "YDO": 0x4A21, "CHO": 0x4A22, "BCC": 0x4A23, "UNT": 0x4A24, "NAR": 0x4A25,
    "CCL": 0x4A26,
    # dropped in a later revision of the syntax document, their numbers never reused: still
    # tokens (older clients send them in TRY), never an EM 0x0E (docs/bots.md, "The token table")
    "IOU": 0x4A0D, "PPT": 0x4A12, "UOM": 0x4A1B,
}
# the standard map's provinces by category, numbered on from 0 across the categories
PROVINCE_CATEGORIES: tuple[tuple[int, tuple[str, ...]], ...] = (
    (0x50, ("BOH", "BUR", "GAL", "RUH", "SIL", "TYR", "UKR")),  # inland
    (0x51, ("BUD", "MOS", "MUN", "PAR", "SER", "VIE", "WAR")),  # inland supply centres
    (0x52, ("ADR", "AEG", "BAL", "BAR", "BLA", "EAS", "ECH", "GOB", "GOL", "HEL", "ION", "IRI", "MAO", "NAO",
            "NTH", "NWG", "SKA", "TYS", "WES")),  # seas
    (0x54, ("ALB", "APU", "ARM", "CLY", "FIN", "GAS", "LVN", "NAF", "PIC", "PIE", "PRU", "SYR", "TUS", "WAL",
            "YOR")),  # coastal
    (0x55, ("ANK", "BEL", "BER", "BRE", "CON", "DEN", "EDI", "GRE", "HOL", "KIE", "LON", "LVP", "MAR", "NAP",
            "NWY", "POR", "ROM", "RUM", "SEV", "SMY", "SWE", "TRI", "TUN", "VEN")),  # coastal supply centres
    (0x57, ("BUL", "SPA", "STP")),  # bicoastal supply centres
)


def _table() -> dict[str, int]:
    table: dict[str, int] = {}
    for category, names in _FIXED.items():
        table.update({name: (category << 8) | index for index, name in enumerate(names)})
    table.update(_SPARSE)
    index = 0
    for category, names in PROVINCE_CATEGORIES:
        for name in names:
            table[name] = (category << 8) | index
            index += 1
    return table


TOKENS: dict[str, int] = _table()
NAMES: dict[int, str] = {number: name for name, number in TOKENS.items()}
PROVINCES: frozenset[str] = frozenset(name for _, names in PROVINCE_CATEGORIES for name in names)
POWERS: tuple[str, ...] = _FIXED[0x41]
BRA, KET = TOKENS["BRA"], TOKENS["KET"]


def encode_integer(value: int) -> int:
    if not -INTEGER_LIMIT // 2 <= value < INTEGER_LIMIT // 2:
        raise ValueError(f"{value} does not fit a DAIDE integer (-8192 to 8191)")
    return value & (INTEGER_LIMIT - 1)


def decode_integer(number: int) -> int:
    return number - INTEGER_LIMIT if number & (INTEGER_LIMIT >> 1) else number
