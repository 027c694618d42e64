"""``entente render``: the contract's documents drawn, before and after adjudication."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

from PIL import Image

from services.cli import main
from services.cli.adjudicate import adjudicate_any
from services.cli.render import run

CONTRACT = Path(__file__).resolve().parents[1] / "rules" / "diplomacy" / "contract" / "adjudicate-input.jsonl"


def documents() -> list[dict]:
    return [json.loads(line) for line in CONTRACT.read_text().splitlines() if line.strip()]


def render(document: dict, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    return run("render", list(args), io.StringIO(json.dumps(document)), out), out.getvalue()


def test_a_document_before_adjudication_shows_its_units_and_orders() -> None:
    spring = documents()[0]
    code, svg = render(spring)
    assert code == 0 and svg.startswith("<svg")
    assert set(re.findall(r'data-unit="([^"]+)"', svg)) == {u for us in spring["units"].values() for u in us}
    drawn = set(re.findall(r'data-order="([^"]+)"', svg))
    assert drawn == {o for os in spring["orders"].values() for o in os}
    assert "data-result" not in svg


def test_a_document_after_adjudication_shows_the_results() -> None:
    outcome = adjudicate_any(documents()[0])
    code, svg = render(outcome)
    assert code == 0
    results = dict(re.findall(r'data-order="([^"]+)" data-power="[A-Z]+" data-result="([a-z]+)"', svg))
    assert results == {r["order"]: r["result"] for rs in outcome["orders"].values() for r in rs}
    assert 'data-unit="F NTH"' in svg and 'data-phase="F1901M"' in svg
    retreat = documents()[2]
    code, svg = render(retreat)
    assert code == 0 and 'data-unit="A PIC" data-power="FRANCE" data-dislodged="true"' in svg
    assert 'data-order="A PIC R PAR"' in svg


def test_dirigible_and_ekonia_documents() -> None:
    dirigible = {"variant": "dirigible", "phase": "S1901M", "units": {"ENGLAND": ["F LON", "D LON"]},
                 "centers": {"ENGLAND": ["LON"]}, "orders": {"ENGLAND": ["D LON - NTH"]}}
    code, svg = render(dirigible)
    assert code == 0 and 'data-unit="D LON"' in svg and 'data-order="D LON - NTH"' in svg
    # dirigibles are drawn above ground units: after them in the document, higher on the board
    assert svg.index('data-unit="D LON"') > svg.index('data-unit="F LON"')
    ekonia = adjudicate_any({"variant": "ekonia", "seed": 3,
                             "orders": {"VIEREN": ["MOVE 1 INFANTRY vieren -> ninerest"]}})
    code, svg = render(ekonia)
    assert code == 0 and 'data-unit="VIEREN INFANTRY ninerest"' in svg
    assert 'data-order="MOVE 1 INFANTRY vieren -&gt; ninerest" data-power="VIEREN" data-result="ok"' in svg


def test_png_and_bad_input(capsys) -> None:
    out = io.BytesIO()
    assert run("render", ["--png"], io.StringIO(json.dumps(documents()[1])), out) == 0
    image = Image.open(io.BytesIO(out.getvalue()))
    assert image.width >= 1200
    assert run("render", [], io.StringIO("{nope"), io.StringIO()) == 2
    assert run("render", [], io.StringIO('{"variant": "chess", "phase": "S1901M"}'), io.StringIO()) == 2
    assert run("render", [], io.StringIO('{"phase": "S1901M", "units": {"FRANCE": ["A XXX"]}}'), io.StringIO()) == 2
    assert run("render", [], io.StringIO("\n".join(json.dumps(d) for d in documents())), io.StringIO()) == 2
    assert "expected exactly one document" in capsys.readouterr().err
    assert main(["render", "--help"]) == 0


def test_supports_builds_and_removals_are_drawn() -> None:
    fall, winter = documents()[1], documents()[3]
    code, svg = render(fall)
    # Munich cannot reach Belgium: the order check rejects that support, and it is not drawn
    assert code == 0 and set(re.findall(r'data-order="([^"]+)"', svg)) == {
        "A RUH - BEL", "F HOL S A RUH - BEL", "A BUR S A BEL", "A BEL H"}
    code, svg = render(winter)
    assert code == 0
    assert set(re.findall(r'data-order="([^"]+)"', svg)) == {"F KIE B", "A BER B", "F MAO D"}
    assert 'data-built="F KIE"' in svg and 'data-built="A BER"' in svg
