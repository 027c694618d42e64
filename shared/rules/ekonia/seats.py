"""Which states play when fewer than all of them do (docs/rules/ekonia.md R75, D35).

Ekonia's six states sit on a ring, and the map has six-fold rotational symmetry (no mirror
symmetry: docs/rules/ekonia-map.md). Every seated state faces the same geometry only when a
rotation of the map carries any seated state onto any other and the seated states onto
themselves, that is when the seats are evenly spaced around the ring: 2 (opposite), 3 (every
second) or 6 players. For 4 and 5 no choice does it; the seats then keep as much of the
symmetry as they can: blocks of neighbours repeated around the ring (4: two opposite pairs,
symmetric under a half turn; 5: all but one). Only the offset is drawn from the game's seed.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .board import Board


def ring_of_states(board: Board) -> list[str] | None:
    """The states in their order around the ring (each next to the two whose capitals are
    nearest its own), or None when the board has no such ring (a test board)."""
    names = sorted(board.states)
    if len(names) < 3:
        return None
    capital = {n: board.states[n].capital for n in names}
    nearest: dict[str, set[str]] = {}
    for name in names:
        by_distance = sorted((board.distance(capital[name], capital[o]), o) for o in names if o != name)
        if len(by_distance) > 2 and by_distance[1][0] == by_distance[2][0]:
            return None  # no two nearest neighbours
        nearest[name] = {o for _, o in by_distance[:2]}
    ring = [names[0], min(nearest[names[0]])]
    while len(ring) < len(names):
        following = nearest[ring[-1]] - {ring[-2]}
        if len(following) != 1:
            return None
        ring.append(following.pop())
    if ring[0] not in nearest[ring[-1]] or any(ring[i - 1] not in nearest[ring[i]] for i in range(len(ring))):
        return None
    return ring


def seated_states(ring: Sequence[str], count: int, seed: int) -> list[str]:
    """``count`` states of ``ring``: ``gcd(n, count)`` equal blocks of neighbours, evenly
    spaced, at an offset drawn from the seed."""
    n = len(ring)
    blocks = math.gcd(n, count)
    block, per_block = n // blocks, count // blocks
    offset = random.Random(f"{seed}:ekonia:seats").randrange(block)
    chosen = [ring[(offset + b * block + i) % n] for b in range(blocks) for i in range(per_block)]
    return sorted(chosen)


def states_played(board: Board, count: int, seed: int) -> list[str]:
    ring = ring_of_states(board)
    if ring is None or count >= len(board.states):
        return sorted(random.Random(f"{seed}:ekonia:states").sample(sorted(board.states), count))
    return seated_states(ring, count, seed)
