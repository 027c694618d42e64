"""Every example of docs/api.md and of the README's walkthrough, run against a real server.

The server is ``entente serve`` in a fresh directory (its default database, ``./entente.db``, and
``.venv`` linked to this interpreter's, so the README's commands run as written). Each shell
command of the docs is run by bash as written, but for ``localhost:8000`` (this server's port)
and the shell variables the docs use ($GAME, $HOST, $TOKEN...), which hold what the earlier
examples answered; ``curl`` is also asked for the status code. Each answer is compared with the
JSON the docs show next to it (``matches``: ``...`` stands for more keys or items; ids, tokens,
codenames, positions and times are compared by kind only, being drawn at random). The docs'
JSON answers without a command (possible orders, a view) are checked against the same request
in a game brought to the state the example shows. Every example must be run by this test: one
the test does not know fails it.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.cli.test_serve import entente_command, free_port, wait_until_serving
from tests.utils.http import OPERATOR_TOKEN
from tests.utils.processes import stop
from tests.utils.wait import wait_until

ROOT = Path(__file__).resolve().parents[2]
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
DRAWN = {"id", "game_id", "player_id", "token", "host_token", "token_id", "codename", "position", "sent_at",
         "deadline", "paused_until", "recorded_at", "expires_at"}
"""Keys whose values are drawn at random or depend on the clock: compared by kind only."""


# --- the examples, read from the docs --------------------------------------------------------------


@dataclass
class Example:
    doc: str
    line: int
    heading: str
    command: str | None  # a shell command, or None for an answer shown alone
    answer: str | None  # the JSON (or text) the docs show it answers

    @property
    def name(self) -> str:
        return f"{self.doc}:{self.line}"

    @property
    def key(self) -> str:
        return f"{self.name}:{self.command or ''}"


def _blocks(text: str) -> Iterator[tuple[int, str, str, str]]:
    """(line, heading, language, body) of each fenced block."""
    heading, lines = "", text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            heading = line.lstrip("# ").strip()
        if line.startswith("```"):
            start, language = i + 1, line[3:].strip()
            i += 1
            while not lines[i].startswith("```"):
                i += 1
            yield start, heading, language, "\n".join(lines[start:i])
        i += 1


def _commands(body: str) -> Iterator[tuple[str, str | None]]:
    """Each command of a shell block (continued lines joined, a quoted text may span lines),
    with the "# -> answer" comment that follows it."""
    commands: list[str] = []
    answers: dict[int, str] = {}
    pending = ""
    for raw in body.splitlines():
        line = raw.strip()
        if not pending and line.startswith("# ->"):
            answers[len(commands) - 1] = line[len("# ->"):].strip()
            continue
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1].rstrip() + " "
            continue
        pending += line
        try:
            shlex.split(pending)
        except ValueError:  # a quotation still open: the text goes on
            pending += "\n"
            continue
        commands.append(pending.split("  #", 1)[0].rstrip())  # without a trailing comment
        pending = ""
    for index, command in enumerate(commands):
        yield command, answers.get(index)


def examples(doc: str) -> list[Example]:
    """The doc's examples: each shell command, with the block that follows its shell block under
    the same heading as the answer of its last command; other blocks are answers alone."""
    found: list[Example] = []
    previous: tuple[str, str] = ("", "")  # heading and language of the block before
    for line, heading, language, body in _blocks((ROOT / doc).read_text()):
        if language in ("js", "javascript"):
            continue  # code for a page to run, not a command or an answer (the web client runs it: docs/web.md)
        if language == "sh":
            found += [Example(doc, line, heading, command, answer) for command, answer in _commands(body)]
        elif previous == (heading, "sh") and found[-1].answer is None:
            found[-1].answer = body
        else:
            found.append(Example(doc, line, heading, None, body))
        previous = (heading, language)
    return found


# --- comparing an answer with the docs' JSON -------------------------------------------------------


def pattern(text: str) -> Any:
    """The docs' JSON as a value: ``...`` for elided keys, items or values."""
    elided = r"(?:\.\.\.|…)"  # written either way
    text = re.sub(rf"\{{\s*{elided}\s*}}", '{"...": "..."}', text)
    text = re.sub(rf"\[\s*{elided}\s*]", '["..."]', text)
    text = re.sub(rf",\s*{elided}\s*}}", ', "...": "..."}', text)
    text = re.sub(rf",\s*{elided}\s*]", ', "..."]', text)
    return json.loads(text)


