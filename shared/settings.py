"""The one settings class of the services, read from ``ENTENTE_*`` variables.

Built in each app factory (never at import) and checked there: outside development an operator
token that could never match a request, or is weak, stops the service from starting and says why
(``operator_token_problem``; docs/api.md, "The operator token"). In development a missing
token is replaced by a random one, logged once at start-up, so that a local server is usable
without configuration but never runs with a guessable secret.
"""
from __future__ import annotations

import logging
import os
import re
import secrets
import sys
from functools import cached_property
from ipaddress import IPv4Network, IPv6Network, ip_network
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SecretsSettingsSource, SettingsConfigDict
from zxcvbn import zxcvbn

from shared.auth import MAX_TOKEN_LENGTH

log = logging.getLogger("entente.settings")

MINIMUM_TOKEN_LENGTH = 16
MINIMUM_DISTINCT_CHARACTERS = 8
MINIMUM_GUESSES_LOG10 = 12  # zxcvbn's estimate of the guesses a token takes: at least 10^12
ESTIMATED_PREFIX = 72  # zxcvbn's own limit (it is slow past it): a longer token is at least as strong as its start
# words an attacker of this server tries first, given to zxcvbn as the user's own words
SERVER_WORDS = ("entente", "operator", "token", "diplomacy", "ekonia", "dirigible", "admin", "secret")
GENERATE_COMMAND = "python3 -c 'import secrets; print(secrets.token_urlsafe(32))'"
# defaults and words that a guess tries first (compared in lower case, separators left out)
WELL_KNOWN_TOKENS = frozenset({
    "changeme", "secret", "operator", "token", "admin", "password", "default", "example", "entente", "letmein",
    "qwerty", "test", "root", "master", "passw0rd", "operatortoken", "secrettoken", "admintoken",
})
# passphrases every guesser knows (xkcd 936's two, long enough and varied enough to pass the other
# rules and zxcvbn) and the example values of this project's own documents: a token that holds one
# (compared in lower case, separators left out) is refused, with anything added around it
WELL_KNOWN_PASSPHRASES = (
    "correcthorsebatterystaple", "tr0ub4dor3", "troubador3", "tr0ub4dor", "optokenforfuzzing",
    "operatortokenforfuzzing", "changeme",
)


def operator_token_problem(token: str) -> str | None:
    """Why ``token`` cannot serve as the operator's token, or None (docs/api.md, "The operator token").

    Refused: what can never match a request (spaces around it: the header is trimmed; a
    character outside printable ASCII or a space inside; more than MAX_TOKEN_LENGTH characters:
    longer tokens are refused at use; the ``s.`` and ``b.`` prefixes of session and bot tokens,
    which are resolved as those), and what is weak (shorter than 16, fewer than 8 different
    characters, one piece repeated, mostly a run of consecutive characters, well known, or
    guessable in fewer than 10^12 tries by zxcvbn's estimate: keyboard walks, dictionary
    words with digits, the server's own words)."""
    if not token:
        return "is not set"
    if token != token.strip():
        return "has spaces around it: the Authorization header is trimmed, so it could never match"
    odd = next((c for c in token if not "!" <= c <= "~"), None)
    if odd is not None:
        return (f"holds a character a bearer token cannot carry (U+{ord(odd):04X}): use printable ASCII "
                "without spaces")
    if len(token) > MAX_TOKEN_LENGTH:
        return f"is longer than {MAX_TOKEN_LENGTH} characters: longer tokens are refused at use"
    if token.startswith(("s.", "b.")):
        kind = "an account session" if token.startswith("s.") else "a bot"
        return f"starts like {kind} token ({token[:2]}), and is resolved as one, never as the operator's"
    if len(token) < MINIMUM_TOKEN_LENGTH:
        return f"is shorter than {MINIMUM_TOKEN_LENGTH} characters"
    normalized = "".join(c for c in token.lower() if c.isalnum())
    if normalized in WELL_KNOWN_TOKENS:
        return "is well known"
    unit = _repeated_unit(token.lower())
    if unit is not None and len(unit) >= 3:  # shorter pieces: too few different characters, below
        known = ", which is well known" if "".join(c for c in unit if c.isalnum()) in WELL_KNOWN_TOKENS else ""
        return f"repeats one piece of {len(unit)} characters{known}"
    if any(phrase in normalized for phrase in WELL_KNOWN_PASSPHRASES):
        return "holds a well-known passphrase or an example value of the documentation"
    distinct = len(set(token))
    if distinct < MINIMUM_DISTINCT_CHARACTERS:
        return f"has only {distinct} different characters (at least {MINIMUM_DISTINCT_CHARACTERS})"
    steps = sum(1 for a, b in zip(token.lower(), token.lower()[1:], strict=False) if ord(b) - ord(a) == 1)
    if steps * 2 >= len(token) - 1:
        return "is mostly a run of consecutive characters (like 0123... or abcd...)"
    return _guessable(token)


