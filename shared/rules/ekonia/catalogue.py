"""Every number of the seed in one place: unit statistics, prices, mission costs and odds."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class UnitStats:
    attack: float
    defence: float
    movement: int
    cost: int
    upkeep: int
    refund: int
    naval: bool = False
    produced_at: str = "fort"  # "fort" (forts, capital), "yard" (ship yard), "vent" (gas vent)


UNIT_TYPES: dict[str, UnitStats] = {
    "INFANTRY": UnitStats(1.0, 1.0, 1, 10, 4, 5),
    "CAVALRY": UnitStats(1.5, 0.5, 2, 25, 10, 5),
    "TRIREME": UnitStats(1.0, 1.0, 1, 20, 4, 0, naval=True, produced_at="yard"),
    "TRANSPORT": UnitStats(0.0, 0.0, 1, 15, 3, 0, naval=True, produced_at="yard"),
    "AIRSHIP": UnitStats(0.0, 0.0, 0, 20, 10, 0, produced_at="vent"),
}
LAND_TYPES = ("INFANTRY", "CAVALRY")

FORT_COST = 40
SHIPYARD_COST = 20
GAS_VENT_COST = 20
PRIVATEER_COST = 5
PRIVATEER_BOUNTY = 20
MORALE = {1: (5, 0.25), 2: (10, 0.50), 3: (15, 1.00)}  # level: (gold per unit, bonus)

TRANSPORT_CAPACITY = 6.0
CARGO_WEIGHT = {"INFANTRY": 1.0, "CAVALRY": 1.5}
AIRSHIP_CARRY = 3
AIRSHIP_RANGE = 3
AIRSHIPS_PER_BASE = 2
AIRSHIPS_PER_VENT = 2
YARD_STORAGE = {"TRIREME": 4, "TRANSPORT": 2}

HSV = {"fort": 8, "capital": 5, "city": 3}
HIDE_CITIES = {3: 20, 5: 40}  # HSV increase: cost
HIDE_UNIT_COST = 10

INVESTIGATE = {"fort": 30, "capital": 20, "city": 15, "tile": 10, "sea": 10}
INVESTIGATE_FLEET_EXTRA = 10
MISSION_ODDS = {  # mission: percent chance of success
    "INVESTIGATE": 70, "INVESTIGATE FLEET": 55, "MAP": 55, "RECORDS": 70,
    "COUNTER": 75, "COUNTER ALL": 50,
}
MISSION_COST = {"MAP": 40, "RECORDS": 25, "COUNTER": 25, "COUNTER ALL": 70}

# The notation's limits (docs/rules/ekonia.md R4): far above what a game can use (all of
# Ekonia pays about 800 gold a turn), so that no order makes the engine count or build more.
MAX_COUNT = 1_000
MAX_GOLD = 100_000

NEUTRAL_CAPTURE_STRENGTH = 2.5
SEA_LANE_BONUS_PERCENT = 15
TRADE_PERCENT = 25

# combat modifiers, as fractions added to a unit's strength
ENTRENCHED = 0.30
FLANKING = 0.20
BLITZ = 0.20
BOMBARD_CAP = 4.0
AMPHIBIOUS = -0.10
UNPREPARED = -0.10
SURPRISE = 0.50
INEXPERIENCED = -0.20
AMBUSH = 0.60
FORT_NEIGHBOUR = -0.15
FORT_TILE = -0.30
LAST_STAND = 1.00
SEA_LANE_TRIREME = -0.20
INSPECTING_TRADE = -0.20
DICE_WIN = 1.5
DICE_SIX_ONE = 2.5
