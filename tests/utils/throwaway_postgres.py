"""A PostgreSQL cluster of the suite's own, for a machine where none answers (docs/testing.md,
"PostgreSQL").

README's test command needs a server that lets `postgres` in over TCP without a password.
`ENTENTE_TEST_POSTGRES_URL` names one (CI names the machine's); without it the suite tries the
default URL, and when nothing answers there it makes a cluster of its own, as pytest-postgresql
does: `initdb` from Debian's `postgresql` package into a temporary folder (trust auth, owner
`postgres`), `pg_ctl start` on a free port of 127.0.0.1, stopped and removed when the run ends.
The controlling pytest process does this once, before xdist starts its workers, which inherit
the URL through the environment.
"""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

INSTALL_HINT = "apt-get install postgresql (Debian's package brings initdb and pg_ctl)"


@dataclass(frozen=True)
class Cluster:
    folder: Path
    binaries: Path
    port: int
    as_user: list[str]

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        subprocess.run([*self.as_user, str(self.binaries / "pg_ctl"), "stop", "-D", str(self.folder / "data"),
                        "-m", "immediate", "-w"], capture_output=True, timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)


def answers(url: str) -> bool:
    """Whether a PostgreSQL server at ``url`` lets us in (a connection and a ``SELECT 1``)."""
    import asyncio

    import asyncpg

    async def probe() -> None:
        connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1), timeout=3)
        try:
            await connection.fetchval("SELECT 1")
        finally:
            await connection.close()

    try:
        asyncio.run(probe())
    except Exception:
        return False
    return True


def postgres_binaries() -> Path | None:
    """The newest Debian PostgreSQL's bin folder (/usr/lib/postgresql/N/bin), or initdb's on the PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(path.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_user() -> tuple[list[str], int | None, int | None]:
    """PostgreSQL refuses to run as root: as root, run it as the `postgres` system user."""
    if os.geteuid() != 0:
        return [], None, None
    import pwd

    try:
        user = pwd.getpwnam("postgres")
    except KeyError as missing:
        raise RuntimeError("running as root, and there is no `postgres` user to run PostgreSQL as: "
                           + INSTALL_HINT) from missing
    return ["runuser", "-u", "postgres", "--"], user.pw_uid, user.pw_gid


def start_cluster() -> Cluster:
    """initdb and start a cluster on a free port; raises RuntimeError saying what is missing."""
    binaries = postgres_binaries()
    if binaries is None:
        raise RuntimeError(f"no PostgreSQL server answers and initdb is not installed: {INSTALL_HINT}")
    as_user, uid, gid = _as_user()
    folder = Path(tempfile.mkdtemp(prefix="entente-test-postgres-"))
    if uid is not None and gid is not None:
        os.chown(folder, uid, gid)
    data = folder / "data"
    initdb = subprocess.run([*as_user, str(binaries / "initdb"), "-D", str(data), "-U", "postgres",
                             "--auth=trust", "--no-sync", "-E", "UTF8"], capture_output=True, text=True, timeout=120)
    if initdb.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"initdb failed: {initdb.stderr[-800:]}")
    port = _free_port()
    options = (f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={folder} "
               "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300")
    started = subprocess.run([*as_user, str(binaries / "pg_ctl"), "start", "-D", str(data), "-w", "-t", "60",
                              "-l", str(folder / "server.log"), "-o", options],
                             capture_output=True, text=True, timeout=120)
    if started.returncode != 0:
        log = (folder / "server.log").read_text() if (folder / "server.log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"pg_ctl start failed: {started.stderr[-400:]} {log[-800:]}")
    return Cluster(folder, binaries, port, as_user)
