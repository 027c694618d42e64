"""What the ``entente`` commands share: their parsers' shape (a description, then examples and
the exit codes under ``--help``), the exit codes themselves (docs/operations.md, "Exit codes"),
and the schema check that the long-running commands make before they start."""
from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")

# exit codes of every command (docs/operations.md)
EXIT_OK = 0
EXIT_FAILED = 1  # the command ran and failed: a replay differs, an import is refused, a probe failed
EXIT_USAGE = 2  # bad arguments or settings; nothing was done
EXIT_SCHEMA = 3  # the database's schema is not this release's: `entente migrate` (or a newer release)
EXIT_OLDER_ENGINE = 4  # replay: a game played with an older engine whose rules have changed since

EXIT_CODES = ("exit codes: 0 done, 1 failed, 2 bad arguments or settings, "
              "3 the database needs `entente migrate`, 4 a replay met rules changed since the game was "
              "played (docs/operations.md)")
DATABASE_HELP = "store URL (ENTENTE_DATABASE_URL, default sqlite:///./entente.db)"


class OpsError(Exception):
    """A failure of an operator's command (ops.py, mila.py, mila_import.py) to report in one
    line (exit status 1)."""


def command_parser(command: str, description: str, examples: str) -> argparse.ArgumentParser:
    """A sub-command's parser whose ``--help`` ends with its examples and the exit codes."""
    lines = "\n".join(f"  {line}" if line else "" for line in examples.strip("\n").splitlines())
    return argparse.ArgumentParser(prog=f"entente {command}", description=textwrap.fill(description, 88),
                                   epilog=f"examples:\n{lines}\n\n{EXIT_CODES}",
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


async def check_schema(command: str, database_url: str) -> int | None:
    """Open the store once before serving: a fresh database is created at this release's
    schema, an older one is refused with the command to run. None when all is well, else
    the exit code (the message printed)."""
    from shared.store import SchemaError, open_store

    try:
        store = await open_store(database_url)
    except SchemaError as error:
        print(f"entente {command}: {error}", file=sys.stderr, flush=True)
        return EXIT_SCHEMA
    await store.close()
    return None


def progress(items: Sequence[T], command: str, unit: str) -> Iterable[T]:
    """``items``, with a progress bar on stderr while it is a terminal (none when piped or
    redirected, so that logs and scripts see only the commands' own lines)."""
    if not sys.stderr.isatty():
        return items
    from tqdm import tqdm

    bar: Iterable[T] = tqdm(items, desc=f"entente {command}", unit=unit, file=sys.stderr, leave=False,
                            dynamic_ncols=True)  # tqdm has no annotations: an iterable of the items
    return bar
