"""The house bots' one entry point: the orders of one power in one phase, by strength."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Literal

from shared.rules.variants import Variant, get_variant

from .dumbbot import dumbbot_orders
from .heuristic import heuristic_orders
from .reading import Options, read_options
from .strong import strong_orders

Strength = Literal["holding", "random", "heuristic"]
STRENGTHS: tuple[Strength, ...] = ("holding", "random", "heuristic")
Yardstick = Literal["dumbbot"]  # measured against, never offered as a house bot (docs/bots.md)


def orders_for(variant: str, state: Mapping[str, object], power: str, *, strength: Strength | Yardstick = "heuristic",
               seed: int = 0) -> list[str]:
    """The orders a house bot of ``strength`` gives for ``power`` now (legal: each one taken
    from the variant's possible orders); the same ``seed`` always gives the same orders."""
    rules = get_variant(variant)
    options = read_options(rules.possible_orders(state, power), rules.adjustments(state).get(power, 0),
                           str(state.get("phase", "")))
    draw = random.Random(f"{seed}:{state.get('phase')}:{power}")
    if strength == "holding":
        chosen = holding_orders(options)
    elif strength == "random":
        chosen = random_orders(options, draw)
    elif strength == "dumbbot":
        chosen = dumbbot_orders(variant, state, power, options, draw)
    elif variant == "standard":
        chosen = strong_orders(variant, state, power, options, draw)
    else:  # the search adjudicates with the standard engine; other boards keep the simpler bot
        chosen = heuristic_orders(variant, state, power, options, draw)
    return legal_together(rules, state, power, chosen)


def legal_together(rules: Variant, state: Mapping[str, object], power: str, orders: list[str]) -> list[str]:
    """``orders`` as the rules accept them together: each order is legal alone, but a set can
    ask for more than a power has (Dirigible builds cost supply points): the first ones that
    fit are kept, in the bot's order of preference."""
    if all(check.accepted for check in rules.check_orders(state, power, orders)):
        return orders
    kept: list[str] = []
    for order in orders:
        if all(check.accepted for check in rules.check_orders(state, power, [*kept, order])):
            kept.append(order)
    return kept


def holding_orders(options: Options) -> list[str]:
    """Every unit holds; a dislodged unit disbands; nothing is built; removals are left to the
    rules' own choice (civil disorder's), which is what a holding player would get."""
    if options.kind == "movement":
        return [next((o for o in orders if o.endswith(" H")), orders[0]) for orders in options.by_unit.values()]
    if options.kind == "retreats":
        return [next((o for o in orders if o.endswith(" D")), orders[-1]) for orders in options.by_unit.values()]
    return []


def random_orders(options: Options, draw: random.Random) -> list[str]:
    """One legal order per unit at random; in adjustments, random builds or removals."""
    if options.kind in ("movement", "retreats"):
        return [draw.choice(orders) for orders in options.by_unit.values()]
    if options.adjustment > 0:
        sites = list(options.by_unit)
        draw.shuffle(sites)
        return [draw.choice(options.by_unit[site]) for site in sites[:options.adjustment]]
    if options.adjustment < 0:
        units = list(options.by_unit)
        draw.shuffle(units)
        return [options.by_unit[unit][0] for unit in units[:-options.adjustment]]
    return []
