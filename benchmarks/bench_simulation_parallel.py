"""Speed-up of the repeated-data-set simulation with joblib: n_jobs=2 against n_jobs=1.

The simulation is chapter 3's bias/variance study
(:func:`cvbook.studies.bias_variance.kfold_bias_variance`): each repetition draws a data set,
runs K-fold for every K and measures the true risk of the model trained on all
of it. Repetitions are independent and seeded per task, so they split over
workers with identical results. The script

1. starts joblib's worker pool once (a warm-up run, not timed), so that the
   timing measures the simulation, not the start of two Python processes;
2. times the same simulation with ``n_jobs=1`` and ``n_jobs=2``, alternating,
   ``--rounds`` times each, and keeps the best time of each (the least disturbed
   by other processes on the machine);
3. checks that both give identical estimates and true risks, and prints the ratio;
4. measures the same ratio for a pure-Python busy loop (``--calibrate``, on by
   default): the speed-up the machine itself offers two processes at that moment.
   On a machine shared with other sessions (Linux groups the CPU time by session,
   ``sched_autogroup``), two workers may get no more CPU than one, and this
   calibration ratio then stays near 1 too: the simulation cannot beat it.

Usage::

    python benchmarks/bench_simulation_parallel.py [--repeats 60] [--rounds 2]

It exits with status 1 if the results differ, 2 if the ratio is below ``--target``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from threadpoolctl import threadpool_limits

from cvbook.datasets import TwoGaussians
from cvbook.provenance import atomic_write_text
from cvbook.studies.bias_variance import kfold_bias_variance


def run(n_jobs: int, n_repeats: int, seed: int = 0):
    m = 40
    return kfold_bias_variance(
        LinearDiscriminantAnalysis(),
        TwoGaussians(dim=5),
        m=m,
        ks=[2, 3, 5, 10, 20, m],
        n_repeats=n_repeats,
        random_state=seed,
        n_jobs=n_jobs,
        n_test=20_000,
    )


def _burn(rng, n: int = 3_000_000) -> float:
    """A pure-Python busy loop: the speed-up it gets is the machine's, not joblib's."""
    total = 0.0
    for i in range(n):
        total += i
    return total


def calibration_ratio(rounds: int) -> float:
    """Best-of time of 8 busy loops with n_jobs=1 over the same with n_jobs=2."""
    from cvbook.simulation import repeat

    best = {1: float("inf"), 2: float("inf")}
    for _ in range(rounds):
        for n_jobs in (1, 2):
            start = time.perf_counter()
            repeat(_burn, 8, random_state=0, n_jobs=n_jobs)
            best[n_jobs] = min(best[n_jobs], time.perf_counter() - start)
    return best[1] / best[2]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=60, help="data sets per run")
    parser.add_argument("--rounds", type=int, default=2, help="timed runs per n_jobs")
    parser.add_argument("--target", type=float, default=1.7, help="ratio to reach")
    parser.add_argument(
        "--no-calibrate",
        dest="calibrate",
        action="store_false",
        help="skip the busy-loop measure of the machine's own speed-up",
    )
    parser.add_argument(
        "--json",
        default=None,
        help="also write the timings and the ratio to this JSON file "
        "(results/benchmarks/bench_simulation_parallel.json, read by chapter 3)",
    )
    args = parser.parse_args(argv)

    print(
        f"cores visible: {os.cpu_count()}; repetitions per run: {args.repeats}; "
        f"load average before: {os.getloadavg()[0]:.1f}"
    )
    # One BLAS thread in this process too, as joblib's workers have: the n_jobs=1
    # baseline must not use a second core behind our back.
    with threadpool_limits(limits=1):
        run(2, 4)  # warm-up: starts the worker pool
        times = {1: [], 2: []}
        results = {}
        for _ in range(args.rounds):
            for n_jobs in (1, 2):
                start = time.perf_counter()
                results[n_jobs] = run(n_jobs, args.repeats)
                times[n_jobs].append(time.perf_counter() - start)

        calib = calibration_ratio(args.rounds) if args.calibrate else None

    same = np.array_equal(results[1].estimates, results[2].estimates) and np.array_equal(
        results[1].truths, results[2].truths
    )
    t1, t2 = min(times[1]), min(times[2])
    ratio = t1 / t2
    for n_jobs, best in ((1, t1), (2, t2)):
        every = ", ".join(f"{t:.2f}" for t in times[n_jobs])
        print(f"n_jobs={n_jobs}: best of {args.rounds}: {best:.2f} s  (all: {every})")
    print(f"identical results for n_jobs=1 and n_jobs=2: {same}")
    load = os.getloadavg()[0]
    busy = load > (os.cpu_count() or 1)
    print(
        f"load average after: {load:.1f}"
        + (
            " (above the core count: other processes compete "
            "for the cores and the ratio understates the speed-up)"
            if busy
            else ""
        )
    )
    if calib is not None:
        print(f"machine's own speed-up for 2 processes (busy loop, same measure): {calib:.2f}")
    print(f"speed-up ratio (n_jobs=1 time / n_jobs=2 time): {ratio:.2f}")
    if args.json:
        record = {
            "script": "benchmarks/bench_simulation_parallel.py",
            "command": " ".join([os.path.basename(sys.executable), *sys.argv]),
            "simulation": "kfold_bias_variance(LDA, TwoGaussians(dim=5), m=40, "
            "ks=[2, 3, 5, 10, 20, 40], n_test=20000)",
            "n_repeats": args.repeats,
            "rounds": args.rounds,
            "seconds_n_jobs_1": times[1],
            "seconds_n_jobs_2": times[2],
            "ratio": ratio,
            "identical": bool(same),
            "calibration_ratio": calib,
            "cpu_count": os.cpu_count(),
            "load_average_after": os.getloadavg()[0],
            "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        atomic_write_text(args.json, json.dumps(record, indent=2) + "\n")
        print(f"written {args.json}")
    if not same:
        return 1
    if ratio < args.target:
        print(f"ratio below the target {args.target} (a busy machine shares its cores)")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
