"""Shared fixtures: paths of the repository and of the shared benchmark data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
