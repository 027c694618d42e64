"""What the parser returns instead of an order when it cannot read the text."""
from __future__ import annotations

from dataclasses import dataclass
from typing import final


@final  # no subclasses: callers may test ``type(x) is ParseError``, one pointer compare compiled
@dataclass(frozen=True, slots=True)
class ParseError:
    """Why a line is not an order.

    ``word`` is the word the parser stumbled on (empty at the end of the text), ``offset`` its
    character offset in ``text``, ``expected`` a short list of what would have been understood
    there, ``suggestions`` province codes close to a misspelt name, ``message`` a sentence for
    a human.
    """

    text: str
    word: str
    offset: int
    expected: tuple[str, ...]
    message: str
    suggestions: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.message


class Stumble(Exception):
    """Raised inside the grammar, turned into a ParseError at the package's edge."""

    def __init__(
        self,
        word: str,
        offset: int,
        expected: tuple[str, ...],
        message: str,
        suggestions: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.word = word
        self.offset = offset
        self.expected = expected
        self.message = message
        self.suggestions = suggestions

    def to_error(self, text: str) -> ParseError:
        return ParseError(
            text=text,
            word=self.word,
            offset=self.offset,
            expected=self.expected,
            message=self.message,
            suggestions=self.suggestions,
        )
