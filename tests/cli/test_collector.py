"""`entente serve` tunes the garbage collector of its processes (docs/hosting.md, "The garbage
collector"): ENTENTE_GC_THRESHOLDS is checked at start-up, applied once the app is up (with the
heap alive then frozen) and undone when it stops."""
from __future__ import annotations

import gc
import os
import subprocess
from pathlib import Path

import pytest
from pydantic import SecretStr

from services.cli.serve import served_app, service_app
from shared.settings import Settings, SettingsError
from tests.cli.test_serve import REPOSITORY, entente_command
from tests.utils.http import OPERATOR_TOKEN


def test_thresholds_are_read_from_the_setting() -> None:
    assert Settings().collector_thresholds() == (50000, 20, 100)
    assert Settings(gc_thresholds=" 2000, 10 ,10 ").collector_thresholds() == (2000, 10, 10)
    assert Settings(gc_thresholds="Python").collector_thresholds() is None


@pytest.mark.parametrize("text", ["", "50000,20", "50000,20,100,1", "0,10,10", "-5,10,10", "a,b,c", "²,1,1",
                                  "50000;20;100", "99999999,1,1"])
def test_bad_thresholds_are_refused_naming_the_variable(text: str) -> None:
    with pytest.raises(SettingsError, match="ENTENTE_GC_THRESHOLDS"):
        Settings(gc_thresholds=text, operator_token=SecretStr(OPERATOR_TOKEN)).checked()


def test_serve_refuses_bad_thresholds_before_it_starts(tmp_path: Path) -> None:
    env = {**os.environ, "ENTENTE_GC_THRESHOLDS": "lots", "ENTENTE_OPERATOR_TOKEN": OPERATOR_TOKEN}
    done = subprocess.run([*entente_command(), "serve", "--database", f"sqlite:///{tmp_path}/x.db"],
                          cwd=REPOSITORY, env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "ENTENTE_GC_THRESHOLDS" in done.stderr and "'lots'" in done.stderr
    assert not (tmp_path / "x.db").exists()  # refused before anything was created


@pytest.mark.parametrize("build", [lambda s: served_app(s), lambda s: service_app("lobby", s)],
                         ids=["every service", "one service"])
async def test_the_served_app_collects_less_often_while_it_runs(sqlite_url: str, build) -> None:
    settings = Settings(database_url=sqlite_url, operator_token=SecretStr(OPERATOR_TOKEN), run_worker=False,
                        gc_thresholds="40000,15,90").checked()
    app = build(settings)
    before = gc.get_threshold()
    assert before != (40000, 15, 90)
    async with app.router.lifespan_context(app):
        assert gc.get_threshold() == (40000, 15, 90)
        assert gc.get_freeze_count() > 10_000  # the imported modules and the open store at least
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


async def test_python_leaves_the_collector_alone(sqlite_url: str) -> None:
    settings = Settings(database_url=sqlite_url, operator_token=SecretStr(OPERATOR_TOKEN), run_worker=False,
                        gc_thresholds="python").checked()
    app = served_app(settings)
    before = gc.get_threshold()
    async with app.router.lifespan_context(app):
        assert gc.get_threshold() == before and gc.get_freeze_count() == 0
