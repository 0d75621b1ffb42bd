"""What each interval of chapter 7 costs, against one plain ``cross_val_score``.

Usage::

    .venv/bin/python benchmarks/bench_intervals.py                      # n = 500, LDA and SVM
    .venv/bin/python benchmarks/bench_intervals.py --n 200 --learners lda --no-save

On one twonorm data set of ``n`` points, for each learner it times

* ``cross_val_score`` -- scikit-learn's 5-fold score, the baseline every ratio is taken
  against (5 fits), in the same process;
* each interval of :mod:`cvbook.intervals` at the settings of the chapter's study
  (:data:`cvbook.studies.interval_coverage.SETTINGS`) and, for the two costly ones, at the
  functions' own defaults.

It reports, for each method, its number of fits and its time as ratios to the baseline's.
Times are the CPU time of the process (``time.process_time``), the minimum over
``--repeats`` interleaved runs, with BLAS limited to one thread: on a shared machine the
wall time measures the other users' load as much as this code. The record, with its
provenance, goes to ``results/benchmarks/bench_intervals.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from sklearn.model_selection import cross_val_score
from threadpoolctl import threadpool_limits

from cvbook.datasets import Twonorm
from cvbook.intervals import (
    conservative_z_interval,
    corrected_t_interval,
    cv_wald_interval,
    holdout_interval,
    nested_cv_interval,
)
from cvbook.learners import get_learner
from cvbook.provenance import atomic_write_text, git_commit, package_versions
from cvbook.studies.interval_coverage import INTERVAL_LEARNERS, SETTINGS

ROOT = Path(__file__).resolve().parents[1]


def methods() -> dict:
    """``name -> (function, keyword arguments)`` of every timed method."""
    s = SETTINGS
    return {
        "holdout_cp": (holdout_interval, dict(s["holdout"])),
        "cv_wald": (cv_wald_interval, dict(s["cv_wald"])),
        "corrected_t": (corrected_t_interval, dict(s["corrected_t"])),
        "conservative_z (study: J=5, M=10)": (conservative_z_interval, dict(s["conservative_z"])),
        "conservative_z (J=15, M=10)": (conservative_z_interval, {}),
        "nested_cv (study: K=5, R=10)": (nested_cv_interval, dict(s["nested_cv"])),
        "nested_cv (K=5, R=20)": (nested_cv_interval, {}),
    }


def bench(n: int, learner: str, repeats: int, seed: int) -> dict:
    """Fits and CPU-time ratios of every method for one learner on one data set."""
    X, y = Twonorm().sample(n, random_state=seed)
    est = get_learner(learner, INTERVAL_LEARNERS, "learner").make()
    timed = methods()
    best = {name: float("inf") for name in ["cross_val_score", *timed]}
    fits = {"cross_val_score": 5}
    for _ in range(repeats):  # interleaved, so a burst of load hits every method alike
        t0 = time.process_time()
        cross_val_score(est, X, y, cv=5)
        best["cross_val_score"] = min(best["cross_val_score"], time.process_time() - t0)
        for name, (fn, kw) in timed.items():
            t0 = time.process_time()
            r = (
                fn(est, X, y, random_state=seed, n_jobs=1, **kw)
                if "holdout" not in name
                else fn(est, X, y, random_state=seed, **kw)
            )
            best[name] = min(best[name], time.process_time() - t0)
            fits[name] = r.n_fits
    base_t, base_f = best["cross_val_score"], fits["cross_val_score"]
    return {
        name: {
            "fits": fits[name],
            "fits_ratio": fits[name] / base_f,
            "cpu_s": round(best[name], 4),
            "time_ratio": round(best[name] / base_t, 2),
        }
        for name in best
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument(
        "--learners", nargs="+", default=["lda", "svm"], choices=["lda", "logreg", "svm"]
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args(argv)
    if args.n < 40 or args.repeats < 1:
        parser.error("--n must be >= 40 and --repeats >= 1")
    commit = git_commit()
    start = time.time()
    results = {}
    with threadpool_limits(1):
        for learner in args.learners:
            results[learner] = bench(args.n, learner, args.repeats, args.seed)
            print(f"\n{learner}, n = {args.n} (ratios to one 5-fold cross_val_score)")
            print(f"{'method':36s} {'fits':>6s} {'x fits':>7s} {'CPU s':>8s} {'x time':>7s}")
            for name, r in results[learner].items():
                print(
                    f"{name:36s} {r['fits']:6d} {r['fits_ratio']:7.1f} {r['cpu_s']:8.3f} "
                    f"{r['time_ratio']:7.1f}"
                )
    record = {
        "results": results,
        "provenance": {
            "command": "python benchmarks/bench_intervals.py "
            + " ".join(sys.argv[1:] if argv is None else argv),
            "n": args.n,
            "repeats": args.repeats,
            "seed": args.seed,
            "data": "twonorm",
            "timer": "process_time, min over repeats",
            "versions": package_versions(),
            "commit": commit,
            "cpu_count": os.cpu_count(),
            "wall_time_s": round(time.time() - start, 1),
            "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        },
    }
    if not args.no_save:
        path = ROOT / "results" / "benchmarks" / "bench_intervals.json"
        atomic_write_text(path, json.dumps(record, indent=1) + "\n")
        print(f"\nwrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
