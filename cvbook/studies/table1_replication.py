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
  standard error; :func:`tie_fields` (the ties of a selection), :func:`grid_edges`,
  :func:`min_sd_of_integers` and :func:`binomial_floor`: its checks.

The long run over 13 data sets x 10 realisations -- its command line, its records on
disk and its resume -- is :mod:`cvbook.runs.table1` (``python -m cvbook.runs.table1``;
no alias elsewhere).
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.svm import SVC

from ..bounds import clopper_pearson_upper
from ..ckcv import TIE_RTOL, CompleteKCV, ThreeWaySplit
from ..datasets.raetsch import RAETSCH_NAMES, load_raetsch, raetsch_info
from ..datasets.synthetic import Ringnorm, Twonorm
from ..stats import Paired, paired_difference
from ..validation import (
    ArgumentTypeError,
    check_float,
    check_int,
    check_keys,
    check_n_jobs,
    check_open_unit,
    check_option,
)

__all__ = [
    "EDGES",
    "GENERATED",
    "TABLE1_COLUMNS",
    "TABLE1_GRID",
    "TIE_KEYS",
    "Table1Grid",
    "binomial_floor",
    "bound_at_level",
    "compare_with_paper",
    "data_fields",
    "fit_and_score",
    "grid_edges",
    "min_sd_of_integers",
    "paired_by_dataset",
    "read_paper_table",
    "refit_selected",
    "run_generated",
    "run_one",
    "summarise",
    "tie_fields",
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
        Numbers of folds tried, each >= 3 (C-KCV's three parts: training,
        model selection and error estimation); must include 5 and 10 (the table's
        last columns).
    n_splits : int
        Monte Carlo splits per (C, gamma, k), ``l_MC``, >= 1.
    delta : float
        Confidence parameter of every Clopper--Pearson bound, in (0, 1).
    seed : int
        Root seed, >= 0; the fit of (data set, realisation) is seeded by
        :meth:`random_state`.

    ``C_values`` and ``gamma_factors`` are non-empty sequences of positive numbers.
    Every field is checked on construction (a ``ValueError`` or ``TypeError`` names it).

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

    def __post_init__(self) -> None:
        for name in ("C_values", "gamma_factors", "k_values"):
            values = getattr(self, name)
            if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
                raise ArgumentTypeError(f"{name} must be a tuple of numbers, got {values!r}")
            if len(values) == 0:
                raise ValueError(f"{name} must hold at least one value, got none")
        for name in ("C_values", "gamma_factors"):
            for v in getattr(self, name):
                check_float(v, name, minimum=0, exclusive=True)
        for k in self.k_values:
            check_int(k, "k_values", minimum=3)
        missing = [k for k in (5, 10) if k not in self.k_values]
        if missing:
            raise ValueError(
                f"k_values must include 5 and 10 (the table's k = 5 and k = 10 columns), "
                f"got {tuple(self.k_values)}"
            )
        check_int(self.n_splits, "n_splits", minimum=1)
        check_open_unit(self.delta, "delta", scalar=True)
        check_int(self.seed, "seed", minimum=0)

    def gammas(self, X: np.ndarray) -> list[float]:
        """The gamma values for a training pool ``X``."""
        scale = 1.0 / (X.shape[1] * X.var())
        return [float(f * scale) for f in self.gamma_factors]

    def random_state(self, name: str, realisation: int) -> int:
        """Seed of the fit on (``name``, ``realisation``): a function of the three only.

        Examples
        --------
        >>> TABLE1_GRID.random_state("bananas", 1)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: name must be one of banana, breast_cancer, ..., waveform; got 'bananas'
        """
        if not isinstance(name, str) or name not in RAETSCH_NAMES:
            raise ValueError(f"name must be one of {', '.join(RAETSCH_NAMES)}; got {name!r}")
        realisation = check_int(realisation, "realisation", minimum=1)
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
        recomputed at any other delta), and the ties of :func:`tie_fields`. Also the
        sizes and class counts and the fields of :func:`data_fields`.

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
    n_jobs = check_n_jobs(n_jobs)
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
    record.update(tie_fields(model, X, y, grid))
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
        out[f"n_ee{label}"] = len(X) // k
        out[f"ee_errors{label}"] = _ee_counts(X, y, C, gamma, k, grid, record["random_state"])
    return out


