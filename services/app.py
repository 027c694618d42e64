"""The combined app: lobby, adjudication and visibility in one process (``entente serve``)."""
from __future__ import annotations

from fastapi import FastAPI

from services.adjudication.api import router as adjudication_router
from services.factory import build_app
from services.lobby.api import router as lobby_router
from services.visibility.api import router as visibility_router
from shared.settings import Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    return build_app("Entente", [lobby_router, adjudication_router, visibility_router], settings)


app = create_app()
