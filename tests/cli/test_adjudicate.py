"""``entente adjudicate`` as a user runs it: a subprocess reading stdin, writing stdout; and the
Dirigible variant's documents through the command's ``run``."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from services.cli.adjudicate import run

CONTRACT = Path(__file__).parents[1] / "rules" / "diplomacy" / "contract"
ENTENTE = str(Path(sys.executable).parent / "entente")
SIMPLE = {"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]},
          "orders": {"FRANCE": ["A PAR - BUR"]}}


def entente(stdin: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([ENTENTE, "adjudicate", *args], input=stdin, capture_output=True, text=True, timeout=120)


def as_sets(groups: dict[str, list[str]]) -> set[tuple[str, str]]:
    return {(power, item) for power, items in groups.items() for item in items}


def test_json_lines_in_json_lines_out_matching_the_contract() -> None:
    done = entente((CONTRACT / "adjudicate-input.jsonl").read_text())
    assert done.returncode == 0, done.stderr
    got = [json.loads(line) for line in done.stdout.splitlines()]
    expected = [json.loads(line) for line in (CONTRACT / "adjudicate-output.jsonl").read_text().splitlines()]
    assert len(got) == len(expected) == 4
    for g, e in zip(got, expected, strict=True):
        assert set(g) == set(e)
        assert (g["phase"], g["next_phase"], g["dislodged"]) == (e["phase"], e["next_phase"], e["dislodged"])
        assert as_sets(g["units"]) == as_sets(e["units"])
        assert as_sets(g["centers"]) == as_sets(e["centers"])
        assert {p: [(i["order"], i["result"]) for i in items] for p, items in g["orders"].items()} == {
            p: [(i["order"], i["result"]) for i in items] for p, items in e["orders"].items()
        }


def test_one_document_over_several_lines_gives_one_result() -> None:
    done = entente(json.dumps(SIMPLE, indent=2) + "\n")
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    result = json.loads(line)
    assert result["units"] == {"FRANCE": ["A BUR"]}
    assert result["orders"]["FRANCE"][0]["result"] == "succeeds"


def test_bad_json_names_the_line_and_exits_2_after_the_good_lines() -> None:
    text = json.dumps(SIMPLE) + "\n\n" + json.dumps(SIMPLE) + "\n{not json\n" + json.dumps(SIMPLE) + "\n"
    done = entente(text)
    assert done.returncode == 2
    assert "line 4" in done.stderr and "bad JSON" in done.stderr
    assert len(done.stdout.splitlines()) == 2


def test_bad_json_in_a_single_document_names_its_line() -> None:
    done = entente('{\n  "phase": "S1901M",\n  "units": {,}\n}\n')
    assert done.returncode == 2
    assert "line 3" in done.stderr


def test_an_unknown_variant_is_a_clear_error_with_exit_code_2() -> None:
    done = entente(json.dumps({**SIMPLE, "variant": "atlantis"}) + "\n")
    assert done.returncode == 2
    assert "line 1" in done.stderr and "variant" in done.stderr and "atlantis" in done.stderr
    assert done.stdout == ""


def test_a_bad_document_names_the_field() -> None:
    done = entente(json.dumps({**SIMPLE, "units": {"FRANCE": ["A PAR", "A PAR"]}}) + "\n")
    assert done.returncode == 2
    assert "units.FRANCE[1]" in done.stderr


def test_results_stream_out_before_the_input_ends() -> None:
    process = subprocess.Popen([ENTENTE, "adjudicate"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(SIMPLE) + "\n")
        process.stdin.flush()
        first = json.loads(process.stdout.readline())  # answered while stdin is still open
        assert first["next_phase"] == "F1901M"
        process.stdin.close()
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()


def test_a_thousand_phases_in_one_call_come_back_in_order() -> None:
    phases = [f"{season}{1901 + n // 2}M" for n in range(1000) for season in ("SF"[n % 2],)]
    lines = [json.dumps({**SIMPLE, "phase": phase}) for phase in phases]
    done = entente("\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["phase"] for line in done.stdout.splitlines()] == phases


def test_a_line_longer_than_a_read_and_lines_split_across_reads_are_read_whole() -> None:
    padded = json.dumps(SIMPLE).replace(", ", "," + " " * 100_000, 1)  # one line of about 100 KB
    lines = [json.dumps({**SIMPLE, "phase": "F1901M"}), padded, *[json.dumps(SIMPLE)] * 200]
    done = entente("\n".join(lines))  # the last line has no line end
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["phase"] for r in results] == ["F1901M"] + ["S1901M"] * 201
    assert results[1]["units"] == {"FRANCE": ["A BUR"]}


def test_bytes_that_are_not_utf8_name_their_line_and_exit_2() -> None:
    good = json.dumps(SIMPLE).encode()
    done = subprocess.run([ENTENTE, "adjudicate"], input=good + b"\n" + b'{"phase": "S1901M\xff"}\n',
                          capture_output=True, timeout=120)
    assert done.returncode == 2
    assert b"line 2: not UTF-8 text" in done.stderr and b"Traceback" not in done.stderr
    assert len(done.stdout.splitlines()) == 1  # the good line's result stands


def test_help_and_unknown_arguments() -> None:
    assert entente("", "--help").returncode == 0
    done = entente("", "--frobnicate")
    assert done.returncode == 2 and "--frobnicate" in done.stderr


def test_empty_input_prints_nothing() -> None:
    done = entente("")
    assert (done.returncode, done.stdout) == (0, "")


def entente_adjudicate(documents: list[dict]) -> tuple[int, list[dict]]:
    out = io.StringIO()
    code = run("adjudicate", [], io.StringIO("".join(json.dumps(d) + "\n" for d in documents)), out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_entente_adjudicate_takes_the_dirigible_variant() -> None:
    code, [winter] = entente_adjudicate([{
        "variant": "dirigible", "phase": "W1900A", "units": {}, "centers": {"ENGLAND": ["EDI", "LON", "LVP"]},
        "orders": {"ENGLAND": ["F LVP B", "F LON B", "F EDI B", "D LON B"]}}])
    assert code == 0
    assert winter["units"] == {"ENGLAND": ["D LON", "F EDI", "F LON", "F LVP"]}
    assert winter["points"] == {"ENGLAND": 15} and winter["devastated"] == [] and winter["next_phase"] == "S1901M"


def test_entente_adjudicate_still_takes_standard_documents_and_refuses_unknown_variants(capsys) -> None:
    standard = {"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {},
                "orders": {"FRANCE": ["A PAR - BUR"]}}
    code, [out] = entente_adjudicate([standard])
    assert code == 0 and out["units"] == {"FRANCE": ["A BUR"]} and "points" not in out
    code, _ = entente_adjudicate([{**standard, "variant": "atlantis"}])
    assert code == 2 and "atlantis" in capsys.readouterr().err
