"""Every benchmark still runs against the code as it is: each script's imports resolve (the
tests' helpers they borrow move with the tests, and a benchmark nobody ran for a while must not
be found broken the day its figure is wanted). The benchmarks print figures and are never
timed here: importing one runs nothing but its definitions (each runs under ``__main__``)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).resolve().parents[2] / "benchmarks").glob("*.py"))


def test_there_are_benchmarks() -> None:
    assert len(BENCHMARKS) >= 10


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda path: path.stem)
def test_each_benchmark_imports_and_has_a_main_guard(script: Path) -> None:
    name = f"benchmarks_under_test.{script.stem}"
    spec = importlib.util.spec_from_file_location(name, script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(name, None)
    text = script.read_text()
    if "def main(" in text:  # a benchmark, not a helper module: it runs only as a script
        assert 'if __name__ == "__main__":' in text, f"{script.name} would run when imported"
