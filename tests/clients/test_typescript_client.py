"""A TypeScript client generated from the OpenAPI document builds with no hand edits
(docs/testing.md, "Generated clients").

openapi-typescript turns the served ``/openapi.json`` into types (with ``--default-non-nullable
false``: the document says itself which keys are required, shared/http/presence.py), and
``tsc --strict`` type-checks tests/clients/typescript/program.ts against them: settings left out,
each variant's body, positions narrowed by their tag, orders by their type, stream events by
their name, webhook payloads, and two bodies the document must refuse (``@ts-expect-error``).
Both tools come from the npm registry at the versions tests/node_tools pins, installed once
(tests/utils/node_tools.py); without npm, or without the registry, the test is skipped and says why.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.utils.http import running_app, settings_for
from tests.utils.node_tools import node_modules

PROGRAM = Path(__file__).parent / "typescript" / "program.ts"
async def test_the_generated_typescript_client_type_checks(sqlite_url: str, request: pytest.FixtureRequest,
                                                           tmp_path: Path) -> None:
    bin_folder = node_modules() / ".bin"
    async with running_app(settings_for(sqlite_url)) as (_, client):
        answer = await client.get("/openapi.json")
    assert answer.status_code == 200
    (tmp_path / "openapi.json").write_text(json.dumps(answer.json()))
    generated = subprocess.run([str(bin_folder / "openapi-typescript"), "openapi.json", "-o", "api.d.ts",
                                "--default-non-nullable", "false"], cwd=tmp_path, capture_output=True, text=True,
                               timeout=300)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    shutil.copy(PROGRAM, tmp_path / "program.ts")
    checked = subprocess.run([str(bin_folder / "tsc"), "--strict", "--noEmit", "--target", "es2020",
                              "--module", "es2020", "--moduleResolution", "node", "program.ts"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout[-6000:] + checked.stderr[-2000:]
