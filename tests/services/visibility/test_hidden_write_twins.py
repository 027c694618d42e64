"""Twin standard games that differ only in what some seats wrote that nobody else may see
(docs/api.md, "Identifiers that reveal nothing"; docs/hosting.md, "Draws"): a secret draw vote,
or order rewrites, private press between two powers and a secret vote. For every other viewer
(each other power, a signed-in account holding Austria's seat, the host without a seat, a
signed-in account without one, the public) every observable is the same byte for byte in both
twins, before the phase resolves and after: the games list (its order, ``updated_at`` and
cursor), the summary, views now and past, the draw status, the seats, the messages and
conversations (their unread counts, and France and Italy's as others ask for it), possible
orders, an account's ``/me/games`` and ``/me/stream``, the pictures with their headers (ETag
included, and the answer to the ETag read before), the stream's frames (the first, and those
after the id read before the hidden writes), the answers' headers, how many pictures the
process drew, and the webhook deliveries of every other seat and of the host's channel (their
ids, timestamps and signatures checked, then named by their order).

Each twin is a server of its own on a store of its own, on both back ends, with a hand-moved
clock that both twins move alike, so that times compare byte for byte; what differs by nature
(the game's id, the codenames, each webhook's secret) is named alike (tests/utils/twins.py).
"""
from __future__ import annotations

import base64
import hashlib
import json
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import httpx
import pytest
from standardwebhooks.webhooks import Webhook

from services.adjudication.worker import ClockWorker
from services.notifications.delivery import step
from services.visibility.maps.cache import KeptPictures, etag_of
from services.visibility.view import Viewer as PictureViewer
from shared.clock import ManualClock
from shared.rules.variants import get_variant
from shared.store import utc_now
from tests.conftest import _create_database, _create_schema, _drop_database, _server_url, with_database
from tests.utils.http import OPERATOR, POWERS, Host, HostedGame, bearer, running_app, sign_in, social_settings, start_at
from tests.utils.twins import ids_checked, named_alike
from tests.utils.webhook_receiver import Receiver

OPENING = get_variant("standard").opening({"player_count": 7}, 1).state
SKIPPED_HEADERS = {"date", "x-request-id", "content-length"}  # the moment it was answered, a random id, and
# the length (checked, then left out: a codename's length differs between the twins)
# what every viewer may read at any time (the rest answers as it answers: the same in both twins)
ALWAYS_READ = {"list", "list's first page", "summary", "view", "map.svg", "map.png", "stream", "my games",
               "conversations", "my stream", "stream after the id read before", "the variant", "its empty board",
               "the OpenAPI document"}
Viewer = str | None  # a power, "host", "account", "Austria's account", or None: the public


@dataclass
class Twin:
    """One twin: its server (the app, its store, its clock), its game, and who reads it."""

    app: Any
    host: Host
    game: HostedGame
    neighbour: str = ""  # a game created after the twin's last public change, listed before it
    account: dict[str, str] = field(default_factory=dict)  # a signed-in account without a seat
    seated: dict[str, str] = field(default_factory=dict)  # the signed-in account that took Austria's seat
    secrets: dict[str, str] = field(default_factory=dict)  # receiver name -> the webhook's secret
    hooks: dict[str, str] = field(default_factory=dict)  # power or "channel" -> receiver name

    def auth(self, viewer: Viewer) -> dict[str, str]:
        if viewer is None:
            return {}
        if viewer == "host":
            return self.game.host_auth
        if viewer == "account":
            return self.account
        if viewer == "Austria's account":
            return self.seated
        return self.game.player(viewer).auth

    def alike(self, text: str) -> str:
        """``text`` with what differs by nature named alike: the games' ids, the codenames, and the
        seats' ids (which a seat's own account reads in ``/me/games``)."""
        for player in self.game.players:
            text = text.replace(player.player_id, f"<player id of {player.powers[0]}>")
        return named_alike(self.game, text.replace(self.neighbour or "\0", "<neighbour>"))


