"""A game described once for every service: ``GameInfo``, what names a game (the view's
``game``, visibility), and ``GameSummary``, that and its public state (the lobby's answers).
``GameState.summary()`` (shared/game/state.py) writes the summary's dict, which is also the
games row's ``summary``; tests/http/test_game_summary.py holds the two together."""
from __future__ import annotations

from typing import Literal, TypedDict

from pydantic import BaseModel, Field

from shared.game.state import GameSummaryJSON, Status
from shared.http.models import DateTimeText, absent_if_none


class GameInfo(BaseModel):
    id: str
    name: str
    variant: str
    status: Literal["forming", "active", "finished"]
    phase: str | None
    settings: dict[str, object]


class PowerSeat(BaseModel):
    codename: str
    house_bot: bool = Field(False, description="the house bot plays this power now (docs/bots.md)")
    daide: bool = Field(False, description="a DAIDE bot took this seat on the game's own port (docs/bots.md)")
    house_bot_since: str | None = Field(None, description=(
        "the phase from which the house bot plays the power, its player having missed their phases; "
        "null for a seat nobody joined, or when the bot does not play it"))
    missed: int = Field(0, description="the phases in a row the power's player missed (no orders: NMR)")
    civil_disorder: bool = Field(False, description="the power missed the last phase it had to act in")


class ClockInfo(BaseModel):
    deadline: DateTimeText | None = Field(None, description="when the current phase resolves (ISO 8601, UTC)")
    paused_until: DateTimeText | None = Field(None, description="a paused game resumes by itself then")
    phase_minutes: int = 0
    extended_minutes: int = Field(0, description="added to this phase by the host so far")


class DrawInfo(BaseModel):
    passed: bool
    votes: dict[str, bool] | None = Field(None, description="every power's vote, only in games with public votes")
    proposals: dict[str, list[str]] | None = absent_if_none(
        "with public votes and partial_draws: the powers of the draw each power's seat votes for, where it names them")
    concessions: dict[str, str] | None = absent_if_none(
        "with public votes and concessions: the power each power's seat concedes to")


class GameResult(BaseModel):
    reason: Literal["victory", "draw", "abandoned"] | None
    winners: list[str]
    drawn: list[str]


class GameSummary(GameInfo):
    players: int
    codenames: list[str]
    powers: dict[str, PowerSeat]
    must_act: list[str]
    winners: list[str]
    clock: ClockInfo | None = None
    civil_disorder: list[str] = Field(default_factory=list, description="powers that missed their last deadline")
    draw: DrawInfo = Field(default_factory=lambda: DrawInfo(passed=False))
    result: GameResult | None = None
    daide_port: int | None = Field(None, description=(
        "a game open to DAIDE bots (daide_open), not finished: the TCP port of the DAIDE server's host "
        "where a bot takes the next free seat with NME (docs/bots.md, \"A port per game\"); null otherwise"))
    daide_seats: list[str] = Field(default_factory=list, description=(
        "the codenames of the seats DAIDE bots took on the game's port (sorted)"))
    submitted: list[str] | None = Field(None, description=(
        "GET /games/{id}: the powers that are done ordering for the phase (their whole set sent, or "
        "the ready flag set), never the orders (null in lists and answers that do not read them)"))
    ready: list[str] | None = Field(None, description="GET /games/{id}: the powers that set the ready flag")
    ordering: list[str] | None = Field(None, description=(
        "GET /games/{id}: the powers with orders stored one at a time that have not said they are done"))
    waiting_for: list[str] | None = Field(None, description=(
        "GET /games/{id}: the acting powers the phase still waits for before it resolves early"))
    updated_at: str | None = Field(None, description=(
        "GET /games: when the game last changed (created, a seat taken, a phase resolved...); "
        "null in answers about one game"))


# the summary's keys that GameState.summary() does not write: the answers about one game add them
ANSWER_ONLY = frozenset({"submitted", "ready", "ordering", "waiting_for", "updated_at"})


class GameInfoJSON(TypedDict):
    """``GameInfo`` as the view's ``game`` holds it (``game_info``)."""

    id: str
    name: str
    variant: str
    status: Status
    phase: str | None
    settings: dict[str, object]  # GameSettings.model_dump()


def game_info(summary: GameSummaryJSON) -> GameInfoJSON:
    """The ``GameInfo`` part of a summary's dict (its fields in the model's order:
    tests/http/test_game_summary.py)."""
    return {"id": summary["id"], "name": summary["name"], "variant": summary["variant"],
            "status": summary["status"], "phase": summary["phase"], "settings": summary["settings"]}
