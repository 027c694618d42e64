"""The C core of the contract's movement phase (docs/rules/c_core.md) against the Python engine.

Wherever the core takes a document it must write the engine's very output, byte for byte;
wherever it cannot be sure, it must leave the document to the engine (None). So: the DATC
movement cases through the core, checked against the DATC's own expectations and the engine's
output; 10,000 movement phases of random games; phases with orders written near the rules'
edges (coasts, unreachable supports, convoys by fleets on no route, orders for absent or foreign
units); and documents malformed in every field, which must come out as the engine writes them
(an output, or the same error). Where the core was not built (no C compiler, or the pure engine
on purpose), the comparisons skip; the fallback tests still run.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from shared.rules.diplomacy import c_core, engine_build, load_map, position_to_document
from shared.rules.diplomacy.build import C_CORE_SWITCH
from shared.rules.diplomacy.document import adjudicate_document, adjudicate_document_by_engine
from shared.rules.diplomacy.phase import PhaseType
from tests.utils.random_play import random_play

CORE = c_core.MOVEMENT_DOCUMENT
DATC = json.loads((Path(__file__).parent / "datc" / "movement.json").read_text(encoding="utf-8"))
GAME_MAP = load_map("standard")

with_core = pytest.mark.skipif(CORE is None, reason="the C core is not built or not in use here")


def engine_outcome(document: dict[str, Any]) -> dict[str, Any]:
    try:
        return adjudicate_document_by_engine(json.loads(json.dumps(document)))
    except (ValueError, KeyError, TypeError) as exc:  # what `entente adjudicate` reports as bad input
        return {"error": f"{type(exc).__name__}: {exc}"}


def contract_outcome(document: dict[str, Any]) -> dict[str, Any]:
    try:
        return adjudicate_document(json.loads(json.dumps(document)))
    except (ValueError, KeyError, TypeError) as exc:  # what `entente adjudicate` reports as bad input
        return {"error": f"{type(exc).__name__}: {exc}"}


def movement_documents(count: int, first_seed: int) -> list[dict[str, Any]]:
    """``count`` movement phases of seeded random games, with the orders they were played with."""
    documents: list[dict[str, Any]] = []
    seed = first_seed
    while len(documents) < count:
        for position, orders, _ in random_play(seed, phases=60):
            if position.phase.type is PhaseType.MOVEMENT:
                document = position_to_document(position)
                document["orders"] = {power: [str(order) for order in given] for power, given in orders.items()}
                documents.append(document)
        seed += 1
    return documents[:count]


def test_the_core_runs_where_the_engine_runs_compiled() -> None:
    """Built with the compiled engine, used with it: a user of the install gets the core."""
    if engine_build() != "compiled":
        assert CORE is None  # the pure engine (on purpose, or no compiler) takes every document
    else:
        assert CORE is not None, "the engine is compiled but the C core was not built or not loaded"


def datc_document(case: dict[str, Any]) -> dict[str, Any]:
    document = {"variant": "standard", "phase": "S1901M", "units": case["units"], "centers": {},
                "orders": {power: [o["order"] for o in items] for power, items in case["orders"].items()}}
    if "edition" in case:
        document["edition"] = case["edition"]
    return document


def left_to_the_engine(case: dict[str, Any]) -> bool:
    """Whether the core must leave a DATC case: a void order, an edition of its own, or an order
    the engine writes back otherwise than it was given (a coast filled in, dropped or mended)."""
    written = engine_outcome(datc_document(case))
    return ("edition" in case
            or any(o["result"] == "void" for items in case["orders"].values() for o in items)
            or [o["order"] for items in written["orders"].values() for o in items]
            != [o["order"] for items in case["orders"].values() for o in items])


@with_core
def test_the_datc_movement_cases_the_core_takes_come_out_as_the_datc_says() -> None:
    assert CORE is not None
    taken = []
    for case in DATC:
        out = CORE(json.loads(json.dumps(datc_document(case))))
        assert (out is None) == left_to_the_engine(case), case["id"]
        if out is None:
            continue
        taken.append(case["id"])
        assert orjson.dumps(out) == orjson.dumps(engine_outcome(datc_document(case))), case["id"]
        results = [(power, o["order"], o["result"]) for power, items in case["orders"].items() for o in items]
        assert [(power, o["order"], o["result"]) for power, items in out["orders"].items() for o in items] == results
        assert ({(p, u) for p, units in out["units"].items() for u in units}
                == {(p, u) for p, units in case["units_after"].items() for u in units}), case["id"]
        dislodged = sorted((p, d["unit"], d["attacker_from"]) for p, items in out["dislodged"].items() for d in items)
        assert dislodged == sorted((d["power"], d["unit"], d["attacker_from"]) for d in case["dislodged_after"])
        for want in case["dislodged_after"]:
            if "retreats" in want:
                got = next(d for d in out["dislodged"][want["power"]] if d["unit"] == want["unit"])
                assert got["retreats"] == want["retreats"], case["id"]
    assert len(taken) > 90  # of 129: the others have a void order, an edition or a text to mend


@with_core
def test_ten_thousand_random_movement_phases_come_out_as_the_engine_writes_them() -> None:
    assert CORE is not None
    documents = movement_documents(10_000, 31_000)
    left = 0
    for document in documents:
        out = CORE(json.loads(json.dumps(document)))
        if out is None:
            left += 1
            continue
        assert orjson.dumps(out) == orjson.dumps(engine_outcome(document)), document
    # random legal play, written as the engine writes it: the core takes all of it
    assert left == 0


def _near(province: str, steps: int) -> set[str]:
    """The provinces within ``steps`` army or fleet moves of ``province``."""
    found = {province}
    for _ in range(steps):
        found |= {n.split("/")[0] for p in found for loc in (p, *GAME_MAP.fleet_locations(p))
                  for n in (*GAME_MAP.army_neighbours(loc), *GAME_MAP.fleet_neighbours(loc))}
    return found


def _written(province: str, rng: random.Random) -> str:
    """A province as an order might write it: bare, or with one of its coasts (or a wrong one)."""
    coasts = [loc for loc in GAME_MAP.fleet_locations(province) if "/" in loc]
    if coasts and rng.random() < 0.7:
        return rng.choice(coasts)
    if rng.random() < 0.05:
        return province + rng.choice(["/NC", "/SC", "/EC"])
    return province


def edge_order(unit: str, units: dict[str, str], rng: random.Random) -> str:
    """A random order for ``unit`` near the rules' edges: legal or not, canonical or not."""
    kind, location = unit.split()
    province = location.split("/")[0]
    if rng.random() < 0.1:
        kind = "AF"[kind == "A"]  # the wrong type
    if rng.random() < 0.1:
        location = province
    near = sorted(_near(province, 2 if rng.random() < 0.3 else 1) - {province})
    others = sorted(p for p in units if p in _near(province, 2) and p != province)
    verb = rng.choice(["H", "-", "-", "- VIA", "S", "S -", "S -", "C"])
    me = f"{kind} {location}"
    if verb == "H":
        return f"{me} H"
    if verb.startswith("-"):
        return f"{me} - {_written(rng.choice(near), rng)}" + (" VIA" if "VIA" in verb else "")
    if not others:
        return f"{me} H"
    other = rng.choice(others)
    other_unit = units[other] if rng.random() < 0.85 else f"{'AF'[units[other][0] == 'A']} {other}"
    target = _written(rng.choice(sorted(_near(other, 1) | _near(province, 1))), rng)
    if verb == "S":
        return f"{me} S {other_unit}"
    if verb == "S -":
        return f"{me} S {other_unit} - {target}"
    return f"{me} C A {other} - {target}"


