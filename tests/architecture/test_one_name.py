"""Names a reader tripped on, each now meaning one thing in shared/ and services/: the order
commands (shared/game/commands.py: ``SubmitOrdersCommand``, ``PatchOrdersCommand``)
are not the request bodies (``SubmitOrders``, ``PatchOrders``: the OpenAPI schema names), the
DAIDE desk's function types are not the commands, ``Session`` is the DAIDE client's session
alone, and ``submit_orders`` is the intake's function (shared/game/intake.py), the PUT route's
handler being ``replace_orders`` (its operation id stays ``submit_orders``); a change of orders
is the intake's ``patch``, ``patch_orders`` naming nothing any more."""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WATCHED = {"SubmitOrders", "PatchOrders", "SetReady", "Session", "submit_orders", "patch_orders"}


def definitions() -> dict[str, list[str]]:
    """Each watched name -> the modules that define it at their top level (a class, a function
    or an assignment)."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted([*(ROOT / "shared").rglob("*.py"), *(ROOT / "services").rglob("*.py")]):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names = [node.target.id]
            else:
                names = []
            for name in set(names) & WATCHED:
                found[name].append(path.relative_to(ROOT).as_posix())
    return dict(found)


def test_each_watched_name_is_defined_once() -> None:
    assert definitions() == {
        "SubmitOrders": ["services/adjudication/api.py"],
        "PatchOrders": ["services/adjudication/api.py"],
        "SetReady": ["shared/game/commands.py"],
        "Session": ["services/daide/session.py"],
        "submit_orders": ["shared/game/intake.py"],
    }
