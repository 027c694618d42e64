"""Discord: messages in its format within its documented limits, and a bot that sends a signed-in
player's notifications as direct messages (docs/social.md, "Discord").

The pure part: ``timestamp`` (a deadline as ``<t:UNIX:R>``, which every reader's client shows in
their own time zone and language), ``fitted`` (a payload cut to Discord's limits: content 2000
characters, 10 embeds, title 256, description 4096, 25 fields of 256 and 1024, footer 2048,
author 256, 6000 characters over all embeds), ``limit_problems`` (what breaks them) and
``with_map`` (the body of a message with the map PNG attached, multipart as Discord takes it:
``payload_json`` and ``files[0]``, the embed's image ``attachment://map.png``).

``DiscordBot``: Discord's REST API with a bot token, at ``ENTENTE_DISCORD_API_URL`` (a local fake
in the tests), with the User-Agent Discord requires (``DiscordBot (URL, VERSION)``). A direct
message opens the DM channel for the user's Discord id (``POST /users/@me/channels``), then
posts to it (``POST /channels/{id}/messages``). Rate limits as Discord documents them
(``discord_limits.py``): by ``X-RateLimit-Bucket`` and the major parameter, and the global
limit; a 429 says how long to wait (``retry_after`` in its JSON body, else the ``Retry-After``
header); a short wait is waited here and the request sent again, a long one is handed back so
that the outbox retries the row then.
"""
from __future__ import annotations

import asyncio
import importlib.metadata
import json
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode, urlsplit

from .discord_limits import RateLimits

if TYPE_CHECKING:  # loaded by a delivery, not by a server's start (docs/testing.md, "A server's start")
    import httpx

CONTENT = 2000
EMBEDS = 10
TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
ATTACHMENT_BYTES = 10 * 1024 * 1024  # the default upload limit of a message (bots and webhooks)
MAP_NAME = "map.png"
DM_PREFIX = "discord-dm:"  # an outbox row's address for a direct message: discord-dm:{Discord user id}
LONGEST_WAIT = 5.0  # seconds a rate limit is waited for in place; longer: the outbox retries later
TRIES = 3


def is_discord_webhook(url: str) -> bool:
    """Whether a webhook URL has the shape of Discord's (``…/api/webhooks/{id}/{token}``, maybe
    with a version): only those get the map as a multipart attachment; any other webhook gets
    the JSON payload alone, which every receiver reads."""
    path = urlsplit(url).path.rstrip("/").split("/")
    return "webhooks" in path and path.index("webhooks") >= 1 and path[path.index("webhooks") - 1] in (
        "api", "v9", "v10") and len(path) - path.index("webhooks") == 3


def in_thread(url: str, thread_id: str | None) -> str:
    """A Discord webhook's URL posting into one thread of its channel (``?thread_id=``, as
    Discord's "Execute Webhook" takes it); the URL itself without a thread."""
    if not thread_id:
        return url
    return f"{url}{'&' if urlsplit(url).query else '?'}{urlencode({'thread_id': thread_id})}"


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp: ``R`` relative (in 2 hours), ``f`` date and time, in the reader's zone."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _embed_length(embed: dict[str, Any]) -> int:
    return (len(embed.get("title", "")) + len(embed.get("description", ""))
            + len((embed.get("footer") or {}).get("text", "")) + len((embed.get("author") or {}).get("name", ""))
            + sum(len(f.get("name", "")) + len(f.get("value", "")) for f in embed.get("fields", [])))