@with_core
def test_orders_near_the_rules_edges_come_out_as_the_engine_writes_them() -> None:
    """Phases of random games with one order replaced by a random one written near the edges of
    the rules: whatever the core takes, it writes as the engine does; it leaves the rest."""
    assert CORE is not None
    rng = random.Random(1906)
    taken = left = 0
    for document in movement_documents(3_000, 47_000):
        units = {u.split()[1].split("/")[0]: u for texts in document["units"].values() for u in texts}
        owners = {u.split()[1].split("/")[0]: p for p, texts in document["units"].items() for u in texts}
        orders = document["orders"][rng.choice(sorted(document["orders"]))]
        index = rng.randrange(len(orders))
        orders[index] = edge_order(" ".join(orders[index].split()[:2]), units, rng)
        if rng.random() < 0.1 and units:  # an order for a unit of another power
            province = rng.choice(sorted(units))
            stranger = rng.choice(sorted(set(document["units"]) - {owners[province]}) or ["AUSTRIA"])
            document["orders"].setdefault(stranger, []).append(f"{units[province]} H")
        out = CORE(json.loads(json.dumps(document)))
        if out is None:
            left += 1
            assert contract_outcome(document) == engine_outcome(document)
            continue
        taken += 1
        assert orjson.dumps(out) == orjson.dumps(engine_outcome(document)), document
    assert taken > 600 and left > 600  # both ways were tried, often


