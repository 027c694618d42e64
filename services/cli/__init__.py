"""The ``entente`` command: one entry point, each sub-command in its own module."""
from __future__ import annotations

import importlib
import importlib.metadata
import sys

from services.cli.common import EXIT_CODES
from shared.rules.variants import engine_build

# sub-command -> (module that defines ``run(command: str, argv: list[str]) -> int``, what it does)
COMMANDS = {
    "serve": ("services.cli.serve", "run the HTTP services: every one in one process, or one alone"),
    "worker": ("services.cli.worker", "run the clock worker: resolve phases whose deadline has passed"),
    "daide": ("services.cli.daide", "run the DAIDE server: bots play hosted standard games over TCP"),
    "notifier": ("services.cli.notifier", "run the notification worker: plan and deliver the webhooks"),
    "migrate": ("services.cli.migrate", "upgrade the database schema to this release's, or check it"),
    "export": ("services.cli.ops", "write a game's event log (or every game's) as JSON lines"),
    "import": ("services.cli.ops", "load exported game logs into a database"),
    "api-key": ("services.cli.api_keys", "issue, list or revoke an account's API keys (bots; no sign-in needed)"),
    "push-key": ("services.cli.push_key", "make the server's Web Push (VAPID) key pair"),
    "replay": ("services.cli.ops", "re-adjudicate a game (or every game) and compare with what is stored"),
    "health": ("services.cli.health", "probe a health URL, exit 0 when it answers (container health checks)"),
    "adjudicate": ("services.cli.adjudicate", "adjudicate phases given as JSON on standard input"),
    "possible-orders": ("services.cli.possible_orders", "list every legal order of positions given as JSON"),
    "render": ("services.cli.render", "draw an adjudicate document as an SVG or PNG board (docs/maps.md)"),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = [f"  {name.ljust(width)}  {summary}" for name, (_, summary) in COMMANDS.items()]
    return "\n".join([
        "usage: entente COMMAND [options]",
        "",
        "Host online games of Diplomacy: an event-sourced backend (README.md, docs/operations.md).",
        "",
        "commands:",
        *lines,
        "",
        "`entente --version` names the release and the rules engine's build (pure, compiled, compiled-c-core).",
        "`entente COMMAND --help` shows a command's options and examples, for instance:",
        "  entente serve --help",
        "",
        EXIT_CODES,
    ])


def version() -> str:
    """``entente --version``: the release, and which build of the rules engine this process runs
    (docs/operations.md, "Which engine runs")."""
    try:
        release = importlib.metadata.version("entente")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout that was never installed
        release = "(not installed)"
    build, why_not_faster = engine_build()
    return f"entente {release}\nengine: {build}" + (f" ({why_not_faster})" if why_not_faster else "")


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["--version"], ["-V"]):
        print(version())
        return 0
    if not args or args[0] in {"-h", "--help", "help"}:
        print(usage(), file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"entente: unknown command {name!r}; expected one of: {', '.join(COMMANDS)} "
              "(entente --help says what each does)", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    return int(module.run(name, rest) or 0)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