def matches(expected: Any, actual: Any, key: str = "", where: str = "answer") -> list[str]:
    """What differs between the docs' ``expected`` and the server's ``actual`` (nothing: [])."""
    if expected == "...":
        return []
    if key in DRAWN:
        same_kind = type(expected) is type(actual) or (expected is not None and actual is None and key in (
            "deadline", "paused_until"))
        if isinstance(expected, str) and isinstance(actual, str) and "_" in expected and "…" not in expected:
            same_kind = actual.split("_", 1)[0] == expected.split("_", 1)[0] and len(actual) == len(expected)
        return [] if same_kind else [f"{where}: {actual!r} is not like {expected!r}"]
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        problems = []
        open_ended = expected.get("...") == "..."
        for name, value in expected.items():
            if name == "...":
                continue
            if name not in actual:
                problems.append(f"{where}.{name}: missing")
            else:
                problems += matches(value, actual[name], name, f"{where}.{name}")
        extra = sorted(set(actual) - set(expected))
        if extra and not open_ended:
            problems.append(f"{where}: has {extra} the docs do not show")
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{where}: expected a list, got {actual!r}"]
        if expected and expected[-1] == "...":  # these items, in this order, among others
            remaining = iter(enumerate(actual))
            for item in expected[:-1]:
                if not any(not matches(item, other, key) for _, other in remaining):
                    return [f"{where}: no item like {item!r} (in order) in {actual!r}"]
            return []
        if len(expected) != len(actual):
            return [f"{where}: {len(actual)} items, the docs show {len(expected)}: {actual!r}"]
        return [p for i, (e, a) in enumerate(zip(expected, actual, strict=True))
                for p in matches(e, a, key, f"{where}[{i}]")]
    if isinstance(expected, str) and "…" in expected:
        prefix = expected.split("…", 1)[0]
        ok = isinstance(actual, str) and actual.startswith(prefix)
        return [] if ok else [f"{where}: {actual!r} does not start with {prefix!r}"]
    return [] if expected == actual and type(expected) is type(actual) else [f"{where}: {actual!r}, docs: {expected!r}"]


# --- the server and a shell for the docs' commands ------------------------------------------------


