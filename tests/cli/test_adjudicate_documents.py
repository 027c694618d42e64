"""The ``entente adjudicate`` document as users chain it (docs/api.md, "The entente adjudicate document"): an output
read back as the next phase's document, the views' spellings and shapes, unknown fields refused.
The command's own ``run`` reads stdin and writes stdout as the installed command does (which
tests/adjudication/test_cli_adjudicate.py runs as a process); one chain here runs the process too."""
from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.cli.adjudicate import run

ENTENTE = str(Path(sys.executable).parent / "entente")


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def adjudicate(document: dict[str, Any]) -> Done:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = run("adjudicate", [], io.StringIO(json.dumps(document)), out)
    return Done(code, out.getvalue(), err.getvalue())


def adjudicated(document: dict[str, Any], *, process: bool = False) -> dict[str, Any]:
    if process:
        ran = subprocess.run([ENTENTE, "adjudicate"], input=json.dumps(document), capture_output=True, text=True,
                             timeout=120)
        done = Done(ran.returncode, ran.stdout, ran.stderr)
    else:
        done = adjudicate(document)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def next_document(output: dict[str, Any], orders: dict[str, list[str]]) -> dict[str, Any]:
    """The documented rule: the output, its ``phase`` set to its ``next_phase``, new orders (its
    ``variant`` is the output's own: a Dirigible output says it is one)."""
    return {**output, "phase": output["next_phase"], "orders": orders}


def test_an_output_with_its_next_phase_and_new_orders_is_the_next_dirigible_document() -> None:
    spring = {"variant": "dirigible", "phase": "S1901M",
              "units": {"ENGLAND": ["D LON", "D EDI"], "FRANCE": ["D NTH", "A BEL"], "GERMANY": ["A HOL", "A RUH"]},
              "centers": {"FRANCE": ["BEL", "PAR"], "GERMANY": ["HOL", "BER"], "ENGLAND": ["LON", "EDI"]},
              "orders": {"ENGLAND": ["D LON - NTH", "D EDI S D LON - NTH"],
                         "GERMANY": ["A HOL - BEL", "A RUH S A HOL - BEL"]}}
    out = adjudicated(spring, process=True)
    assert out["next_phase"] == "S1901R"
    assert {"unit": "D NTH", "attacker_from": "LON", "retreats": []} in out["dislodged"]["FRANCE"]
    summer = adjudicated(next_document(out, {"FRANCE": ["A BEL R PIC"]}), process=True)
    assert summer["orders"]["FRANCE"] == [{"order": "A BEL R PIC", "result": "succeeds", "reason": "retreated to PIC"}]
    fall = adjudicated(next_document(summer, {"ENGLAND": ["D NTH - HOL"], "FRANCE": ["A PIC - BRE"]}))
    assert fall["phase"] == "F1901M" and "D HOL" in fall["units"]["ENGLAND"]
    after = adjudicated(next_document(fall, {}))
    assert after["phase"] == fall["next_phase"]


def test_a_unit_disbanded_for_want_of_a_retreat_does_not_stop_the_next_standard_document() -> None:
    spring = {"variant": "standard", "phase": "S1901M",
              "units": {"RUSSIA": ["F SEV", "A RUM"], "TURKEY": ["F BLA", "A ARM", "A UKR"]},
              "centers": {"RUSSIA": ["SEV"], "TURKEY": ["ANK"]},
              "orders": {"TURKEY": ["F BLA - SEV", "A ARM S F BLA - SEV", "A UKR H"], "RUSSIA": ["A RUM H"]}}
    out = adjudicated(spring)
    assert out["dislodged"] == {"RUSSIA": [{"unit": "F SEV", "attacker_from": "BLA", "retreats": []}]}
    assert out["next_phase"] == "F1901M"
    fall = adjudicated(next_document(out, {"TURKEY": ["F SEV - RUM"]}))
    assert fall["phase"] == "F1901M" and "F SEV" not in fall["units"].get("RUSSIA", [])


def test_a_unit_with_retreats_outside_a_retreat_phase_is_still_refused() -> None:
    done = adjudicate({"variant": "standard", "phase": "F1901M", "units": {}, "centers": {},
                       "dislodged": {"RUSSIA": [{"unit": "F SEV", "attacker_from": "BLA", "retreats": ["RUM"]}]}})
    assert done.returncode == 2
    assert "dislodged: units are dislodged only in a retreat phase" in done.stderr


def test_centres_as_the_view_spells_them_are_read_like_centers() -> None:
    base = {"variant": "standard", "phase": "F1901M", "units": {"FRANCE": ["A BUR"]},
            "orders": {"FRANCE": ["A BUR - BEL"]}}
    spelt_so = adjudicated({**base, "centres": {"FRANCE": ["PAR"]}})
    assert spelt_so["centers"] == {"FRANCE": ["BEL", "PAR"]}
    assert spelt_so == adjudicated({**base, "centers": {"FRANCE": ["PAR"]}})
    both = adjudicate({**base, "centres": {"FRANCE": ["PAR"]}, "centers": {"FRANCE": ["PAR"]}})
    assert both.returncode == 2 and "centres: give the owned centres once" in both.stderr


def test_a_field_the_document_does_not_have_is_refused_with_exit_2() -> None:
    for variant in ("standard", "dirigible"):
        done = adjudicate({"variant": variant, "phase": "S1901M", "units": {}, "center": {"FRANCE": ["PAR"]}})
        assert done.returncode == 2
        assert "line 1: center: not a field of the document" in done.stderr
        assert done.stdout == ""


def test_the_views_list_of_dislodged_units_reads_as_the_documents_object() -> None:
    units = {"TURKEY": ["F SEV", "A ARM"]}
    as_object = {"RUSSIA": [{"unit": "F SEV", "attacker_from": "BLA", "retreats": ["RUM"]}]}
    as_list = [{"power": "RUSSIA", "unit": "F SEV", "attacker_from": "BLA", "retreats": ["RUM"]}]
    base = {"variant": "standard", "phase": "F1901R", "units": units, "centers": {"RUSSIA": ["SEV"]},
            "orders": {"RUSSIA": ["F SEV R RUM"]}}
    from_object = adjudicated({**base, "dislodged": as_object})
    assert from_object["orders"]["RUSSIA"] == [{"order": "F SEV R RUM", "result": "succeeds",
                                                "reason": "retreated to RUM"}]
    assert adjudicated({**base, "dislodged": as_list}) == from_object
    bad = adjudicate({**base, "dislodged": [{"power": "PRUSSIA", "unit": "F SEV", "attacker_from": "BLA"}]})
    assert bad.returncode == 2 and "dislodged[0].power: unknown power 'PRUSSIA'" in bad.stderr


def test_a_view_position_with_its_variant_and_orders_is_a_document() -> None:
    from shared.rules.variants import get_variant

    dirigible = get_variant("dirigible")
    state = {"variant": "dirigible", "phase": "W1901A", "units": {"ENGLAND": ["F LON"]},
             "centers": {"ENGLAND": ["LON", "EDI"]}, "devastated": ["EDI"]}
    view = dirigible.view(state, None)
    assert set(view) == {"phase", "units", "centres", "devastated", "points", "balance", "adjustments", "dislodged"}
    out = adjudicated({**view, "variant": "dirigible", "orders": {"ENGLAND": ["D LON B"]}})
    assert out["points"] == {"ENGLAND": 5}  # EDI is devastated: only LON counts
    assert out["orders"]["ENGLAND"] == [{"order": "D LON B", "result": "fails", "reason": "D LON costs 3 SP, 1 left"}]
