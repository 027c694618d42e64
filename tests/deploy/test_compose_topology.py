"""docker-compose.yml's topology run as local processes, playing a phase to its deadline.

No container engine runs here, so the test runs what the containers would: every service of
docker-compose.yml except postgres and proxy, with its own ``command`` and ``environment``
(host names mapped to 127.0.0.1, ports to free ones, the operator token substituted), against
a PostgreSQL database made for the test; and Debian's nginx with deploy/nginx.conf, rewritten
only for the upstreams, the listen port and paths into the test's directory. Through the
proxy, seven players join a game with a one-minute clock and set their webhooks to a local
receiver; nobody orders; the real clock runs out, the worker process resolves the phase in
civil disorder and the notifier process delivers ``phase_resolved`` to every seat. Prometheus'
scrape configuration (deploy/prometheus.yml) then reads every process's ``/metrics`` with the
shipped metrics token, and promtool checks each answer. Every process then gets SIGTERM and must
exit 0. Finally the Kubernetes manifests must run exactly
the commands this test ran (modulo hosts and ports). docs/deploy.md describes it.
"""
from __future__ import annotations

import functools
import grp
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import yaml

from tests.utils.oauth_provider import serve_in_thread
from tests.utils.wait import wait_until
from tests.utils.webhook_receiver import Receiver

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
NOT_RUN = ("postgres", "proxy")  # PostgreSQL is the test's server; nginx is run below, as itself
# run to their end before the others start (the others wait for them: service_completed_successfully)
ONE_SHOT = tuple(name for name, spec in COMPOSE["services"].items() if spec.get("restart") == "no")
NGINX = "/usr/sbin/nginx"


