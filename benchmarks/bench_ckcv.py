"""Speed of CompleteKCV against a plain loop that refits SVC(kernel="rbf") per split.

Both run Algorithm 1 of Anguita et al. (2012) on the same Monte Carlo splits
(:class:`cvbook.ckcv.ThreeWaySplit`, seeded per (seed, k, split)) with the same
grid (:data:`cvbook.sweep.TABLE1_GRID`) on one realisation of a Rätsch
benchmark, and must select the same (C, gamma, k). Printed: wall time and CPU
time of the process (the machine may be shared; the CPU time of a serial run
is the steadier figure), and the ratios.

Run from the repository root::

    CVBOOK_DATA=../shared/data/raetsch .venv/bin/python benchmarks/bench_ckcv.py [--dataset banana]

Targets: >= 3x faster than the loop on one core, >= 1.7x more with two.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.svm import SVC

from cvbook.bounds import clopper_pearson_upper
from cvbook.ckcv import CompleteKCV, ThreeWaySplit
from cvbook.datasets.raetsch import load_raetsch
from cvbook.sweep import TABLE1_GRID


def plain_loop(X, y, Cs, gammas, k_values, n_splits, delta, seed):
    """Algorithm 1 with an SVC(kernel="rbf") refit on raw features for every split."""
    best = (np.inf, None)
    for k in sorted(k_values):
        splits = list(ThreeWaySplit(k, n_splits, seed).split(X))
        m = len(y) // k
        for C in Cs:
            for g in gammas:
                ms_err, ee_err = [], []
                for tr, ms, ee in splits:
                    f = SVC(kernel="rbf", C=C, gamma=g).fit(X[tr], y[tr])
                    ms_err.append(np.sum(f.predict(X[ms]) != y[ms]))
                    trms = np.sort(np.concatenate([tr, ms]))
                    f = SVC(kernel="rbf", C=C, gamma=g).fit(X[trms], y[trms])
                    ee_err.append(np.sum(f.predict(X[ee]) != y[ee]))
                L_ms = float(np.mean(clopper_pearson_upper(ms_err, m, delta)))
                L_ee = float(np.mean(clopper_pearson_upper(ee_err, m, delta)))
                if L_ms < best[0]:
                    best = (L_ms, (C, g, k), L_ee)
    return best


def _burn(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i
    return s


def available_parallelism() -> float:
    """Wall-time ratio n_jobs=1 / n_jobs=2 of a pure-Python CPU job: what two workers can get.

    On a dedicated 2-core machine it is close to 2; on a shared one it says how much of
    the second core is really there, so the ratio of CompleteKCV can be read against it.
    """
    from joblib import Parallel, delayed
    times = []
    for n_jobs in (1, 2):
        t = time.perf_counter()
        Parallel(n_jobs=n_jobs)(delayed(_burn)(2_000_000) for _ in range(8))
        times.append(time.perf_counter() - t)
    return times[0] / times[1]


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dataset", default="banana")
    p.add_argument("--realisation", type=int, default=1)
    a = p.parse_args()
    grid = TABLE1_GRID
    X, y, _, _ = load_raetsch(a.dataset, a.realisation)
    gammas = grid.gammas(X)
    seed = grid.random_state(a.dataset, a.realisation)
    print(f"{a.dataset} r{a.realisation}: n={len(y)}, d={X.shape[1]}; grid {len(grid.C_values)} C "
          f"x {len(gammas)} gamma x k {list(grid.k_values)}, l_MC={grid.n_splits}")

    base, t_base, c_base = timed(lambda: plain_loop(
        X, y, grid.C_values, gammas, grid.k_values, grid.n_splits, grid.delta, seed))

    def ckcv(n_jobs):
        return CompleteKCV(param_grid={"C": list(grid.C_values), "gamma": gammas},
                           k_values=list(grid.k_values), n_splits=grid.n_splits,
                           delta=grid.delta, random_state=seed, n_jobs=n_jobs).fit(X, y)

    m1, t1, c1 = timed(lambda: ckcv(1))
    # Start joblib's two workers, and let them import scikit-learn, before timing:
    # a long run (the sweep) pays that once.
    CompleteKCV(param_grid={"C": [1.0], "gamma": [1.0]}, k_values=[3], n_splits=4,
                random_state=0, n_jobs=2).fit(X[:60], y[:60])
    m2, t2, _ = timed(lambda: ckcv(2))
    for m in (m1, m2):
        sel = (m.best_params_["C"], m.best_params_["gamma"], m.k_)
        assert sel == base[1], f"different selected model: {sel} vs {base[1]}"
        assert abs(m.bound_ - base[2]) < 1e-12 and abs(m.best_score_ - base[0]) < 1e-12
    print(f"selected (C, gamma, k) = {base[1]} by all three; L_EE* = {m1.bound_:.4f}")
    print(f"{'run':34s} {'wall s':>8s} {'cpu s':>8s}")
    print(f"{'plain loop, SVC(rbf), 1 core':34s} {t_base:8.2f} {c_base:8.2f}")
    print(f"{'CompleteKCV n_jobs=1':34s} {t1:8.2f} {c1:8.2f}")
    print(f"{'CompleteKCV n_jobs=2':34s} {t2:8.2f} {'':>8s}")
    print(f"speed-up on one core (loop / n_jobs=1): wall {t_base / t1:.2f}x, cpu {c_base / c1:.2f}x"
          f"   (target >= 3)")
    print(f"speed-up from two cores (n_jobs=1 / n_jobs=2): wall {t1 / t2:.2f}x   (target >= 1.7)")
    print(f"  control: a pure-Python CPU job gets {available_parallelism():.2f}x from two workers "
          "on this machine right now")
    print(f"total (loop / n_jobs=2): wall {t_base / t2:.2f}x")


if __name__ == "__main__":
    main()