async def second_store(first: str, tmp_path: Any) -> tuple[str, Callable[[], Awaitable[None]]]:
    """Another empty store on the back end of ``first``, and what drops it."""
    if first.startswith("sqlite"):
        async def nothing() -> None:
            return None
        return f"sqlite:///{tmp_path / 'twin.db'}", nothing
    name = f"entente_twin_{uuid.uuid4().hex[:12]}"
    await _create_database(_server_url(), name)
    url = with_database(_server_url(), name)
    await _create_schema(url)
    return url, lambda: _drop_database(_server_url(), name)


@pytest.fixture
async def servers(store_url: str, provider_url: str, tmp_path: Any) -> AsyncIterator[list[tuple[Any, Host]]]:
    """Two servers, each on its own empty store of the back end, each with its hand-moved clock
    at the same moment."""
    other, drop = await second_store(store_url, tmp_path)
    try:
        async with AsyncExitStack() as stack:
            made = []
            for url in (store_url, other):
                app, client = await stack.enter_async_context(running_app(social_settings(url, provider_url)))
                clock = ManualClock()
                app.state.clock = clock
                made.append((app, Host(client, app.state.store, clock, ClockWorker(app.state.store, clock))))
            yield made
    finally:
        await drop()


async def both(twins: list[Twin], act: Callable[[Twin], Awaitable[None]], minutes: float = 1) -> None:
    """``act`` on each twin, then both clocks a little later."""
    for twin in twins:
        await act(twin)
    for twin in twins:
        twin.host.clock.advance(timedelta(minutes=minutes))


async def set_up(twin: Twin, receiver_url: str, index: int) -> None:
    """Every seat's webhook, the host's channel webhook, and an account signed in without a seat."""
    game, client = twin.game, twin.game.client
    for power in POWERS:
        name = twin.hooks[power] = f"twin{index}-{power}-{game.game_id}"
        answer = await client.put(f"{game.url}/webhook", json={"url": f"{receiver_url}/ok/{name}"},
                                  headers=game.player(power).auth)
        assert answer.status_code == 200, answer.text
        twin.secrets[name] = answer.json()["secret"]
    name = twin.hooks["channel"] = f"twin{index}-channel-{game.game_id}"
    answer = await client.put(f"{game.url}/channel-webhook", json={"url": f"{receiver_url}/ok/{name}"},
                              headers=game.host_auth)
    assert answer.status_code == 200, answer.text
    twin.secrets[name] = answer.json()["secret"]


async def order(game: HostedGame, power: str, orders: list[str]) -> None:
    assert (await game.order_ok(power, orders))["rejected"] == 0


async def send(game: HostedGame, sender: str, to: str, text: str) -> None:
    answer = await game.client.post(f"{game.url}/messages", json={"to": [to], "text": text},
                                    headers=game.player(sender).auth)
    assert answer.status_code == 201, answer.text


async def vote(game: HostedGame, power: str) -> None:
    answer = await game.vote(power)
    assert answer.status_code == 200 and answer.json()["passed"] is False, answer.text


async def a_secret_vote(twin: Twin) -> None:
    await vote(twin.game, "FRANCE")


async def hidden_writes(twin: Twin) -> None:
    """France rewrites its orders twice (ending where it began), France and Italy talk (Italy
    marks their conversation read and answers into it), Italy votes for a draw: each a minute
    after the one before."""
    game = twin.game
    for orders in (["A PAR - PIC", "A MAR - SPA"], ["A PAR H"], FRANCE_ORDERS):
        await order(game, "FRANCE", orders)
        twin.host.clock.advance(timedelta(minutes=1))
    await send(game, "FRANCE", "ITALY", "Lepanto? I stay out of Piedmont.")
    twin.host.clock.advance(timedelta(minutes=1))
    read = await game.client.post(f"{game.url}/conversations/FRANCE/read", json={}, headers=game.player("ITALY").auth)
    assert read.status_code == 200 and read.json()["unread"] == 0, read.text
    answer = await game.client.post(f"{game.url}/conversations/FRANCE/messages", json={"text": "Deal."},
                                    headers=game.player("ITALY").auth)
    assert answer.status_code == 201, answer.text
    twin.host.clock.advance(timedelta(minutes=1))
    await vote(game, "ITALY")


