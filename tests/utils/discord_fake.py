"""A local fake of Discord's REST API, on 127.0.0.1, for the notification tests.

As Discord documents it: ``POST /users/@me/channels`` (``{"recipient_id"}``, bot token) opens a
DM channel; ``POST /channels/{id}/messages`` posts to it; ``POST /webhooks/{id}/{token}``
executes a webhook. Both take JSON or multipart (``payload_json`` and ``files[n]``). Every
message is checked against Discord's documented limits, as Discord would refuse it (400), and
recorded with its attachments. ``rate_limit(route, times, retry_after)`` makes the next calls
of a route answer 429 with Discord's body and headers; ``bucket_empty(route)`` makes the next
answer carry ``X-RateLimit-Remaining: 0``. Buckets are named as Discord names them, one hash
per route whatever its major parameter (``bucket-messages`` for every channel's messages), so a
client must tell limits apart by bucket and major parameter. ``user_agents`` keeps each
request's User-Agent; a webhook execution's ``?thread_id=`` is kept with what it sent.
"""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

BOT_TOKEN = "fake-discord-bot-token-0123456789"
CONTENT, EMBEDS, TITLE, DESCRIPTION, FIELDS, NAME, VALUE, FOOTER, TOTAL = 2000, 10, 256, 4096, 25, 256, 1024, 2048, 6000
UPLOAD = 10 * 1024 * 1024


@dataclass
class Sent:
    route: str  # "dm" or "webhook"
    to: str  # the DM's user id, or the webhook's id
    payload: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    thread_id: str | None = None


def limit_violations(payload: dict[str, Any], files: dict[str, bytes]) -> list[str]:
    problems = []
    if len(payload.get("content") or "") > CONTENT:
        problems.append("content")
    embeds = payload.get("embeds") or []
    if len(embeds) > EMBEDS:
        problems.append("embeds")
    total = 0
    for embed in embeds:
        total += len(embed.get("title", "")) + len(embed.get("description", ""))
        total += len((embed.get("footer") or {}).get("text", ""))
        if len(embed.get("title", "")) > TITLE or len(embed.get("description", "")) > DESCRIPTION:
            problems.append("embed text")
        if len((embed.get("footer") or {}).get("text", "")) > FOOTER:
            problems.append("footer")
        fields = embed.get("fields") or []
        if len(fields) > FIELDS:
            problems.append("fields")
        for f in fields:
            total += len(f["name"]) + len(f["value"])
            if not f["name"] or not f["value"] or len(f["name"]) > NAME or len(f["value"]) > VALUE:
                problems.append("field")
    if total > TOTAL:
        problems.append("embeds total")
    if sum(len(b) for b in files.values()) > UPLOAD:
        problems.append("upload")
    named = {a["filename"] for a in payload.get("attachments", [])}
    if files and len(named) != len(files):
        problems.append("attachments")
    if not (payload.get("content") or embeds or files):
        problems.append("empty message")
    return problems


