"""The compiled engine and its pure-Python sources are the same rules (docs/architecture.md,
"Performance"): the same outcome for 10,000 phases of random games, every DATC case passing
in both, the switch that runs the sources, and the fallback when the sources changed after the
build. Where nothing was compiled (no C compiler at install) there is one build only, and the
comparisons skip."""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shared.rules.diplomacy import adjudicate_document, engine_build, position_to_document
from shared.rules.diplomacy.build import COMPILED_MODULES, PURE_SWITCH, is_compiled
from tests.utils.random_play import random_play

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "shared" / "rules" / "diplomacy"

compiled_only = pytest.mark.skipif(not is_compiled(), reason="the engine is not compiled here: one build only")

PURE_RUNNER = """
import json, sys
from shared.rules.diplomacy import adjudicate_document, engine_build
import shared.rules.diplomacy.movement as movement
assert engine_build().startswith("pure Python") and movement.__file__.endswith(".py"), engine_build()
with open(sys.argv[1]) as documents, open(sys.argv[2], "w") as outcomes:
    for line in documents:
        try:
            outcome = adjudicate_document(json.loads(line))
        except ValueError as exc:
            outcome = {"error": str(exc)}
        outcomes.write(json.dumps(outcome) + "\\n")
"""


def pure_env() -> dict[str, str]:
    return {**os.environ, PURE_SWITCH: "1", "PYTHONPATH": str(ROOT)}


def mangled(document: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same phase with orders as people and bots get them wrong: lower case, English words,
    a unit that is not there, an order given twice, two orders for one unit, a power in civil
    disorder, a bad field now and then (both builds must refuse it alike)."""
    copy = json.loads(json.dumps(document))
    for orders in copy["orders"].values():
        if orders and rng.random() < 0.5:
            orders[0] = orders[0].lower()
        if orders and rng.random() < 0.3:
            orders.append(orders[-1])
        if orders and rng.random() < 0.2:
            orders.append(orders[0].split(" - ")[0] + " H")
        if rng.random() < 0.2:
            orders.append(rng.choice(["A XYZ - PAR", "Army Paris to Burgundy", "F NTH C A YOR - NWY", "WAIVE", ""]))
    if copy["orders"] and rng.random() < 0.2:
        copy["civil_disorder"] = [rng.choice(sorted(copy["orders"]))]
    if rng.random() < 0.02:
        copy["units"]["NOBODY"] = ["A PAR"]
    return copy


def random_documents(count: int) -> list[dict[str, Any]]:
    """``count`` phases of seeded random games (movement, retreats, adjustments) as contract
    documents with the orders they were played with, a fifth of them mangled."""
    rng = random.Random(2026)
    documents: list[dict[str, Any]] = []
    game = 0
    while len(documents) < count:
        for position, orders, _ in random_play(15_000 + game, phases=60):
            document = position_to_document(position)
            document["orders"] = {power: [str(order) for order in given] for power, given in orders.items()}
            documents.append(mangled(document, rng) if rng.random() < 0.2 else document)
        game += 1
    return documents[:count]


def outcome_of(document: dict[str, Any]) -> dict[str, Any]:
    try:
        return adjudicate_document(document)
    except ValueError as exc:
        return {"error": str(exc)}


@compiled_only
def test_both_builds_give_the_same_outcome_for_ten_thousand_random_phases(tmp_path: Path) -> None:
    documents = random_documents(10_000)
    assert {d["phase"][-1] for d in documents} == {"M", "R", "A"}
    given = tmp_path / "documents.jsonl"
    given.write_text("".join(json.dumps(d) + "\n" for d in documents))
    done = subprocess.run([sys.executable, "-c", PURE_RUNNER, str(given), str(tmp_path / "pure.jsonl")],
                          env=pure_env(), cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    pure = [json.loads(line) for line in (tmp_path / "pure.jsonl").read_text().splitlines()]
    compiled = [outcome_of(d) for d in documents]
    assert len(pure) == len(compiled) == 10_000
    differing = [i for i, (a, b) in enumerate(zip(pure, compiled, strict=True)) if a != b]
    assert differing == [], f"{len(differing)} phases differ, the first: {documents[differing[0]]}"
    assert sum("error" in o for o in compiled) > 0  # the bad documents were refused alike


@compiled_only
def test_every_datc_case_passes_with_the_pure_sources_too() -> None:
    """The DATC files run here compiled with the rest of the suite; here again, from the sources."""
    files = sorted(str(p) for p in (ROOT / "tests" / "rules" / "diplomacy").glob("test_datc_*.py"))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files],
                          env=pure_env(), cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:]
    assert " passed" in done.stdout.splitlines()[-1] and "failed" not in done.stdout.splitlines()[-1]


@compiled_only
def test_the_values_copy_and_pickle_alike_with_the_pure_sources_too() -> None:
    """test_values_copy.py runs here compiled with the rest of the suite; here again, from the sources."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(ROOT / "tests" / "rules" / "diplomacy" / "test_values_copy.py")],
                          env=pure_env(), cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:]
    assert " passed" in done.stdout.splitlines()[-1] and "failed" not in done.stdout.splitlines()[-1]


def test_the_install_compiled_the_engine_where_a_c_compiler_is() -> None:
    if os.environ.get(PURE_SWITCH, "") not in ("", "0"):
        pytest.skip(f"{PURE_SWITCH} is set: the sources run on purpose")
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler here: the install falls back to the pure-Python engine")
    assert engine_build() == "compiled" and is_compiled(), (
        f"the engine runs as {engine_build()!r}: run `pip install -e .` again to build it")


@compiled_only
def test_sources_changed_after_the_build_run_as_pure_python_with_a_warning(tmp_path: Path) -> None:
    """A checkout whose sources were edited after ``pip install -e .``: the stale compiled core
    would run the old rules, so the sources run (a copy of the package, one source touched)."""
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT / "shared", copy / "shared", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", copy / "pyproject.toml")
    touched = copy / "shared" / "rules" / "diplomacy" / "resolver.py"
    built = max(p.stat().st_mtime for p in touched.parent.glob("*.so"))
    os.utime(touched, (built + 60, built + 60))  # edited a minute after the build
    script = ("import shared.rules.diplomacy as d, shared.rules.diplomacy.resolver as r; "
              "print(d.engine_build()); print(r.__file__)")
    # -S: no site packages, so no editable-install finder sends "shared" back to the real checkout
    env = {k: v for k, v in os.environ.items() if k not in (PURE_SWITCH, "PYTHONPATH")}
    done = subprocess.run([sys.executable, "-S", "-W", "default", "-c", script], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    build, resolver = done.stdout.splitlines()
    assert build == "pure Python (the build is older than the sources of resolver)"
    assert resolver == str(touched)
    assert "compiled engine is out of date" in done.stderr and "pip install -e ." in done.stderr


def test_the_compiled_modules_are_the_engines_own() -> None:
    """What setup.py compiles is listed once (build.py) and names modules that exist."""
    for module in COMPILED_MODULES:
        assert (ENGINE.joinpath(*module.split(".")).with_suffix(".py")).is_file(), module
