"""``entente possible-orders``: every order each power could give, for positions on stdin.

Reads the same JSON document as ``entente adjudicate`` (its ``orders``, if any, are ignored):
one document, or JSON Lines (one document a line in, one result a line out, in order).
Prints ``{POWER: {LOCATION: [orders]}}`` for every power of the variant, orders in canonical
short notation; keys are unit locations, or in adjustment phases build sites, ``"WAIVE"`` and
the units that may be removed. Bad JSON, a bad document or an unknown variant: a message
naming the line on stderr, exit code 2.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from services.cli.documents import run_per_document, variant_of

USAGE = """usage: entente possible-orders < position.json
       entente possible-orders < positions.jsonl

Reads one position document (the `entente adjudicate` format, orders not needed), or one per
line, from stdin and prints every power's possible orders: {POWER: {LOCATION: [orders]}}.
Exit code 2 on bad JSON, a bad document or an unknown variant, with the line on stderr.

example:
  echo '{"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR", "F BRE"]},
         "centers": {"FRANCE": ["PAR", "BRE"]}}' | entente possible-orders"""


def possible_orders_document(document: Any) -> dict[str, dict[str, list[str]]]:
    """The possible orders of every power of the document's variant, as JSON-ready text.

    A document carries the variant's state as is (standard, dirigible) or under ``"state"``
    (ekonia)."""
    if not isinstance(document, Mapping):
        raise ValueError("the document must be a JSON object")
    variant = variant_of(document)
    state = document["state"] if isinstance(document.get("state"), Mapping) else document
    powers = variant.opening({}, 0).powers
    return {power: variant.possible_orders(state, power) for power in powers}


def run(command: str, argv: list[str], stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    return run_per_document(command, argv, USAGE, possible_orders_document, stdin, stdout)
