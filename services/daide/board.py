"""The standard board in DAIDE's terms, pure: powers, provinces, coasts, turns, units, and the
MAP, MDF, SCO and NOW messages built from the variant's map data and its public board of a
position (``public_board``: the rules read the stored document, this module reads their view).

Our province codes are DAIDE's but for three seas (BOT, ENG, LYO are DAIDE's GOB, ECH, GOL);
coasts are ``STP/NC`` here and ``(STP NCS)`` there.
"""
from __future__ import annotations

from collections.abc import Mapping

from shared.rules.variants import get_variant, public_board
from shared.rules.variants.documents import BoardMapData, DislodgedUnit, StateDocument

from .syntax import Item, Text
from .tokens import PROVINCES

MAP_NAME = "STANDARD"
POWER_CODES = {"AUSTRIA": "AUS", "ENGLAND": "ENG", "FRANCE": "FRA", "GERMANY": "GER", "ITALY": "ITA",
               "RUSSIA": "RUS", "TURKEY": "TUR"}
POWER_NAMES = {code: power for power, code in POWER_CODES.items()}
_OURS_TO_DAIDE = {"BOT": "GOB", "ENG": "ECH", "LYO": "GOL"}
_DAIDE_TO_OURS = {daide: ours for ours, daide in _OURS_TO_DAIDE.items()}
COASTS = {"NC": "NCS", "SC": "SCS", "EC": "ECS", "WC": "WCS"}
_COASTS_BACK = {daide: ours for ours, daide in COASTS.items()}
SEASONS = {("S", "M"): "SPR", ("S", "R"): "SUM", ("F", "M"): "FAL", ("F", "R"): "AUT", ("W", "A"): "WIN"}
_PHASES = {season: key for key, season in SEASONS.items()}
UNIT_TYPES = {"A": "AMY", "F": "FLT"}
_UNIT_TYPES_BACK = {daide: ours for ours, daide in UNIT_TYPES.items()}


def province(ours: str) -> str:
    return _OURS_TO_DAIDE.get(ours, ours)


def our_province(daide: str) -> str:
    return _DAIDE_TO_OURS.get(daide, daide)


def location(ours: str) -> Item:
    """``STP/NC`` as ``[STP, NCS]``, ``PAR`` as ``PAR``."""
    name, _, coast = ours.partition("/")
    return [province(name), COASTS[coast]] if coast else province(name)


def our_location(item: Item) -> str | None:
    """A DAIDE province or ``(province coast)`` in our notation; None for anything else."""
    if isinstance(item, str) and item in PROVINCES:
        return our_province(item)
    if (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and item[0] in PROVINCES
            and isinstance(item[1], str) and item[1] in _COASTS_BACK):
        return f"{our_province(item[0])}/{_COASTS_BACK[item[1]]}"
    return None


def turn(phase: str) -> list[Item]:
    """``S1901M`` as ``[SPR, 1901]``."""
    return [SEASONS[(phase[0], phase[-1])], int(phase[1:-1])]


def phase_of(item: Item) -> str | None:
    """A DAIDE turn ``(SPR 1901)`` as our phase name, or None."""
    if (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and item[0] in _PHASES
            and isinstance(item[1], int) and not isinstance(item[1], bool)):
        season, kind = _PHASES[item[0]]
        return f"{season}{item[1]}{kind}"
    return None


def unit(power: str, text: str) -> list[Item]:
    """``A PAR`` of FRANCE as ``[FRA, AMY, PAR]``."""
    kind, _, where = text.partition(" ")
    return [POWER_CODES[power], UNIT_TYPES[kind], location(where)]


def our_unit(item: Item) -> tuple[str, str] | None:
    """A DAIDE unit ``(FRA AMY PAR)`` as (FRANCE, ``A PAR``), or None."""
    if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str) and isinstance(item[1], str)):
        return None
    power, kind, where = POWER_NAMES.get(item[0]), _UNIT_TYPES_BACK.get(item[1]), our_location(item[2])
    if power is None or kind is None or where is None:
        return None
    return power, f"{kind} {where}"


def text_of(items: list[Item]) -> str:
    """DAIDE tokens as the text the order parser reads (docs/notation.md, "DAIDE tokens")."""
    words = []
    for item in items:
        words.append(f"({text_of(item)})" if isinstance(item, list) else str(item))
    return " ".join(words)


# ----------------------------------------------------------------------------- messages

def map_message() -> list[Item]:
    return ["MAP", [Text(MAP_NAME)]]


def _adjacent(ours: list[str]) -> list[Item]:
    kept = [where for where in ours if province(where.partition("/")[0]) in PROVINCES]
    return [location(where) for where in sorted(kept, key=province)]


