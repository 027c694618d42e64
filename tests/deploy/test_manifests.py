"""docker-compose.yml, deploy/nginx.conf and deploy/k8s cannot run here (no container engine).

These tests parse them and check that every command, option, port, route, probe and environment
variable they name exists in the code, so that the manifests cannot silently rot. Each entente
container runs an ``entente`` sub-command, parsed here with that command's own parser;
tests/deploy/test_compose_topology.py runs them.
"""
from __future__ import annotations

import argparse
import functools
import importlib
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ("lobby", "adjudication", "visibility", "accounts", "press", "notifications")
WORKERS = ("worker", "notifier")  # the clock worker and the notification worker: no HTTP API
HEALTH_LISTENERS = (*WORKERS, "daide")  # the processes without an HTTP API, each with a health listener
# Where each public path must be served (docs/api.md); every path of the combined app is checked.
SERVICE_OF_PATH = [
    (r"^/games/[^/]+/(orders|resolve|possible-orders|ready)$", "adjudication"),
    (r"^/games/[^/]+/(view|events|stream|stream-ticket|map\.svg|map\.png)$", "visibility"),
    (r"^/variants(/|$)", "visibility"),
    (r"^/games/[^/]+/(bot-tokens(/[^/]+)?|identities)$", "accounts"),
    (r"^/(auth|me)(/|$)", "accounts"),
    (r"^/games/[^/]+/(messages|conversations|conversations/[^/]+/(messages|read))$", "press"),
    (r"^/games/[^/]+/(webhook|channel-webhook|push|email|email/confirm)$", "notifications"),
    (r"^/push/key$", "notifications"),
    (r"^/games(/|$)", "lobby"),
]


def public_paths() -> dict[str, str]:
    """Every documented path of the combined app (``entente serve``), made concrete, with the
    service that must answer it."""
    from services.app import create_app

    paths = {}
    for template in create_app().openapi()["paths"]:
        if template in ("/healthz", "/livez"):  # each service's own probes
            continue
        concrete = re.sub(r"\{[^}]+\}", "g1", template)
        paths[concrete] = next(service for pattern, service in SERVICE_OF_PATH if re.search(pattern, concrete))
    return paths


SAMPLE_PATHS = public_paths()


def load_yaml_documents(path: Path) -> list[dict]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def settings_env_names() -> set[str]:
    from pydantic_settings import BaseSettings

    module = importlib.import_module("shared.settings")
    classes = [v for v in vars(module).values()
               if isinstance(v, type) and issubclass(v, BaseSettings) and v is not BaseSettings]
    assert classes, "shared.settings defines no settings class"
    names = set()
    for cls in classes:
        prefix = cls.model_config.get("env_prefix", "")
        names |= {(prefix + field).upper() for field in cls.model_fields}
    return names


def parsed(command: list[str]) -> tuple[str, argparse.Namespace]:
    """An ``entente`` command's sub-command and its arguments, read by that sub-command's own
    parser (an option the code does not know fails here)."""
    from services.cli import COMMANDS

    assert command[0] == "entente" and command[1] in COMMANDS, command
    module = importlib.import_module(COMMANDS[command[1]][0])
    return command[1], module._parser(command[1]).parse_args(command[2:])


def served(command: list[str]) -> tuple[str, int]:
    """The service an ``entente serve --service NAME --port P`` command serves, and its port."""
    name, args = parsed(command)
    assert name == "serve" and args.service, command
    assert args.workers == 1, "one process per container: replicas scale, not uvicorn workers"
    return args.service, args.port


def worker_health(command: list[str]) -> tuple[str, argparse.Namespace]:
    name, args = parsed(command)
    assert name in HEALTH_LISTENERS and args.health_port is not None and not getattr(args, "once", False), command
    return name, args


@functools.cache
def import_app(target: str):
    """The app a factory target (``module:function``, as ``uvicorn --factory`` takes it) builds:
    no module builds an app at import (docs/architecture.md, "Where things are built")."""
    module_name, _, attribute = target.partition(":")
    module = importlib.import_module(module_name)
    assert hasattr(module, attribute), f"{module_name} has no attribute {attribute}"
    return getattr(module, attribute)()


