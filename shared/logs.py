"""Logs: one JSON object a line for machines, plain text on a terminal (docs/operations.md, "Logs").

Every line has ``timestamp`` (UTC, ISO 8601), ``level``, ``logger`` and ``message``, then the
fields its caller gave with ``extra=`` (``route``, ``game_id``, ``status``, ``duration_ms``…),
and the ``request_id`` of the request being served, if any (``REQUEST_ID``, set by the request
middleware, shared/http/observability.py). What is logged is chosen where it is logged:
route templates and ids, counts and durations, never a token, an account's name, a message's
text or an order (a test reads the logs of a whole game for its secrets).

The format: ``ENTENTE_LOG_FORMAT`` = ``json``, ``text``, or ``auto`` (the default: text when
stderr is a terminal, JSON otherwise). ``ENTENTE_LOG_LEVEL`` sets the level (default info).
"""
from __future__ import annotations

import json
import logging
import logging.config
import os
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Literal

REQUEST_ID: ContextVar[str | None] = ContextVar("entente_request_id", default=None)

Format = Literal["json", "text"]
# what every LogRecord has: anything else on a record came from ``extra=``
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime", "taskName"}
_UVICORN_NOISE = ("uvicorn.access",)  # requests are logged once, by the middleware
_OWN = ("entente", "uvicorn", "uvicorn.error", "alembic")  # at the level asked for; the rest at warning


def fields_of(record: logging.LogRecord) -> dict[str, object]:
    """The line's fields, in a stable order."""
    line: dict[str, object] = {
        "timestamp": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
        "level": record.levelname.lower(),
        "logger": record.name,
        "message": record.getMessage(),
    }
    request_id = getattr(record, "request_id", None) or REQUEST_ID.get()
    if request_id:
        line["request_id"] = request_id
    for key, value in record.__dict__.items():
        if key not in _STANDARD and key not in line and not key.startswith("_") and key != "color_message":
            line[key] = value
    return line


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = fields_of(record)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """``12:03:04 info  entente.http  request  route=/games/{game_id} status=200 …`` for a terminal."""

    def format(self, record: logging.LogRecord) -> str:
        line = fields_of(record)
        moment = datetime.fromtimestamp(record.created).strftime("%H:%M:%S")
        head = f"{moment} {line.pop('level'):<7} {line.pop('logger')}  {line.pop('message')}"
        line.pop("timestamp")
        text = head + "".join(f"  {key}={value}" for key, value in line.items())
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text


def chosen_format(wanted: str | None = None) -> Format:
    wanted = (wanted or os.environ.get("ENTENTE_LOG_FORMAT") or "auto").lower()
    if wanted in ("json", "text"):
        return "json" if wanted == "json" else "text"
    return "text" if sys.stderr.isatty() else "json"


def logging_config(level: str | None = None, format: str | None = None) -> dict[str, object]:
    """A ``logging.config.dictConfig`` document: every logger to stderr in the chosen format,
    entente's own and uvicorn's at ``level``, every other library's at warning whatever the
    level (at debug the database drivers log each statement with its values, the HTTP
    clients each webhook's URL: secrets); uvicorn's access log off (the middleware logs each
    request once)."""
    level = (level or os.environ.get("ENTENTE_LOG_LEVEL") or "info").upper()
    formatter = JsonFormatter if chosen_format(format) == "json" else TextFormatter
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"entente": {"()": f"{formatter.__module__}.{formatter.__qualname__}"}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "entente", "stream": "ext://sys.stderr"}},
        "root": {"handlers": ["stderr"], "level": "WARNING"},
        "loggers": {
            **{name: {"handlers": [], "propagate": True, "level": level} for name in _OWN},
            **{name: {"handlers": [], "propagate": False, "level": "WARNING"} for name in _UVICORN_NOISE},
        },
    }


def configure(level: str | None = None, format: str | None = None) -> None:
    """Set up this process's logging (the commands call it once, before they start)."""
    logging.config.dictConfig(logging_config(level, format))