FRANCE_ORDERS = ["A PAR - BUR", "A MAR - PIE", "F BRE - MAO"]
# name: (what the second twin's seats do that the first's do not, the powers that know it)
SCENARIOS: dict[str, tuple[Callable[[Twin], Awaitable[None]], set[str]]] = {
    "a secret draw vote": (a_secret_vote, {"FRANCE"}),
    "order rewrites, private press and a secret vote": (hidden_writes, {"FRANCE", "ITALY"}),
}


def without_request_headers(response: httpx.Response, etag: str) -> str:
    """The answer's headers but the request's own, its length checked (the bodies are compared
    once their ids and codenames, whose lengths differ, are named alike), its ETag as ``etag``
    names it."""
    if "content-length" in response.headers and "content-encoding" not in response.headers:  # gzip: its own
        assert int(response.headers["content-length"]) == len(response.content)
    assert uuid.UUID(hex=response.headers["x-request-id"]).version == 4  # random: it counts nothing
    return repr(sorted((k, etag if k == "etag" else v) for k, v in response.headers.items()
                       if k not in SKIPPED_HEADERS))


def picture_viewer(twin: Twin, viewer: Viewer) -> PictureViewer:
    """Whom the server draws for: a seat as its power, anyone else as the public."""
    viewer = "AUSTRIA" if viewer == "Austria's account" else viewer
    if viewer in POWERS:
        player = twin.game.player(viewer)
        return PictureViewer("power", viewer, player.codename, (viewer,), player.player_id)
    return PictureViewer.public()


def etag_named(twin: Twin, viewer: Viewer, name: str, response: httpx.Response, before: dict[str, str] | None) -> str:
    """A picture's ETag (a digest of the viewer, whose codename and id differ between the twins,
    and of what was drawn: services/visibility/maps/cache.py): an SVG's checked to be the digest
    of the bytes sent; then named by whether it is the one this viewer read before the hidden
    writes, so that a picture redrawn for one twin shows."""
    etag = response.headers.get("etag")
    if etag is None or not name.startswith("map."):
        return etag or "<none>"  # no ETag, or a document's: compared as it is
    if name.startswith("map.svg") and response.status_code == 200:
        digest = hashlib.blake2b(b"svg\0" + response.content, digest_size=20).hexdigest()
        assert etag == etag_of("svg", picture_viewer(twin, viewer), digest), name
    if before is None:
        return "<an ETag>"
    return "<the ETag read before>" if before.get(f"etag {name}") == etag else "<an ETag not read before>"


def cursor_named(twin: Twin, text: str) -> str:
    """A games list with its next cursor (base64 of a game's id and time: docs/api.md, "Lists that
    grow") decoded, so that the id in it is named alike too."""
    page = json.loads(text)
    cursor = page.get("next_cursor")
    if cursor:
        decoded = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        text = text.replace(cursor, f"<cursor of {decoded}>")
    return twin.alike(text)


def seats_by_power(text: str) -> str:
    """The seats list (sorted by codename: random names, so a random order) sorted by power."""
    page = json.loads(text)
    page["seats"] = sorted(page["seats"], key=lambda seat: seat["powers"])
    return json.dumps(page, separators=(",", ":"))


