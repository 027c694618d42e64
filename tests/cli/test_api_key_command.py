"""``entente api-key`` (docs/operations.md, "API keys for bots"): on a server with no sign-in
configured, an operator issues a key from the command line, the key plays through the API
(joins a game that allows bots, lists its seats, orders), ``list`` shows it without the key,
``revoke`` stops it at once; mistakes exit 1 or 2 with a line saying what was wrong."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.utils.http import bearer, running_app, settings_for

ENTENTE = str(Path(sys.executable).parent / "entente")


def entente(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ENTENTE, *argv], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


async def test_a_key_made_on_the_command_line_plays_and_is_revoked(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'keys.db'}"
    made = entente("api-key", "create", "--account", "house-bot", "--label", "tournament bot", "--database", url)
    assert made.returncode == 0, made.stderr
    issued = json.loads(made.stdout)
    assert issued["key"].startswith(f"k.{issued['account_id']}.") and issued["key_id"].startswith("ak_")
    assert issued["label"] == "tournament bot"
    again = json.loads(entente("api-key", "create", "--account", "house-bot", "--database", url).stdout)
    assert again["account_id"] == issued["account_id"] and again["key"] != issued["key"]  # the same account

    listed = entente("api-key", "list", "--account", "house-bot", "--database", url)
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout) == {"account_id": issued["account_id"], "api_keys": [
        {"key_id": issued["key_id"], "label": "tournament bot"}, {"key_id": again["key_id"], "label": ""}]}
    assert issued["key"] not in listed.stdout
    by_id = entente("api-key", "list", "--account", issued["account_id"], "--database", url)
    assert json.loads(by_id.stdout) == json.loads(listed.stdout)

    key = bearer(issued["key"])
    async with running_app(settings_for(url)) as (_, client):  # no OAuth configured at all
        assert (await client.get("/auth/login")).status_code == 404
        created = await client.post("/games", json={"name": "Bots welcome",
                                                    "settings": {"player_count": 2, "bots_may_join": True}})
        game_id, host = created.json()["id"], bearer(created.json()["host_token"])
        joined = await client.post(f"/games/{game_id}/players", headers=key)
        assert joined.status_code == 201, joined.text
        assert (await client.post(f"/games/{game_id}/players")).status_code == 201
        assert (await client.post(f"/games/{game_id}/start", headers=host)).status_code == 200
        [seat] = (await client.get("/me/games", headers=key)).json()["games"]
        assert seat["game_id"] == game_id and seat["waiting_for"] == seat["powers"]
        put = await client.put(f"/games/{game_id}/orders", json={"orders": [], "power": seat["powers"][0]},
                               headers=key)
        assert put.status_code == 200, put.text

        revoked = entente("api-key", "revoke", "--account", "house-bot", issued["key_id"], "--database", url)
        assert revoked.returncode == 0 and revoked.stdout == "", revoked.stderr
        refused = await client.get("/me/games", headers=key)
        assert refused.status_code == 401, refused.text
        assert (await client.get("/me/games", headers=bearer(again["key"]))).status_code == 200
    after = json.loads(entente("api-key", "list", "--account", "house-bot", "--database", url).stdout)
    assert after["api_keys"] == [{"key_id": again["key_id"], "label": ""}]


def test_mistakes_say_what_was_wrong(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'mistakes.db'}"
    missing = entente("api-key", "list", "--account", "nobody", "--database", f"sqlite:///{tmp_path / 'none.db'}")
    assert missing.returncode == 1 and "no database at" in missing.stderr
    assert not (tmp_path / "none.db").exists()  # a read creates no empty database
    assert entente("api-key", "create", "--account", "someone", "--database", url).returncode == 0
    unknown = entente("api-key", "list", "--account", "nobody", "--database", url)
    assert unknown.returncode == 1 and "no account 'nobody'" in unknown.stderr
    no_such = entente("api-key", "create", "--account", "a_0000000000000000", "--database", url)
    assert no_such.returncode == 1 and "no account 'a_0000000000000000'" in no_such.stderr
    wrong_key = entente("api-key", "revoke", "--account", "someone", "ak_000000000000", "--database", url)
    assert wrong_key.returncode == 1 and "no live API key 'ak_000000000000'" in wrong_key.stderr
    long_label = entente("api-key", "create", "--account", "someone", "--label", "x" * 61, "--database", url)
    assert long_label.returncode == 2 and "--label" in long_label.stderr
    no_action = entente("api-key", "--database", url)
    assert no_action.returncode == 2 and "ACTION" in no_action.stderr
