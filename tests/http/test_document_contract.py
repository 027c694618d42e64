"""What the OpenAPI document promises beyond bodies (docs/api.md, "The OpenAPI document"):
headers that every answer carries, Retry-After where an answer says to wait, date-time formats."""
from __future__ import annotations

from tests.utils.http import running_app, settings_for


async def test_headers_and_formats_are_in_the_document_and_in_the_answers(sqlite_url: str) -> None:
    async with running_app(settings_for(sqlite_url)) as (app, client):
        document = app.openapi()
        answer = await client.get("/games")
        assert answer.headers["x-request-id"]
        put = document["paths"]["/games/{game_id}/orders"]["put"]["responses"]
        assert "X-Request-ID" in put["200"]["headers"] and "Retry-After" in put["429"]["headers"]
        assert all("X-Request-ID" in r["headers"] for item in document["paths"].values()
                   for op in item.values() if isinstance(op, dict) and "responses" in op
                   for r in op["responses"].values())
        schemas = document["components"]["schemas"]
        assert schemas["ClockInfo"]["properties"]["deadline"]["anyOf"][0] == {"type": "string", "format": "date-time"}
        assert schemas["ClockView"]["properties"]["deadline"]["anyOf"][0] == {"type": "string", "format": "date-time"}
