"""Every request body is strict (shared/http/models.py, ``RequestBody``; docs/api.md, "Errors"):
each model a route of the combined app reads a body into, and each model inside one, extends
the one base, so no body can be configured otherwise by a model that forgot."""
from __future__ import annotations

import json
import typing

from fastapi import APIRouter
from fastapi.routing import APIRoute
from pydantic import BaseModel

import services.app
from shared.http.models import RequestBody


def models_in(annotation: object) -> set[type[BaseModel]]:
    found: set[type[BaseModel]] = set()
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        found.add(annotation)
        for field in annotation.model_fields.values():
            found |= models_in(field.annotation)
    for argument in typing.get_args(annotation):
        found |= models_in(argument)
    return found


def body_models() -> dict[str, set[type[BaseModel]]]:
    routers = [value for value in vars(services.app).values() if isinstance(value, APIRouter)]
    assert len(routers) >= 9
    found: dict[str, set[type[BaseModel]]] = {}
    for router in routers:
        for route in router.routes:
            if isinstance(route, APIRoute):
                for parameter in route.dependant.body_params:
                    found.setdefault(f"{sorted(route.methods or ())} {route.path}", set()).update(
                        models_in(parameter.field_info.annotation))
    return found


def test_every_request_body_model_is_strict() -> None:
    found = body_models()
    everything = set().union(*found.values())
    names = {model.__name__ for model in everything}
    assert {"CreateGame", "SettingsIn", "SubmitOrders", "PatchOrders", "SendMessage", "WebhookIn",
            "ChannelWebhookIn", "NewCredential"} <= names
    loose = sorted(model.__name__ for model in everything if not issubclass(model, RequestBody))
    assert loose == []
    for model in everything:
        assert model.model_config.get("extra") == "forbid" and model.model_config.get("strict") is True, model


def test_a_model_that_adds_configuration_stays_strict() -> None:
    from services.adjudication.api import PatchOrders
    from services.notifications.api import WebhookIn

    assert PatchOrders.model_config.get("json_schema_extra")  # its examples, beside the base's settings
    for wrong in ({"orders": "A PAR - BUR"}, {"orders": ["A PAR - BUR"], "power": 7}, {"clear": [], "more": 1}):
        assert not _accepts(PatchOrders, wrong), wrong
    assert not _accepts(WebhookIn, {"url": 12345678})
    assert _accepts(WebhookIn, {"url": "https://discord.com/api/webhooks/1/x"})


def _accepts(model: type[BaseModel], body: dict) -> bool:
    try:
        model.model_validate_json(json.dumps(body))
    except ValueError:
        return False
    return True
