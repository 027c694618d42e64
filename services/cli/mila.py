"""``entente export --format mila``: a game's log as the saved-game format of MILA's ``diplomacy``
package (docs/store.md, "export"), for the tools that read it."""
from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from shared.rules.variants import public_board
from shared.rules.variants.documents import StateDocument
from shared.rules.variants.standard import standard_map
from shared.store import RecordedEvent

from .common import OpsError

MILA_PRESS_RULES = {"full": [], "public": ["PUBLIC_PRESS"], "none": ["NO_PRESS"]}  # our press setting -> MILA's
# DIFFERENT_ADJUDICATION: MILA's own flag for a game adjudicated by another engine (ours), where
# its check of the saved game lets one replayed phase differ (docs/store.md, "MILA's format")
MILA_RULES = ["POWER_CHOICE", "DIFFERENT_ADJUDICATION"]

def mila_saved_game(game_id: str, records: Sequence[RecordedEvent]) -> dict[str, Any]:
    """The game in the saved-game format of the MILA ``diplomacy`` package
    (``diplomacy.utils.export.from_saved_game_format`` / ``load_saved_games_from_disk``):
    one entry per phase with the state before it, the orders as adjudicated and the results
    keyed by unit, then the current phase with no orders yet."""
    from shared.events import GameCreated, GameStarted, PhaseResolved, from_recorded, game_stream
    from shared.rules.variants.standard import home_centres

    typed = [(r, from_recorded(r)) for r in records if r.stream_id == game_stream(game_id)]
    created = next((e for _, e in typed if isinstance(e, GameCreated)), None)
    variant = created.variant if created is not None else "standard"
    if variant != "standard":
        raise OpsError(f"the MILA format has the standard map only; game {game_id} plays {variant!r}")
    rules = [*MILA_PRESS_RULES[created.settings.press if created is not None else "full"], *MILA_RULES]
    messages = mila_messages(game_id, records)
    homes = home_centres()
    phases: list[dict[str, Any]] = []
    current: tuple[StateDocument, RecordedEvent] | None = None
    for record, event in typed:
        if isinstance(event, GameStarted):
            if event.phase != "S1901M":  # the two-player game starts in 1914 with powers sitting out
                players = created.settings.player_count if created is not None else "?"
                raise OpsError(f"the MILA format holds games that start in Spring 1901; game {game_id} "
                               f"starts in {event.phase} (a game for {players} players)")
            current = (event.position, record)
        elif isinstance(event, PhaseResolved):
            state = mila_state(event.position_before, homes, record, game_id, rules)
            # every power, an empty list for one that gave no order: MILA reads a missing one as an error
            stranded = stranded_units(event.position_before)
            orders = {power: [mila_order(item.order) for item in event.orders.get(power, [])
                              if item.order != "WAIVE" and mila_unit_of(item.order) not in stranded]
                      for power in sorted(homes)}
            results: dict[str, list[str]] = {}
            for items in event.orders.values():
                for item in items:
                    unit = mila_unit_of(item.order)
                    if unit is not None:
                        results[unit] = mila_result_codes(item.result, item.reason)
            phases.append({"name": event.phase, "state": state, "orders": orders, "results": results,
                           "messages": messages.get(event.phase, [])})
            current = (event.position, record)
    if current is not None:
        document, record = current
        phase = public_board(document)["phase"]
        phases.append({"name": phase, "state": mila_state(document, homes, record, game_id, rules),
                       "orders": {}, "results": {}, "messages": messages.get(phase, [])})
    return {"id": game_id, "map": variant, "rules": rules, "phases": phases}


def mila_messages(game_id: str, records: Sequence[RecordedEvent]) -> dict[str, list[dict[str, Any]]]:
    """The game's press as MILA messages, by phase: one per recipient (``GLOBAL`` for a public
    message), ``time_sent`` in microseconds, unique and increasing (MILA keys messages by it)."""
    from shared.events import from_recorded
    from shared.events_social import MessageSent, press_stream

    by_phase: dict[str, list[dict[str, Any]]] = {}
    last = 0
    for record in records:
        message = from_recorded(record) if record.stream_id == press_stream(game_id) else None
        if not isinstance(message, MessageSent):
            continue
        for recipient in message.recipients if message.recipients is not None else ["GLOBAL"]:
            last = max(last + 1, int(record.recorded_at.timestamp() * 1_000_000))
            by_phase.setdefault(message.phase, []).append(
                {"sender": message.sender, "recipient": recipient, "time_sent": last, "phase": message.phase,
                 "message": message.text})
    return by_phase