def _guessable(token: str) -> str | None:
    """Why zxcvbn finds ``token`` guessable (its warning, never the token), or None."""
    estimate = zxcvbn(token[:ESTIMATED_PREFIX], user_inputs=list(SERVER_WORDS), max_length=ESTIMATED_PREFIX)
    guesses = float(estimate["guesses_log10"])
    if guesses >= MINIMUM_GUESSES_LOG10:
        return None
    warning = str(estimate["feedback"].get("warning") or "").rstrip(".")
    because = f" ({warning[0].lower()}{warning[1:]})" if warning else ""
    return (f"is guessable: about 10^{guesses:.0f} guesses by zxcvbn's estimate{because}, "
            f"at least 10^{MINIMUM_GUESSES_LOG10} needed")


def _repeated_unit(text: str) -> str | None:
    """The shortest piece that ``text`` is made of, repeated at least twice, or None."""
    for size in range(1, len(text) // 2 + 1):
        unit = text[:size]
        if (unit * (len(text) // size + 1))[:len(text)] == text:
            return unit
    return None


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


def _networks(text: str, variable: str) -> tuple[IPv4Network | IPv6Network, ...]:
    """The comma-separated addresses and networks of ``text``; SettingsError naming ``variable``
    for an entry that is neither."""
    networks = []
    for entry in filter(None, (part.strip() for part in text.split(","))):
        try:
            networks.append(ip_network(entry, strict=False))
        except ValueError:
            raise SettingsError(f"{variable}: {entry!r} is not an address or a network") from None
    return tuple(networks)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ENTENTE_", extra="ignore")

    # a directory of files named after the variables (ENTENTE_DATABASE_URL, ...), each holding
    # one setting's value: a Kubernetes Secret volume (docs/deploy.md); the environment wins
    secrets_dir: str = ""
    database_url: str = "sqlite:///./entente.db"
    # a read replica of it for the reads that may lag (lists, past phases' views and pictures;
    # docs/scale.md, "Read replicas"); empty: every read goes to database_url
    read_database_url: str = ""
    operator_token: SecretStr | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    environment: Literal["development", "test", "production"] = "development"
    # the clock worker (docs/hosting.md): `entente serve` runs one in-process unless switched off
    run_worker: bool = True
    worker_poll_seconds: float = 1.0
    # `entente worker` alone (docs/hosting.md, "The clock worker"): batches in flight at once in
    # one process (PostgreSQL only; SQLite has one writer), the games of a batch, and how much it
    # lowers its own CPU priority (nice) so that request serving on the same host goes first
    worker_lanes: int = Field(1, ge=1, le=16)
    worker_batch: int = Field(10, ge=1, le=200)  # games claimed per transaction
    worker_nice: int = Field(5, ge=0, le=19)
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
    # Web Push (docs/social.md, "Web Push"): the server's VAPID private key (`entente push-key`
    # makes one) and the contact the push services may write to (RFC 8292's "sub")
    vapid_private_key: SecretStr | None = None
    vapid_subject: str = "mailto:operator@localhost"
    # e-mail (docs/social.md, "E-mail"): deadline reminders through this SMTP server
    # (smtp://host:port, smtp+starttls://user:password@host:587, smtps://user:password@host:465)
    smtp_url: SecretStr | None = None
    mail_from: str = "entente@localhost"
    # the site's public address (https://diplomacy.example.org): the game's link in an e-mail
    public_url: str = ""
    # the live stream's tailer (docs/social.md, "Wake-ups coalesced"): after a wake-up, how long it
    # waits for more commits before one delivery pass; 0 delivers each wake-up at once
    stream_coalesce_seconds: float = Field(0.05, ge=0.0, le=1.0)
    # the per-process cache of game states, in MiB of estimated memory (docs/architecture.md, "Performance")
    state_cache_mib: int = Field(64, ge=1, le=65536)
    # game pictures (docs/maps.md, "Caching, ETags and the render queue"): the bytes remembered per
    # process, in MiB; how many are drawn at a time, and how many more may wait (then 503)
    picture_cache_mib: int = Field(32, ge=1, le=65536)
    picture_renders: int = Field(1, ge=1, le=64)
    picture_queue: int = Field(8, ge=0, le=10_000)
    picture_processes: bool = True  # PNGs drawn in separate processes (false: in a worker thread)
    # live streams per process (docs/social.md, "Limits"): open at once from one address, and for
    # one viewer (a seat, a bot, an account; the public counts by address only); 0: no limit
    stream_max_per_address: int = Field(32, ge=0, le=1_000_000)
    stream_max_per_viewer: int = Field(8, ge=0, le=1_000_000)
    # what a stream that reads too slowly may hold (queued and being sent), in KiB: then it is closed
    stream_max_queued_kib: int = Field(2048, ge=64, le=1_048_576)
    # rate limits (docs/operations.md, "Rate limits"; shared/http/rate_limits.py):
    # COUNT/PERIOD (second, minute, hour, day) per address and per bearer token for each action,
    # 0 for none; the addresses and networks not limited by address (a proxy that limits by
    # address itself, deploy/nginx.conf); ENTENTE_RATE_LIMITS=false switches them all off
    rate_limits: bool = True
    # the buckets kept in the store, one limit for every process (false: each process its own,
    # N processes letting a client through N times a limit; docs/decisions/0021)
    rate_limits_shared: bool = True
    rate_limit_exempt: str = ""
    # the proxies whose X-Forwarded-For names the client (docs/operations.md, "Rate limits")
    trusted_proxies: str = ""
    rate_create_per_address: str = "20/hour"
    rate_create_per_token: str = "20/hour"
    rate_join_per_address: str = "60/hour"
    rate_join_per_token: str = "30/hour"
    rate_orders_per_address: str = "600/minute"
    rate_orders_per_token: str = "120/minute"
    rate_press_per_address: str = "120/minute"
    rate_press_per_token: str = "30/minute"
    rate_stream_per_address: str = "120/minute"
    rate_stream_per_token: str = "30/minute"
    # `entente serve`'s connections (docs/hosting.md, "Slow clients"): a request's headers must
    # have arrived this long after the connection opened or went idle (else 408 and closed), and
    # at most this many connections are open at once (one more request: 503)
    header_timeout_seconds: float = Field(10.0, gt=0.0, le=600.0)
    # a request's whole body must have arrived this long after its headers (else 408 and closed)
    body_timeout_seconds: float = Field(30.0, gt=0.0, le=3600.0)
    max_connections: int = Field(1000, ge=1, le=1_000_000)
    # connections one address may hold (ENTENTE_TRUSTED_PROXIES' addresses are not capped)
    max_connections_per_address: int = Field(64, ge=1, le=1_000_000)
    # the garbage collector of `entente serve`'s processes (docs/hosting.md, "The garbage
    # collector"): three thresholds for gc.set_threshold, or "python" for Python's own
    gc_thresholds: str = "50000,20,100"
    # metrics (docs/operations.md): /metrics answers the operator token, or these addresses
    # and networks without one, comma-separated ("10.0.0.0/8, 127.0.0.1"); none by default
    metrics_allow: str = ""
    # a token that reads /metrics and nothing else (docs/operations.md, "Metrics"): what Prometheus
    # presents to every process, the workers included, without holding the operator's token
    metrics_token: SecretStr | None = None

    def collector_thresholds(self) -> tuple[int, int, int] | None:
        """ENTENTE_GC_THRESHOLDS read: the three thresholds, or None for Python's own;
        SettingsError when it is neither."""
        text = self.gc_thresholds.strip().lower()
        if text == "python":
            return None
        parts = [part.strip() for part in text.split(",")]
        if len(parts) != 3 or not all(part.isascii() and part.isdigit() and 0 < int(part) <= 10**7 for part in parts):
            raise SettingsError(f"ENTENTE_GC_THRESHOLDS: {self.gc_thresholds!r} is not three whole numbers from 1 "
                                "to 10000000 separated by commas (like 50000,20,100), nor python")
        return int(parts[0]), int(parts[1]), int(parts[2])

    def metrics_token_hash(self) -> str | None:
        """The metrics token's hash, None when there is none; SettingsError when it is weak (the
        operator token's rules) or is the operator token itself."""
        from shared.auth import hash_token

        token = self.metrics_token.get_secret_value() if self.metrics_token else ""
        if not token:
            return None
        problem = operator_token_problem(token)
        if problem is not None:
            raise SettingsError(f"ENTENTE_METRICS_TOKEN {problem}; set a long random value, for example the output "
                                f"of `{GENERATE_COMMAND}`")
        if token == self.operator_secret():
            raise SettingsError("ENTENTE_METRICS_TOKEN is the operator token: give the scrapes a token of their own")
        return hash_token(token)

    def metrics_networks(self) -> tuple[IPv4Network | IPv6Network, ...]:
        """ENTENTE_METRICS_ALLOW read; SettingsError when an entry is not an address or network."""
        return _networks(self.metrics_allow, "ENTENTE_METRICS_ALLOW")

    def rate_limit_networks(self) -> tuple[IPv4Network | IPv6Network, ...]:
        """ENTENTE_RATE_LIMIT_EXEMPT read; SettingsError when an entry is not an address or network."""
        return _networks(self.rate_limit_exempt, "ENTENTE_RATE_LIMIT_EXEMPT")

    def trusted_proxy_networks(self) -> tuple[IPv4Network | IPv6Network, ...]:
        """ENTENTE_TRUSTED_PROXIES read; SettingsError when an entry is not an address or network."""
        return _networks(self.trusted_proxies, "ENTENTE_TRUSTED_PROXIES")

    def check_rates(self) -> None:
        """SettingsError unless every ENTENTE_RATE_* limit reads as a rate."""
        from shared.rates import ACTIONS, parse_rate

        for action in ACTIONS:
            for whose in ("address", "token"):
                name = f"rate_{action}_per_{whose}"
                try:
                    parse_rate(getattr(self, name))
                except ValueError as error:
                    raise SettingsError(f"ENTENTE_{name.upper()}: {error}") from None

    # browsers on other origins (docs/api.md, "CORS"): comma-separated origins, none by default
    cors_origins: str = ""
    # Discord (docs/social.md, "Discord"): a bot that sends signed-in players their notifications
    # as direct messages; the API's base URL is a setting so tests talk to a local fake of it
    discord_bot_token: SecretStr | None = None
    discord_api_url: str = "https://discord.com/api/v10"
    # the URL in the User-Agent Discord requires of a bot, "DiscordBot (URL, VERSION)": where
    # Discord can learn what runs the bot (your server's address, say)
    discord_bot_url: str = "https://github.com/entente-diplomacy/entente"

    @cached_property
    def cors_origin_set(self) -> frozenset[str]:
        """The origins of ``cors_origins`` (checked by ``checked``)."""
        return parse_origins(self.cors_origins)

    def discord_bot_secret(self) -> str:
        return self.discord_bot_token.get_secret_value() if self.discord_bot_token else ""

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The arguments, the environment, then the files of ``ENTENTE_SECRETS_DIR`` when it is set."""
        directory = os.environ.get("ENTENTE_SECRETS_DIR")
        files = SecretsSettingsSource(settings_cls, secrets_dir=directory) if directory else file_secret_settings
        return init_settings, env_settings, dotenv_settings, files

    def checked(self) -> Settings:
        """These settings, safe to run: raises SettingsError, or fills a development token."""
        self.metrics_networks()
        self.metrics_token_hash()
        self.rate_limit_networks()
        self.trusted_proxy_networks()
        self.check_rates()
        self.collector_thresholds()
        try:
            parse_origins(self.cors_origins)
        except ValueError as error:
            raise SettingsError(f"ENTENTE_CORS_ORIGINS: {error}") from None
        self.check_channels()
        token = self.operator_token.get_secret_value() if self.operator_token else ""
        problem = operator_token_problem(token)
        if problem is None:
            return self
        if self.environment != "development":
            raise SettingsError(
                f"ENTENTE_OPERATOR_TOKEN {problem}; set a long random value, for example the output of "
                f"`{GENERATE_COMMAND}` "
                f"(environment {self.environment!r} refuses to start without one)")
        generated = secrets.token_urlsafe(32)
        # to the terminal that started the server, not to the logs (which are kept and shipped)
        print(f"entente: ENTENTE_OPERATOR_TOKEN {problem}; in development this run's operator token is: {generated}",
              file=sys.stderr, flush=True)
        log.warning("ENTENTE_OPERATOR_TOKEN %s: generated one for this development run (printed on stderr)", problem)
        return self.model_copy(update={"operator_token": SecretStr(generated)})

    def check_channels(self) -> None:
        """The Web Push key and the SMTP server's address have their documented forms."""
        key = self.vapid_secret()
        if key and not re.fullmatch(r"[A-Za-z0-9_-]{43}=?", key):
            raise SettingsError("ENTENTE_VAPID_PRIVATE_KEY: a P-256 private key is 32 bytes of base64url "
                                "(`entente push-key` makes one)")
        smtp = self.smtp_secret()
        if smtp and urlsplit(smtp).scheme not in ("smtp", "smtp+starttls", "smtps"):
            raise SettingsError("ENTENTE_SMTP_URL: smtp://, smtp+starttls:// or smtps:// and the server's address")
        if self.public_url and urlsplit(self.public_url).scheme not in ("http", "https"):
            raise SettingsError("ENTENTE_PUBLIC_URL: the site's address, https://…")

    def vapid_secret(self) -> str:
        return self.vapid_private_key.get_secret_value() if self.vapid_private_key else ""

    def smtp_secret(self) -> str:
        return self.smtp_url.get_secret_value() if self.smtp_url else ""

    def operator_secret(self) -> str:
        return self.operator_token.get_secret_value() if self.operator_token else ""
