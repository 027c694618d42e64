"""`entente export` and `entente import` carry every stream a game needs to go on (the game,
its orders, press, seats and their account links, bot tokens, webhooks), and secrets (token
hashes, webhook URLs) only with ``--with-secrets``; the MILA export carries the messages and
the press rules (docs/store.md, "Operators' commands")."""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

import pytest

from services.accounts.service import issue_bot_token, sign_in
from services.cli.ops import run
from services.lobby.service import create_game, join_game, start_game
from services.press.service import send_message
from shared.events import GameSettings, to_new_event
from shared.events_social import WebhookSet, webhooks_stream
from shared.game.intake import submit_orders
from shared.game.resolution import resolve_phase
from shared.store import EventStore, open_store
from tests.utils.http import OPERATOR, bearer, running_client

SENT = datetime(2026, 1, 5, 12, tzinfo=UTC)
HOOK = "https://discord.com/api/webhooks/123/secret-part-of-the-url"


@dataclass
class SocialGame:
    game_id: str
    host_token: str
    tokens: dict[str, str] = field(default_factory=dict)  # POWER -> seat token
    bot_token: str = ""
    account_id: str = ""
    hashes: list[str] = field(default_factory=list)  # every token hash the source store holds for it


async def social_game(store: EventStore, press: Literal["full", "public", "none"] = "full") -> SocialGame:
    """A started game: three seats taken by signed-in accounts, a bot token, a webhook,
    public and private messages over two phases."""
    created = await create_game(store, name="Carried", variant="standard", settings=GameSettings(press=press))
    game = SocialGame(created.state.game_id, created.host_token)
    accounts = [await sign_in(store, "discord", f"user-{n}", f"Player {n}") for n in range(3)]
    seats = {}
    for index in range(7):
        account = accounts[index].account if index < 3 else None
        joined = await join_game(store, game.game_id, account_id=account.account_id if account else None)
        seats[joined.player_id] = joined.token
    state = await start_game(store, game.game_id)
    for seat in state.seats:
        assert seat.power is not None  # every seat has its power once the game has started
        game.tokens[seat.power] = seats[seat.player_id]
    game.account_id = accounts[0].account.account_id
    player_of = {seat.power: seat.player_id for seat in state.seats}
    france = player_of["FRANCE"]
    game.bot_token = (await issue_bot_token(store, game.game_id, france, "my bot")).token
    async with store.transaction() as tx:
        await tx.events.append(webhooks_stream(game.game_id), [to_new_event(WebhookSet(player_id=france, url=HOOK))],
                               expected_version=None)
    if press != "none":
        await send_message(store, game.game_id, player_of["ENGLAND"], None, "all", "Hello, Europe", now=SENT)
        if press == "full":
            await send_message(store, game.game_id, player_of["ITALY"], None, ["FRANCE", "AUSTRIA"], "Just us",
                               now=SENT)
    await submit_orders(store, game.game_id, player_of["GERMANY"], ["A MUN - RUH"])
    await resolve_phase(store, game.game_id, "S1901M")
    if press != "none":
        await send_message(store, game.game_id, player_of["GERMANY"], None, "all", "Autumn already", now=SENT)
    records = await store.events.read_all(limit=100_000)
    game.hashes = sorted({str(value) for r in records
                          if not r.stream_id.startswith("account-")  # sessions: not the game's
                          for key, value in r.data.items() if key.endswith("token_hash")})
    assert len(game.hashes) == 1 + 7 + 1  # the host, the seats, the bot
    return game


def built(url: str, press: Literal["full", "public", "none"] = "full") -> SocialGame:
    async def go() -> SocialGame:
        store = await open_store(url)
        try:
            return await social_game(store, press)
        finally:
            await store.close()

    return asyncio.run(go())


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, SocialGame]:
    url = f"sqlite:///{tmp_path_factory.mktemp('source') / 'source.db'}"
    return url, built(url)


async def command(name: str, *argv: str) -> int:
    """The command as the operator runs it (its own event loop, so off this test's)."""
    return await asyncio.to_thread(run, name, list(argv))


async def exported(url: str, game_id: str, path: Path, *extra: str) -> list[dict]:
    assert await command("export", game_id, "--database", url, "--output", str(path), *extra) == 0
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def streams_of(lines: list[dict]) -> set[str]:
    return {line["stream_id"].split("-", 1)[0] for line in lines}


async def test_with_secrets_the_imported_game_goes_on_for_everyone(
        source: tuple[str, SocialGame], store_url: str, tmp_path: Path) -> None:
    url, game = source
    lines = await exported(url, game.game_id, tmp_path / "game.jsonl", "--with-secrets")
    assert streams_of(lines) == {"game", "orders", "press", "members", "bots", "webhooks", "account"}
    assert all(h in (tmp_path / "game.jsonl").read_text() for h in game.hashes)
    assert await command("import", str(tmp_path / "game.jsonl"), "--database", store_url) == 0
    async with running_client(store_url) as client:
        path = f"/games/{game.game_id}"
        france, bot = bearer(game.tokens["FRANCE"]), bearer(game.bot_token)
        assert (await client.get(f"{path}/view", headers=bot)).json()["viewer"]["power"] == "FRANCE"
        ordered = await client.put(f"{path}/orders", headers=france, json={"orders": ["A PAR - BUR"]})
        assert ordered.status_code == 200, ordered.text
        assert (await client.get(f"{path}/webhook", headers=france)).json() == {"url": HOOK}
        messages = (await client.get(f"{path}/messages", headers=france)).json()["messages"]
        assert [m["text"] for m in messages] == ["Hello, Europe", "Just us", "Autumn already"]
        austria = (await client.get(f"{path}/messages", headers=bearer(game.tokens["AUSTRIA"]))).json()["messages"]
        russia = (await client.get(f"{path}/messages", headers=bearer(game.tokens["RUSSIA"]))).json()["messages"]
        assert "Just us" in [m["text"] for m in austria] and "Just us" not in [m["text"] for m in russia]
        extended = await client.post(f"{path}/extend", headers=bearer(game.host_token), json={"minutes": 60})
        assert extended.status_code == 200, extended.text
        store = client._transport.app.state.store  # type: ignore[attr-defined]  # the app's own store
        signed = await sign_in(store, "discord", "user-0", "Player 0")  # the same account, a new session
        assert signed.account.account_id == game.account_id
        seats = (await client.get("/me/games", headers=bearer(signed.token))).json()
        assert [seat["game_id"] for seat in seats["games"]] == [game.game_id], seats
        sent = await client.post(f"{path}/messages", headers=bearer(signed.token), json={"to": "all", "text": "back"})
        assert sent.status_code == 201, sent.text
        events = (await client.get(f"{path}/events", headers=OPERATOR)).text
        assert "Autumn already" not in events  # the log export stays the game's log; press is its own stream


