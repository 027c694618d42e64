"""Settings are checked at start-up; each service runs alone; the OpenAPI document is complete."""
from __future__ import annotations

import logging

import pytest
from pydantic import SecretStr

from services.adjudication.api import create_app as adjudication_app
from services.app import create_app
from services.visibility.api import create_app as visibility_app
from shared.settings import Settings, SettingsError
from tests.utils.http import running_client


def test_settings_come_from_entente_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENTENTE_DATABASE_URL", "sqlite:///./elsewhere.db")
    monkeypatch.setenv("ENTENTE_PORT", "9001")
    monkeypatch.setenv("ENTENTE_OPERATOR_TOKEN", "a-long-enough-operator-secret")
    settings = Settings()
    assert settings.database_url == "sqlite:///./elsewhere.db" and settings.port == 9001
    assert settings.checked().operator_secret() == "a-long-enough-operator-secret"


@pytest.mark.parametrize("token", [None, "", "changeme", "short"])
def test_weak_operator_tokens_are_refused_outside_development(token: str | None) -> None:
    with pytest.raises(SettingsError, match="ENTENTE_OPERATOR_TOKEN"):
        Settings(operator_token=None if token is None else SecretStr(token), environment="production").checked()


def test_development_generates_a_token_shown_on_the_terminal_not_in_the_logs(
        caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]) -> None:
    with caplog.at_level(logging.WARNING, logger="entente.settings"):
        checked = Settings(operator_token=None, environment="development").checked()
    assert len(checked.operator_secret()) >= 16
    assert checked.operator_secret() in capsys.readouterr().err
    assert "generated" in caplog.text and checked.operator_secret() not in caplog.text
    assert checked.checked() is checked  # a good token is kept as it is, and not shown again


async def test_a_service_refuses_to_start_with_a_default_token(sqlite_url: str) -> None:
    app = create_app(Settings(database_url=sqlite_url, operator_token=SecretStr("changeme"), environment="production"))
    with pytest.raises(SettingsError):
        async with app.router.lifespan_context(app):
            pass


async def test_adjudication_and_visibility_run_alone(sqlite_url: str) -> None:
    async with running_client(sqlite_url, adjudication_app) as client:
        missing = await client.post("/games/g_0/resolve")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "game_not_found"
        assert (await client.get("/games")).status_code == 404  # the lobby's routes are not here
    async with running_client(sqlite_url, visibility_app) as client:
        assert (await client.get("/games/g_0/view")).json()["error"]["code"] == "game_not_found"


def test_the_openapi_document_lists_every_endpoint() -> None:
    paths = create_app().openapi()["paths"]
    assert {("post", "/games"), ("get", "/games"), ("post", "/games/{game_id}/players"),
            ("post", "/games/{game_id}/start"), ("get", "/games/{game_id}"),
            ("put", "/games/{game_id}/orders"), ("post", "/games/{game_id}/resolve"),
            ("get", "/games/{game_id}/view"), ("get", "/games/{game_id}/possible-orders"),
            ("get", "/games/{game_id}/events"), ("post", "/games/{game_id}/finish")} <= {
        (method, path) for path, methods in paths.items() for method in methods}
