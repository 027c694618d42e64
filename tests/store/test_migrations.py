"""Schema migrations on both back ends (docs/store.md, "Schema and migrations"): a database as
the code before the migrations left it, with a played game in it, is upgraded by
``entente migrate`` and plays on; the services refuse an older schema, naming the command, and
create a fresh database themselves; the migrations end where the table definitions are."""
from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import uuid
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from services.cli import main
from services.cli.ops import replay_log
from shared.events import game_stream
from shared.game.intake import submit_orders
from shared.game.repository import fold_records, read_game
from shared.game.resolution import resolve_phase
from shared.store import HEAD_REVISION, EventStore, SchemaOutOfDate, SchemaTooNew, open_store
from shared.store.migrate import _on_connection, migrate, script_revisions, status
from shared.store.schema import APPEND_IF_CURRENT_FUNCTION, REVISIONS, TABLE_NAMES
from tests.conftest import _create_database, _drop_database, _server_url, run_coroutine_in_thread, with_database
from tests.utils.played_game import play_game

DATA = Path(__file__).parent / "data"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with nothing in it, once per back end (PostgreSQL: made for this test)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    server_url = _server_url()
    name = f"entente_migrations_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    try:
        run_coroutine_in_thread(lambda: _create_database(server_url, name))
    except Exception as error:
        if os.environ.get("ENTENTE_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL unreachable at {server_url}: {error!r}")
        pytest.skip(f"PostgreSQL unreachable at {server_url}: {error!r}")
    try:
        yield with_database(server_url, name)
    finally:
        run_coroutine_in_thread(lambda: _drop_database(server_url, name))


def dialect(url: str) -> str:
    return "sqlite" if url.startswith("sqlite") else "postgresql"


async def run_sql(url: str, statements: list[str]) -> None:
    if dialect(url) == "sqlite":
        with sqlite3.connect(url.split(":///", 1)[1]) as connection:
            for statement in statements:
                connection.execute(statement)
        return
    connection = await asyncpg.connect(url)
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


def schema_before_migrations(url: str) -> list[str]:
    """The DDL the store ran at start-up before the migrations existed, as it wrote it then."""
    text = (DATA / f"schema_before_migrations.{dialect(url)}.sql").read_text()
    body = "\n".join(line for line in text.splitlines() if not line.startswith("--"))
    return [statement.strip() for statement in body.split(";") if statement.strip()]


async def copy_game(source: EventStore, target_url: str) -> None:
    """Write the source store's rows into the target's tables as plain rows, in the columns
    the tables had before the migrations (what a database of that release holds)."""
    events = await source.events.read_all(limit=1_000_000)
    games = await source.games.list_games(limit=1_000_000)
    insert_event = ("INSERT INTO events (stream_id, version, type, schema_version, data, metadata, recorded_at) "
                    "VALUES ({})")
    insert_game = ("INSERT INTO games (game_id, variant, name, status, phase, deadline, summary, updated_at) "
                   "VALUES ({})")
    if dialect(target_url) == "sqlite":
        def moment(value: datetime | None) -> str | None:
            return None if value is None else value.replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")

        with sqlite3.connect(target_url.split(":///", 1)[1]) as connection:
            connection.executemany(insert_event.format(", ".join("?" * 7)), [
                (e.stream_id, e.version, e.type, e.schema_version, json.dumps(e.data), json.dumps(e.metadata),
                 moment(e.recorded_at)) for e in events])
            connection.executemany(insert_game.format(", ".join("?" * 8)), [
                (g.game_id, g.variant, g.name, g.status, g.phase, moment(g.deadline), json.dumps(g.summary),
                 moment(g.updated_at)) for g in games])
        return
    connection = await asyncpg.connect(target_url)
    try:
        await connection.executemany(insert_event.format("$1, $2, $3, $4, $5::jsonb, $6::jsonb, $7"), [
            (e.stream_id, e.version, e.type, e.schema_version, json.dumps(e.data), json.dumps(e.metadata),
             e.recorded_at) for e in events])
        await connection.executemany(insert_game.format("$1, $2, $3, $4, $5, $6, $7::jsonb, $8"), [
            (g.game_id, g.variant, g.name, g.status, g.phase, g.deadline, json.dumps(g.summary), g.updated_at)
            for g in games])
    finally:
        await connection.close()