def mdf_message(map_data: BoardMapData) -> list[Item]:
    """MDF (powers) (supply centres, non-supply centres) (adjacencies) from the variant's map data."""
    # Switzerland and any other impassable place of ours has no DAIDE token: it is left out
    provinces = {name: facts for name, facts in map_data["provinces"].items() if province(name) in PROVINCES}
    homes: dict[str, list[str]] = {}
    for name, facts in provinces.items():
        if facts["supply_centre"]:
            homes.setdefault(POWER_CODES[facts["home"]] if facts["home"] else "UNO", []).append(province(name))
    centres: list[Item] = [[code, *sorted(homes[code])] for code in sorted(POWER_NAMES) if code in homes]
    centres.append(["UNO", *sorted(homes.get("UNO", []))])
    others: list[Item] = [*sorted(province(n) for n, facts in provinces.items() if not facts["supply_centre"])]
    armies: Mapping[str, list[str]] = map_data["adjacency"]["A"]
    fleets: Mapping[str, list[str]] = map_data["adjacency"]["F"]
    adjacencies: list[Item] = []
    for name in sorted(provinces, key=province):
        entry: list[Item] = [province(name)]
        if name in armies:
            entry.append(["AMY", *_adjacent(armies[name])])
        coasts = provinces[name]["coasts"]
        if coasts:
            entry += [[["FLT", COASTS[coast.partition("/")[2]]], *_adjacent(fleets[coast])] for coast in coasts]
        elif name in fleets:
            entry.append(["FLT", *_adjacent(fleets[name])])
        adjacencies.append(entry)
    return ["MDF", list(POWER_NAMES), [centres, others], adjacencies]


def standard_map_data() -> BoardMapData:
    """The standard board's map data, which the DAIDE server's MDF and centres are read from."""
    data = get_variant("standard").map_data()
    if data["board"] != "standard":
        raise AssertionError(f"the standard variant is played on the {data['board']} board")
    return data


def supply_centres(map_data: BoardMapData) -> list[str]:
    return sorted(name for name, facts in map_data["provinces"].items() if facts["supply_centre"])


def phase_now(position: StateDocument) -> str:
    """The phase a position is in, as we name it (``S1901M``)."""
    return public_board(position)["phase"]


def centres_of(position: StateDocument) -> dict[str, list[str]]:
    """Each power's supply centres."""
    return public_board(position)["centres"]


def dislodged_of(position: StateDocument, power: str) -> list[DislodgedUnit]:
    """``power``'s dislodged units, each with its retreats."""
    return [d for d in public_board(position).get("dislodged", []) if d["power"] == power]


def sco_message(position: StateDocument, centres: list[str]) -> list[Item]:
    """SCO (power centre ...) ... (UNO centre ...): who owns every supply centre."""
    owned = centres_of(position)
    groups: list[Item] = []
    taken: set[str] = set()
    for power in sorted(owned, key=lambda p: POWER_CODES[p]):
        if owned[power]:
            groups.append([POWER_CODES[power], *sorted(province(c) for c in owned[power])])
            taken.update(owned[power])
    free = sorted(province(c) for c in centres if c not in taken)
    if free:
        groups.append(["UNO", *free])
    return ["SCO", *groups]


def now_message(position: StateDocument) -> list[Item]:
    """NOW (turn) (unit) ...: every unit, a dislodged one with its retreats (MRT)."""
    board = public_board(position)
    units: list[Item] = []
    for power in sorted(board["units"], key=lambda p: POWER_CODES[p]):
        units += [unit(power, text) for text in sorted(board["units"][power])]
    for entry in sorted(board.get("dislodged", []), key=_power_and_place):
        units.append([*unit(entry["power"], entry["unit"]), "MRT", [location(r) for r in entry["retreats"]]])
    return ["NOW", turn(board["phase"]), *units]


def _power_and_place(dislodged: DislodgedUnit) -> tuple[str, str]:
    return POWER_CODES[dislodged["power"]], dislodged["unit"].partition(" ")[2]


def units_of(position: StateDocument, power: str) -> list[str]:
    """``power``'s units, ``A PAR``, in the order of their texts (as DAIDE lists them)."""
    return sorted(public_board(position)["units"].get(power, []))


def power_of_unit(position: StateDocument, where: str) -> str | None:
    """Which power has a unit in ``where``'s province (dislodged units too)."""
    name = where.partition("/")[0]
    board = public_board(position)
    for power, texts in board["units"].items():
        if any(t.partition(" ")[2].partition("/")[0] == name for t in texts):
            return str(power)
    for entry in board.get("dislodged", []):
        if entry["unit"].partition(" ")[2].partition("/")[0] == name:
            return entry["power"]
    return None
