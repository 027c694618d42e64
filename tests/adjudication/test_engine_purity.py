"""The rules engine is pure: no web framework, no database, no network, no clock.

Two checks: every engine module imported in a fresh interpreter leaves none of the
forbidden modules in sys.modules; and no engine source file imports them (or reads
the clock through ``time``/``datetime``), even behind a function.
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import shared.rules.diplomacy as engine

ENGINE_DIR = Path(engine.__file__).parent
REPO_ROOT = ENGINE_DIR.parents[2]
FORBIDDEN = (
    "fastapi", "starlette", "sqlalchemy", "sqlmodel", "asyncpg", "aiosqlite", "httpx", "uvicorn",
    "socket", "time", "datetime", "asyncio",
)


def engine_modules() -> list[str]:
    names = []
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        parts = path.relative_to(REPO_ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_there_are_engine_modules_to_check() -> None:
    modules = engine_modules()
    assert "shared.rules.diplomacy.adjudicate" in modules
    assert "shared.rules.diplomacy.retreats" in modules
    assert len(modules) >= 10


def test_importing_every_engine_module_loads_nothing_forbidden() -> None:
    script = (
        "import importlib, json, sys\n"
        f"before = set(sys.modules)\n"
        f"for name in {engine_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "import shared.rules.diplomacy as e\n"
        "for name in e.__all__:\n"
        "    getattr(e, name)\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    bad = sorted(m for m in loaded if m.split(".")[0] in FORBIDDEN)
    assert bad == []


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__"):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                roots.add(node.args[0].value.split(".")[0])
    return roots


def test_no_engine_source_imports_web_sql_network_or_clock_code() -> None:
    offenders = {
        str(path.relative_to(REPO_ROOT)): sorted(imported_roots(path) & set(FORBIDDEN))
        for path in sorted(ENGINE_DIR.rglob("*.py"))
    }
    assert {p: bad for p, bad in offenders.items() if bad} == {}


def test_the_engine_imports_nothing_from_the_services_or_the_store() -> None:
    outside = {}
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        roots = {
            node.module
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
            and node.module.startswith(("services", "shared"))
        }
        if roots:
            outside[str(path.relative_to(REPO_ROOT))] = sorted(roots)
    assert outside == {}


def test_the_checker_would_notice_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom datetime import datetime\n\ndef f():\n    import httpx\n")
    assert imported_roots(sample) == {"os", "datetime", "httpx"}
