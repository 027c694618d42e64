"""Where a PUT of orders spends its time, layer by layer: a script that prints figures, not a test.

    python benchmarks/put_layers.py [--requests 3000] [--rounds 3] [--sqlite | --database URL]

Everything runs in this one process, with no socket and no HTTP parser: each request is one call
of the ASGI app (a scope, one body message, the answer's messages collected), so that the
figures are the app's own cost per request, the part that a faster HTTP server cannot take
away. The stages add one layer each to the one before:

1. a bare FastAPI app with one empty ``PUT`` route (the floor: routing and a JSON answer);
2. to 6. the real app's middleware, added from the outermost inwards as ``build_app`` adds them
   (CORS, observability, HEAD as GET, the body gate, the token middleware), each still in front
   of the empty route;
7. the real app's route table, the empty route placed just before the real PUT's (so matched
   past the same routes);
8. the route's dependencies as ``submit_orders`` declares them (the rate limit, the bearer
   token, the seat from the cached game, the store and the clock: one dependency);
9. the body read into the ``SubmitOrders`` model;
10. the orders checked as the service checks them, and the answer built, without the append;
11. the real ``PUT /games/{id}/orders`` (the checked append to the store, no early resolution:
    one power of each game never orders).

Prints, per stage, the median and the 90th percentile of the time per request (µs) over
``--rounds`` rounds of ``--requests`` requests, and what the stage adds to the one before.
The store is a fresh PostgreSQL database (ENTENTE_BENCH_POSTGRES_URL, else
ENTENTE_TEST_POSTGRES_URL, else postgresql://postgres@127.0.0.1:5432/test) or, with
``--sqlite``, a SQLite file in a temporary folder. docs/architecture.md, "A PUT, layer by
layer", has the table.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fastapi import APIRouter, FastAPI, Request, Response  # noqa: E402
from pydantic import SecretStr  # noqa: E402

from benchmarks.scratch import scratch_database, server_url  # noqa: E402
from services.adjudication import api as adjudication_api  # noqa: E402
from services.app import create_app  # noqa: E402
from shared.game import intake  # noqa: E402
from shared.game.log import PhaseSubmissions  # noqa: E402
from shared.http.dependencies import OrderWriting  # noqa: E402
from shared.http.errors import install_error_handlers  # noqa: E402
from shared.http.models import written_once  # noqa: E402
from shared.settings import Settings  # noqa: E402
from tests.utils.http import asgi_request  # noqa: E402

OPERATOR_TOKEN = "bench-layers-" + "7f3a9c1e5b2d8f4a6c0e9b1d3f5a7c2e"
GAMES = 24  # a power writes at most 300 times a phase: the requests are spread over the games' seats
# the limits counted (their cost is a layer) but never reached
UNLIMITED: dict[str, Any] = {f"rate_{action}_per_{whom}": "0" for action in ("create", "join", "orders")
             for whom in ("address", "token")}


# ----------------------------------------------------------------------------- one ASGI call


async def call(app: Any, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, bytes]:
    """One request through ``app`` (``asgi_request``, the tests' one ASGI call), its body written
    as JSON: the answer's status and body."""
    headers = {"content-type": "application/json"} if body is not None else {}
    if token:
        headers["authorization"] = f"Bearer {token}"
    return await asgi_request(app, method, path, b"" if body is None else json.dumps(body).encode(), headers)


# ----------------------------------------------------------------------------- the stages' routes


def stage_router() -> APIRouter:
    """Routes that stop the real PUT after one more of its parts each."""
    router = APIRouter()

    @router.put("/bench/empty/{game_id}")
    async def empty(game_id: str) -> dict[str, Any]:
        return {"ok": True}

    @router.put("/bench/dependencies/{game_id}")
    async def dependencies(writer: OrderWriting, request: Request) -> dict[str, Any]:
        return {"ok": True}

    @router.put("/bench/body/{game_id}")
    async def body(writer: OrderWriting, body: adjudication_api.SubmitOrders, request: Request) -> dict[str, Any]:
        return {"ok": True}

    @router.put("/bench/check/{game_id}", response_model=adjudication_api.SubmissionResult)
    async def check(writer: OrderWriting, body: adjudication_api.SubmitOrders,
                    request: Request) -> Response:
        game = writer.game
        assert writer.caller.player_id is not None

        def known(phase: str, acting: str) -> Any:
            return PhaseSubmissions(writer.store, game.game_id, phase).known(acting)

        submission, _ = intake._checked_submission(  # the decision, without its append
            game, writer.caller.player_id, body.orders, phase=str(game.phase), now=writer.now, metadata=None,
            power=body.power, known=known)
        return written_once(adjudication_api.SubmissionResult.model_validate({
            "phase": submission.phase, "power": submission.power, "resolved": False,
            "done": intake.whole_set_accepted(submission.checks),
            **adjudication_api._feedback(game, submission.phase, submission.power, submission.checks)}))

    return router


def bare_app() -> FastAPI:
    app = FastAPI()
    install_error_handlers(app)
    app.include_router(stage_router())
    return app


def with_middleware(real: FastAPI, count: int, *, all_routes: bool) -> FastAPI:
    """An app with the real app's ``count`` outermost middleware (and its state), in front of
    the stage routes alone or of the real app's routes too."""
    app = FastAPI()
    install_error_handlers(app)
    app.state = real.state
    # Starlette keeps user middleware outermost first; adding re-inserts at the front
    for middleware in reversed(real.user_middleware[:count]):
        app.add_middleware(middleware.cls, *middleware.args, **middleware.kwargs)
    app.include_router(stage_router())
    if all_routes:  # the stage routes just before the real PUT's router: matched as late as the PUT
        stages = app.router.routes.pop()
        routes = list(real.router.routes)
        routes.insert(next(i for i, route in enumerate(routes) if _holds_the_put(route)), stages)
        app.router.routes[:] = routes
    return app


def _holds_the_put(route: Any) -> bool:
    inner = getattr(route, "original_router", None)
    return inner is not None and any(getattr(r, "name", "") == "submit_orders" for r in inner.routes)


# ----------------------------------------------------------------------------- the games


async def seated_games(app: Any) -> list[tuple[str, list[str]]]:
    """``GAMES`` started games, each with the tokens of six of its seven players (the seventh
    never orders, so no phase resolves early)."""
    games = []
    for index in range(GAMES):
        status, created = await call(app, "POST", "/games", {"name": f"layers {index}", "variant": "standard"},
                                     token=OPERATOR_TOKEN)
        assert status == 201, created
        game = json.loads(created)
        tokens = []
        for _ in range(7):
            status, joined = await call(app, "POST", f"/games/{game['id']}/players")
            assert status == 201, joined
            tokens.append(json.loads(joined)["token"])
        status, started = await call(app, "POST", f"/games/{game['id']}/start", token=game["host_token"])
        assert status == 200, started
        games.append((game["id"], tokens))
    return games


async def orders_of(app: Any, game_id: str, token: str) -> list[str]:
    """A small real set: every unit of the token's power holds."""
    status, view = await call(app, "GET", f"/games/{game_id}/possible-orders", token=token)
    assert status == 200, view
    return [next(o for o in options if o.endswith(" H")) for options in json.loads(view)["orders"].values()]


# ----------------------------------------------------------------------------- timing


async def timed(app: Any, path_of: Callable[[str], str], seats: list[tuple[str, str, list[str]]],
                requests: int) -> list[float]:
    """``requests`` PUTs, seat after seat: each request's time in µs."""
    times = []
    cycle = itertools.cycle(seats)
    gc.collect()
    for _ in range(requests):
        game_id, token, orders = next(cycle)
        started = time.perf_counter()
        status, answer = await call(app, "PUT", path_of(game_id), {"orders": orders}, token=token)
        times.append((time.perf_counter() - started) * 1e6)
        if status != 200:
            raise RuntimeError(f"{path_of(game_id)}: {status} {answer[:300]!r}")
    return times


async def main(args: argparse.Namespace) -> None:
    backend = "sqlite" if args.sqlite else "postgresql"
    async with scratch_database(backend, server_url(), "entente_layers") as url:
        database = args.database or url
        settings = Settings(database_url=database, operator_token=SecretStr(OPERATOR_TOKEN), environment="test",
                            run_worker=False, **UNLIMITED)
        real = create_app(settings)
        async with real.router.lifespan_context(real):
            games = await seated_games(real)
            seats = [(game_id, token, await orders_of(real, game_id, token))
                     for game_id, tokens in games for token in tokens[:6]]
            names = [getattr(m.cls, "__name__", repr(m.cls)) for m in real.user_middleware]
            stages: list[tuple[str, Any, Callable[[str], str]]] = [
                ("bare FastAPI, an empty route", bare_app(), lambda g: f"/bench/empty/{g}")]
            stages += [(f"+ {name}", with_middleware(real, count, all_routes=False), lambda g: f"/bench/empty/{g}")
                       for count, name in enumerate(names, start=1)]
            full = with_middleware(real, len(names), all_routes=True)
            stages += [
                ("+ the real route table", full, lambda g: f"/bench/empty/{g}"),
                ("+ the route's dependencies", full, lambda g: f"/bench/dependencies/{g}"),
                ("+ the body model", full, lambda g: f"/bench/body/{g}"),
                ("+ the orders checked, the answer built", full, lambda g: f"/bench/check/{g}"),
                ("+ the checked append: the real PUT", real, lambda g: f"/games/{g}/orders"),
            ]
            results: dict[str, list[float]] = {name: [] for name, _, _ in stages}
            for _, app, path_of in stages:  # warm every path once
                await timed(app, path_of, seats, min(200, args.requests))
            for _ in range(args.rounds):
                for name, app, path_of in stages:
                    results[name].extend(await timed(app, path_of, seats, args.requests))
    print(f"PUT /games/{{id}}/orders in process, layer by layer ({backend}; {args.rounds} x {args.requests} "
          f"requests a stage; µs a request)")
    print(f"{'stage':<44} {'median':>8} {'p90':>8} {'adds':>8}")
    before = 0.0
    for name, _, _ in stages:
        values = sorted(results[name])
        median = statistics.median(values)
        p90 = values[int(len(values) * 0.9)]
        print(f"{name:<44} {median:8.0f} {p90:8.0f} {median - before:+8.0f}")
        before = median


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file instead of PostgreSQL")
    parser.add_argument("--database", help="an existing database URL to use (its data is kept)")
    asyncio.run(main(parser.parse_args()))
