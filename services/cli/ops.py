"""The operators' commands: ``entente export``, ``entente import`` and ``entente replay``.

    entente export GAME_ID [--database URL] [--format jsonl|mila] [--output FILE] [--with-secrets]
    entente export --all --output DIR [--database URL] [--with-secrets]      one GAME_ID.jsonl per game
    entente import FILE_OR_DIR... [--database URL]
    entente replay GAME_ID [--database URL]
    entente replay --all [--database URL]                   every game; a count and the first that differs
    entente replay GAME_ID|--all --every-build [--database URL]   in each build of the engine (replay_builds.py)

A game's log is its own stream ``game-{id}`` and its order streams ``orders-{id}-{phase}-{POWER}``,
merged in global position order; export and import carry the game's other streams too (press,
seats' account links, bot tokens, webhooks: archive.py). The commands over many games show
their progress on a terminal (on stderr) and nothing of it when stderr is not one. Exit codes
(docs/operations.md): 0 done (replay: everything matches), 1 failed (replay: a phase differs,
the message names it; import: a log was refused), 2 bad arguments, 3 the database's schema
needs ``entente migrate``, 4 a replay of a game played with an older engine whose rules changed.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from shared.store import EventStore, RecordedEvent, open_store

from .common import OpsError
from .replay_builds import BUILD_LINE, build_named, replay_every_build
from .replay_compare import compare_resolutions, first_difference

DEFAULT_DATABASE_URL = "sqlite:///./entente.db"
PROGRESS_EVERY = 10  # phases between two progress lines of a replay
RECORD_FIELDS = ("stream_id", "version", "position", "type", "schema_version", "data", "metadata", "recorded_at")


# ----------------------------------------------------------------------------- the command line


EXAMPLES = {
    "export": """\
entente export g_3fa2c1 > game.jsonl
entente export g_3fa2c1 --format mila --output game.json
entente export --all --output backup/ --database postgresql://entente@db/entente""",
    "import": """\
entente import game.jsonl --database sqlite:///./restored.db
entente import backup/ --database postgresql://entente@db/entente""",
    "replay": """\
entente replay g_3fa2c1
entente replay --all --database postgresql://entente@db/entente
entente replay g_3fa2c1 --every-build""",
}
DESCRIPTIONS = {
    "export": "Write a game's whole event log, as JSON lines or as a MILA saved game; with --all, every "
              "game of the database, one GAME_ID.jsonl file each in a directory.",
    "import": "Load exported game logs (files, or directories of *.jsonl files) into a database that does "
              "not have those games yet.",
    "replay": "Re-adjudicate every resolved phase of a game (or, with --all, of every game) and compare with "
              "the stored results.",
}


def _parser(command: str) -> argparse.ArgumentParser:
    from .common import DATABASE_HELP, command_parser

    parser = command_parser(command, DESCRIPTIONS[command], EXAMPLES[command])
    if command == "export":
        parser.add_argument("game_id", nargs="?", help="the game to export")
        parser.add_argument("--all", action="store_true", help="every game, one file each in the --output directory")
        parser.add_argument("--format", choices=["jsonl", "mila"], default="jsonl")
        parser.add_argument("--output", "-o", help="file to write (default: standard output); with --all, a directory")
        parser.add_argument("--with-secrets", action="store_true",
                            help="keep the token hashes and webhook URLs, so that the imported game's tokens and "
                                 "webhooks work (treat the file as a credential)")
    elif command == "import":
        parser.add_argument("files", nargs="+", metavar="FILE", help="a log written by `entente export`, or a "
                                                                     "directory of them")
        parser.add_argument("--format", choices=["jsonl", "mila"], default="jsonl",
                            help="mila: saved games of MILA's diplomacy package (one JSON object, or JSON Lines), "
                                 "resolved by our engine; prints each game's id and its seats' tokens")
    else:
        parser.add_argument("game_id", nargs="?", help="the game to replay")
        parser.add_argument("--all", action="store_true", help="every game of the database")
        parser.add_argument("--every-build", action="store_true",
                            help="replay in each build of the engine the install has (the C core, the compiled "
                                 "engine, the Python sources), each in a process of its own, and require each to "
                                 "match what is stored")
        parser.add_argument("--print-build", action="store_true", help=argparse.SUPPRESS)  # (replay_builds.py)
    parser.add_argument("--database", help=DATABASE_HELP)
    return parser


