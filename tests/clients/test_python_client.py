"""A Python client generated from the OpenAPI document plays a game end to end against a real
``entente serve`` (docs/testing.md, "Generated clients").

openapi-python-client (PyPI, in the test extra) generates a package from the served
``/openapi.json`` (its ``content_type_overrides`` read the pictures as bytes and the log as
text, docs/api.md); the test imports it and, with nothing but its functions and models,
creates a two-player standard game, seats both players, starts it, and plays three phases:
each seat reads its view and its possible orders, submits the first order of every group, the
phase resolves early, and the next view's history has every order back as a structured order
of its type. The map picture comes back as PNG bytes; both seats vote a draw and the game ends.
Every answer is parsed into the generated models (a wrong document makes their ``from_dict``
raise). The live stream, read whole with the generated ``game_stream``, comes back as its text
(events one after another), and the generated package passes ``mypy --strict``: a schema named
like one of its own keys (``Error``, ``Identities``) is titled apart from it (docs/api.md,
"Generated clients").
"""
from __future__ import annotations

import enum
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.utils.served import entente_serve

# the generator's own post hooks, but for ruff's PYI036: ruff 0.17 rewrites the generated
# client.py's ``__exit__(*args: Any)`` to ``*args: object``, which mypy --strict then refuses
# (docs/api.md, "Generated clients")
CONFIG = ("content_type_overrides:\n  image/png: application/octet-stream\n  image/svg+xml: application/octet-stream\n"
          "  application/x-ndjson: text/plain\n"
          "post_hooks:\n  - ruff check . --fix-only --extend-select=I --extend-ignore=PYI036\n  - ruff format .\n")
PHASES = 3  # a two-player game opens in 1914 (docs/hosting.md)


