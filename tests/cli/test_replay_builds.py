"""``entente replay --every-build`` (docs/operations.md, "Replay in every build"): a game played
through the services, its stored phases re-adjudicated by the C core, the compiled engine and
the Python sources, each in its own process, and found equal to what is stored; a tampered
phase named by every build."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from services.cli.ops import run
from shared.rules.variants import engine_build
from tests.cli.test_ops import export_lines, play

BUILDS = ("compiled-c-core", "compiled", "pure")
PHASES = 14  # two years: movement, retreats (when someone is dislodged) and adjustments
WITH_EVERY_BUILD = engine_build()[0] == "compiled-c-core"  # this install has all three


def build_lines(out: str) -> dict[str, str]:
    return {line.split(":")[0]: line for line in out.splitlines() if line.split(":")[0] in BUILDS}


def movement_phases(url: str, game_id: str, capsys: pytest.CaptureFixture[str]) -> int:
    lines = export_lines(url, game_id, capsys)
    return sum(1 for line in lines if line["type"] == "PhaseResolved" and line["data"]["phase"].endswith("M"))


def test_every_build_replays_a_played_game_and_finds_it_as_stored(
    store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = play(store_url, phases=PHASES, seed=7)
    movements = movement_phases(store_url, game_id, capsys)
    assert run("replay", [game_id, "--every-build", "--database", store_url]) == 0
    out = capsys.readouterr().out
    lines = build_lines(out)
    for build, line in lines.items():
        assert f"{PHASES} resolved phases re-adjudicated" in line and line.endswith("every result and position matches")
        assert f"; {build} build" in line
    if WITH_EVERY_BUILD:
        assert set(lines) == set(BUILDS)
        assert out.splitlines()[-1] == "every build matches the stored events (3 of 3: compiled-c-core, compiled, pure)"
        # the core resolved the movement phases, the engine the retreats and adjustments
        assert f"the C core resolving {movements} of the {PHASES}" in lines["compiled-c-core"]
        assert "(ENTENTE_NO_C_CORE is set)" in lines["compiled"] and "(ENTENTE_PURE_PYTHON is set)" in lines["pure"]
    else:
        assert "pure" in lines and "not in this install" in out


def test_every_build_names_the_phase_a_tampered_log_differs_at(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'played.db'}"
    game_id = play(url, phases=8, seed=11)
    lines = export_lines(url, game_id, capsys)
    fall = next(line for line in lines if line["type"] == "PhaseResolved" and line["data"]["phase"] == "F1901M")
    units = fall["data"]["position"]["units"]
    units[sorted(units)[0]].pop()  # a unit gone from the stored result of a phase the C core resolves
    log = tmp_path / "tampered.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    target = f"sqlite:///{tmp_path / 'target.db'}"
    assert run("import", [str(log), "--database", target]) == 0
    capsys.readouterr()
    assert run("replay", ["--all", "--every-build", "--database", target]) == 1
    out = capsys.readouterr().out
    found = build_lines(out)
    assert set(found) == (set(BUILDS) if WITH_EVERY_BUILD else set(found))
    for line in found.values():
        assert re.search(rf"0 of 1 games verified .*1 differ, the first: game {game_id}: phase F1901M: "
                         r"position.units.", line), line
    assert "every build matches" not in out
