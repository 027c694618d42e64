"""``entente adjudicate``: JSON documents in on stdin, their outcomes out on stdout.

Either one JSON document (it may span several lines) and one result, or JSON Lines: one
document a line in, one result a line out, in order, written as each line is read, so
thousands of phases go through one call. Blank lines are skipped. The document format is
services/adjudication/engine/document.py's (the ``entente adjudicate`` contract).

The document's ``"variant"`` picks the rules (services/adjudication/variants): ``"standard"``
(the default), ``"dirigible"``, ... Bad JSON, a bad document or an unknown variant stops the run: a message naming the line on stderr, exit code 2
(the results already printed stand).
"""
from __future__ import annotations

import json
import os
import sys
from typing import IO, Any, Iterator, Mapping

from services.adjudication.variants import get_variant

USAGE = """usage: entente adjudicate < phase.json
       entente adjudicate < phases.jsonl

Reads one JSON document, or one document per line (JSON Lines), from stdin and prints the
adjudicated outcome of each: {"phase", "orders", "units", "dislodged", "centers", "next_phase"}.
Exit code 2 on bad JSON or a bad document, with the line on stderr."""


class InputError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")


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
                result = adjudicate_any(document)
            except ValueError as exc:
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


def adjudicate_any(document: Any) -> dict:
    """The document adjudicated by the variant it names (``"standard"`` when it names none);
    an unknown variant is a ValueError (UnknownVariant) like any other bad document."""
    name = document.get("variant", "standard") if isinstance(document, Mapping) else "standard"
    return get_variant(name).adjudicate_document(document)


def read_documents(stream: IO[str]) -> Iterator[tuple[int, object]]:
    """(line number, document) pairs: JSON Lines, or one document over several lines.

    The first non-blank line decides: if it is a whole JSON value, every line is one; if not,
    the rest of the input is read and parsed as a single document."""
    first: str | None = None
    first_number = 0
    lines = iter(stream)
    for number, line in enumerate(lines, start=1):
        if line.strip():
            first, first_number = line, number
            break
    if first is None:
        return
    try:
        document = json.loads(first)
    except json.JSONDecodeError:
        text = first + "".join(lines)
        try:
            yield first_number, json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(first_number + exc.lineno - 1, f"bad JSON: {exc.msg} (column {exc.colno})") from exc
        return
    yield first_number, document
    for number, line in enumerate(lines, start=first_number + 1):
        if not line.strip():
            continue
        try:
            document = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(number, f"bad JSON: {exc.msg} (column {exc.colno})") from exc
        yield number, document
