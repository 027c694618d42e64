"""The npm tools the tests run (docs/testing.md, "Node tools").

tests/node_tools/package.json pins them and its package-lock.json fixes the whole tree. `.ci/run`
installs them once, before the tests (`npm ci --prefix tests/node_tools`); on a machine where
nobody has, the first test that asks installs them the same way, under a file lock so that the
suite's parallel workers install them once between them. Without npm the asking test is skipped,
naming the Debian package that brings it.
"""
from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[1] / "node_tools"
MODULES = FOLDER / "node_modules"
INSTALL = ["npm", "ci", "--prefix", str(FOLDER), "--no-audit", "--no-fund", "--silent"]


def _installed() -> bool:
    """Whether node_modules holds what the lock file names (npm writes its own record last)."""
    record = MODULES / ".package-lock.json"
    return record.exists() and record.stat().st_mtime >= (FOLDER / "package-lock.json").stat().st_mtime


def node_modules() -> Path:
    """tests/node_tools/node_modules, installed from the lock file if it is not yet."""
    if _installed():
        return MODULES
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: `apt-get install npm` (Debian's package) brings it")
    with open(FOLDER / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _installed():
            try:
                done = subprocess.run(INSTALL, capture_output=True, text=True, timeout=600)
            except subprocess.TimeoutExpired:
                pytest.skip(f"npm's registry did not answer within 10 minutes: {' '.join(INSTALL)}")
            if done.returncode != 0:
                pytest.skip(f"npm could not install the pinned tools ({' '.join(INSTALL)}): {done.stderr[-500:]}")
    return MODULES


def node_bin(name: str) -> Path:
    """The path of one installed tool's command (tsc, eslint, openapi-typescript)."""
    return node_modules() / ".bin" / name
