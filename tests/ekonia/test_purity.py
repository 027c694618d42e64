"""The Ekonia engine is pure: its modules import no web, database, network, clock or file code."""
from __future__ import annotations

import ast
from pathlib import Path

import shared.rules.ekonia as ekonia

PACKAGE = Path(ekonia.__file__).parent
ENGINE_FILES = sorted(p for p in PACKAGE.glob("*.py") if p.name not in ("geography.py", "draw.py"))
FORBIDDEN = {"fastapi", "starlette", "sqlalchemy", "sqlmodel", "asyncpg", "aiosqlite", "httpx",
             "uvicorn", "socket", "time", "datetime", "asyncio", "os", "pathlib", "io"}


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_engine_files_import_nothing_impure():
    assert len(ENGINE_FILES) >= 12
    for path in ENGINE_FILES:
        assert not imported_modules(path) & FORBIDDEN, path.name
        assert "open(" not in path.read_text(), path.name


def test_no_module_is_too_long():
    for path in ENGINE_FILES:
        assert len(path.read_text().splitlines()) <= 600, path.name
