"""What the benchmarks share: a scratch database on either back end, and CPU time read from
/proc (a helper module, not a benchmark: it prints nothing)."""
from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_SERVER_URL = "postgresql://postgres@127.0.0.1:5432/test"


def server_url() -> str:
    """The PostgreSQL server the benchmarks make their databases on."""
    return (os.environ.get("ENTENTE_BENCH_POSTGRES_URL") or os.environ.get("ENTENTE_TEST_POSTGRES_URL")
            or DEFAULT_SERVER_URL)


async def admin(server: str, statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(server.replace("postgresql+asyncpg://", "postgresql://"), timeout=10)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@asynccontextmanager
async def fresh_database(server: str, prefix: str = "entente_bench") -> AsyncIterator[str]:
    """The URL of a PostgreSQL database made on ``server``, dropped afterwards whatever happens."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    await admin(server, f'CREATE DATABASE "{name}"')
    try:
        yield urlsplit(server)._replace(path=f"/{name}").geturl()
    finally:
        await admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@asynccontextmanager
async def sqlite_database() -> AsyncIterator[str]:
    """The URL of a SQLite file in a temporary folder (removed afterwards)."""
    with tempfile.TemporaryDirectory(prefix="entente-bench-") as folder:
        yield f"sqlite:///{folder}/bench.db"


def scratch_database(backend: str, server: str, prefix: str) -> AbstractAsyncContextManager[str]:
    """A fresh database of ``backend`` ("sqlite" or "postgresql")."""
    return sqlite_database() if backend == "sqlite" else fresh_database(server, prefix)


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds of these processes so far (0 for any that is gone)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


async def database_pids(url: str) -> list[int]:
    """PostgreSQL's processes serving this database's other connections (on this machine)."""
    import asyncpg

    connection = await asyncpg.connect(url, timeout=10)
    try:
        rows = await connection.fetch("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                                      "AND pid <> pg_backend_pid()")
    finally:
        await connection.close()
    return [row[0] for row in rows]


async def metric_samples(base: str, token: str) -> list[tuple[str, dict[str, str], float]] | None:
    """The server's /metrics as (sample name, labels, value), added up over its processes; None
    when the server does not answer them (read with prometheus-client's own parser)."""
    import httpx
    from prometheus_client.parser import text_string_to_metric_families

    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        response = await client.get("/metrics", headers={"authorization": f"Bearer {token}"})
    if response.status_code != 200:
        return None
    return [(sample.name, sample.labels, sample.value)
            for family in text_string_to_metric_families(response.text) for sample in family.samples]
