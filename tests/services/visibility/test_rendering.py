"""A view's JSON (services/visibility/rendering.py) is the ``GameView`` model's, byte for byte:
for every viewer of games of the three variants, on the current page, older pages and past
phases, written fresh and again from the remembered history entries; and it drops what a
closed part of the schema does not name, as the model does."""
from __future__ import annotations

import json
from typing import Any

from services.visibility.past import past_of, past_view
from services.visibility.rendering import view_json
from services.visibility.schemas import GameView
from services.visibility.view import GameViewJSON, view_of, viewer_for
from shared.auth import PUBLIC, Caller
from shared.game.cached import Caches, caches_of
from shared.game.log import phase_submissions
from shared.game.repository import full_state, read_game, with_recent_history
from shared.game.state import GameState
from tests.games.test_dirigible_game import FALL, OPENING, SPRING, create_dirigible_table, play
from tests.games.test_ekonia_game import play_turn, started_ekonia
from tests.utils.http import Host
from tests.utils.played_game import play_game


def model_text(seen: GameViewJSON) -> bytes:
    return GameView.model_validate(seen).model_dump_json().encode()


def callers(state: GameState) -> list[Caller]:
    return [PUBLIC, Caller("operator"), *(Caller("player", seat.player_id) for seat in state.seats)]


async def views_of(host: Host, game_id: str) -> list[GameViewJSON]:
    """Every viewer's view now, of the page before, and of two past phases."""
    game = await read_game(host.store, game_id)
    assert game is not None
    state = await full_state(host.store, game)
    submissions = await phase_submissions(host.store, game_id, str(state.phase)) if state.phase else {}
    resolved = len(state.resolved)
    caches = caches_of(host.store)
    seen: list[GameViewJSON] = []
    for caller in callers(state):
        viewer = viewer_for(caller, state, None)
        seen.append(view_of(state, submissions, viewer, caches=caches))
        seen.append(view_of(state, submissions, viewer, max(0, resolved - 20), caches=caches))
        seen += [past_view(state, past_of(state, index), viewer, caches=caches)
                 for index in {resolved // 3, resolved - 1} if index >= 0]
    return seen


def assert_written_as_the_model_writes(views: list[GameViewJSON], caches: Caches) -> None:
    assert views
    for seen in views:
        expected = model_text(seen)
        assert view_json(seen) == expected  # nothing remembered
        assert view_json(seen, caches=caches) == expected
        assert view_json(seen, caches=caches) == expected  # again, from the remembered history entries
    assert len(caches.history_entries) and len(caches.history_entry_texts)


async def test_standard_views_are_the_models_text(host: Host) -> None:
    game_id = await play_game(host.store, 45)
    views = await views_of(host, game_id)
    assert any(len(seen["history"]) == 20 for seen in views) and any(seen.get("resolution") for seen in views)
    assert_written_as_the_model_writes(views, caches_of(host.store))


async def test_dirigible_views_are_the_models_text(host: Host) -> None:
    table = await create_dirigible_table(host.client)
    await play(table, "W1900A", OPENING)
    await play(table, "S1901M", SPRING)
    await play(table, "F1901M", FALL)
    assert_written_as_the_model_writes(await views_of(host, table.game_id), caches_of(host.store))


async def test_ekonia_views_are_the_models_text(host: Host) -> None:
    game = await started_ekonia(host)
    for turn in (1, 2, 3):
        await play_turn(game, turn)
    assert_written_as_the_model_writes(await views_of(host, game.game_id), caches_of(host.store))


async def test_keys_a_closed_part_does_not_name_are_dropped_as_the_model_drops_them(host: Host) -> None:
    game_id = await play_game(host.store, 3)
    game = await read_game(host.store, game_id)
    assert game is not None
    state = await with_recent_history(host.store, game)
    seen = view_of(state, {}, viewer_for(PUBLIC, state, None))
    power = next(iter(seen["powers"]))
    leaky: Any = {**seen, "secret": "top",  # keys the model does not know: an untyped view on purpose
                  "powers": {**seen["powers"], power: {**seen["powers"][power], "player_id": "p"}},
                  "viewer": {**seen["viewer"], "token_hash": "h"}}
    text = view_json(leaky)
    assert text == model_text(leaky)
    assert b"secret" not in text and b"player_id" not in text and b"token_hash" not in text
    assert json.loads(text)["powers"][power] == seen["powers"][power]
