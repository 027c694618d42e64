"""Answers that do not change between releases (the variants' documents and empty boards),
sent once per client: a strong ETag from the bytes, ``If-None-Match`` answered 304, a public
``Cache-Control``, and gzip where the client takes it (docs/api.md, "Caching").
"""
from __future__ import annotations

import gzip
import hashlib
from functools import lru_cache

from starlette.requests import Request
from starlette.responses import Response

MAX_AGE = 3600  # seconds a client may reuse a document without asking; the ETag after that
GZIP_AT = 1024  # bytes: smaller answers are sent as they are


@lru_cache(maxsize=64)
def _prepared(body: bytes) -> tuple[str, bytes]:
    """The ETag of ``body`` and its gzip (both computed once: these documents never change)."""
    return f'"{hashlib.sha256(body).hexdigest()[:32]}"', gzip.compress(body, compresslevel=6, mtime=0)


def _matches(header: str | None, etag: str) -> bool:
    if header is None:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return "*" in tags or etag in tags


def cached_answer(request: Request, body: bytes, media_type: str) -> Response:
    """``body`` as a cacheable answer to ``request``: 304 when the client holds it already."""
    etag, zipped = _prepared(body)
    headers = {"ETag": etag, "Cache-Control": f"public, max-age={MAX_AGE}", "Vary": "Accept-Encoding"}
    if _matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    if len(body) >= GZIP_AT and "gzip" in request.headers.get("accept-encoding", "").lower():
        return Response(zipped, media_type=media_type, headers={**headers, "Content-Encoding": "gzip"})
    return Response(body, media_type=media_type, headers=headers)
