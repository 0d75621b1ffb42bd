"""Closed-form kernel ridge LOO against brute force and against one plain fit.

Usage::

    .venv/bin/python benchmarks/bench_loo.py                 # m = 250, 500, 1000, 2000
    .venv/bin/python benchmarks/bench_loo.py --sizes 250 500 --no-save

For each m it times, on an RBF kernel of m Gaussian points:

* ``fit``     one ``KernelRidge(kernel="precomputed").fit(K, y)`` on all m points
              (the baseline every ratio is taken against, in the same process);
* ``loo1``    :func:`cvbook.loo.kernel_ridge_loo_predictions` for one alpha
              (Cholesky + triangular inverse);
* ``grid``    the same for a grid of 20 alphas (one eigendecomposition);
* ``brute``   brute-force LOO: m refits of ``KernelRidge`` on m - 1 points. Up to
              ``--brute-full`` points (1000 by default) it is run in full; above,
              ``--brute-points`` refits are timed and the total is extrapolated
              linearly (m times the mean refit), which the output and the record say:
              the growth of an extrapolated total with m is then one power of m more
              than a refit's by construction, not a measurement.

and, to say where the time goes, the pieces alone: ``solve`` (the
``scipy.linalg.solve(assume_a="pos")`` call inside ``KernelRidge.fit``), ``potrf`` (bare
Cholesky of K + alpha I), ``trtri`` (inverse of the triangular factor), ``eigh`` (eigen-
decomposition of K), ``checks`` (input validation of the LOO function). All of these
are timed interleaved, so that a burst of load on the machine hits them alike.

Timings are the CPU time of the process (``time.process_time``), minimum over
``--repeats`` interleaved runs, with BLAS limited to ``--threads`` threads (1 by
default). On a shared machine, wall time measures the other users' load as much as
this code; the CPU time of a single-threaded process measures the work it does.
Results, with their provenance, go to ``results/benchmarks/loo_timings.json``;
chapter 4 plots them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import scipy
import scipy.linalg
import sklearn
from scipy.linalg import lapack
from sklearn.kernel_ridge import KernelRidge
from sklearn.metrics.pairwise import rbf_kernel
from threadpoolctl import threadpool_info, threadpool_limits

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cvbook.loo import check_kernel_problem, kernel_ridge_loo_predictions  # noqa: E402

ALPHA = 1e-2
#: CPU time of this process. With BLAS on one thread it is the work done, which the
#: other users of a shared machine barely disturb (wall time, under load, is not).
CLOCK = time.process_time
GRID = np.logspace(-4, 1, 20)


def tmin(func, repeats: int) -> float:
    """Minimum CPU time of ``repeats`` calls, in seconds."""
    return tmin_interleaved({"f": func}, repeats)["f"]


def tmin_interleaved(funcs: dict, repeats: int) -> dict:
    """Minimum CPU time of each function, the functions called in turn.

    Interleaving makes a burst of load on the shared machine hit every
    function alike, so that their ratios stay honest.
    """
    for func in funcs.values():  # warm-up round, not timed (first-call costs)
        func()
    best = {name: np.inf for name in funcs}
    for _ in range(repeats):
        for name, func in funcs.items():
            start = CLOCK()
            func()
            best[name] = min(best[name], CLOCK() - start)
    return best


def problem(m: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, 5))
    y = np.sin(X[:, 0]) + 0.3 * rng.standard_normal(m)
    return rbf_kernel(X, gamma=0.2), y


def brute_force(K, y, points):
    """Refit KernelRidge without each point of ``points``; return predictions, mean time."""
    m = len(y)
    preds = np.empty(len(points))
    start = CLOCK()
    for j, i in enumerate(points):
        train = np.delete(np.arange(m), i)
        model = KernelRidge(alpha=ALPHA, kernel="precomputed")
        model.fit(K[np.ix_(train, train)], y[train])
        preds[j] = model.predict(K[i : i + 1, train])[0]
    return preds, (CLOCK() - start) / len(points)


def timings(K, y, repeats):
    """Time one fit, the closed-form LOO, and its LAPACK pieces, interleaved."""
    m = len(y)
    B = np.array(K.T, order="F")
    B.flat[:: m + 1] += ALPHA
    L, _ = lapack.dpotrf(B, lower=1, clean=1)
    return tmin_interleaved(
        {
            "fit": lambda: KernelRidge(alpha=ALPHA, kernel="precomputed").fit(K, y),
            "loo1": lambda: kernel_ridge_loo_predictions(K, y, ALPHA),
            "grid": lambda: kernel_ridge_loo_predictions(K, y, GRID),
            "checks": lambda: check_kernel_problem(K, y, ALPHA),
            "solve": lambda: scipy.linalg.solve(B, y, assume_a="pos"),
            "potrf": lambda: lapack.dpotrf(B, lower=1, clean=1),
            "trtri": lambda: lapack.dtrtri(L, lower=1),
            "eigh": lambda: np.linalg.eigh(K),
        },
        repeats,
    )


def provenance(args) -> dict:
    def git(*cmd):
        try:
            return subprocess.run(
                ["git", *cmd], cwd=ROOT, capture_output=True, text=True, check=True
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return None

    cpu = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    blas = [
        {k: info.get(k) for k in ("internal_api", "version", "num_threads")}
        for info in threadpool_info()
    ]
    return {
        "script": "benchmarks/bench_loo.py",
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "date_utc": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "git_commit": git("rev-parse", "HEAD"),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "sklearn": sklearn.__version__,
        "blas": blas,
        "blas_threads_used": args.threads,
        "cpu": cpu,
        "n_cpus": os.cpu_count(),
        "loadavg_at_start": list(os.getloadavg()),
        "repeats": args.repeats,
        "alpha": ALPHA,
        "grid": {"n_alphas": len(GRID), "min": GRID[0], "max": GRID[-1]},
        "kernel": "rbf, gamma=0.2, X ~ N(0, I_5), y = sin(x_1) + 0.3 N(0, 1)",
        "clock": "time.process_time (CPU seconds of this process)",
        "brute_full": args.brute_full,
        "brute_points": args.brute_points,
        "note": (
            "CPU seconds, minimum over interleaved repeats, on a shared 2-core machine; "
            f"brute force above {args.brute_full} points is m times the mean time of "
            f"{args.brute_points} timed refits (extrapolated, so its growth with m is one "
            "power of m more than a refit's by construction); up to that size all m "
            "refits are timed"
        ),
    }


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[250, 500, 1000, 2000])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument(
        "--brute-full", type=int, default=1000, help="run brute force in full up to this m"
    )
    parser.add_argument(
        "--brute-points",
        type=int,
        default=40,
        help="refits timed above --brute-full (then extrapolated)",
    )
    parser.add_argument("--out", default=str(ROOT / "results" / "benchmarks" / "loo_timings.json"))
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args(argv)

    meta = provenance(args)
    rows = []
    with threadpool_limits(limits=args.threads):
        for m in args.sizes:
            K, y = problem(m)
            t = timings(K, y, args.repeats)
            fit, loo1, grid = t["fit"], t["loo1"], t["grid"]
            closed = kernel_ridge_loo_predictions(K, y, ALPHA)
            if m <= args.brute_full:
                points = np.arange(m)
            else:
                points = np.random.default_rng(1).choice(m, args.brute_points, replace=False)
            bf_pred, per_refit = brute_force(K, y, points)
            brute = per_refit * m
            err = float(np.max(np.abs(bf_pred - closed[points])) / np.max(np.abs(bf_pred)))
            row = {
                "m": m,
                "fit": fit,
                "loo1": loo1,
                "grid": grid,
                "brute": brute,
                "brute_extrapolated": bool(m > args.brute_full),
                "brute_points_timed": len(points),
                "brute_per_refit": per_refit,
                "max_rel_diff_closed_vs_brute": err,
                "pieces": {k: v for k, v in t.items() if k not in ("fit", "loo1", "grid")},
            }
            rows.append(row)
            print(f"m={m:5d} done", flush=True)
    meta["loadavg_at_end"] = list(os.getloadavg())

    print()
    print(
        f"Kernel ridge LOO, RBF kernel, alpha={ALPHA}, BLAS threads={args.threads}, CPU time, "
        f"min of {args.repeats} runs. Ratios against one KernelRidge fit on all m points."
    )
    print(
        f"{'m':>5} {'brute/closed':>13} {'LOO(1 alpha)/fit':>17} {'LOO(20 alphas)/fit':>19} "
        f"{'max rel diff':>13}  brute force"
    )
    for r in rows:
        how = (
            f"extrapolated from {r['brute_points_timed']} refits"
            if r["brute_extrapolated"]
            else "all m refits"
        )
        print(
            f"{r['m']:5d} {r['brute'] / r['loo1']:12.0f}x {r['loo1'] / r['fit']:16.2f}x "
            f"{r['grid'] / r['fit']:18.2f}x {r['max_rel_diff_closed_vs_brute']:13.1e}  {how}"
        )
    print()
    print(
        "Where the time goes (each piece / one fit; solve = scipy.linalg.solve(assume_a='pos'),"
        " the solver inside KernelRidge.fit;"
    )
    print(
        "potrf = bare Cholesky; trtri = inverse of the triangular factor; "
        "eigh = eigendecomposition):"
    )
    print(
        f"{'m':>5} {'checks':>7} {'solve':>7} {'potrf':>7} {'trtri':>7} {'eigh':>7} "
        f"{'grid - eigh':>12} {'LOO(1)/potrf':>13}"
    )
    for r in rows:
        p, f = r["pieces"], r["fit"]
        print(
            f"{r['m']:5d} {p['checks'] / f:7.2f} {p['solve'] / f:7.2f} {p['potrf'] / f:7.2f} "
            f"{p['trtri'] / f:7.2f} {p['eigh'] / f:7.2f} {(r['grid'] - p['eigh']) / f:12.2f} "
            f"{r['loo1'] / p['potrf']:13.2f}"
        )
    print()
    targets = []
    for r in rows:
        if r["m"] == 1000:
            targets.append(("brute/closed >= 100 at m=1000", r["brute"] / r["loo1"] >= 100))
        if r["m"] in (1000, 2000):
            targets.append((f"LOO(1 alpha) <= 4 fits at m={r['m']}", r["loo1"] / r["fit"] <= 4))
            targets.append((f"LOO(20 alphas) <= 15 fits at m={r['m']}", r["grid"] / r["fit"] <= 15))
    for name, ok in targets:
        print(f"  {'PASS' if ok else 'FAIL'}  {name}")

    result = {"provenance": meta, "results": rows}
    if not args.no_save:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=2) + "\n")
        print(f"\nwrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    return result


if __name__ == "__main__":
    main()
