"""The shape of a view, for the OpenAPI document (the projection itself is view.py).

Positions come in the shapes of the variants: the Diplomacy board's (standard), the Dirigible
variant's (the same with supply points and devastation) and Tale of Ekonia's (the public map
and the viewer's own section, shared/rules/ekonia/policy.py). Every model lets through keys it
does not name, so a variant that shows more never breaks a client that reads less.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag
from pydantic.json_schema import JsonDict

from shared.http.models import DateTimeText, StructuredOrder, absent_if_none
from shared.http.summary import GameInfo, GameResult

Open = ConfigDict(extra="allow")


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


def _tag_required(schema: JsonDict) -> None:
    """The tag is always written (its default fills it in): required, so a generated client
    narrows the union by it."""
    required = schema.get("required")
    kept = [name for name in required if name != "variant"] if isinstance(required, list) else []
    schema["required"] = ["variant", *kept]


Tagged = ConfigDict(extra="allow", json_schema_extra=_tag_required)


class _Board(BaseModel):
    model_config = Tagged
    phase: str
    units: dict[str, list[str]]
    centres: dict[str, list[str]]
    adjustments: dict[str, int]
    dislodged: list[DislodgedView]


class BoardPosition(_Board):
    """The standard board: units (``A PAR``) and supply centres by power, the dislodged units of
    a retreat phase, builds allowed (positive) or removals owed (negative) in adjustment phases."""

    variant: Literal["standard"] = Field("standard", description="the shape of the position (its tag)")


class DirigiblePosition(_Board):
    """The Dirigible board: dirigibles (``D LON``) among the units, the centres devastated this
    year, and in a Winter each power's supply points and balance (docs/rules/dirigible.md)."""

    variant: Literal["dirigible"] = Field("dirigible", description="the shape of the position (its tag)")
    devastated: list[str]
    points: dict[str, int]
    balance: dict[str, int]


class EkoniaUnit(BaseModel):
    model_config = Open
    type: str
    owner: str
    location: str


class EkoniaPosition(BaseModel):
    """Tale of Ekonia: ``public`` (the same for everyone), ``own`` (a state's player: everything
    of its own), and the units the map shows, centres and who survives, per state, for the lobby
    (docs/rules/ekonia.md, section 14)."""

    model_config = Tagged
    variant: Literal["ekonia"] = Field("ekonia", description="the shape of the position (its tag)")
    phase: str
    units: dict[str, list[EkoniaUnit]]
    centres: dict[str, list[str]]
    surviving: list[str]
    public: dict[str, object]
    own: dict[str, object] | None = absent_if_none()


def shape_of(shown: Any) -> str:
    """Which of the three shapes a view's position has: its tag, or (a variant's own view,
    untagged) what it holds."""
    if not isinstance(shown, dict):
        return str(getattr(shown, "variant", "standard"))
    tag = shown.get("variant")
    if tag in POSITION_TAGS:
        return str(tag)
    return "ekonia" if "public" in shown else "dirigible" if "devastated" in shown else "standard"


POSITION_TAGS = ("standard", "dirigible", "ekonia")
# a view's position, tagged by ``variant`` (docs/api.md, "The OpenAPI document")
Position = Annotated[Annotated[EkoniaPosition, Tag("ekonia")] | Annotated[DirigiblePosition, Tag("dirigible")]
                     | Annotated[BoardPosition, Tag("standard")], Discriminator(shape_of)]


class ResultView(BaseModel):
    model_config = Open
    order: str
    result: Literal["succeeds", "fails", "void", "ok", "failed", "invalid"]  # the last three: Ekonia
    reason: str
    structured: StructuredOrder


class ResolvedPhaseView(BaseModel):
    """A resolved phase as the variant lets the viewer see it (``history_view``): every order
    in the standard game; in Tale of Ekonia the viewer's own orders and the turn's details
    the policy shows them (shared/rules/ekonia/policy.py); ``position``: the board the phase
    was played from, as the viewer saw it."""

    model_config = Open
    phase: str
    orders: dict[str, list[ResultView]]
    dislodged: list[DislodgedView]
    next_phase: str
    details: dict[str, object] | None = None
    position: Position


class PowerView(BaseModel):
    codename: str
    house_bot: bool = Field(False, description="the house bot plays this power now (docs/bots.md)")
    daide: bool = Field(False, description="a DAIDE bot took this seat on the game's own port (docs/bots.md)")
    house_bot_since: str | None = Field(None, description=(
        "the phase from which the house bot plays the power, its player having missed their phases"))
    missed: int = Field(0, description="the phases in a row the power's player missed (no orders: NMR)")
    civil_disorder: bool = Field(False, description="the power missed the last phase it had to act in")


class ClockView(BaseModel):
    deadline: DateTimeText | None = Field(None, description="when the current phase resolves (ISO 8601, UTC)")
    paused_until: DateTimeText | None = None
    phase_minutes: int = 0
    extended_minutes: int = 0


class DrawView(BaseModel):
    passed: bool
    your_vote: bool | None = None
    votes: dict[str, bool] | None = absent_if_none("every power's vote, only in games with public votes")
    proposals: dict[str, list[str]] | None = absent_if_none(
        "with public votes and partial_draws: the powers of the draw each power's seat votes for, where it names them")
    concessions: dict[str, str] | None = absent_if_none(
        "with public votes and concessions: the power each power's seat concedes to")
    your_powers: list[str] | None = absent_if_none(
        "the powers of the partial draw the caller votes for, where the vote names them")
    your_concession: str | None = absent_if_none("the power the caller concedes to, if any")


class GameView(BaseModel):
    game: GameInfo
    viewer: ViewerInfo
    powers: dict[str, PowerView]
    position: Position | None
    must_act: list[str]
    submitted: list[str] = Field(..., description=(
        "powers that are done ordering for the phase: they sent their whole set (PUT, an empty one "
        "included) or set the ready flag; never the orders"))
    ready: list[str] | None = Field(..., description=(
        "powers that set the ready flag (done); null in a past phase's view (not kept)"))
    ordering: list[str] | None = Field(None, description=(
        "powers with orders stored one at a time (PATCH) that have not said they are done; null in a "
        "past phase's view (not kept)"))
    waiting_for: list[str] = Field(default_factory=list, description=(
        "the acting powers the phase still waits for before it resolves early; empty once resolved"))
    orders: dict[str, list[str]] = Field(..., description="pending orders the caller may see, as text")
    structured_orders: dict[str, list[StructuredOrder]] = Field(..., description="the same, structured")
    history: list[ResolvedPhaseView] = Field(..., description=(
        "one page of the resolved phases, oldest first: the 20 latest, or with ?history_before= those before it"))
    history_before: str | None = Field(None, description=(
        "the first phase of this page when earlier ones exist: pass it as ?history_before= for the page before"))
    winners: list[str]
    clock: ClockView | None = None
    civil_disorder: list[str] = []  # powers that missed their last deadline
    draw: DrawView
    result: GameResult | None = None
    resolution: ResolvedPhaseView | None = Field(None, description=(
        "with ?phase=: that phase's orders and results as the caller's history shows them"))
