"""Do the guarantees hold? Coverage and tightness of risk estimates (chapter 6).

On a distribution whose true risk is known (exactly for a linear rule, or to
about 0.05% from a large fresh sample), draw a data set of ``n`` points, run
every estimate on it, and record the pair *(estimate, true risk of the model
the estimate speaks for)*. Repeat on many independent data sets:

* the **coverage** of an estimate is the fraction of repetitions in which it
  is at least the true risk; a ``1 - delta`` upper bound should reach
  ``1 - delta``;
* its **slack** (tightness) is ``estimate - true risk``, one number per
  repetition, whose distribution says how much a valid bound gives away.

The estimates (:data:`METHODS`), each with the model it speaks for:

``holdout``
    Clopper--Pearson bound on the errors of a model trained on ``n - n/k``
    points and scored on the ``n/k`` others; model: that trained model.
``ckcv``
    :class:`cvbook.ckcv.CompleteKCV`'s ``L_EE*``; model: a member of ``F*``
    drawn at random, whose risk is the mean of the members' risks.
``ckcv_refit``
    The same ``L_EE*`` read as a bound on the model refit on all ``n`` points
    with the selected parameters (a common misuse: nothing guarantees it).
``kfold``
    The mean error over ``k`` folds; model: the estimator refit on all ``n``.
``kfold_2std``
    Mean + 2 standard deviations of the fold errors; same model.

Every repetition runs through :func:`cvbook.simulation.repeat`, seeded per
task, so the results are identical for any ``n_jobs``.

The module is also a command (``python -m cvbook.coverage --help``) that runs
a large study and writes its records and provenance atomically.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
from sklearn.model_selection import KFold, train_test_split
from sklearn.svm import SVC

from ._checks import check_int, check_open_unit
from .bounds import clopper_pearson_upper
from .ckcv import CompleteKCV
from .datasets.synthetic import Ringnorm, Twonorm, TwoGaussians
from .simulation import repeat, saved_repetitions
from .provenance import atomic_write, atomic_write_text, git_commit, git_dirty, package_versions

__all__ = [
    "METHODS",
    "DISTRIBUTIONS",
    "LEARNERS",
    "TUNED_K",
    "make_distribution",
    "default_learner",
    "true_risk",
    "coverage_trial",
    "run_coverage",
    "summarize",
    "binomial_se",
    "format_table",
    "save_results",
    "load_results",
]

#: The estimates compared, in the order the chapter shows them, with a label.
METHODS: dict[str, str] = {
    "holdout": "hold-out CP bound",
    "ckcv": "C-KCV L_EE*, random member of F*",
    "ckcv_refit": "C-KCV L_EE*, model refit on all n (misuse)",
    "kfold": "mean K-fold error, refit model",
    "kfold_2std": "mean + 2 std K-fold, refit model",
}

#: Distributions the study knows by name.
DISTRIBUTIONS: tuple[str, ...] = ("twogaussians", "twonorm", "ringnorm")

#: ``k`` recorded for C-KCV when k itself is tuned over the ``k_values`` (``k*``).
TUNED_K = 0

_METHOD_INDEX = {name: i for i, name in enumerate(METHODS)}


# --------------------------------------------------------------------------- #
# Distributions, learners and true risks

def make_distribution(name: str):
    """The distribution called ``name`` (one of :data:`DISTRIBUTIONS`).

    ``"twogaussians"`` is ``TwoGaussians(separation=2, dim=10)`` (Bayes risk
    ``Phi(-1) = 0.159``); ``"twonorm"`` and ``"ringnorm"`` are Breiman's, in
    dimension 20.

    Examples
    --------
    >>> round(make_distribution("twonorm").bayes_risk, 4)
    0.0228
    """
    if name == "twogaussians":
        return TwoGaussians(separation=2.0, dim=10)
    if name == "twonorm":
        return Twonorm()
    if name == "ringnorm":
        return Ringnorm()
    raise ValueError(f"distribution must be one of {list(DISTRIBUTIONS)}, got {name!r}")


#: Learners the command line knows: ``default`` (see :func:`default_learner`) or ``svc``.
LEARNERS: tuple[str, ...] = ("default", "svc")


def default_learner(name: str, learner: str = "default") -> tuple[Any, dict[str, list]]:
    """``(estimator, param_grid)`` the study uses on the distribution ``name``.

    ``learner="default"``: a shrinkage LDA on the two Gaussians and on twonorm
    (linear, as their Bayes rules are, so the true risk is exact and the study
    is fast); a regularized QDA on ringnorm, whose Bayes rule is quadratic (its
    true risk comes from a fresh sample). ``learner="svc"``: the Gaussian-kernel
    SVM of Anguita et al. (2012), ``C`` in {1, 10}; its true risk always comes
    from a fresh sample, which costs seconds per repetition.

    Examples
    --------
    >>> est, grid = default_learner("twogaussians")
    >>> type(est).__name__, grid
    ('LinearDiscriminantAnalysis', {'shrinkage': [0.0, 0.8]})
    >>> default_learner("ringnorm", learner="svc")[1]
    {'C': [1.0, 10.0]}
    """
    make_distribution(name)
    if learner not in LEARNERS:
        raise ValueError(f"learner must be one of {list(LEARNERS)}, got {learner!r}")
    if learner == "svc":
        return SVC(kernel="rbf", gamma="scale"), {"C": [1.0, 10.0]}
    if name in ("twogaussians", "twonorm"):
        return LinearDiscriminantAnalysis(solver="lsqr"), {"shrinkage": [0.0, 0.8]}
    return QuadraticDiscriminantAnalysis(), {"reg_param": [0.0, 0.5]}


def _linear_rule(model) -> tuple[np.ndarray, float] | None:
    """``(w, b)`` with ``predict(x) = sign(w @ x + b)``, or None if not linear."""
    coef = getattr(model, "coef_", None)
    intercept = getattr(model, "intercept_", None)
    classes = getattr(model, "classes_", None)
    if coef is None or intercept is None or classes is None:
        return None
    coef = np.asarray(coef)
    if coef.shape[0] != 1 or list(classes) != [-1, 1]:
        return None
    return coef.ravel(), float(np.ravel(intercept)[0])


def true_risk(model, distribution, X_fresh: np.ndarray | None = None,
              y_fresh: np.ndarray | None = None, batch_size: int = 20_000) -> float:
    """True 0-1 risk of a fitted ``model`` on ``distribution``.

    Exact when the model is a linear rule and the distribution has a
    ``linear_rule_risk`` method; otherwise the error on the fresh sample
    ``(X_fresh, y_fresh)`` (standard error ``sqrt(p (1 - p) / len(y_fresh))``).

    Parameters
    ----------
    model : fitted classifier
    distribution : object with ``sample``, and optionally ``linear_rule_risk``
    X_fresh, y_fresh : numpy.ndarray, optional
        A large sample from ``distribution``, independent of the training data.
        Required when the risk is not exact.
    batch_size : int, default=20_000
        Points predicted at a time.

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
    >>> dist = TwoGaussians()
    >>> model = LinearDiscriminantAnalysis().fit(*dist.sample(500, random_state=0))
    >>> round(true_risk(model, dist), 4)
    0.1608
    """
    rule = _linear_rule(model)
    if rule is not None and hasattr(distribution, "linear_rule_risk"):
        return distribution.linear_rule_risk(*rule)
    if X_fresh is None or y_fresh is None:
        raise ValueError("X_fresh and y_fresh are needed: the model's risk is not exact "
                         f"on {type(distribution).__name__}")
    errors = 0
    for start in range(0, len(y_fresh), batch_size):
        stop = start + batch_size
        errors += int(np.sum(model.predict(X_fresh[start:stop]) != y_fresh[start:stop]))
    return errors / len(y_fresh)


def _members_risk(search: CompleteKCV, k: int | None, distribution, fresh_sample,
                  batch_size: int = 20_000) -> float:
    """Risk of a member of F* (at ``k``) drawn at random: the mean member risk."""
    members = search.members(k)
    rules = [_linear_rule(m) for m in members]
    if all(r is not None for r in rules) and hasattr(distribution, "linear_rule_risk"):
        return float(np.mean([distribution.linear_rule_risk(*r) for r in rules]))
    X_fresh, y_fresh = fresh_sample()
    total = 0.0
    for start in range(0, len(y_fresh), batch_size):
        stop = start + batch_size
        part = search.member_error(X_fresh[start:stop], y_fresh[start:stop], k=k)
        total += part * len(y_fresh[start:stop])
    return total / len(y_fresh)


# --------------------------------------------------------------------------- #
# One repetition

def _check_values(values: Any, name: str, kind: str) -> list:
    try:
        values = list(values)
    except TypeError:
        raise ValueError(f"{name} must be a non-empty sequence, got {values!r}")
    if not values:
        raise ValueError(f"{name} must be a non-empty sequence, got {values!r}")
    if kind == "delta":
        check_open_unit(values, name)
        return [float(v) for v in values]
    return [check_int(v, name, minimum=3) for v in values]


def _select_row(cv_results: Mapping, delta: float, k: int | None) -> int:
    """Row CompleteKCV would select at level ``delta`` (same tie rule)."""
    ks = np.asarray(cv_results["k"])
    n_splits = sum(1 for key in cv_results if key.endswith("_ms_errors"))
    ms = np.column_stack([cv_results[f"split{i}_ms_errors"] for i in range(n_splits)])
    L_ms = clopper_pearson_upper(ms, np.asarray(cv_results["n_ms"])[:, None], delta).mean(axis=1)
    rows = np.arange(len(ks)) if k is None else np.flatnonzero(ks == k)
    return int(rows[np.argmin(L_ms[rows])])


def _bound_of_row(cv_results: Mapping, row: int, delta: float) -> float:
    """``L_EE`` of one row of ``cv_results_`` at level ``delta``."""
    n_splits = sum(1 for key in cv_results if key.endswith("_ee_errors"))
    ee = np.array([cv_results[f"split{i}_ee_errors"][row] for i in range(n_splits)])
    return float(np.mean(clopper_pearson_upper(ee, int(cv_results["n_ee"][row]), delta)))


def coverage_trial(rng: np.random.Generator, distribution, n_values: Sequence[int],
                   k_values: Sequence[int], delta_values: Sequence[float], estimator,
                   param_grid: Mapping, n_splits: int = 5, n_fresh: int = 100_000,
                   tune_k: bool = False) -> np.ndarray:
    """One repetition: every estimate, at every ``(n, k, delta)``, on fresh data.

    For each ``n`` one data set is drawn; hold-out and K-fold evaluate
    ``estimator`` as given, C-KCV tunes ``param_grid`` (and ``k`` over
    ``k_values`` if ``tune_k``). One :class:`~cvbook.ckcv.CompleteKCV` fit
    serves every ``k`` (rows restricted to that ``k``) and every ``delta``
    whose selection is the same; a ``delta`` that selects other rows is refit.

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness.
    distribution : object with ``sample(m, random_state)``
    n_values : sequence of int
        Sample sizes.
    k_values : sequence of int
        Numbers of folds, each >= 3; the hold-out tests on ``n // k`` points.
    delta_values : sequence of float
        Levels of the bounds, in (0, 1).
    estimator : classifier
    param_grid : dict
        Grid for C-KCV.
    n_splits : int, default=5
        C-KCV's Monte Carlo splits.
    n_fresh : int, default=100_000
        Size of the fresh sample for models whose risk is not exact.
    tune_k : bool, default=False
        Also record C-KCV with k tuned over ``k_values`` (as ``k = 0``).

    Returns
    -------
    numpy.ndarray of shape (n_records, 6)
        Columns ``method index, n, k, delta, estimate, true risk``.

    Examples
    --------
    >>> est, grid = default_learner("twogaussians")
    >>> rows = coverage_trial(np.random.default_rng(0), make_distribution("twogaussians"),
    ...                       [40], [4], [0.05], est, grid, n_splits=2)
    >>> rows.shape          # one row per estimate
    (5, 6)
    """
    rows: list[tuple[float, ...]] = []
    seeds = rng.integers(0, 2**31 - 1, size=(len(n_values), 4))
    fresh_seed = int(rng.integers(0, 2**31 - 1))
    fresh: list[np.ndarray] = []

    def fresh_sample() -> tuple[np.ndarray, np.ndarray]:
        # drawn only when some model's risk is not exact
        if not fresh:
            fresh.extend(distribution.sample(n_fresh, random_state=fresh_seed))
        return fresh[0], fresh[1]

    def risk(model) -> float:
        if _linear_rule(model) is not None and hasattr(distribution, "linear_rule_risk"):
            return true_risk(model, distribution)
        return true_risk(model, distribution, *fresh_sample())

    for (n, s) in zip(n_values, seeds):
        X, y = distribution.sample(n, random_state=int(s[0]))
        refit = clone(estimator).fit(X, y)
        refit_risk = risk(refit)
        for k in k_values:
            X_tr, X_te, y_tr, y_te = train_test_split(
                X, y, test_size=n // k, random_state=int(s[1]) + k)
            held = clone(estimator).fit(X_tr, y_tr)
            held_errors = int(np.sum(held.predict(X_te) != y_te))
            held_risk = risk(held)
            fold_errors = []
            for tr, te in KFold(k, shuffle=True, random_state=int(s[2]) + k).split(X):
                model = clone(estimator).fit(X[tr], y[tr])
                fold_errors.append(np.mean(model.predict(X[te]) != y[te]))
            mean, std = float(np.mean(fold_errors)), float(np.std(fold_errors, ddof=1))
            for delta in delta_values:
                rows.append((_METHOD_INDEX["holdout"], n, k, delta,
                             clopper_pearson_upper(held_errors, n // k, delta), held_risk))
                rows.append((_METHOD_INDEX["kfold"], n, k, delta, mean, refit_risk))
                rows.append((_METHOD_INDEX["kfold_2std"], n, k, delta, mean + 2 * std, refit_risk))

        search_ks = [None] + list(k_values) if tune_k else list(k_values)
        fits: list[CompleteKCV] = []
        # the same model is never scored twice: a refit with the selected params
        # that are the estimator's own is ``refit``; a row's members are scored once
        base_params = repr(sorted(estimator.get_params().items()))
        misuse_risks: dict[str, float] = {base_params: refit_risk}
        member_risks: dict[tuple[int, int], float] = {}
        for delta in delta_values:
            # reuse a fit whose selected rows are the ones this delta selects
            search = None
            for fitted in fits:
                if all(_select_row(fitted.cv_results_, delta, k) == fitted.selected_index(k)
                       for k in search_ks):
                    search = fitted
                    break
            if search is None:
                search = CompleteKCV(estimator=estimator, param_grid=param_grid,
                                     k_values=list(k_values), n_splits=n_splits, delta=delta,
                                     random_state=int(s[3]), n_jobs=1).fit(X, y)
                fits.append(search)
            for k in search_ks:
                row = search.selected_index(k)
                bound = _bound_of_row(search.cv_results_, row, delta)
                if (id(search), row) not in member_risks:
                    member_risks[id(search), row] = _members_risk(
                        search, k, distribution, fresh_sample)
                misuse = clone(estimator).set_params(**search.cv_results_["params"][row])
                key = repr(sorted(misuse.get_params().items()))
                if key not in misuse_risks:
                    misuse_risks[key] = risk(misuse.fit(X, y))
                k_label = TUNED_K if k is None else k
                rows.append((_METHOD_INDEX["ckcv"], n, k_label, delta, bound,
                             member_risks[id(search), row]))
                rows.append((_METHOD_INDEX["ckcv_refit"], n, k_label, delta, bound,
                             misuse_risks[key]))
    return np.array(rows, dtype=float)


# --------------------------------------------------------------------------- #
# Many repetitions

def run_coverage(distribution: str = "twogaussians", n_values: Sequence[int] = (200,),
                 k_values: Sequence[int] = (5,), delta_values: Sequence[float] = (0.05,),
                 n_repeats: int = 200, estimator=None, param_grid: Mapping | None = None,
                 n_splits: int = 5, n_fresh: int = 100_000, tune_k: bool = False,
                 random_state: int | None = 0, n_jobs: int | None = None,
                 progress: bool = False,
                 checkpoint: str | os.PathLike | None = None) -> dict[str, np.ndarray]:
    """Repeat :func:`coverage_trial` ``n_repeats`` times, in parallel.

    Parameters
    ----------
    distribution : str, default="twogaussians"
        One of :data:`DISTRIBUTIONS`.
    n_values, k_values, delta_values : sequences
        Sample sizes (each >= 2 k), numbers of folds (each >= 3), levels.
    n_repeats : int, default=200
        Independent data sets per ``n``.
    estimator, param_grid : optional
        Default: :func:`default_learner` for the distribution.
    n_splits : int, default=5
        C-KCV's Monte Carlo splits.
    n_fresh : int, default=100_000
        Fresh sample for risks that are not exact.
    tune_k : bool, default=False
        Also run C-KCV with k tuned (recorded as ``k = 0``).
    random_state : int or None, default=0
        Root seed; repetition ``i`` depends on it and ``i`` only.
    n_jobs : int or None
        joblib workers; the results do not depend on it.
    progress : bool, default=False
        tqdm progress bar.
    checkpoint : str or path-like, optional
        Folder where each finished repetition is saved at once, so that an
        interrupted run resumes where it stopped (see
        :func:`cvbook.simulation.repeat`).

    Returns
    -------
    dict of numpy.ndarray
        Columns ``method`` (name), ``n``, ``k``, ``delta``, ``estimate``,
        ``risk``, ``repeat`` (one entry per record).

    Examples
    --------
    >>> res = run_coverage(n_values=[60], n_repeats=2, random_state=0)
    >>> sorted(set(res["method"])) == sorted(METHODS)
    True
    """
    dist = make_distribution(distribution)
    n_values = [check_int(v, "n_values", minimum=1) for v in _check_values(n_values, "n_values", "n")]
    k_values = _check_values(k_values, "k_values", "k")
    delta_values = _check_values(delta_values, "delta_values", "delta")
    n_repeats = check_int(n_repeats, "n_repeats", minimum=1)
    n_splits = check_int(n_splits, "n_splits", minimum=1)
    n_fresh = check_int(n_fresh, "n_fresh", minimum=1000)
    for n in n_values:
        if n < 2 * max(k_values):
            raise ValueError(f"n_values must be >= 2 * max(k_values) = {2 * max(k_values)}, got {n}")
    if estimator is None:
        estimator, grid = default_learner(distribution)
        param_grid = grid if param_grid is None else param_grid
    param_grid = {} if param_grid is None else param_grid
    results = repeat(coverage_trial, n_repeats, random_state=random_state, n_jobs=n_jobs,
                     progress=progress, desc=f"coverage on {distribution}",
                     checkpoint=checkpoint, distribution=dist,
                     n_values=n_values, k_values=k_values, delta_values=delta_values,
                     estimator=estimator, param_grid=param_grid, n_splits=n_splits,
                     n_fresh=n_fresh, tune_k=tune_k)
    reps = np.concatenate([np.full(len(r), i) for i, r in enumerate(results)])
    table = np.concatenate(results)
    names = np.array(list(METHODS))
    return {
        "method": names[table[:, 0].astype(int)],
        "n": table[:, 1].astype(int),
        "k": table[:, 2].astype(int),
        "delta": table[:, 3],
        "estimate": table[:, 4],
        "risk": table[:, 5],
        "repeat": reps.astype(int),
    }


def binomial_se(coverage: float | np.ndarray, n_repeats: int | np.ndarray):
    """Monte Carlo standard error ``sqrt(c (1 - c) / R)`` of a coverage ``c``.

    Examples
    --------
    >>> round(binomial_se(0.95, 400), 4)
    0.0109
    """
    c = np.asarray(coverage, dtype=float)
    se = np.sqrt(c * (1 - c) / np.asarray(n_repeats, dtype=float))
    return float(se) if se.ndim == 0 else se


def summarize(records: Mapping[str, np.ndarray]) -> list[dict[str, Any]]:
    """Coverage and slack of each estimate, per ``(method, n, k, delta)``.

    Parameters
    ----------
    records : dict of numpy.ndarray
        As returned by :func:`run_coverage`.

    Returns
    -------
    list of dict
        One row per group, methods in :data:`METHODS` order: ``method, n, k,
        delta, n_repeats, coverage, se`` (binomial standard error),
        ``slack_mean, slack_std, slack_q05, slack_q50, slack_q95`` (slack =
        estimate - true risk) and ``risk_mean``.

    Examples
    --------
    >>> rec = {"method": np.array(["holdout"] * 4), "n": np.array([100] * 4),
    ...        "k": np.array([5] * 4), "delta": np.array([0.05] * 4),
    ...        "estimate": np.array([0.3, 0.2, 0.25, 0.1]), "risk": np.full(4, 0.15)}
    >>> row = summarize(rec)[0]
    >>> row["coverage"], round(row["se"], 3)
    (0.75, 0.217)
    """
    method = np.asarray(records["method"])
    keys = np.column_stack([np.asarray(records[c], dtype=float) for c in ("n", "k", "delta")])
    estimate, risk = np.asarray(records["estimate"]), np.asarray(records["risk"])
    out = []
    for name in METHODS:
        in_method = method == name
        if not in_method.any():
            continue
        for key in np.unique(keys[in_method], axis=0):
            sel = in_method & np.all(keys == key, axis=1)
            slack = estimate[sel] - risk[sel]
            cov = float(np.mean(slack >= 0))
            out.append({
                "method": name, "n": int(key[0]), "k": int(key[1]), "delta": float(key[2]),
                "n_repeats": int(sel.sum()), "coverage": cov,
                "se": binomial_se(cov, int(sel.sum())),
                "slack_mean": float(slack.mean()),
                "slack_std": float(slack.std(ddof=1)) if slack.size > 1 else 0.0,
                "slack_q05": float(np.quantile(slack, 0.05)),
                "slack_q50": float(np.quantile(slack, 0.5)),
                "slack_q95": float(np.quantile(slack, 0.95)),
                "risk_mean": float(risk[sel].mean()),
            })
    return out


def format_table(summary: Sequence[Mapping[str, Any]], digits: int = 3) -> str:
    """A markdown table of :func:`summarize`'s rows: coverage ± SE, slack mean ± std.

    Examples
    --------
    >>> print(format_table([{"method": "kfold", "n": 100, "k": 5, "delta": 0.05,
    ...     "n_repeats": 10, "coverage": 0.5, "se": 0.158, "slack_mean": 0.0,
    ...     "slack_std": 0.03, "risk_mean": 0.2}]).splitlines()[2])
    | mean K-fold error, refit model | 100 | 5 | 0.05 | — | 0.500 ± 0.158 | 0.000 ± 0.030 |
    """
    lines = ["| estimate | n | k | δ | nominal | coverage ± SE | slack (bound − risk) |",
             "|---|---|---|---|---|---|---|"]
    for r in summary:
        k = "k*" if r["k"] == TUNED_K else str(r["k"])
        is_bound = r["method"] in ("holdout", "ckcv", "ckcv_refit")
        nominal = f"{1 - r['delta']:.2f}" if is_bound else "—"
        lines.append(
            f"| {METHODS[r['method']]} | {r['n']} | {k} | {r['delta']:g} | {nominal} | "
            f"{r['coverage']:.{digits}f} ± {r['se']:.{digits}f} | "
            f"{r['slack_mean']:.{digits}f} ± {r['slack_std']:.{digits}f} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- #
# Large runs: results on disk, with provenance

_KINDS = {"U": str, "i": int, "f": float}


def _records_path(path: Path) -> Path:
    return path.parent / f"{path.name}.records.csv.gz"


def save_results(path: str | os.PathLike, records: Mapping[str, np.ndarray],
                 provenance: Mapping[str, Any]) -> None:
    """Write ``records`` to ``<path>.records.csv.gz`` and summary + provenance to ``<path>.json``.

    The records are a gzip-compressed CSV whose header names each column with
    its kind (``method:U``, ``n:i``, ``risk:f``); floats are written with
    ``repr``, so reading them back gives the same numbers bit for bit. Both
    files are written to a temporary name and renamed, so a reader never sees
    half a file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> rec = {"method": np.array(["kfold"]), "n": np.array([50]), "k": np.array([5]),
    ...        "delta": np.array([0.05]), "estimate": np.array([0.2]), "risk": np.array([0.1])}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     save_results(pathlib.Path(tmp) / "run", rec, {"seed": 0})
    ...     records, provenance = load_results(pathlib.Path(tmp) / "run")
    >>> records["estimate"].tolist(), records["n"].dtype.kind, provenance
    ([0.2], 'i', {'seed': 0})
    """
    path = Path(path)
    columns = {k: np.asarray(v) for k, v in records.items()}
    header = []
    for key, values in columns.items():
        kind = values.dtype.kind if values.dtype.kind in "if" else "U"
        if "," in key or ":" in key:
            raise ValueError(f"records keys must not hold ',' or ':', got {key!r}")
        header.append(f"{key}:{kind}")
    text = ",".join(header) + "\n" + "".join(
        ",".join(repr(float(v)) if h.endswith(":f") else str(v) for h, v in zip(header, row)) + "\n"
        for row in zip(*(values.tolist() for values in columns.values())))

    def write_gz(tmp: str) -> None:
        with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh:
            fh.write(text.encode())

    atomic_write(_records_path(path), write_gz)
    payload = {"provenance": dict(provenance), "summary": summarize(records)}
    atomic_write_text(path.with_suffix(".json"), json.dumps(payload, indent=1) + "\n")


def load_results(path: str | os.PathLike) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Read what :func:`save_results` wrote: ``(records, provenance)``.

    Examples
    --------
    >>> load_results("no/such/run")
    Traceback (most recent call last):
    ...
    FileNotFoundError: [Errno 2] No such file or directory: 'no/such/run.records.csv.gz'
    """
    path = Path(path)
    with gzip.open(_records_path(path), "rt") as fh:
        lines = fh.read().splitlines()
    header = [h.split(":") for h in lines[0].split(",")]
    rows = [line.split(",") for line in lines[1:]]
    records = {}
    for j, (key, kind) in enumerate(header):
        values = [_KINDS[kind](row[j]) for row in rows]
        records[key] = np.array(values, dtype={"U": str, "i": np.int64, "f": np.float64}[kind])
    payload = json.loads(path.with_suffix(".json").read_text())
    return records, payload["provenance"]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run one study and save it with its provenance.

    Examples
    --------
    >>> main(["--help"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    SystemExit: 0
    """
    parser = argparse.ArgumentParser(
        prog="python -m cvbook.coverage",
        description="Coverage and tightness of risk estimates on a known distribution.")
    parser.add_argument("--out", required=True, help="output path, without extension")
    parser.add_argument("--distribution", default="twogaussians", choices=DISTRIBUTIONS)
    parser.add_argument("--learner", default="default", choices=LEARNERS)
    parser.add_argument("--n", type=int, nargs="+", default=[200])
    parser.add_argument("--k", type=int, nargs="+", default=[5])
    parser.add_argument("--delta", type=float, nargs="+", default=[0.05])
    parser.add_argument("--n-repeats", type=int, default=200)
    parser.add_argument("--n-splits", type=int, default=5)
    parser.add_argument("--n-fresh", type=int, default=100_000)
    parser.add_argument("--tune-k", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-jobs", type=int, default=None)
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--checkpoint", default=None,
                        help="folder for finished repetitions (default: OUT.parts); re-running "
                             "the same command resumes from it, and it is removed once the "
                             "results are written")
    args = parser.parse_args(argv)
    checkpoint = Path(args.checkpoint or f"{args.out}.parts")
    resumed = len(saved_repetitions(checkpoint))
    commit, dirty = git_commit(), git_dirty()   # the code that runs: read before the run
    start = time.time()
    estimator, grid = default_learner(args.distribution, args.learner)
    records = run_coverage(args.distribution, args.n, args.k, args.delta, args.n_repeats,
                           estimator=estimator, param_grid=grid,
                           n_splits=args.n_splits, n_fresh=args.n_fresh, tune_k=args.tune_k,
                           random_state=args.seed, n_jobs=args.n_jobs,
                           progress=not args.no_progress, checkpoint=checkpoint)
    provenance = {
        "command": "python -m cvbook.coverage " + " ".join(
            sys.argv[1:] if argv is None else list(argv)),
        "parameters": {key: value for key, value in vars(args).items()
                       if key not in ("no_progress", "checkpoint")},
        "estimator": repr(estimator), "param_grid": grid,
        "versions": package_versions(), "commit": commit, "uncommitted_package_files": dirty,
        "wall_time_s": round(time.time() - start, 1), "cpu_count": os.cpu_count(),
        "repetitions_resumed": resumed,   # done by an earlier, interrupted run (not timed here)
        "n_jobs": args.n_jobs, "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    save_results(args.out, records, provenance)
    shutil.rmtree(checkpoint)   # the results are on disk: the partial ones are not needed
    print(f"wrote {_records_path(Path(args.out))} and .json "
          f"in {provenance['wall_time_s']} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