async def test_without_secrets_no_credential_leaves_and_the_import_plays_for_the_operator_only(
        source: tuple[str, SocialGame], store_url: str, tmp_path: Path) -> None:
    url, game = source
    lines = await exported(url, game.game_id, tmp_path / "game.jsonl")
    text = (tmp_path / "game.jsonl").read_text(encoding="utf-8")
    assert streams_of(lines) == {"game", "orders", "press", "members", "bots", "account"}  # a webhook URL is a secret
    assert not any(h in text for h in game.hashes) and HOOK not in text
    assert "Just us" in text and "my bot" in text and "Player 0" in text
    assert await command("import", str(tmp_path / "game.jsonl"), "--database", store_url) == 0
    async with running_client(store_url) as client:
        path = f"/games/{game.game_id}"
        for token in (game.tokens["FRANCE"], game.bot_token, game.host_token):
            refused = await client.get(f"{path}/view", headers=bearer(token))
            assert refused.status_code in (401, 403) and refused.json()["error"]["code"] == "invalid_token"
        assert (await client.get(f"{path}/messages", headers=OPERATOR)).json()["messages"][1]["text"] == "Just us"
        resolved = await client.post(f"{path}/resolve", headers=OPERATOR, json={"phase": "F1901M"})
        assert resolved.status_code == 200, resolved.text


async def test_importing_next_to_an_account_that_exists_links_the_seat_to_it(
        source: tuple[str, SocialGame], sqlite_url: str, tmp_path: Path) -> None:
    url, game = source
    target = await open_store(sqlite_url)
    try:
        before = await sign_in(target, "discord", "user-0", "Player 0, already here")
    finally:
        await target.close()
    await exported(url, game.game_id, tmp_path / "game.jsonl", "--with-secrets")
    assert await command("import", str(tmp_path / "game.jsonl"), "--database", sqlite_url) == 0
    async with running_client(sqlite_url) as client:
        seats = (await client.get("/me/games", headers=bearer(before.token))).json()
        assert [seat["game_id"] for seat in seats["games"]] == [game.game_id]
        me = (await client.get("/me", headers=bearer(before.token))).json()
        assert me["name"] == "Player 0, already here"  # the account there kept its own history


def test_the_mila_export_has_the_messages_and_the_press_rules(
        source: tuple[str, SocialGame], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url, game = source
    assert run("export", [game.game_id, "--database", url, "--format", "mila"]) == 0
    saved = json.loads(capsys.readouterr().out)
    assert "NO_PRESS" not in saved["rules"] and "PUBLIC_PRESS" not in saved["rules"]
    spring, autumn = saved["phases"][0], saved["phases"][1]
    assert [(m["sender"], m["recipient"], m["message"]) for m in spring["messages"]] == [
        ("ENGLAND", "GLOBAL", "Hello, Europe"), ("ITALY", "AUSTRIA", "Just us"), ("ITALY", "FRANCE", "Just us")]
    assert [(m["phase"], m["message"]) for m in autumn["messages"]] == [("F1901M", "Autumn already")]
    times = [m["time_sent"] for phase in saved["phases"] for m in phase["messages"]]
    assert times == sorted(times) and len(set(times)) == len(times)  # MILA keys messages by their time
    assert all(phase["state"]["rules"] == saved["rules"] for phase in saved["phases"])
    kinds: list[tuple[Literal["public", "none"], str]] = [("public", "PUBLIC_PRESS"), ("none", "NO_PRESS")]
    for press, rule in kinds:
        other = f"sqlite:///{tmp_path / f'{press}.db'}"
        played = built(other, press)
        assert run("export", [played.game_id, "--database", other, "--format", "mila"]) == 0
        rules = json.loads(capsys.readouterr().out)["rules"]
        assert rule in rules and {"NO_PRESS", "PUBLIC_PRESS"} - {rule} not in rules


async def test_a_log_that_mixes_in_another_games_streams_is_refused(
        source: tuple[str, SocialGame], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url, game = source
    lines = await exported(url, game.game_id, tmp_path / "game.jsonl", "--with-secrets")
    press = next(line for line in lines if line["stream_id"].startswith("press-"))
    foreign = dict(press, stream_id="press-g_000000000000")
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in [*lines, foreign]), encoding="utf-8")
    assert await command("import", str(path), "--database", f"sqlite:///{tmp_path / 'mixed.db'}") == 1
    assert "does not belong to game" in capsys.readouterr().err
