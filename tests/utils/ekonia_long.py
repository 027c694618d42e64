"""A long Tale of Ekonia game, played through the platform's own service functions (no HTTP,
for speed) on a hosted app whose views are then read over HTTP: every state that can pay for
it sends a spy for the records of the next state each turn, so that spending and knowledge
grow with every turn, as in a played game (tests/services/visibility/test_ekonia_view_size.py,
benchmarks/ekonia_view_bytes.py)."""
from __future__ import annotations

from shared.errors import DomainError
from shared.game.intake import submit_orders
from shared.game.repository import read_game
from shared.game.resolution import resolve_phase
from shared.rules.ekonia.records import as_state
from tests.utils.http import Host, HostedGame

RECORDS_COST = 25  # SPY RECORDS (shared/rules/ekonia/catalogue.py)


async def started_ekonia(host: Host) -> HostedGame:
    response = await host.client.post("/games", json={"name": "Long Ekonia", "variant": "ekonia"})
    assert response.status_code == 201, response.text
    created = response.json()
    game = HostedGame(host, created["id"], created["host_token"])
    for _ in range(6):
        await game.join()
    await game.start()
    return game


async def play_until(game: HostedGame, turn: int) -> int:
    """Resolve turns until the game stands at turn ``turn`` (its phase ``T{turn}``); the turn reached."""
    store = game.host.store
    while True:
        state = await read_game(store, game.game_id)
        assert state is not None and state.position is not None and state.status == "active", "the game ended"
        position = as_state(state.position)
        now = position["turn"]
        if now >= turn:
            return now
        powers = sorted(position["powers"])
        for index, power in enumerate(powers):
            record = position["powers"][power]
            if not record["alive"] or record["gold"] < RECORDS_COST:
                continue
            target = powers[(index + 1) % len(powers)]
            try:
                await submit_orders(store, game.game_id, game.player(power).player_id,
                                    [f"SPY RECORDS {target}"], power=power)
            except DomainError:
                pass  # refused (the state's own check): it holds this turn
        await resolve_phase(store, game.game_id, state.phase)


async def view_bytes(game: HostedGame, power: str | None = None, **params: str) -> int:
    """The bytes of the view a client reads (a player's, or the public's)."""
    headers = game.player(power).auth if power else {}
    response = await game.client.get(f"{game.url}/view", headers=headers, params=params)
    assert response.status_code == 200, response.text
    return len(response.content)
