"""A route's JSON body read strictly once, after the route is found and its rate limits
counted (docs/operations.md, "Request bodies"; the rules: docs/api.md, "Bad input").

``install_strict_bodies`` gives every route that reads a body a first step: the route's rate
limits are counted (shared/http/rate_limits.py: once per request, the dependency does not count
again), then a JSON body is read by ``StrictJSON`` (shared/http/body.py): 422
``invalid_request`` naming the field when it breaks a rule, else the value is handed to
FastAPI as the request's decoded JSON, so the body is decoded once. A path no route serves, or
a route that reads no body, never has its body decoded at all.
"""
from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterator, Sequence
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from shared.errors import ErrorCode, Unprocessable

from .body import StrictJSON, is_json
from .rate_limits import RATE_ACTION, count_request, token_hash_of

Handler = Callable[[Request], Coroutine[Any, Any, Response]]


def _actions(dependant: Dependant) -> Iterator[str]:
    for dependency in dependant.dependencies:
        action = getattr(dependency.call, RATE_ACTION, None)
        if isinstance(action, str):
            yield action
        yield from _actions(dependency)


def rate_actions(route: APIRoute) -> list[str]:
    """The rate-limited actions a route's dependencies count (``rate_limited``, the order writer)."""
    return list(dict.fromkeys(_actions(route.dependant)))


def strictly_read(route: APIRoute, handler: Handler) -> Handler:
    actions = rate_actions(route)

    async def checked(request: Request) -> Response:
        if actions:
            token_hash = token_hash_of(request)
            for action in actions:
                await count_request(request, action, token_hash)
        body = await request.body()
        if body and is_json(request.scope):
            read = StrictJSON(body)
            if read.problem is not None:
                where, problem = read.problem
                raise Unprocessable(f"{where}: {problem}", code=ErrorCode.INVALID_REQUEST, where=where,
                                    details=[{"where": where, "message": problem}])
            if not read.not_json:
                # Starlette's Request keeps its decoded JSON here: FastAPI reads it and decodes nothing again
                request._json = read.value
        return await handler(request)

    return checked


class StrictBodyRoute(APIRoute):
    """An ``APIRoute`` whose handler reads its body strictly first (``strictly_read``)."""

    def get_route_handler(self) -> Handler:
        handler = super().get_route_handler()
        return strictly_read(self, handler) if self.body_field is not None else handler


def install_strict_bodies(routers: Sequence[APIRouter]) -> None:
    """Every route of ``routers`` that reads a body reads it strictly, once (see above): its
    class becomes ``StrictBodyRoute`` (it adds no state, only the first step of its handler),
    before the routers are included in an app (which builds the handlers)."""
    for router in routers:
        for route in router.routes:
            if type(route) is APIRoute:
                route.__class__ = StrictBodyRoute