def malformed(document: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The document with one field made wrong in one of the ways clients get it wrong."""
    wrong: list[Any] = [None, 7, 1.5, True, "", "x", [], {}, ["A PAR"], {"FRANCE": "A PAR"},
                        {"france": ["A PAR"]}, {"FRANCE": [None]}, {"FRANCE": ["a par"]},
                        {"FRANCE": ["A PAR", "A PAR"]}, {"NOBODY": []}, "S1901M", "s1901m", "F1901R",
                        "W1901A", "S0901M", "S9999M", " S1901M", {"FRANCE": ["F PAR"]}, {"FRANCE": ["F STP"]},
                        {"FRANCE": ["A STP/NC"]}, {"FRANCE": ["PAR"]}, {"FRANCE": [["A PAR"]]}, "standard",
                        "Standard", "dirigible", {"FRANCE": ["A PAR - BUR"]}, {"FRANCE": ["A PAR  H"]},
                        {"FRANCE": ["A PAR H "]}, {"FRANCE": ["A PAR H", "A PAR - BUR"]}, "é", {"FRANCE": ["A PÄR H"]},
                        {"RUSSIA": [{"unit": "F SEV", "attacker_from": "BLA"}]}, ["ITALY"], "2000", "1982", 18]
    copy = json.loads(json.dumps(document))
    field = rng.choice(["variant", "phase", "units", "centers", "centres", "dislodged", "orders", "edition",
                        "civil_disorder", "victory_centres", "next_phase", "winners", "adjustments", "extra"])
    if rng.random() < 0.15:
        copy.pop(field, None)
    else:
        copy[field] = rng.choice(wrong)
    return copy


def test_malformed_documents_come_out_as_the_engine_writes_them() -> None:
    """Every field made wrong in turn: the contract (the core first, where it runs) answers as
    the engine alone does, an output or the same error, and never fails in another way."""
    rng = random.Random(1907)
    documents = movement_documents(150, 52_000)
    for _ in range(10):
        for document in documents:
            bad = malformed(document, rng)
            assert contract_outcome(bad) == engine_outcome(bad), bad


def test_documents_the_core_leaves_are_the_engines() -> None:
    """The phases the core does not take (retreats, adjustments, civil disorder, a rule switch,
    orders in another notation, a void order) still get the engine's outcome by the contract."""
    base = movement_documents(1, 53_000)[0]
    france = base["orders"]["FRANCE"]
    variants = [
        {**base, "civil_disorder": ["FRANCE"]},
        {**base, "edition": "2023"},
        {**base, "victory_centres": 10},
        {**base, "orders": {**base["orders"], "FRANCE": [o.lower() for o in france]}},
        {**base, "orders": {**base["orders"], "FRANCE": [*france, "A XYZ - PAR"]}},
        {**base, "orders": {**base["orders"], "FRANCE": ["Army Paris to Burgundy"]}},
    ]
    for document in variants:
        if CORE is not None:
            assert CORE(json.loads(json.dumps(document))) is None, document
        assert contract_outcome(document) == engine_outcome(document)
        assert "error" not in contract_outcome(document)


@with_core
def test_a_map_past_the_cores_bounds_is_refused_and_leaves_every_document_to_the_engine() -> None:
    from shared.rules.diplomacy import _core  # type: ignore[attr-defined, unused-ignore]

    document = movement_documents(1, 54_000)[0]
    tables = list(c_core.map_tables(GAME_MAP))
    tables[0] = tables[1] = [f"P{number:03d}" for number in range(200)]  # more provinces than it holds
    try:
        with pytest.raises(ValueError, match="the C core cannot take this map"):
            _core.setup(*tables)
        assert _core.movement_document(json.loads(json.dumps(document))) is None
        assert contract_outcome(document) == engine_outcome(document)
    finally:
        _core.setup(*c_core.map_tables(GAME_MAP))
    assert _core.movement_document(json.loads(json.dumps(document))) == engine_outcome(document)


@with_core
def test_a_core_older_than_its_sources_is_not_used_and_says_so(tmp_path: Path) -> None:
    """A checkout whose C sources were edited after ``pip install -e .``: the old core would run
    old code, so the engine takes every document (a copy of the package, one source touched)."""
    root = Path(__file__).resolve().parents[3]
    copy = tmp_path / "checkout"
    shutil.copytree(root / "shared", copy / "shared", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(root / "pyproject.toml", copy / "pyproject.toml")
    package = copy / "shared" / "rules" / "diplomacy"
    touched = package / "core_src" / "resolve.c"
    built = next(package.glob("_core.*")).stat().st_mtime
    os.utime(touched, (built + 60, built + 60))  # edited a minute after the build
    script = "import shared.rules.diplomacy.c_core as c; print(c.MOVEMENT_DOCUMENT)"
    # -S: no site packages, so no editable-install finder sends "shared" back to the real checkout
    env = {k: v for k, v in os.environ.items() if k not in (C_CORE_SWITCH, "PYTHONPATH", "ENTENTE_PURE_PYTHON")}
    done = subprocess.run([sys.executable, "-S", "-W", "default", "-c", script], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "None"
    assert "C core is out of date (older than resolve.c)" in done.stderr and "pip install -e ." in done.stderr
    os.utime(touched, (built - 60, built - 60))  # as built: the same copy uses the core again
    done = subprocess.run([sys.executable, "-S", "-c", script], cwd=copy, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip() == "<built-in function movement_document>", done.stderr


@with_core
def test_a_crowd_moving_into_one_province_comes_out_as_the_engine_writes_it() -> None:
    """Far more units than any province has neighbours, all moving into one province (the
    armies by convoy routes the fleets in every sea make possible): a document built to run past
    any small bound the core might keep, written as the engine writes it."""
    assert CORE is not None
    seas = sorted(p for p in GAME_MAP.provinces if GAME_MAP.is_sea(p))
    coasts = sorted(p for p in GAME_MAP.provinces if GAME_MAP.is_coastal(p) and p != "BEL")

    def crowd(armies: list[str]) -> dict[str, Any]:
        return {"variant": "standard", "phase": "F1905M", "centers": {},
                "units": {"ENGLAND": [f"F {sea}" for sea in seas], "FRANCE": [f"A {p}" for p in armies]},
                "orders": {"FRANCE": [f"A {p} - BEL" for p in armies]}}

    # the armies some chain of fleets can bring to BEL (not those of the Black Sea or the Baltic)
    first = engine_outcome(crowd(coasts))["orders"]["FRANCE"]
    document = crowd([p for p, item in zip(coasts, first, strict=True) if item["result"] != "void"])
    assert len(document["orders"]["FRANCE"]) > 30
    out = CORE(json.loads(json.dumps(document)))
    assert out is not None
    assert orjson.dumps(out) == orjson.dumps(engine_outcome(document))
    assert {item["result"] for item in out["orders"]["FRANCE"]} == {"fails"}  # every move meets the others
