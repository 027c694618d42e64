"""The counts the house watches (docs/architecture.md, "The house in figures"): how often loose
JSON types are written in shared/ and services/ (and ``Any`` at all, so that a reader sees the
``Any`` did not just move elsewhere), the functions of shared/rules whose cyclomatic
complexity is over 25, the modules over 600 lines, and the class and type names defined in more
than one module of shared/ and services/ (a reader meets two things of one name).

Run: python benchmarks/house_counts.py [--list]
``--list`` names each complex function, long module and name defined twice, not only how many
there are. Nothing
here is timed; it reads the sources with ``ast`` and prints.

The complexity is McCabe's, counted on the syntax tree two ways. As radon counts it: 1 for the
function, and 1 more for each ``if``/``elif``, conditional expression, ``for``, ``while``,
``except``, ``case``, comprehension loop and comprehension ``if``, and each ``and``/``or``
beyond the first operand. And as mccabe (ruff's C901) counts it, the statements only: no
conditional expressions, comprehensions or boolean operators, so a lower figure. A nested
function or class is a function of its own; a lambda counts in the function that holds it.
"""
from __future__ import annotations

import argparse
import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOOSE_TYPES = ("dict[str, Any]", "Mapping[str, Any]")
ANY_WORD = re.compile(r"Any\b")  # as ``grep -rn "Any\b" | grep -c Any`` counts: lines that write it
COMPLEXITY_OVER = 25
LINES_OVER = 600

_STATEMENT_BRANCHES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler, ast.match_case)
_OWN_SCOPE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def python_files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def complexity(function: ast.FunctionDef | ast.AsyncFunctionDef, expressions: bool = True) -> int:
    """McCabe's cyclomatic complexity of one function, nested functions and classes left out;
    with ``expressions``, the branches inside expressions counted too (radon's way)."""
    count = 1
    stack: list[ast.AST] = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, _OWN_SCOPE):
            continue
        if isinstance(node, _STATEMENT_BRANCHES):
            count += 1
        elif not expressions:
            pass
        elif isinstance(node, ast.IfExp):
            count += 1
        elif isinstance(node, ast.BoolOp):
            count += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            count += 1 + len(node.ifs)
        stack.extend(ast.iter_child_nodes(node))
    return count


def functions(path: Path, expressions: bool = True) -> Iterator[tuple[str, int]]:
    """Each function of a module (methods and nested functions too): its qualified name and complexity."""
    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield f"{prefix}{child.name}", complexity(child, expressions)
                yield from walk(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
            else:
                yield from walk(child, prefix)

    yield from walk(ast.parse(path.read_text(encoding="utf-8"), str(path)), "")


def loose_type_counts() -> dict[str, int]:
    texts = [p.read_text(encoding="utf-8") for p in python_files("shared", "services")]
    return {loose: sum(text.count(loose) for text in texts) for loose in LOOSE_TYPES}


def lines_writing_any(text: str) -> int:
    """The lines of ``text`` that write ``Any`` (its import, annotations, comments)."""
    return sum(1 for line in text.splitlines() if ANY_WORD.search(line))


def any_lines() -> int:
    return sum(lines_writing_any(p.read_text(encoding="utf-8")) for p in python_files("shared", "services"))


def complex_functions(expressions: bool = True) -> list[tuple[str, int]]:
    return sorted(((f"{p.relative_to(ROOT)}:{name}", n) for p in python_files("shared/rules")
                   for name, n in functions(p, expressions) if n > COMPLEXITY_OVER), key=lambda item: -item[1])


def long_modules(*folders: str) -> list[tuple[str, int]]:
    found = ((str(p.relative_to(ROOT)), len(p.read_text(encoding="utf-8").splitlines()))
             for p in python_files(*folders))
    return sorted(((name, n) for name, n in found if n > LINES_OVER), key=lambda item: -item[1])


def names_defined_twice() -> list[tuple[str, int]]:
    """Class and type names (capitalised, not constants) defined at the top level of more than
    one module of shared/ and services/, with how many define each."""
    modules: dict[str, set[str]] = {}
    for path in python_files("shared", "services"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                names = [node.name]
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [t.id for t in targets if isinstance(t, ast.Name) and t.id[:1].isupper() and not t.id.isupper()]
            else:
                names = []
            for name in names:
                modules.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return sorted((name, len(found)) for name, found in modules.items() if len(found) > 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name each complex function and long module")
    listed = parser.parse_args().list
    for loose, count in loose_type_counts().items():
        print(f"{loose!s:<24} {count:>5}  occurrences in shared/ and services/")
    print(f"{'Any':<24} {any_lines():>5}  lines of shared/ and services/ that write it")
    for expressions, way in ((True, "radon's count"), (False, "mccabe's count, statements only")):
        complex_ones = complex_functions(expressions)
        print(f"{'complexity > 25':<24} {len(complex_ones):>5}  functions of shared/rules ({way})")
        if listed:
            print("".join(f"    {n:>4}  {name}\n" for name, n in complex_ones), end="")
    twice = names_defined_twice()
    print(f"{'names defined twice':<24} {len(twice):>5}  class and type names in shared/ and services/")
    if listed:
        print("".join(f"    {n:>4}  {name}\n" for name, n in twice), end="")
    for folders in (("shared", "services"), ("tests",), ("benchmarks",)):
        long = long_modules(*folders)
        print(f"{'modules > 600 lines':<24} {len(long):>5}  in {', '.join(f + '/' for f in folders)}")
        if listed:
            print("".join(f"    {n:>4}  {name}\n" for name, n in long), end="")


if __name__ == "__main__":
    main()
