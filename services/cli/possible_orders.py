"""``entente possible-orders``: every order each power could give, for positions on stdin.

Reads the same JSON document as ``entente adjudicate`` (its ``orders``, if any, are ignored):
one document, or JSON Lines (one document a line in, one result a line out, in order).
Prints ``{POWER: {LOCATION: [orders]}}`` for every power of the variant, orders in canonical
short notation; keys are unit locations, or in adjustment phases build sites, ``"WAIVE"`` and
the units that may be removed. Bad JSON, a bad document or an unknown variant: a message
naming the line on stderr, exit code 2.
"""
from __future__ import annotations

import json
import os
import sys
from typing import IO, Any

from services.adjudication.engine.document import position_from_document
from services.adjudication.engine.geography import load_map
from services.adjudication.engine.possible import possible_orders_all
from services.cli.adjudicate import InputError, read_documents

USAGE = """usage: entente possible-orders < position.json
       entente possible-orders < positions.jsonl

Reads one position document (the `entente adjudicate` format, orders not needed), or one per
line, from stdin and prints every power's possible orders: {POWER: {LOCATION: [orders]}}.
Exit code 2 on bad JSON, a bad document or an unknown variant, with the line on stderr."""


def possible_orders_document(document: Any) -> dict[str, dict[str, list[str]]]:
    """The possible orders of a contract document, as JSON-ready text."""
    position = position_from_document(document)
    menus = possible_orders_all(position, load_map(position.variant))
    return {
        power: {location: [str(order) for order in orders] for location, orders in menu.items()}
        for power, menu in menus.items()
    }


def run(command: str, argv: list[str], stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE, file=stdout)
        return 0
    if argv:
        print(f"entente {command}: unexpected argument {argv[0]!r}\n{USAGE}", file=sys.stderr)
        return 2
    try:
        for line_number, document in read_documents(stdin):
            try:
                result = possible_orders_document(document)
            except ValueError as exc:  # DocumentError, and anything else the document got wrong
                raise InputError(line_number, str(exc)) from exc
            stdout.write(json.dumps(result) + "\n")
            stdout.flush()
    except InputError as exc:
        print(f"entente {command}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