def app_serves(app, path: str) -> bool:
    """Whether one of the app's documented paths (its OpenAPI document) matches ``path``."""
    templates = app.openapi()["paths"]
    return any(re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", t), path) for t in templates)


def compose_health_url(service: dict) -> str:
    test = service["healthcheck"]["test"]
    assert test[:3] == ["CMD", "entente", "health"] and len(test) == 4, test
    parsed(test[1:])
    return test[3]


def test_compose_commands_ports_and_environment_exist_in_the_code():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    env_names = settings_env_names()
    assert set(compose["services"]) == {"postgres", "proxy", "migrate", *SERVICES, *HEALTH_LISTENERS}
    assert parsed(compose["services"]["migrate"]["command"])[0] == "migrate"
    for variable in compose["services"]["migrate"]["environment"]:
        assert variable in env_names
    for name in SERVICES:
        service = compose["services"][name]
        served_name, port = served(service["command"])
        assert served_name == name
        import_app(f"services.{name}.api:create_app")
        assert str(port) in [str(p) for p in service["expose"]]
        url = urlsplit(compose_health_url(service))
        assert url.port == port and app_serves(import_app(f"services.{name}.api:create_app"), url.path)
        for variable in service["environment"]:
            assert variable in env_names, f"{name} sets {variable}, which no setting reads"
    for name in HEALTH_LISTENERS:
        service = compose["services"][name]
        assert worker_health(service["command"])[0] == name
        url = urlsplit(compose_health_url(service))
        health_port = worker_health(service["command"])[1].health_port
        assert (url.hostname, url.port, url.path) == ("127.0.0.1", health_port, "/healthz")
        for variable in service["environment"]:
            assert variable in env_names, f"{name} sets {variable}, which no setting reads"
    assert set(compose["services"]["proxy"]["depends_on"]) == set(SERVICES)


def nginx_upstreams(conf: str) -> dict[str, int]:
    return {name: int(port) for name, port in re.findall(r"upstream\s+(\w+)\s*{\s*server\s+\w+:(\d+);", conf)}


def nginx_locations(conf: str) -> list[tuple[str, str, str | None]]:
    """Each ``location`` of the server, in order: (modifier, path or pattern, upstream or None
    when the proxy answers itself); named locations (``@...``) left out."""
    found = []
    uncommented = re.sub(r"#[^\n]*", "", conf)
    unquoted = re.sub(r"'[^']*'", "''", uncommented)  # the proxy's own JSON answers hold braces
    for modifier, path, body in re.findall(r"location\s+(=|~|\^~)?\s*([^\s{]+)\s*{([^{}]*)}", unquoted):
        if path.startswith("@"):
            continue
        upstream = re.search(r"proxy_pass\s+http://(\w+);", body)
        found.append((modifier, path, upstream.group(1) if upstream else None))
    return found


def nginx_route(conf: str, path: str) -> str | None:
    """The upstream nginx passes a path to, by nginx's own order: an exact location, else the
    regular expressions in order (unless the longest prefix is ``^~``), else the longest
    prefix; None when the proxy answers itself (its 404)."""
    locations = nginx_locations(conf)
    for modifier, location, upstream in locations:
        if modifier == "=" and location == path:
            return upstream
    prefixes = [(len(p), m, u) for m, p, u in locations if m in ("", "^~") and path.startswith(p)]
    longest = max(prefixes, default=None)
    if longest is None or longest[1] != "^~":
        for modifier, pattern, upstream in locations:
            if modifier == "~" and re.search(pattern, path):
                return upstream
    assert longest is not None, f"nginx has no location for {path} (it needs a catch-all)"
    return longest[2]


# Paths that only look like public ones: the proxy must refuse them (issue: prefix matches)
REFUSED_PATHS = ["/metrics", "/mexico", "/gamesfoo", "/variantsxyz", "/authz", "/meh", "/healthzz",
                 "/games/g1/ordersx", "/games/g1/orders/x", "/games/g1/streams", "/playx", "/staticfoo",
                 "/docsx", "/openapi.jsonx", "/me.json"]


def test_nginx_routes_every_public_path_to_the_service_that_serves_it():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    upstreams = nginx_upstreams(conf)
    for name in SERVICES:
        _, port = served(compose["services"][name]["command"])
        assert upstreams[name] == port
    for path, service in SAMPLE_PATHS.items():
        assert nginx_route(conf, path) == service, path
        assert app_serves(import_app(f"services.{service}.api:create_app"), path), f"{service} does not serve {path}"


def test_the_web_clients_pages_go_to_the_lobby():
    """The pages are not in the OpenAPI document (docs/web.md), so they are checked here: nginx
    and the Ingress route them to the lobby, whose app serves them (tests/web/test_pages.py)."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert re.search(r"location\s+=\s+/\s*{\s*proxy_pass\s+http://lobby;", conf)
    pages = ["/play/g1", "/static/game.js"]
    assert [nginx_route(conf, path) for path in pages] == ["lobby", "lobby"]
    assert [ingress_route(ingress_paths(), path) for path in ["/", *pages]] == [("entente-lobby", 8001)] * 3


def test_dockerfile_default_command_exists():
    text = (ROOT / "deploy" / "Dockerfile").read_text()
    cmd = re.search(r"^CMD (\[.*\])$", text, re.M)
    assert cmd is not None, "the Dockerfile has no CMD"
    command = yaml.safe_load(cmd.group(1))
    name, port = served(command)
    import_app(f"services.{name}.api:create_app")
    expose = re.search(r"^EXPOSE (.*)$", text, re.M)
    assert expose is not None, "the Dockerfile exposes no port"
    exposed = {int(p) for p in expose.group(1).split()}
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    ports = {served(compose["services"][n]["command"])[1] for n in SERVICES}
    ports |= {worker_health(compose["services"][n]["command"])[1].health_port for n in HEALTH_LISTENERS}
    ports.add(worker_health(compose["services"]["daide"]["command"])[1].port)
    assert exposed == ports


def test_dockerfile_builds_from_what_the_install_needs():
    """The build stage copies every file ``pip install .`` reads (setup.py compiles the engine)
    and nothing that does not exist; the image installs the wheel that stage built."""
    text = (ROOT / "deploy" / "Dockerfile").read_text()
    copied = [line.split()[1:-1] for line in text.splitlines() if line.startswith("COPY ") and "--from" not in line]
    sources = {name for names in copied for name in names}
    assert {"pyproject.toml", "setup.py", "README.md", "shared", "services"} <= sources
    assert all((ROOT / name).exists() for name in sources), sources
    assert re.search(r"^RUN pip wheel .* \.$", text, re.M)
    assert re.search(r"^COPY --from=build /wheels /wheels$", text, re.M)


def kubernetes_container(name: str) -> tuple[list[dict], dict]:
    documents = load_yaml_documents(ROOT / "deploy" / "k8s" / f"{name}.yaml")
    deployment = next(d for d in documents if d["kind"] == "Deployment")
    return documents, deployment["spec"]["template"]["spec"]["containers"][0]


def kubernetes_pod(name: str) -> dict:
    documents = load_yaml_documents(ROOT / "deploy" / "k8s" / f"{name}.yaml")
    return next(d for d in documents if d["kind"] in ("Deployment", "Job"))["spec"]["template"]["spec"]


def secret_files(pod: dict, container: dict) -> set[str]:
    """The settings a container reads from Secret files: the keys of the Secret volume mounted
    at its ENTENTE_SECRETS_DIR, each file named after its variable."""
    directory = next(v["value"] for v in container["env"] if v["name"] == "ENTENTE_SECRETS_DIR")
    mount = next(m for m in container["volumeMounts"] if m["mountPath"] == directory)
    assert mount.get("readOnly") is True
    volume = next(v for v in pod["volumes"] if v["name"] == mount["name"])
    items = volume["secret"]["items"]
    assert all(item["key"] == item["path"] for item in items)
    secret = load_yaml_documents(ROOT / "deploy" / "k8s" / "secret.example.yaml")[0]
    assert volume["secret"]["secretName"] == secret["metadata"]["name"]
    assert {item["key"] for item in items} <= set(secret["stringData"])
    return {item["key"] for item in items}


def assert_env_like_compose(name: str, container: dict, pod: dict) -> None:
    """The same settings as the compose service: from the environment, or (the secrets) from
    Secret files, never from a secret in the environment."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    names = {variable["name"] for variable in container["env"]}
    assert all("valueFrom" not in variable for variable in container["env"]), "a secret in the environment"
    files = secret_files(pod, container)
    assert names | files <= settings_env_names()
    assert (names - {"ENTENTE_SECRETS_DIR"}) | files == set(compose["services"][name]["environment"]), (
        f"{name} sets other variables than compose")


def test_settings_are_read_from_a_secret_volume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from shared.settings import Settings

    (tmp_path / "ENTENTE_DATABASE_URL").write_text("postgresql://entente:s3cret@db:5432/entente\n")
    (tmp_path / "ENTENTE_OPERATOR_TOKEN").write_text("t" * 40 + "\n")
    monkeypatch.setenv("ENTENTE_SECRETS_DIR", str(tmp_path))
    monkeypatch.delenv("ENTENTE_DATABASE_URL", raising=False)
    monkeypatch.delenv("ENTENTE_OPERATOR_TOKEN", raising=False)
    settings = Settings()
    assert settings.database_url == "postgresql://entente:s3cret@db:5432/entente"
    assert settings.operator_secret() == "t" * 40
    monkeypatch.setenv("ENTENTE_DATABASE_URL", "sqlite:///./other.db")  # the environment wins
    assert Settings().database_url == "sqlite:///./other.db"


@pytest.mark.parametrize("name", SERVICES)
def test_kubernetes_deployment_matches_the_code(name):
    documents, container = kubernetes_container(name)
    service = next(d for d in documents if d["kind"] == "Service")
    served_name, port = served(container["command"])
    app = import_app(f"services.{name}.api:create_app")
    assert served_name == name
    assert container["ports"][0]["containerPort"] == port
    assert service["spec"]["ports"][0]["targetPort"] == port
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"]["port"] == port
        assert app_serves(app, container[probe]["httpGet"]["path"])
    assert_env_like_compose(name, container, kubernetes_pod(name))


@pytest.mark.parametrize("name", WORKERS)
def test_kubernetes_workers_probe_their_health_listener(name):
    """Readiness asks /healthz (a sweep succeeded lately), liveness /livez (the loop turns), on
    the port the worker's health listener is told to open, on every address (the kubelet
    probes the pod's address)."""
    from services.cli.health import Heartbeat, answer

    documents, container = kubernetes_container(name)
    assert not [d for d in documents if d["kind"] == "Service"], "nothing connects to a worker"
    command_name, args = worker_health(container["command"])
    assert command_name == name and args.health_host == "0.0.0.0"
    assert container["ports"][0]["containerPort"] == args.health_port
    probes = {kind: container[kind]["httpGet"] for kind in ("readinessProbe", "livenessProbe")}
    assert {kind: probe["port"] for kind, probe in probes.items()} == {
        "readinessProbe": args.health_port, "livenessProbe": args.health_port}
    assert (probes["readinessProbe"]["path"], probes["livenessProbe"]["path"]) == ("/healthz", "/livez")
    heartbeat = Heartbeat(name, args.health_stale)
    heartbeat.beat(True)
    for probe in probes.values():
        assert answer(heartbeat, f"GET {probe['path']} HTTP/1.1").startswith(b"HTTP/1.1 200 ")
    assert_env_like_compose(name, container, kubernetes_pod(name))


def ingress_route(paths: list[dict], path: str) -> tuple[str, int] | None:
    """The backend (service name, port) ingress-nginx picks for a path of a host whose Ingress
    sets use-regex: every path, whatever its pathType, becomes a ``location ~* "^path"``, a
    case-insensitive regular expression anchored at its start only, tried longest first
    (ingress-nginx's documented order). An Exact ``/`` is therefore ``^/``, which matches every
    path (kubernetes/ingress-nginx#10618; docs/deploy.md, "The proxy"). None when no rule
    matches (the controller's default backend: 404)."""
    for rule in sorted(paths, key=lambda r: -len(r["path"])):
        if re.match(rule["path"], path, re.IGNORECASE):
            backend = rule["backend"]["service"]
            return backend["name"], backend["port"]["number"]
    return None


def test_prometheus_finds_every_entente_process_of_the_cluster():
    """deploy/prometheus-k8s.yml keeps the pods labelled app=entente by their ports named http or
    health: every Deployment's container has exactly one such port, its metrics' port, and is
    given the metrics token from the Secret; the network policy admits Prometheus to it."""
    scrape = yaml.safe_load((ROOT / "deploy" / "prometheus-k8s.yml").read_text())["scrape_configs"]
    keep = {tuple(rule["source_labels"]): rule["regex"] for rule in scrape[0]["relabel_configs"]
            if rule.get("action") == "keep"}
    assert keep == {("__meta_kubernetes_pod_label_app",): "entente",
                    ("__meta_kubernetes_pod_container_port_name",): "http|health"}
    policy = next(doc for doc in manifests() if doc["metadata"]["name"] == "entente-metrics-from-prometheus")
    admitted = {port["port"] for port in policy["spec"]["ingress"][0]["ports"]}
    scraped = set()
    for doc in manifests():
        if doc["kind"] != "Deployment" or doc["spec"]["template"]["metadata"]["labels"].get("app") != "entente":
            continue
        pod = doc["spec"]["template"]["spec"]
        container = pod["containers"][0]
        ports = [p["containerPort"] for p in container["ports"] if re.fullmatch(keep[
            ("__meta_kubernetes_pod_container_port_name",)], p["name"])]
        assert len(ports) == 1, doc["metadata"]["name"]
        scraped.add(doc["metadata"]["name"])
        assert ports[0] in admitted, doc["metadata"]["name"]
        items = {item["key"] for volume in pod["volumes"] if "secret" in volume for item in volume["secret"]["items"]}
        assert "ENTENTE_METRICS_TOKEN" in items, doc["metadata"]["name"]
    assert scraped == {f"entente-{name}" for name in (*SERVICES, *HEALTH_LISTENERS)}


def test_the_ingress_simulation_reads_an_exact_path_as_ingress_nginx_does():
    """Under use-regex an Exact path is no exact match: ``/`` alone would route /metrics to the
    lobby. The simulation above must see it, as the controller does."""
    lobby = {"service": {"name": "entente-lobby", "port": {"number": 8001}}}
    exact_root = [{"path": "/", "pathType": "Exact", "backend": lobby}]
    assert ingress_route(exact_root, "/metrics") == ("entente-lobby", 8001)
    anchored = [{"path": "/$", "pathType": "ImplementationSpecific", "backend": lobby}]
    assert ingress_route(anchored, "/") == ("entente-lobby", 8001) and ingress_route(anchored, "/metrics") is None
    assert all(rule["pathType"] == "ImplementationSpecific" for rule in ingress_paths()), "no Exact or Prefix path"


def ingress_paths() -> list[dict]:
    ingress = load_yaml_documents(ROOT / "deploy" / "k8s" / "ingress.yaml")[0]
    assert ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/use-regex"] == "true"
    return ingress["spec"]["rules"][0]["http"]["paths"]


def test_kubernetes_ingress_routes_like_nginx():
    services = {}
    for name in SERVICES:
        for doc in load_yaml_documents(ROOT / "deploy" / "k8s" / f"{name}.yaml"):
            if doc["kind"] == "Service":
                services[doc["metadata"]["name"]] = (name, doc["spec"]["ports"][0]["port"])
    paths = ingress_paths()
    for path, expected in SAMPLE_PATHS.items():
        found = ingress_route(paths, path)
        assert found is not None, f"the ingress routes nothing for {path}"
        name, port = services[found[0]]
        assert (name, port) == (expected, found[1]), path
    for path in ("/", "/play/g1", "/static/game.js", "/healthz", "/openapi.json", "/docs"):
        assert ingress_route(paths, path) == ("entente-lobby", 8001), path


def test_the_proxy_and_the_ingress_refuse_every_other_path():
    """Exact paths and whole segments only: a path that merely starts like a public one
    (/metrics like /me, /gamesfoo like /games) reaches no service, in nginx and the Ingress."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    paths = ingress_paths()
    for path in REFUSED_PATHS:
        assert nginx_route(conf, path) is None, f"nginx passes {path} to {nginx_route(conf, path)}"
        assert ingress_route(paths, path) is None, f"the ingress passes {path} to {ingress_route(paths, path)}"
    assert nginx_route(conf, "/openapi.json") == nginx_route(conf, "/docs") == "lobby"


# ----------------------------------------------------------------------------- hardening

WORKLOAD_KINDS = ("Deployment", "StatefulSet", "Job")


def manifests() -> list[dict]:
    return [doc for path in sorted((ROOT / "deploy" / "k8s").glob("*.yaml")) for doc in load_yaml_documents(path)]


def project_version() -> str:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_every_workload_runs_unprivileged_within_its_resources() -> None:
    """Non-root, a read-only root file system, no privilege escalation, no capabilities, the
    runtime's seccomp profile, no service account token, requests and limits, an image pinned
    to a version (the release's for entente), in the entente namespace."""
    workloads = [doc for doc in manifests() if doc["kind"] in WORKLOAD_KINDS]
    assert len(workloads) == len(SERVICES) + len(HEALTH_LISTENERS) + 2  # + postgres, the migration
    for doc in manifests():
        if doc["kind"] != "Namespace":
            assert doc["metadata"]["namespace"] == "entente", doc["metadata"]["name"]
    for doc in workloads:
        pod = doc["spec"]["template"]["spec"]
        assert pod["automountServiceAccountToken"] is False
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
        for container in pod["containers"]:
            where = f"{doc['metadata']['name']}/{container['name']}"
            image, _, tag = container["image"].partition(":")
            assert tag and tag != "latest", where
            if image == "entente":
                assert tag == project_version(), where
                assert pod["securityContext"]["runAsUser"] == 10001, where
            for kind in ("requests", "limits"):
                assert set(container["resources"][kind]) == {"cpu", "memory"}, where
            security = container["securityContext"]
            assert security["allowPrivilegeEscalation"] is False and security["privileged"] is False, where
            assert security["readOnlyRootFilesystem"] is True and security["capabilities"] == {"drop": ["ALL"]}, where


def test_the_deployments_probe_start_readiness_and_liveness_apart() -> None:
    """Readiness asks the store (/healthz), liveness and start-up only whether the process
    answers (/livez): a pod whose database is away leaves the rotation and is not restarted."""
    for doc in manifests():
        if doc["kind"] != "Deployment":
            continue
        container = doc["spec"]["template"]["spec"]["containers"][0]
        paths = {kind: container[kind]["httpGet"]["path"] for kind in ("startupProbe", "readinessProbe",
                                                                       "livenessProbe")}
        assert paths == {"startupProbe": "/livez", "readinessProbe": "/healthz", "livenessProbe": "/livez"}, paths
        ports = {container[kind]["httpGet"]["port"] for kind in ("startupProbe", "readinessProbe", "livenessProbe")}
        assert len(ports) == 1


def test_the_http_services_drain_scale_and_keep_a_replica_through_disruptions() -> None:
    from services.cli.serve import _parser as serve_parser

    graceful = serve_parser("serve").parse_args([]).graceful_timeout
    documents = manifests()
    by_kind: dict[str, dict[str, dict]] = {}
    for doc in documents:
        by_kind.setdefault(doc["kind"], {})[doc["metadata"]["name"]] = doc
    for name in (*SERVICES, *WORKERS):
        deployment = by_kind["Deployment"][f"entente-{name}"]
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        budget = by_kind["PodDisruptionBudget"][f"entente-{name}"]
        assert budget["spec"]["minAvailable"] == 1
        assert budget["spec"]["selector"]["matchLabels"].items() <= labels.items()
        assert deployment["spec"]["replicas"] >= 2
    for name in SERVICES:
        pod = by_kind["Deployment"][f"entente-{name}"]["spec"]["template"]["spec"]
        pause = pod["containers"][0]["lifecycle"]["preStop"]["exec"]["command"]
        assert pause[0] == "sleep"
        assert pod["terminationGracePeriodSeconds"] >= int(pause[1]) + graceful  # the pause, then the drain
        autoscaler = by_kind["HorizontalPodAutoscaler"][f"entente-{name}"]
        assert autoscaler["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment",
                                                        "name": f"entente-{name}"}
        assert autoscaler["spec"]["minReplicas"] >= 2


def test_only_the_ingress_reaches_the_services_and_only_entente_the_database() -> None:
    policies = {doc["metadata"]["name"]: doc["spec"] for doc in manifests() if doc["kind"] == "NetworkPolicy"}
    deny = policies["entente-default-deny"]
    assert deny == {"podSelector": {}, "policyTypes": ["Ingress"]}  # no rule: nothing is let in
    http = policies["entente-http-from-the-ingress"]
    assert http["ingress"][0]["from"] == [{"namespaceSelector": {"matchLabels": {
        "kubernetes.io/metadata.name": "ingress-nginx"}}}]
    database = policies["entente-database-from-entente"]
    assert database["podSelector"] == {"matchLabels": {"app": "entente-postgres"}}
    assert database["ingress"] == [{"from": [{"podSelector": {"matchLabels": {"app": "entente"}}}],
                                    "ports": [{"port": 5432}]}]
    for doc in manifests():  # every HTTP service's pods are the ones the ingress may reach
        if doc["kind"] in WORKLOAD_KINDS and doc["metadata"]["name"] != "entente-postgres":
            labels = doc["spec"]["template"]["metadata"]["labels"]
            assert labels["app"] == "entente"
            assert (labels["tier"] == "http") == (labels["service"] in SERVICES), labels
    ports = {port["port"] for port in http["ingress"][0]["ports"]}
    assert ports == {served(kubernetes_container(name)[1]["command"])[1] for name in SERVICES}


def test_the_ingress_serves_tls_only() -> None:
    ingress = load_yaml_documents(ROOT / "deploy" / "k8s" / "ingress.yaml")[0]
    hosts = [rule["host"] for rule in ingress["spec"]["rules"]]
    assert ingress["spec"]["tls"][0]["hosts"] == hosts and ingress["spec"]["tls"][0]["secretName"]
    assert ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/force-ssl-redirect"] == "true"


def test_the_daide_server_runs_like_compose() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    documents, container = kubernetes_container("daide")
    assert container["command"] == compose["services"]["daide"]["command"]
    name, args = worker_health(container["command"])
    assert name == "daide" and args.host == "0.0.0.0" and args.health_host == "0.0.0.0"
    low, high = args.game_ports  # the games' own ports (docs/bots.md, "A port per game"): every one exposed
    game_ports = set(range(low, high + 1))
    assert {port["containerPort"] for port in container["ports"]} == {args.port, args.health_port, *game_ports}
    service = next(doc for doc in documents if doc["kind"] == "Service")
    assert service["spec"]["ports"][0]["targetPort"] == args.port
    assert {(p["port"], p["targetPort"]) for p in service["spec"]["ports"][1:]} == {(p, p) for p in game_ports}
    assert compose["services"]["daide"]["ports"] == [f"{args.port}:{args.port}", f"{low}-{high}:{low}-{high}"]
    assert_env_like_compose("daide", container, kubernetes_pod("daide"))


def test_the_migration_runs_before_everything_else() -> None:
    """Compose: a one-shot service every entente service waits for; Kubernetes: a Job."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    migrate = compose["services"]["migrate"]
    assert migrate["restart"] == "no" and "build" in migrate
    for name in (*SERVICES, *HEALTH_LISTENERS):
        service = compose["services"][name]
        assert service["depends_on"] == {"migrate": {"condition": "service_completed_successfully"}}, name
        assert service["image"] == migrate["image"] and "build" not in service, name  # built once
        assert service["restart"] == "unless-stopped" and service["read_only"] is True, name
        assert service["deploy"]["resources"]["limits"], name
    assert compose["services"]["proxy"]["healthcheck"]["test"][-1].endswith("/proxy-health")
    job = load_yaml_documents(ROOT / "deploy" / "k8s" / "migrate.yaml")[0]
    container = job["spec"]["template"]["spec"]["containers"][0]
    assert container["command"] == migrate["command"]
    assert_env_like_compose("migrate", container, kubernetes_pod("migrate"))


def test_the_image_runs_unprivileged_from_pinned_versions() -> None:
    from packaging.requirements import Requirement

    text = (ROOT / "deploy" / "Dockerfile").read_text()
    assert re.search(r"^USER 10001:10001$", text, re.M)
    assert re.search(r"^HEALTHCHECK .*CMD \[\"entente\", \"health\", \"http://127\.0\.0\.1:8001/healthz\"\]$", text,
                     re.M)
    assert re.search(rf"^ARG ENTENTE_VERSION={re.escape(project_version())}$", text, re.M)
    assert "--constraint constraints.txt" in text and "PIP_CONSTRAINT=" in text
    pins = dict(line.split("==") for line in (ROOT / "deploy" / "constraints.txt").read_text().splitlines()
                if line and not line.startswith("#"))
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for text_requirement in project["project"]["dependencies"] + ["mypy>=2.4,<3"]:
        requirement = Requirement(text_requirement)
        name = re.sub(r"[-_.]+", "-", requirement.name).lower()
        assert name in pins, f"{name} is not pinned in deploy/constraints.txt"
        assert requirement.specifier.contains(pins[name]), (name, pins[name], str(requirement.specifier))
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert ignored[1] == "*" and "!deploy/constraints.txt" in ignored  # only what the build copies
