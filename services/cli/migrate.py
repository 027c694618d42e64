"""``entente migrate``: take the database's schema to this release's revision with Alembic
(shared/store/migrate.py, docs/operations.md "Upgrading").

    entente migrate [--database URL]            upgrade to this release's schema
    entente migrate --check [--database URL]    exit 0 if it is current, 1 if not (nothing changed)
    entente migrate --to REVISION               upgrade or downgrade to that revision
    entente migrate --sql                       print the SQL of an upgrade, run nothing
"""
from __future__ import annotations

import argparse
import asyncio
import sys

from shared.settings import Settings

from .common import DATABASE_HELP, EXIT_FAILED, EXIT_OK, EXIT_USAGE, command_parser

EXAMPLES = """\
entente migrate --database postgresql://entente@db/entente
entente migrate --check && entente serve
entente migrate --to 0001      # before going back to a release at revision 0001
entente migrate --sql > upgrade.sql"""


def _parser(command: str) -> argparse.ArgumentParser:
    parser = command_parser(command, "Upgrade the database schema to this release's revision, or check whether "
                                     "it is there. Stop the services first on SQLite.", EXAMPLES)
    parser.add_argument("--database", help=DATABASE_HELP)
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true",
                      help="say whether the schema is this release's: exit 0 if so, 1 if not; change nothing")
    what.add_argument("--to", metavar="REVISION", default="head",
                      help="the revision to go to (default: head, this release's); an older one downgrades")
    what.add_argument("--sql", action="store_true",
                      help="print the SQL that upgrading an empty database to --to runs, and run nothing")
    return parser


def run(command: str, argv: list[str]) -> int:
    from shared.store import SchemaError
    from shared.store.migrate import migrate, status, upgrade_sql

    args = _parser(command).parse_args(argv)
    url = args.database or Settings().database_url
    try:
        if args.sql:
            upgrade_sql(url, args.to)
            return EXIT_OK
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
