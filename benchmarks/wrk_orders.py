"""Order resubmissions under wrk: a script that prints figures, not a test.

    python benchmarks/wrk_orders.py [--games 10] [--seconds 20] [--connections 32 8]
                                    [--threads 2] [--workers 2] [--sqlite] [--limits] [--rate R]

The second load client the speed aims name beside ``benchmarks/api.py`` (wrk, Debian's
package ``wrk``: ``apt-get install -y wrk``). Starts ``entente serve --workers N`` on a fresh
PostgreSQL database (as api.py does: ENTENTE_BENCH_POSTGRES_URL, else ENTENTE_TEST_POSTGRES_URL,
else postgresql://postgres@127.0.0.1:5432/test) or, with ``--sqlite``, on a fresh SQLite file;
seats ``--games`` seven-player games and starts them; then for each of six powers of each game
(one power never submits, so no phase resolves early: 60 seats for 10 games) takes its legal
orders from ``GET /possible-orders`` and writes a wrk Lua script whose connections send those
seats' ``PUT /games/{id}/orders`` in turn, each with its own bearer token. wrk runs once per
``--connections`` figure for ``--seconds``; printed: requests a second, the latency
percentiles wrk measures, how many answers were not 2xx (which must be none), and the CPU
time a request cost the server's worker processes and PostgreSQL's (its processes serving the
database, read from /proc: a figure that moves less than the rate when the machine is busy). The server
is stopped and the database dropped at the end, whatever happens.

By default the load comes from one address the server exempts from its limits (api.py's
``LOAD_FROM_ONE_ADDRESS``). With ``--limits`` every rate limit is on at its default and the
server trusts this machine as its proxy (``ENTENTE_TRUSTED_PROXIES``): each game is set up from
an address of its own and each seat writes from another, named in ``X-Forwarded-For`` as
deploy/nginx.conf names a client, so that every seat meets the per-address and per-token limits
a real player behind the proxy meets (docs/operations.md, "Rate limits"); a 429 counts as not
2xx.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.api import SERVER_PIDS, Pool, Timings, pick_orders, running_server, seated_game  # noqa: E402
from benchmarks.scratch import (  # noqa: E402
    cpu_seconds,
    database_pids,
    fresh_database,
    server_url,
    sqlite_database,
)
from tests.utils.processes import worker_pids  # noqa: E402

LUA = """\
local seats = %(seats)s
local counter = 0
local threads = {}
function setup(thread)
  thread:set("offset", counter)
  counter = counter + 17
  table.insert(threads, thread)
end
function init(args)
  turn = offset
  late = 0
end
-- --rate: each thread sends its share of the requests on a fixed schedule, one every
-- `interval` ms (wrk2's pacing): a request whose time slot has passed goes at once and is
-- counted late
local interval = %(interval)s
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } entente_timespec;
int clock_gettime(int clock, entente_timespec *now);
]]
local now = ffi.new("entente_timespec")
local function milliseconds()
  ffi.C.clock_gettime(1, now)
  return tonumber(now.tv_sec) * 1000 + tonumber(now.tv_nsec) / 1e6
end
function delay()
  if interval == 0 then
    return 0
  end
  local at = milliseconds()
  slot = (slot or at) + interval
  if slot < at then
    late = late + 1
    slot = at
    return 0
  end
  return slot - at
end
function done(summary, latency, requests)
  local behind = 0
  for _, thread in ipairs(threads) do
    behind = behind + (thread:get("late") or 0)
  end
  io.write(string.format("late: %%d\\n", behind))
