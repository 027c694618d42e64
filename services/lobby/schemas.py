"""What the lobby accepts and returns over HTTP (never the stored events as they are)."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class SettingsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player_count: int = Field(7, ge=1, le=7, description="players seated; only 7 for now")
    edition: Literal["2000", "2023"] = Field("2000", description="rules edition for civil disorder")


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(..., min_length=1, max_length=100)
    variant: str = Field("standard", min_length=1, max_length=40)
    settings: SettingsIn = Field(default_factory=SettingsIn)


class PowerSeat(BaseModel):
    codename: str


class GameSummary(BaseModel):
    id: str
    name: str
    variant: str
    status: Literal["forming", "active", "finished"]
    phase: str | None
    settings: dict[str, Any]
    players: int
    codenames: list[str]
    powers: dict[str, PowerSeat]
    must_act: list[str]
    winners: list[str]


class CreatedGame(GameSummary):
    host_token: str = Field(..., description="keep it: it is shown once and stored only as a hash")


class JoinedGame(BaseModel):
    game_id: str
    player_id: str
    codename: str
    token: str = Field(..., description="keep it: it is shown once and stored only as a hash")


class GameList(BaseModel):
    games: list[GameSummary]


class FinishGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Literal["draw", "abandoned"]
