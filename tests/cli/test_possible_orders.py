"""``entente possible-orders``: every power's menu for each JSON document read, standard and
Dirigible."""
from __future__ import annotations

import io
import json

import pytest

from services.cli import main as entente
from services.cli.possible_orders import run

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def run_cli(text: str) -> tuple[int, list[dict]]:
    out = io.StringIO()
    code = run("possible-orders", [], io.StringIO(text), out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_cli_prints_every_power_with_orders_in_short_notation():
    document = {"variant": "standard", "phase": "F1901R", "units": {"GERMANY": ["A BEL", "F HOL"]},
                "dislodged": {"FRANCE": [{"unit": "A PIC", "attacker_from": "BEL", "retreats": ["BRE", "PAR"]}]},
                "centers": {"FRANCE": ["PAR"]}}
    code, [result] = run_cli(json.dumps(document, indent=2))
    assert code == 0
    assert result == {p: {} for p in POWERS} | {"FRANCE": {"PIC": ["A PIC R BRE", "A PIC R PAR", "A PIC D"]}}


def test_cli_reads_json_lines_and_answers_line_for_line():
    lines = [
        {"variant": "standard", "phase": "S1901M", "units": {"ITALY": ["A VEN"]}, "centers": {}},
        {"variant": "standard", "phase": "W1901A", "units": {}, "centers": {"ITALY": ["ROM"]},
         "orders": {"ITALY": ["A ROM B"]}},
    ]
    code, results = run_cli("\n".join(json.dumps(line) for line in lines) + "\n")
    assert code == 0
    assert results[0]["ITALY"]["VEN"][:4] == ["A VEN H", "A VEN - APU", "A VEN - PIE", "A VEN - ROM"]
    assert results[1]["ITALY"] == {"ROM": ["A ROM B", "F ROM B"], "WAIVE": ["WAIVE"]}


@pytest.mark.parametrize("text, message", [
    ('{"phase": "S1901M", "units": {', "line 1: bad JSON"),
    ('{"variant": "atlantis", "phase": "S1901M"}', "line 1: unknown variant 'atlantis'"),
    ('{"variant": "standard", "phase": "S1901M"}\n{"variant": "standard", "phase": "X"}', "line 2: phase:"),
])
def test_cli_refuses_bad_input_with_exit_code_2(text, message, capsys):
    code, _ = run_cli(text)
    assert code == 2
    assert message in capsys.readouterr().err


def test_entente_dispatches_to_possible_orders(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO('{"variant": "standard", "phase": "S1901M"}'))
    assert entente(["possible-orders"]) == 0
    assert json.loads(capsys.readouterr().out) == {p: {} for p in POWERS}


def test_entente_possible_orders_takes_the_dirigible_variant() -> None:
    from services.cli.possible_orders import run as possible_orders

    document = {"variant": "dirigible", "phase": "S1901M", "units": {"ENGLAND": ["D LON", "F NTH"]},
                "centers": {"ENGLAND": ["LON"]}}
    out = io.StringIO()
    assert possible_orders("possible-orders", [], io.StringIO(json.dumps(document)), out) == 0
    menus = json.loads(out.getvalue())
    assert "D LON - NTH" in menus["ENGLAND"]["D LON"]
    assert "D LON S F NTH - LON" in menus["ENGLAND"]["D LON"]  # support into the province below
    assert "F NTH - LON" in menus["ENGLAND"]["NTH"]
    assert menus["FRANCE"] == {}
