"""Splitting order text into tokens that remember where they stood in the text."""
from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(
    r"(?P<arrow>->|=>|→|⇒)"
    r"|(?P<dash>[-–—‐])"
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
    tokens = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "other"
        raw = match.group()
        if kind in ("arrow", "dash"):
            tokens.append(Token(raw, "-", match.start(), "dash"))
        else:
            tokens.append(Token(raw, raw.casefold(), match.start(), kind))
    return tokens
