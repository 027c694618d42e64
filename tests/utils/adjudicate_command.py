"""The installed ``entente adjudicate`` run as a user runs it: a document on stdin, its output
on stdout (docs/api.md, "entente adjudicate")."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ENTENTE = str(Path(sys.executable).parent / "entente")


def adjudicated(document: dict[str, Any]) -> dict[str, Any]:
    """One document through the command; its output (the command must succeed)."""
    ran = subprocess.run([ENTENTE, "adjudicate"], input=json.dumps(document), capture_output=True, text=True,
                         timeout=120)
    assert ran.returncode == 0, ran.stderr
    result: dict[str, Any] = json.loads(ran.stdout)
    return result
