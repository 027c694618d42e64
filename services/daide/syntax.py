"""DAIDE's byte framing and the bracketed token lists of its diplomacy messages, pure.

A message is a 4-byte header (type, a padding byte, the body's length big-endian) and the body:
IM (0) version and magic number, RM (1) the representation, DM (2) tokens, FM (3) nothing,
EM (4) an error code. A DM's tokens read as a tree: a token's name (``"NME"``), an integer, a
``Text`` (consecutive 0x4B characters) or a bracketed list of those.
"""
from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass

from .tokens import BRA, INTEGER_LIMIT, KET, NAMES, TEXT_CATEGORY, TOKENS, decode_integer, encode_integer

IM, RM, DM, FM, EM = range(5)
HEADER = struct.Struct(">BxH")
VERSION, MAGIC = 1, 0xDA10

# the error codes of an EM (docs/bots.md)
IM_TIMER_POPPED = 0x01
IM_NOT_FIRST = 0x02
IM_WRONG_ENDIAN = 0x03
IM_WRONG_MAGIC = 0x04
VERSION_INCOMPATIBLE = 0x05
MORE_THAN_ONE_IM = 0x06
UNKNOWN_MESSAGE = 0x08
MESSAGE_TOO_SHORT = 0x09
RM_FROM_CLIENT = 0x0D
INVALID_TOKEN = 0x0E


@dataclass(frozen=True, slots=True)
class Text:
    value: str


Item = str | int | Text | list["Item"]


class FrameError(ValueError):
    """A frame that breaks the protocol: answered with an EM of ``code``, then the connection closes."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


class Unbalanced(ValueError):
    """Brackets that do not pair up: answered PRN (the message as sent)."""


class TooDeep(ValueError):
    """Brackets nested deeper than ``MAX_DEPTH``: answered HUH, the message up to the token
    where it went too deep, ERR there (``too_deep_echo``)."""

    def __init__(self, at: int) -> None:
        super().__init__(f"brackets nested deeper than {MAX_DEPTH} at token {at}")
        self.at = at


MAX_DEPTH = 64  # bracket levels in a message: far above any the syntax document's grammar needs
MAX_BODY_TOKENS = 0xFFFF // 2  # a frame's length is two bytes: the most tokens a DM can carry


@dataclass(frozen=True, slots=True)
class Frame:
    kind: int
    body: bytes


class FrameReader:
    """Cuts a byte stream into frames; ``feed`` returns the frames completed so far."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Frame]:
        self._buffer += data
        frames = []
        while len(self._buffer) >= HEADER.size:
            kind, length = HEADER.unpack_from(self._buffer)
            if kind > EM:
                raise FrameError(UNKNOWN_MESSAGE, f"unknown message type {kind}")
            if len(self._buffer) < HEADER.size + length:
                break
            frames.append(Frame(kind, bytes(self._buffer[HEADER.size:HEADER.size + length])))
            del self._buffer[:HEADER.size + length]
        return frames

    @property
    def pending(self) -> int:
        return len(self._buffer)


def frame(kind: int, body: bytes = b"") -> bytes:
    return HEADER.pack(kind, len(body)) + body


def error_frame(code: int) -> bytes:
    return frame(EM, struct.pack(">H", code))


def check_initial(body: bytes) -> None:
    """An IM's body: version 1 and the magic number, big-endian (FrameError otherwise)."""
    if len(body) != 4:
        raise FrameError(MESSAGE_TOO_SHORT, "an IM holds a version and a magic number (4 bytes)")
    version, magic = struct.unpack(">HH", body)
    if magic == 0x10DA:
        raise FrameError(IM_WRONG_ENDIAN, "the IM's magic number is little-endian")
    if magic != MAGIC:
        raise FrameError(IM_WRONG_MAGIC, f"wrong magic number 0x{magic:04X}")
    if version != VERSION:
        raise FrameError(VERSION_INCOMPATIBLE, f"protocol version {version}; this server speaks version 1")


def representation(names: list[str]) -> bytes:
    """An RM body: each token's number and its three-letter name padded with a zero byte."""
    return b"".join(struct.pack(">H", TOKENS[name]) + name.encode("ascii").ljust(4, b"\0") for name in names)


# ----------------------------------------------------------------------------- tokens and trees

