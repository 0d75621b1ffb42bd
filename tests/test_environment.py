"""pyproject.toml and environment.yml list the same dependencies; constraints pin them all."""

from __future__ import annotations

import re

import tomllib
import yaml
from booktoc import ROOT
from packaging.requirements import Requirement


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pyproject() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in ("book", "test"):
        reqs += project["optional-dependencies"][extra]
    out: dict[str, str] = {}
    for r in map(Requirement, reqs):
        spec = ",".join(sorted(str(s) for s in r.specifier))
        name = _normalise(r.name)
        assert out.get(name, spec) == spec, f"{name} has two different specs in pyproject.toml"
        out[name] = spec
    return out


def _environment() -> dict[str, str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    out: dict[str, str] = {}
    for dep in env["dependencies"]:
        if not isinstance(dep, str):
            continue
        r = Requirement(dep.replace("=", "==", 1) if re.match(r"^[\w.-]+=[^=<>]", dep) else dep)
        if _normalise(r.name) in {"python", "pip"}:
            continue
        out[_normalise(r.name)] = ",".join(sorted(str(s) for s in r.specifier))
    return out


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    py, env = _pyproject(), _environment()
    assert set(py) == set(env), (
        f"only in pyproject.toml: {sorted(set(py) - set(env))}; "
        f"only in environment.yml: {sorted(set(env) - set(py))}"
    )
    differing = {k: (py[k], env[k]) for k in py if py[k] != env[k]}
    assert not differing, f"version specs differ (pyproject, environment.yml): {differing}"


def test_constraints_pin_every_dependency():
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[_normalise(name)] = version
    missing = sorted(set(_pyproject()) - set(pins))
    assert not missing, f"constraints.txt does not pin {missing}"
    for name, spec in _pyproject().items():
        assert Requirement(f"{name}{spec}").specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {name}=={pins[name]}, outside pyproject's {spec}"
        )
