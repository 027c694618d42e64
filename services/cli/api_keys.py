"""``entente api-key``: an operator issues, lists and revokes accounts' API keys, on a server
with or without sign-in (docs/operations.md, "API keys for bots"; docs/bots.md).

    entente api-key create --account NAME [--label TEXT] [--database URL]
    entente api-key list --account NAME [--database URL]
    entente api-key revoke --account NAME KEY_ID [--database URL]

``--account`` is an account id (``a_…``, an account that signed in) or a name: the operator's
account of that name, made by the first ``create`` (services/accounts/service.py,
``ensure_operator_account``). ``create`` prints one JSON object with the key, shown this once
(the store keeps its hash only); ``list`` one JSON object with the live keys' ids and labels.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import TYPE_CHECKING

from .common import OpsError

if TYPE_CHECKING:
    from shared.events import EventMetadata

DEFAULT_DATABASE_URL = "sqlite:///./entente.db"
EXAMPLES = """\
entente api-key create --account my-bot --label "tournament bot" --database postgresql://entente@db/entente
entente api-key list --account my-bot
entente api-key revoke --account my-bot ak_3fa2c1d4e5f6
entente api-key create --account a_0123456789abcdef      a key for an account that signed in"""
DESCRIPTION = ("Issue, list or revoke an account's API keys (a bot plays the account's seats in every game with "
               "one). --account names an account id (a_...) or a name: the operator's account of that name, made "
               "by the first create. The key is printed once; the store keeps only its hash.")
OPERATOR_METADATA: EventMetadata = {"actor": "operator", "via": "entente api-key"}


def _parser() -> argparse.ArgumentParser:
    from .common import DATABASE_HELP, command_parser

    parser = command_parser("api-key", DESCRIPTION, EXAMPLES)
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    for action, summary in (("create", "issue a new key and print it (once)"),
                            ("list", "list the account's live keys (ids and labels)"),
                            ("revoke", "revoke one key: it stops working at once")):
        sub = actions.add_parser(action, help=summary, description=summary)
        sub.add_argument("--account", required=True,
                         help="an account id (a_...) or the name of an operator's account")
        if action == "create":
            sub.add_argument("--label", default="", help="a label to tell the key apart (at most 60 characters)")
        if action == "revoke":
            sub.add_argument("key_id", help="the key's id (ak_...), as create and list print it")
        sub.add_argument("--database", help=DATABASE_HELP)
    return parser


def run(command: str, argv: list[str]) -> int:
    """Entry point (see services.cli.COMMANDS)."""
    from shared.errors import DomainError
    from shared.store import SchemaError

    from .common import EXIT_FAILED, EXIT_SCHEMA, EXIT_USAGE

    try:
        args = _parser().parse_args(argv)
    except SystemExit as stop:  # argparse has printed the usage and the problem
        return int(stop.code or 0)
    if len(args.account.strip()) == 0 or len(args.account) > 100:
        print("entente api-key: --account must be 1 to 100 characters", file=sys.stderr)
        return EXIT_USAGE
    if len(getattr(args, "label", "")) > 60:
        print("entente api-key: --label must be at most 60 characters", file=sys.stderr)
        return EXIT_USAGE
    args.database = args.database or os.environ.get("ENTENTE_DATABASE_URL") or DEFAULT_DATABASE_URL
    try:
        answer = asyncio.run(_act(args))
    except (OpsError, DomainError) as error:
        print(f"entente api-key {args.action}: {error}", file=sys.stderr)
        return EXIT_FAILED
    except SchemaError as error:
        print(f"entente api-key: {error}", file=sys.stderr)
        return EXIT_SCHEMA
    if answer is not None:
        print(json.dumps(answer))
    return 0


async def _act(args: argparse.Namespace) -> dict[str, object] | None:
    from services.accounts import service
    from shared.credentials import load_account

    from .ops import _open

    store = await _open(args.database, must_exist=args.action != "create")
    try:
        if args.action == "create":
            if args.account.startswith("a_"):
                account = await load_account(store, args.account)
                if account is None:
                    raise OpsError(f"no account {args.account!r} in this store (a name without a_ makes one)")
            else:
                account = await service.ensure_operator_account(store, args.account, OPERATOR_METADATA)
            issued, key = await service.issue_api_key(store, account.account_id, args.label, OPERATOR_METADATA)
            return {"account_id": account.account_id, "key_id": issued.key_id, "label": issued.label, "key": key}
        account_id = (args.account if args.account.startswith("a_")
                      else service.account_id_for(service.OPERATOR_PROVIDER, args.account))
        found = await load_account(store, account_id)
        if found is None:
            raise OpsError(f"no account {args.account!r} in this store")
        if args.action == "list":
            return {"account_id": found.account_id,
                    "api_keys": [{"key_id": k.key_id, "label": k.label} for k in found.keys.values()]}
        await service.revoke_api_key(store, found.account_id, args.key_id, OPERATOR_METADATA)
        return None
    finally:
        await store.close()
