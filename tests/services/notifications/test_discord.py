"""Discord (docs/social.md, "Discord"): a player signed in with Discord gets their seat's
notifications as direct messages from the bot, everyone else at their own webhook, and the
host's channel webhook the public events; payloads within Discord's documented limits, the
recipient's own map attached. Against a local fake of Discord's API (tests/utils/discord_fake.py)."""
from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import httpx
import pytest

from services.notifications import discord, outbox
from services.notifications.delivery import step
from services.visibility.maps.attachments import notification_map
from shared.store import utc_now
from tests.utils.discord_fake import BOT_TOKEN, FakeDiscord, limit_violations
from tests.utils.http import bearer, running_app, sign_in, social_settings
from tests.utils.oauth_provider import LocalProvider, serve_in_thread

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def fake() -> FakeDiscord:
    return FakeDiscord()


@pytest.fixture(scope="module")
def fake_url(fake: FakeDiscord) -> Iterator[str]:
    with serve_in_thread(fake.app()) as url:
        yield url


@pytest.fixture
async def discord_app(sqlite_url: str, provider_url: str,
                      fake_url: str) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    settings = social_settings(sqlite_url, provider_url, discord_bot_token=BOT_TOKEN,
                               discord_api_url=f"{fake_url}/api/v10")
    async with running_app(settings) as opened:
        yield opened


async def mixed_table(app: Any, client: httpx.AsyncClient, provider: LocalProvider, provider_url: str,
                      signed_in: int = 2) -> dict[str, Any]:
    """A started game: the first ``signed_in`` seats taken by Discord accounts, the rest with
    plain seat tokens. POWER -> {"auth", "discord_id" or None}."""
    created = (await client.post("/games", json={"name": "Discord game", "settings": {"require_ready": True}})).json()
    seats: list[tuple[dict[str, str], str | None]] = []
    for index in range(7):
        if index < signed_in:
            user = f"{700 + index}{created['id'][2:8]}"
            provider.add_user(user, f"user{index}")
            token = (await sign_in(app, provider_url, user))["token"]
            joined = await client.post(f"/games/{created['id']}/players", headers=bearer(token))
            seats.append((bearer(token), user))
        else:
            joined = await client.post(f"/games/{created['id']}/players")
            seats.append((bearer(joined.json()["token"]), None))
        assert joined.status_code == 201, joined.text
    started = await client.post(f"/games/{created['id']}/start", headers=bearer(created["host_token"]))
    assert started.status_code == 200
    table: dict[str, Any] = {"id": created["id"], "host": bearer(created["host_token"]), "powers": {}}
    for auth, discord_id in seats:
        power = (await client.get(f"/games/{created['id']}/view", headers=auth)).json()["viewer"]["power"]
        table["powers"][power] = {"auth": auth, "discord_id": discord_id}
    return table


def signed(table: dict[str, Any]) -> list[str]:
    return sorted(p for p, seat in table["powers"].items() if seat["discord_id"])


