"""docs/api.md's error table against the code: every error code a service can answer is in the
table under its status, and every code of the table is one a service answers.

The codes are read from the source with ``ast``: each domain error raised with its ``code=``
(or its class's default code), the handlers' ``error_response(status, code, ...)`` and the
framework statuses' codes of shared/http/errors.py."""
from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [p for folder in ("services", "shared") for p in (ROOT / folder).rglob("*.py")]


def code_of(node: ast.expr) -> str:
    """A code as the source writes it: a string, or a member of ``ErrorCode`` (its value)."""
    from shared.errors import ErrorCode

    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "ErrorCode":
        return ErrorCode[node.attr].value
    assert isinstance(node, ast.Constant) and isinstance(node.value, str), ast.unparse(node)
    return node.value


def _class_defaults(trees: list[ast.Module]) -> dict[str, tuple[int, str]]:
    """Domain error class -> (status, default code), for every subclass of DomainError."""
    defaults: dict[str, tuple[int, str]] = {"DomainError": (400, "bad_request")}
    classes = [node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    changed = True
    while changed:
        changed = False
        for node in classes:
            bases = [b.id for b in node.bases if isinstance(b, ast.Name) and b.id in defaults]
            if node.name in defaults or not bases:
                continue
            status, code = defaults[bases[0]]
            for statement in node.body:
                if isinstance(statement, ast.Assign):
                    for target in statement.targets:
                        if isinstance(target, ast.Name) and target.id == "status_code":
                            assert isinstance(statement.value, ast.Constant)
                            assert isinstance(statement.value.value, int)
                            status = statement.value.value
                        if isinstance(target, ast.Name) and target.id == "code":
                            code = code_of(statement.value)
            defaults[node.name] = (status, code)
            changed = True
    return defaults


@cache
def answered_codes() -> frozenset[tuple[int, str]]:
    trees = [ast.parse(path.read_text()) for path in SOURCES]  # in the order of SOURCES
    defaults = _class_defaults(trees)
    found: set[tuple[int, str]] = set()
    for path, tree in zip(SOURCES, trees, strict=True):
        handlers = path == ROOT / "shared" / "http" / "errors.py"
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                if name in defaults and name != "DomainError":
                    status, code = defaults[name]
                    for keyword in node.keywords:
                        if keyword.arg == "code":
                            code = code_of(keyword.value)
                    found.add((status, code))
                if name == "error_response" and node.args and isinstance(node.args[0], ast.Constant):
                    assert isinstance(node.args[0].value, int)
                    found.add((node.args[0].value, code_of(node.args[1])))
            if handlers and isinstance(node, ast.Dict) and node.keys and all(
                    isinstance(k, ast.Constant) and isinstance(k.value, int) for k in node.keys):
                if all(isinstance(v, ast.Constant) and isinstance(v.value, str) or isinstance(v, ast.Attribute)
                       for v in node.values):
                    found.update((k.value, code_of(v)) for k, v in zip(node.keys, node.values, strict=True))  # type: ignore[union-attr]
    return frozenset(found)


def documented_codes() -> set[tuple[int, str]]:
    text = (ROOT / "docs" / "api.md").read_text()
    table = text.split("## Errors", 1)[1].split("\n## ", 1)[0]
    found: set[tuple[int, str]] = set()
    for line in table.splitlines():
        row = re.match(r"\| (\d{3}) \| (.*?) \|", line)  # status, codes (the third column explains)
        if row:
            found.update((int(row.group(1)), code) for code in re.findall(r"`([a-z_]+)`", row.group(2)))
    return found


def test_every_error_code_the_services_answer_is_in_the_docs_error_table() -> None:
    answered, documented = answered_codes(), documented_codes()
    assert len(answered) > 40  # the scan found the raises
    assert sorted(answered - documented) == []


def test_every_code_of_the_docs_error_table_is_one_a_service_answers() -> None:
    assert sorted(documented_codes() - answered_codes()) == []
