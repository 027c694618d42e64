"""The shape of a view, for the OpenAPI document (the projection itself is view.py)."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class GameInfo(BaseModel):
    id: str
    name: str
    variant: str
    status: Literal["forming", "active", "finished"]
    phase: str | None
    settings: dict[str, Any]


class ViewerInfo(BaseModel):
    kind: Literal["power", "player", "public", "operator"] = Field(..., description=(
        "power: a player seeing as their power; player: a seated player before the powers are "
        "drawn (a forming game: codename only); public; operator"))
    power: str | None
    codename: str | None
    powers: list[str] = []  # every power of the viewer's seat


class DislodgedView(BaseModel):
    power: str
    unit: str
    attacker_from: str
    retreats: list[str]


class PositionView(BaseModel):
    """The board as the variant lets the viewer see it. Standard: units and centres per power,
    dislodged units, builds or removals per power in adjustment phases; other variants add
    their own fields (dirigible: points, devastated; see docs/rules/)."""

    model_config = ConfigDict(extra="allow")
    phase: str


class ResultView(BaseModel):
    order: str
    result: Literal["succeeds", "fails", "void", "ok", "failed", "invalid"]  # the last three: Ekonia
    reason: str


class ResolvedPhaseView(BaseModel):
    """A resolved phase as the variant lets the viewer see it (``history_view``): every order
    in the standard game; in Tale of Ekonia the viewer's own orders and the turn's details
    the policy shows them (shared/rules/ekonia/policy.py)."""

    phase: str
    orders: dict[str, list[ResultView]]
    dislodged: list[DislodgedView]
    next_phase: str
    details: dict[str, Any] | None = None


class PowerView(BaseModel):
    codename: str


class GameView(BaseModel):
    game: GameInfo
    viewer: ViewerInfo
    powers: dict[str, PowerView]
    position: PositionView | None
    must_act: list[str]
    orders: dict[str, list[str]]
    history: list[ResolvedPhaseView]
    winners: list[str]
    clock: dict[str, Any] | None = None  # deadline, paused_until, phase_minutes, extended_minutes
    civil_disorder: list[str] = []  # powers that missed their last deadline
    draw: dict[str, Any] = {}  # passed, your_vote (and votes, with public votes)
    result: dict[str, Any] | None = None  # reason, winners, drawn once the game is over