async def test_direct_messages_webhooks_and_the_channel_each_get_their_own(
        discord_app, fake: FakeDiscord, fake_url: str, provider: LocalProvider, provider_url: str) -> None:
    app, client = discord_app
    store, settings = app.state.store, app.state.settings
    table = await mixed_table(app, client, provider, provider_url)
    game, powers = table["id"], table["powers"]
    first, second = signed(table)
    plain = next(p for p, seat in powers.items() if not seat["discord_id"])
    channel_hook, plain_hook = f"c{game[2:]}", f"p{game[2:]}"
    set_channel = await client.put(f"/games/{game}/channel-webhook", headers=table["host"],
                                   json={"url": f"{fake_url}/api/webhooks/{channel_hook}/token"})
    assert set_channel.status_code == 200, set_channel.text
    assert (await client.get(f"/games/{game}/channel-webhook", headers=powers[plain]["auth"])).status_code == 403
    assert (await client.put(f"/games/{game}/webhook", headers=powers[plain]["auth"],
                             json={"url": f"{fake_url}/api/webhooks/{plain_hook}/token"})).status_code == 200
    await client.post(f"/games/{game}/messages", headers=powers[plain]["auth"],
                      json={"to": [first], "text": "a word in private"})
    await client.post(f"/games/{game}/messages", headers=powers[plain]["auth"], json={"to": "all", "text": "hello"})
    await client.put(f"/games/{game}/orders", headers=powers[first]["auth"], json={"orders": []})
    ordered = {"FRANCE": "A PAR - BUR", "GERMANY": "A MUN - BUR", "ITALY": "A VEN - TYR"}
    for power, order in ordered.items():
        await client.put(f"/games/{game}/orders", headers=powers[power]["auth"], json={"orders": [order]})
    resolved = await client.post(f"/games/{game}/resolve", headers=table["host"], json={"phase": "S1901M"})
    assert resolved.status_code == 200

    render = partial(notification_map, store, settings)
    report = await step(store, settings, utc_now(), render=render)
    assert report.errors == [] and report.dead == 0

    def kinds(sent: list) -> list[str]:
        return [s.payload["entente"]["kind"] for s in sent]

    to_first, to_second = fake.to_user(powers[first]["discord_id"]), fake.to_user(powers[second]["discord_id"])
    assert kinds(to_first) == ["message_received", "message_received", "phase_resolved"]
    assert kinds(to_second) == ["message_received", "phase_resolved"]  # the private word was not for it
    assert to_first[0].payload["entente"]["text"] == "a word in private"
    assert kinds(fake.to_webhook(plain_hook)) == ["phase_resolved"]  # its own messages are not sent back
    assert kinds(fake.to_webhook(channel_hook)) == ["phase_resolved"]  # public events only
    # the results as the public sees them, in an embed; the map of each recipient's own view
    public_map = (await client.get(f"/games/{game}/map.png", params={"phase": "S1901M"})).content
    sent_to: list[tuple[Any, str | None]] = [(to_first[-1], first), (fake.to_webhook(plain_hook)[0], plain),
                                             (fake.to_webhook(channel_hook)[0], None)]
    for sent, recipient in sent_to:
        payload = sent.payload
        assert "_map" not in payload and limit_violations(payload, sent.files) == []
        assert payload["allowed_mentions"] == {"parse": []} and payload["embeds"][0]["title"] == "S1901M resolved"
        assert payload["embeds"][0]["image"] == {"url": "attachment://map.png"}
        assert {f["name"]: f["value"] for f in payload["embeds"][0]["fields"]} == {
            "France": "A PAR - BUR (fails)", "Germany": "A MUN - BUR (fails)", "Italy": "A VEN - TYR"}
        [png] = sent.files.values()
        assert png.startswith(PNG_SIGNATURE)
        headers = powers[recipient]["auth"] if recipient else {}
        own_map = await client.get(f"/games/{game}/map.png", params={"phase": "S1901M"}, headers=headers)
        assert png == own_map.content
    assert fake.to_webhook(channel_hook)[0].files["map.png"] == public_map
    assert "your_powers" not in fake.to_webhook(channel_hook)[0].payload["entente"]

    # a month later the reminders of F1901M: a Discord timestamp, to whoever must act, and the channel
    await step(store, settings, utc_now() + timedelta(days=30), render=render)
    reminder = fake.to_user(powers[first]["discord_id"])[-1].payload
    deadline = (await client.get(f"/games/{game}")).json()["clock"]["deadline"]
    stamp = discord.timestamp(datetime.fromisoformat(deadline))
    assert reminder["entente"]["kind"] == "deadline_approaching" and stamp in reminder["content"]
    assert stamp.endswith(":R>") and fake.to_webhook(channel_hook)[-1].payload["entente"]["kind"] == (
        "deadline_approaching")
    rows = await outbox.notifications(store, game)
    recipients = {r["player_id"] for r in rows}
    assert "#channel" in recipients and sum(r.endswith("@discord") for r in recipients) == 2
    assert {r["status"] for r in rows} <= {"delivered", "cancelled"}, [(r["kind"], r["status"]) for r in rows]


