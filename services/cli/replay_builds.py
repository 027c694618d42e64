"""``entente replay --every-build``: the stored phases re-adjudicated by each build of the engine.

A process runs one build of the rules engine, chosen as it starts (docs/operations.md, "Which
engine runs"), so each build replays in a process of its own: ``entente replay`` again, with the
same game (or ``--all``) and database, under the switches that select the build (none for the C
core, ``ENTENTE_NO_C_CORE=1`` for the compiled engine alone, ``ENTENTE_PURE_PYTHON=1`` for the
Python sources). Each compares every phase with what is stored, so builds that all match the
store match one another. A build the install does not have (no C compiler at install time)
is named and left out; any build that differs ends the command with its exit code.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

BUILD_SWITCHES: dict[str, dict[str, str]] = {
    "compiled-c-core": {},
    "compiled": {"ENTENTE_NO_C_CORE": "1"},
    "pure": {"ENTENTE_PURE_PYTHON": "1"},
}
"""Each build, fastest first, and the environment that makes a new process run it."""

BUILD_LINE = "engine build: "  # the first line of a replay given --print-build (ops.py)
TIMEOUT = 3600.0  # seconds for one build's replay (a large database's, pure Python)


def build_named(phases: int | None = None) -> str:
    """The engine's build in this process, why not a faster one, and how many of ``phases`` the
    C core resolved (docs/operations.md, "Which engine runs")."""
    from shared.rules.variants import engine_build, phases_by_c_core

    build, why_not_faster = engine_build()
    named = f"{build} build" + (f" ({why_not_faster})" if why_not_faster else "")
    if phases is not None and build == "compiled-c-core":
        named += f", the C core resolving {phases_by_c_core()} of the {phases}"
    return named


def replay_every_build(args: argparse.Namespace) -> int:
    """Run ``entente replay`` once per build; print each build's answer; 0 when every build the
    install has matches what is stored, else the first failing exit code."""
    target = ["--all"] if args.all else [args.game_id]
    ran: list[str] = []
    failed = 0
    for build, switches in BUILD_SWITCHES.items():
        environment = {k: v for k, v in os.environ.items() if k not in ("ENTENTE_NO_C_CORE", "ENTENTE_PURE_PYTHON")}
        environment.update(switches)
        done = subprocess.run([sys.executable, "-m", "services.cli", "replay", *target, "--print-build",
                               "--database", args.database],
                              capture_output=True, text=True, env=environment, stdin=subprocess.DEVNULL,
                              timeout=TIMEOUT, check=False)
        lines = done.stdout.splitlines()
        running = lines[0].removeprefix(BUILD_LINE) if lines and lines[0].startswith(BUILD_LINE) else "?"
        if running.split(" ")[0] != build:
            print(f"{build}: not in this install (a process asking for it runs {running})")
            continue
        ran.append(build)
        answer = "\n".join(lines[1:] + [line for line in done.stderr.splitlines() if not line.startswith("replay: ")])
        print(f"{build}: {answer.strip()}", flush=True)
        if done.returncode != 0 and not failed:
            failed = done.returncode
    if failed:
        return failed
    if not ran:
        print("entente replay: no build of the engine could be run", file=sys.stderr)
        return 1
    print(f"every build matches the stored events ({len(ran)} of {len(BUILD_SWITCHES)}: {', '.join(ran)})")
    return 0
