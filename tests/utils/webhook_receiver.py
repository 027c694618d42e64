"""A local webhook receiver on 127.0.0.1: ``/ok/{name}`` accepts, ``/fail/{name}`` answers 500,
``/slow/{name}`` answers after two seconds. Every request is recorded by name: its JSON body in
``received``, and its headers and raw body in ``requests`` (to check signatures). A push
service's two answers (RFC 8030): ``/push/{name}`` takes an encrypted push (201, its body
recorded in ``requests`` only), ``/gone/{name}`` says the subscription expired (410)."""
from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route


class Receiver:
    def __init__(self) -> None:
        self.received: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.requests: dict[str, list[tuple[dict[str, str], bytes]]] = defaultdict(list)

    async def _record(self, request: Request) -> str:
        name = request.path_params["name"]
        body = await request.body()
        self.requests[name].append((dict(request.headers), body))
        self.received[name].append(json.loads(body))
        return name

    async def ok(self, request: Request) -> Response:
        await self._record(request)
        return Response(status_code=204)

    async def fail(self, request: Request) -> Response:
        await self._record(request)
        return Response("broken", status_code=500)

    async def slow(self, request: Request) -> Response:
        await self._record(request)
        await asyncio.sleep(2)  # a slow receiver: what the tests of the delivery's timeout need
        return Response(status_code=204)

    async def push(self, request: Request) -> Response:
        self.requests[request.path_params["name"]].append((dict(request.headers), await request.body()))
        return Response(status_code=201)

    async def gone(self, request: Request) -> Response:
        self.requests[request.path_params["name"]].append((dict(request.headers), await request.body()))
        return Response(status_code=410)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/push/{name}", self.push, methods=["POST"]),
                                 Route("/gone/{name}", self.gone, methods=["POST"]),
                                 Route("/ok/{name}", self.ok, methods=["POST"]),
                                 Route("/fail/{name}", self.fail, methods=["POST"]),
                                 Route("/slow/{name}", self.slow, methods=["POST"])])
