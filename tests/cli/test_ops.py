"""The operators' commands end to end: export, import, replay on games played through the services."""
from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from services.cli import main
from services.cli.ops import run
from shared.store import GameRow, RecordedEvent, open_store
from tests.utils.played_game import play_game

PHASES = 12


def play(url: str, phases: int = PHASES, seed: int = 1) -> str:
    async def go() -> str:
        store = await open_store(url)
        try:
            return await play_game(store, phases, seed)
        finally:
            await store.close()

    return asyncio.run(go())


def stored_game(url: str, game_id: str) -> tuple[GameRow | None, list[RecordedEvent]]:
    async def go() -> tuple[GameRow | None, list[RecordedEvent]]:
        store = await open_store(url)
        try:
            return await store.games.get_game(game_id), await store.events.read_all(limit=100_000)
        finally:
            await store.close()

    return asyncio.run(go())


def export_lines(url: str, game_id: str, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    assert run("export", [game_id, "--database", url]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def without_positions(lines: list[dict]) -> list[dict]:
    return [{key: value for key, value in line.items() if key != "position"} for line in lines]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """One SQLite store with a game of twelve phases, shared by the tests that only read it."""
    url = f"sqlite:///{tmp_path_factory.mktemp('played') / 'played.db'}"
    return url, play(url)


def test_export_then_import_into_a_fresh_store_gives_the_same_events(
    played: tuple[str, str], store_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, game_id = played
    log = tmp_path / "game.jsonl"
    assert run("export", [game_id, "--database", source, "--output", str(log)]) == 0
    exported = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    types = [line["type"] for line in exported]
    assert types[0] == "GameCreated" and types.count("PlayerJoined") == 7 and "GameStarted" in types
    assert types.count("PhaseResolved") == PHASES and "OrdersSubmitted" in types
    assert [line["position"] for line in exported] == sorted(line["position"] for line in exported)

    assert run("import", [str(log), "--database", store_url]) == 0
    assert f"game {game_id} imported" in capsys.readouterr().err
    again = export_lines(store_url, game_id, capsys)
    assert without_positions(again) == without_positions(exported)

    source_row, _ = stored_game(source, game_id)
    imported_row, _ = stored_game(store_url, game_id)
    assert source_row is not None and imported_row is not None
    assert (imported_row.status, imported_row.phase, imported_row.summary) == (
        source_row.status, source_row.phase, source_row.summary)


def test_replay_of_a_played_game_matches_and_shows_progress(
    played: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    url, game_id = played
    assert run("replay", [game_id, "--database", url]) == 0
    output = capsys.readouterr()
    assert f"{PHASES} resolved phases re-adjudicated" in output.out
    assert "every result and position matches" in output.out
    assert f"replay: 10/{PHASES} phases checked" in output.err


def test_replay_on_postgresql_and_sqlite(store_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    game_id = play(store_url, phases=4, seed=5)
    assert run("replay", [game_id, "--database", store_url]) == 0
    assert "4 resolved phases re-adjudicated" in capsys.readouterr().out


def tampered_log(played: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                 change: Callable[[dict[str, Any]], None]) -> tuple[Path, str, str]:
    """The played game's log with one PhaseResolved changed by hand; (file, game, phase changed)."""
    url, game_id = played
    lines = export_lines(url, game_id, capsys)
    resolved = [line for line in lines if line["type"] == "PhaseResolved"]
    target = resolved[5]
    change(target["data"])
    path = tmp_path / "tampered.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path, game_id, target["data"]["phase"]


def test_replay_names_the_phase_whose_stored_result_was_altered(
    played: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def flip_first_result(data: dict) -> None:
        power = sorted(data["orders"])[0]
        first = data["orders"][power][0]
        first["result"] = "fails" if first["result"] == "succeeds" else "succeeds"

    log, game_id, phase = tampered_log(played, tmp_path, capsys, flip_first_result)
    target = f"sqlite:///{tmp_path / 'target.db'}"
    assert run("import", [str(log), "--database", target]) == 0
    capsys.readouterr()
    assert run("replay", [game_id, "--database", target]) == 1
    error = capsys.readouterr().err
    assert f"phase {phase}: orders." in error
    assert "result: stored" in error and "engine" in error


def test_replay_names_the_phase_whose_stored_position_was_altered(
    played: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def drop_a_unit(data: dict) -> None:
        power = sorted(data["position"]["units"])[0]
        data["position"]["units"][power].pop()

    log, game_id, phase = tampered_log(played, tmp_path, capsys, drop_a_unit)
    target = f"sqlite:///{tmp_path / 'target.db'}"
    assert run("import", [str(log), "--database", target]) == 0
    capsys.readouterr()
    assert run("replay", [game_id, "--database", target]) == 1
    assert f"phase {phase}: position.units." in capsys.readouterr().err


def test_import_refuses_a_game_the_store_already_has(
    played: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, game_id = played
    log = tmp_path / "game.jsonl"
    assert run("export", [game_id, "--database", url, "-o", str(log)]) == 0
    _, before = stored_game(url, game_id)
    capsys.readouterr()
    assert run("import", [str(log), "--database", url]) == 1
    assert f"game {game_id} already exists" in capsys.readouterr().err
    _, after = stored_game(url, game_id)
    assert after == before


@pytest.mark.parametrize(
    "argv",
    [
        ["export"],
        ["export", "g1", "--format", "xml"],
        ["import"],
        ["replay", "g1", "--bogus"],
        ["replay", "g1", "g2"],
    ],
    ids=["export-no-game", "export-bad-format", "import-no-file", "replay-unknown-option", "replay-two-games"],
)
def test_bad_arguments_exit_2_with_a_message(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert f"entente {argv[0]}" in error and "error:" in error


def test_an_unknown_game_or_missing_database_exits_1_with_a_message(
    played: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, _ = played
    assert run("export", ["no-such-game", "--database", url]) == 1
    assert "no game 'no-such-game'" in capsys.readouterr().err
    missing = tmp_path / "absent.db"
    assert run("replay", ["g1", "--database", f"sqlite:///{missing}"]) == 1
    assert "no database at" in capsys.readouterr().err
    assert not missing.exists()


def test_database_defaults_to_the_environment(
    played: tuple[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url, game_id = played
    monkeypatch.setenv("ENTENTE_DATABASE_URL", url)
    assert run("replay", [game_id]) == 0


def test_import_of_a_malformed_log_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "broken.jsonl"
    log.write_text('{"stream_id": "game-x"}\nnot json\n', encoding="utf-8")
    target = f"sqlite:///{tmp_path / 'target.db'}"
    assert run("import", [str(log), "--database", target]) == 1
    assert "line 1: missing version" in capsys.readouterr().err


def test_mila_export_has_every_phase_with_state_orders_and_results(
    played: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, game_id = played
    jsonl = export_lines(url, game_id, capsys)
    resolved = [line["data"] for line in jsonl if line["type"] == "PhaseResolved"]
    assert run("export", [game_id, "--database", url, "--format", "mila"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    saved = json.loads(line)
    assert (saved["id"], saved["map"]) == (game_id, "standard")
    assert [phase["name"] for phase in saved["phases"]] == [r["phase"] for r in resolved] + [resolved[-1]["next_phase"]]
    first = saved["phases"][0]
    assert first["state"]["units"]["FRANCE"] == ["A MAR", "A PAR", "F BRE"]
    assert first["state"]["centers"]["RUSSIA"] == ["MOS", "SEV", "STP", "WAR"]
    assert first["orders"] == {power: [item["order"] for item in items]
                               for power, items in resolved[0]["orders"].items()}
    for phase, stored in zip(saved["phases"][:-1], resolved, strict=True):
        assert set(phase["results"]) == {" ".join(o["order"].split()[:2]) for items in stored["orders"].values()
                                          for o in items if o["order"] != "WAIVE"}
    assert saved["phases"][-1]["orders"] == {}


def test_mila_export_refuses_a_game_on_another_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    created = {"stream_id": "game-g9", "version": 1, "position": 1, "type": "GameCreated", "schema_version": 1,
               "data": {"game_id": "g9", "variant": "ekonia", "name": "Elsewhere", "settings": {},
                        "host_token_hash": "0" * 64},
               "metadata": {}, "recorded_at": "2026-01-01T00:00:00+00:00"}
    log = tmp_path / "ekonia.jsonl"
    log.write_text(json.dumps(created) + "\n", encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'store.db'}"
    assert run("import", [str(log), "--database", url]) == 0
    assert run("export", ["g9", "--database", url, "--format", "mila"]) == 1
    assert "the MILA format has the standard map only" in capsys.readouterr().err
    assert run("export", ["g9", "--database", url, "--with-secrets"]) == 0
    assert json.loads(capsys.readouterr().out) == created