def require_nginx() -> None:
    """Skip where Debian's nginx is missing, or fail in CI, which installs it with PostgreSQL."""
    if not Path(NGINX).exists():
        reason = f"nginx is not installed at {NGINX} (apt-get install -y nginx; .ci/run does)"
        if os.environ.get("ENTENTE_REQUIRE_POSTGRES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)


POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
HOST_OPTIONS = ("--host", "--health-host")
PORT_OPTIONS = ("--port", "--health-port")
# the receiver listens on 127.0.0.1: webhooks there are refused unless this is set (docs/social.md);
# the metrics are read with the shipped settings only (the metrics token), no address allowed.
# The clock worker keeps the priority of the rest: here every container is a process of one
# machine the suite keeps busy, where compose gives each container a CPU share of its own
# (docs/testing.md, "The clock worker's priority")
TEST_ONLY_ENVIRONMENT = {"ENTENTE_WEBHOOK_ALLOW_PRIVATE_HOSTS": "true", "ENTENTE_WORKER_NICE": "0"}
PROMETHEUS = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
PROMTOOL = "promtool"
# the processes run this checkout's code, whichever checkout the virtualenv's `entente` was installed from
THIS_CODE = {"PYTHONPATH": str(ROOT)}


# ----------------------------------------------------------------------------- compose's rules


class MissingVariable(ValueError):
    """A ``${VAR:?message}`` (or ``${VAR?message}``) whose variable is not set."""


def interpolate(value: str, variables: Mapping[str, str]) -> str:
    """Compose's variable substitution: ``${VAR}``, ``${VAR:-default}``, ``${VAR-default}``,
    ``${VAR:?error}``, ``${VAR?error}`` and ``$$`` for a dollar sign."""

    def one(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name, operator, argument = match.group(1), match.group(2) or "", match.group(3) or ""
        present = name in variables and (variables[name] != "" or not operator.startswith(":"))
        if present:
            return variables[name]
        if operator.endswith("?"):
            raise MissingVariable(f"{name}: {argument}")
        return argument if operator.endswith("-") else ""

    return re.sub(r"\$\$|\$\{(\w+)(?:(:?[?-])([^}]*))?\}", one, value)


def test_compose_refuses_to_start_without_an_operator_token_or_a_database_password() -> None:
    """No secret is written in docker-compose.yml: each comes from .env (.env.example names them)."""
    given = {"ENTENTE_OPERATOR_TOKEN": "x" * 32, "ENTENTE_METRICS_TOKEN": "m" * 32, "POSTGRES_PASSWORD": "p" * 24}
    for service in COMPOSE["services"].values():
        for value in service.get("environment", {}).values():
            interpolate(str(value), given)  # given both, all is set
    with pytest.raises(MissingVariable, match="ENTENTE_OPERATOR_TOKEN"):
        interpolate(COMPOSE["services"]["lobby"]["environment"]["ENTENTE_OPERATOR_TOKEN"], {})
    for service in ("postgres", "lobby", "worker", "migrate"):
        environment = COMPOSE["services"][service]["environment"]
        value = environment.get("POSTGRES_PASSWORD", environment.get("ENTENTE_DATABASE_URL"))
        with pytest.raises(MissingVariable, match="POSTGRES_PASSWORD"):
            interpolate(str(value), {"ENTENTE_OPERATOR_TOKEN": "x" * 32, "ENTENTE_METRICS_TOKEN": "m" * 32})
    example = (ROOT / ".env.example").read_text()
    assert {name for name in given} <= set(re.findall(r"^(\w+)=", example, re.M))
    assert ".env" in (ROOT / ".gitignore").read_text().split()


def normalized(argv: list[str]) -> list[str]:
    """A command with its listening addresses and ports (options and URLs) left out."""
    result, previous = [], ""
    for word in argv:
        if previous in HOST_OPTIONS:
            word = "HOST"
        elif previous in PORT_OPTIONS:
            word = "PORT"
        else:
            word = re.sub(r"^(https?://)[^/:]+(:\d+)?", r"\1HOST:PORT", word)
        result.append(word)
        previous = argv[len(result) - 1]
    return result


# ----------------------------------------------------------------------------- local processes


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Topology:
    """Where each compose (service, port) listens here, and the processes started."""

    tmp: Path
    database_url: str
    token: str
    metrics_token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    ports: dict[tuple[str, int], int] = field(default_factory=dict)
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)
    ran: dict[str, list[str]] = field(default_factory=dict)  # service -> the compose argv it ran
    ran_once: dict[str, list[str]] = field(default_factory=dict)  # the one-shot services' argv

    def port(self, service: str, port: int) -> int:
        return self.ports.setdefault((service, int(port)), free_port())

    def local_argv(self, service: str, argv: list[str]) -> list[str]:
        """The service's command with its addresses on 127.0.0.1 and its ports mapped; a URL
        to 127.0.0.1 inside the container is a URL to this service."""
        local, previous = [], ""
        for word in argv:
            if previous in HOST_OPTIONS:
                word = "127.0.0.1"
            elif previous in PORT_OPTIONS:
                word = str(self.port(service, int(word)))
            else:
                parts = urlsplit(word)
                if parts.scheme in ("http", "https") and parts.port:
                    owner = service if parts.hostname in ("127.0.0.1", "localhost", None) else parts.hostname
                    word = word.replace(parts.netloc, f"127.0.0.1:{self.port(owner, parts.port)}", 1)
            local.append(word)
            previous = argv[len(local) - 1]
        program = shutil.which(local[0], path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
        assert program, f"{local[0]} is not installed next to {sys.executable}"
        return [program, *local[1:]]

    def local_environment(self, service: str, environment: Mapping[str, object]) -> dict[str, str]:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.tmp), "LANG": "C.UTF-8", **THIS_CODE}
        for name, value in environment.items():
            given = {"ENTENTE_OPERATOR_TOKEN": self.token, "ENTENTE_METRICS_TOKEN": self.metrics_token,
                     "POSTGRES_PASSWORD": "unused"}
            value = interpolate(str(value), given)
            if name == "ENTENTE_DATABASE_URL":
                # compose's database is the postgres service: here, the test's own database
                assert urlsplit(value).hostname == "postgres" and urlsplit(value).port == 5432, value
                value = self.database_url
            env[name] = value
        return {**env, **TEST_ONLY_ENVIRONMENT}

    def run_once(self, service: str) -> None:
        """A one-shot service (``restart: "no"``, which the others wait for): run to its end, 0."""
        spec = COMPOSE["services"][service]
        argv = self.local_argv(service, spec["command"])
        done = subprocess.run(argv, cwd=self.tmp, env=self.local_environment(service, spec["environment"]),
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{service} exited with {done.returncode}: {done.stdout}{done.stderr}"
        self.ran_once[service] = spec["command"]

    def start(self, service: str) -> None:
        spec = COMPOSE["services"][service]
        argv = self.local_argv(service, spec["command"])
        self.processes[service] = self.spawn(service, argv, cwd=self.tmp,
                                             env=self.local_environment(service, spec["environment"]))
        self.ran[service] = spec["command"]

    def spawn(self, name: str, argv: list[str], **options: Any) -> subprocess.Popen[bytes]:
        """A process logging to its own file in the test's directory (never to a pipe that
        nobody reads, which would fill up and block it)."""
        with open(self.tmp / f"{name}.log", "wb") as log:
            return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, **options)

    def start_nginx(self) -> int:
        conf = (ROOT / "deploy" / "nginx.conf").read_text()

        def upstream(match: re.Match[str]) -> str:
            return f"server 127.0.0.1:{self.port(match.group(1), int(match.group(2)))};"

        conf = re.sub(r"server\s+([\w-]+):(\d+);", upstream, conf)
        listen = COMPOSE["services"]["proxy"]["ports"][0].split(":")[-1]
        conf, listens = re.subn(rf"listen\s+{listen};", f"listen 127.0.0.1:{self.port('proxy', int(listen))};", conf)
        assert listens == 1, "deploy/nginx.conf listens on another port than compose publishes"
        paths = "".join(f"  {name}_temp_path {self.tmp}/nginx-{name};\n"
                        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        conf = conf.replace("http {", f"http {{\n  access_log {self.tmp}/nginx-access.log;\n{paths}", 1)
        user = ""
        if os.geteuid() == 0:  # nginx would hand its workers to "nobody": keep them as this user
            user = f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};\n"
        head = (f"daemon off;\n{user}worker_processes 1;\npid {self.tmp}/nginx.pid;\n"
                f"error_log {self.tmp}/nginx-error.log info;\n")
        (self.tmp / "nginx.conf").write_text(head + conf)
        self.processes["proxy"] = self.spawn(
            "proxy", [NGINX, "-p", str(self.tmp), "-e", str(self.tmp / "nginx-error.log"),
                      "-c", str(self.tmp / "nginx.conf")])
        return self.port("proxy", int(listen))

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n" + path.read_text(errors="replace")[-3000:]
                         for path in sorted(self.tmp.glob("*.log")))

    def check_running(self) -> None:
        for service, process in self.processes.items():
            if process.poll() is not None:
                raise AssertionError(f"{service} exited with {process.returncode}\n{self.logs()}")

    def healthy(self, service: str) -> bool:
        """Whether the service's own compose health check passes here."""
        check = COMPOSE["services"][service]["healthcheck"]["test"]
        assert check[0] == "CMD", check
        done = subprocess.run(self.local_argv(service, check[1:]), capture_output=True, timeout=30,
                              env={"PATH": os.environ.get("PATH", ""), **THIS_CODE})
        return done.returncode == 0

    def stop_all(self, timeout: float = 30.0) -> dict[str, int | None]:
        """SIGTERM to every process at once; each one's exit status (None: had to be killed)."""
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        try:
            wait_until(lambda: all(p.poll() is not None for p in self.processes.values()), timeout,
                       "every process to exit", 0.05)
        except AssertionError:
            pass  # those still running are killed below (their status None)
        codes: dict[str, int | None] = {}
        for service, process in self.processes.items():
            codes[service] = process.poll()
            if codes[service] is None:
                process.kill()
                process.wait()
        return codes


