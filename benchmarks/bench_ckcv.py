"""Speed of CompleteKCV against a plain loop that refits SVC(kernel="rbf") per split.

Both run Algorithm 1 of Anguita et al. (2012) on the same Monte Carlo splits
(:class:`cvbook.ckcv.ThreeWaySplit`, seeded per (seed, k, split)) with the same
grid (:data:`cvbook.studies.table1_replication.TABLE1_GRID`) on one realisation of a Rätsch
benchmark, and must select the same (C, gamma, k) with the same bounds. The
plain loop is Algorithm 1 as printed: for every grid point, k and split it
fits ``f_TR`` on TR and ``f*_MS`` on TR u MS. It is what a user would write.

The machines are shared and noisy, so each variant runs ``--repeats`` times,
the variants alternating, and the ratios use the fastest run of each (as
``timeit`` does). Three more figures time libsvm's fit alone (no kernel
computation, no prediction, only the thin wrapper
:func:`cvbook.ckcv.fit_precomputed` around it), the solve CompleteKCV's fast
path makes:

* the **solver floor**: the problems an exact implementation must solve, the
  ``f_TR`` of every (grid point, k, split) (the selection needs every
  ``L_MS``) and the ``f*_MS`` of the row selected at each k (``L_EE`` and the
  members of the outputs). ``CompleteKCV / floor`` is its overhead;
* the **old floor**: every problem the plain loop solves (``f*_MS`` of every
  row too), the floor of the previous definition, printed beside it;
* the **floor on blocks**: the floor's problems given to libsvm as kernel
  blocks cut beforehand (the same models), as the previous CompleteKCV did.
  The first two are timed in the form CompleteKCV now poses the problems: the
  pool's kernel read in place, weight 0 outside the fitting set
  (``fit_index``). This third column shows what that form gains.

Run from the repository root::

    CVBOOK_DATA=../shared/data/raetsch .venv/bin/python benchmarks/bench_ckcv.py [--dataset banana]
    CVBOOK_DATA=../shared/data/raetsch .venv/bin/python benchmarks/bench_ckcv.py --all \
        --two-cores --json results/benchmarks/bench_ckcv.json

The two-core ratio is a wall-time ratio, which only means something when the
second core is free: each row also gives a control, the same ratio for a
pure-Python job on two joblib workers, measured right after.

Targets: on one core >= 3x faster than the loop on every data set, median
>= 4.5x, CompleteKCV within 1.15x of the solver floor; >= 1.7x more with two
cores.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from cvbook.bounds import clopper_pearson_upper
from cvbook.ckcv import CompleteKCV, ThreeWaySplit, fit_precomputed, solver_backend
from cvbook.datasets.raetsch import RAETSCH_NAMES, load_raetsch
from cvbook.provenance import atomic_write_text, git_commit, git_dirty, package_versions
from cvbook.studies.table1_replication import TABLE1_GRID


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


def solver_floors(X, y, Cs, gammas, k_values, n_splits, seed, selected):
    """CPU time of the solver alone: ``(floor, old floor, floor on blocks)``.

    ``floor``: the f_TR fits of every (C, gamma, k, split) and the f*_MS fits of
    ``selected[k] = (C, gamma)``, the row selected at each k. ``old floor``: the
    f_TR and f*_MS fits of every row, all the problems the plain loop solves.
    Both are timed in the form CompleteKCV poses them (the kernel of the whole
    pool read in place, ``fit_index``). ``floor on blocks``: the floor's problems
    given as kernel blocks cut beforehand (the same models). Each kind of fit
    runs over all the splits of a (gamma, k) before the next kind, and the C
    values of a split are fit in one call of :func:`~cvbook.ckcv.fit_precomputed`
    (which prepares the fitting set once), as CompleteKCV makes them.
    """
    backend = solver_backend()
    fit_tr = fit_trms = winners = blocks = 0.0
    grid = [{"C": C} for C in Cs]
    for g in gammas:
        K = rbf_kernel(X, gamma=g)
        for k in sorted(k_values):
            splits = [
                (tr, np.sort(np.concatenate([tr, ms])))
                for tr, ms, _ in ThreeWaySplit(k, n_splits, seed).split(X)
            ]
            winner = {"C": selected[k][0]} if selected[k][1] == g else None
            # One kind of fit over all the splits, then the next kind, as CompleteKCV
            # makes them; the C values of a split in one call.
            for tr, _ in splits:
                c = time.process_time()
                fit_precomputed(K, y, grid, backend, fit_index=tr)
                fit_tr += time.process_time() - c
            for _, trms in splits:
                c = time.process_time()
                fit_precomputed(K, y, grid, backend, fit_index=trms)
                fit_trms += time.process_time() - c
            for _, trms in splits if winner else []:
                c = time.process_time()
                fit_precomputed(K, y, winner, backend, fit_index=trms)
                winners += time.process_time() - c
            for tr, trms in splits:
                K_tr = np.ascontiguousarray(K[np.ix_(tr, tr)])
                c = time.process_time()
                fit_precomputed(K_tr, y[tr], grid, backend)
                blocks += time.process_time() - c
                if winner:
                    K_trms = np.ascontiguousarray(K[np.ix_(trms, trms)])
                    c = time.process_time()
                    fit_precomputed(K_trms, y[trms], winner, backend)
                    blocks += time.process_time() - c
    return fit_tr + winners, fit_tr + fit_trms, blocks


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

    Parallel(n_jobs=2)(delayed(_burn)(10) for _ in range(2))  # start the workers first
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


def bench(name: str, realisation: int, repeats: int, two_cores: bool) -> dict:
    """Time the loop, CompleteKCV on one (and two) cores, and the two solver floors."""
    grid = TABLE1_GRID
    X, y, _, _ = load_raetsch(name, realisation)
    gammas = grid.gammas(X)
    seed = grid.random_state(name, realisation)
    args = (X, y, grid.C_values, gammas, grid.k_values, grid.n_splits)

    def ckcv(n_jobs):
        return CompleteKCV(
            param_grid={"C": list(grid.C_values), "gamma": gammas},
            k_values=list(grid.k_values),
            n_splits=grid.n_splits,
            delta=grid.delta,
            random_state=seed,
            n_jobs=n_jobs,
        ).fit(X, y)

    if two_cores:  # start joblib's two workers before timing: a long run pays that once
        CompleteKCV(
            param_grid={"C": [1.0], "gamma": [1.0]},
            k_values=[3],
            n_splits=4,
            random_state=0,
            n_jobs=2,
        ).fit(X[:60], y[:60])
    runs: dict[str, list[float]] = {
        "loop": [],
        "ckcv1": [],
        "ckcv1_wall": [],
        "ckcv2": [],
        "floor": [],
        "old_floor": [],
        "floor_blocks": [],
    }
    for _ in range(repeats):
        with threadpool_limits(limits=1):  # one core: no BLAS thread spinning beside it
            base, _, c = timed(lambda: plain_loop(*args, grid.delta, seed))
        runs["loop"].append(c)
        m1, w, c = timed(lambda: ckcv(1))
        runs["ckcv1"].append(c)
        runs["ckcv1_wall"].append(w)
        if two_cores:
            m2, w, _ = timed(lambda: ckcv(2))
            runs["ckcv2"].append(w)
        selected = {}
        for k in grid.k_values:
            p = m1.cv_results_["params"][m1.selected_index(k)]
            selected[k] = (p["C"], p["gamma"])
        with threadpool_limits(limits=1):
            floor, old_floor, floor_blocks = solver_floors(*args, seed, selected)
        runs["floor"].append(floor)
        runs["old_floor"].append(old_floor)
        runs["floor_blocks"].append(floor_blocks)
        for m in [m1, m2] if two_cores else [m1]:
            sel = (m.best_params_["C"], m.best_params_["gamma"], m.k_)
            assert sel == base[1], f"{name}: different selected model: {sel} vs {base[1]}"
            assert abs(m.bound_ - base[2]) < 1e-12 and abs(m.best_score_ - base[0]) < 1e-12
    best = {key: min(v) for key, v in runs.items() if v}
    out = {
        "name": name,
        "n": len(y),
        "d": X.shape[1],
        "selected": base[1],
        "bound": m1.bound_,
        **best,
        "spread": max(max(v) / min(v) for v in runs.values() if v),
    }
    # One core: CPU time of the process (the serial runs use one core; CPU time is the
    # steadier figure on a shared machine). Two cores: wall time against wall time.
    out["one_core"] = best["loop"] / best["ckcv1"]
    out["over_floor"] = best["ckcv1"] / best["floor"]
    out["ceiling"] = best["loop"] / best["floor"]
    out["old_ceiling"] = best["loop"] / best["old_floor"]
    if two_cores:
        out["two_cores"] = best["ckcv1_wall"] / best["ckcv2"]
        out["control"] = available_parallelism()
    return out


def print_table(rows: list[dict]) -> None:
    """The one-core table, its summary and the targets."""
    print(
        f"{'data set':14s} {'n':>5s} {'d':>3s} {'loop':>8s} {'ckcv':>8s} {'floor':>8s}"
        f" {'old floor':>9s} {'blocks':>7s} {'speed-up':>9s} {'ckcv/floor':>10s} {'ceiling':>8s}"
        f" {'spread':>7s} {'2 cores':>8s} {'control':>8s}"
    )
    for r in rows:
        two = f" {r['two_cores']:7.2f}x {r['control']:7.2f}x" if "two_cores" in r else ""
        print(
            f"{r['name']:14s} {r['n']:5d} {r['d']:3d} {r['loop']:8.2f} {r['ckcv1']:8.2f} "
            f"{r['floor']:8.2f} {r['old_floor']:9.2f} {r['floor_blocks']:7.2f} "
            f"{r['one_core']:8.2f}x "
            f"{r['over_floor']:9.2f}x {r['ceiling']:7.2f}x {r['spread']:7.2f}{two}",
            flush=True,
        )


def print_summary(rows: list[dict]) -> None:
    sp = [r["one_core"] for r in rows]
    over = [r["over_floor"] for r in rows]
    print(
        f"one-core speed-up over {len(rows)} data sets: median {statistics.median(sp):.2f}x, "
        f"min {min(sp):.2f}x, max {max(sp):.2f}x   (targets: >= 3 on every one, median >= 4.5)"
    )
    print(
        f"CompleteKCV / solver floor: max {max(over):.2f}x, median "
        f"{statistics.median(over):.2f}x   (target <= 1.15)"
    )
    total_loop, total_ckcv = sum(r["loop"] for r in rows), sum(r["ckcv1"] for r in rows)
    print(
        f"total CPU: loop {total_loop:.1f} s, CompleteKCV {total_ckcv:.1f} s: "
        f"{total_loop / total_ckcv:.2f}x"
    )
    below = [r["name"] for r in rows if r["one_core"] < 3]
    print(f"below 3x: {', '.join(below) or 'none'}")
    two = [r["two_cores"] for r in rows if "two_cores" in r]
    if two:
        print(
            f"two cores (wall n_jobs=1 / n_jobs=2): median {statistics.median(two):.2f}x, "
            f"min {min(two):.2f}x   (target >= 1.7); control (pure Python on two "
            f"workers): median {statistics.median(r['control'] for r in rows):.2f}x"
        )


def make_record(rows: list[dict], realisation: int, repeats: int, commit, dirty) -> dict:
    grid = TABLE1_GRID
    return {
        "script": "benchmarks/bench_ckcv.py",
        "realisation": realisation,
        "repeats": repeats,
        "seconds": "CPU seconds, fastest of the repeats",
        "solver": solver_backend(),
        "two_cores": "wall seconds of n_jobs=1 over n_jobs=2, fastest of the repeats; "
        "control: the same ratio for a pure-Python job on two joblib workers, measured "
        "right after (what the machine's second core gave at that moment)",
        "floor": "libsvm fit alone on every f_TR problem and the f*_MS problems "
        "of the row selected at each k",
        "old_floor": "libsvm fit alone on every problem the plain loop solves",
        "floor_blocks": "the floor's problems given as kernel blocks cut beforehand; the "
        "two floors above read the pool's kernel in place (fit_index), as CompleteKCV does",
        "grid": {
            "C": list(grid.C_values),
            "gamma_factors": list(grid.gamma_factors),
            "k": list(grid.k_values),
            "n_splits": grid.n_splits,
            "delta": grid.delta,
        },
        "rows": [
            {key: (list(v) if isinstance(v, tuple) else v) for key, v in r.items()} for r in rows
        ],
        "commit": commit,
        "dirty": dirty,
        "packages": package_versions(),
        "cpu_count": os.cpu_count(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def merge_records(paths: list[str]) -> dict:
    """One record from records of disjoint sets of data sets (run side by side).

    They must share the script's settings (realisation, repeats, grid, solver,
    commit); the rows are put in the order of the data sets.
    """
    records = [json.loads(Path(p).read_text()) for p in paths]
    same = ("realisation", "repeats", "grid", "solver", "commit")
    for r in records[1:]:
        for key in same:
            if r[key] != records[0][key]:
                raise SystemExit(
                    f"--merge: the records differ in {key}: {r[key]!r} and {records[0][key]!r}"
                )
    rows = [row for r in records for row in r["rows"]]
    names = [row["name"] for row in rows]
    if len(set(names)) != len(names):
        raise SystemExit(f"--merge: a data set is in more than one record: {names}")
    rows.sort(key=lambda row: RAETSCH_NAMES.index(row["name"]))
    merged = dict(
        records[0],
        rows=rows,
        dirty=any(r["dirty"] for r in records),
        date=max(r["date"] for r in records),
    )
    merged["parts"] = [
        {"datasets": [row["name"] for row in r["rows"]], "date": r["date"]} for r in records
    ]
    return merged


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dataset", default="banana", choices=RAETSCH_NAMES)
    p.add_argument("--realisation", type=int, default=1)
    p.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="alternating runs of each variant; the fastest counts (default 3)",
    )
    p.add_argument(
        "--all",
        action="store_true",
        help="every data set, one line each (one core only, unless --two-cores)",
    )
    p.add_argument(
        "--datasets",
        nargs="+",
        choices=RAETSCH_NAMES,
        default=None,
        help="as --all, for these data sets only",
    )
    p.add_argument(
        "--merge",
        nargs="+",
        default=None,
        metavar="RECORD",
        help="merge records of disjoint --datasets runs (made side by side, each "
        "one core) into the record given by --json",
    )
    p.add_argument(
        "--two-cores",
        action="store_true",
        help="with --all or --datasets, also time n_jobs=2 (wall) against n_jobs=1 (wall)",
    )
    p.add_argument(
        "--json",
        default=None,
        help="with --all, --datasets or --merge, also write the table and its "
        "provenance to this file (results/benchmarks/bench_ckcv.json)",
    )
    a = p.parse_args()
    commit, dirty = git_commit(), git_dirty()
    grid = TABLE1_GRID
    if a.merge:
        record = merge_records(a.merge)
        print_table(record["rows"])
        print_summary(record["rows"])
        if a.json:
            atomic_write_text(a.json, json.dumps(record, indent=2) + "\n")
            print(f"written {a.json}")
        return
    print(
        f"grid {len(grid.C_values)} C x {len(grid.gamma_factors)} gamma x k "
        f"{list(grid.k_values)}, l_MC={grid.n_splits}; fastest of {a.repeats} alternating "
        f"runs, CPU seconds; solver: {solver_backend()}"
    )
    if a.all or a.datasets:
        rows = []
        for name in RAETSCH_NAMES if a.all else a.datasets:
            rows.append(bench(name, a.realisation, a.repeats, two_cores=a.two_cores))
            print_table(rows[-1:])
        print_summary(rows)
        if a.json:
            record = make_record(rows, a.realisation, a.repeats, commit, dirty)
            atomic_write_text(a.json, json.dumps(record, indent=2) + "\n")
            print(f"written {a.json}")
        return
    r = bench(a.dataset, a.realisation, a.repeats, two_cores=True)
    print(
        f"{a.dataset} r{a.realisation}: n={r['n']}, d={r['d']}; selected (C, gamma, k) = "
        f"{r['selected']} by all runs; L_EE* = {r['bound']:.4f}"
    )
    print(f"{'run':44s} {'seconds':>8s}")
    print(f"{'plain loop, SVC(rbf), 1 core (cpu)':44s} {r['loop']:8.2f}")
    print(f"{'CompleteKCV n_jobs=1 (cpu)':44s} {r['ckcv1']:8.2f}")
    print(f"{'CompleteKCV n_jobs=1 (wall)':44s} {r['ckcv1_wall']:8.2f}")
    print(f"{'CompleteKCV n_jobs=2 (wall)':44s} {r['ckcv2']:8.2f}")
    print(f"{'solver floor: needed problems (cpu)':44s} {r['floor']:8.2f}")
    print(f"{'old floor: every problem of the loop (cpu)':44s} {r['old_floor']:8.2f}")
    print(f"{'floor on kernel blocks cut beforehand (cpu)':44s} {r['floor_blocks']:8.2f}")
    print(f"slowest / fastest run of a variant: up to {r['spread']:.2f} (the machine's noise)")
    print(f"speed-up on one core (loop / n_jobs=1): {r['one_core']:.2f}x   (target >= 3)")
    print(f"CompleteKCV / solver floor: {r['over_floor']:.2f}x   (target <= 1.15)")
    print(f"speed-up from two cores (n_jobs=1 / n_jobs=2): {r['two_cores']:.2f}x   (target >= 1.7)")
    print(
        f"  control: a pure-Python CPU job gets {available_parallelism():.2f}x from two workers "
        "on this machine right now"
    )
    print(f"total (loop / n_jobs=2): {r['loop'] / r['ckcv2']:.2f}x")


if __name__ == "__main__":
    main()