def generate(base_url: str, folder: Path) -> None:
    (folder / "openapi.json").write_text(json.dumps(httpx.get(f"{base_url}/openapi.json", timeout=30).json()))
    (folder / "config.yml").write_text(CONFIG)
    tool = Path(sys.executable).parent / "openapi-python-client"
    done = subprocess.run([str(tool), "generate", "--path", "openapi.json", "--meta", "none", "--config", "config.yml",
                           "--output-path", "entente_client"], cwd=folder, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PATH": f"{tool.parent}{os.pathsep}{os.environ.get('PATH', '')}"})
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Cannot parse" not in done.stdout, done.stdout[-4000:]


@pytest.fixture
def generated(sqlite_url: str, tmp_path: Path) -> Iterator[tuple[str, ModuleType]]:
    with entente_serve(sqlite_url) as base_url:
        generate(base_url, tmp_path)
        sys.path.insert(0, str(tmp_path))
        try:
            yield base_url, importlib.import_module("entente_client")
        finally:
            sys.path.remove(str(tmp_path))
            for name in [n for n in sys.modules if n == "entente_client" or n.startswith("entente_client.")]:
                del sys.modules[name]


def part(name: str) -> Any:
    return importlib.import_module(f"entente_client.{name}")


def test_the_generated_python_client_plays_a_game(generated: tuple[str, ModuleType]) -> None:
    base_url, client_package = generated
    api, models = "api", part("models")
    # a power is a string to the generated client, not an enum of every variant's powers
    enums = [getattr(models, name) for name in dir(models) if isinstance(getattr(models, name), enum.EnumMeta)]
    assert enums and not [kind for kind in enums if "FRANCE" in kind.__members__], enums
    anyone = client_package.Client(base_url=base_url)
    body = models.CreateStandardGame(name="Generated", settings=models.StandardSettings(player_count=2))
    created = part(f"{api}.lobby.create_game").sync(client=anyone, body=body)
    assert isinstance(created, models.CreatedGame), created
    game_id = created.id
    seats = []
    for _ in range(2):
        # the seat's route takes a token or none (optional security); the generator asks for a
        # client with a token, and a plain one is what a newcomer has
        joined = part(f"{api}.lobby.join_game").sync(game_id, client=anyone)
        assert isinstance(joined, models.JoinedGame), joined
        seats.append(client_package.AuthenticatedClient(base_url=base_url, token=joined.token))
    host = client_package.AuthenticatedClient(base_url=base_url, token=created.host_token)
    started = part(f"{api}.lobby.start_game").sync(game_id, client=host)
    assert isinstance(started, models.GameSummary) and started.status == models.GameSummaryStatus.ACTIVE, started
    phase = started.phase
    for _ in range(PHASES):
        for seat in seats:
            view = part(f"{api}.visibility.game_view").sync(game_id, client=seat)
            assert isinstance(view, models.GameView), view
            assert view.game.phase == phase
            assert isinstance(view.position, models.BoardPosition) and view.position.variant == "standard"
            for power in view.viewer.powers:
                if power not in view.must_act:
                    continue
                options = part(f"{api}.adjudication.possible_orders").sync(  # a power is a plain string
                    game_id, client=seat, power=power)
                assert isinstance(options, models.PossibleOrders), options
                orders = [group.orders[0].text for group in options.menu if group.orders]
                submitted = part(f"{api}.adjudication.submit_orders").sync(
                    game_id, client=seat, body=models.SubmitOrders(orders=orders, power=power, phase=phase))
                assert isinstance(submitted, models.SubmissionResult), submitted
        after = part(f"{api}.visibility.game_view").sync(game_id, client=seats[0])
        assert isinstance(after, models.GameView) and after.game.phase != phase, after
        resolved = after.history[-1]
        assert resolved.phase == phase
        phase = after.game.phase
        results = [result for per_power in resolved.orders.additional_properties.values() for result in per_power]
        assert results and all(type(r.structured).__name__.startswith("Board") for r in results)
        for result in results:  # each order parsed into the model of its own type
            kind = result.structured.to_dict()["type"]
            assert type(result.structured).__name__ == "Board" + kind.title().replace("_", ""), (kind, result)
    # the stream read whole: its text, events and all, not a TypeError
    streamed = part(f"{api}.visibility.game_stream").sync(game_id, client=seats[0], timeout=0.5)
    assert isinstance(streamed, str) and "event: view" in streamed and f'"phase":"{phase}"' in streamed, streamed
    picture = part(f"{api}.maps.game_png").sync(game_id, client=seats[0])
    assert isinstance(picture, client_package.types.File), picture
    assert picture.payload.read().startswith(b"\x89PNG\r\n\x1a\n")
    # and to the end: both seats vote for a draw, which ends the game
    for seat in seats:
        vote = part(f"{api}.lobby.vote_draw").sync(game_id, client=seat, body=models.DrawVote(vote=True))
        assert isinstance(vote, models.DrawStatus), vote
    summary = part(f"{api}.lobby.game_summary").sync(game_id, client=anyone)
    assert isinstance(summary, models.GameSummary) and summary.status == models.GameSummaryStatus.FINISHED, summary
    assert summary.result is not None and summary.result.reason == models.GameResultReasonType0.DRAW


def test_the_generated_python_client_passes_mypy_strict(generated: tuple[str, ModuleType]) -> None:
    package = Path(generated[1].__file__ or "").parent
    # With MYPY_CACHE_DIR (.ci/run sets it) the standard library's and httpx's types come from a
    # cache of their own kept between runs (mypy checks each file's hash); without it, none.
    shared_cache = os.environ.get("MYPY_CACHE_DIR")
    cache = ["--cache-dir", str(Path(shared_cache) / "generated-client")] if shared_cache else ["--no-incremental"]
    checked = subprocess.run([sys.executable, "-m", "mypy", "--strict", *cache, package.name],
                             cwd=package.parent, capture_output=True, text=True, timeout=600)
    assert checked.returncode == 0, checked.stdout[-6000:] + checked.stderr[-2000:]
    errors = part("models")
    assert errors.ErrorAnswer.__name__ == "ErrorAnswer" and errors.IdentitiesAnswer.__name__ == "IdentitiesAnswer"