def wait_for(what: str, condition: Callable[[], Any], topology: Topology, timeout: float, every: float = 0.5) -> Any:
    """``condition()`` once it is true, while every process of the topology runs (one that
    exits stops the wait); on a timeout, the processes' logs."""
    def looked() -> Any:
        topology.check_running()
        try:
            return condition()
        except httpx.TransportError:  # not listening yet
            return None

    return wait_until(looked, timeout, what, every, context=topology.logs)


# ----------------------------------------------------------------------------- the test


def start_in_the_past(database_url: str, game_id: str, ago: timedelta) -> None:
    """Start the game as if ``ago`` had already passed on its clock (docs/testing.md, "Clocks"):
    the lobby's own start, given an earlier now, so that the one-minute deadline the workers
    watch falls due seconds into the test rather than a minute."""
    from services.lobby.service import start_game
    from tests.conftest import open_store, run_coroutine_in_thread

    async def start() -> None:
        store = await open_store(database_url)
        try:
            await start_game(store, game_id, now=datetime.now(UTC) - ago)
        finally:
            await store.close()

    run_coroutine_in_thread(start)


def play_to_the_deadline(base_url: str, database_url: str, receiver: Receiver, receiver_url: str,
                         topology: Topology) -> None:
    with httpx.Client(base_url=base_url, timeout=30) as client:
        created = client.post("/games", json={"name": "deploy test", "variant": "standard",
                                              "settings": {"movement_minutes": 1}})
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        seats = []
        for index in range(7):
            joined = client.post(f"/games/{game_id}/players")
            assert joined.status_code == 201, joined.text
            seat = f"{game_id}-seat{index}"
            hooked = client.put(f"/games/{game_id}/webhook", json={"url": f"{receiver_url}/ok/{seat}"},
                                headers={"authorization": f"Bearer {joined.json()['token']}"})
            assert hooked.status_code == 200, hooked.text
            seats.append(seat)
        start_in_the_past(database_url, game_id, timedelta(seconds=50))
        started = client.get(f"/games/{game_id}")
        assert started.status_code == 200, started.text
        assert started.json()["phase"] == "S1901M" and started.json()["clock"]["deadline"]

        # nobody orders: only the clock worker can move the game on, at the deadline
        summary = wait_for("the clock worker to resolve S1901M",
                           lambda: (s := client.get(f"/games/{game_id}").json())["phase"] != "S1901M" and s,
                           topology, timeout=120, every=1.0)
        assert summary["phase"] == "F1901M", summary
        assert sorted(summary["civil_disorder"]) == POWERS, summary
        # every surviving power in civil disorder: the game is abandoned (docs/hosting.md)
        assert summary["status"] == "finished" and summary["result"]["reason"] == "abandoned", summary

    def delivered(kind: str) -> dict[str, Any] | None:
        found = {seat: next((p["entente"] for p in receiver.received.get(seat, [])
                             if p["entente"]["kind"] == kind), None) for seat in seats}
        return found if all(found.values()) else None

    resolved = wait_for("the notifier to deliver phase_resolved to every seat",
                        lambda: delivered("phase_resolved"), topology, timeout=30)
    for facts in resolved.values():
        assert facts["game_id"] == game_id and facts["phase"] == "S1901M" and facts["next_phase"] == "F1901M"
    assert sorted(power for facts in resolved.values() for power in facts["your_powers"]) == POWERS
    finished = wait_for("game_finished to every seat", lambda: delivered("game_finished"), topology, timeout=30)
    assert {facts["reason"] for facts in finished.values()} == {"abandoned"}


