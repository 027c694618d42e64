"""The two peer engines timed on the phases benchmarks/compare.py wrote: run by the Python of
the peers' own virtual environment (it imports pydip and MILA's ``diplomacy``, never Entente).

    <venv>/bin/python benchmarks/compare_peers.py PHASES.json REPEATS > TIMINGS.json

Each engine gets the same input as Entente's ``adjudicate_document``: the units per power as
``"A PAR"`` / ``"F STP/SC"`` and the order strings in the canonical short notation; a small
adapter per engine turns them into that engine's values, resolves the phase and reads back the
new position (units per power) and the dislodged units. Building the engine's values from the
strings and reading the outcome back are timed with the resolution, as for Entente. What is
built once per run (the map) is not.
"""
from __future__ import annotations

import json
import sys
import time
from typing import Any

# --- pydip -----------------------------------------------------------------------------------

# Province codes whose pydip name differs from the name in Entente's map (the rest are the same).
PYDIP_NAMES = {"EAS": "Eastern Mediterranean Sea", "HEL": "Helgoland Bight", "STP": "St. Petersburg",
               "WES": "Western Mediterranean Sea"}
COAST_WORDS = {"NC": "North Coast", "SC": "South Coast", "EC": "East Coast"}


class PydipAdapter:
    """Entente's strings to pydip's Players and Commands, and its result back to strings."""

    name = "pydip"

    def __init__(self, province_names: dict[str, str], sea: list[str], coasts: dict[str, list[str]]) -> None:
        from pydip.map.predefined import vanilla_dip
        from pydip.player.command import command
        from pydip.player.player import Player
        from pydip.player.unit import UnitTypes
        from pydip.turn.resolve import resolve_turn

        self.map = vanilla_dip.generate_map()
        self.command, self.Player, self.UnitTypes, self.resolve_turn = command, Player, UnitTypes, resolve_turn
        self.land = {code: PYDIP_NAMES.get(code, name) for code, name in province_names.items()}
        self.sea = set(sea)
        self.fleet_names: dict[str, str] = {}  # Entente fleet location -> pydip territory name
        for code, name in self.land.items():
            if code in self.sea:
                self.fleet_names[code] = name
            elif coasts.get(code):
                for coast in coasts[code]:
                    words = COAST_WORDS[coast]
                    if f"{name} {words}" not in self.map.name_map:
                        words = "North Coast"  # pydip calls Bulgaria's east coast its north coast
                    self.fleet_names[f"{code}/{coast}"] = f"{name} {words}"
            elif f"{name} Coast" in self.map.name_map:
                self.fleet_names[code] = f"{name} Coast"
        # pydip territory name -> Entente location
        self.code_of = {name: code for code, name in self.land.items()}
        self.code_of.update({name: location for location, name in self.fleet_names.items()})

    def fleet_name(self, location: str) -> str:
        return self.fleet_names[location]


    def place(self, kind: str, location: str) -> str:
        return self.fleet_name(location) if kind == "F" else self.land[location.partition("/")[0]]

    def run(self, doc: dict[str, Any]) -> dict[str, Any]:
        command, troop, fleet = self.command, self.UnitTypes.TROOP, self.UnitTypes.FLEET
        players: dict[str, Any] = {}
        units: dict[str, Any] = {}  # Entente province -> (player, pydip unit)
        for power, texts in doc["units"].items():
            config = []
            for text in texts:
                kind, location = text.split(" ")
                config.append({"territory_name": self.place(kind, location),
                               "unit_type": fleet if kind == "F" else troop})
            player = players[power] = self.Player(power, self.map, config)
            for unit in player.units:
                units[self.code_of[unit.position].partition("/")[0]] = (player, unit)
        commands: dict[str, Any] = {}
        for texts in doc["orders"].values():
            for text in texts:
                words = text.split(" ")
                province = words[1].partition("/")[0]
                if province in commands or province not in units:
                    continue
                try:
                    commands[province] = self.order(words, units)
                except (AssertionError, KeyError):
                    pass  # an order pydip refuses: the unit holds
        for province, (player, unit) in units.items():
            if province not in commands:
                commands[province] = command.HoldCommand(player, unit)
        outcome = self.resolve_turn(self.map, list(commands.values()))
        new_units: dict[str, list[str]] = {}
        dislodged: list[str] = []
        for power, result in outcome.items():
            for unit, retreats in result.items():
                text = ("F " if unit.unit_type == fleet else "A ") + self.code_of[unit.position]
                if retreats is None:
                    new_units.setdefault(power, []).append(text)
                else:
                    dislodged.append(text)
        return {"units": {p: sorted(u) for p, u in new_units.items()}, "dislodged": sorted(dislodged)}

    def order(self, words: list[str], units: dict[str, Any]) -> Any:
        command = self.command
        player, unit = units[words[1].partition("/")[0]]
        verb = words[2]
        if verb == "H":
            return command.HoldCommand(player, unit)
        if verb == "-":
            destination = words[3]
            if words[0] == "F":
                return command.MoveCommand(player, unit, self.fleet_name(destination))
            name = self.land[destination.partition("/")[0]]
            if words[-1] != "VIA" and name in self.map.adjacency[unit.position]:
                return command.MoveCommand(player, unit, name)
            return command.ConvoyMoveCommand(player, unit, name)
        other = units[words[4].partition("/")[0]][1]
        if verb == "C":
            return command.ConvoyTransportCommand(player, unit, other, self.land[words[6]])
        if len(words) == 5:  # support to hold
            return command.SupportCommand(player, unit, other, other.position)
        destination = words[6]
        if words[3] == "A":
            return command.SupportCommand(player, unit, other, self.land[destination.partition("/")[0]])
        if "/" in destination or destination in self.sea:
            return command.SupportCommand(player, unit, other, self.fleet_name(destination))
        coasts = [t.name for t in self.map.name_map[self.land[destination]].coasts]
        for name in coasts:  # a support written without the coast: the coast the fleet can reach
            if name in self.map.adjacency[other.position]:
                return command.SupportCommand(player, unit, other, name)
        raise AssertionError(destination)


