"""Shared fixtures: paths of the repository and of the shared benchmark data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

#: No per-example deadline for the property tests: speed is measured in ``benchmarks/``
#: as ratios, never in timed tests, and hypothesis's default 200 ms fails on a loaded
#: 2-core machine (``test_zero_one_matches_sklearn`` took 1,068 ms at a load of 6).
settings.register_profile("cvbook", deadline=None)
settings.load_profile("cvbook")

ROOT = Path(__file__).resolve().parents[1]
#: Rätsch benchmarks as the paper used them, outside the repository (never committed).
SHARED_RAETSCH = Path(
    os.environ.get("CVBOOK_SHARED_RAETSCH", ROOT.parent / "shared" / "data" / "raetsch")
)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def raetsch_dir() -> Path:
    """The shared Rätsch folder; skips without it, fails under CI=true (requires_raetsch)."""
    from cvbook.datasets.raetsch import requires_raetsch

    return requires_raetsch(SHARED_RAETSCH)


def pytest_configure(config) -> None:
    """One seed for the random legal draws of ``tests/test_papermill.py`` in this session:
    ``CVBOOK_DRAW_SEED`` when set (``make papermill`` sets it), else a fresh one, put in
    the environment so that every process of the session draws the same."""
    if not os.environ.get("CVBOOK_DRAW_SEED"):
        import secrets

        os.environ["CVBOOK_DRAW_SEED"] = str(secrets.randbelow(2**32))


def pytest_report_header(config) -> str | None:
    if not any("test_papermill" in str(arg) for arg in config.args):
        return None
    return (
        f"random parameter draws (tests/test_papermill.py): "
        f"CVBOOK_DRAW_SEED={os.environ['CVBOOK_DRAW_SEED']}"
    )
