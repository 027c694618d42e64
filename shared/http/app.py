"""The app factory every service uses: settings checked and the store opened in the lifespan,
the one error shape installed, request bodies limited and checked (body.py), account and bot
tokens resolved (middleware.py), cross-origin requests from ``ENTENTE_CORS_ORIGINS`` (cors.py),
each request counted, timed and logged under its request id (observability.py), the routers
mounted, ``/healthz`` and ``/metrics``, and the OpenAPI document completed with every route's
errors and security (openapi.py).
"""
from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field

from shared import metrics
from shared.auth import hash_token
from shared.game.repository import bound_state_cache
from shared.rules.variants import engine_build
from shared.settings import Settings
from shared.store import open_store
from shared.store.availability import StoreProbe

from .body import RequestBodyGate
from .cors import CORSMiddleware
from .errors import install_error_handlers, unavailable_response
from .methods import HeadAsGet
from .middleware import SocialAuthMiddleware
from .observability import DRAINING, RequestObservability, metrics_endpoint
from .openapi import install_openapi
from .route_bodies import install_strict_bodies
from .stream_leases import close_shared_streams

log = logging.getLogger("entente")


class Health(BaseModel):
    status: str
    store: str
    engine: str = Field(description="the rules engine's build in this process: pure, compiled or compiled-c-core "
                                    "(docs/operations.md, \"Which engine runs\")")


def operation_id(route: APIRoute) -> str:
    return route.name


def _rarely_asked_last(app: FastAPI) -> None:
    """The framework's own pages (``/docs``, ``/redoc``, the document) after the services'
    routes: a request is matched against the routes in order, and the game routes are the ones
    asked all the time (docs/architecture.md, "A PUT, layer by layer"). No two routes match one
    path, so the order changes no answer."""
    own = {app.openapi_url, app.docs_url, app.redoc_url, app.swagger_ui_oauth2_redirect_url}
    rare = [route for route in app.router.routes if getattr(route, "path", None) in own]
    app.router.routes[:] = [route for route in app.router.routes if route not in rare] + rare


def build_app(title: str, routers: Sequence[APIRouter], settings: Settings | None = None) -> FastAPI:
    """A FastAPI app serving ``routers``; ``settings`` default to the ENTENTE_* environment."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        checked = (settings if settings is not None else Settings()).checked()
        store = await open_store(checked.database_url)
        bound_state_cache(store, checked.state_cache_mib * 2**20)
        app.state.settings = checked
        app.state.store = store
        # the reads that may lag go to the replica when one is named (docs/scale.md, "Read replicas")
        read_store = await open_store(checked.read_database_url) if checked.read_database_url else store
        app.state.read_store = read_store
        app.state.operator_hash = hash_token(checked.operator_secret())
        app.state.metrics_networks = checked.metrics_networks()
        app.state.metrics_hash = checked.metrics_token_hash()
        app.state.engine, _ = engine_build()  # the engine's build, decided when it is first imported
        DRAINING.watch()  # the server's signal handlers are in place by now (uvicorn's lifespan)
        try:
            yield
        finally:
            await close_shared_streams(app)  # this process's stream leases, before the store goes
            if read_store is not store:
                await read_store.close()
            await store.close()
            metrics.process_stopped()

    # operation ids are the routes' names (the handler's, or the name a route is given:
    # submit_orders for replace_orders), unique across the services
    # (tests/http/test_openapi.py): what a generated client calls its methods
    app = FastAPI(title=title, version="0.1.0", lifespan=lifespan, generate_unique_id_function=operation_id)
    install_error_handlers(app)
    app.add_middleware(SocialAuthMiddleware)
    app.add_middleware(RequestBodyGate)  # runs before any token is read
    app.add_middleware(HeadAsGet)  # HEAD wherever GET is (shared/http/methods.py)
    app.add_middleware(RequestObservability)  # sees every answer, the refusals of the inner layers too
    app.add_middleware(CORSMiddleware)  # added last: the outermost, so every answer carries it

    install_strict_bodies(routers)  # each route that reads a body reads it strictly, once
    for router in routers:
        app.include_router(router)

    probe = StoreProbe()

    @app.get("/healthz", tags=["health"], response_model=Health)
    async def healthz() -> Health | JSONResponse:
        """Readiness: the store answers a read within 2 s (503 ``unavailable`` with
        ``Retry-After`` when it does not; docs/deploy.md, "Health checks")."""
        store = app.state.store
        if not await probe.ready(store):
            log.warning("not ready: the store does not answer")
            return unavailable_response()
        return Health(status="ok", store=store.dialect, engine=app.state.engine)

    @app.get("/livez", tags=["health"], response_model=Health)
    async def livez() -> Health:
        """Liveness: the process answers; the store is not asked (a database away makes a
        server unready, never restarted for it)."""
        return Health(status="ok", store=app.state.store.dialect, engine=app.state.engine)

    app.add_api_route("/metrics", metrics_endpoint, methods=["GET"], include_in_schema=False)

    _rarely_asked_last(app)
    install_openapi(app)
    return app
