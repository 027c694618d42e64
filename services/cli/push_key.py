"""``entente push-key``: makes the server's Web Push (VAPID) key pair (docs/social.md, "Web Push").

Prints the private key for ENTENTE_VAPID_PRIVATE_KEY and the public key browsers will
subscribe with (``GET /push/key`` gives the same); nothing is stored."""
from __future__ import annotations

import json

from .common import command_parser

EXAMPLES = """
entente push-key                 a new key pair, as JSON
entente push-key --env           the line to put into the server's environment"""


def run(command: str, argv: list[str]) -> int:
    """Entry point (see services.cli.COMMANDS)."""
    from services.notifications.webpush import VapidKey

    parser = command_parser(command, "Make a Web Push (VAPID) key pair for ENTENTE_VAPID_PRIVATE_KEY.", EXAMPLES)
    parser.add_argument("--env", action="store_true", help="print ENTENTE_VAPID_PRIVATE_KEY=… only")
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse has printed the usage or the help
        return int(stop.code or 0)
    private = VapidKey.generate()
    if args.env:
        print(f"ENTENTE_VAPID_PRIVATE_KEY={private}")
    else:
        print(json.dumps({"private_key": private, "public_key": VapidKey(private).public}))
    return 0
