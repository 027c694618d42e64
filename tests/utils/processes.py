"""A process's children as /proc lists them: the tests and benchmarks of `entente serve
--workers N` find its worker processes here."""
from __future__ import annotations

import subprocess
from pathlib import Path


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return sorted(found)


def worker_pids(server_pid: int) -> list[int]:
    """The server's worker processes (its children that are not multiprocessing's tracker)."""
    pids = []
    for pid in children_of(server_pid):
        try:
            if b"resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                pids.append(pid)
        except OSError:
            continue
    return pids


def stop(process: subprocess.Popen, timeout: float = 10.0) -> None:
    """SIGTERM, then SIGKILL if ``process`` has not ended within ``timeout`` seconds."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