async def test_rate_limits_are_waited_for_or_handed_back_to_the_outbox(
        discord_app, fake: FakeDiscord, provider: LocalProvider, provider_url: str) -> None:
    app, client = discord_app
    store, settings = app.state.store, app.state.settings
    table = await mixed_table(app, client, provider, provider_url, signed_in=1)
    game, [power] = table["id"], signed(table)
    user = table["powers"][power]["discord_id"]
    # a short wait (429 with retry_after in the body) is waited for in place, and the message goes
    fake.rate_limit("dm", 1, 0.05)
    fake.rate_limit(f"messages:c{user}", 1, 0.05)
    await client.post(f"/games/{game}/messages", headers=next(
        s["auth"] for p, s in table["powers"].items() if p != power), json={"to": [power], "text": "first"})
    report = await step(store, settings, utc_now())
    assert report.delivered == 1 and [s.payload["entente"]["text"] for s in fake.to_user(user)] == ["first"]
    assert fake.requests.count("dm") >= 2 and fake.requests.count(f"messages:c{user}") >= 2
    # a long one (a global limit of a minute): the row is retried when Discord says, not sooner
    fake.rate_limit(f"messages:c{user}", 1, 60.0, global_=True)
    await client.post(f"/games/{game}/messages", headers=next(
        s["auth"] for p, s in table["powers"].items() if p != power), json={"to": [power], "text": "second"})
    now = utc_now()
    report = await step(store, settings, now)
    assert report.retrying == 1
    [row] = [r for r in await outbox.notifications(store, game)
             if r["status"] == "pending" and r["kind"] == "message_received"]
    assert row["last_error"] == "Discord: posting the message: rate limited"
    assert row["next_attempt_at"] - now >= timedelta(seconds=59)
    later = await step(store, settings, row["next_attempt_at"])
    assert later.delivered == 1 and [s.payload["entente"]["text"] for s in fake.to_user(user)][-1] == "second"


async def test_without_a_bot_token_everyone_keeps_their_webhook(social, receiver, receiver_url: str,
                                                               provider: LocalProvider, provider_url: str) -> None:
    app, client = social
    table = await mixed_table(app, client, provider, provider_url, signed_in=2)
    game = table["id"]
    await client.post(f"/games/{game}/resolve", headers=table["host"], json={"phase": "S1901M"})
    await step(app.state.store, app.state.settings, utc_now())
    assert not any(r["player_id"].endswith("@discord") for r in await outbox.notifications(app.state.store, game))


def test_payloads_are_cut_to_discords_documented_limits() -> None:
    huge = {"content": "x" * 5000, "embeds": [
        {"title": "t" * 300, "description": "d" * 5000, "footer": {"text": "f" * 3000},
         "fields": [{"name": "n" * 300, "value": "v" * 2000} for _ in range(30)]} for _ in range(12)]}
    assert len(discord.limit_problems(huge)) > 5
    cut = discord.fitted(huge)
    assert discord.limit_problems(cut) == [] and limit_violations(cut, {}) == []
    assert len(cut["content"]) == 2000 and cut["content"].endswith("…") and len(cut["embeds"]) <= 10
    assert discord.limit_problems({"content": "ok"}, b"x" * (discord.ATTACHMENT_BYTES + 1)) == [
        f"attachment larger than {discord.ATTACHMENT_BYTES} bytes"]
    data, files = discord.with_map({"content": "board", "embeds": []}, PNG_SIGNATURE)
    assert files == {"files[0]": ("map.png", PNG_SIGNATURE, "image/png")}
    assert '"attachment://map.png"' in data["payload_json"] and '"filename": "map.png"' in data["payload_json"]


