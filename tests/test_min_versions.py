"""constraints-min.txt pins exactly the floors that pyproject.toml declares.

`make unit-min` runs the unit tests in an environment built from constraints-min.txt, so
this test is what makes that run a test of pyproject.toml's floors: a floor raised in one
file and not the other fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
requirements = pytest.importorskip("packaging.requirements")

ROOT = Path(__file__).resolve().parents[1]


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints-min.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep, f"constraints-min.txt: {line!r} is not an exact pin (name==version)"
            pins[_normalise(name)] = version
    return pins


def _floors(reqs: list[str]) -> dict[str, str]:
    floors = {}
    for req in map(requirements.Requirement, reqs):
        lower = [s.version for s in req.specifier if s.operator == ">="]
        assert len(lower) == 1, f"{req.name} must declare one minimum (>=), got {req.specifier}"
        floors[_normalise(req.name)] = lower[0]
    return floors


def _same_version(floor: str, pin: str) -> bool:
    """The pin is the floor, or the floor names a release line (``1.11``) and the pin is
    a patch release of that line (``1.11.1``, when ``1.11.0`` is yanked)."""
    from packaging.version import Version

    f, p = Version(floor), Version(pin)
    return p == f or (len(f.release) == 2 and p.release[:2] == f.release and p >= f)


def test_every_runtime_dependency_is_pinned_at_its_declared_floor():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    floors, pins = _floors(project["dependencies"]), _pins()
    missing = sorted(set(floors) - set(pins))
    assert not missing, f"constraints-min.txt does not pin {missing}"
    wrong = {n: (floors[n], pins[n]) for n in floors if not _same_version(floors[n], pins[n])}
    assert not wrong, f"(pyproject floor, constraints-min pin) differ: {wrong}"


def test_the_test_tools_are_pinned_at_their_declared_floor():
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]["test"]
    floors = {n: v for n, v in _floors(extra).items() if n in ("pytest", "hypothesis")}
    pins = _pins()
    assert set(floors) == {"pytest", "hypothesis"}
    for name, floor in floors.items():
        assert _same_version(pins[name], floor), f"{name}: floor {floor}, pinned {pins[name]}"
