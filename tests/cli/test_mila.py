"""``entente export --format mila`` read by MILA's own ``diplomacy`` package (from PyPI): its
``is_valid_saved_game`` replays our export with its engine and accepts it (docs/store.md)."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from services.cli.ops import run
from services.lobby.service import create_game, join_game, start_game
from shared.events import GameSettings, game_stream
from shared.game.intake import submit_orders
from shared.game.repository import fold_records
from shared.game.resolution import resolve_phase
from shared.rules.diplomacy import load_map, position_from_document
from shared.store import EventStore, open_store
from tests.utils.random_play import random_orders

diplomacy = pytest.importorskip("diplomacy", reason="MILA's diplomacy package (the test extra installs it)")


def without_milas_departure(order: str, board: object) -> str:
    """MILA moves an army ordered ``VIA`` to a neighbouring province over land when its convoy
    fails (the fourth edition and the DATC keep it in place): such an order, ours by the rules,
    is left to MILA's own test of it; here the army simply moves (docs/store.md, "MILA")."""
    words = order.split()
    if words[-1] == "VIA" and words[3].split("/")[0] in board.army_neighbours(words[1]):  # type: ignore[attr-defined]
        return " ".join(words[:-1])
    return order


async def play_game(store: EventStore, phases: int, seed: int) -> str:
    """Seven players, random legal orders (tests/utils/random_play.py), ``phases`` phases."""
    import random

    game_id = (await create_game(store, name="MILA", variant="standard", settings=GameSettings())).state.game_id
    for _ in range(7):
        await join_game(store, game_id)
    state = await start_game(store, game_id)
    player_of = {seat.power: seat.player_id for seat in state.seats}
    rng, board = random.Random(seed), load_map("standard")
    for _ in range(phases):
        state = fold_records(await store.events.read_stream(game_stream(game_id)))
        if state.status != "active":
            break
        for power, orders in random_orders(position_from_document(state.position), board, rng).items():
            if orders and power in state.must_act:
                texts = [without_milas_departure(str(order), board) for order in orders]
                await submit_orders(store, game_id, player_of[power], texts)
        await resolve_phase(store, game_id, state.phase)
    return game_id


def played(tmp_path: Path, phases: int, seed: int) -> tuple[str, str]:
    url = f"sqlite:///{tmp_path / f'played-{seed}.db'}"

    async def go() -> str:
        store = await open_store(url)
        try:
            return await play_game(store, phases, seed)
        finally:
            await store.close()

    return url, asyncio.run(go())


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_milas_own_check_accepts_our_export(tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int) -> None:
    from diplomacy.utils.export import is_valid_saved_game

    url, game_id = played(tmp_path, 30, seed)
    capsys.readouterr()
    assert run("export", [game_id, "--database", url, "--format", "mila"]) == 0
    saved = json.loads(capsys.readouterr().out)
    assert len(saved["phases"]) >= 10
    assert is_valid_saved_game(saved)


def test_the_zobrist_hash_is_milas() -> None:
    from diplomacy import Game

    from services.cli.mila import mila_zobrist_hash

    game = Game()
    for _ in range(3):  # a few phases of MILA's own game, every unit holding
        state = game.get_state()
        assert mila_zobrist_hash(state["units"], state["centers"], state["homes"]) == game.get_hash()
        for power in game.powers:
            game.set_orders(power, [])
        game.process()


def test_a_game_the_format_cannot_hold_is_refused_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'two.db'}"

    async def two_players() -> str:
        store = await open_store(url)
        try:
            settings = GameSettings(player_count=2)
            game_id = (await create_game(store, name="Two", variant="standard", settings=settings)).state.game_id
            for _ in range(2):
                await join_game(store, game_id)
            await start_game(store, game_id)
            return game_id
        finally:
            await store.close()

    game_id = asyncio.run(two_players())
    capsys.readouterr()
    assert run("export", [game_id, "--database", url, "--format", "mila"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "start in Spring 1901" in captured.err and "S1914M" in captured.err


def mila_samples() -> Path:
    """MILA's own saved games, shipped in its PyPI package (tests/network/*.json)."""
    return Path(diplomacy.__file__).parent / "tests" / "network"


def test_milas_own_games_import_resolve_here_and_go_back_valid(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from diplomacy.utils.export import is_valid_saved_game

    from shared.auth import hash_token

    url = f"sqlite:///{tmp_path / 'mila.db'}"
    files = [str(mila_samples() / f"{n}.json") for n in (1, 2, 3)]
    capsys.readouterr()
    assert run("import", ["--format", "mila", *files, "--database", url]) == 0
    captured = capsys.readouterr()
    imported = [json.loads(line) for line in captured.out.splitlines()]
    assert [i["mila_id"] for i in imported] == ["00128f1d", "001ce02c", "0021f2cf"]
    whole = {i["mila_id"]: json.loads(Path(f).read_text()) for i, f in zip(imported, files, strict=True)}
    for game in imported[:2]:  # every phase of the file resolved here as MILA did
        assert game["stopped"] is None and game["rejected"] == []
        assert game["phases"] == len(whole[game["mila_id"]]["phases"]) - 1
    third = imported[2]  # MILA moves an army ordered VIA over land when no fleet convoys it
    assert third["phases"] == 4 and "after S1902M MILA's TURKEY" in third["stopped"]
    assert "MILA adjudicated otherwise" in captured.err

    assert run("replay", ["--all", "--database", url]) == 0  # every imported phase re-adjudicates the same
    for game in imported:
        capsys.readouterr()
        assert run("export", [game["game_id"], "--database", url, "--with-secrets"]) == 0
        events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        joined = {e["data"]["token_hash"] for e in events if e["type"] == "PlayerJoined"}
        assert {hash_token(t) for t in game["tokens"].values()} == joined  # the printed tokens are the seats'
        assert events[-1]["type"] == "DeadlineSet"  # the game goes on here, on the clock
        assert run("export", [game["game_id"], "--database", url, "--format", "mila"]) == 0
        back = json.loads(capsys.readouterr().out)
        assert is_valid_saved_game(back)  # and MILA's check accepts it going back
        assert [p["name"] for p in back["phases"]] == \
            [p["name"] for p in whole[game["mila_id"]]["phases"]][:game["phases"] + 1]

    assert run("import", ["--format", "mila", files[0], "--database", url]) == 1
    assert "already exists" in capsys.readouterr().err


def test_a_file_that_is_no_mila_game_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'none.db'}"
    for text, said in (('{"id": "x"}', "needs an id and a list of phases"),
                       ('{"id": "x", "map": "modern", "phases": [{"name": "S1901M"}]}', "only the standard map"),
                       ("[1, 2]\nnot json\n", "line 1: not a saved game")):
        source = tmp_path / "bad.json"
        source.write_text(text, encoding="utf-8")
        capsys.readouterr()
        assert run("import", ["--format", "mila", str(source), "--database", url]) == 1
        assert said in capsys.readouterr().err
