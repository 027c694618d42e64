"""The list of the engine's compiled modules is written once, in
shared/rules/diplomacy/build.py (``COMPILED_MODULES``): setup.py reads it from there, and the
coverage ``omit`` list of pyproject.toml, which cannot import anything, is held to it here."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from shared.rules.diplomacy.build import COMPILED_MODULES

ROOT = Path(__file__).resolve().parents[2]
ENGINE = "shared/rules/diplomacy"


def test_coverage_omits_exactly_the_compiled_modules() -> None:
    omitted = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["coverage"]["run"]["omit"]
    compiled = [f"{ENGINE}/{module.replace('.', '/')}.py" for module in COMPILED_MODULES]
    assert sorted(omitted) == sorted(compiled), "pyproject.toml's coverage omit list and build.py's COMPILED_MODULES"
    assert len(set(omitted)) == len(omitted)
    assert all((ROOT / path).is_file() for path in compiled)


def test_setup_reads_the_list_rather_than_writing_it() -> None:
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert 'build["COMPILED_MODULES"]' in setup
    named = {m for m in COMPILED_MODULES if re.search(rf'["\']{re.escape(m)}(\.py)?["\']', setup)}
    assert named == set(), f"setup.py names compiled modules itself: {sorted(named)}"