class SteppedClock:
    """A monotonic clock that moves only when the bot sleeps: every wait is seen, none is slept."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 3))
        self.now += seconds


async def test_the_bot_names_itself_and_keeps_to_discords_buckets_and_global_limit(
        fake: FakeDiscord, fake_url: str) -> None:
    clock = SteppedClock()
    bot = discord.DiscordBot(f"{fake_url}/api/v10", BOT_TOKEN, sleep=clock.sleep, clock=clock,
                             bot_url="https://entente.example")
    try:
        heard = len(fake.user_agents)
        assert await bot.send_dm("910001", {"content": "one"}, None) == (None, None)
        assert fake.user_agents[heard:] == ["DiscordBot (https://entente.example, 0.1.0)"] * 2
        assert bot.limits.bucket_of(discord.MESSAGE_ROUTE) == "bucket-messages"  # learnt from the answer
        assert await bot.send_dm("910002", {"content": "two"}, None) == (None, None)

        # the bucket is empty for one channel: the next message there waits for its reset, one to
        # another channel of the same bucket (another major parameter) does not
        fake.bucket_empty("messages:c910001")
        assert await bot.send_dm("910001", {"content": "empty now"}, None) == (None, None)
        assert await bot.send_dm("910002", {"content": "other channel"}, None) == (None, None)
        assert clock.sleeps == []
        assert await bot.send_dm("910001", {"content": "after the reset"}, None) == (None, None)
        assert clock.sleeps == [0.05]

        # a global 429 holds every route, not only the one that met it: a long hold is handed back
        fake.rate_limit("messages:c910001", 1, 30.0, global_=True)
        requests = len(fake.requests)
        error, wait = await bot.send_dm("910001", {"content": "held"}, None)
        assert error == "Discord: posting the message: rate limited" and wait is not None and wait > 29
        error, wait = await bot.send_dm("910002", {"content": "held too"}, None)
        assert error is not None and wait is not None and wait > 29
        assert len(fake.requests) == requests + 1  # the second was never sent
        clock.now += 30

        # at most 50 requests a second over all routes: the 51st waits for the second to pass
        clock.sleeps.clear()
        for index in range(55):
            assert await bot.send_dm("910002", {"content": f"burst {index}"}, None) == (None, None)
        assert len(clock.sleeps) == 1 and 0 < clock.sleeps[0] <= 1.0
    finally:
        await bot.aclose()
    texts = [s.payload["content"] for s in fake.to_user("910002")]
    assert texts[:2] == ["two", "other channel"] and texts[-55:] == [f"burst {i}" for i in range(55)]


async def test_the_channel_webhook_posts_into_its_thread_where_one_is_set(
        discord_app, fake: FakeDiscord, fake_url: str, provider: LocalProvider, provider_url: str) -> None:
    app, client = discord_app
    store, settings = app.state.store, app.state.settings
    table = await mixed_table(app, client, provider, provider_url, signed_in=0)
    game, hook = table["id"], f"t{table['id'][2:]}"
    url = f"{fake_url}/api/webhooks/{hook}/token"
    for body, where in (({"url": f"{fake_url}/hooks/{hook}", "thread_id": "123456789012345678"}, "body.thread_id"),
                        ({"url": url, "thread_id": "not-a-snowflake"}, "body.thread_id")):
        refused = await client.put(f"/games/{game}/channel-webhook", headers=table["host"], json=body)
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["where"] == where
    assert (await client.get(f"/games/{game}/channel-webhook", headers=table["host"])).json() == {
        "url": None, "thread_id": None}
    thread = "1180000000000000001"
    set_channel = await client.put(f"/games/{game}/channel-webhook", headers=table["host"],
                                   json={"url": url, "thread_id": thread})
    assert set_channel.status_code == 200, set_channel.text
    assert (await client.get(f"/games/{game}/channel-webhook", headers=table["host"])).json() == {
        "url": url, "thread_id": thread}
    resolved = await client.post(f"/games/{game}/resolve", headers=table["host"], json={"phase": "S1901M"})
    assert resolved.status_code == 200
    await step(store, settings, utc_now())
    [sent] = fake.to_webhook(hook)
    assert sent.thread_id == thread and sent.payload["entente"]["kind"] == "phase_resolved"
    assert fake.user_agents[-1] == f"DiscordBot ({settings.discord_bot_url}, 0.1.0)"  # webhooks name the caller too
    # set again without a thread: the channel itself
    await client.put(f"/games/{game}/channel-webhook", headers=table["host"], json={"url": url})
    resolved = await client.post(f"/games/{game}/resolve", headers=table["host"], json={"phase": "F1901M"})
    assert resolved.status_code == 200
    await step(store, settings, utc_now())
    assert [s.thread_id for s in fake.to_webhook(hook)] == [thread, None]
