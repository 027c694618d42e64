"""House bots: pure functions from a position to one power's orders (docs/bots.md).

``orders_for(variant, state, power, strength=..., seed=...)`` answers the orders a house bot
of that strength gives for ``power`` in the state document's current phase: always legal
orders taken from the variant's own possible orders, the same for the same seed. Three
strengths: ``holding`` (every unit holds, dislodged units disband, no builds), ``random``
(a legal order per unit drawn at random: the ladder's baseline) and ``heuristic`` (on the
standard board DumbBot's values, no dice, and a search adjudicating its candidate orders
against the others' likely ones: strong.py; on other boards the simpler heuristic.py). And a
yardstick, never a house bot: ``dumbbot`` (dumbbot.py), DumbBot from its published description.
"""
from __future__ import annotations

from .play import STRENGTHS, Strength, Yardstick, orders_for

__all__ = ["STRENGTHS", "Strength", "Yardstick", "orders_for"]