def _arguments(command: str, argv: list[str]) -> argparse.Namespace:
    parser = _parser(command)
    args = parser.parse_args(argv)
    if command in ("export", "replay") and (args.game_id is None) == (not args.all):
        parser.error("name one game, or --all")
    if command == "export" and args.all and (not args.output or args.format != "jsonl"):
        parser.error("--all writes JSON lines into the directory given with --output")
    return args


def run(command: str, argv: list[str]) -> int:
    """Entry point of the three commands (see services.cli.COMMANDS)."""
    from shared.store import SchemaError

    from .common import EXIT_FAILED, EXIT_SCHEMA, EXIT_USAGE

    if command not in ("export", "import", "replay"):
        print(f"entente: ops has no command {command!r}", file=sys.stderr)
        return EXIT_USAGE
    try:
        args = _arguments(command, argv)
    except SystemExit as stop:  # argparse has printed the usage and the problem
        return int(stop.code or 0)
    args.database = args.database or os.environ.get("ENTENTE_DATABASE_URL") or DEFAULT_DATABASE_URL
    action = {"export": export_command, "import": import_command, "replay": replay_command}[command]
    try:
        return asyncio.run(action(args))
    except OpsError as error:
        print(f"entente {command}: {error}", file=sys.stderr)
        return EXIT_FAILED
    except SchemaError as error:
        print(f"entente {command}: {error}", file=sys.stderr)
        return EXIT_SCHEMA


async def _open(url: str, *, must_exist: bool) -> EventStore:
    """The store; a command that only reads refuses to create an empty SQLite file."""
    if must_exist and url.startswith("sqlite") and ":memory:" not in url:
        path = url.split(":///", 1)[-1].split("?", 1)[0]
        if path and not Path(path).exists():
            raise OpsError(f"no database at {path}")
    try:
        return await open_store(url)
    except ValueError as error:
        raise OpsError(str(error)) from None
    except OSError as error:
        raise OpsError(f"cannot open the database {url}: {error}") from None


# ----------------------------------------------------------------------------- the game's log


def game_stream_id(game_id: str) -> str:
    return f"game-{game_id}"


async def read_game_log(store: EventStore, game_id: str) -> list[RecordedEvent]:
    """The game's stream and its order streams, in global position order."""
    from shared.game.log import read_log

    log = await read_log(store, game_id, all_orders=True)
    if not log.game:
        raise OpsError(f"no game {game_id!r} in this store")
    return log.records()


def record_to_json(record: RecordedEvent) -> dict[str, Any]:
    return {
        "stream_id": record.stream_id,
        "version": record.version,
        "position": record.position,
        "type": record.type,
        "schema_version": record.schema_version,
        "data": record.data,
        "metadata": record.metadata,
        "recorded_at": record.recorded_at.isoformat(),
    }


def record_from_json(line_number: int, item: Any) -> RecordedEvent:
    def fail(problem: str) -> OpsError:
        return OpsError(f"line {line_number}: {problem}")

    if not isinstance(item, dict):
        raise fail("expected a JSON object")
    missing = [name for name in RECORD_FIELDS if name not in item]
    if missing:
        raise fail(f"missing {', '.join(missing)}")
    for name in ("stream_id", "type"):
        if not isinstance(item[name], str) or not item[name]:
            raise fail(f"{name} must be a non-empty string")
    for name in ("version", "position", "schema_version"):
        if not isinstance(item[name], int) or isinstance(item[name], bool) or item[name] < 1:
            raise fail(f"{name} must be a positive integer")
    for name in ("data", "metadata"):
        if not isinstance(item[name], dict):
            raise fail(f"{name} must be an object")
    try:
        recorded_at = datetime.fromisoformat(item["recorded_at"])
    except (TypeError, ValueError):
        raise fail(f"recorded_at {item['recorded_at']!r} is not an ISO date and time") from None
    return RecordedEvent(item["stream_id"], item["version"], item["position"], item["type"],
                         item["schema_version"], item["data"], item["metadata"], recorded_at)