@dataclass
class Shell:
    directory: Path
    port: int
    variables: dict[str, str] = field(default_factory=dict)
    ran: set[str] = field(default_factory=set)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _prepared(self, example: Example, variables: dict[str, str]) -> tuple[str, dict[str, str]]:
        assert example.command is not None
        self.variables.update(variables)
        self.ran.add(example.key)
        env = {**os.environ, **self.variables, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN}
        env.pop("ENTENTE_DATABASE_URL", None)
        return example.command.replace("localhost:8000", f"127.0.0.1:{self.port}"), env

    def start(self, example: Example, **variables: str) -> subprocess.Popen[str]:
        """Start a long-running command (the stream): curl stops listening after 5 seconds."""
        command, env = self._prepared(example, variables)
        return subprocess.Popen(["bash", "-c", command + " --max-time 5"], cwd=self.directory, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def run(self, example: Example, **variables: str) -> tuple[int | None, str]:
        """Run the example's command; (HTTP status for curl, else the exit code; the output)."""
        command, env = self._prepared(example, variables)
        is_curl = command.startswith("curl ")
        if is_curl:  # a bound that ends a hung request, not a speed check: the first picture of a
            # fresh server starts its drawing process, seconds on a busy machine (docs/maps.md)
            command += f" --max-time {REQUEST_SECONDS} -w '\\n%{{http_code}}'"
        done = subprocess.run(["bash", "-c", command], cwd=self.directory, env=env, capture_output=True,
                              text=True, timeout=120)
        if is_curl:
            output, _, status = done.stdout.rpartition("\n")
            return int(status), output
        assert done.returncode == 0, f"{example.name}: {command}\n{done.stderr}"
        return done.returncode, done.stdout


REQUEST_SECONDS = 60  # the most one example's request may take before it counts as hung


@pytest.fixture(scope="module")
def shell(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shell]:
    directory = tmp_path_factory.mktemp("docs")
    (directory / ".venv").symlink_to(Path(sys.executable).parents[1])
    port = free_port()
    env = {**os.environ, "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN, "ENTENTE_ENVIRONMENT": "test",
           "ENTENTE_CORS_ORIGINS": CORS_ORIGIN}  # the origin of the docs' CORS example
    env.pop("ENTENTE_DATABASE_URL", None)
    process = subprocess.Popen([*entente_command(), "serve", "--port", str(port), "--log-level", "warning"],
                               cwd=directory, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_serving(f"http://127.0.0.1:{port}", process)
        yield Shell(directory, port)
    finally:
        stop(process)


def open_streams(client: httpx.Client) -> float:
    """The server's ``entente_open_streams`` gauge, read from its /metrics."""
    text = client.get("/metrics", headers={"authorization": f"Bearer {OPERATOR_TOKEN}"}).text
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith("entente_open_streams"))


def fields_only(text: str) -> str:
    """An SSE text without its comment and ``retry:`` lines (the blank lines between events kept)."""
    return "\n".join(line for line in text.split("\n") if not line.startswith((":", "retry:")))


def server_sent(event: str, docs: bool = False) -> dict[str, Any]:
    """One server-sent event as {"id", "event", "data"} (the docs' data as a pattern)."""
    fields = dict(line.split(": ", 1) for line in event.strip().splitlines())
    assert set(fields) == {"id", "event", "data"}, event
    return {"id": fields["id"], "event": fields["event"],
            "data": pattern(fields["data"]) if docs else json.loads(fields["data"])}


def check(example: Example, status: int | None, output: str, expected_status: int = 200) -> Any:
    """The answer as JSON, checked against the docs' answer when they show one."""
    assert status == expected_status, f"{example.name} {example.command}: {status} {output}"
    body = json.loads(output) if output.strip() else None
    if example.answer is not None:
        problems = matches(pattern(example.answer), body)
        assert not problems, f"{example.name} {example.command}:\n" + "\n".join(problems)
    return body


def find(found: list[Example], text: str, *, answer_only: bool = False) -> Example:
    """The one example whose command (or, for an answer alone, whose answer) contains ``text``."""
    chosen = [e for e in found if (e.command is None) == answer_only
              and text in ((e.answer or "") if answer_only else (e.command or ""))]
    assert len(chosen) == 1, f"{text!r}: {[e.name for e in chosen]}"
    return chosen[0]


# --- a game through httpx, for the setup the docs leave to the reader ------------------------------


def seat_tokens(client: httpx.Client, game: str, tokens: list[str]) -> dict[str, str]:
    """POWER -> token, from each player's view."""
    seats = {}
    for token in tokens:
        view = client.get(f"/games/{game}/view", headers={"authorization": f"Bearer {token}"}).json()
        for power in view["viewer"]["powers"]:
            seats[power] = token
    return seats


def new_game(client: httpx.Client, body: dict[str, Any], players: int) -> tuple[str, str, dict[str, str]]:
    created = client.post("/games", json=body).json()
    tokens = [client.post(f"/games/{created['id']}/players").json()["token"] for _ in range(players)]
    started = client.post(f"/games/{created['id']}/start", headers={"authorization": f"Bearer {created['host_token']}"})
    assert started.status_code == 200, started.text
    return created["id"], created["host_token"], seat_tokens(client, created["id"], tokens)


def order(client: httpx.Client, game: str, token: str, orders: list[str], power: str | None = None) -> None:
    body: dict[str, Any] = {"orders": orders, **({"power": power} if power else {})}
    answer = client.put(f"/games/{game}/orders", json=body, headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 200 and answer.json()["rejected"] == 0, answer.text


# --- the tests ---------------------------------------------------------------------------------------


CORS_ORIGIN = "https://play.example.org"
SKIPPED = {
    "entente serve": "the server under test is started so",
    "entente serve --host 0.0.0.0 --port 8080 --database postgresql://entente@db:5432/entente":
        "the same command on another address and store",
    "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/entente serve": "installs; then serves",
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/pytest --cov": "this suite",
}


def test_every_example_of_docs_api_runs_as_the_docs_say(shell: Shell) -> None:
    found = examples("docs/api.md")
    # idle connections are dropped before the server's keep-alive (5 s) can close one under a request
    client = httpx.Client(base_url=shell.base_url, timeout=30, limits=httpx.Limits(keepalive_expiry=2))

    create = find(found, "-d '{\"name\": \"Friday game\"")
    created = check(create, *shell.run(create), expected_status=201)
    game, host = created["id"], created["host_token"]

    join = find(found, "-X POST localhost:8000/games/$GAME/players")
    joined = check(join, *shell.run(join, GAME=game, HOST=host, HOST_TOKEN=host), expected_status=201)
    squatter = client.post(f"/games/{game}/players").json()
    remove = find(found, "-X DELETE localhost:8000/games/$GAME/players/")
    assert check(remove, *shell.run(remove, PLAYER=squatter["player_id"]))["players"] == 1
    tokens = [joined["token"]] + [client.post(f"/games/{game}/players").json()["token"] for _ in range(6)]
    start = find(found, "/start")
    check(start, *shell.run(start))
    seats = seat_tokens(client, game, tokens)
    shell.variables["TOKEN"] = seats["FRANCE"]  # the docs' player is France

    for text in ("/extend", "/pause", "/resume"):
        example = find(found, text)
        check(example, *shell.run(example))
    draw = find(found, "/draw")
    check(draw, *shell.run(draw))

    errors = find(found, '"code": "orders_rejected"', answer_only=True)
    refused = client.put(f"/games/{game}/orders", json={"orders": ["F BRE - Atlantis"]},
                         headers={"authorization": f"Bearer {seats['FRANCE']}"})
    check(errors, refused.status_code, refused.text, expected_status=422)
    shell.ran.add(errors.key)

    orders = find(found, "F BRE - Atlantis")
    check(orders, *shell.run(orders))
    ready = find(found, "/ready")
    check(ready, *shell.run(ready))
    resolve = find(found, "/resolve")
    check(resolve, *shell.run(resolve))

    events = find(found, "/events")
    status, output = shell.run(events)
    assert status == 200
    lines = [json.loads(line) for line in output.splitlines() if line.strip()]
    # "one stored event per line: stream_id, version, position, type, schema_version, data,
    # metadata (...), recorded_at"
    assert lines and all(set(line) == {"stream_id", "version", "position", "type", "schema_version", "data",
                                       "metadata", "recorded_at"} for line in lines)

    possible = find(found, '"power": "ITALY", "must_act": true', answer_only=True)
    other, _, other_seats = new_game(client, {"name": "Second"}, 7)
    answer = client.get(f"/games/{other}/possible-orders", headers={"authorization": f"Bearer {other_seats['ITALY']}"})
    check(possible, answer.status_code, answer.text)
    shell.ran.add(possible.key)

    view = find(found, '"viewer": {"kind": "power", "power": "ITALY"', answer_only=True)
    # phases resolve when the operator says (nobody marks ready), so Italy's retreat stays pending
    third, third_host, third_seats = new_game(client, {"name": "Friday game", "settings": {"require_ready": True}}, 7)
    play_to_the_views_example(client, third, third_host, third_seats)
    answer = client.get(f"/games/{third}/view", headers={"authorization": f"Bearer {third_seats['ITALY']}"})
    check(view, answer.status_code, answer.text)
    shell.ran.add(view.key)

    listed = find(found, '{"variants": [', answer_only=True)
    answer = client.get("/variants")
    check(listed, answer.status_code, answer.text)
    shell.ran.add(listed.key)
    described = find(found, '"unit_types": ["A", "F"]', answer_only=True)
    answer = client.get("/variants/standard")
    check(described, answer.status_code, answer.text)
    shell.ran.add(described.key)
    picture = find(found, "/map.png")
    status, _ = shell.run(picture, GAME=third, TOKEN=third_seats["ITALY"])
    assert status == 200 and (shell.directory / "board.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    spring = find(found, "map.svg?phase=S1901M")
    status, _ = shell.run(spring)
    assert status == 200 and 'data-phase="S1901M"' in (shell.directory / "spring.svg").read_text()

    ekonia_game, _, ekonia_seats = new_game(
        client, {"name": "Ekonia", "variant": "ekonia", "settings": {"player_count": 6, "max_turns": 30}}, 6)
    ekonia = find(found, "INFANTRY")
    status, output = shell.run(ekonia, GAME=ekonia_game, TOKEN=ekonia_seats["VIEREN"])
    body = check(ekonia, status, output)
    assert body["rejected"] == 0, body  # the docs' orders are all valid ones
    shell.variables.update(GAME=other, TOKEN=other_seats["FRANCE"])  # France again, in a game still in S1901M

    england = {"authorization": f"Bearer {other_seats['ENGLAND']}"}
    assert client.put(f"/games/{other}/orders", json={"orders": ["F LON - NTH"]}, headers=england).status_code == 200
    added = find(found, '-X PATCH localhost:8000/games/$GAME/orders -H "authorization: Bearer $TOKEN" '
                        "-H 'content-type: application/json' -d '{\"orders\"")
    check(added, *shell.run(added, TOKEN=other_seats["ENGLAND"]))
    cleared = find(found, '"clear": ["A LVP"]')
    check(cleared, *shell.run(cleared))
    shell.variables["TOKEN"] = other_seats["FRANCE"]

    preflight = find(found, "-X OPTIONS")
    status, output = shell.run(preflight)
    headers = output.lower()
    # "204 with Access-Control-Allow-Origin (that origin), ... Allow-Methods (... PATCH ...), Vary: Origin"
    assert status == 204 and f"access-control-allow-origin: {CORS_ORIGIN}" in headers, output
    assert "patch" in headers.split("access-control-allow-methods:")[1].splitlines()[0] and "vary: origin" in headers

    bots = find(found, "/bot-tokens")
    check(bots, *shell.run(bots), expected_status=201)
    press = find(found, "/messages")

    document = find(found, '"orders": {"RUSSIA": ["F SEV R RUM"]}', answer_only=True)
    adjudicated = subprocess.run([*entente_command(), "adjudicate"], input=document.answer, capture_output=True,
                                 text=True, timeout=60)
    assert adjudicated.returncode == 0, adjudicated.stderr
    output = json.loads(adjudicated.stdout)
    # as the docs list, with the edition and victory_centres the example gives, carried for the next call
    assert set(output) == {"phase", "orders", "units", "dislodged", "centers", "next_phase", "edition",
                           "victory_centres"}
    assert (output["edition"], output["victory_centres"]) == ("2000", 18)
    assert output["orders"]["RUSSIA"][0]["result"] == "succeeds"
    shell.ran.add(document.key)

    webhook = client.delete(f"/games/{other}/webhook", headers={"authorization": f"Bearer {other_seats['FRANCE']}"})
    assert webhook.status_code == 404 and webhook.json()["error"]["code"] == "webhook_not_found"  # "none set"

    stream = find(found, "/stream -H")
    check(press, *shell.run(press), expected_status=201)
    # "France's, England having written to France twice"
    threads = find(found, '{"conversations": [', answer_only=True)
    fourth, _, fourth_seats = new_game(client, {"name": "Threads"}, 7)
    for text in ("Shall we talk?", "Channel stays empty?"):
        sent = client.post(f"/games/{fourth}/messages", json={"to": ["FRANCE"], "text": text},
                           headers={"authorization": f"Bearer {fourth_seats['ENGLAND']}"})
        assert sent.status_code == 201, sent.text
    answer = client.get(f"/games/{fourth}/conversations", headers={"authorization": f"Bearer {fourth_seats['FRANCE']}"})
    check(threads, answer.status_code, answer.text)
    shell.ran.add(threads.key)
    france = {"authorization": f"Bearer {other_seats['FRANCE']}"}
    seen = client.get(f"/games/{other}/stream", params={"timeout": 0.5}, headers=france).text
    last_id = [line[4:] for line in seen.splitlines() if line.startswith("id: ")][-1]  # "1.<digest>"
    listening = shell.start(stream, LAST_ID=last_id)
    # connected (the server counts a stream open once it has joined the hub, its start queued);
    # then "England writes to everyone and France orders"
    wait_until(lambda: open_streams(client) >= 1, what="curl's stream to be open")
    written = client.post(f"/games/{other}/messages", json={"to": "all", "text": "Peace in our time"},
                          headers={"authorization": f"Bearer {other_seats['ENGLAND']}"})
    assert written.status_code == 201, written.text
    order(client, other, other_seats["FRANCE"], ["A PAR - BUR"])
    output = listening.communicate(timeout=30)[0]
    # the reconnection delay comes in the first event's block, never in a block of its own
    assert output.startswith("retry: 2000\nid: "), output
    got = [server_sent(event) for event in fields_only(output).split("\n\n") if event.strip()]
    shown = [server_sent(event, docs=True) for event in fields_only(stream.answer or "").split("\n\n") if event.strip()]
    # an id is "{messages}.{view digest}": the count as the docs say, the digest the server's own
    assert all(re.fullmatch(r"\d+\.[0-9a-f]{16}", event["id"]) for event in got), got
    assert got[0]["id"].split(".")[1] == last_id.split(".")[1]  # the message comes before any new view
    for event in (*shown, *got):
        event["id"] = int(event["id"].split(".")[0])
    problems = matches(shown, got)
    assert not problems, "\n".join(problems)

    ticket = find(found, "/stream-ticket")
    issued = check(ticket, *shell.run(ticket), expected_status=201)
    opened = client.get(f"/games/{other}/stream", params={"ticket": issued["ticket"], "timeout": 0.3})
    assert opened.status_code == 200 and "event: view" in opened.text  # "opens this game's stream once"
    again = client.get(f"/games/{other}/stream", params={"ticket": issued["ticket"], "timeout": 0.3})
    assert again.status_code == 401 and again.json()["error"]["code"] == "invalid_ticket"

    assert sorted({e.key for e in found if e.command not in SKIPPED} - shell.ran) == []


def play_to_the_views_example(client: httpx.Client, game: str, host: str, seats: dict[str, str]) -> None:
    """S1901M and F1901M so that the Fall leaves Italy's A VEN dislodged from TRI, as the docs' view."""
    operator = {"authorization": f"Bearer {OPERATOR_TOKEN}"}
    order(client, game, seats["FRANCE"], ["A PAR - BUR"])
    order(client, game, seats["ITALY"], ["F NAP - ION", "A VEN H", "A ROM H"])
    order(client, game, seats["AUSTRIA"], ["A VIE - TYR", "F TRI H", "A BUD H"])
    assert client.post(f"/games/{game}/resolve", json={"phase": "S1901M"}, headers=operator).status_code == 200
    order(client, game, seats["ITALY"], ["F ION - TUN", "A VEN H", "A ROM H"])
    order(client, game, seats["AUSTRIA"], ["F TRI - VEN", "A TYR S F TRI - VEN", "A BUD H"])
    assert client.post(f"/games/{game}/resolve", json={"phase": "F1901M"}, headers=operator).status_code == 200
    order(client, game, seats["ITALY"], ["A VEN R TUS"])


def test_the_readmes_walkthrough_runs_as_it_says(shell: Shell) -> None:
    found = examples("README.md")
    # idle connections are dropped before the server's keep-alive (5 s) can close one under a request
    client = httpx.Client(base_url=shell.base_url, timeout=30, limits=httpx.Limits(keepalive_expiry=2))
    create = find(found, "-d '{\"name\": \"Friday game\", \"variant\": \"standard\"}'")
    created = check(create, *shell.run(create), expected_status=201)
    game, host = created["id"], created["host_token"]
    shell.variables.update(GAME=game, HOST=host)

    join = find(found, "/players")
    tokens = [check(join, *shell.run(join), expected_status=201)["token"] for _ in range(7)]  # "seven players join"
    start = find(found, "/start")
    check(start, *shell.run(start))
    seats = seat_tokens(client, game, tokens)
    shell.variables["TOKEN"] = seats["FRANCE"]  # "here France"

    view = find(found, "/view -H")
    assert check(view, *shell.run(view))["viewer"]["power"] == "FRANCE"  # "viewer says which power they drew"
    possible = find(found, "/possible-orders")
    assert "A PAR - BUR" in check(possible, *shell.run(possible))["orders"]["PAR"]
    orders = find(found, "F BRE - MAO")
    assert check(orders, *shell.run(orders))["rejected"] == 0  # each accepted (or rejected with a reason)
    resolve = find(found, "/resolve")
    assert check(resolve, *shell.run(resolve))["next_phase"] == "F1901M"
    summary = next(e for e in found if e.command == "curl -s localhost:8000/games/$GAME")
    assert check(summary, *shell.run(summary))["phase"] == "F1901M"
    public = next(e for e in found if e.command == "curl -s localhost:8000/games/$GAME/view")
    assert check(public, *shell.run(public))["viewer"]["kind"] == "public"
    picture = find(found, "/map.png")
    status, _ = shell.run(picture)
    assert status == 200 and (shell.directory / "board.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    variant = find(found, "/variants/standard")
    described = check(variant, *shell.run(variant))
    assert {"provinces", "adjacency", "powers", "geometry"} <= set(described)  # "... colours, geometry"

    adjudicate = find(found, "entente adjudicate")
    _, output = shell.run(adjudicate)
    assert json.loads(output)["units"] == {"FRANCE": ["A BUR", "A MAR"]}
    document = re.search(r"echo '(.*)'", adjudicate.command or "", re.S)
    assert document is not None
    (shell.directory / "position.json").write_text(document.group(1))  # the position the next line reads
    possible_cli = find(found, "entente possible-orders")
    _, output = shell.run(possible_cli)
    assert "A PAR - BUR" in json.loads(output)["FRANCE"]["PAR"]
    render = find(found, "entente render --png")
    shell.run(render)
    assert (shell.directory / "board.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    export = find(found, "entente export")
    shell.run(export)
    exported = (shell.directory / "game.jsonl").read_text().splitlines()
    assert any(json.loads(line)["type"] == "PhaseResolved" for line in exported)
    replay = find(found, "entente replay")
    _, output = shell.run(replay)
    assert "every result and position matches" in output

    assert sorted({e.key for e in found if e.command not in SKIPPED} - shell.ran) == []


def test_the_doc_commands_are_read_whole() -> None:
    """The reader of the docs' shell blocks joins continued lines and keeps the answers."""
    commands = list(_commands("curl -s -X POST a \\\n     -d '{}'\n# -> {\"id\": 1}\n# a note\ncurl b\n"))
    assert commands == [("curl -s -X POST a -d '{}'", '{"id": 1}'), ("curl b", None)]
    assert shlex.split(commands[0][0])[-1] == "{}"
