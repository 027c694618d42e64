"""Splitting order text into tokens that remember where they stood in the text.

Text is read in Unicode's compatibility form (NFKC), so full-width letters and signs read as
their plain forms ("Ａ ＰＡＲ － ＢＵＲ" is "A PAR - BUR"), and every dash, the minus sign and the
arrows are the move sign (docs/notation.md). Tokens keep the text and offset as written.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"  # hyphens, dashes, minus sign
_ARROWS = "→⇒⟶⟹➔➜"
_TOKEN = re.compile(
    rf"(?P<arrow>->|=>|[{_ARROWS}])"
    rf"|(?P<dash>[{_DASHES}])"
    r"|(?P<punct>[():/,.;])"
    r"|(?P<word>[^\W_]+)"
    r"|(?P<other>\S)"
)


@dataclass(frozen=True, slots=True)
class Token:
    text: str  # as written
    key: str  # case-folded; arrows and dashes all become "-"
    offset: int  # character offset in the original text
    kind: str  # "word", "dash", "punct" or "other"

    @property
    def is_word(self) -> bool:
        return self.kind == "word"


def tokenize(text: str) -> list[Token]:
    plain = text.isascii() or unicodedata.is_normalized("NFKC", text)  # the usual cases, at C speed
    read, origin = (text, None) if plain else _compatibility_form(text)
    tokens = []
    for match in _TOKEN.finditer(read):
        kind = match.lastgroup or "other"
        start, end = match.start(), match.end()
        if origin is not None:
            start, end = origin[start], origin[end]
        written = text[start:end]
        if kind in ("arrow", "dash"):
            tokens.append(Token(written, "-", start, "dash"))
        else:
            tokens.append(Token(written, match.group().casefold(), start, kind))
    return tokens


def _compatibility_form(text: str) -> tuple[str, list[int]]:
    """``text`` in NFKC, and for each of its characters (and its end) the offset in ``text`` of
    the character it came from. Each base character is normalised with the combining marks
    that follow it, so that "o" and a combining stroke compose as they would in the whole text."""
    pieces: list[str] = []
    origin: list[int] = []
    start = 0
    for index in range(1, len(text) + 1):
        if index < len(text) and unicodedata.combining(text[index]):
            continue
        piece = unicodedata.normalize("NFKC", text[start:index])
        pieces.append(piece)
        origin.extend([start] * len(piece))
        start = index
    origin.append(len(text))
    return "".join(pieces), origin