def read_log_file(lines: Iterable[str]) -> list[RecordedEvent]:
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as error:
            raise OpsError(f"line {number}: not JSON ({error.msg})") from None
        records.append(record_from_json(number, item))
    return sorted(records, key=lambda record: record.position)


def game_of_log(records: Sequence[RecordedEvent]) -> str:
    """The one game a log belongs to, every record checked to be one of its streams (archive.py)."""
    from .archive import ArchiveError, game_of_records

    try:
        return game_of_records(records)
    except ArchiveError as error:
        raise OpsError(str(error)) from None


# ----------------------------------------------------------------------------- export


async def export_command(args: argparse.Namespace) -> int:
    if args.all:
        return await export_all(args)
    from .archive import ArchiveError, read_game_records

    store = await _open(args.database, must_exist=True)
    try:
        records = await read_game_records(store, args.game_id, with_secrets=args.with_secrets)
    except ArchiveError as error:
        raise OpsError(str(error)) from None
    finally:
        await store.close()
    if args.format == "mila":
        from .mila import mila_saved_game

        lines = [json.dumps(mila_saved_game(args.game_id, records), ensure_ascii=False)]
    else:
        lines = [json.dumps(record_to_json(record), ensure_ascii=False) for record in records]
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as output:
                _write_lines(output, lines)
        except OSError as error:
            raise OpsError(f"cannot write {args.output}: {error.strerror}") from None
        print(f"entente export: {len(records)} events of game {args.game_id} written to {args.output}",
              file=sys.stderr)
    else:
        try:
            _write_lines(sys.stdout, lines)
            sys.stdout.flush()
        except BrokenPipeError:  # the reader stopped early (``| head``): not an error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _write_lines(output: TextIO, lines: Iterable[str]) -> None:
    for line in lines:
        output.write(line + "\n")


async def export_all(args: argparse.Namespace) -> int:
    """Every game of the database into ``args.output``, one ``GAME_ID.jsonl`` each."""
    from .archive import ArchiveError, read_game_records
    from .common import progress

    directory = Path(args.output)
    store = await _open(args.database, must_exist=True)
    events = 0
    try:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise OpsError(f"cannot make the directory {directory}: {error.strerror}") from None
        game_ids = await all_game_ids(store)
        for game_id in progress(game_ids, "export", "game"):
            try:
                records = await read_game_records(store, game_id, with_secrets=args.with_secrets)
            except ArchiveError as error:
                raise OpsError(str(error)) from None
            target = directory / f"{game_id}.jsonl"
            try:
                with open(target, "w", encoding="utf-8") as output:
                    _write_lines(output, (json.dumps(record_to_json(r), ensure_ascii=False) for r in records))
            except OSError as error:
                raise OpsError(f"cannot write {target}: {error.strerror}") from None
            events += len(records)
    finally:
        await store.close()
    print(f"entente export: {len(game_ids)} games ({events} events) written to {directory}", file=sys.stderr)
    return 0


async def all_game_ids(store: EventStore) -> list[str]:
    """Every game of the database, by id."""
    return sorted(row.game_id for row in await store.games.list_games(limit=2**62))


# ----------------------------------------------------------------------------- import