def routes_only_the_public_paths(base_url: str, topology: Topology) -> None:
    """Every public path reaches a service that serves it (its answer carries the service's
    X-Request-ID and is not the framework's "no such route"); every other path, /metrics first,
    is the proxy's own 404, even with the metrics token that each service answers /metrics to."""
    from tests.deploy.test_manifests import REFUSED_PATHS, SAMPLE_PATHS

    lobby = topology.port("lobby", 8001)
    scrape = {"authorization": f"Bearer {topology.metrics_token}"}
    assert httpx.get(f"http://127.0.0.1:{lobby}/metrics", headers=scrape, timeout=5).status_code == 200
    with httpx.Client(base_url=base_url, timeout=10) as client:
        for path in [*SAMPLE_PATHS, "/healthz", "/openapi.json", "/docs"]:
            answer = client.get(path)
            assert "x-request-id" in answer.headers, (path, answer.status_code, answer.text)
            unrouted = answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
            assert not unrouted and answer.status_code < 500, (path, answer.status_code, answer.text)
            time.sleep(0.02)  # well under the proxy's rate per address
        for path in REFUSED_PATHS:
            answer = client.get(path, headers=scrape)
            assert answer.status_code == 404 and "x-request-id" not in answer.headers, (path, answer.text)
            assert answer.json() == {"error": {"code": "not_found", "message": "no such path", "where": "path"}}
        assert client.get("/proxy-health").json() == {"status": "ok"}


def scrape_targets() -> dict[str, list[tuple[str, int]]]:
    """deploy/prometheus.yml's targets by job, each (compose service, port), and the scrape
    settings every job shares: the metrics token from a file, on /metrics over HTTP."""
    targets = {}
    for job in PROMETHEUS["scrape_configs"]:
        assert job["job_name"].startswith("entente"), job  # deploy/alerts.yml reads jobs named so
        assert job["authorization"] == {"credentials_file": "metrics-token"}, job
        assert job.get("metrics_path", "/metrics") == "/metrics" and job.get("scheme", "http") == "http", job
        targets[job["job_name"]] = [(host, int(port)) for config in job["static_configs"]
                                    for host, _, port in (target.partition(":") for target in config["targets"])]
    return targets


