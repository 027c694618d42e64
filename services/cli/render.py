"""``entente render``: draw an ``entente adjudicate`` document as SVG (or PNG).

    entente render < phase.json > board.svg
    entente render --png < outcome.json > board.png

One document on stdin, before or after adjudication (services/visibility/maps/documents.py
says how each is drawn); ``--variant`` names the variant of an output document, which does
not say (the input's ``"variant"``, else ``standard``). Bad JSON, a bad document or an
unknown variant: a message on stderr, exit code 2.
"""
from __future__ import annotations

import sys
from typing import IO, Any

from services.cli.common import command_parser
from services.cli.documents import InputError, read_documents

USAGE = "entente render [--png] [--variant NAME] < document.json > board.svg"
EXAMPLES = """
entente render < phase.json > board.svg
entente adjudicate < phase.json | entente render --png > outcome.png
entente render --variant dirigible < dirigible-outcome.json > board.svg
"""


def run(command: str, argv: list[str], stdin: IO[str] | None = None, stdout: IO[Any] | None = None) -> int:
    """``stdout``, when given, takes bytes with --png and text otherwise."""
    parser = command_parser(command, "Draw an entente adjudicate document (before or after adjudication) "
                                     "as an SVG board, or a PNG with --png (docs/maps.md).", EXAMPLES)
    parser.usage = USAGE
    parser.add_argument("--png", action="store_true", help="write a PNG instead of SVG")
    parser.add_argument("--variant", help="the variant of a document that does not name one")
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    stdin = sys.stdin if stdin is None else stdin
    try:
        documents = list(read_documents(stdin))
        if len(documents) != 1:
            raise InputError(documents[1][0] if documents else 1,
                             "expected exactly one document" if documents else "no document on stdin")
        line, document = documents[0]
        from services.visibility.maps.documents import document_layers

        try:
            layers = document_layers(document, args.variant)
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(line, str(exc)) from exc
    except InputError as exc:
        print(f"entente {command}: {exc}", file=sys.stderr)
        return 2
    out: IO[Any]
    if args.png:
        from services.visibility.maps.png import PngUnavailable, layers_to_png

        try:
            data = layers_to_png(layers)
        except PngUnavailable as exc:
            print(f"entente {command}: {exc.message}", file=sys.stderr)
            return 1
        out = stdout if stdout is not None else sys.stdout.buffer
        out.write(data)
    else:
        out = stdout if stdout is not None else sys.stdout
        out.write(layers.document())
    out.flush()
    return 0
