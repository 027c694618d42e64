"""One description of a game (shared/http/summary.py): the lobby answers ``GameSummary``, the
view's ``game`` is its ``GameInfo`` part, and ``GameState.summary()`` writes exactly the
summary's keys (those the answers about one game add aside), in the types the model reads."""
from __future__ import annotations

from services.adjudication.service import opening
from services.lobby.schemas import CreatedGame, GameList
from services.visibility.schemas import GameView
from services.visibility.view import Viewer, view
from shared.events import Event, GameCreated, GameSettings, GameStarted, PlayerJoined
from shared.game.state import fold
from shared.http.summary import ANSWER_ONLY, GameInfo, GameSummary

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def logs() -> tuple[list[Event], list[Event]]:
    """A forming game's log, and the same game started."""
    forming: list[Event] = [GameCreated(game_id="g_1", variant="standard", name="Test", settings=GameSettings(),
                           host_token_hash="h" * 64)]
    forming += [PlayerJoined(player_id=f"p_{i}", codename=f"Codename {i}", token_hash=f"{i}" * 64) for i in range(7)]
    first = opening("standard", GameSettings(), seed=5)
    started = [*forming, GameStarted(seed=5, powers={f"p_{i}": [p] for i, p in enumerate(POWERS)}, phase=first.phase,
                                     position=first.state, must_act=first.must_act)]
    return forming, started


def test_the_state_writes_the_summary_the_model_describes() -> None:
    for log in logs():
        summary = fold(log).summary()
        assert set(summary) == set(GameSummary.model_fields) - ANSWER_ONLY
        assert GameSummary.model_validate(summary).model_dump(exclude_unset=True) == summary


def test_the_view_and_the_lobby_use_the_one_model() -> None:
    assert issubclass(GameSummary, GameInfo)
    assert GameView.model_fields["game"].annotation is GameInfo
    assert GameList.model_fields["games"].annotation == list[GameSummary] and issubclass(CreatedGame, GameSummary)
    _, started = logs()
    state = fold(started)
    shown = view(started, Viewer.public())["game"]
    assert shown == GameInfo.model_validate(state.summary()).model_dump()
