"""A local OAuth2 provider speaking Discord's authorization-code protocol, for tests.

Endpoints as Discord's: ``GET /oauth2/authorize`` (here it approves at once and redirects back
with a code; the test says who signs in with an extra ``user`` query parameter, standing for
the person logging in on the provider's page), ``POST /api/oauth2/token`` (form: grant_type,
code, redirect_uri, client_id, client_secret, code_verifier) and ``GET /api/users/@me`` (Bearer
access token). PKCE is enforced as a provider enforces it (RFC 7636): an authorize request
without an S256 ``code_challenge`` is refused, and a code is exchanged only with the verifier
whose challenge it was issued for. ``authorize_queries`` keeps every authorize request's query.
Run it with ``serve_in_thread`` on 127.0.0.1; nothing leaves the machine.
"""
from __future__ import annotations

import asyncio
import base64
import hashlib
import secrets
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import parse_qs, urlencode

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

CLIENT_ID = "entente-test-client"
CLIENT_SECRET = "entente-test-client-secret-0123456789"


@dataclass
class ProviderUser:
    user_id: str
    username: str
    global_name: str


@dataclass
class LocalProvider:
    users: dict[str, ProviderUser] = field(default_factory=dict)
    codes: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # code -> (user id, redirect_uri, challenge)
    authorize_queries: list[dict[str, str]] = field(default_factory=list)
    access_tokens: dict[str, str] = field(default_factory=dict)  # token -> user id

    def add_user(self, user_id: str, username: str, global_name: str | None = None) -> ProviderUser:
        user = ProviderUser(user_id, username, global_name or username.title())
        self.users[user_id] = user
        return user

    async def authorize(self, request: Request) -> Response:
        query = request.query_params
        self.authorize_queries.append(dict(query))
        if query.get("client_id") != CLIENT_ID or query.get("response_type") != "code":
            return JSONResponse({"error": "invalid_request"}, status_code=400)
        challenge = query.get("code_challenge", "")
        if query.get("code_challenge_method") != "S256" or not 43 <= len(challenge) <= 128:
            return JSONResponse({"error": "invalid_request", "error_description": "PKCE S256 required"},
                                status_code=400)
        redirect_uri = query.get("redirect_uri", "")
        user_id = query.get("user", "")
        if user_id not in self.users:
            denied = urlencode({"error": "access_denied", "state": query.get("state", "")})
            return RedirectResponse(f"{redirect_uri}?{denied}")
        code = secrets.token_urlsafe(16)
        self.codes[code] = (user_id, redirect_uri, challenge)
        return RedirectResponse(f"{redirect_uri}?{urlencode({'code': code, 'state': query.get('state', '')})}")

    async def token(self, request: Request) -> Response:

        form = {k: v[0] for k, v in parse_qs((await request.body()).decode("utf-8")).items()}
        if form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET:
            return JSONResponse({"error": "invalid_client"}, status_code=401)
        granted = self.codes.pop(str(form.get("code", "")), None)  # a code works once
        if form.get("grant_type") != "authorization_code" or granted is None or granted[1] != form.get("redirect_uri"):
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        verifier = str(form.get("code_verifier", ""))
        digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        if not 43 <= len(verifier) <= 128 or digest != granted[2]:
            return JSONResponse({"error": "invalid_grant", "error_description": "PKCE verifier"}, status_code=400)
        access = secrets.token_urlsafe(24)
        self.access_tokens[access] = granted[0]
        return JSONResponse({"access_token": access, "token_type": "Bearer", "expires_in": 604800,
                             "refresh_token": secrets.token_urlsafe(24), "scope": "identify"})

    async def me(self, request: Request) -> Response:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        user_id = self.access_tokens.get(token) if scheme == "Bearer" else None
        if user_id is None:
            return JSONResponse({"message": "401: Unauthorized", "code": 0}, status_code=401)
        user = self.users[user_id]
        return JSONResponse({"id": user.user_id, "username": user.username, "global_name": user.global_name,
                             "discriminator": "0", "avatar": None})

    def app(self) -> Starlette:
        return Starlette(routes=[
            Route("/oauth2/authorize", self.authorize),
            Route("/api/oauth2/token", self.token, methods=["POST"]),
            Route("/api/users/@me", self.me),
        ])


@contextmanager
def serve_in_thread(app: ASGIApp, lifespan: Literal["auto", "on", "off"] = "off") -> Iterator[str]:
    """Serve an ASGI app with uvicorn on 127.0.0.1 (a free port) in a thread; yields its base URL.
    ``lifespan="on"`` runs the app's start-up and shut-down (an Entente app's store and tailers)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan=lifespan))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the local server did not start")
            threading.Event().wait(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)
        sock.close()
