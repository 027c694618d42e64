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

import hashlib
import os
import runpy
import shutil
import sys
import sysconfig
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


STAMP = ENGINE / ".compiled-stamp"
"""The fingerprint of the sources the compiled modules in the source tree were built from (git
ignores it): an editable install whose fingerprint matches need not compile them again."""

METADATA_COMMANDS = frozenset({"egg_info", "dist_info"})
"""setup.py commands that only write the package's metadata: no extension is built for them."""


def remove_compiled_from_source_tree() -> None:
    """Installing the pure engine: compiled modules an earlier editable install left beside the
    sources would still be imported first, so they go (they are build artefacts, never in git)."""
    for pattern in ("*.so", "*.pyd", "parser/*.so", "parser/*.pyd"):
        for built in ENGINE.glob(pattern):
            built.unlink(missing_ok=True)
    STAMP.unlink(missing_ok=True)


def build_fingerprint() -> str:
    """What the compiled modules depend on: this file, the engine's compiled sources and build
    list, the C core's sources and header, the Python and mypyc versions."""
    from mypy.version import __version__ as mypy_version

    compiler = f"{sysconfig.get_config_var('CC')}|{sysconfig.get_platform()}"
    digest = hashlib.sha256(f"{sys.version}|{mypy_version}|{compiler}".encode())
    inputs = [Path(__file__).resolve(), ENGINE / "build.py", *(ROOT / s for s in engine_sources()),
              *core_sources(), ENGINE / "core_src" / "core.h"]
    for path in inputs:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def compiled_in_source_tree() -> list[Path]:
    return sorted(p for pattern in ("*.so", "parser/*.so") for p in ENGINE.glob(pattern))


def touch_compiled() -> None:
    """The compiled modules made newer than their sources, as build.py's staleness check asks of
    modules built from these very sources (kept in the tree, or taken from the build cache)."""
    for built in compiled_in_source_tree():
        os.utime(built)


def editable_build_is_current(fingerprint: str) -> bool:
    """An editable install (the README's test command runs one after .ci/run's) finds the
    compiled modules in the source tree: when they were built from these very sources, compiling
    them again (about 40 s of gcc) would give the same files. They are touched so that build.py's
    staleness check (a source newer than its compiled module) still holds after a checkout."""
    if "editable_wheel" not in sys.argv or not STAMP.exists() or STAMP.read_text() != fingerprint:
        return False
    built = compiled_in_source_tree()
    names = {p.name.split(".")[0] for p in built}
    expected = {m.split(".")[-1] for m in runpy.run_path(str(ENGINE / "build.py"))["COMPILED_MODULES"]}
    if not expected | {"engine__mypyc", "_core"} <= names:
        return False
    touch_compiled()
    return True


def build_cache() -> Path | None:
    """Where editable installs keep the compiled modules by fingerprint, as ccache keeps objects
    (docs/testing.md, "CI"): a fresh clone of the same sources, as CI makes, takes them instead
    of compiling again. ENTENTE_BUILD_CACHE names the folder; "off" turns it off."""
    setting = os.environ.get("ENTENTE_BUILD_CACHE", "")
    if setting.lower() in ("off", "0", "false", "no"):
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "entente" / "engine"


CACHE_KEEPS = 4
"""Fingerprints the build cache keeps, the most recently used."""


def restore_from_cache(fingerprint: str) -> bool:
    """Copies the compiled modules built from these very sources out of the build cache."""
    cache = build_cache()
    if cache is None or "editable_wheel" not in sys.argv or not (cache / fingerprint / "complete").exists():
        return False
    entry = cache / fingerprint
    for built in entry.rglob("*.so"):
        shutil.copy2(built, ENGINE / built.relative_to(entry))
    touch_compiled()
    os.utime(entry)
    STAMP.write_text(fingerprint)
    return True


def save_to_cache(fingerprint: str) -> None:
    cache = build_cache()
    if cache is None:
        return
    try:
        entry = cache / fingerprint
        for built in compiled_in_source_tree():
            target = entry / built.relative_to(ENGINE)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(built, target)
        (entry / "complete").touch()
        kept = sorted(cache.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[CACHE_KEEPS:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:  # a cache that cannot be written costs the next install a compile, no more
        note(f"the build cache could not be written ({exc})")


def compiled_extensions() -> list:
    if os.environ.get("ENTENTE_PURE_PYTHON", "") not in ("", "0"):
        note("ENTENTE_PURE_PYTHON is set: installing the pure-Python engine")
        remove_compiled_from_source_tree()
        return []
    if METADATA_COMMANDS.intersection(sys.argv):
        return []  # metadata only: translating the engine to C here would be thrown away
    try:
        from mypyc.build import mypycify
    except ImportError:
        note("mypyc is not available: installing the pure-Python engine")
        remove_compiled_from_source_tree()
        return []
    fingerprint = build_fingerprint()
    if editable_build_is_current(fingerprint):
        note("the compiled engine in the source tree was built from these sources: not rebuilt")
        return []
    if restore_from_cache(fingerprint):
        note(f"the compiled engine was built from these sources before: taken from {build_cache()}")
        return []
    STAMP.unlink(missing_ok=True)
    pending_stamp["fingerprint"] = fingerprint
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


pending_stamp: dict[str, str] = {}
"""The fingerprint to record once the build succeeded (editable installs only)."""


class OptionalBuildExt(build_ext):
    """Builds the compiled engine, or nothing at all if any part of it fails to build (no C
    compiler, no Python headers): a partial build would leave modules that cannot import."""

    def run(self) -> None:
        try:
            super().run()
            if self.extensions and pending_stamp.get("fingerprint") and "editable_wheel" in sys.argv:
                STAMP.write_text(pending_stamp["fingerprint"])
                save_to_cache(pending_stamp["fingerprint"])
        except Exception as exc:  # setuptools' CompileError, LinkError, PlatformError, OSError
            for built in self.get_outputs():
                Path(built).unlink(missing_ok=True)
            remove_compiled_from_source_tree()
            note(f"the compiled engine could not be built ({type(exc).__name__}: {exc}); "
                 "installing the pure-Python engine")


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
