"""No class of the store has more than 20 methods (docs/store.md, "Recorders"): a transaction
hands out its recorders rather than being all of them at once. The counts are printed (``-s``)."""
from __future__ import annotations

import ast
from pathlib import Path

STORE = Path(__file__).resolve().parents[2] / "shared" / "store"
MOST_METHODS = 20


def methods_by_class(source: str) -> dict[str, int]:
    """Each class of the module and how many methods its own body defines (properties, static
    and class methods, dunders and private ones included; nested classes counted alone)."""
    counts: dict[str, int] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            counts[node.name] = sum(isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) for item in node.body)
    return counts


def store_classes() -> dict[str, int]:
    return {f"{path.stem}.{name}": count for path in sorted(STORE.glob("*.py"))
            for name, count in methods_by_class(path.read_text(encoding="utf-8")).items()}


def test_methods_are_counted_in_the_class_body_alone() -> None:
    sample = '''
class Outer:
    x = 1
    def one(self): ...
    async def two(self): ...
    @property
    def three(self): ...
    class Inner:
        def four(self): ...
def outside(): ...
'''
    assert methods_by_class(sample) == {"Outer": 3, "Inner": 1}


def test_no_store_class_has_more_than_twenty_methods() -> None:
    counts = store_classes()
    assert {"base.Transaction", "base.EventStore", "postgresql.PostgresTransaction",
            "sqlite.SQLiteTransaction"} <= set(counts)
    for name, count in sorted(counts.items(), key=lambda item: -item[1]):
        if count:
            print(f"{count:3d} {name}")
    assert {name: count for name, count in counts.items() if count > MOST_METHODS} == {}
