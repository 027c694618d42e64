"""docker-compose.yml, deploy/nginx.conf and deploy/k8s cannot run here (no container engine).

These tests parse them and check that every command, module path, port, route and environment
variable they name exists in the code, so that the manifests cannot silently rot.
"""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ("lobby", "adjudication", "visibility", "accounts", "press", "notifications")
# Where each public path must be served (docs/api.md); every path of the combined app is checked.
SERVICE_OF_PATH = [
    (r"^/games/[^/]+/(orders|resolve|possible-orders|ready)$", "adjudication"),
    (r"^/games/[^/]+/(view|events|stream|map\.svg|map\.png)$", "visibility"),
    (r"^/variants(/|$)", "visibility"),
    (r"^/games/[^/]+/(bot-tokens(/[^/]+)?|identities)$", "accounts"),
    (r"^/(auth|me)(/|$)", "accounts"),
    (r"^/games/[^/]+/messages$", "press"),
    (r"^/games/[^/]+/webhook$", "notifications"),
    (r"^/games(/|$)", "lobby"),
]


def public_paths() -> dict[str, str]:
    """Every documented path of the combined app (``entente serve``), made concrete, with the
    service that must answer it."""
    from services.app import create_app

    paths = {}
    for template in create_app().openapi()["paths"]:
        if template == "/healthz":
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
    classes = [v for v in vars(module).values() if isinstance(v, type) and issubclass(v, BaseSettings) and v is not BaseSettings]
    assert classes, "shared.settings defines no settings class"
    names = set()
    for cls in classes:
        prefix = cls.model_config.get("env_prefix", "")
        names |= {(prefix + field).upper() for field in cls.model_fields}
    return names


def uvicorn_target(command: list[str]) -> tuple[str, int]:
    assert command[0] == "uvicorn", command
    target = command[1]
    port = int(command[command.index("--port") + 1])
    return target, port


def import_app(target: str):
    module_name, _, attribute = target.partition(":")
    module = importlib.import_module(module_name)
    assert hasattr(module, attribute), f"{module_name} has no attribute {attribute}"
    return getattr(module, attribute)


def app_serves(app, path: str) -> bool:
    """Whether one of the app's documented paths (its OpenAPI document) matches ``path``."""
    templates = app.openapi()["paths"]
    return any(re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", t), path) for t in templates)


def test_compose_commands_ports_and_environment_exist_in_the_code():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    env_names = settings_env_names()
    for name in SERVICES:
        service = compose["services"][name]
        target, port = uvicorn_target(service["command"])
        assert target == f"services.{name}.api:app"
        import_app(target)
        assert str(port) in [str(p) for p in service["expose"]]
        for variable in service["environment"]:
            assert variable in env_names, f"{name} sets {variable}, which no setting reads"
    assert "postgres" in compose["services"] and "proxy" in compose["services"]


def nginx_upstreams(conf: str) -> dict[str, int]:
    return {name: int(port) for name, port in re.findall(r"upstream\s+(\w+)\s*{\s*server\s+\w+:(\d+);", conf)}


def nginx_route(conf: str, path: str) -> str:
    """The upstream nginx picks for a path: regex locations first, in order, then the longest prefix."""
    for pattern, upstream in re.findall(r"location\s+~\s+(\S+)\s*{\s*proxy_pass\s+http://(\w+);", conf):
        if re.search(pattern, path):
            return upstream
    prefixes = re.findall(r"location\s+(/\S*)\s*{\s*proxy_pass\s+http://(\w+);", conf)
    matching = [(len(p), u) for p, u in prefixes if path.startswith(p)]
    assert matching, f"nginx routes nothing for {path}"
    return max(matching)[1]


def test_nginx_routes_every_public_path_to_the_service_that_serves_it():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    upstreams = nginx_upstreams(conf)
    for name in SERVICES:
        _, port = uvicorn_target(compose["services"][name]["command"])
        assert upstreams[name] == port
    for path, service in SAMPLE_PATHS.items():
        assert nginx_route(conf, path) == service, path
        assert app_serves(import_app(f"services.{service}.api:app"), path), f"{service} does not serve {path}"


def test_dockerfile_default_command_exists():
    text = (ROOT / "deploy" / "Dockerfile").read_text()
    command = yaml.safe_load(re.search(r"^CMD (\[.*\])$", text, re.M).group(1))
    import_app(uvicorn_target(command)[0])


@pytest.mark.parametrize("name", SERVICES)
def test_kubernetes_deployment_matches_the_code(name):
    documents = load_yaml_documents(ROOT / "deploy" / "k8s" / f"{name}.yaml")
    deployment = next(d for d in documents if d["kind"] == "Deployment")
    service = next(d for d in documents if d["kind"] == "Service")
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    target, port = uvicorn_target(container["command"])
    app = import_app(target)
    assert target == f"services.{name}.api:app"
    assert container["ports"][0]["containerPort"] == port
    assert service["spec"]["ports"][0]["targetPort"] == port
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"]["port"] == port
        assert app_serves(app, container[probe]["httpGet"]["path"])
    env_names = settings_env_names()
    for variable in container["env"]:
        assert variable["name"] in env_names


def test_kubernetes_ingress_routes_like_nginx():
    ingress = load_yaml_documents(ROOT / "deploy" / "k8s" / "ingress.yaml")[0]
    services = {}
    for name in SERVICES:
        for doc in load_yaml_documents(ROOT / "deploy" / "k8s" / f"{name}.yaml"):
            if doc["kind"] == "Service":
                services[doc["metadata"]["name"]] = (name, doc["spec"]["ports"][0]["port"])
    paths = ingress["spec"]["rules"][0]["http"]["paths"]
    for path, expected in SAMPLE_PATHS.items():
        for rule in paths:
            matches = re.search(rule["path"], path) if rule["pathType"] == "ImplementationSpecific" else path.startswith(rule["path"])
            if matches:
                backend = rule["backend"]["service"]
                name, port = services[backend["name"]]
                assert backend["port"]["number"] == port
                assert name == expected, path
                break
        else:
            pytest.fail(f"the ingress routes nothing for {path}")
