"""The house rules of docs/architecture.md, read off the source with ``ast``.

- A service (``services/<name>/``) never imports another service; the command line
  (``services/cli``) and ``services/app.py`` put them together and may.
- ``shared/rules/`` imports the standard library and its sibling rules packages only, and of
  the standard library nothing that reads the clock, the network, the environment, processes or
  files: the rules are pure. Their maps are package data in ``shared/variants``, which holds no
  code.
- Outside ``shared/rules/``, the engines (diplomacy, dirigible, ekonia) are reached through
  ``shared.rules.variants`` only.
- Only ``shared/store/`` imports the database libraries or the store's own modules (its tables,
  back ends and listener): the rest of the product uses the store's public API.

Every import counts: at the top of a module, inside a function, under ``if TYPE_CHECKING``,
and a literal name given to ``importlib.import_module``, ``__import__`` or
``importlib.resources.files``. Tests and benchmarks are exempt from the rules about services,
engines and the store (they test the engines directly).
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "shared" / "rules"
STORE = ROOT / "shared" / "store"
MAP_DATA = "shared.variants"  # the maps' package data, read by the rules with importlib.resources
COMPOSITION_ROOT = {"cli", "app.py"}  # under services/: the entente command and the all-in-one app
ENGINES = ("shared.rules.diplomacy", "shared.rules.dirigible", "shared.rules.ekonia")
DATABASE_LIBRARIES = {"sqlalchemy", "sqlmodel", "asyncpg", "aiosqlite"}
# The standard library's clock, network, environment, processes, threads and files.
IMPURE = {"time", "datetime", "asyncio", "socket", "ssl", "select", "selectors", "http", "urllib", "email",
          "subprocess", "threading", "multiprocessing", "concurrent", "signal", "os", "shutil", "tempfile",
          "io", "pathlib", "glob", "sqlite3", "sys", "logging"}
IMPURE_CALLS = {"open", "input", "print", "exec", "eval"}
# A command beside the rules: it draws the Ekonia map into map.svg (docs/rules/ekonia-map.md);
# and the module that picks the compiled engine or its sources: it reads an environment switch
# and the files' dates at import, and decides no rule (docs/architecture.md, "Performance").
RULES_TOOLS = {"shared/rules/ekonia/draw.py", "shared/rules/diplomacy/build.py"}
# The store's own modules (its tables, back ends and listener): nothing outside it imports them.
STORE_INTERNALS = {"shared.store.tables", "shared.store.outbox_tables", "shared.store.schema",
                   "shared.store.schema_ddl", "shared.store.schema_tables", "shared.store.sqlite",
                   "shared.store.postgresql", "shared.store.notify"}


@dataclass(frozen=True)
class Import:
    module: str  # absolute dotted name
    line: int


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _called(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return f"{_called(func.value)}.{func.attr}"
    return ""


def imported_from(package: str, node: ast.ImportFrom) -> str:
    """The absolute name of the module a ``from ... import`` in ``package`` names."""
    if not node.level:
        return node.module or ""
    base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


def imports_of(path: Path) -> list[Import]:
    """Every module ``path`` imports, wherever the import is; ``from a import b`` gives ``a``
    and ``a.b`` (``b`` may be a submodule), a relative import its absolute name."""
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    found: list[Import] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [Import(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = imported_from(package, node)
            found.append(Import(source, node.lineno))
            found += [Import(f"{source}.{alias.name}", node.lineno) for alias in node.names if alias.name != "*"]
        elif isinstance(node, ast.Call) and node.args:
            called = _called(node.func)
            literal = node.args[0]
            dynamic = called.split(".")[-1] in ("import_module", "__import__") or called.endswith("resources.files")
            if dynamic and isinstance(literal, ast.Constant) and isinstance(literal.value, str):
                found.append(Import(literal.value, node.lineno))
    return found


def calls_of(path: Path) -> set[str]:
    return {_called(node.func) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Call)}


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def python_files(*folders: Path) -> list[Path]:
    return sorted(p for folder in folders for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def production_files() -> list[Path]:
    """The code that ships: services/ and shared/ (tests and benchmarks are exempt)."""
    return python_files(ROOT / "services", ROOT / "shared")


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def is_standard_library(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names


# --- the checker itself -------------------------------------------------------------------


def test_the_checker_sees_every_kind_of_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "shared" / "rules" / "sample"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    sample = package / "mod.py"
    sample.write_text(
        "import os.path\n"
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "from ..other import thing\n"
        "if TYPE_CHECKING:\n"
        "    from httpx import Client\n"
        "def later():\n"
        "    import sqlalchemy\n"
        "    importlib.import_module('services.lobby')\n"
        "    return resources.files('shared.variants')\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    found = {i.module for i in imports_of(sample)}
    assert found >= {"os.path", "typing", "shared.rules.sample", "shared.rules.sample.sibling",
                     "shared.rules.other", "shared.rules.other.thing", "httpx", "httpx.Client", "sqlalchemy",
                     "services.lobby", "shared.variants"}


def test_there_is_code_to_check() -> None:
    files = {relative(p) for p in production_files()}
    assert {"services/lobby/api.py", "shared/rules/diplomacy/movement.py", "shared/store/sqlite.py"} <= files
    assert len(python_files(RULES)) >= 50


# --- services ------------------------------------------------------------------------------


def test_no_service_imports_another_service() -> None:
    services = sorted(p.name for p in (ROOT / "services").iterdir()
                      if (p / "__init__.py").exists() and p.name not in COMPOSITION_ROOT)
    assert {"lobby", "adjudication", "visibility", "accounts", "press", "notifications"} <= set(services)
    crossings = {}
    for name in services:
        for path in python_files(ROOT / "services" / name):
            others = sorted({i.module for i in imports_of(path)
                             if within(i.module, "services") and not within(i.module, f"services.{name}")
                             and i.module != "services"})
            if others:
                crossings[relative(path)] = others
    assert crossings == {}


# --- the rules -----------------------------------------------------------------------------


def test_the_rules_import_only_the_standard_library_and_each_other() -> None:
    outside = {}
    for path in python_files(RULES):
        foreign = sorted({i.module for i in imports_of(path)
                          if not is_standard_library(i.module) and not within(i.module, "shared.rules")
                          and not within(i.module, MAP_DATA)})
        if foreign:
            outside[relative(path)] = foreign
    assert outside == {}


def test_the_rules_read_no_clock_network_environment_or_files() -> None:
    impure = {}
    for path in python_files(RULES):
        if relative(path) in RULES_TOOLS:
            continue
        found = sorted({i.module for i in imports_of(path) if i.module.split(".")[0] in IMPURE}
                       | (calls_of(path) & IMPURE_CALLS))
        if found:
            impure[relative(path)] = found
    assert impure == {}


def test_the_map_data_package_holds_no_code() -> None:
    code = {relative(p): len(p.read_text(encoding="utf-8")) for p in python_files(ROOT / "shared" / "variants")}
    assert code and set(code.values()) == {0}, code  # empty __init__.py files only


def test_importing_every_rules_module_loads_nothing_else() -> None:
    """At run time too (an import the source hides, or one made by a third-party module):
    every rules module imported in a fresh interpreter (the drawing command aside) leaves only
    the standard library, the rules and their map data in sys.modules, and no clock or network."""
    names = [module_name(p) for p in python_files(RULES) if relative(p) not in RULES_TOOLS]
    script = (
        "import importlib, json, sys\n"
        "before = set(sys.modules)\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert "shared.rules.diplomacy.movement" in loaded
    others = [m for m in loaded if not is_standard_library(m) and m != "shared"
              and not within(m, "shared.rules") and not within(m, MAP_DATA)]
    assert others == []
    assert sorted(m for m in loaded if m.split(".")[0] in {"socket", "asyncio", "datetime", "sqlite3"}) == []


def test_no_rules_module_is_too_long() -> None:
    long = {relative(p): n for p in python_files(RULES) if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert long == {}


# --- the engines, behind the Variant protocol ----------------------------------------------


def test_outside_the_rules_the_engines_are_reached_through_the_variants_only() -> None:
    reaching = {}
    for path in production_files():
        if RULES in path.parents:
            continue
        engines = sorted({i.module for i in imports_of(path) if any(within(i.module, e) for e in ENGINES)})
        if engines:
            reaching[relative(path)] = engines
    assert reaching == {}


# --- the store -----------------------------------------------------------------------------


def database_importers() -> dict[str, list[str]]:
    found = {}
    for path in production_files():
        if STORE in path.parents:
            continue
        modules = {i.module for i in imports_of(path)}
        libraries = sorted({m.split(".")[0] for m in modules} & DATABASE_LIBRARIES | modules & STORE_INTERNALS)
        if libraries:
            found[relative(path)] = libraries
    return found


def test_only_the_store_imports_the_database_libraries() -> None:
    assert database_importers() == {}


# --- no import circles ---------------------------------------------------------------------


def import_graph() -> dict[str, set[str]]:
    """Module -> the production modules it imports, wherever the import is (a lazy import or
    one under ``if TYPE_CHECKING`` ties two modules as much as any). ``from p import m`` is an
    import of the module ``p.m`` when there is one (else of ``p``); a module importing its
    own package's parts (a C extension among them) does not import the package's ``__init__``
    for it."""
    modules = {module_name(p): p for p in production_files()}

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                found |= {known(alias.name) for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                source = imported_from(package, node)
                if source not in modules and source.rpartition(".")[0] == package:
                    continue  # a part of its own package that is not Python (a C extension): not the __init__
                found |= {f"{source}.{a.name}" if f"{source}.{a.name}" in modules else known(source)
                          for a in node.names}
        graph[name] = {m for m in found if m is not None and m != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without
    recursion): each is a set of modules that import one another, directly or around."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": set(), "g": {"g"}}
    assert circles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_sees_the_imports() -> None:
    graph = import_graph()
    assert "shared.rules.diplomacy.movement_outcome" in graph["shared.rules.diplomacy.movement"]
    assert "services.lobby.api" in graph["services.app"]  # ``from services.lobby.api import router``
    assert "shared.store" in graph["services.lobby.service"]


def test_no_modules_import_one_another_in_a_circle() -> None:
    """Among shared/ and services/: a circle means neither module can be read, tested or
    moved without the other (docs/architecture.md, "Where things are built")."""
    assert circles(import_graph()) == []
