"""What ``entente adjudicate`` and ``entente possible-orders`` share: JSON documents in on
stdin (one document, or JSON Lines), one JSON result a document out on stdout, written as
each line is read; bad input stops the run with a message naming the line and exit code 2.

JSON is read and written with orjson, several times faster than the standard library on these
documents (docs/architecture.md, "Performance"): results come out compact and in UTF-8. A line
orjson refuses is read again by the standard library, which accepts a little more (NaN,
integers past 64 bits) and words the error messages; a result orjson cannot write (an integer
past 64 bits) is written by it too.
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import IO, Any

import orjson

from shared.rules.variants import Variant, get_variant


class InputError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")


def variant_of(document: Any) -> Variant:
    """The variant a document names (``"standard"`` when it names none); an unknown one is a
    ValueError (UnknownVariant) like any other bad document."""
    name = document.get("variant", "standard") if isinstance(document, Mapping) else "standard"
    return get_variant(name)


def run_per_document(command: str, argv: list[str], usage: str, transform: Callable[[Any], dict],
                     stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Print ``transform(document)`` for each document on stdin; exit 2 on the first bad one
    (the results already printed stand)."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    if argv and argv[0] in ("-h", "--help"):
        print(usage, file=stdout)
        return 0
    if argv:
        print(f"entente {command}: unexpected argument {argv[0]!r}\n{usage}", file=sys.stderr)
        return 2
    try:
        for line_number, document in read_documents(stdin):
            try:
                result = transform(document)
            except (ValueError, KeyError, TypeError) as exc:  # a document the rules cannot read
                raise InputError(line_number, str(exc)) from exc
            stdout.write(dumps(result) + "\n")
            stdout.flush()
    except InputError as exc:
        print(f"entente {command}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


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
        document = loads(first)
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
            document = loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(number, f"bad JSON: {exc.msg} (column {exc.colno})") from exc
        yield number, document


def loads(text: str) -> Any:
    """One JSON value: orjson's reading, or the standard library's where orjson refuses the
    text (raising the standard library's JSONDecodeError and message if neither reads it)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def dumps(value: Any) -> str:
    """One JSON line (no newline in it): orjson's, or the standard library's where orjson cannot."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError: an integer past 64 bits, a key that is not text
        return json.dumps(value)
