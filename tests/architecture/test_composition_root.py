"""Apps are built where they are served, never at import (docs/architecture.md, "Where things
are built"): importing the combined app, every service's API module and the command line builds
no FastAPI app; ``entente serve`` and ``uvicorn --factory`` call the factories. Nor do they load
the libraries that only a rarer path needs (docs/testing.md, "A server's start")."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The modules that define an app factory (``create_app``), and the command that serves them.
FACTORIES = ["services.app", *(f"services.{p.parent.name}.api" for p in sorted((ROOT / "services").glob("*/api.py")))]
IMPORTED = [*FACTORIES, "services.cli", "services.cli.serve", "services.cli.worker", "services.cli.daide"]
# Loaded where they are used, not by a process's start: SQLAlchemy and SQLModel by the migrations
# (the store creates a fresh database from shared/store/schema_ddl.py), httpx by a sign-in and the
# notifications' deliveries, cryptography by Web Push (each a few tens of ms of every start).
NOT_AT_START = ("sqlalchemy", "sqlmodel", "alembic", "httpx", "httpcore", "cryptography", "http_ece")


@pytest.fixture(scope="module")
def imported() -> dict[str, Any]:
    """In a fresh interpreter, after every import: the FastAPI instances alive (the garbage
    collector sees every object an import left reachable) and the libraries loaded."""
    script = (
        "import gc, importlib, json, sys\n"
        "from fastapi import FastAPI\n"
        f"for name in {IMPORTED!r}:\n"
        "    importlib.import_module(name)\n"
        "gc.collect()\n"
        "print(json.dumps({'apps': sum(isinstance(o, FastAPI) for o in gc.get_objects()),\n"
        f"                  'loaded': [m for m in {NOT_AT_START!r} if m in sys.modules]}}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_importing_the_apps_modules_builds_no_app(imported: dict[str, Any]) -> None:
    assert imported["apps"] == 0


def test_importing_the_apps_modules_loads_no_library_of_a_rarer_path(imported: dict[str, Any]) -> None:
    assert imported["loaded"] == []


def test_every_factory_builds_its_app_when_called() -> None:
    """What counting zero would miss: the factories are there, and each builds an app that
    serves its probes (what ``uvicorn --factory services.app:create_app`` calls)."""
    import importlib

    from fastapi import FastAPI

    assert len(FACTORIES) == 7
    for name in FACTORIES:
        module = importlib.import_module(name)
        assert not any(isinstance(value, FastAPI) for value in vars(module).values()), name
        app = module.create_app()
        assert isinstance(app, FastAPI) and "/healthz" in app.openapi()["paths"], name
