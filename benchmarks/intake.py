"""A DAIDE ``SUB`` and an HTTP ``PUT`` of the same orders, each through its whole server-side path:
a script that prints figures, not a test.

    python benchmarks/intake.py [--backend sqlite|postgresql] [--games 12] [--rounds 5]

Everything runs in this one process. A fresh database (PostgreSQL: ENTENTE_BENCH_POSTGRES_URL,
else ENTENTE_TEST_POSTGRES_URL, else postgresql://postgres@127.0.0.1:5432/test; SQLite: a file
in a temporary folder) gets ``--games`` started standard games. In each, six powers order over
DAIDE (a ``Session`` of services/daide/session.py, joined with NME and the map accepted, each
``SUB`` handed to it as the server's connection hands a message in) and the same orders are
given over HTTP (one ASGI call of the real app per ``PUT``, no socket), Russia never ordering
so that no phase resolves. Each round, every power of every game orders once more (a
resubmission, as a bot revising its orders). It prints the median and the 90th percentile of
the time per message, and the mean store sessions (reads and writes: each is at least one round
trip to the database) and reads (of a stream, of a prefix's streams, of a stream's version) each
one made, counted at the store's own ``_session`` for the task handling that message only (the
DAIDE watchers' reads in the background are not the message's).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pydantic import SecretStr  # noqa: E402

from benchmarks.scratch import scratch_database, server_url  # noqa: E402
from services.app import create_app  # noqa: E402
from services.daide.board import unit  # noqa: E402
from services.daide.session import Session  # noqa: E402
from services.daide.syntax import Item, Text  # noqa: E402
from services.daide.watch import Hub  # noqa: E402
from services.lobby.service import create_game, join_game, settings_for, start_game  # noqa: E402
from shared.game.repository import read_game  # noqa: E402
from shared.rules.bots.reading import holdings  # noqa: E402
from shared.settings import Settings  # noqa: E402
from shared.store import EventStore  # noqa: E402
from tests.utils.counted_store import count_sessions, counted  # noqa: E402
from tests.utils.http import asgi_request  # noqa: E402

ORDERING = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "TURKEY")  # Russia never orders


def desk_for(store: EventStore) -> Any:
    """The DAIDE server's desk as ``entente daide`` builds it (services/cli/daide.py)."""
    from services.cli.daide import build_desk

    return build_desk()


async def timed(call: Callable[[], Any]) -> tuple[float, int, int]:
    """The time ``call()`` took, and the store sessions and reads it made (tests/utils/counted_store.py)."""
    started = time.perf_counter()
    counts = await counted(call)
    return time.perf_counter() - started, counts.sessions, counts.read_count


async def seated(store: EventStore) -> tuple[str, dict[str, str], dict[str, list[str]]]:
    """A started game: its id, each power's token and units."""
    created = await create_game(store, name="intake bench", variant="standard", settings=settings_for("standard", {}))
    game_id = created.state.game_id
    joined = [await join_game(store, game_id) for _ in range(7)]
    state = await start_game(store, game_id)
    tokens = {state.powers_of(j.player_id)[0]: j.token for j in joined}
    assert state.position is not None
    return game_id, tokens, holdings(state.position, "units")


def hold(power: str, text: str) -> list[Item]:
    """DAIDE's ``((FRA AMY PAR) HLD)`` for ``A PAR`` of FRANCE."""
    return [unit(power, text), "HLD"]


async def daide_seat(hub: Hub, game_id: str, token: str, sent: list[list[Item]]) -> Session:
    session = Session(hub, sent.append, lambda: None, "127.0.0.1")
    await session.handle(["NME", [Text(f"{game_id}/{token}")], [Text("bench")]])
    await session.handle(["YES", ["MAP", [Text("STANDARD")]]])
    await session.catch_up()  # HLO, SCO, NOW (the watcher would send them a moment later)
    session.read_at_turn()  # the SUBs to come were sent having seen that NOW
    assert session.power is not None and session.seen_phase == "S1901M", sent
    return session


async def put(app: Any, path: str, body: bytes, headers: dict[str, str], answers: list[tuple[int, bytes]]) -> None:
    answers.append(await asgi_request(app, "PUT", path, body, headers))


def figures(samples: list[tuple[float, int, int]]) -> str:
    times = sorted(s for s, _, _ in samples)
    p90 = times[int(len(times) * 0.9)]
    sessions, reads = [n for _, n, _ in samples], [r for _, _, r in samples]
    return (f"median {statistics.median(times) * 1000:6.2f} ms  p90 {p90 * 1000:6.2f} ms  "
            f"store sessions {statistics.mean(sessions):4.2f} (max {max(sessions)})  "
            f"reads {statistics.mean(reads):4.2f} (max {max(reads)})")


async def measure(url: str, args: argparse.Namespace) -> None:
    settings = Settings(database_url=url, operator_token=SecretStr("operator-token-for-the-intake-bench"),
                        environment="test")
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        store: EventStore = app.state.store  # one store for both ways in, as one process has
        if True:
            hub = Hub(store, desk_for(store))
            count_sessions(store)
            daide_games = [await seated(store) for _ in range(args.games)]
            http_games = [await seated(store) for _ in range(args.games)]
            sent: list[list[Item]] = []
            sessions = {(g, p): await daide_seat(hub, g, tokens[p], sent) for g, tokens, _ in daide_games
                        for p in ORDERING}
            by_sub: list[tuple[float, int, int]] = []
            by_put: list[tuple[float, int, int]] = []
            for _ in range(args.rounds):
                for (game_id, _, units), (http_id, tokens, http_units) in zip(daide_games, http_games, strict=True):
                    await read_game(store, game_id)  # as a session has it: the game read by its watcher
                    for power in ORDERING:
                        items: list[Item] = ["SUB", *(hold(power, u) for u in units[power])]
                        sent.clear()
                        by_sub.append(await timed(partial(sessions[(game_id, power)].handle, items)))
                        assert [m[0] for m in sent] == ["THX"] * len(units[power]), sent
                        body = json.dumps({"orders": [f"{u} H" for u in http_units[power]]}).encode()
                        headers = {"authorization": f"Bearer {tokens[power]}", "content-type": "application/json"}
                        answers: list[tuple[int, bytes]] = []
                        by_put.append(await timed(partial(put, app, f"/games/{http_id}/orders", body, headers,
                                                          answers)))
                        assert answers[0][0] == 200, answers
            print(f"{args.backend}: {args.games} games, six powers each, {args.rounds} rounds "
                  f"({len(by_sub)} messages each way)")
            print(f"  DAIDE SUB  {figures(by_sub)}")
            print(f"  HTTP PUT   {figures(by_put)}")
            for session in sessions.values():
                session.close()
            await hub.settle(5)


async def benchmark(args: argparse.Namespace) -> None:
    async with scratch_database(args.backend, server_url(), "intake_bench") as url:
        await measure(url, args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(benchmark(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
