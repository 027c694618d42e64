"""The one rule for the text Entente keeps, and the walk that applies it to JSON values.

A stored string holds Unicode text and no control character but tab, line feed and carriage
return: no U+0000 (PostgreSQL's JSONB cannot hold it, SQLite would), no other C0 or C1 control
and no DEL (nothing a name, a label, a URL or a message needs, and they garble logs and
terminals), no lone UTF-16 surrogate (it is not a character: no UTF-8 encoder takes it). A
stored number is finite. docs/api.md ("Bad input") states the rule for clients.

It is applied from this one definition at the HTTP edge, to every string and number of every
JSON body and to the path and query of every request (shared/http/body.py, so that the answer
names the field before any route runs), and by the store to every event it appends, whoever
wrote it (shared/store/base.py, so that both back ends keep exactly the same things).
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Annotated, Any

from pydantic import AfterValidator

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be kept as text, or None when it can."""
    match = _FORBIDDEN.search(value)
    if match is None:
        return None
    code = ord(match.group())
    if 0xD800 <= code <= 0xDFFF:
        return f"a lone surrogate U+{code:04X} at position {match.start()} is not Unicode text"
    return f"control character U+{code:04X} at position {match.start()} is not allowed"


def no_control_characters(value: str) -> str:
    problem = text_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


UserText = Annotated[str, AfterValidator(no_control_characters)]
"""A str a user wrote (names, messages, labels), checked by the rule above also as a model field."""


def cleaned(value: str) -> str:
    """``value`` with what the rule refuses taken out: for text from elsewhere (a sign-in
    provider's display name) that is ours to keep but not to refuse."""
    return _FORBIDDEN.sub("", value)


def is_ascii_number(text: str) -> bool:
    """ASCII digits only: ``"²".isdigit()`` is true and ``int("²")`` fails."""
    return bool(text) and text.isascii() and text.isdigit()


_RAW_IN_JSON = re.compile("[\x7f-\x9f\ud800-\udfff]|\\\\u00|\\\\b|\\\\f")


def quickly_storable(value: Any) -> bool:
    """True when nothing in a JSON value breaks the rule, judged from its JSON text (twice as
    fast as :func:`first_problem`'s walk on a resolution's event): ``json.dumps`` writes every C0 control as
    ``\\b``, ``\\f`` or ``\\u00XX`` (tab, line feed and carriage return as ``\\t``, ``\\n``,
    ``\\r``) and leaves DEL, C1 controls and lone surrogates as they are. False may be a false
    alarm (an escaped backslash before ``b``): then walk to know."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (ValueError, TypeError):
        return False
    return _RAW_IN_JSON.search(text) is None


def path_of(parts: tuple[str | int, ...], root: str = "body") -> str:
    """``("settings", "player_count")`` -> ``"body.settings.player_count"``; ints are indexes."""
    text = root
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def first_problem(value: Any) -> tuple[tuple[str | int, ...], str] | None:
    """The first string or number of a JSON value (in document order) that the rule refuses:
    its path and why; None when everything may be kept. Object keys are checked too (a bad
    key is reported at the object holding it). Iterative, so any nesting depth is fine."""
    for parts, item in _walk(value):
        if isinstance(item, str):
            problem = text_problem(item)
        elif isinstance(item, float):
            problem = None if math.isfinite(item) else f"{item!r} is not a finite number"
        else:
            problem = getattr(item, "problem", None)  # the strict decoder's markers (shared/http/body.py)
        if problem is not None:
            return parts, problem
    return None


class KeyProblem:
    """An object key the rule refuses, found while walking (reported at its object)."""

    def __init__(self, key: str, problem: str) -> None:
        self.problem = f"the key '{_printable(key)}': {problem}"


def _walk(value: Any) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while stack:
        parts, item = stack.pop()
        if isinstance(item, dict):
            children: list[tuple[tuple[str | int, ...], Any]] = []
            for key, child in item.items():
                key_problem = text_problem(key) if isinstance(key, str) else None
                if key_problem is not None:
                    children.append((parts, KeyProblem(key, key_problem)))
                children.append(((*parts, _printable(key)), child))
            stack.extend(reversed(children))
            yield parts, item
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed([((*parts, index), child) for index, child in enumerate(item)]))
            yield parts, item
        else:
            yield parts, item


def _printable(key: Any) -> str:
    """A key as it may appear in a ``where``: refused characters escaped."""
    text = str(key)
    return text if text_problem(text) is None else text.encode("unicode_escape").decode("ascii")
