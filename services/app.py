"""The combined app: lobby, adjudication and visibility in one process (``entente serve``)."""
from __future__ import annotations

from fastapi import FastAPI

from services.accounts.api import router as accounts_router
from services.adjudication.api import router as adjudication_router
from services.lobby.api import router as lobby_router
from services.notifications.api import router as notifications_router
from services.notifications.channels_api import router as channels_router
from services.press.api import router as press_router
from services.visibility.api import router as visibility_router
from services.visibility.maps.api import router as maps_router
from services.visibility.stream import router as stream_router
from shared.http.app import build_app
from shared.settings import Settings
from shared.web import router as web_router


def create_app(settings: Settings | None = None) -> FastAPI:
    # the most asked first (order writes, then views): a request is matched against the routes
    # in order, and no two routes match one path (docs/architecture.md, "A PUT, layer by layer")
    routers = [adjudication_router, visibility_router, stream_router, lobby_router, press_router, maps_router,
               accounts_router, notifications_router, channels_router, web_router]
    return build_app("Entente", routers, settings)
