"""Which build of the engine runs: the compiled core or the pure-Python source.

The install compiles the modules listed in ``COMPILED_MODULES`` with mypyc where it can
(setup.py; docs/architecture.md, "Performance"). Python then finds each compiled module
(``movement.cpython-311-x86_64-linux-gnu.so``) before its source (``movement.py``), so the
compiled core runs wherever it was built. The same source runs pure when:

- nothing was compiled (no C compiler at install time: the install falls back), or
- ``ENTENTE_PURE_PYTHON=1`` is set (tests/rules/diplomacy/test_compiled.py compares both
  builds in one run), or
- in a source checkout, a source file is newer than the compiled modules (edited after
  ``pip install -e .``): the stale compiled core would run old rules, so the sources run
  instead, with a warning, until the install is run again.

The package's ``__init__`` imports this module before any other, and importing it decides
(``use_pure_python_if_needed``). This module imports only the standard library (setup.py reads
``COMPILED_MODULES`` from it without importing the package).
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = "shared.rules.diplomacy"

COMPILED_MODULES = (
    "adjudicate", "adjustments", "civil_disorder", "convoys", "document", "document_fields", "geography",
    "legality", "movement", "movement_outcome", "movement_tables", "normalise", "orders", "phase", "position",
    "possible", "resolver", "retreats", "values", "parser.canonical",
)
"""The engine's modules the install compiles, relative to the package: the rules and their
values, not the general parser (text, DAIDE), the small games or the package ``__init__``."""

PURE_SWITCH = "ENTENTE_PURE_PYTHON"

_HERE = Path(__file__).resolve().parent
_state = {"build": ""}


def _source(module: str) -> Path:
    return _HERE.joinpath(*module.split(".")).with_suffix(".py")


def _compiled(module: str) -> Path | None:
    """The compiled module next to the source, if there is one."""
    source = _source(module)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_suffix(suffix)
        if candidate.exists():
            return candidate
    return None


def _stale_modules(compiled: list[str]) -> list[str]:
    """In a source checkout, the modules whose source changed after the build, or that the
    build lacks. mypyc compiles the modules as one group (each knows the others' classes), so
    one stale module makes the whole compiled core stale."""
    if not (_HERE.parents[2] / "pyproject.toml").exists():
        return []  # an installed package: its sources and compiled modules come together
    missing = [m for m in COMPILED_MODULES if m not in compiled]
    built = min(path.stat().st_mtime for m in compiled if (path := _compiled(m)) is not None)
    return missing + [m for m in COMPILED_MODULES if m not in missing and _source(m).stat().st_mtime > built]


class _SourceFinder:
    """Finds the engine's compiled modules as their ``.py`` sources (a meta path finder)."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None,
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, _source(fullname[len(PACKAGE) + 1:]))


def use_pure_python_if_needed() -> None:
    """Decide the build once, before the engine's modules are imported (see the docstring)."""
    if _state["build"]:
        return
    compiled = [m for m in COMPILED_MODULES if _compiled(m) is not None]
    reason = ""
    if not compiled:
        _state["build"] = "pure Python"
        return
    if os.environ.get(PURE_SWITCH, "") not in ("", "0"):
        reason = f"{PURE_SWITCH} is set"
    else:
        stale = _stale_modules(compiled)
        if stale:
            reason = f"the build is older than the sources of {', '.join(stale)}"
            warnings.warn(f"Entente's compiled engine is out of date ({reason}): running the pure-Python "
                          "engine; run `pip install -e .` again to rebuild it", RuntimeWarning, stacklevel=3)
    if reason:
        sys.meta_path.insert(0, _SourceFinder(frozenset(f"{PACKAGE}.{m}" for m in COMPILED_MODULES)))
        _state["build"] = f"pure Python ({reason})"
    else:
        _state["build"] = "compiled"


def engine_build() -> str:
    """``"compiled"``, or ``"pure Python"`` with the reason when it could have been compiled."""
    use_pure_python_if_needed()
    return _state["build"]


C_CORE_SWITCH = "ENTENTE_NO_C_CORE"


def c_core_switched_off() -> bool:
    """Whether ``ENTENTE_NO_C_CORE`` is set (to anything but 0)."""
    return os.environ.get(C_CORE_SWITCH, "") not in ("", "0")


def c_core_runs(extension: str) -> bool:
    """Whether the C core (``extension``, the path of its built module: c_core.py,
    docs/rules/c_core.md) is to be used: only with the compiled engine, not with
    ``ENTENTE_NO_C_CORE=1``, and in a source checkout not when its sources were edited after the
    build (then with a warning, as for the compiled engine)."""
    if c_core_switched_off() or engine_build() != "compiled":
        return False
    stale = _stale_core_sources(Path(extension))
    if stale:
        warnings.warn(f"Entente's C core is out of date (older than {', '.join(stale)}): the Python engine "
                      "takes every document; run `pip install -e .` again to rebuild it", RuntimeWarning,
                      stacklevel=3)
        return False
    return True


def _stale_core_sources(built: Path) -> list[str]:
    """In a source checkout, the core's sources edited after its build (an installed package's
    sources and build come together)."""
    if not (_HERE.parents[2] / "pyproject.toml").exists():
        return []
    return sorted(source.name for source in (_HERE / "core_src").glob("*.[ch]")
                  if source.stat().st_mtime > built.stat().st_mtime)


def is_compiled() -> bool:
    """Whether the engine's modules really are compiled in this process."""
    module = sys.modules.get(f"{PACKAGE}.movement")
    return module is not None and not str(getattr(module, "__file__", "")).endswith(".py")


use_pure_python_if_needed()
