"""What the bootstrap family costs against 10-fold cross-validation (chapter 9).

For each learner, on one data set of ``--m`` points, the script times (CPU time of the
process, BLAS on one thread, the fastest of ``--rounds`` runs, the two timed in
alternation so that a busy moment of the shared machine hits both):

* 10-fold cross-validation, twice: by :func:`sklearn.model_selection.cross_val_score`
  (10 fits and its own bookkeeping) and by a plain clone-fit-predict loop over the same
  folds (``cv10_loop``, like for like with the bootstrap's own loop);
* :func:`cvbook.bootstrap.bootstrap_estimates` with ``B`` = 50 and 200 samples (``B + 1``
  fits, every point predicted by every sample's model);

and prints the ratio of each to 10-fold in the same process (``ratio_to_cv10`` against
``cross_val_score``, ``ratio_to_cv10_loop`` against the loop). ``--json PATH`` keeps the
record that chapter 9 reads.

Usage::

    python benchmarks/bench_bootstrap.py [--m 200] [--rounds 3] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold, cross_val_score
from threadpoolctl import threadpool_limits

from cvbook.bootstrap import bootstrap_estimates
from cvbook.datasets import TwoGaussians
from cvbook.learners import get_learner
from cvbook.provenance import atomic_write_text, git_commit, package_versions

#: Chapter 9's untuned learners, from the registry (cvbook.learners).
LEARNERS = {name: get_learner(name).make() for name in ("lda", "1nn", "tree")}


def _cpu(f) -> float:
    start = time.process_time()
    f()
    return time.process_time() - start


def _cv_loop(est, X, y, cv) -> float:
    """10-fold by hand: a fresh clone per fold, fit, predict, error (no other work)."""
    return float(
        np.mean(
            [
                np.mean(clone(est).fit(X[tr], y[tr]).predict(X[te]) != y[te])
                for tr, te in cv.split(X, y)
            ]
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--m", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    X, y = TwoGaussians(dim=5).sample(args.m, random_state=0)
    results = {}
    with threadpool_limits(1):
        for name, est in LEARNERS.items():
            cv = StratifiedKFold(10, shuffle=True, random_state=0)
            jobs = {
                "cv10": lambda est=est, cv=cv: cross_val_score(est, X, y, cv=cv),
                "cv10_loop": lambda est=est, cv=cv: _cv_loop(est, X, y, cv),
                "boot50": lambda est=est: bootstrap_estimates(est, X, y, 50, random_state=0),
                "boot200": lambda est=est: bootstrap_estimates(est, X, y, 200, random_state=0),
            }
            times = {k: [] for k in jobs}
            for _ in range(args.rounds):
                for k, f in jobs.items():
                    times[k].append(_cpu(f))
            best = {k: min(v) for k, v in times.items()}
            results[name] = {
                "cpu_s": best,
                "ratio_to_cv10": {k: best[k] / best["cv10"] for k in ("boot50", "boot200")},
                "ratio_to_cv10_loop": {
                    k: best[k] / best["cv10_loop"] for k in ("boot50", "boot200")
                },
                "fits": {"cv10": 10, "cv10_loop": 10, "boot50": 51, "boot200": 201},
            }
            print(
                f"{name:>5}: 10-fold {best['cv10']:.3f} s (loop {best['cv10_loop']:.3f} s) | "
                f"B=50 {results[name]['ratio_to_cv10_loop']['boot50']:.1f}x the loop, "
                f"B=200 {results[name]['ratio_to_cv10_loop']['boot200']:.1f}x"
            )
    if args.json:
        record = {
            "script": "benchmarks/bench_bootstrap.py",
            "m": args.m,
            "rounds": args.rounds,
            "results": results,
            "provenance": {
                "commit": git_commit(),
                "versions": package_versions(),
                "cpu_count": os.cpu_count(),
                "load_average_before": load_before,
                "load_average_after": os.getloadavg()[0],
                "python": platform.python_version(),
                "date_utc": time.strftime("%Y-%m-%dT%H:%M:%S+0000", time.gmtime()),
                "clock": "process CPU time, BLAS on one thread, fastest of the rounds",
            },
        }
        atomic_write_text(args.json, json.dumps(record, indent=1) + "\n")
    assert all(np.isfinite(r["cpu_s"]["cv10"]) for r in results.values())


if __name__ == "__main__":
    main()
