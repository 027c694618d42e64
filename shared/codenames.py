"""Codenames: how players appear to each other ("Amber Falcon"), never their identities."""
from __future__ import annotations

import random
from collections.abc import Collection

ADJECTIVES = (
    "Amber", "Azure", "Bold", "Brave", "Bright", "Calm", "Clever", "Copper", "Crimson", "Dusky",
    "Eager", "Emerald", "Fierce", "Gentle", "Golden", "Grey", "Hidden", "Ivory", "Jade", "Keen",
    "Lucky", "Misty", "Noble", "Olive", "Pale", "Quiet", "Rapid", "Rusty", "Scarlet", "Silent",
    "Silver", "Steady", "Swift", "Tawny", "Violet", "Wild", "Wise", "Young",
)
ANIMALS = (
    "Badger", "Bear", "Bison", "Crane", "Crow", "Eagle", "Elk", "Falcon", "Fox", "Gull",
    "Hare", "Hawk", "Heron", "Ibex", "Jackal", "Kestrel", "Lark", "Lynx", "Marten", "Moose",
    "Otter", "Owl", "Panther", "Pike", "Raven", "Seal", "Sparrow", "Stag", "Stoat", "Swan",
    "Tiger", "Viper", "Walrus", "Wolf", "Wren", "Yak",
)


def pick_codename(rng: random.Random, taken: Collection[str]) -> str:
    """A random codename not in ``taken`` (there are over a thousand, games seat at most 7)."""
    free = [f"{a} {b}" for a in ADJECTIVES for b in ANIMALS if f"{a} {b}" not in taken]
    if not free:
        raise ValueError("no codename left")
    return rng.choice(free)
