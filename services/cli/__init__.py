"""The ``entente`` command: one entry point, each sub-command in its own module."""
from __future__ import annotations

import importlib
import sys

# sub-command -> module that defines ``run(command: str, argv: list[str]) -> int``
COMMANDS = {
    "adjudicate": "services.cli.adjudicate",
    "possible-orders": "services.cli.possible_orders",
    "render": "services.cli.render",
    "serve": "services.cli.serve",
    "worker": "services.cli.worker",
    "notifier": "services.cli.notifier",
    "health": "services.cli.health",
    "export": "services.cli.ops",
    "import": "services.cli.ops",
    "replay": "services.cli.ops",
}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in {"-h", "--help", "help"}:
        print("usage: entente {" + ",".join(COMMANDS) + "} [options]")
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"entente: unknown command {name!r}; expected one of: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name])
    return int(module.run(name, rest) or 0)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