def schema_differences(url: str) -> list[Any]:
    """What Alembic's comparison finds between the database and the table definitions."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from shared.store.schema_tables import METADATA

    def compare(connection: Any) -> list[Any]:
        context = MigrationContext.configure(connection, opts={
            "compare_type": True,
            "include_object": lambda item, name, kind, reflected, other: kind != "table" or name in TABLE_NAMES})
        return compare_metadata(context, METADATA)

    return asyncio.run(_on_connection(url, compare))


APPEND_FUNCTION_ARGUMENTS = (
    "p_game_id text, p_guard_stream text, p_guard_version integer, p_stream_id text, p_expected integer, "
    "p_type text, p_schema_version integer, p_data jsonb, p_metadata jsonb, p_recorded_at timestamp with time zone, "
    "p_position_lock bigint, p_stream_lock_class integer, p_channel text, p_watch_streams text[], p_watch_after bigint")


APPEND_FUNCTION_BODY = APPEND_IF_CURRENT_FUNCTION.split("$entente$")[1]


async def append_functions(url: str) -> list[tuple[str, str]]:
    """(arguments, body) of each function named entente_append_if_current."""
    connection = await asyncpg.connect(url)
    try:
        return [(row[0], row[1]) for row in await connection.fetch(
            "SELECT pg_get_function_identity_arguments(oid), prosrc FROM pg_proc "
            "WHERE proname = 'entente_append_if_current'")]
    finally:
        await connection.close()


async def unlogged_tables(url: str) -> list[str]:
    """The tables PostgreSQL keeps without the write-ahead log."""
    connection = await asyncpg.connect(url)
    try:
        return [row[0] for row in await connection.fetch(
            "SELECT relname FROM pg_class WHERE relpersistence = 'u' AND relkind = 'r' ORDER BY relname")]
    finally:
        await connection.close()


def cli(*argv: str) -> int:
    return main(list(argv))


# ----------------------------------------------------------------------------- the tests


def test_the_revisions_the_store_knows_are_the_migrations_folder() -> None:
    assert script_revisions() == list(REVISIONS)
    assert HEAD_REVISION == REVISIONS[-1]


def test_migrating_an_empty_database_ends_at_the_table_definitions(empty_url: str) -> None:
    before, after = asyncio.run(migrate(empty_url, "0001"))
    assert (before.state, after.state, after.revision) == ("fresh", "behind", "0001")
    # the comparison does see a difference: the first revision lacks the listing indexes, the
    # events' (stream, position) index, the claim's (deadline, game_id), the DAIDE rejoins' and
    # the stream leases' tables with their indexes, and has the indexes those replaced
    differences = schema_differences(empty_url)
    assert {d[1].name for d in differences if d[0] == "add_index"} == {
        "ix_games_updated_at", "ix_games_status_updated_at", "ix_events_stream_position", "ix_games_deadline_game",
        "ix_daide_rejoins_address", "ix_stream_leases_process"}
    assert {d[1].name for d in differences if d[0] == "remove_index"} == {
        "ix_events_stream_prefix", "ix_games_status", "ix_games_deadline"}
    _, after = asyncio.run(migrate(empty_url))
    assert (after.state, after.revision) == ("current", HEAD_REVISION)
    assert schema_differences(empty_url) == []
    if dialect(empty_url) == "postgresql":  # one append function, the code's: its arguments and its text
        assert asyncio.run(append_functions(empty_url)) == [(APPEND_FUNCTION_ARGUMENTS, APPEND_FUNCTION_BODY)]
        assert asyncio.run(unlogged_tables(empty_url)) == ["rate_buckets", "stream_leases"]


def test_a_fresh_database_is_created_at_the_head_by_the_store_itself(empty_url: str) -> None:
    async def open_and_close() -> None:
        store = await open_store(empty_url)
        await store.close()

    asyncio.run(open_and_close())
    found = asyncio.run(status(empty_url))
    assert (found.state, found.revision) == ("current", HEAD_REVISION)
    assert schema_differences(empty_url) == []
    if dialect(empty_url) == "postgresql":
        assert asyncio.run(append_functions(empty_url)) == [(APPEND_FUNCTION_ARGUMENTS, APPEND_FUNCTION_BODY)]
        assert asyncio.run(unlogged_tables(empty_url)) == ["rate_buckets", "stream_leases"]
    assert cli("migrate", "--check", "--database", empty_url) == 0
    assert cli("migrate", "--database", empty_url) == 0  # nothing to do


def test_an_older_schema_is_refused_with_the_command_that_upgrades_it(
        empty_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(migrate(empty_url, "0001"))
    with pytest.raises(SchemaOutOfDate, match="run `entente migrate`"):
        asyncio.run(open_store(empty_url))
    capsys.readouterr()
    assert cli("worker", "--once", "--database", empty_url) == 3
    assert cli("notifier", "--once", "--database", empty_url) == 3
    assert cli("serve", "--database", empty_url, "--port", "1") == 3  # refused before it listens
    assert cli("export", "--all", "--database", empty_url, "--output", str(tmp_path / "out")) == 3
    errors = capsys.readouterr().err
    assert not (tmp_path / "out").exists()
    assert errors.count("run `entente migrate`") == 4, errors
    assert cli("migrate", "--check", "--database", empty_url) == 1
    assert "older than this code's" in capsys.readouterr().out


def test_a_schema_from_a_newer_release_is_refused(empty_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(migrate(empty_url))
    asyncio.run(run_sql(empty_url, ["UPDATE alembic_version SET version_num = '9999'"]))
    with pytest.raises(SchemaTooNew, match="newer release"):
        asyncio.run(open_store(empty_url))
    assert cli("migrate", "--database", empty_url) == 1
    assert "does not know" in capsys.readouterr().err
    assert cli("migrate", "--check", "--database", empty_url) == 1


def test_a_database_from_before_the_migrations_with_a_played_game_upgrades_and_plays_on(
        empty_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async def played_elsewhere() -> tuple[str, int]:
        source = await open_store(f"sqlite:///{tmp_path / 'source.db'}")
        try:
            game_id = await play_game(source, phases=6, seed=3)
            await copy_game(source, empty_url)
            return game_id, len(await source.events.read_all(limit=1_000_000))
        finally:
            await source.close()

    asyncio.run(run_sql(empty_url, schema_before_migrations(empty_url)))
    game_id, events = asyncio.run(played_elsewhere())

    assert cli("migrate", "--check", "--database", empty_url) == 1
    assert cli("worker", "--once", "--database", empty_url) == 3
    capsys.readouterr()
    assert cli("migrate", "--database", empty_url) == 0
    assert f"from unstamped to {HEAD_REVISION}" in capsys.readouterr().out
    assert cli("migrate", "--check", "--database", empty_url) == 0
    assert schema_differences(empty_url) == []

    async def play_on() -> None:
        store = await open_store(empty_url)
        try:
            assert len(await store.events.read_all(limit=1_000_000)) == events
            state = await read_game(store, game_id)
            assert state is not None and state.status == "active" and state.resolved_count == 6
            listed = await store.games.list_games("active")
            assert [row.game_id for row in listed] == [game_id]
            for _ in range(2):  # two more phases: holds for everyone who must act
                state = fold_records(await store.events.read_stream(game_stream(game_id)))
                for seat in state.seats:
                    if seat.power in state.must_act:
                        await submit_orders(store, game_id, seat.player_id, [])
                await resolve_phase(store, game_id, state.phase)
            records = await store.events.read_all(limit=1_000_000)
            state = fold_records(await store.events.read_stream(game_stream(game_id)))
            assert state.resolved_count == 8
            assert replay_log(game_id, records).difference is None
        finally:
            await store.close()

    asyncio.run(play_on())
    assert cli("replay", game_id, "--database", empty_url) == 0


def test_migrate_sql_prints_only_the_upgrade_from_the_databases_revision(
        empty_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``entente migrate --sql`` on a database at 0001 prints the upgrade from 0001 (Alembic's
    offline ``0001:head``), not the schema from empty, and changes nothing."""
    assert main(["migrate", "--to", "0001", "--database", empty_url]) == 0
    capsys.readouterr()
    assert main(["migrate", "--sql", "--database", empty_url]) == 0
    sql = capsys.readouterr().out
    steps = [line for line in sql.splitlines() if line.startswith("-- Running upgrade")]
    assert steps == [f"-- Running upgrade {a} -> {b}" for a, b in zip(REVISIONS, REVISIONS[1:], strict=False)]
    # not the schema from empty: the tables of 0001 are not created again
    assert "CREATE TABLE alembic_version" not in sql and "CREATE TABLE IF NOT EXISTS events" not in sql
    assert "CREATE INDEX ix_events_stream_position" in sql
    assert asyncio.run(status(empty_url)).revision == "0001"  # nothing was run
    # a DBA's range, without the database; and nothing to print at the head
    assert main(["migrate", "--sql", "--from", "0002", "--to", "0003", "--database", empty_url]) == 0
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith("-- Running")] == [
        "-- Running upgrade 0002 -> 0003"]
    assert main(["migrate", "--database", empty_url]) == 0
    capsys.readouterr()
    assert main(["migrate", "--sql", "--database", empty_url]) == 0
    printed = capsys.readouterr()
    assert printed.out == "" and "already" in printed.err
    assert main(["migrate", "--sql", "--from", "0003", "--to", "0001", "--database", empty_url]) == 2


def test_migrate_sql_into_a_pipe_closed_early_ends_quietly(tmp_path: Path) -> None:
    """``entente migrate --sql | head -1``: the reader leaving is no database failure. The
    pipe's reading end is closed before the command writes, so that every write of it fails
    (as the writes after head's first line do)."""
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'empty.db'}"
    entente = str(Path(sys.executable).parent / "entente")
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([entente, "migrate", "--sql", "--from", "empty", "--database", url],
                              stdout=write_end, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr.decode()) == (0, "")