end
function request()
  turn = turn + 1
  local seat = seats[(turn %% #seats) + 1]
  local headers = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. seat.token}
  if seat.address then
    headers["X-Forwarded-For"] = seat.address
  end
  return wrk.format("PUT", seat.path, headers, seat.body)
end
"""


def lua_string(text: str) -> str:
    """A Lua string literal (long brackets cannot hold every text; escapes can)."""
    return '"' + "".join(c if c.isalnum() or c in " -_/.:,{}[]'" else f"\\{ord(c)}" for c in text) + '"'


def lua_seats(seats: list[dict[str, str]]) -> str:
    entries = ",\n  ".join(f"{{path = {lua_string(seat['path'])}, token = {lua_string(seat['token'])}, "
                            f"body = {lua_string(seat['body'])}"
                            + (f", address = {lua_string(seat['address'])}" if "address" in seat else "") + "}"
                            for seat in seats)
    return "{\n  " + entries + "\n}"


def address(kind: int, number: int) -> str:
    """A client's own address (10.0.0.0/8; ``kind`` 0 for a game's setup, 1 for a seat)."""
    return f"10.{kind * 100 + number // 250}.{number % 250}.{1 + kind}"


async def seats_of(base: str, games: int, rng: random.Random, addresses: bool = False) -> list[dict[str, str]]:
    """Six seats of each started game, each with its PUT: path, token and JSON body; with
    ``addresses``, each game set up from an address of its own and each seat writing from
    another (``address``), as a trusted proxy names them (every limit on). The games are set up
    side by side, on eight connections."""
    pool = Pool(base, 8, Timings())

    async def seats_of_game(number: int) -> list[dict[str, str]]:
        table = await seated_game(pool, f"wrk {number}", address(0, number) if addresses else None)
        summary = await pool.call("summary", "GET", f"/games/{table.game_id}")
        found: list[dict[str, str]] = []
        for power in summary["must_act"][1:]:
            token = table.tokens_by_power[power]
            possible = await pool.call("possible", "GET", f"/games/{table.game_id}/possible-orders", token=token)
            body = json.dumps({"orders": pick_orders(possible, rng), "phase": summary["phase"]})
            seat = {"path": f"/games/{table.game_id}/orders", "token": token, "body": body}
            if addresses:
                seat["address"] = address(1, number * 7 + len(found))
            found.append(seat)
        return found

    try:
        return [seat for found in await asyncio.gather(*(seats_of_game(n) for n in range(games))) for seat in found]
    finally:
        pool.close()


def per_request(pids: list[int], before: dict[int, float], count: int) -> float:
    """Microseconds of CPU these processes spent a request since ``before`` (0 for a process
    that started since)."""
    return sum(cpu_seconds([pid]) - before.get(pid, 0.0) for pid in pids) / count * 1e6


LATENCY_LINE = re.compile(r"^\s+(50|75|90|99)%\s+(\S+)", re.MULTILINE)


def requests_of(output: str) -> int:
    found = re.search(r"(\d+) requests in", output)
    return int(found.group(1)) if found else 0


def summary_of(output: str) -> str:
    rate = re.search(r"Requests/sec:\s+(\S+)", output)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(r"Socket errors: (.*)", output)
    latencies = ", ".join(f"p{p} {value}" for p, value in LATENCY_LINE.findall(output))
    late = re.search(r"^late: (\d+)", output, re.MULTILINE)
    return (f"{float(rate.group(1)) if rate else float('nan'):.0f} requests a second; {latencies}; "
            f"not 2xx: {errors.group(1) if errors else 0}"
            + (f"; socket errors: {socket_errors.group(1)}" if socket_errors else "")
            + (f"; sent behind their schedule: {late.group(1)}" if late and late.group(1) != "0" else ""))


async def benchmark(args: argparse.Namespace) -> int:
    wrk = shutil.which("wrk")
    if wrk is None:
        print("wrk is not installed (Debian: apt-get install -y wrk)", file=sys.stderr)
        return 2
    scratch = sqlite_database() if args.sqlite else fresh_database(args.server_url)
    async with scratch as url, running_server(url, 1 if args.sqlite else args.workers, False, args.limits) as base:
        seats = await seats_of(base, args.games, random.Random(args.seed), args.limits)
        with tempfile.TemporaryDirectory() as folder:
            script = Path(folder) / "orders.lua"
            interval = 1000 * args.threads / args.rate if args.rate else 0
            script.write_text(LUA.replace("%(seats)s", lua_seats(seats)).replace("%(interval)s", f"{interval:.4f}")
                              .replace("%%", "%"))
            print(f"entente serve on {'SQLite' if args.sqlite else 'PostgreSQL'} "
                  f"({1 if args.sqlite else args.workers} worker processes"
                  f"{', every rate limit on, a client address a seat' if args.limits else ''}); "
                  f"{len(seats)} seats of {args.games} games "
                  f"resubmitting; wrk {args.threads} threads, {args.seconds} s each"
                  + (f", paced at {args.rate:g} requests a second in all" if args.rate else ""), flush=True)
            for connections in args.connections:
                command = [wrk, "-t", str(args.threads), "-c", str(connections), "-d", f"{args.seconds}s",
                           "--latency", "-s", str(script), base]
                workers = worker_pids(SERVER_PIDS[-1]) or [SERVER_PIDS[-1]]  # one process: the server itself
                database = [] if args.sqlite else await database_pids(url)
                before = {pid: cpu_seconds([pid]) for pid in workers + database}
                run = subprocess.run(command, capture_output=True, text=True, check=False)
                if run.returncode != 0:
                    print(run.stdout, run.stderr, file=sys.stderr)
                    return 1
                if not args.sqlite:  # and the connections the pools opened meanwhile, counted whole
                    database = sorted(set(database) | set(await database_pids(url)))
                count = max(requests_of(run.stdout), 1)
                cpu = f"; CPU a request: the server's {per_request(workers, before, count):.0f} us"
                if database:
                    cpu += f", PostgreSQL's {per_request(database, before, count):.0f} us"
                print(f"  {connections} connections: {summary_of(run.stdout)}{cpu}", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, nargs="+", default=[32, 8])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sqlite", action="store_true", help="the embedded default instead of PostgreSQL")
    parser.add_argument("--limits", action="store_true",
                        help="every rate limit on at its default, each seat writing from an address of its own "
                             "behind a trusted proxy (X-Forwarded-For), each game set up from another")
    parser.add_argument("--rate", type=float, default=0,
                        help="pace the requests at this many a second in all (each thread its share on a fixed "
                             "schedule, as wrk2 does) rather than as fast as they are answered")
    parser.add_argument("--server-url", default=server_url())
    return asyncio.run(benchmark(parser.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