def scrapes_every_process(topology: Topology, services: list[str]) -> None:
    """Prometheus, as deploy/prometheus.yml says, reads every process of the topology: each
    target answers its metrics to the token in the credentials file (the one .env names
    ENTENTE_METRICS_TOKEN), and promtool finds each answer sound; without it, each answers 403."""
    targets = [target for found in scrape_targets().values() for target in found]
    assert sorted(service for service, _ in targets) == sorted(services), "a process nobody scrapes"
    (topology.tmp / "metrics-token").write_text(topology.metrics_token + "\n")
    credential = (topology.tmp / "metrics-token").read_text().strip()  # Prometheus trims the file too
    promtool = shutil.which(PROMTOOL)
    assert promtool, "promtool is not installed (Debian's prometheus package; .ci/run installs it)"
    for service, port in targets:
        url = f"http://127.0.0.1:{topology.port(service, port)}/metrics"
        assert httpx.get(url, timeout=10).status_code == 403, f"{service} shows its metrics to anyone"
        assert httpx.get(url, headers={"authorization": f"Bearer {topology.token}x"}, timeout=10).status_code == 403
        answer = httpx.get(url, headers={"authorization": f"Bearer {credential}"}, timeout=10)
        assert answer.status_code == 200, (service, answer.status_code, answer.text)
        assert answer.headers["content-type"].startswith("text/plain"), (service, answer.headers)
        checked = subprocess.run([promtool, "check", "metrics"], input=answer.text, capture_output=True, text=True,
                                 timeout=60)
        assert checked.returncode == 0, (service, checked.stdout + checked.stderr)
        assert "entente_" in answer.text, service


@pytest.mark.postgres
def serves_the_web_client(base_url: str) -> None:
    """The proxy routes the web client's pages and files to the lobby (docs/web.md)."""
    pages = (("/", "text/html"), ("/play/g_000000000000", "text/html"), ("/static/game.js", "text/javascript"))
    for path, kind in pages:
        answer = httpx.get(f"{base_url}{path}", timeout=5)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith(kind), path


def test_the_compose_topology_runs_a_game_to_its_deadline(fresh_database_url: str, tmp_path: Path) -> None:
    require_nginx()
    topology = Topology(tmp_path, fresh_database_url, secrets.token_urlsafe(32))
    services = [name for name in COMPOSE["services"] if name not in (*NOT_RUN, *ONE_SHOT)]
    assert {"worker", "notifier", "daide"} <= set(services), "compose runs no clock worker, notifier or DAIDE server"
    assert ONE_SHOT == ("migrate",)
    receiver = Receiver()
    codes: dict[str, int | None] = {}
    with serve_in_thread(receiver.app()) as receiver_url:
        try:
            for service in ONE_SHOT:
                topology.run_once(service)
            for service in services:
                topology.start(service)
            proxy_port = topology.start_nginx()
            for service in services:
                # nine processes start at once, each importing the whole code: on two shared cores, slowly
                wait_for(f"{service}'s compose health check", functools.partial(topology.healthy, service), topology,
                         timeout=150)
            base_url = f"http://127.0.0.1:{proxy_port}"
            wait_for("the proxy", lambda: httpx.get(f"{base_url}/healthz", timeout=5).status_code == 200,
                     topology, timeout=20)
            routes_only_the_public_paths(base_url, topology)
            play_to_the_deadline(base_url, fresh_database_url, receiver, receiver_url, topology)
            serves_the_web_client(base_url)
            scrapes_every_process(topology, services)
            topology.check_running()
        finally:
            codes = topology.stop_all()
    assert codes == {name: 0 for name in topology.processes}, f"exit statuses after SIGTERM: {codes}\n{topology.logs()}"

    # Kubernetes runs exactly these commands (and nothing else), modulo addresses and ports
    ran = sorted(normalized(argv) for argv in topology.ran.values())
    k8s = sorted(normalized(container["command"])
                 for path in sorted((ROOT / "deploy" / "k8s").glob("*.yaml"))
                 for doc in yaml.safe_load_all(path.read_text()) if doc and doc["kind"] == "Deployment"
                 for container in doc["spec"]["template"]["spec"]["containers"])
    assert k8s == ran
    # and runs the one-shot migration as a Job, before the rollout
    jobs = sorted(normalized(container["command"])
                  for path in sorted((ROOT / "deploy" / "k8s").glob("*.yaml"))
                  for doc in yaml.safe_load_all(path.read_text()) if doc and doc["kind"] == "Job"
                  for container in doc["spec"]["template"]["spec"]["containers"])
    assert jobs == sorted(normalized(argv) for argv in topology.ran_once.values())
