"""Text that users write and the store keeps: refused at the edge if it holds control characters.

PostgreSQL's JSONB cannot hold U+0000, and no name or message needs control characters other
than line breaks and tabs; refusing them with a 422 keeps the two back ends alike and the logs
readable.
"""
from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def no_control_characters(value: str) -> str:
    match = _CONTROL.search(value)
    if match:
        raise ValueError(f"control character U+{ord(match.group()):04X} at position {match.start()} is not allowed")
    return value


UserText = Annotated[str, AfterValidator(no_control_characters)]
"""A str a user wrote (names, messages, labels): no control characters but line breaks and tabs."""