def fitted(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` cut to Discord's limits: texts shortened (with an ellipsis), embeds and fields
    past the counts left out, and fields dropped from the end while the embeds are too long."""
    out = dict(payload)
    if "content" in out:
        out["content"] = _cut(str(out["content"]), CONTENT)
    embeds = []
    for embed in list(out.get("embeds", []))[:EMBEDS]:
        embed = dict(embed)
        for key, limit in (("title", TITLE), ("description", DESCRIPTION)):
            if key in embed:
                embed[key] = _cut(str(embed[key]), limit)
        if "footer" in embed:
            embed["footer"] = {**embed["footer"], "text": _cut(str(embed["footer"].get("text", "")), FOOTER)}
        if "author" in embed:
            embed["author"] = {**embed["author"], "name": _cut(str(embed["author"].get("name", "")), AUTHOR)}
        embed["fields"] = [{**f, "name": _cut(str(f["name"]), FIELD_NAME), "value": _cut(str(f["value"]), FIELD_VALUE)}
                           for f in embed.get("fields", [])[:FIELDS]]
        if not embed["fields"]:
            embed.pop("fields")
        embeds.append(embed)
    while embeds and sum(map(_embed_length, embeds)) > EMBED_TOTAL:
        last = embeds[-1]
        if last.get("fields"):
            last["fields"] = last["fields"][:-1]
        elif len(embeds) > 1:
            embeds.pop()
        else:
            last["description"] = _cut(last.get("description", ""), max(1, EMBED_TOTAL - _embed_length(last)
                                                                        + len(last.get("description", ""))))
            break
    if "embeds" in out:
        out["embeds"] = embeds
    return out


def limit_problems(payload: dict[str, Any], attachment: bytes | None = None) -> list[str]:
    """Every way ``payload`` (and its attachment) breaks Discord's documented limits."""
    problems = []
    if len(payload.get("content", "")) > CONTENT:
        problems.append(f"content longer than {CONTENT}")
    embeds = payload.get("embeds", [])
    if len(embeds) > EMBEDS:
        problems.append(f"more than {EMBEDS} embeds")
    for embed in embeds:
        for key, limit in (("title", TITLE), ("description", DESCRIPTION)):
            if len(embed.get(key, "")) > limit:
                problems.append(f"embed {key} longer than {limit}")
        if len((embed.get("footer") or {}).get("text", "")) > FOOTER:
            problems.append(f"footer longer than {FOOTER}")
        if len(embed.get("fields", [])) > FIELDS:
            problems.append(f"more than {FIELDS} fields")
        for field in embed.get("fields", []):
            if len(field["name"]) > FIELD_NAME or len(field["value"]) > FIELD_VALUE or not field["value"]:
                problems.append(f"field {field['name'][:20]!r} too long or empty")
    if sum(map(_embed_length, embeds)) > EMBED_TOTAL:
        problems.append(f"embeds longer than {EMBED_TOTAL} in all")
    if attachment is not None and len(attachment) > ATTACHMENT_BYTES:
        problems.append(f"attachment larger than {ATTACHMENT_BYTES} bytes")
    return problems


def with_map(payload: dict[str, Any], png: bytes) -> tuple[dict[str, str], dict[str, tuple[str, bytes, str]]]:
    """The multipart body of a message with the map attached (httpx's ``data`` and ``files``):
    the first embed shows it."""
    body = dict(payload)
    body["attachments"] = [{"id": 0, "filename": MAP_NAME}]
    embeds = [dict(e) for e in body.get("embeds", [])] or [{}]
    embeds[0]["image"] = {"url": f"attachment://{MAP_NAME}"}
    body["embeds"] = embeds
    return {"payload_json": json.dumps(body)}, {"files[0]": (MAP_NAME, png, "image/png")}


def message_body(payload: dict[str, Any], png: bytes | None) -> dict[str, Any]:
    """httpx keyword arguments for posting ``payload`` (JSON, or multipart with the map)."""
    if png is None:
        return {"json": payload}
    data, files = with_map(payload, png)
    return {"data": data, "files": files}


def retry_after(response: httpx.Response) -> float | None:
    """How long a 429 asks to wait, in seconds: its body's ``retry_after``, else ``Retry-After``."""
    try:
        found = response.json().get("retry_after")
        if found is not None:
            return max(0.0, float(found))
    except (ValueError, AttributeError):
        pass
    try:
        return max(0.0, float(response.headers.get("retry-after", "")))
    except ValueError:
        return None


Sleep = Callable[[float], Awaitable[None]]
DM_ROUTE = "POST /users/@me/channels"
MESSAGE_ROUTE = "POST /channels/{channel_id}/messages"


def user_agent(url: str) -> str:
    """The User-Agent Discord requires of a bot: ``DiscordBot (URL, VERSION)``."""
    try:
        version = importlib.metadata.version("entente")
    except importlib.metadata.PackageNotFoundError:
        version = "0"
    return f"DiscordBot ({url}, {version})"


class DiscordBot:
    """A bot's REST client: direct messages to users, within Discord's rate limits
    (``discord_limits.py``: by bucket and major parameter, and the global limit)."""

    def __init__(self, api_url: str, token: str, *, timeout: float = 5.0, sleep: Sleep = asyncio.sleep,
                 transport: httpx.AsyncBaseTransport | None = None, bot_url: str = "https://github.com/entente",
                 clock: Callable[[], float] = time.monotonic) -> None:
        import httpx

        self._client = httpx.AsyncClient(base_url=api_url.rstrip("/"), timeout=timeout, transport=transport,
                                         headers={"Authorization": f"Bot {token}", "User-Agent": user_agent(bot_url)})
        self._sleep = sleep
        self._channels: dict[str, str] = {}  # Discord user id -> its DM channel's id
        self.limits = RateLimits(clock)

    async def aclose(self) -> None:
        await self._client.aclose()

    async def send_dm(self, user_id: str, payload: dict[str, Any],
                      png: bytes | None) -> tuple[str | None, float | None]:
        """One direct message: (None, None) when sent, else (why, seconds to wait before a retry)."""
        channel = self._channels.get(user_id)
        if channel is None:
            response, wait = await self._request("POST", "/users/@me/channels", DM_ROUTE, "",
                                                 json={"recipient_id": user_id})
            if response is None or response.status_code != 200:
                return self._failure("opening the DM channel", response), wait
            channel = str(response.json()["id"])
            self._channels[user_id] = channel
        response, wait = await self._request("POST", f"/channels/{channel}/messages", MESSAGE_ROUTE, channel,
                                             **message_body(payload, png))
        if response is not None and 200 <= response.status_code < 300:
            return None, None
        return self._failure("posting the message", response), wait

    @staticmethod
    def _failure(doing: str, response: httpx.Response | None) -> str:
        return f"Discord: {doing}: " + ("rate limited" if response is None else f"HTTP {response.status_code}")

    async def _request(self, method: str, path: str, template: str, major: str,
                       **body: Any) -> tuple[httpx.Response | None, float | None]:
        """The answer to one request (None: still rate limited after waiting what may be
        waited here) and, when held back, how long until it may be sent again."""
        import httpx

        for _ in range(TRIES):
            wait = self.limits.wait(template, major)
            if wait > LONGEST_WAIT:
                return None, wait
            if wait > 0:
                await self._sleep(wait)
            self.limits.sending()
            try:
                response = await self._client.request(method, path, **body)
            except httpx.HTTPError:
                return None, None
            limited = response.status_code == 429
            self.limits.answered(template, major, response.status_code, response.headers,
                                 body_retry_after=retry_after(response) if limited else None,
                                 body_global=limited and _is_global(response))
            if not limited:
                return response, None
        return None, self.limits.longest_hold()


def _is_global(response: httpx.Response) -> bool:
    try:
        return bool(response.json().get("global"))
    except (ValueError, AttributeError):
        return False
