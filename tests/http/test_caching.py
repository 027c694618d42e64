"""The variants' documents and empty boards are sent once per client (docs/api.md, "Caching"),
and the document says how to read every answer that is not JSON."""
from __future__ import annotations

import gzip
import json

from services.visibility.document import WHOLE_STREAM
from tests.utils.http import running_app, settings_for


async def test_a_variant_document_has_an_etag_a_304_and_gzip(sqlite_url: str) -> None:
    async with running_app(settings_for(sqlite_url)) as (_, client):
        for path in ("/variants/standard", "/variants/standard/map.svg", "/variants/ekonia"):
            plain = await client.get(path, headers={"accept-encoding": "identity"})
            assert plain.status_code == 200 and "content-encoding" not in plain.headers
            etag = plain.headers["etag"]
            assert plain.headers["cache-control"].startswith("public, max-age=")
            again = await client.get(path, headers={"if-none-match": etag})
            assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
            assert (await client.get(path, headers={"if-none-match": '"other"'})).status_code == 200
            zipped = await client.get(path, headers={"accept-encoding": "gzip"})
            assert zipped.headers["content-encoding"] == "gzip" and zipped.headers["etag"] == etag
            assert len(zipped.content) == len(plain.content)  # httpx decoded it: the same bytes
            assert int(zipped.headers["content-length"]) < len(plain.content) / 3
        standard = (await client.get("/variants/standard")).headers["etag"]
        assert standard != (await client.get("/variants/dirigible")).headers["etag"]
        body = json.loads((await client.get("/variants/standard")).content)
        assert {"board", "powers", "geometry"} <= set(body)
        assert (await client.get("/variants/nowhere")).status_code == 404


def test_gzip_bytes_are_a_gzip_of_the_document() -> None:
    from shared.http.caching import _prepared

    body = b'{"x": "' + b"y" * 5000 + b'"}'
    assert gzip.decompress(_prepared(body)[1]) == body


async def test_answers_that_are_not_json_say_how_to_read_them(sqlite_url: str) -> None:
    async with running_app(settings_for(sqlite_url)) as (app, _):
        paths = app.openapi()["paths"]

    def ok(path: str) -> dict:
        return paths[path]["get"]["responses"]["200"]["content"]

    assert ok("/games/{game_id}/map.png")["image/png"]["schema"] == {"type": "string", "format": "binary"}
    assert ok("/games/{game_id}/map.svg")["image/svg+xml"]["schema"]["format"] == "binary"
    assert ok("/games/{game_id}/events")["application/x-ndjson"]["schema"]["type"] == "string"
    # each event of the stream by its schema (docs/api.md, "Unions")
    stream = ok("/games/{game_id}/stream")["text/event-stream"]["schema"]
    assert stream["anyOf"] == [{"$ref": "#/components/schemas/StreamEvent"}, WHOLE_STREAM]