async def observed(twin: Twin, viewer: Viewer, before: dict[str, str] | None = None) -> dict[str, str]:
    """Everything ``viewer`` reads of the game and the lobby, each answer with its status and
    headers; ``before`` (what it read earlier) gives the ETag and the stream's id to ask after."""
    game, client, auth = twin.game, twin.game.client, twin.auth(viewer)
    asked: dict[str, tuple[str, dict[str, Any]]] = {
        "list": ("/games", {"limit": 100}), "list's first page": ("/games", {"limit": 1}),
        "summary": (game.url, {}), "view": (f"{game.url}/view", {}),
        "view of S1901M": (f"{game.url}/view", {"phase": "S1901M"}),
        "draw": (f"{game.url}/draw", {}), "seats": (f"{game.url}/seats", {}),
        "messages": (f"{game.url}/messages", {}), "conversations": (f"{game.url}/conversations", {}),
        "France and Italy's conversation": (f"{game.url}/conversations/FRANCE,ITALY/messages", {}),
        "possible orders": (f"{game.url}/possible-orders", {}),
        "map.svg": (f"{game.url}/map.svg", {}), "map.svg of S1901M": (f"{game.url}/map.svg", {"phase": "S1901M"}),
        "map.png": (f"{game.url}/map.png", {}), "stream": (f"{game.url}/stream", {"timeout": 0.1}),
        # the documents' ETags: digests of public bytes, the same whatever the log holds
        "the variant": ("/variants/standard", {}), "its empty board": ("/variants/standard/map.svg", {}),
        "the OpenAPI document": ("/openapi.json", {}),
    }
    if viewer in ("account", "Austria's account"):  # an account's own games, and their stream
        asked["my games"] = ("/me/games", {})
        asked["my stream"] = ("/me/stream", {"timeout": 0.1})
    if before is not None and "last id" in before:
        asked["stream after the id read before"] = (f"{game.url}/stream",
                                                    {"timeout": 0.1, "last_event_id": before["last id"]})
    seen = {}
    for name, (path, params) in asked.items():
        response = await client.get(path, params=params, headers=auth)
        if name in ALWAYS_READ:
            assert response.status_code == 200, (name, response.text)
        etag = etag_named(twin, viewer, name, response, before)
        seen[f"etag {name}"] = response.headers.get("etag", "")
        if name.startswith("map.png"):
            body = hashlib.sha256(response.content).hexdigest()
        elif name.startswith("stream") and response.status_code == 200:
            body = ids_checked(response.text)
            ids = [line[4:] for line in response.text.split("\n") if line.startswith("id: ")]
            if name == "stream":
                assert ids, response.text  # the first frame: the whole view, with its id
                seen["last id"] = ids[-1]
        elif name.startswith("list"):
            body = cursor_named(twin, response.text)
        elif name == "seats" and response.status_code == 200:
            body = seats_by_power(response.text)
        else:
            body = response.text
        seen[name] = twin.alike(f"{response.status_code} {without_request_headers(response, etag)} {body}")
    if before is not None:
        again = await client.get(f"{game.url}/map.svg", headers={**auth, "if-none-match": before["etag map.svg"]})
        seen["map.svg if not the one read before"] = twin.alike(f"{again.status_code} {again.text}")
    return seen


def drawings(twin: Twin) -> int:
    """How many pictures the twin's process drew (misses of its picture cache): a redraw is
    seen by its time."""
    kept = twin.host.store.kept(KeptPictures).pictures
    return kept.requests.misses if kept is not None else 0


def deliveries(twin: Twin, receiver: Receiver, hook: str) -> list[str]:
    """The deliveries to one webhook, each verified by Standard Webhooks with its secret; the
    id named by its order (an HMAC of a key holding the game's own ids and log positions, keyed
    by the server's secret: tests/services/notifications/test_signed_deliveries.py shows it
    depends on that secret), the timestamp and signature as checked, the rest as sent."""
    name = twin.hooks[hook]
    ids: dict[str, str] = {}
    seen = []
    for headers, body in receiver.requests[name]:
        Webhook(twin.secrets[name]).verify(body, headers)  # the signature, and a timestamp of now
        label = ids.setdefault(headers["webhook-id"], f"<delivery {len(ids) + 1}>")
        shown = {k: v for k, v in headers.items() if k not in {"webhook-signature", "webhook-timestamp", "host"}}
        shown["webhook-id"] = label
        seen.append(twin.alike(f"{sorted(shown.items())} {body.decode()}"))
    return seen