async def import_command(args: argparse.Namespace) -> int:
    """Import each log in turn; one that is refused is reported and the others go on."""
    from .common import progress

    if args.format == "mila":
        return await import_mila(args)
    files = log_files(args.files)
    store = await _open(args.database, must_exist=False)
    imported, events, refused = 0, 0, []
    try:
        for path in progress(files, "import", "game"):
            try:
                game_id, count = await import_file(store, path)
            except OpsError as error:
                refused.append(f"{path}: {error}")
                continue
            imported, events = imported + 1, events + count
            if len(files) == 1:
                print(f"entente import: game {game_id} imported ({count} events)", file=sys.stderr)
    finally:
        await store.close()
    if len(files) > 1:
        print(f"entente import: {imported} games imported ({events} events)"
              + (f"; {len(refused)} refused" if refused else ""), file=sys.stderr)
    if refused:
        raise OpsError(refused[0] if len(refused) == 1 else f"{len(refused)} logs refused, the first: {refused[0]}")
    return 0


async def import_mila(args: argparse.Namespace) -> int:
    """Each MILA saved game of each file as a hosted game here; its id, how far it went and its
    tokens as one JSON line on standard output (treat it as a credential)."""
    from shared.clock import SYSTEM_CLOCK

    from .mila_import import mila_game, saved_games

    store = await _open(args.database, must_exist=False)
    try:
        for name in args.files:
            try:
                text = Path(name).read_text(encoding="utf-8")
            except OSError as error:
                raise OpsError(f"cannot read {name}: {error.strerror}") from None
            for saved in saved_games(text):
                imported = mila_game(saved, SYSTEM_CLOCK.now())
                await import_log(store, imported.game_id, imported.records)
                print(json.dumps(imported.summary()), flush=True)
                print(f"entente import: MILA game {imported.mila_id} imported as {imported.game_id} "
                      f"({imported.phases} phases)" + (f"; {imported.stopped}" if imported.stopped else ""),
                      file=sys.stderr)
    finally:
        await store.close()
    return 0


def log_files(names: Sequence[str]) -> list[Path]:
    """The files named, a directory standing for the ``*.jsonl`` files in it."""
    files: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            found = sorted(path.glob("*.jsonl"))
            if not found:
                raise OpsError(f"no *.jsonl file in {path}")
            files += found
        else:
            files.append(path)
    return files


async def import_file(store: EventStore, path: Path) -> tuple[str, int]:
    """Import one exported log; the game's id and how many events it held."""
    try:
        with open(path, encoding="utf-8") as source:
            records = read_log_file(source)
    except OSError as error:
        raise OpsError(f"cannot read {path}: {error.strerror}") from None
    if not records:
        raise OpsError(f"{path} holds no events")
    game_id = game_of_log(records)
    await import_log(store, game_id, records)
    return game_id, len(records)


async def import_log(store: EventStore, game_id: str, records: Sequence[RecordedEvent]) -> None:
    """Append the log's events (new positions, same versions and times) and rebuild the games
    row, in one transaction; refuse a game the store already has (archive.import_records)."""
    from shared.game.repository import fold_records, game_row

    from .archive import ArchiveError, import_records

    game_records = [r for r in records if r.stream_id == game_stream_id(game_id)]
    try:
        row = replace(game_row(fold_records(game_records)), updated_at=records[-1].recorded_at)
    except ValueError as error:
        raise OpsError(f"the log does not fold into a game: {error}") from None
    try:
        await import_records(store, game_id, records, row)
    except ArchiveError as error:
        raise OpsError(str(error)) from None


# ----------------------------------------------------------------------------- replay


@dataclass(frozen=True)
class ReplayOutcome:
    phases_checked: int
    difference: str | None = None  # "F1901M: orders.FRANCE[0 'A PAR - BUR'].result: stored ..., engine ..."
    played_with: str | None = None  # the engine version of the first phase that differs, when not this one