# --- MILA's diplomacy ------------------------------------------------------------------------


class MilaAdapter:
    """One MILA ``Game``, its state set from the document each time (the state setting, orders,
    ``process`` and reading the units back are timed); its history is cleared untimed."""

    name = "diplomacy (MILA)"

    def __init__(self) -> None:
        from diplomacy import Game

        self.game = Game()
        self.powers = list(self.game.powers)

    def reset(self) -> None:
        self.game._clear_history()  # untimed: the history grows with every process()

    def run(self, doc: dict[str, Any]) -> dict[str, Any]:
        game = self.game
        game.set_current_phase(doc["phase"])
        for power in self.powers:
            game.set_units(power, doc["units"].get(power, []), reset=True)
            game.set_centers(power, doc["centers"].get(power, []), reset=True)
        for power, orders in doc["orders"].items():
            game.set_orders(power, orders)
        game.process()
        units: dict[str, list[str]] = {}
        dislodged: list[str] = []
        for power in self.powers:
            state = game.powers[power]
            if state.units:
                units[power] = sorted(state.units)
            dislodged.extend(state.retreats)
        return {"units": units, "dislodged": sorted(dislodged)}


# --- timing ----------------------------------------------------------------------------------


def time_engine(adapter: Any, docs: list[dict[str, Any]], repeats: int) -> dict[str, Any]:
    timings_us: list[float] = []
    outcomes: list[Any] = []
    reset = getattr(adapter, "reset", None)
    for doc in docs:
        best = None
        outcome: Any = None
        for _ in range(repeats):
            if reset:
                reset()
            start = time.perf_counter_ns()
            try:
                outcome = adapter.run(doc)
            except Exception as exc:  # noqa: BLE001 - an engine that fails a phase: reported, not fatal
                outcome = {"error": f"{type(exc).__name__}: {exc}"}
            elapsed = time.perf_counter_ns() - start
            best = elapsed if best is None else min(best, elapsed)
        timings_us.append((best or 0) / 1000)
        outcomes.append(outcome)
    return {"engine": adapter.name, "timings_us": timings_us, "outcomes": outcomes}


def main(argv: list[str]) -> int:
    phases_file, repeats = argv[0], int(argv[1])
    with open(phases_file) as handle:
        data = json.load(handle)
    docs = data["documents"]
    adapters: list[PydipAdapter | MilaAdapter] = [
        PydipAdapter(data["province_names"], data["sea"], data["coasts"]), MilaAdapter()]
    for adapter in adapters:  # one untimed phase each: imports and lazy caches
        adapter.run(docs[0])
    json.dump([time_engine(adapter, docs, repeats) for adapter in adapters], sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