@pytest.mark.parametrize("scenario", list(SCENARIOS))
async def test_twins_that_differ_in_hidden_writes_look_the_same_to_everyone_else(
        servers: list[tuple[Any, Host]], scenario: str, provider_url: str, receiver: Receiver,
        receiver_url: str, provider: Any) -> None:
    hidden, knowing = SCENARIOS[scenario]
    twins = []
    accounts = {}
    for role in ("watcher", "austria"):  # the same two users sign in to each twin's server
        accounts[role] = f"{role}-{uuid.uuid4().hex[:8]}"
        provider.add_user(accounts[role], role, f"A {role.title()}")
    for index, (app, host) in enumerate(servers):
        signed_in = {role: bearer((await sign_in(app, provider_url, user))["token"])
                     for role, user in accounts.items()}
        game = await start_at(host, OPENING, list(POWERS), first_seat_by=signed_in["austria"], require_ready=True)
        twin = Twin(app, host, game, account=signed_in["watcher"], seated=signed_in["austria"])
        await set_up(twin, receiver_url, index)
        twins.append(twin)
    for twin in twins:
        assert twin.host.clock.now() == twins[0].host.clock.now()
    await both(twins, lambda t: order(t.game, "FRANCE", FRANCE_ORDERS))
    await both(twins, lambda t: order(t.game, "ITALY", ["A VEN H", "A ROM - APU"]))

    async def neighbour(twin: Twin) -> None:  # changed after the twin: listed first until the twin changes
        created = await twin.game.client.post("/games", json={"name": "Neighbour"})
        twin.neighbour = created.json()["id"]

    await both(twins, neighbour)
    viewers: list[Viewer] = [*(p for p in POWERS if p not in knowing), "Austria's account", "host", "account", None]
    read_before = [{viewer: await observed(twin, viewer) for viewer in viewers} for twin in twins]
    drawn = [drawings(twin) for twin in twins]

    await hidden(twins[1])
    twins[0].host.clock.advance(twins[1].host.clock.now() - twins[0].host.clock.now())  # its minutes pass too
    assert twins[0].host.clock.now() == twins[1].host.clock.now()
    for power in knowing:  # the twins do differ: those who wrote see it
        assert await twins[0].game.view(power) != await twins[1].game.view(power), power

    for moment in ("before the phase resolves", "after it resolves"):
        if moment == "after it resolves":
            for twin in twins:
                answer = await twin.game.client.post(f"{twin.game.url}/resolve", json={"phase": "S1901M"},
                                                     headers=OPERATOR)
                assert answer.status_code == 200, answer.text
                twin.host.clock.advance(timedelta(minutes=1))
        for viewer in viewers:
            seen = [await observed(twin, viewer, before[viewer]) for twin, before in zip(twins, read_before,
                                                                                          strict=True)]
            for name in seen[0]:
                if not name.startswith(("etag ", "last id")):
                    assert seen[0][name] == seen[1][name], (scenario, moment, viewer, name)
        assert drawings(twins[0]) - drawn[0] == drawings(twins[1]) - drawn[1], moment  # no redraw for one twin
    listed = (await twins[1].game.client.get("/games")).json()["games"]
    assert [g["id"] for g in listed] == [twins[1].game.game_id, twins[1].neighbour]  # the resolution is seen

    now = utc_now()
    for twin in twins:
        await step(twin.host.store, twin.app.state.settings, now)
    for hook in [*(p for p in POWERS if p not in knowing), "channel"]:
        sent = [deliveries(twin, receiver, hook) for twin in twins]
        assert sent[0], hook  # the resolution at least
        assert sent[0] == sent[1], (scenario, hook)
    for power in knowing - {"FRANCE"}:  # Italy's webhook told it of France's message in one twin only
        assert len(receiver.requests[twins[1].hooks[power]]) > len(receiver.requests[twins[0].hooks[power]])
