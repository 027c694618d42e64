"""What the lobby accepts and returns over HTTP (never the stored events as they are)."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from shared.http.models import RequestBody, absent_if_none
from shared.http.summary import GameSummary
from shared.text import UserText


class SettingsIn(RequestBody):
    player_count: int | None = Field(None, ge=1, le=7, description=(
        "players seated; default: the variant's full table. standard: 2 to 7 (fewer than seven "
        "share the powers, docs/hosting.md); dirigible: 7 only; ekonia: 2 to 6 (default 6)"))
    edition: Literal["2000", "2023"] = Field("2000", description="rules edition for civil disorder")
    press: Literal["full", "public", "none"] = Field("full", description=(
        "full: public and private messages; public: public messages only; none: gunboat"))
    reveal_identities: bool = Field(False, description="show who played which power once the game ends")
    movement_minutes: int = Field(24 * 60, description="the movement clock, 1 minute to 30 days")
    retreat_minutes: int = Field(6 * 60, description="the shorter clock of retreats and builds, 1 minute to 30 days")
    require_ready: bool = Field(False, description=(
        "early resolution also waits for every power that must act to mark itself ready"))
    public_votes: bool = Field(False, description="show every seat's draw vote (secret by default)")
    max_pause_minutes: int = Field(3 * 24 * 60, description="a pause resumes by itself after at most this long")
    host_may_resolve: bool = Field(True, description=(
        "the host may resolve the current phase at once; switch off where the host also plays"))
    max_turns: int | None = Field(None, ge=1, le=1000, description=(
        "ekonia only: the game ends after this turn, won by the states holding the most land"))
    bots_may_join: bool = Field(False, description=(
        "an account's API key (a bot) may take a seat; a signed-in person or a seat token always may"))
    house_bot: Literal["holding", "heuristic"] | None = Field(None, description=(
        "standard and dirigible: the house bot's strength (docs/bots.md); null: no house bot"))
    bots_fill_empty_seats: bool = Field(False, description=(
        "the house bot takes every seat nobody joined when the host starts the game (needs house_bot)"))
    bot_after_missed_phases: int | None = Field(None, ge=1, le=20, description=(
        "the house bot plays a power whose player missed this many phases in a row, until the "
        "player orders again (needs house_bot); null: never"))
    daide_open: bool = Field(False, description=(
        "standard games of seven: the DAIDE server gives the game a port of its own (daide_port in the "
        "summary) where an unmodified DAIDE bot (Albert, DumbBot) takes the next free seat (docs/bots.md)"))
    private: bool = Field(False, description=(
        "a private game: left out of GET /games, joined only with the invite code the creation answers "
        "(docs/hosting.md, \"Private games\")"))
    partial_draws: bool = Field(False, description=(
        "a draw vote may name the surviving powers that share it (as DAIDE's DRW (powers)); the draw passes "
        "when every surviving seat votes for the same powers (docs/hosting.md, \"Victory and draws\")"))
    concessions: bool = Field(False, description=(
        "a seat may concede to one surviving power (POST /games/{id}/concede); when every other surviving "
        "seat concedes to it, the game ends as that power's victory"))


class CreateGame(RequestBody):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"name": "Friday game", "variant": "standard", "settings": {"movement_minutes": 1440}},
        {"name": "Dirigible night", "variant": "dirigible", "settings": {"retreat_minutes": 720}},
        {"name": "Ekonia for four", "variant": "ekonia", "settings": {"player_count": 4, "max_turns": 30}}]})
    name: UserText = Field(..., min_length=1, max_length=100)
    variant: str = Field("standard", min_length=1, max_length=40)
    settings: SettingsIn = Field(default_factory=SettingsIn)


class CreatedGame(GameSummary):
    host_token: str = Field(..., description="keep it: it is shown once and stored only as a hash")
    invite_code: str | None = Field(None, description=(
        "a private game's invite code, for the players to join with: shown once, stored only as a hash "
        "(null for a public game)"))


class JoinGame(RequestBody):
    invite_code: str | None = Field(None, min_length=1, max_length=100, description=(
        "a private game's invite code (POST /games answered it to the host); a public game needs none"))


class JoinedGame(BaseModel):
    game_id: str
    player_id: str
    codename: str
    token: str = Field(..., description="keep it: it is shown once and stored only as a hash")


class GameList(BaseModel):
    games: list[GameSummary]
    next_cursor: str | None = Field(None, description="pass as ?cursor= for the next page; null: this was the last")


class FinishGame(RequestBody):
    reason: Literal["draw", "abandoned"]


class ExtendDeadline(RequestBody):
    minutes: int = Field(..., ge=1, le=30 * 24 * 60, description="at most one phase length per phase, in all")


class PauseGame(RequestBody):
    minutes: int | None = Field(None, ge=1, le=30 * 24 * 60, description=(
        "how long until the game resumes by itself (default and limit: the game's max_pause_minutes)"))


PowerName = Annotated[str, StringConstraints(min_length=1, max_length=20)]


class DrawVote(RequestBody):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"vote": True}, {"vote": True, "powers": ["ENGLAND", "FRANCE", "RUSSIA"]}, {"vote": False}]})
    vote: bool = Field(..., description="true: for a draw; false: withdraw the vote")
    powers: Annotated[list[PowerName], Field(min_length=2, max_length=7)] | None = Field(None, description=(
        "games with partial_draws: the surviving powers that share the draw (default: every surviving power)"))


class Concession(RequestBody):
    model_config = ConfigDict(json_schema_extra={"examples": [{"to": "FRANCE"}, {"to": None}]})
    to: PowerName | None = Field(None, description=(
        "the surviving power the seat concedes the game to; null or left out: withdraw the concession"))


class DrawStatus(BaseModel):
    passed: bool
    your_vote: bool | None = Field(None, description="the caller's own vote (null: none cast)")
    votes: dict[str, bool] | None = Field(None, description="every power's vote, only in games with public votes")
    proposals: dict[str, list[str]] | None = absent_if_none(
        "with public votes and partial_draws: the powers of the draw each power's seat votes for, where it names them")
    concessions: dict[str, str] | None = absent_if_none(
        "with public votes and concessions: the power each power's seat concedes to")
    your_powers: list[str] | None = absent_if_none(
        "the powers of the partial draw the caller votes for, where the vote names them")
    your_concession: str | None = absent_if_none("the power the caller concedes to, if any")
