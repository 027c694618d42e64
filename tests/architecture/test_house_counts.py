"""benchmarks/house_counts.py counts what it says: McCabe's complexity both ways on a function
whose branches are known, nested functions on their own."""
from __future__ import annotations

import ast
import importlib.util
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "house_counts.py"

SAMPLE = '''
def sample(xs, flag):
    if flag and xs:                      # if: 1, and: 1
        return [x for x in xs if x]      # comprehension: 1, its if: 1
    for x in xs:                         # for: 1
        while x:                         # while: 1
            x -= 1
    try:
        pass
    except ValueError:                   # except: 1
        pass
    def inner(y):                        # a function of its own
        return 1 if y else 2             # conditional expression (inner's)
    return 3 if flag else 4              # conditional expression: 1
'''


def house_counts() -> ModuleType:
    spec = importlib.util.spec_from_file_location("house_counts_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_complexity_is_counted_both_ways() -> None:
    counts = house_counts()
    tree = ast.parse(SAMPLE)
    sample = tree.body[0]
    assert isinstance(sample, ast.FunctionDef)
    assert counts.complexity(sample) == 1 + 8
    assert counts.complexity(sample, expressions=False) == 1 + 4


def test_nested_functions_are_named_and_counted_alone(tmp_path: Path) -> None:
    path = tmp_path / "sample.py"
    path.write_text(SAMPLE, encoding="utf-8")
    assert dict(house_counts().functions(path)) == {"sample": 9, "sample.inner": 2}


def test_any_is_counted_by_the_line_as_grep_counts_it() -> None:
    text = "from typing import Any\nx: dict[str, Any] = {}  # Any\ny: AnyStr\nz = 'Anything'\n"
    assert house_counts().lines_writing_any(text) == 2