def numbers_of(body: bytes) -> list[int]:
    """A DM's token numbers (FrameError for an odd length or a token nobody defined)."""
    if len(body) % 2:
        raise FrameError(MESSAGE_TOO_SHORT, "a DM's body is whole two-byte tokens")
    numbers = list(struct.unpack(f">{len(body) // 2}H", body))
    for number in numbers:
        if number >= INTEGER_LIMIT and number >> 8 != TEXT_CATEGORY and number not in NAMES:
            raise FrameError(INVALID_TOKEN, f"no token 0x{number:04X}")
        if number >> 8 == TEXT_CATEGORY and not 0x20 <= number & 0xFF < 0x7F:
            raise FrameError(INVALID_TOKEN, f"0x{number:04X} is no printable ASCII character")
    return numbers


def parse(numbers: list[int]) -> list[Item]:
    """The tree of a DM's tokens (Unbalanced when the brackets do not pair up)."""
    stack: list[list[Item]] = [[]]
    for at, number in enumerate(numbers):
        if number == BRA:
            if len(stack) > MAX_DEPTH:
                raise TooDeep(at)
            stack.append([])
        elif number == KET:
            if len(stack) == 1:
                raise Unbalanced("a closing bracket with none open")
            inner = stack.pop()
            stack[-1].append(inner)
        elif number >> 8 == TEXT_CATEGORY:
            top = stack[-1]
            char = chr(number & 0xFF)
            if top and isinstance(top[-1], Text):
                top[-1] = Text(top[-1].value + char)
            else:
                top.append(Text(char))
        elif number < INTEGER_LIMIT:
            stack[-1].append(decode_integer(number))
        else:
            stack[-1].append(NAMES[number])
    if len(stack) != 1:
        raise Unbalanced(f"{len(stack) - 1} bracket(s) left open")
    return stack[0]


def _numbers(items: list[Item]) -> Iterator[int]:
    for item in items:
        if isinstance(item, list):
            yield BRA
            yield from _numbers(item)
            yield KET
        elif isinstance(item, Text):
            yield from ((TEXT_CATEGORY << 8) | ord(c) for c in item.value.encode("ascii", "replace").decode())
        elif isinstance(item, bool):
            raise TypeError("a DAIDE item is a token name, an integer, a Text or a list")
        elif isinstance(item, int):
            yield encode_integer(item)
        else:
            yield TOKENS[item]


def encode(items: list[Item]) -> bytes:
    numbers = list(_numbers(items))
    return struct.pack(f">{len(numbers)}H", *numbers)


def message(items: list[Item]) -> bytes:
    """A whole DM frame of ``items`` (an echo too long for one frame cut, ``fitting``)."""
    return numbers_frame(list(_numbers(items)))


def numbers_frame(numbers: list[int]) -> bytes:
    kept = fitting(numbers)
    return frame(DM, struct.pack(f">{len(kept)}H", *kept))


def fitting(numbers: list[int], room: int = MAX_BODY_TOKENS) -> list[int]:
    """The tokens as they are when they fit one frame; else the first of them that do, with
    the brackets still open closed (a HUH or PRN echoing a message of nearly 64 kB)."""
    if len(numbers) <= room:
        return numbers
    kept: list[int] = []
    depth = 0
    for number in numbers:
        after = depth + (number == BRA) - (number == KET)
        if len(kept) + 1 + max(after, 0) > room:
            break
        kept.append(number)
        depth = max(after, 0)
    return kept + [KET] * depth


def prn_frame(numbers: list[int]) -> bytes:
    """PRN (the message as sent), for brackets that do not pair up; cut to fit one frame."""
    return frame(DM, struct.pack(">2H", TOKENS["PRN"], BRA) + _packed(fitting(numbers, MAX_BODY_TOKENS - 3))
                 + struct.pack(">H", KET))


def too_deep_echo(numbers: list[int], at: int) -> bytes:
    """HUH (the message up to the token at ``at``, ERR, its open brackets closed)."""
    head = numbers[:at]
    depth = sum(1 for n in head if n == BRA) - sum(1 for n in head if n == KET)
    return numbers_frame([TOKENS["HUH"], BRA, *head, TOKENS["ERR"], *[KET] * max(depth, 0), KET])


def _packed(numbers: list[int]) -> bytes:
    return struct.pack(f">{len(numbers)}H", *numbers)


def render(items: list[Item]) -> str:
    """The message in DAIDE's written form: ``NME ('Albert') ('1.0')``."""
    words = []
    for item in items:
        if isinstance(item, list):
            words.append(f"({render(item)})")
        elif isinstance(item, Text):
            words.append("'" + item.value.replace("'", "''") + "'")
        else:
            words.append(str(item))
    return " ".join(words)


def texts_of(items: list[Item]) -> list[str] | None:
    """The strings of ``('a') ('b')``, or None when the items are not bracketed strings."""
    found = []
    for item in items:
        if not (isinstance(item, list) and len(item) == 1 and isinstance(item[0], Text)):
            return None
        found.append(item[0].value)
    return found
