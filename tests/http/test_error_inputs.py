"""A 422 quotes the offending input short, and looks at no more of it than it quotes
(docs/operations.md, "Request bodies"): a body of 340,000 numbers where an object belongs is
answered with its first few, its other items never turned into text."""
from __future__ import annotations

import httpx

from shared.http.errors import _short

ZEROS = b"[" + b",".join([b"0"] * 340_000) + b"]"  # 680 kB


class Counted:
    """An item that counts how often it is turned into text."""

    calls = 0

    def __repr__(self) -> str:
        Counted.calls += 1
        return "item"


def test_the_quoted_input_is_made_from_its_first_items_only() -> None:
    Counted.calls = 0
    assert _short([Counted()] * 100_000) == "[item, item, item, item, item, item, ...]"
    assert Counted.calls == 6
    assert _short({"orders": [[Counted()] * 10]}) == "{'orders': [[...]]}"  # two levels deep
    assert _short("x" * 1000) == "'" + "x" * 79 + "..."
    assert _short(b"\x00" * 1_000_000).startswith("b'\\x00\\x00") and len(_short(b"\x00" * 1_000_000)) == 83
    assert _short("caf\u00e9\x01") == "'caf\\xe9\\x01'"  # text the rule refuses: quoted in ASCII
    assert _short(7) == 7 and _short("Paris") == "Paris"


async def test_a_large_array_where_an_object_belongs_is_quoted_by_its_first_items(client: httpx.AsyncClient) -> None:
    answer = await client.post("/games", content=ZEROS, headers={"content-type": "application/json"})
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "invalid_request" and error["where"] == "body"
    assert error["details"][0]["input"] == "[0, 0, 0, 0, 0, 0, ...]"
    assert len(answer.content) < 400
