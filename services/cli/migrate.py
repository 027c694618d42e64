"""``entente migrate``: take the database's schema to this release's revision with Alembic
(shared/store/migrate.py, docs/operations.md "Upgrading").

    entente migrate [--database URL]            upgrade to this release's schema
    entente migrate --check [--database URL]    exit 0 if it is current, 1 if not (nothing changed)
    entente migrate --to REVISION               upgrade or downgrade to that revision
    entente migrate --sql                       print the SQL of the database's upgrade, run nothing
    entente migrate --sql --from 0001           the same, without asking the database where it is
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys

from shared.settings import Settings

from .common import DATABASE_HELP, EXIT_FAILED, EXIT_OK, EXIT_USAGE, command_parser

EXAMPLES = """\
entente migrate --database postgresql://entente@db/entente
entente migrate --check && entente serve
entente migrate --to 0001      # before going back to a release at revision 0001
entente migrate --sql > upgrade.sql              # from the database's revision to this release's
entente migrate --sql --from 0001 --to 0003     # for a DBA: no database needed
entente migrate --sql --from empty              # the whole schema"""


def _parser(command: str) -> argparse.ArgumentParser:
    parser = command_parser(command, "Upgrade the database schema to this release's revision, or check whether "
                                     "it is there. Stop the services first on SQLite.", EXAMPLES)
    parser.add_argument("--database", help=DATABASE_HELP)
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true",
                      help="say whether the schema is this release's: exit 0 if so, 1 if not; change nothing")
    what.add_argument("--sql", action="store_true",
                      help="print the SQL that upgrading the database from its revision (or --from) to --to "
                           "runs, only that, and run nothing")
    parser.add_argument("--to", metavar="REVISION", default="head",
                        help="the revision to go to (default: head, this release's); an older one downgrades")
    parser.add_argument("--from", dest="start", metavar="REVISION",
                        help="with --sql: the revision to start from ('empty': none), instead of the database's")
    return parser


def print_sql(url: str, start: str | None, target: str) -> int:
    """``--sql``: the upgrade's SQL on stdout, from ``start`` ('empty') or the database's revision."""
    from shared.store.migrate import start_of, status, upgrade_sql

    if start is None:
        begin = start_of(asyncio.run(status(url)))
    else:
        begin = None if start == "empty" else start
    if not upgrade_sql(url, begin, target):
        print(f"entente migrate: the database is at {begin} already: no SQL to run", file=sys.stderr)
    sys.stdout.flush()
    return EXIT_OK


def _reader_gone() -> int:
    """stdout's reader went away (``| head``): what it read is what it wanted; say nothing
    more (and let nothing be flushed into the closed pipe at exit)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return EXIT_OK


def run(command: str, argv: list[str]) -> int:
    from shared.store import SchemaError
    from shared.store.migrate import migrate, status

    args = _parser(command).parse_args(argv)
    if args.start is not None and not args.sql:
        print(f"entente {command}: --from goes with --sql", file=sys.stderr)
        return EXIT_USAGE
    url = args.database or Settings().database_url
    try:
        if args.sql:
            return print_sql(url, args.start, args.to)
        if args.check:
            found = asyncio.run(status(url))
            print(f"entente {command}: {found.describe()}")
            return EXIT_OK if found.state == "current" else EXIT_FAILED
        before, after = asyncio.run(migrate(url, args.to))
    except ValueError as error:
        print(f"entente {command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except SchemaError as error:
        print(f"entente {command}: {error}", file=sys.stderr)
        return EXIT_FAILED
    except BrokenPipeError:
        return _reader_gone()
    except OSError as error:
        print(f"entente {command}: cannot reach the database: {error}", file=sys.stderr)
        return EXIT_FAILED
    if before.revision == after.revision and before.has_tables:
        print(f"entente {command}: nothing to do; {after.describe()}")
    else:
        print(f"entente {command}: from {before.revision or ('unstamped' if before.has_tables else 'empty')} "
              f"to {after.revision}; {after.describe()}")
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(run("migrate", sys.argv[1:]))
