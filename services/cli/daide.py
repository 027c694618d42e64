"""``entente daide``: the DAIDE server (services/daide, docs/bots.md) as a process of its own.

A DAIDE seat gives its orders, ready flags, draw votes and press through the game core's
intake, the one way in for every order (shared/game/intake.py), exactly as one over HTTP does;
the composition root hands the server the rest (the lobby's seats and ports: ``build_desk``).
SIGTERM or SIGINT: every client is sent OFF, then
the process exits 0. ``--health-port`` answers ``/healthz`` and ``/livez`` (docs/deploy.md).
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from shared.logs import configure as configure_logs
from shared.settings import Settings

from .common import DATABASE_HELP, check_schema, command_parser
from .health import add_health_options, run_until_signalled

if TYPE_CHECKING:
    from services.daide.desk import Desk

DEFAULT_PORT = 16713  # DAIDE servers' customary port
EXAMPLES = """\
entente daide --database postgresql://entente@db/entente --port 16713 --health-port 8009
entente daide --game-ports 16714-16813  # a port of its own for each game open to DAIDE bots (daide_open)
entente daide --max-per-address 4      # at most 4 connections from one address at once"""


def _port_range(text: str) -> tuple[int, int]:
    from services.daide.ports import parse_range

    try:
        return parse_range(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _parser(command: str) -> argparse.ArgumentParser:
    parser = command_parser(command, "Serve DAIDE bots: one TCP port for every hosted standard game, the game and "
                                     "seat named in NME (docs/bots.md).", EXAMPLES)
    parser.add_argument("--database", help=DATABASE_HELP)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    parser.add_argument("--game-ports", type=_port_range, default=None, metavar="LOW-HIGH",
                        help="ports for the games open to unmodified DAIDE bots (daide_open), one each "
                             "(default: none; docs/bots.md, \"A port per game\")")
    parser.add_argument("--poll", type=float, default=1.0,
                        help="seconds between looks at a followed game while a client awaits a time mark (TME), and "
                             "at the games opened to DAIDE bots (default 1; the log itself is followed by one "
                             "tailer: docs/bots.md, \"Following the game\")")
    parser.add_argument("--max-per-address", type=int, default=16,
                        help="connections from one address at once (default 16)")
    parser.add_argument("--max-connections", type=int, default=1000, help="connections in all (default 1000)")
    parser.add_argument("--im-seconds", type=float, default=30.0,
                        help="seconds a client has to send its IM (default 30, DAIDE's)")
    parser.add_argument("--join-seconds", type=float, default=60.0,
                        help="seconds after the IM to join a game with NME, IAM or OBS (default 60)")
    parser.add_argument("--rate", type=float, default=20.0, help="messages a second a client may send (default 20)")
    parser.add_argument("--burst", type=int, default=200, help="messages a client may send at once (default 200)")
    add_health_options(parser)
    return parser


def build_desk() -> Desk:
    """What the DAIDE server is handed of the other services (the lobby's seats and ports) and
    the clock; orders, ready flags, early resolution, draw votes and press it gives the game
    core's intake itself (shared/game/intake.py), as the HTTP API does."""
    from services.daide.desk import Desk
    from services.lobby.service import join_game, open_daide_port
    from shared.clock import SYSTEM_CLOCK

    return Desk(now=SYSTEM_CLOCK.now, join_seat=join_game, open_port=open_daide_port)


async def _serve(command: str, settings: Settings, args: argparse.Namespace) -> int:
    from services.daide.ports import GamePorts
    from services.daide.server import DaideServer, Limits
    from services.daide.watch import Hub
    from shared.store import open_store

    from .health import worker_metrics

    if (refused := await check_schema(command, settings.database_url)) is not None:
        return refused
    store = await open_store(settings.database_url)
    desk = build_desk()
    limits = Limits(per_address=args.max_per_address, max_connections=args.max_connections,
                    im_seconds=args.im_seconds, join_seconds=args.join_seconds, rate=args.rate, burst=args.burst)

    async def work(stop: asyncio.Event, beat: Callable[[bool], None]) -> None:
        hub = Hub(store, desk, poll=args.poll)
        server = DaideServer(hub, limits)
        port = await server.start(args.host, args.port)
        ports = GamePorts(server, args.host, *args.game_ports) if args.game_ports else None
        if ports is not None:
            await ports.start()
        print(f"entente {command}: DAIDE on {args.host}:{port}", file=sys.stderr, flush=True)
        try:
            while not stop.is_set():
                try:
                    await store.events.head()  # the database answers: ready
                    beat(True)
                except Exception:
                    beat(False)
                if ports is not None:
                    try:
                        await ports.follow()  # games opened to DAIDE bots, games ended
                    except Exception:
                        logging.getLogger("entente.daide").exception("following the game ports failed; trying again")
                try:
                    await asyncio.wait_for(stop.wait(), args.poll)
                except TimeoutError:
                    pass
        finally:
            await server.stop()
            if ports is not None:
                await ports.stop()

    try:
        return await run_until_signalled(command, args, work, worker_metrics(settings, store))
    finally:
        await store.close()


def run(command: str, argv: list[str]) -> int:
    args = _parser(command).parse_args(argv)
    overrides = {"database_url": args.database} if args.database else {}
    settings = Settings(**overrides)
    configure_logs()
    return asyncio.run(_serve(command, settings, args))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(run("daide", sys.argv[1:]))