def mila_state(document: StateDocument, homes: dict[str, list[str]], record: RecordedEvent,
               game_id: str, rules: list[str]) -> dict[str, Any]:
    powers = sorted(homes)
    board = public_board(document)
    # in the state's own order, by text (the public board lists them by place)
    units = {power: sorted(board["units"].get(power, [])) for power in powers}
    retreats: dict[str, dict[str, list[str]]] = {power: {} for power in powers}
    for item in board.get("dislodged", []):
        if not item["retreats"]:
            continue  # MILA disbands a dislodged unit with nowhere to go at once
        units[item["power"]].append("*" + item["unit"])
        retreats[item["power"]][item["unit"]] = list(item["retreats"])
    centers = {power: sorted(board["centres"].get(power, [])) for power in powers}
    occupied = {unit.split()[1].split("/")[0] for power in powers for unit in board["units"].get(power, [])}
    adjusting = board["phase"].endswith("A")
    builds = {
        power: {
            "count": len(centers[power]) - len(units[power]) if adjusting else 0,
            "homes": [c for c in homes[power] if c in centers[power] and c not in occupied] if adjusting else [],
        }
        for power in powers
    }
    return {
        "timestamp": int(record.recorded_at.timestamp() * 1_000_000),
        "zobrist_hash": mila_zobrist_hash(units, centers, homes),
        "note": "",
        "name": board["phase"],
        "units": units,
        "retreats": retreats,
        "centers": centers,
        "homes": homes,
        "influence": centers,
        "civil_disorder": {power: 0 for power in powers},
        "builds": builds,
        "game_id": game_id,
        "map": "standard",  # the only map MILA's format holds (mila_saved_game)
        "rules": list(rules),
    }


@lru_cache(maxsize=1)
def _zobrist_tables() -> dict[str, Any]:
    """MILA's Zobrist tables for the standard map, as its ``Game._build_hash_table`` draws them:
    Python's Mersenne Twister seeded from the map's locations and centres (the same numbers on
    every machine), one random number per (kind, power or unit type, location)."""
    board = standard_map()
    powers = sorted(board.powers)
    locations = sorted(loc for loc in board.locations if board.provinces[loc.split("/")[0]].kind != "impassable")
    centres = "-".join(sorted(board.supply_centres))
    seed = (12345 + len(locations) + sum(ord(x) * 7 ** ix for ix, x in enumerate(centres))) % 2 ** 32
    draw = random.Random(seed)

    def rows(count: int) -> list[list[int]]:
        return [[draw.randint(1, sys.maxsize) for _ in locations] for _ in range(count)]

    tables = {"unit_type": rows(2), "units": rows(len(powers)), "dis_unit_type": rows(2),
              "dis_units": rows(len(powers)), "centers": rows(len(powers)), "homes": rows(len(powers))}
    return {**tables, "powers": powers, "locations": {loc: ix for ix, loc in enumerate(locations)}}


def mila_zobrist_hash(units: dict[str, list[str]], centers: dict[str, list[str]],
                      homes: dict[str, list[str]]) -> str:
    """The ``zobrist_hash`` MILA's ``is_valid_saved_game`` compares each replayed phase with
    (MILA's units: ``"A PAR"``, dislodged ones starred)."""
    tables = _zobrist_tables()
    where, kinds = tables["locations"], ("A", "F")
    value = 0
    for power, found in units.items():
        p = tables["powers"].index(power)
        for unit in found:
            dislodged, (kind, location) = unit.startswith("*"), unit.lstrip("*").split()
            t, loc = kinds.index(kind), where[location.upper()]
            value ^= tables["dis_unit_type" if dislodged else "unit_type"][t][loc]
            value ^= tables["dis_units" if dislodged else "units"][p][loc]
    for table, places in (("centers", centers), ("homes", homes)):
        for power, codes in places.items():
            p = tables["powers"].index(power)
            for code in codes:
                value ^= tables[table][p][where[code[:3].upper()]]
    return str(value)


def stranded_units(document: StateDocument) -> set[str]:
    """Dislodged units with nowhere to retreat: MILA disbands them as they are dislodged, so
    they are neither in its next state nor ordered in its retreat phase."""
    return {item["unit"] for item in public_board(document).get("dislodged", []) if not item["retreats"]}


def mila_order(order: str) -> str:
    """Our canonical order as MILA writes it: an army's move to a province it cannot step to is a
    move by convoy, which MILA marks ``VIA`` (ours implies it); a waived build is no order at all
    in MILA (left out by the caller)."""
    words = order.split()
    if len(words) == 4 and words[0] == "A" and words[2] == "-" and \
            words[3].split("/")[0] not in standard_map().army_neighbours(words[1]):
        return f"{order} VIA"
    return order


def mila_unit_of(order: str) -> str | None:
    """``"A PAR - BUR"`` -> ``"A PAR"``; WAIVE has no unit."""
    words = order.split()
    return f"{words[0]} {words[1]}" if len(words) >= 2 and words[0] in ("A", "F") else None


def mila_result_codes(result: str, reason: str) -> list[str]:
    """Our result and reason as MILA's result codes ('' is success, so no code)."""
    if result == "void":
        return ["void"]
    codes = []
    if result == "fails":
        if "bounced" in reason or "cannot dislodge own unit" in reason:
            codes.append("bounce")
        elif "cut" in reason:
            codes.append("cut")
        elif "convoy" in reason:
            codes.append("no convoy")
        elif not reason.startswith("dislodged"):
            codes.append("void")
    if "dislodged by" in reason:
        codes.append("dislodged")
    if "disbanded" in reason:
        codes.append("disband")
    return codes
