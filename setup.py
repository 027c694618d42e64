"""The install compiles the rules engine's hot modules with mypyc when it can.

Everything else about the package is in pyproject.toml. `pip install .` and `pip install -e .`
both run this: with mypyc (a build requirement in pyproject.toml) and a C compiler, the modules
that shared/rules/diplomacy/build.py lists are compiled and installed beside their sources
(an editable install puts them in the source tree; git ignores them). Without a compiler, or
when the build fails, or with ENTENTE_PURE_PYTHON=1 set at install time, nothing is compiled
and the same sources run as pure Python. docs/architecture.md, "Performance", says why and
what it gains.
"""
from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINE = ROOT / "shared" / "rules" / "diplomacy"


def engine_sources() -> list[str]:
    """The engine's modules to compile, as paths relative to this file (build.py names them)."""
    build = runpy.run_path(str(ENGINE / "build.py"), run_name="entente_build_list")
    return [str((ENGINE.joinpath(*m.split(".")).with_suffix(".py")).relative_to(ROOT))
            for m in build["COMPILED_MODULES"]]


def core_sources() -> list[Path]:
    """The C core's sources (docs/rules/c_core.md)."""
    return sorted((ENGINE / "core_src").glob("*.c"))


def note(message: str) -> None:
    print(f"entente setup: {message}", file=sys.stderr)


def remove_compiled_from_source_tree() -> None:
    """Installing the pure engine: compiled modules an earlier editable install left beside the
    sources would still be imported first, so they go (they are build artefacts, never in git)."""
    for pattern in ("*.so", "*.pyd", "parser/*.so", "parser/*.pyd"):
        for built in ENGINE.glob(pattern):
            built.unlink(missing_ok=True)


def compiled_extensions() -> list:
    if os.environ.get("ENTENTE_PURE_PYTHON", "") not in ("", "0"):
        note("ENTENTE_PURE_PYTHON is set: installing the pure-Python engine")
        remove_compiled_from_source_tree()
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        note("mypyc is not available: installing the pure-Python engine")
        remove_compiled_from_source_tree()
        return []
    os.chdir(ROOT)  # mypycify takes paths relative to the project and writes its C files to build/
    try:
        # "--config-file=": not pyproject.toml's [tool.mypy], whose pydantic plugin the build lacks;
        # the rules import only the standard library, so mypyc needs no plugin and no other package.
        # group_name: the compiled modules' shared library lives in the package, beside them
        compiled = mypycify(["--config-file=", *engine_sources()], opt_level="3", debug_level="0",
                            group_name="shared.rules.diplomacy.engine")
    except (Exception, SystemExit) as exc:  # mypyc could not translate them (it exits on type errors)
        note(f"mypyc failed ({exc!r}): installing the pure-Python engine")
        remove_compiled_from_source_tree()
        return []
    # The contract's movement phase in C (docs/rules/c_core.md), built with the compiled engine
    # and only with it: build.py (c_core_runs) lets it run only when the engine runs compiled.
    core = Extension("shared.rules.diplomacy._core", [str(c.relative_to(ROOT)) for c in core_sources()],
                     depends=[str((ENGINE / "core_src" / "core.h").relative_to(ROOT))],
                     extra_compile_args=["-O2", "-fvisibility=hidden"])
    return [*compiled, core]


class OptionalBuildExt(build_ext):
    """Builds the compiled engine, or nothing at all if any part of it fails to build (no C
    compiler, no Python headers): a partial build would leave modules that cannot import."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # setuptools' CompileError, LinkError, PlatformError, OSError
            for built in self.get_outputs():
                Path(built).unlink(missing_ok=True)
            remove_compiled_from_source_tree()
            note(f"the compiled engine could not be built ({type(exc).__name__}: {exc}); "
                 "installing the pure-Python engine")


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