def _ee_counts(
    X: np.ndarray, y: np.ndarray, C: float, gamma: float, k: int, grid: Table1Grid, seed: int
) -> list[int]:
    """EE error counts of (C, gamma, k) on each Monte Carlo split, refit on TR ∪ MS alone."""
    K = rbf_kernel(X, gamma=gamma)
    counts = []
    for tr, ms, ee in ThreeWaySplit(k=k, n_splits=grid.n_splits, random_state=seed).split(X):
        trms = np.sort(np.concatenate([tr, ms]))
        svc = SVC(kernel="precomputed", C=C).fit(K[np.ix_(trms, trms)], y[trms])
        counts.append(int(np.sum(svc.predict(K[np.ix_(ee, trms)]) != y[ee])))
    return counts


#: Keys of :func:`tie_fields`.
TIE_KEYS = tuple(f"{key}{label}" for label, _ in _SELECTED for key in ("n_tied", "L_EE_tied"))


def tie_fields(
    model: CompleteKCV, X: np.ndarray, y: np.ndarray, grid: Table1Grid
) -> dict[str, Any]:
    """The ties of a fit's three selections, and the bound each tied row would give.

    For k tuned, k = 5 and k = 10 (suffixes ``""``, ``_k5``, ``_k10``): ``n_tied`` is
    the number of rows whose mean ``L_MS`` equals the smallest up to
    ``cvbook.ckcv.TIE_RTOL`` (the selection's own rule: the first of them wins), and
    ``L_EE_tied`` the ``L_EE`` of each of them in row order, the selected row's first;
    the others are refit on the same splits (as :func:`refit_selected` does).

    Parameters
    ----------
    model : CompleteKCV
        Fitted on ``(X, y)`` with ``grid``.
    X, y : ndarray
        Its training pool.
    grid : Table1Grid
        Its grid.

    Returns
    -------
    dict
        The keys :data:`TIE_KEYS`.

    Examples
    --------
    >>> X, y = Twonorm(dim=2).sample(40, random_state=0)
    >>> tiny = Table1Grid(C_values=(1.0, 1e3), gamma_factors=(1.0,), k_values=(5, 10),
    ...                   n_splits=2)
    >>> m = CompleteKCV(param_grid={"C": [1.0, 1e3], "gamma": tiny.gammas(X)},
    ...                 k_values=[5, 10], n_splits=2, random_state=1).fit(X, y)
    >>> t = tie_fields(m, X, y, tiny)
    >>> t["n_tied"] == len(t["L_EE_tied"]) and t["L_EE_tied"][0] == m.bound_
    True
    """
    grid = _check_grid(grid)
    res = model.cv_results_
    seed = model.random_state
    out: dict[str, Any] = {}
    for label, k in _SELECTED:
        row = model.selected_index(k)
        rows = np.arange(len(res["k"])) if k is None else np.flatnonzero(res["k"] == k)
        low = float(res["mean_L_MS"][rows].min())
        tied = rows[res["mean_L_MS"][rows] <= low + TIE_RTOL * max(abs(low), np.finfo(float).tiny)]
        bounds = []
        for t in tied:
            if t == row:
                bounds.append(float(res["mean_L_EE"][t]))
                continue
            kt = int(res["k"][t])
            counts = _ee_counts(
                X, y, res["params"][t]["C"], res["params"][t]["gamma"], kt, grid, seed
            )
            bounds.append(
                float(np.mean(clopper_pearson_upper(np.array(counts), len(X) // kt, grid.delta)))
            )
        out[f"n_tied{label}"] = len(tied)
        out[f"L_EE_tied{label}"] = bounds
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
    if isinstance(runs, (str, bytes, Mapping)) or not isinstance(runs, Iterable):
        raise ArgumentTypeError(f"runs must be a list of run records (dicts), got {runs!r}")
    runs = list(runs)
    for i, r in enumerate(runs):
        _check_record(r, f"runs[{i}]", ("dataset", "splits", *TABLE1_COLUMNS))
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


def _check_record(record: Any, name: str, keys: Sequence[str]) -> None:
    """A run record (a dict) holding ``keys``; a named error otherwise."""
    check_keys(record, name, keys, "a run record (a dict, as run_one and run_generated return)")


def _by_dataset(runs: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    by_name: dict[str, list[dict[str, Any]]] = {}
    for r in runs:
        by_name.setdefault(r["dataset"], []).append(r)
    return {name: by_name[name] for name in sorted(by_name)}


def read_paper_table(path: str | os.PathLike) -> dict[str, dict[str, float]]:
    """The paper's Table 1 (``paper_table1.csv``): data set -> column -> value.

    The file is a CSV transcribed from Anguita et al. (2012), committed as
    ``results/table1/paper_table1.csv``: a ``dataset`` column, then one number per column.

    Raises
    ------
    FileNotFoundError
        If ``path`` is not a file (the message names it).
    ValueError
        If a line is not a data set name followed by one number per column.

    Examples
    --------
    >>> from cvbook.book import results_path
    >>> paper = read_paper_table(results_path("table1", "paper_table1.csv"))
    >>> paper["image"]["test_err_F_mean"], len(paper)
    (2.7, 13)
    """
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise ArgumentTypeError(f"path must be a non-empty path, got {path!r}")
    if not Path(path).is_file():
        raise FileNotFoundError(
            f"path {str(path)!r} is not a file: read_paper_table reads the paper's Table 1, "
            "a CSV committed as results/table1/paper_table1.csv"
        )
    lines = Path(path).read_text().strip().splitlines()
    header = lines[0].split(",") if lines else [""]
    if header[0] != "dataset":
        raise ValueError(f"{path} must start with a 'dataset' column, got {header[0]!r}")
    out = {}
    for i, line in enumerate(lines[1:], start=2):
        row = line.split(",")
        try:
            out[row[0]] = dict(zip(header[1:], map(float, row[1:]), strict=True))
        except ValueError as err:
            raise ValueError(
                f"{path}, line {i}, must hold a data set name and {len(header) - 1} numbers "
                f"(the columns {header[1:]}), got {line!r} ({err})"
            ) from None
    return out


def compare_with_paper(
    runs: Sequence[dict[str, Any]],
    paper: dict[str, dict[str, float]],
    columns: Sequence[str] = TABLE1_COLUMNS,
) -> dict[str, dict[str, dict]]:
    """Each of our means beside the paper's, the difference in standard-error units.

    Ours: mean and sample standard deviation over the realisations (percent, k* as
    is). The standard error of the difference treats the paper's ± as a standard
    deviation over as many realisations: ``se = sqrt(sd_ours**2 / n + sd_paper**2 / n)``.
    If the ± understate the paper's spread (chapter 5b shows that some cannot be
    standard deviations over realisations), this ``se`` is too small and ``|z|``
    overstates the difference; ``se_wide`` and ``z_wide`` put our standard deviation in
    place of the paper's wherever ours is larger. Pairing pushes the other way: on
    shared splits the two means are positively correlated, which neither ``se`` counts.

    Returns
    -------
    dict
        ``out[name][column]`` has ``ours``, ``sd``, ``paper``, ``paper_sd``, ``n``,
        ``diff`` (ours - paper), ``se``, ``z = diff / se``, ``se_wide`` and
        ``z_wide = diff / se_wide``.

    Examples
    --------
    >>> runs = [{"dataset": "x", "L_EE": v} for v in (0.10, 0.12, 0.14)]
    >>> row = compare_with_paper(runs, {"x": {"L_EE_mean": 10.0, "L_EE_std": 2.0}},
    ...                          ["L_EE"])["x"]["L_EE"]
    >>> round(row["diff"], 6), round(row["z"], 3), round(row["z_wide"], 3)
    (2.0, 1.225, 1.225)
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
            se_wide = float(np.sqrt(sd**2 / n + max(sd, p_sd) ** 2 / n))
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
                "se_wide": se_wide,
                "z_wide": diff / se_wide if se_wide > 0 else float("nan"),
            }
    return out


def paired_by_dataset(
    runs: Sequence[dict[str, Any]], a: str, b: str, scale: float = 100.0
) -> dict[str, Paired]:
    """Per data set, the mean over realisations of ``scale * (a - b)`` with its standard error.

    ``a`` and ``b`` are measured on the same realisation (same training and test set),
    so the difference is paired: :func:`cvbook.stats.paired_difference` of each data set's
    differences, a :class:`cvbook.stats.Paired` (``.mean``, ``.se``, ``.z``). Every data
    set needs at least 2 runs for a standard error.

    Examples
    --------
    >>> runs = [{"dataset": "x", "u": u, "v": v} for u, v in ((0.3, 0.1), (0.4, 0.1))]
    >>> d = paired_by_dataset(runs, "u", "v")["x"]
    >>> round(d.mean, 6), round(d.se, 6), d.n
    (25.0, 5.0, 2)
    """
    out = {}
    for name, rs in _by_dataset(runs).items():
        if len(rs) < 2:
            raise ValueError(
                f"runs must hold at least 2 runs of each data set for a standard error; "
                f"{name!r} has {len(rs)}"
            )
        out[name] = paired_difference(scale * np.array([r[a] - r[b] for r in rs], dtype=float))
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
    check_option(label, "label", [lb for lb, _ in _SELECTED])
    _check_record(run, "run", (f"ee_errors{label}", f"n_ee{label}"))
    return float(
        np.mean(
            clopper_pearson_upper(np.asarray(run[f"ee_errors{label}"]), run[f"n_ee{label}"], delta)
        )
    )


def min_sd_of_integers(mean: float, n: int, lower: int = 3) -> float:
    """Smallest standard deviation that ``n`` integers ``>= lower`` with this mean can have.

    The integers closest to each other -- ``r`` of them equal to ``q + 1`` and ``n - r``
    equal to ``q``, where ``n * mean = n * q + r`` -- have the smallest spread; their
    standard deviation (``ddof=0``, the smaller of the two conventions) is
    ``sqrt(r * (n - r)) / n``. A reported mean ± sd of ``n`` integer values whose sd is
    below this (allowing for its rounding) cannot be a standard deviation of those values.

    Parameters
    ----------
    mean : float
        The mean of the ``n`` integers; ``n * mean`` must be an integer (to 1e-6).
    n : int
        How many integers, ``n >= 1``.
    lower : int, default=3
        Smallest value an integer may take (Algorithm 1's ``k >= 3``).

    Returns
    -------
    float

    Examples
    --------
    >>> [round(min_sd_of_integers(m, 10), 3) for m in (3.1, 3.2, 3.3, 4.0)]
    [0.3, 0.4, 0.458, 0.0]
    >>> min_sd_of_integers(3.15, 10)
    Traceback (most recent call last):
    ...
    ValueError: mean times n must be an integer (a sum of n integers); got 3.15 * 10 = 31.5
    """
    n = check_int(n, "n", minimum=1)
    lower = check_int(lower, "lower")
    mean = check_float(mean, "mean")
    total = mean * n
    if abs(total - round(total)) > 1e-6:
        raise ValueError(
            f"mean times n must be an integer (a sum of n integers); got {mean!r} * {n} = {total:g}"
        )
    if round(total) < lower * n:
        raise ValueError(f"mean must be at least lower = {lower}, got {mean!r}")
    r = round(total) % n
    return float(np.sqrt(r * (n - r)) / n)


def binomial_floor(p: Any, n_test: Any, n_pool: Any = None) -> np.ndarray:
    """Standard deviation of a fixed classifier's error rate on a random test set.

    ``sqrt(p (1 - p) / n_test)`` for a test set drawn with replacement (binomial); for
    ``n_test`` points drawn without replacement from a pool of ``n_pool`` (Rätsch's
    realisations split one pool), times the finite-population correction
    ``sqrt((n_pool - n_test) / (n_pool - 1))`` (hypergeometric).

    Parameters
    ----------
    p : float or array_like
        Error rate of the classifier on the pool, in [0, 1].
    n_test : int or array_like
        Size of the test set, ``>= 1``.
    n_pool : int or array_like, optional
        Size of the pool, ``>= n_test`` and ``>= 2``; ``None``: binomial.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> round(float(binomial_floor(0.228, 2051)), 4)
    0.0093
    >>> round(float(binomial_floor(0.228, 2051, n_pool=2201)), 4)
    0.0024
    """
    p = np.asarray(p, dtype=float)
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError(f"p must lie in [0, 1], got {p!r}")
    n_test = np.asarray(n_test)
    if not np.issubdtype(n_test.dtype, np.integer) or np.any(n_test < 1):
        raise ValueError(f"n_test must be integers >= 1, got {n_test!r}")
    var = p * (1 - p) / n_test
    if n_pool is not None:
        n_pool = np.asarray(n_pool)
        if (
            not np.issubdtype(n_pool.dtype, np.integer)
            or np.any(n_pool < n_test)
            or np.any(n_pool < 2)
        ):
            raise ValueError(f"n_pool must be integers >= max(n_test, 2), got {n_pool!r}")
        var = var * (n_pool - n_test) / (n_pool - 1)
    return np.sqrt(var)


EDGES = ("gamma_low", "gamma_high", "C_low", "C_high", "k_high")


def grid_edges(runs: Sequence[dict[str, Any]], grid: Table1Grid) -> dict[str, dict[str, int]]:
    """Per data set, how many runs chose a value on an edge of the grid.

    The tuned (C, gamma, k): the smallest or largest gamma factor, the smallest or
    largest C, and k* at the top of the grid's k range (its bottom, k = 3, is
    Algorithm 1's own floor, not a limit of the grid). ``any`` counts runs on at least
    one edge; ``n`` the runs.

    Examples
    --------
    >>> runs = [{"dataset": "x", "C": 0.1, "gamma_factor": 1.0, "k_star": 3},
    ...         {"dataset": "x", "C": 10.0, "gamma_factor": 10.0, "k_star": 10}]
    >>> grid_edges(runs, TABLE1_GRID)["x"]
    {'n': 2, 'gamma_low': 0, 'gamma_high': 1, 'C_low': 1, 'C_high': 0, 'k_high': 1, 'any': 2}
    """
    grid = _check_grid(grid)
    fac = np.log(np.asarray(grid.gamma_factors, dtype=float))
    out: dict[str, dict[str, int]] = {}
    for name, rs in _by_dataset(runs).items():
        row = dict.fromkeys(("n", *EDGES, "any"), 0)
        for r in rs:
            g = int(np.argmin(np.abs(fac - np.log(r["gamma_factor"]))))
            on = {
                "gamma_low": g == 0,
                "gamma_high": g == len(fac) - 1,
                "C_low": r["C"] == min(grid.C_values),
                "C_high": r["C"] == max(grid.C_values),
                "k_high": r["k_star"] == max(grid.k_values),
            }
            row["n"] += 1
            for key, v in on.items():
                row[key] += int(v)
            row["any"] += int(any(on.values()))
        out[name] = row
    return out
