"""The Table 1 sweep's methods: complete K-fold CV as Anguita et al. (2012) run it.

One :class:`~cvbook.ckcv.CompleteKCV` fit per (data set, realisation) gives the
three column pairs of Anguita et al. (2012), Table 1: k tuned (k*, L_EE*,
test error of F*), k = 5 and k = 10 (the rows of ``cv_results_`` with that k).

* :class:`Table1Grid` and :data:`TABLE1_GRID`: everything the paper leaves open, in
  one place (the grid of the committed table).
* :func:`fit_and_score`: one fit on given training and test data, as a plain-JSON
  record; :func:`run_one` does it on a Rätsch realisation, :func:`run_generated` on
  a draw of Breiman's twonorm or ringnorm made by :mod:`cvbook.datasets` (no files,
  no network).
* :func:`summarise`: the table from the records (means and standard deviations).
* :func:`read_paper_table`, :func:`compare_with_paper`, :func:`paired_by_dataset` and
  :func:`bound_at_level`: the comparisons of chapter 5b, each difference with its
  standard error.

The long run over 13 data sets x 10 realisations -- its command line, its records on
disk and its resume -- is :mod:`cvbook.runs.table1` (``python -m cvbook.runs.table1``;
no alias elsewhere).
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.svm import SVC

from ..bounds import clopper_pearson_upper
from ..ckcv import CompleteKCV, ThreeWaySplit
from ..datasets.raetsch import RAETSCH_NAMES, load_raetsch, raetsch_info
from ..datasets.synthetic import Ringnorm, Twonorm
from ..stats import paired_difference
from ..validation import ArgumentTypeError, check_int

__all__ = [
    "GENERATED",
    "TABLE1_COLUMNS",
    "TABLE1_GRID",
    "Table1Grid",
    "bound_at_level",
    "compare_with_paper",
    "data_fields",
    "fit_and_score",
    "paired_by_dataset",
    "read_paper_table",
    "refit_selected",
    "run_generated",
    "run_one",
    "summarise",
]

#: The benchmarks the package can draw itself: Breiman's distributions behind Rätsch's
#: twonorm and ringnorm, at Rätsch's sizes (400 training points, 20 features).
GENERATED = {"twonorm": Twonorm, "ringnorm": Ringnorm}


@dataclass(frozen=True)
class Table1Grid:
    """Everything the paper leaves open, in one place.

    Attributes
    ----------
    C_values : tuple of float
        SVM penalty C, five decades ``10**-1 .. 10**3``.
    gamma_factors : tuple of float
        Gaussian width as multiples of ``1 / (d * var(X))`` of the realisation's
        training pool (scikit-learn's ``gamma="scale"``); the scale makes one grid fit
        standardised and integer-coded data sets alike. Four decades ``10**-2 .. 10**1``: a first
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
    def from_dict(cls, d: dict[str, Any]) -> Table1Grid:
        return cls(**{key: tuple(v) if isinstance(v, list) else v for key, v in d.items()})


#: The grid of the committed Table 1 (justified in chapter 5b).
TABLE1_GRID = Table1Grid()

#: Columns of ``table1.csv``, as in the paper's Table 1 (``anguita2012/table1.csv``).
TABLE1_COLUMNS = (
    "k_star",
    "L_EE",
    "test_err_F",
    "L_EE_k5",
    "test_err_k5",
    "L_EE_k10",
    "test_err_k10",
)


def _check_grid(grid: Any) -> Table1Grid:
    if not isinstance(grid, Table1Grid):
        raise ArgumentTypeError(f"grid must be a Table1Grid, got {type(grid).__name__}")
    return grid


def _check_n_jobs(n_jobs: Any) -> int | None:
    if n_jobs is None:
        return None
    n_jobs = check_int(n_jobs, "n_jobs")
    if n_jobs == 0:
        raise ValueError("n_jobs must be a nonzero integer or None (joblib's rule), got 0")
    return n_jobs


_SELECTED = (("", None), ("_k5", 5), ("_k10", 10))


def fit_and_score(
    X: np.ndarray,
    y: np.ndarray,
    X_test: np.ndarray,
    y_test: np.ndarray,
    grid: Table1Grid,
    random_state: int,
    n_jobs: int | None = 1,
) -> dict[str, Any]:
    """Fit :class:`CompleteKCV` with ``grid`` on ``(X, y)`` and score it on the test set.

    Parameters
    ----------
    X, y : ndarray
        The training pool D_n (labels in {-1, +1}).
    X_test, y_test : ndarray
        The test set.
    grid : Table1Grid
        The grid.
    random_state : int
        Seed of the Monte Carlo splits.
    n_jobs : int or None, default=1
        joblib's ``n_jobs`` inside the fit; the numbers do not depend on it.

    Returns
    -------
    dict
        Plain-JSON record. For k tuned, k = 5 and k = 10 (suffixes ``""``, ``_k5``,
        ``_k10``): the selected (C, gamma, k), its ``L_MS`` and ``L_EE``, the mean test
        error of its members (fractions, not percent), and ``gamma_factor``, ``n_ee``
        and ``ee_errors`` (the EE error count of every split, so that the bound can be
        recomputed at any other delta). Also the sizes and class counts and the
        fields of :func:`data_fields`.

    Examples
    --------
    >>> X, y = Twonorm(dim=2).sample(60, random_state=0)
    >>> tiny = Table1Grid(C_values=(1.0,), gamma_factors=(1.0,), k_values=(5, 10),
    ...                   n_splits=2)
    >>> rec = fit_and_score(X[:40], y[:40], X[40:], y[40:], tiny, random_state=1)
    >>> rec["k_star"] in (5, 10), rec["n_test"], rec["n_ee_k10"], len(rec["ee_errors_k5"])
    (True, 20, 4, 2)
    """
    grid = _check_grid(grid)
    n_jobs = _check_n_jobs(n_jobs)
    model = CompleteKCV(
        param_grid={"C": list(grid.C_values), "gamma": grid.gammas(X)},
        k_values=list(grid.k_values),
        n_splits=grid.n_splits,
        delta=grid.delta,
        random_state=random_state,
        n_jobs=n_jobs,
    ).fit(X, y)
    res = model.cv_results_
    record: dict[str, Any] = {
        "random_state": int(random_state),
        "n_train": len(y),
        "n_test": len(y_test),
        "d": int(X.shape[1]),
    }
    for label, k in _SELECTED:
        row = model.selected_index(k)
        params = res["params"][row]
        record[f"k{label}" if label else "k_star"] = int(res["k"][row])
        record[f"C{label}"] = float(params["C"])
        record[f"gamma{label}"] = float(params["gamma"])
        record[f"L_MS{label}"] = float(res["mean_L_MS"][row])
        record[f"L_EE{label}"] = float(res["mean_L_EE"][row])
        record[f"test_err{label or '_F'}"] = model.member_error(X_test, y_test, k=k)
        record[f"n_ee{label}"] = int(res["n_ee"][row])
        record[f"ee_errors{label}"] = [
            int(res[f"split{i}_ee_errors"][row]) for i in range(grid.n_splits)
        ]
    record.update(data_fields(X, y, y_test, record, grid))
    return record


def data_fields(
    X: np.ndarray, y: np.ndarray, y_test: np.ndarray, record: dict[str, Any], grid: Table1Grid
) -> dict[str, Any]:
    """What a record keeps about the data beyond the fit: class counts, scale of gamma.

    ``x_var`` is var(X) of the training pool, which scales the grid's gamma;
    ``gamma_factor`` (and ``_k5``, ``_k10``) is the selected gamma in units of
    ``1 / (d x_var)``; ``var_ratio_no_ee`` is the smallest and largest, over the
    Monte Carlo splits of k*, of var(X without the EE part) / var(X): gamma scaled
    on what selection may see would be the selected gamma divided by that ratio.

    Examples
    --------
    >>> X, y = Twonorm(dim=2).sample(40, random_state=0)
    >>> rec = {"k_star": 5, "gamma": 1 / (2 * X.var()), "gamma_k5": 1.0, "gamma_k10": 1.0,
    ...        "random_state": 3}
    >>> fields = data_fields(X, y, y[:5], rec, TABLE1_GRID)
    >>> round(fields["gamma_factor"], 12), 0.5 < fields["var_ratio_no_ee"][0] <= 1.5
    (1.0, True)
    """
    x_var = float(X.var())
    out: dict[str, Any] = {
        "n_pos_train": int(np.sum(y == 1)),
        "n_pos_test": int(np.sum(y_test == 1)),
        "x_var": x_var,
    }
    for label, _ in _SELECTED:
        out[f"gamma_factor{label}"] = float(record[f"gamma{label}"] * X.shape[1] * x_var)
    ratios = [
        float(X[np.concatenate([tr, ms])].var()) / x_var
        for tr, ms, _ in ThreeWaySplit(
            k=record["k_star"], n_splits=grid.n_splits, random_state=record["random_state"]
        ).split(X)
    ]
    out["var_ratio_no_ee"] = [min(ratios), max(ratios)]
    return out


def refit_selected(
    X: np.ndarray, y: np.ndarray, record: dict[str, Any], grid: Table1Grid
) -> dict[str, Any]:
    """EE error counts of the three selected rows of a record, refitting those rows only.

    The selected (C, gamma, k) of k tuned, k = 5 and k = 10 are refit on TR ∪ MS of each
    Monte Carlo split (the same splits, the same precomputed Gaussian kernel as
    :class:`CompleteKCV`), about 1/40 of the work of a full fit. The counts give back
    the record's ``L_EE``; :func:`cvbook.runs.table1.enrich_runs` checks that they do.

    Returns
    -------
    dict
        ``n_ee``, ``ee_errors`` and the same with ``_k5`` and ``_k10``.
    """
    out: dict[str, Any] = {}
    for label, _ in _SELECTED:
        k = record[f"k{label}" if label else "k_star"]
        gamma, C = record[f"gamma{label}"], record[f"C{label}"]
        K = rbf_kernel(X, gamma=gamma)
        counts = []
        for tr, ms, ee in ThreeWaySplit(
            k=k, n_splits=grid.n_splits, random_state=record["random_state"]
        ).split(X):
            trms = np.sort(np.concatenate([tr, ms]))
            svc = SVC(kernel="precomputed", C=C).fit(K[np.ix_(trms, trms)], y[trms])
            counts.append(int(np.sum(svc.predict(K[np.ix_(ee, trms)]) != y[ee])))
        out[f"n_ee{label}"] = len(X) // k
        out[f"ee_errors{label}"] = counts
    return out


def run_one(
    name: str,
    realisation: int,
    grid: Table1Grid = TABLE1_GRID,
    data_home: str | os.PathLike | None = None,
    n_jobs: int | None = 1,
) -> dict[str, Any]:
    """:func:`fit_and_score` on one realisation of one of Rätsch's benchmarks.

    Parameters
    ----------
    name : str
        One of the 13 Rätsch benchmarks.
    realisation : int
        1-based realisation number.
    grid : Table1Grid
        The grid; the default is the committed one.
    data_home : path-like, optional
        Passed to :func:`cvbook.datasets.raetsch.load_raetsch` (``None``: its default).
    n_jobs : int or None, default=1
        joblib's ``n_jobs`` inside the fit (the sweep parallelises over
        realisations instead). The numbers do not depend on it.

    Returns
    -------
    dict
        The record of :func:`fit_and_score`, with the data set, realisation, what its
        splits are, the wall and CPU time and the peak RSS.
    """
    realisation = check_int(realisation, "realisation", minimum=1)
    grid = _check_grid(grid)
    t0, c0 = time.perf_counter(), time.process_time()
    X, y, X_test, y_test = load_raetsch(name, realisation, data_home=data_home)
    seed = grid.random_state(name, realisation)
    record: dict[str, Any] = {
        "dataset": name,
        "realisation": realisation,
        "splits": raetsch_info(name).shared_splits,
    }
    record.update(fit_and_score(X, y, X_test, y_test, grid, seed, n_jobs))
    record["wall_s"] = round(time.perf_counter() - t0, 3)
    record["cpu_s"] = round(time.process_time() - c0, 3)
    record["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return record


def run_generated(
    name: str,
    seed: int,
    grid: Table1Grid = TABLE1_GRID,
    n_train: int | None = None,
    n_test: int = 7000,
    n_jobs: int | None = 1,
) -> dict[str, Any]:
    """:func:`fit_and_score` on a fresh draw of Breiman's twonorm or ringnorm.

    Rätsch's twonorm and ringnorm are samples of these two distributions, so a draw
    at his sizes is a realisation of the same experiment that needs no file.

    Parameters
    ----------
    name : {"twonorm", "ringnorm"}
        The distribution (:class:`cvbook.datasets.Twonorm`, :class:`~cvbook.datasets.Ringnorm`).
    seed : int
        Seeds the draw and the Monte Carlo splits.
    grid : Table1Grid
        The grid; the default is the committed one.
    n_train : int, optional
        Size of D_n; default Rätsch's (400).
    n_test : int, default=7000
        Size of the test set (Rätsch's).
    n_jobs : int or None, default=1
        joblib's ``n_jobs`` inside the fit.

    Returns
    -------
    dict
        The record of :func:`fit_and_score`, with ``dataset``, ``seed`` and ``bayes_risk``.

    Examples
    --------
    >>> tiny = Table1Grid(C_values=(1.0,), gamma_factors=(1.0,), k_values=(5, 10),
    ...                   n_splits=2)
    >>> rec = run_generated("twonorm", seed=3, grid=tiny, n_train=60, n_test=200)
    >>> rec["dataset"], rec["n_train"], round(rec["bayes_risk"], 4)
    ('twonorm', 60, 0.0228)
    >>> run_generated("banana", seed=3)
    Traceback (most recent call last):
    ...
    ValueError: name must be 'twonorm' or 'ringnorm' (the data sets the package draws), got 'banana'
    """
    if not isinstance(name, str) or name not in GENERATED:
        raise ValueError(
            f"name must be 'twonorm' or 'ringnorm' (the data sets the package draws), got {name!r}"
        )
    seed = check_int(seed, "seed", minimum=0)
    grid = _check_grid(grid)
    n_train = (
        raetsch_info(name).n_train
        if n_train is None
        else check_int(n_train, "n_train", minimum=2 * max(grid.k_values))
    )
    n_test = check_int(n_test, "n_test", minimum=1)
    dist = GENERATED[name]()
    ss = np.random.SeedSequence([seed, RAETSCH_NAMES.index(name)])
    draw, split = (int(s.generate_state(1)[0]) for s in ss.spawn(2))
    X, y = dist.sample(n_train + n_test, random_state=draw)
    record: dict[str, Any] = {"dataset": name, "seed": seed, "bayes_risk": dist.bayes_risk}
    record.update(
        fit_and_score(X[:n_train], y[:n_train], X[n_train:], y[n_train:], grid, split, n_jobs)
    )
    return record


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
        row: dict[str, Any] = {
            "dataset": name,
            "n_realisations": len(rs),
            "splits": rs[0]["splits"],
        }
        for col in TABLE1_COLUMNS:
            vals = np.array([r[col] for r in rs], dtype=float) * (1 if col == "k_star" else 100)
            row[f"{col}_mean"] = round(float(vals.mean()), 4)
            row[f"{col}_std"] = round(float(vals.std(ddof=1)) if len(vals) > 1 else 0.0, 4)
        rows.append(row)
    return rows


def _by_dataset(runs: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    by_name: dict[str, list[dict[str, Any]]] = {}
    for r in runs:
        by_name.setdefault(r["dataset"], []).append(r)
    return {name: by_name[name] for name in sorted(by_name)}


def read_paper_table(path: str | os.PathLike) -> dict[str, dict[str, float]]:
    """The paper's Table 1 (``paper_table1.csv``): data set -> column -> value.

    Examples
    --------
    >>> from cvbook.book import results_path
    >>> paper = read_paper_table(results_path("table1", "paper_table1.csv"))
    >>> paper["image"]["test_err_F_mean"], len(paper)
    (2.7, 13)
    """
    lines = Path(path).read_text().strip().splitlines()
    header = lines[0].split(",")
    if header[0] != "dataset":
        raise ValueError(f"{path} must start with a 'dataset' column, got {header[0]!r}")
    return {
        row[0]: dict(zip(header[1:], map(float, row[1:]), strict=True))
        for row in (line.split(",") for line in lines[1:])
    }


def compare_with_paper(
    runs: Sequence[dict[str, Any]],
    paper: dict[str, dict[str, float]],
    columns: Sequence[str] = TABLE1_COLUMNS,
) -> dict[str, dict[str, dict]]:
    """Each of our means beside the paper's, the difference in standard-error units.

    Ours: mean and sample standard deviation over the realisations (percent, k* as
    is). The standard error of the difference treats the paper's ± as a standard
    deviation over as many realisations: ``se = sqrt(sd_ours**2 / n + sd_paper**2 / n)``
    (the more charitable reading; if the ± were standard errors, ``se`` would be larger).

    Returns
    -------
    dict
        ``out[name][column]`` has ``ours``, ``sd``, ``paper``, ``paper_sd``, ``n``,
        ``diff`` (ours - paper), ``se`` and ``z = diff / se``.

    Examples
    --------
    >>> runs = [{"dataset": "x", "L_EE": v} for v in (0.10, 0.12, 0.14)]
    >>> row = compare_with_paper(runs, {"x": {"L_EE_mean": 10.0, "L_EE_std": 2.0}},
    ...                          ["L_EE"])["x"]["L_EE"]
    >>> round(row["diff"], 6), round(row["z"], 3)
    (2.0, 1.225)
    """
    out: dict[str, dict[str, dict]] = {}
    for name, rs in _by_dataset(runs).items():
        out[name] = {}
        for col in columns:
            v = np.array([r[col] for r in rs], dtype=float) * (1 if col == "k_star" else 100)
            n = len(v)
            sd = float(v.std(ddof=1)) if n > 1 else float("nan")
            p_mean, p_sd = paper[name][f"{col}_mean"], paper[name][f"{col}_std"]
            se = float(np.sqrt(sd**2 / n + p_sd**2 / n))
            diff = float(v.mean()) - p_mean
            out[name][col] = {
                "ours": float(v.mean()),
                "sd": sd,
                "paper": p_mean,
                "paper_sd": p_sd,
                "n": n,
                "diff": diff,
                "se": se,
                "z": diff / se if se > 0 else float("nan"),
            }
    return out


def paired_by_dataset(
    runs: Sequence[dict[str, Any]], a: str, b: str, scale: float = 100.0
) -> dict[str, dict[str, float]]:
    """Per data set, the mean over realisations of ``a - b`` with its standard error.

    ``a`` and ``b`` are measured on the same realisation (same training and test set),
    so the difference is paired: ``se = sd(a - b) / sqrt(n)``
    (:func:`cvbook.stats.paired_difference`). A data set with one run
    gets ``se = z = nan``; otherwise ``z`` follows :class:`cvbook.stats.Paired`'s rule.

    Examples
    --------
    >>> runs = [{"dataset": "x", "u": u, "v": v} for u, v in ((0.3, 0.1), (0.4, 0.1))]
    >>> d = paired_by_dataset(runs, "u", "v")["x"]
    >>> round(d["mean"], 6), round(d["se"], 6), d["n"]
    (25.0, 5.0, 2)
    """
    out = {}
    for name, rs in _by_dataset(runs).items():
        d = scale * np.array([r[a] - r[b] for r in rs], dtype=float)
        if len(d) < 2:
            out[name] = {"mean": float(d.mean()), "se": float("nan"), "n": 1, "z": float("nan")}
            continue
        p = paired_difference(d)
        out[name] = {"mean": p.mean, "se": p.se, "n": p.n, "z": p.z}
    return out


def bound_at_level(run: dict[str, Any], label: str, delta: float) -> float:
    """``L_EE`` of a selected row of a record, recomputed at another ``delta``.

    ``label`` is ``""`` (k tuned), ``"_k5"`` or ``"_k10"``. Uses the per-split EE error
    counts of the record; at the grid's own delta it gives back the recorded ``L_EE``.

    Examples
    --------
    >>> run = {"ee_errors_k5": [2, 4], "n_ee_k5": 40}
    >>> round(bound_at_level(run, "_k5", 0.05), 4)
    0.1818
    """
    return float(
        np.mean(
            clopper_pearson_upper(np.asarray(run[f"ee_errors{label}"]), run[f"n_ee{label}"], delta)
        )
    )
