"""The one settings class of the services, read from ``ENTENTE_*`` variables.

Built in each app factory (never at import) and checked there: outside development a missing,
short or well-known operator token stops the service from starting. In development a missing
token is replaced by a random one, logged once at start-up, so that a local server is usable
without configuration but never runs with a guessable secret.
"""
from __future__ import annotations

import logging
import secrets
import sys
from functools import cached_property
from typing import Literal
from urllib.parse import urlsplit

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

log = logging.getLogger("entente.settings")

WELL_KNOWN_TOKENS = frozenset({"", "changeme", "change-me", "secret", "operator", "token", "admin"})
MINIMUM_TOKEN_LENGTH = 16


def parse_origins(text: str) -> frozenset[str]:
    """The origins of ``ENTENTE_CORS_ORIGINS``: ``*`` (any) or ``scheme://host[:port]`` each;
    raises ValueError for anything else (a path, a missing scheme), so a typo stops the start."""
    origins = set()
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if item == "*":
            origins.add(item)
            continue
        parts = urlsplit(item)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/") \
                or parts.query or parts.fragment or parts.username or parts.password:
            raise ValueError(f"{item!r} is not an origin (scheme://host[:port], e.g. https://play.example.org)")
        origins.add(f"{parts.scheme}://{parts.netloc.lower()}")
    return frozenset(origins)


class SettingsError(RuntimeError):
    """The settings are not safe to run with."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ENTENTE_", extra="ignore")

    database_url: str = "sqlite:///./entente.db"
    operator_token: SecretStr | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    environment: Literal["development", "test", "production"] = "development"
    # the clock worker (docs/hosting.md): `entente serve` runs one in-process unless switched off
    run_worker: bool = True
    worker_poll_seconds: float = 1.0
    # sign-in (docs/social.md): an OAuth2 provider speaking Discord's authorization-code flow
    oauth_provider: str = "discord"
    oauth_authorize_url: str = "https://discord.com/oauth2/authorize"
    oauth_token_url: str = "https://discord.com/api/oauth2/token"
    oauth_user_url: str = "https://discord.com/api/users/@me"
    oauth_client_id: str = ""
    oauth_client_secret: SecretStr | None = None
    oauth_redirect_uri: str = "http://127.0.0.1:8000/auth/callback"
    oauth_scope: str = "identify"
    # notifications (docs/social.md): webhook delivery from the outbox
    webhook_max_attempts: int = 6
    webhook_backoff_seconds: float = 30.0  # first retry after this; doubles each time
    webhook_timeout_seconds: float = 5.0
    webhook_allow_private_hosts: bool = False  # http and loopback/private addresses (tests, LAN)
    deadline_warning_minutes: int = 60  # "deadline approaching" this long before a deadline
    # browsers on other origins (docs/api.md, "CORS"): comma-separated origins, none by default
    cors_origins: str = ""
    # Discord (docs/social.md, "Discord"): a bot that sends signed-in players their notifications
    # as direct messages; the API's base URL is a setting so tests talk to a local fake of it
    discord_bot_token: SecretStr | None = None
    discord_api_url: str = "https://discord.com/api/v10"

    @cached_property
    def cors_origin_set(self) -> frozenset[str]:
        """The origins of ``cors_origins`` (checked by ``checked``)."""
        return parse_origins(self.cors_origins)

    def discord_bot_secret(self) -> str:
        return self.discord_bot_token.get_secret_value() if self.discord_bot_token else ""

    def checked(self) -> Settings:
        """These settings, safe to run: raises SettingsError, or fills a development token."""
        try:
            parse_origins(self.cors_origins)
        except ValueError as error:
            raise SettingsError(f"ENTENTE_CORS_ORIGINS: {error}") from None
        token = self.operator_token.get_secret_value() if self.operator_token else ""
        weak = token.strip().lower() in WELL_KNOWN_TOKENS or len(token) < MINIMUM_TOKEN_LENGTH
        if not weak:
            return self
        if self.environment != "development":
            raise SettingsError(
                "ENTENTE_OPERATOR_TOKEN is missing, default or shorter than "
                f"{MINIMUM_TOKEN_LENGTH} characters; set a long random value "
                f"(environment {self.environment!r} refuses to start without one)")
        generated = secrets.token_urlsafe(24)
        # to the terminal that started the server, not to the logs (which are kept and shipped)
        print(f"entente: no usable ENTENTE_OPERATOR_TOKEN in development; this run's operator token: {generated}",
              file=sys.stderr, flush=True)
        log.warning("no usable ENTENTE_OPERATOR_TOKEN in development: generated one (printed on stderr)")
        return self.model_copy(update={"operator_token": SecretStr(generated)})

    def operator_secret(self) -> str:
        return self.operator_token.get_secret_value() if self.operator_token else ""
