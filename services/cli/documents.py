"""What ``entente adjudicate`` and ``entente possible-orders`` share: JSON documents in on
stdin (one document, or JSON Lines), one JSON result a document out on stdout; bad input stops
the run with a message naming the line and exit code 2.

Standard input and output are read and written as bytes (orjson reads and writes UTF-8 itself,
so nothing is decoded and encoded again around it), a chunk at a time: every result of what has
arrived is written, and flushed, before the command waits for more input. A bot piping one line
at a time gets each answer at once; a file of thousands of lines costs one write a chunk, not
one a line (docs/performance.md, 2026-12-02, "The command: bytes in, bytes out"). Streams
without bytes beneath (a StringIO handed in) are read line by line and written as text.

JSON is read and written with orjson, several times faster than the standard library on these
documents: results come out compact and in UTF-8. A line orjson refuses is read again by the
standard library, which accepts a little more (NaN, integers past 64 bits) and words the error
messages; a result orjson cannot write (an integer past 64 bits) is written by it too.
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import IO, Any, cast

import orjson

from shared.rules.variants import Variant, get_variant

CHUNK_BYTES = 1 << 16


class InputError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")


def variant_of(document: Any) -> Variant:
    """The variant a document names (``"standard"`` when it names none); an unknown one is a
    ValueError (UnknownVariant) like any other bad document."""
    name = document.get("variant", "standard") if isinstance(document, Mapping) else "standard"
    return get_variant(name)


def run_per_document(command: str, argv: list[str], usage: str, transform: Callable[[Any], dict[str, Any]],
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
    results = ResultWriter(stdout)
    try:
        try:
            for line_number, document in read_documents(stdin, before_waiting=results.flush):
                try:
                    result = transform(document)
                except (ValueError, KeyError, TypeError) as exc:  # a document the rules cannot read
                    raise InputError(line_number, str(exc)) from exc
                results.add(result)
        finally:
            results.flush()
    except InputError as exc:
        print(f"entente {command}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


class ResultWriter:
    """Results as JSON lines, held until ``flush`` (called before each wait for input, and at the
    end): written as bytes to the binary stream beneath a text one, else as text."""

    def __init__(self, stream: IO[str]) -> None:
        self._text = stream
        self._binary: IO[bytes] | None = getattr(stream, "buffer", None)
        self._pending: list[bytes] = []

    def add(self, result: Any) -> None:
        self._pending.append(dumps_line(result))

    def flush(self) -> None:
        if not self._pending:
            return
        data = b"".join(self._pending)
        self._pending.clear()
        if self._binary is None:
            self._text.write(data.decode())
            self._text.flush()
            return
        self._text.flush()  # anything written as text before goes first
        self._binary.write(data)
        self._binary.flush()


def read_documents(stream: IO[str], before_waiting: Callable[[], None] | None = None,
                   ) -> Iterator[tuple[int, object]]:
    """(line number, document) pairs: JSON Lines, or one document over several lines.

    The first non-blank line decides: if it is a whole JSON value, every line is one; if not,
    the rest of the input is read and parsed as a single document. ``before_waiting`` is called
    before each read that may wait for more input."""
    first: str | bytes | None = None
    first_number = 0
    lines = input_lines(stream, before_waiting or (lambda: None))
    for number, line in enumerate(lines, start=1):
        if line and not line.isspace():  # (isspace: no stripped copy of every line)
            first, first_number = line, number
            break
    if first is None:
        return
    try:
        document = _read_line(first, first_number)
    except json.JSONDecodeError:
        text = _joined(first, lines)
        try:
            yield first_number, json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(first_number + exc.lineno - 1, f"bad JSON: {exc.msg} (column {exc.colno})") from exc
        except UnicodeDecodeError as exc:
            raise InputError(first_number, f"not UTF-8 text (byte {exc.start + 1} of the document)") from exc
        return
    yield first_number, document
    for number, line in enumerate(lines, start=first_number + 1):
        if not line or line.isspace():
            continue
        try:
            document = _read_line(line, number)
        except json.JSONDecodeError as exc:
            raise InputError(number, f"bad JSON: {exc.msg} (column {exc.colno})") from exc
        yield number, document


def _read_line(line: str | bytes, number: int) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(line)  # its wider input, or its error message
    except UnicodeDecodeError as exc:
        raise InputError(number, f"not UTF-8 text (byte {exc.start + 1} of the line)") from exc


def _joined(first: str | bytes, rest: Iterator[str | bytes]) -> str | bytes:
    """The first line and every line after it, as one text (their line ends put back); the
    lines of one stream are all text or all bytes."""
    if isinstance(first, bytes):
        return b"\n".join([first, *cast("Iterator[bytes]", rest)])
    return "\n".join([first, *cast("Iterator[str]", rest)])


def input_lines(stream: IO[str], before_waiting: Callable[[], None]) -> Iterator[str | bytes]:
    """The lines of a stream without their line ends: bytes read a chunk at a time (whatever
    has arrived, up to CHUNK_BYTES) from the binary stream beneath a text one, else text read a
    line at a time; ``before_waiting`` runs before each read."""
    binary = getattr(stream, "buffer", None)
    read_chunk = getattr(binary, "read1", None)
    if read_chunk is None:
        while True:
            before_waiting()
            line = stream.readline()
            if not line:
                return
            yield line[:-1] if line.endswith("\n") else line
    partial: list[bytes] = []  # the start of a line not yet ended
    while True:
        before_waiting()
        chunk = read_chunk(CHUNK_BYTES)
        if not chunk:
            break
        lines = chunk.split(b"\n")
        if len(lines) == 1:
            partial.append(chunk)
            continue
        if partial:
            partial.append(lines[0])
            lines[0] = b"".join(partial)
            partial.clear()
        last = lines.pop()
        if last:
            partial.append(last)
        yield from lines
    if partial:
        yield b"".join(partial)


def dumps_line(value: Any) -> bytes:
    """One JSON line, its newline included, as UTF-8: orjson's, or the standard library's where
    orjson cannot."""
    try:
        return orjson.dumps(value, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:  # orjson.JSONEncodeError: an integer past 64 bits, a key that is not text
        return (json.dumps(value) + "\n").encode()
