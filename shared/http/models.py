"""Response models several services share, for the OpenAPI document: structured orders and
menus of possible orders (docs/api.md, "Structured orders"), and the one error shape
(shared/errors.py) with its codes.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Response
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

# a time as the API writes it (ISO 8601 with its offset, UTC): a string, typed date-time for clients
DateTimeText = Annotated[str, WithJsonSchema({"type": "string", "format": "date-time"})]


class RequestBody(BaseModel):
    """The base of every request body model: strict (docs/api.md, "Errors"): a boolean is true
    or false, an integer a JSON integer; "yes", 1 or "7" in their place is a client's mistake,
    answered 422, and so is a key the model does not name. A model adds to this configuration
    (its examples) with its own ``model_config``, which pydantic merges with this one."""

    model_config = ConfigDict(extra="forbid", strict=True)


def written_once(model: BaseModel) -> Response:
    """``model`` as a 200 answer, written once by pydantic's own serializer. A handler that
    returns the model instead has FastAPI check it against the route's ``response_model`` again
    and write it through the json module: a hot route's third of its answer's cost
    (docs/architecture.md, "A PUT, layer by layer"). The route keeps its ``response_model``
    for the document."""
    return Response(model.model_dump_json(), media_type="application/json")


# marks a key the answers leave out, rather than write null (shared/http/presence.py)
ABSENT_WHEN_NULL = "x-absent-when-null"


def absent_if_none(description: str | None = None, **more: Any) -> Any:
    """An optional key: left out, rather than null, where it does not apply."""
    return Field(None, description=description, exclude_if=lambda value: value is None,
                 json_schema_extra={ABSENT_WHEN_NULL: True}, **more)





class StructuredOrder(BaseModel):
    """One order as a structured value (docs/api.md, "Structured orders"): ``text``, ``type``,
    ``unit`` and ``to`` always; the other keys where the type has them."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, serialize_by_alias=True)
    text: str = Field(..., description="the order in the variant's canonical notation")
    type: str = Field(..., description=(
        "standard, dirigible: hold, move, support_hold, support_move, convoy, retreat, disband, build, "
        "remove, waive, devastate; ekonia: move, load, unload, bombard, drop, rebase, disband, hide_units, "
        "privateer, buy, improve, raze, morale, hide_cities, spy, give, expect, diplomacy; unknown: not an order"))
    unit: str | None = Field(..., description="the unit ordered (A PAR, F STP/SC, D LON; ekonia 3 INFANTRY at anesia)")
    to: str | None = Field(..., description="where the unit (or the supported unit, or the convoyed army) goes")
    via_convoy: bool | None = absent_if_none("move: by convoy only")
    supported: str | None = absent_if_none("support_hold, support_move: the unit supported")
    convoyed: str | None = absent_if_none("convoy: the army convoyed")
    location: str | None = absent_if_none("build: the site; ekonia: where the order takes effect")
    count: int | None = absent_if_none("ekonia: how many units")
    unit_type: str | None = absent_if_none("ekonia: INFANTRY, CAVALRY, TRIREME, TRANSPORT, AIRSHIP")
    from_: str | None = absent_if_none("ekonia: where the units start", alias="from")
    path: list[str] | None = absent_if_none("ekonia move: every territory passed, origin first")
    improvement: str | None = absent_if_none("ekonia improve: FORT, SHIPYARD, GASVENT")
    level: int | None = absent_if_none("ekonia morale, hide_cities")
    mission: str | None = absent_if_none("ekonia spy: the mission")
    target: str | None = absent_if_none("ekonia spy: a territory or a state")
    amount: int | None = absent_if_none("ekonia give, expect: gold")
    power: str | None = absent_if_none("ekonia give, expect, diplomacy: the other state")
    stance: str | None = absent_if_none("ekonia diplomacy: WAR, PEACE, TRADE, END TRADE, SPARE, HUNT")



class MenuGroup(BaseModel):
    """One group of a menu of possible orders, in the same shape in every variant."""

    key: str = Field(..., description="the group's key in the text menu (orders)")
    kind: Literal["unit", "site", "power"] = Field(..., description=(
        "unit: a unit's orders; site: what may be built or bought at a place; power: orders of the "
        "power as a whole (waive a build; ekonia diplomacy, espionage, morale)"))
    unit: str | None = Field(..., description="kind unit: the unit (A PAR, D LON; ekonia 3 INFANTRY at anesia)")
    location: str | None = Field(..., description="where the unit stands, or the site")
    orders: list[StructuredOrder]
