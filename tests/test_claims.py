"""The long-run check of the book's claims: every chapter at its DEFAULT parameters under
three seeds other than the committed one.

Each chapter asserts the comparisons its prose and moral make (a paired difference with
its standard error, a Clopper–Pearson interval for a coverage), so a run that finishes is
a run in which every checked claim held. The smoke runs of ``test_papermill.py`` are too
small for the claims; this check runs the chapters at full size, which takes several
minutes per chapter, so it is not part of ``make test``: run it with ``make claims``
(see the running page). ``CVBOOK_CLAIM_SEEDS`` overrides the seeds (comma-separated).
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import papermill as pm
import pytest
from booktoc import chapter_notebooks

SEEDS = tuple(int(s) for s in os.environ.get("CVBOOK_CLAIM_SEEDS", "101,202,303").split(","))
NOTEBOOKS = [p for p in chapter_notebooks() if "seed" in pm.inspect_notebook(str(p))]


def _run(nb_path: str, seed: int, out_dir: str) -> float:
    t0 = time.perf_counter()
    pm.execute_notebook(
        nb_path,
        str(Path(out_dir) / f"{Path(nb_path).stem}-{seed}.ipynb"),
        parameters={"seed": seed},
        cwd=str(Path(nb_path).parent),
        progress_bar=False,
        log_output=False,
    )
    return time.perf_counter() - t0


@pytest.fixture(scope="session")
def claim_runs(tmp_path_factory) -> dict:
    out_dir = str(tmp_path_factory.mktemp("claims"))
    workers = int(os.environ.get("CVBOOK_PAPERMILL_WORKERS", "2"))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {
            (str(nb), seed): pool.submit(_run, str(nb), seed, out_dir)
            for nb in NOTEBOOKS
            for seed in SEEDS
        }
        results = {}
        for key, future in futures.items():
            try:
                results[key] = future.result()
            except Exception as exc:  # reported by its test
                results[key] = exc
    return results


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_claims_hold_under_another_seed(nb_path: Path, seed: int, claim_runs: dict):
    result = claim_runs[(str(nb_path), seed)]
    if isinstance(result, Exception):
        raise AssertionError(f"{nb_path.name}, seed={seed}: {result}")
    print(f"{nb_path.stem} seed={seed}: {result:.0f} s")