async def replay_command(args: argparse.Namespace) -> int:
    if args.every_build:
        return replay_every_build(args)
    if args.print_build:
        print(f"{BUILD_LINE}{build_named()}", flush=True)
    if args.all:
        return await replay_all(args)
    store = await _open(args.database, must_exist=True)
    try:
        records = await read_game_log(store, args.game_id)
        row = await store.games.get_game(args.game_id)
    finally:
        await store.close()
    loading = time.monotonic()
    load_rules(args.game_id, records)
    started = time.monotonic()
    outcome = replay_log(args.game_id, records, progress=sys.stderr)
    elapsed = time.monotonic() - started
    if outcome.difference is not None and outcome.played_with is not None:
        from shared.rules.variants import get_variant

        current = get_variant(fold_game_variant(records, args.game_id)).engine_version
        print(f"entente replay: game {args.game_id}: played with engine {outcome.played_with}, replayed with "
              f"{current}, whose rules differ; the first phase the new rules resolve differently "
              f"({outcome.phases_checked} matched before it): {outcome.difference}", file=sys.stderr)
        from .common import EXIT_OLDER_ENGINE

        return EXIT_OLDER_ENGINE
    if outcome.difference is not None:
        print(f"entente replay: game {args.game_id}: phase {outcome.difference}", file=sys.stderr)
        return 1
    from shared.game.repository import fold_records
    from shared.rules.variants import get_variant

    state = fold_records([r for r in records if r.stream_id == game_stream_id(args.game_id)])
    if row is not None and (row.status, row.phase) != (state.status, state.phase):
        print(f"entente replay: warning: the games row says {row.status} {row.phase}, "
              f"the log says {state.status} {state.phase}", file=sys.stderr)
    engine = get_variant(state.variant).engine_version
    print(f"game {args.game_id}: {outcome.phases_checked} resolved phases re-adjudicated with engine "
          f"{engine} in {elapsed * 1000:.1f} ms (the rules loaded in {(started - loading) * 1000:.0f} ms "
          f"before; {build_named(outcome.phases_checked)}); every result and position matches")
    return 0


def fold_game_variant(records: Sequence[RecordedEvent], game_id: str) -> str:
    from shared.events import GameCreated, from_recorded

    created = next((from_recorded(r) for r in records if r.type == "GameCreated"
                    and r.stream_id == game_stream_id(game_id)), None)
    return created.variant if isinstance(created, GameCreated) else "standard"


async def replay_all(args: argparse.Namespace) -> int:
    """Replay every game of the database; print how many were verified and the first that
    differs (exit 1 when one does)."""
    from .common import progress

    store = await _open(args.database, must_exist=True)
    verified, differing, phases = 0, [], 0
    started = time.monotonic()
    try:
        game_ids = await all_game_ids(store)
        for game_id in progress(game_ids, "replay", "game"):
            records = await read_game_log(store, game_id)
            outcome = replay_log(game_id, records)
            phases += outcome.phases_checked
            if outcome.difference is None:
                verified += 1
            else:
                differing.append(f"game {game_id}: phase {outcome.difference}")
    finally:
        await store.close()
    elapsed = time.monotonic() - started
    print(f"replay: {verified} of {len(game_ids)} games verified ({phases} resolved phases re-adjudicated "
          f"in {elapsed:.1f} s; {build_named(phases)})" + ("; every result and position matches" if not differing else
                                    f"; {len(differing)} differ, the first: {differing[0]}"))
    return 1 if differing else 0


def load_rules(game_id: str, records: Sequence[RecordedEvent]) -> None:
    """Load the game's variant (its modules, map and order vocabulary) before the timed replay,
    so that the figure printed is the verification itself, not the start-up of the command."""
    import shared.game.adjudicate  # noqa: F401  (what replay_log calls, with its imports)
    from shared.events import GameCreated, from_recorded
    from shared.rules.variants import get_variant

    created = next((from_recorded(r) for r in records if r.type == "GameCreated"), None)
    if isinstance(created, GameCreated):
        variant = get_variant(created.variant)
        opening = variant.opening(created.settings.for_rules(), 0)
        variant.check_orders(opening.state, opening.powers[0], ["WAIVE"])


