"""The Table 1 sweep: complete K-fold CV on 13 Rätsch benchmarks x 10 realisations.

One :class:`~cvbook.ckcv.CompleteKCV` fit per (data set, realisation) gives the
three column pairs of Anguita et al. (2012), Table 1: k tuned (k*, L_EE*,
test error of F*), k = 5 and k = 10 (the rows of ``cv_results_`` with that k).

The sweep is resumable. Each (data set, realisation) result is written, as soon
as it is finished, to ``<out>/runs/<name>_r<rr>.json`` through a temporary file
in the same folder and :func:`os.replace`, so a file is either complete or
absent; a re-run skips the finished ones, and killing the sweep loses only the
fits in flight. At the end, ``<out>/table1.csv`` (means and standard deviations
over realisations, in percent, as in the paper) and ``<out>/provenance.json``
(grid, versions, commit, wall time, cores, peak memory) are written the same way.

Run it from the repository root::

    .venv/bin/python -m cvbook.sweep --out results/table1 --n-jobs 2

The grid is :data:`TABLE1_GRID`, the one place where it is set.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
from joblib import Parallel, delayed
from tqdm import tqdm

from ._checks import check_int
from .ckcv import CompleteKCV
from .datasets.raetsch import RAETSCH_NAMES, load_raetsch, raetsch_info
from .provenance import atomic_write_text, git_commit, git_dirty, package_versions

__all__ = ["Table1Grid", "TABLE1_GRID", "run_one", "run_sweep", "summarise", "load_runs",
           "TABLE1_COLUMNS", "main"]


@dataclass(frozen=True)
class Table1Grid:
    """Everything the paper leaves open, in one place.

    Attributes
    ----------
    C_values : tuple of float
        SVM penalty C, five decades ``10**-1 .. 10**3``.
    gamma_factors : tuple of float
        Gaussian width as multiples of ``1 / (d * var(X))`` of the realisation's
        training pool (scikit-learn's ``gamma="scale"``); the scale makes one grid fit standardised and
        integer-coded data sets alike. Four decades ``10**-2 .. 10**1``: a first
        run with ``(0.1, 1, 10)`` often chose the smallest, so the range goes one
        decade lower.
    k_values : tuple of int
        Numbers of folds tried; must include 5 and 10 (the table's last columns).
    n_splits : int
        Monte Carlo splits per (C, gamma, k), ``l_MC``.
    delta : float
        Confidence parameter of every Clopper--Pearson bound.
    seed : int
        Root seed; the fit of (data set, realisation) is seeded by
        :meth:`random_state`.

    Examples
    --------
    >>> import numpy as np
    >>> TABLE1_GRID.k_values
    (3, 4, 5, 6, 8, 10)
    >>> X = np.array([[0.0, 1.0], [2.0, 3.0]])          # var(X) = 1.25, d = 2
    >>> [round(g, 6) for g in TABLE1_GRID.gammas(X)]
    [0.004, 0.04, 0.4, 4.0]
    >>> Table1Grid.from_dict(TABLE1_GRID.to_dict()) == TABLE1_GRID
    True
    """

    C_values: tuple[float, ...] = (0.1, 1.0, 10.0, 100.0, 1000.0)
    gamma_factors: tuple[float, ...] = (0.01, 0.1, 1.0, 10.0)
    k_values: tuple[int, ...] = (3, 4, 5, 6, 8, 10)
    n_splits: int = 10
    delta: float = 0.05
    seed: int = 2012

    def gammas(self, X: np.ndarray) -> list[float]:
        """The gamma values for a training pool ``X``."""
        scale = 1.0 / (X.shape[1] * X.var())
        return [float(f * scale) for f in self.gamma_factors]

    def random_state(self, name: str, realisation: int) -> int:
        """Seed of the fit on (``name``, ``realisation``): a function of the three only."""
        ss = np.random.SeedSequence([self.seed, RAETSCH_NAMES.index(name), realisation])
        return int(ss.generate_state(1)[0])

    def to_dict(self) -> dict[str, Any]:
        return {key: list(v) if isinstance(v, tuple) else v for key, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Table1Grid":
        return cls(**{key: tuple(v) if isinstance(v, list) else v for key, v in d.items()})


#: The grid of the committed Table 1 (justified in chapter 5b).
TABLE1_GRID = Table1Grid()

#: Columns of ``table1.csv``, as in the paper's Table 1 (``anguita2012/table1.csv``).
TABLE1_COLUMNS = ("k_star", "L_EE", "test_err_F", "L_EE_k5", "test_err_k5",
                  "L_EE_k10", "test_err_k10")


def run_one(name: str, realisation: int, grid: Table1Grid = TABLE1_GRID,
            data_home: str | os.PathLike | None = None, n_jobs: int | None = 1
            ) -> dict[str, Any]:
    """Fit :class:`CompleteKCV` on one realisation and score it on its test set.

    Parameters
    ----------
    name : str
        One of the 13 Rätsch benchmarks.
    realisation : int
        1-based realisation number.
    grid : Table1Grid
        The grid; the default is the committed one.
    data_home : path-like, optional
        Passed to :func:`cvbook.datasets.raetsch.load_raetsch`.
    n_jobs : int or None, default=1
        joblib's ``n_jobs`` inside the fit (the sweep parallelises over
        realisations instead). The numbers do not depend on it.

    Returns
    -------
    dict
        Plain-JSON record: sizes, seed, selected (C, gamma, k) for k tuned,
        k = 5 and k = 10, their ``L_EE`` and the mean test error of their
        members (fractions, not percent), the wall time and the peak RSS.
    """
    realisation = check_int(realisation, "realisation", minimum=1)
    t0, c0 = time.perf_counter(), time.process_time()
    X, y, X_test, y_test = load_raetsch(name, realisation, data_home=data_home)
    seed = grid.random_state(name, realisation)
    model = CompleteKCV(param_grid={"C": list(grid.C_values), "gamma": grid.gammas(X)},
                        k_values=list(grid.k_values), n_splits=grid.n_splits,
                        delta=grid.delta, random_state=seed, n_jobs=n_jobs).fit(X, y)
    record: dict[str, Any] = {
        "dataset": name, "realisation": realisation, "random_state": seed,
        "n_train": int(len(y)), "n_test": int(len(y_test)), "d": int(X.shape[1]),
        "splits": raetsch_info(name).shared_splits,
    }
    for label, k in (("", None), ("_k5", 5), ("_k10", 10)):
        row = model.selected_index(k)
        params = model.cv_results_["params"][row]
        record[f"k{label}" if label else "k_star"] = int(model.cv_results_["k"][row])
        record[f"C{label}"] = float(params["C"])
        record[f"gamma{label}"] = float(params["gamma"])
        record[f"L_MS{label}"] = float(model.cv_results_["mean_L_MS"][row])
        record[f"L_EE{label}"] = float(model.cv_results_["mean_L_EE"][row])
        record[f"test_err{label or '_F'}"] = model.member_error(X_test, y_test, k=k)
    record["wall_s"] = round(time.perf_counter() - t0, 3)
    record["cpu_s"] = round(time.process_time() - c0, 3)
    record["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return record


def _run_path(out: Path, name: str, realisation: int) -> Path:
    return out / "runs" / f"{name}_r{realisation:02d}.json"


def _run_and_write(out: Path, name: str, realisation: int, grid: Table1Grid,
                   data_home, commit: str | None) -> dict[str, Any]:
    record = run_one(name, realisation, grid, data_home, n_jobs=1)
    record["grid"] = grid.to_dict()
    record["commit"] = commit
    atomic_write_text(_run_path(out, name, realisation), json.dumps(record, indent=1) + "\n")
    return record


def load_runs(out: str | os.PathLike) -> list[dict[str, Any]]:
    """Every finished run under ``<out>/runs``, sorted by (data set, realisation)."""
    runs = [json.loads(p.read_text()) for p in sorted((Path(out) / "runs").glob("*.json"))]
    return sorted(runs, key=lambda r: (r["dataset"], r["realisation"]))


def summarise(runs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Table 1 from run records: mean and std (``ddof=1``) over realisations, in percent.

    k* is reported as is; every error and bound is multiplied by 100 as in the paper.

    Examples
    --------
    >>> runs = [dict(dataset="x", splits="raetsch", k_star=k, L_EE=0.2, test_err_F=0.1,
    ...              L_EE_k5=0.25, test_err_k5=0.1, L_EE_k10=0.3, test_err_k10=0.1)
    ...         for k in (3, 5)]
    >>> row = summarise(runs)[0]
    >>> row["k_star_mean"], row["L_EE_mean"], row["L_EE_k10_mean"]
    (4.0, 20.0, 30.0)
    """
    by_name: dict[str, list[dict[str, Any]]] = {}
    for r in runs:
        by_name.setdefault(r["dataset"], []).append(r)
    rows = []
    for name in sorted(by_name):
        rs = by_name[name]
        row: dict[str, Any] = {"dataset": name, "n_realisations": len(rs),
                               "splits": rs[0]["splits"]}
        for col in TABLE1_COLUMNS:
            vals = np.array([r[col] for r in rs], dtype=float) * (1 if col == "k_star" else 100)
            row[f"{col}_mean"] = round(float(vals.mean()), 4)
            row[f"{col}_std"] = round(float(vals.std(ddof=1)) if len(vals) > 1 else 0.0, 4)
        rows.append(row)
    return rows


def _csv(rows: Sequence[dict[str, Any]]) -> str:
    header = list(rows[0]) if rows else ["dataset"]
    lines = [",".join(header)] + [",".join(str(r[h]) for h in header) for r in rows]
    return "\n".join(lines) + "\n"


def run_sweep(out: str | os.PathLike, names: Sequence[str] = RAETSCH_NAMES,
              realisations: Sequence[int] = tuple(range(1, 11)),
              grid: Table1Grid = TABLE1_GRID, n_jobs: int | None = 2,
              data_home: str | os.PathLike | None = None, progress: bool = True
              ) -> list[dict[str, Any]]:
    """Run (or resume) the sweep and write ``runs/``, ``table1.csv``, ``provenance.json``.

    Parameters
    ----------
    out : path-like
        Output folder.
    names, realisations : sequences
        What to run; finished runs (their JSON exists) are skipped.
    grid : Table1Grid
        Must equal the grid of the runs already in ``out``.
    n_jobs : int or None, default=2
        Parallel (data set, realisation) fits.
    data_home : path-like, optional
        Where the benchmark files are (see :func:`load_raetsch`).
    progress : bool, default=True
        Show a tqdm progress bar.

    Returns
    -------
    list of dict
        The rows of ``table1.csv``.
    """
    out = Path(out)
    (out / "runs").mkdir(parents=True, exist_ok=True)
    for r in load_runs(out):
        if Table1Grid.from_dict(r["grid"]) != grid:
            raise ValueError(f"grid differs from the one of the finished runs in {out}; "
                             "use another out folder")
    todo = [(n, r) for n in names for r in realisations if not _run_path(out, n, r).exists()]
    # Biggest first, so the last tasks are short and both cores stay busy.
    todo.sort(key=lambda t: -raetsch_info(t[0]).n_train ** 2 * (1 + raetsch_info(t[0]).d / 20))
    t0 = time.time()
    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    commit = git_commit()  # the code that runs is the code at the start
    if commit and git_dirty():
        commit += "+dirty"
    tasks = (delayed(_run_and_write)(out, n, r, grid, data_home, commit) for n, r in todo)
    peak = 0.0
    for rec in tqdm(Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks),
                    total=len(todo), desc="Table 1", disable=not progress):
        peak = max(peak, rec["peak_rss_mb"])
    wall = time.time() - t0

    runs = load_runs(out)
    rows = summarise(runs)
    if rows:
        atomic_write_text(out / "table1.csv", _csv(rows))
    prov_path = out / "provenance.json"
    prov = json.loads(prov_path.read_text()) if prov_path.exists() else {"sessions": []}
    prov["sessions"].append({
        "started": started, "wall_s": round(wall, 1), "n_runs": len(todo),
        "n_jobs": n_jobs, "cpu_count": os.cpu_count(),
        "peak_rss_mb_per_worker": peak,
        "peak_rss_mb_main": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "commit": commit, "versions": package_versions(), "machine": platform.machine(),
    })
    expected = len(RAETSCH_NAMES) * 10
    prov.update({
        "description": "Anguita et al. (2012) Table 1 reproduced with cvbook.ckcv.CompleteKCV",
        "grid": grid.to_dict(),
        "gamma": "gamma_factors times 1 / (d * var(X_train)) of each realisation's training pool",
        "data": "shared Rätsch copy: partial_first10 (faithful) and reconstructed (5 sets)",
        "n_runs_finished": len(runs), "n_runs_expected": expected,
        "partial": len(runs) < expected,
        "sum_run_wall_s": round(sum(r["wall_s"] for r in runs), 1),
        "sum_run_cpu_s": round(sum(r.get("cpu_s", 0.0) for r in runs), 1),
        "total_session_wall_s": round(sum(s["wall_s"] for s in prov["sessions"]), 1),
        "command": "python -m cvbook.sweep --out results/table1 --n-jobs 2",
    })
    atomic_write_text(prov_path, json.dumps(prov, indent=1) + "\n")
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m cvbook.sweep --out results/table1 --n-jobs 2``."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="results/table1")
    p.add_argument("--n-jobs", type=int, default=2)
    p.add_argument("--datasets", nargs="*", default=list(RAETSCH_NAMES))
    p.add_argument("--realisations", type=int, nargs="*", default=list(range(1, 11)))
    p.add_argument("--data-home", default=None,
                   help="folder of the benchmark files (default: $CVBOOK_DATA)")
    p.add_argument("--no-progress", action="store_true")
    a = p.parse_args(argv)
    rows = run_sweep(a.out, a.datasets, a.realisations, n_jobs=a.n_jobs,
                     data_home=a.data_home, progress=not a.no_progress)
    print(_csv(rows), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
