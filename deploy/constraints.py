"""Writes deploy/constraints.txt: every package the image installs (entente's dependencies and
theirs, and what building entente needs), pinned to the version installed here, where the tests
ran (docs/deploy.md, "The image"). Run it in the project's environment after changing a
dependency, then commit the file:

    .venv/bin/python deploy/constraints.py > deploy/constraints.txt
"""
from __future__ import annotations

import re
import sys
from importlib import metadata

from packaging.markers import default_environment
from packaging.requirements import Requirement

# the package, and mypy (which compiles the engine at build time, pyproject.toml); setuptools,
# the build backend, keeps its floor: the environment here has an older one than a build takes
ROOTS = ["entente", "mypy"]
# the image's Python: Linux, CPython 3.12 (deploy/Dockerfile), whatever runs this script
TARGET = {**default_environment(), "sys_platform": "linux", "platform_system": "Linux", "os_name": "posix",
          "python_version": "3.12", "implementation_name": "cpython", "platform_python_implementation": "CPython"}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def wanted(requirement: Requirement, extras: set[str]) -> bool:
    if requirement.marker is None:
        return True
    return any(requirement.marker.evaluate({**TARGET, "extra": extra}) for extra in (extras or {""}))


def closure(roots: list[str]) -> dict[str, str]:
    """Installed name -> version, for the roots and everything they require on the image."""
    found: dict[str, str] = {}
    queue: list[tuple[str, set[str]]] = [(root, set()) for root in roots]
    seen: set[tuple[str, frozenset[str]]] = set()
    while queue:
        name, extras = queue.pop()
        if (canonical(name), frozenset(extras)) in seen:
            continue
        seen.add((canonical(name), frozenset(extras)))
        distribution = metadata.distribution(name)
        found[canonical(name)] = distribution.version
        for text in distribution.requires or []:
            requirement = Requirement(text)
            if wanted(requirement, extras):
                queue.append((requirement.name, set(requirement.extras)))
    return found


def main() -> None:
    pins = closure(ROOTS)
    pins.pop("entente", None)
    print("# every package of the image, pinned: made by deploy/constraints.py (do not edit by hand)")
    for name in sorted(pins):
        print(f"{name}=={pins[name]}")


if __name__ == "__main__":
    main()
    sys.exit(0)