class FakeDiscord:
    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.channels: dict[str, str] = {}  # channel id -> user id
        self.requests: list[str] = []  # every route hit, in order
        self.user_agents: list[str] = []
        self._limited: dict[str, list[float]] = defaultdict(list)
        self._empty: set[str] = set()
        self.unreachable: set[str] = set()  # user ids whose DMs answer 403 (50007)

    def rate_limit(self, route: str, times: int, retry_after: float, *, global_: bool = False) -> None:
        self._limited[route] += [retry_after if not global_ else -retry_after] * times

    def bucket_empty(self, route: str) -> None:
        self._empty.add(route)

    def to_user(self, user_id: str) -> list[Sent]:
        return [s for s in self.sent if s.route == "dm" and s.to == user_id]

    def to_webhook(self, webhook_id: str) -> list[Sent]:
        return [s for s in self.sent if s.route == "webhook" and s.to == webhook_id]

    def _throttled(self, route: str) -> Response | None:
        if not self._limited[route]:
            return None
        wait = self._limited[route].pop(0)
        is_global = wait < 0
        wait = abs(wait)
        headers = {"Retry-After": str(max(1, round(wait))), "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                   "X-RateLimit-Reset-After": str(wait), "X-RateLimit-Bucket": self._bucket(route)}
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        return JSONResponse({"message": "You are being rate limited.", "retry_after": wait, "global": is_global},
                            status_code=429, headers=headers)

    def _headers(self, route: str) -> dict[str, str]:
        remaining = "0" if route in self._empty else "4"
        self._empty.discard(route)
        return {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": remaining, "X-RateLimit-Reset-After": "0.05",
                "X-RateLimit-Bucket": self._bucket(route)}

    @staticmethod
    def _bucket(route: str) -> str:
        return "bucket-" + route.split(":", 1)[0]

    @staticmethod
    async def _message(request: Request) -> tuple[dict[str, Any], dict[str, bytes]]:
        """The message of a JSON or multipart body (read with the standard library's MIME
        parser): ``payload_json`` and the files by their file names."""
        content_type = request.headers.get("content-type", "")
        body = await request.body()
        if not content_type.startswith("multipart/form-data"):
            return json.loads(body), {}
        mime = BytesParser(policy=policy.default).parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + body)
        payload: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        for part in mime.iter_parts():
            name = part.get_param("name", header="content-disposition")
            data = part.get_payload(decode=True) or b""
            assert isinstance(data, bytes)  # a multipart form's part, decoded
            if name == "payload_json":
                payload = json.loads(data)
            elif isinstance(name, str) and name.startswith("files["):
                files[part.get_filename() or name] = data
        return payload, files

    def _authorised(self, request: Request) -> bool:
        self.user_agents.append(request.headers.get("user-agent", ""))
        return request.headers.get("authorization") == f"Bot {BOT_TOKEN}"

    async def open_dm(self, request: Request) -> Response:
        self.requests.append("dm")
        if not self._authorised(request):
            return JSONResponse({"message": "401: Unauthorized", "code": 0}, status_code=401)
        if (limited := self._throttled("dm")) is not None:
            return limited
        user_id = str((await request.json())["recipient_id"])
        channel_id = f"c{user_id}"
        self.channels[channel_id] = user_id
        return JSONResponse({"id": channel_id, "type": 1, "recipients": [{"id": user_id}]}, headers=self._headers("dm"))

    async def post_message(self, request: Request) -> Response:
        channel_id = request.path_params["channel_id"]
        route = f"messages:{channel_id}"
        self.requests.append(route)
        if not self._authorised(request) or channel_id not in self.channels:
            return JSONResponse({"message": "Unknown Channel", "code": 10003}, status_code=404)
        if (limited := self._throttled(route)) is not None:
            return limited
        if self.channels[channel_id] in self.unreachable:
            return JSONResponse({"message": "Cannot send messages to this user", "code": 50007}, status_code=403)
        payload, files = await self._message(request)
        if problems := limit_violations(payload, files):
            return JSONResponse({"message": "Invalid Form Body", "code": 50035, "errors": problems}, status_code=400)
        self.sent.append(Sent("dm", self.channels[channel_id], payload, files))
        return JSONResponse({"id": str(len(self.sent)), "channel_id": channel_id}, headers=self._headers(route))

    async def execute_webhook(self, request: Request) -> Response:
        webhook_id = request.path_params["webhook_id"]
        route = f"webhook:{webhook_id}"
        self.requests.append(route)
        if (limited := self._throttled(route)) is not None:
            return limited
        payload, files = await self._message(request)
        if problems := limit_violations(payload, files):
            return JSONResponse({"message": "Invalid Form Body", "code": 50035, "errors": problems}, status_code=400)
        self.user_agents.append(request.headers.get("user-agent", ""))
        self.sent.append(Sent("webhook", webhook_id, payload, files, request.query_params.get("thread_id")))
        return Response(status_code=204, headers=self._headers(route))

    def app(self) -> Starlette:
        return Starlette(routes=[
            Route("/api/v10/users/@me/channels", self.open_dm, methods=["POST"]),
            Route("/api/v10/channels/{channel_id}/messages", self.post_message, methods=["POST"]),
            Route("/api/webhooks/{webhook_id}/{token}", self.execute_webhook, methods=["POST"]),
        ])
