"""The command line as an operator meets it (docs/operations.md): ``entente --help`` names every
command with one line each, every command's ``--help`` ends with examples and the exit codes;
``export --all``, ``import`` and ``replay --all`` show their progress on a terminal (a
pseudo-terminal here) and nothing of it through a pipe, and end with their counts; logs are
text on a terminal and JSON lines otherwise."""
from __future__ import annotations

import asyncio
import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from services.cli import COMMANDS
from shared.store import open_store
from tests.utils.played_game import play_game

ENTENTE = str(Path(sys.executable).parent / "entente")


def on_a_terminal(argv: list[str], timeout: float = 120) -> tuple[int, str]:
    """Run a command with its stdout and stderr on a pseudo-terminal; its exit code and output."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))  # 40 rows of 100 columns
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=follower, stderr=follower,
                               env={**os.environ, "COLUMNS": "100"})
    os.close(follower)
    chunks: list[bytes] = []
    while True:
        ready, _, _ = select.select([leader], [], [], timeout)
        if not ready:
            process.kill()
            raise AssertionError("the command hung: " + b"".join(chunks).decode(errors="replace"))
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the other side closed: the process has ended
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return process.wait(timeout=timeout), b"".join(chunks).decode(errors="replace")


def piped(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def three_games(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('games') / 'games.db'}"

    async def play() -> None:
        store = await open_store(url)
        try:
            for seed in (1, 2, 3):
                await play_game(store, phases=3, seed=seed)
        finally:
            await store.close()

    asyncio.run(play())
    return url


def test_entente_help_lists_every_command_with_one_line() -> None:
    done = piped([ENTENTE, "--help"])
    assert done.returncode == 0
    listed = {line.split()[0]: line for line in done.stdout.splitlines() if line.startswith("  ") and
              line.split() and line.split()[0] in COMMANDS}
    assert set(listed) == set(COMMANDS)
    assert all(len(line.split()) > 3 for line in listed.values())
    assert "exit codes" in done.stdout
    bare = piped([ENTENTE])
    assert bare.returncode == 2 and "commands:" in bare.stderr


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_help_has_an_example(command: str) -> None:
    done = piped([ENTENTE, command, "--help"])
    assert done.returncode == 0, done.stderr
    examples = done.stdout.split("example", 1)
    assert len(examples) == 2, done.stdout
    assert f"entente {command}" in examples[1]


def test_replay_all_shows_progress_on_a_terminal_and_counts(three_games: str) -> None:
    code, output = on_a_terminal([ENTENTE, "replay", "--all", "--database", three_games])
    assert code == 0, output
    assert "entente replay" in output and "game/s" in output  # the progress bar (tqdm)
    assert "replay: 3 of 3 games verified" in output and "every result and position matches" in output


def test_replay_all_through_a_pipe_prints_only_its_count(three_games: str) -> None:
    done = piped([ENTENTE, "replay", "--all", "--database", three_games])
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.startswith("replay: 3 of 3 games verified") and len(done.stdout.splitlines()) == 1


def test_replay_all_names_the_first_game_that_differs(three_games: str, tmp_path: Path) -> None:
    import sqlite3

    copy = tmp_path / "tampered.db"
    copy.write_bytes(Path(three_games.split(":///", 1)[1]).read_bytes())
    with sqlite3.connect(copy) as connection:  # one stored result changed behind the store's back
        position, data = connection.execute(
            "SELECT position, data FROM events WHERE type = 'PhaseResolved' ORDER BY position LIMIT 1").fetchone()
        resolved = json.loads(data)
        resolved["next_phase"] = "W1999A"
        connection.execute("UPDATE events SET data = ? WHERE position = ?", (json.dumps(resolved), position))
        game = connection.execute("SELECT stream_id FROM events WHERE position = ?", (position,)).fetchone()[0]
    done = piped([ENTENTE, "replay", "--all", "--database", f"sqlite:///{copy}"])
    assert done.returncode == 1
    assert done.stdout.startswith("replay: 2 of 3 games verified")
    assert f"1 differ, the first: game {game.removeprefix('game-')}: phase S1901M: next_phase" in done.stdout


def test_export_all_then_import_restores_every_game(three_games: str, tmp_path: Path) -> None:
    backup = tmp_path / "backup"
    code, output = on_a_terminal([ENTENTE, "export", "--all", "--output", str(backup), "--database", three_games])
    assert code == 0, output
    assert "entente export" in output and "game/s" in output
    assert "3 games (" in output and f"written to {backup}" in output
    files = sorted(backup.glob("*.jsonl"))
    assert len(files) == 3
    restored = f"sqlite:///{tmp_path / 'restored.db'}"
    done = piped([ENTENTE, "import", str(backup), "--database", restored])
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("entente import: 3 games imported (") and len(done.stderr.splitlines()) == 1
    again = piped([ENTENTE, "import", str(files[0]), "--database", restored])
    assert again.returncode == 1 and "already exists" in again.stderr
    assert piped([ENTENTE, "replay", "--all", "--database", restored]).stdout.startswith("replay: 3 of 3")


LOG_ONE_LINE = ("from shared.logs import configure; import logging; configure(); "
                "logging.getLogger('entente.test').info('request', extra={'route': '/games/{game_id}', 'status': 200})")


def test_logs_are_text_on_a_terminal_and_json_lines_otherwise() -> None:
    code, output = on_a_terminal([sys.executable, "-c", LOG_ONE_LINE])
    assert code == 0 and "entente.test  request  route=/games/{game_id}  status=200" in output, output
    done = piped([sys.executable, "-c", LOG_ONE_LINE])
    line = json.loads(done.stderr)
    assert (line["level"], line["logger"], line["message"], line["route"], line["status"]) == (
        "info", "entente.test", "request", "/games/{game_id}", 200)
