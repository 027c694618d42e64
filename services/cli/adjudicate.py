"""``entente adjudicate``: JSON documents in on stdin, their outcomes out on stdout.

Either one JSON document (it may span several lines) and one result, or JSON Lines: one
document a line in, one result a line out, in order, written as each line is read, so
thousands of phases go through one call. Blank lines are skipped. The document format is
shared/rules/diplomacy/document.py's (the ``entente adjudicate`` contract).

The document's ``"variant"`` picks the rules (shared/rules/variants): ``"standard"``
(the default), ``"dirigible"``, ``"ekonia"``. Bad JSON, a bad document or an unknown variant
stops the run: a message naming the line on stderr, exit code 2 (the results already printed
stand).
"""
from __future__ import annotations

from typing import IO, Any

from services.cli.documents import run_per_document, variant_of

USAGE = """usage: entente adjudicate < phase.json
       entente adjudicate < phases.jsonl

Reads one JSON document, or one document per line (JSON Lines), from stdin and prints the
adjudicated outcome of each: {"phase", "orders", "units", "dislodged", "centers", "next_phase"}
(with the edition and victory_centres given; the rules' forced removals follow each power's
orders). An outcome with "phase" set to its "next_phase" and new "orders" is the next document,
in every variant. Exit code 2 on bad JSON or a bad document, with the line on stderr.

example:
  echo '{"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]},
         "centers": {"FRANCE": ["PAR"]}, "orders": {"FRANCE": ["A PAR - BUR"]}}' | entente adjudicate"""


def adjudicate_any(document: Any) -> dict[str, Any]:
    """The document adjudicated by the variant it names."""
    return variant_of(document).adjudicate_document(document)


def run(command: str, argv: list[str], stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    return run_per_document(command, argv, USAGE, adjudicate_any, stdin, stdout)
