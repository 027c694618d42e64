"""Nothing outside shared/rules looks inside a variant's state document (docs/architecture.md,
"What crosses the rules' boundary"): the platform stores it and hands it back, and reads a
position through the variant's answers (``public_board``, ``view``, ``surviving``, ...).

The scan reads each function of shared/ and services/ (shared/rules left out) with ``ast``. A
state document there is what a function gets from an attribute that holds one (an event's
``position`` or ``position_before``, an outcome's ``state``), a parameter annotated
``StateDocument`` or named ``position`` (the house's name for one), and any name assigned from
those; indexing one (``doc["phase"]``) or asking
it ``.get``, ``.items``, ``.keys`` or ``.values`` is a finding.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOLDERS = frozenset({"position", "position_before", "state"})  # attributes that hold a state document
LOOKS_INSIDE = frozenset({"get", "items", "keys", "values"})


def _holds_document(node: ast.expr, names: set[str]) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in HOLDERS
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.BoolOp):
        return any(_holds_document(value, names) for value in node.values)
    if isinstance(node, ast.IfExp):
        return _holds_document(node.body, names) or _holds_document(node.orelse, names)
    return False


def _is_document_type(annotation: ast.expr | None) -> bool:
    return annotation is not None and "StateDocument" in ast.unparse(annotation)


def _document_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    arguments = function.args
    names = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
             if _is_document_type(a.annotation) or a.arg in HOLDERS - {"state"}}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and _holds_document(node.value, names):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and (
                _is_document_type(node.annotation) or node.value is not None and _holds_document(node.value, names)):
            names.add(node.target.id)
    return names


def findings(source: str, where: str) -> Iterator[str]:
    """Each place in ``source`` that indexes a state document, as ``where:line: code``."""
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        names = _document_names(function)
        for node in ast.walk(function):
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
                looked_into = node.value
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in LOOKS_INSIDE):
                looked_into = node.func.value
            else:
                continue
            if _holds_document(looked_into, names):
                yield f"{where}:{node.lineno}: {ast.unparse(node)}"


def platform_sources() -> list[Path]:
    rules = ROOT / "shared" / "rules"
    return sorted(p for folder in ("shared", "services") for p in (ROOT / folder).rglob("*.py")
                  if rules not in p.parents and "__pycache__" not in p.parts)


def test_nothing_outside_the_rules_indexes_a_state_document() -> None:
    found = sorted({finding for path in platform_sources()
                    for finding in findings(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))})
    assert found == [], "read outside shared/rules (use public_board or the variant):\n" + "\n".join(found)


def test_the_scan_finds_a_document_read_by_its_keys() -> None:
    sample = '''
def board(state, event, kept: StateDocument, position_before):
    position = state.position or {}
    before = event.position_before
    a = position["phase"]
    b = before.get("units", {})
    c = kept["centers"]
    d = event.state["turn"]
    e = state.settings["press"]       # not a state document
    f = public_board(position)["phase"]  # the rules' view of it: allowed
    g = position_before["dislodged"]
'''
    lines = [f.partition(": ")[2] for f in findings(sample, "sample.py")]
    assert lines == ["position['phase']", "before.get('units', {})", "kept['centers']", "event.state['turn']",
                     "position_before['dislodged']"]
