"""The named records a plan holds (``planning.Plan``): what each order spends, gives, improves
or aims at, with the index of the order that asked for it."""
from __future__ import annotations

from typing import NamedTuple

from .orders import Diplomacy, Spy


class Spent(NamedTuple):
    """Gold an order spends, and where (a territory, for Steal Records), or None."""

    order_index: int
    gold: int
    where: str | None


class Improvement(NamedTuple):
    order_index: int
    kind: str  # FORT, SHIPYARD or GASVENT
    at: str


class Mission(NamedTuple):
    order_index: int
    order: Spy
    cost: int


class Gift(NamedTuple):
    """Gold given (GIVE) or expected (EXPECT): to whom, or from whom."""

    order_index: int
    amount: int
    power: str


class DiplomacyOrder(NamedTuple):
    order_index: int
    order: Diplomacy


class Bombardment(NamedTuple):
    order_index: int
    ships: list[str]  # the bombarding triremes' ids
    sea: str
    target: str


class AtPlace(NamedTuple):
    """An order about one place: a fort razed, a sea whose privateers are attacked."""

    order_index: int
    at: str
