"""Only shared/store touches the database: no other module of the product imports a database
library or the store's table definitions and back ends (docs/store.md)."""
from __future__ import annotations

import ast
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DATABASE_LIBRARIES = {"sqlalchemy", "sqlmodel", "asyncpg", "aiosqlite", "sqlite3", "psycopg", "psycopg2"}
STORE_INTERNALS = {"shared.store.tables", "shared.store.outbox_tables", "shared.store.schema",
                   "shared.store.sqlite", "shared.store.postgresql", "shared.store.notify"}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def product_modules() -> list[Path]:
    store = REPO_ROOT / "shared" / "store"
    return [path for folder in ("shared", "services") for path in sorted((REPO_ROOT / folder).rglob("*.py"))
            if store not in path.parents]


def test_there_are_modules_to_check() -> None:
    paths = {path.relative_to(REPO_ROOT).as_posix() for path in product_modules()}
    assert {"services/notifications/outbox.py", "services/visibility/stream.py", "shared/game/repository.py"} <= paths
    assert not any(path.startswith("shared/store/") for path in paths)


def test_no_module_outside_the_store_reaches_the_database() -> None:
    offenders = {}
    for path in product_modules():
        bad = sorted(name for name in imported_modules(path)
                     if name.split(".")[0] in DATABASE_LIBRARIES or name in STORE_INTERNALS)
        if bad:
            offenders[path.relative_to(REPO_ROOT).as_posix()] = bad
    assert offenders == {}