def replay_log(game_id: str, records: Sequence[RecordedEvent], progress: TextIO | None = None) -> ReplayOutcome:
    """Re-adjudicate each stored PhaseResolved from its stored position and the orders that
    were current when it was resolved; stop at the first phase that differs.

    Linear in the game's length: each phase's submissions are looked up by phase, and a stored
    resolution at the current schema is compared as stored (its JSON), typed only to confirm a
    difference, so that a 1,000-phase game verifies in under a second (benchmarks/replay.py)."""
    from shared.events import GameStarted, OrdersSubmitted, from_recorded
    from shared.game.adjudicate import adjudicate_phase
    from shared.game.state import fold

    stream = game_stream_id(game_id)
    resolved = [r for r in records if r.stream_id == stream and r.type == "PhaseResolved"]
    others = [from_recorded(r) for r in records if r.stream_id == stream and r.type != "PhaseResolved"]
    game = fold(others)  # the variant, settings and seed the phases were resolved with
    expected_before: dict[str, Any] | None = next((e.position for e in others if isinstance(e, GameStarted)), None)
    submissions: dict[str, list[tuple[int, Any]]] = {}  # by phase, each in log order
    for record in records:
        if record.type == "OrdersSubmitted":
            event = from_recorded(record)
            assert isinstance(event, OrdersSubmitted)
            submissions.setdefault(event.phase, []).append((record.position, event))
    for checked, record in enumerate(resolved):
        stored = _stored_resolution(record)
        phase = stored["phase"]
        if progress is not None and checked and checked % PROGRESS_EVERY == 0:
            print(f"replay: {checked}/{len(resolved)} phases checked, now {phase}", file=progress, flush=True)
        if expected_before is not None and stored["position_before"] != expected_before:
            how = first_difference(expected_before, stored["position_before"], "position_before")
            return ReplayOutcome(checked, f"{phase}: does not start where the previous phase ended: {how}")
        submitted = orders_at(submissions.get(phase, []), phase, record.position)
        try:
            again = adjudicate_phase(game, stored["position_before"], submitted,
                                     frozenset(stored.get("civil_disorder", ())), stored.get("house_bot", ()))
        except Exception as error:  # the engine must not fail on a stored game: report it as the difference
            return ReplayOutcome(checked, f"{phase}: the engine failed: {error!r}")
        recomputed = again.model_dump(mode="json")
        difference = compare_resolutions(stored, recomputed)
        if difference is not None and stored is record.data:  # as stored: confirm through the typed event
            stored = from_recorded(record).model_dump(mode="json")
            difference = compare_resolutions(stored, recomputed)
        if difference is not None:  # a phase of an older engine may differ by the engine's change alone
            played_with = stored.get("engine_version")
            return ReplayOutcome(checked, f"{phase}: {difference}",
                                 played_with if played_with != again.engine_version else None)
        expected_before = stored["position"]
    return ReplayOutcome(len(resolved))


def _stored_resolution(record: RecordedEvent) -> dict[str, Any]:
    """A stored PhaseResolved as JSON: its data as stored when written at the current schema
    (what ``model_dump(mode="json")`` wrote), else upcast through the typed event."""
    from shared.events import PhaseResolved, from_recorded

    if record.schema_version == PhaseResolved.SCHEMA_VERSION:
        return record.data
    return from_recorded(record).model_dump(mode="json")


def orders_at(submissions: Sequence[tuple[int, Any]], phase: str, before_position: int) -> dict[str, list[str]]:
    """Each power's latest submission for ``phase`` recorded before the resolution (the
    phase's own submissions given: looking through every phase's would make a replay
    quadratic in the game's length)."""
    from shared.game.submissions import latest_submissions, submitted_orders

    return submitted_orders(latest_submissions((e for position, e in submissions if position < before_position), phase))
