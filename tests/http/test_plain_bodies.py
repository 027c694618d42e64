"""Bodies of plain values are read by orjson, the rest by the strict decoder
(shared/http/body.py; docs/operations.md, "Request bodies"): both give the same value for
every plain body, and every body the strict decoder refuses or changes is left to it."""
from __future__ import annotations

import json

import pytest

from shared.http.body import NOT_PLAIN, StrictJSON, plain_value

PLAIN = [b'{"name": "Bots night", "settings": {"player_count": 7, "press": "full"}}', b"[0,1,2,-3]",
         b'{"orders": ["A PAR - BUR", "F BRE - MAO"], "power": "FRANCE"}', b'{"a": {"a": {"a": 1}}, "b": [{"a": 2}]}',
         b'"text"', b"null", b'{"k\\"ey": true, "k": false}', b'{"caf\xc3\xa9": "\xe2\x82\xac"}',
         b"[" + b",".join([b"0"] * 340_000) + b"]"]
LEFT_TO_THE_STRICT_DECODER = {
    "a key given twice": b'{"a": 1, "a": 2}',
    "a key given twice, deeper": b'{"b": [{"a": 1, "a": 1}]}',
    "a key with an escaped quote given twice": b'{"k\\"": 1, "k\\"": 2}',
    "an integral fraction": b'{"a": 7.0}',
    "an exponent": b'{"a": 1e400}',
    "NaN": b'{"a": NaN}',
    "an integer of 17 digits": b'{"a": 12345678901234567}',
    "an escaped control": b'{"a": "\\u0001"}',
    "a lone surrogate": b'{"a": "\\ud800"}',
    "DEL": b'{"a": "\x7f"}',
    "a C1 control": b'{"a": "\xc2\x85"}',
    "not UTF-8": b'{"a": "\xff"}',
    "a byte order mark": b'\xef\xbb\xbf{"a": 1}',
    "not JSON": b"{nope",
    "nothing": b"",
    "a dotted version in a string": b'{"client": "v1.0"}',
}


@pytest.mark.parametrize("body", PLAIN, ids=lambda b: b[:30].decode("utf-8", "replace"))
def test_a_plain_body_reads_as_the_strict_decoder_reads_it(body: bytes) -> None:
    value = plain_value(body)
    assert value is not NOT_PLAIN
    assert value == json.loads(body)
    read = StrictJSON(body)
    assert read.problem is None and not read.not_json and read.value == value


@pytest.mark.parametrize("name", list(LEFT_TO_THE_STRICT_DECODER))
def test_what_the_strict_decoder_refuses_or_changes_is_left_to_it(name: str) -> None:
    assert plain_value(LEFT_TO_THE_STRICT_DECODER[name]) is NOT_PLAIN


def test_a_repeated_key_is_still_refused() -> None:
    assert StrictJSON(b'{"b": [{"a": 1, "a": 1}]}').problem == ("body.b[0]", "the key 'a' appears more than once")
