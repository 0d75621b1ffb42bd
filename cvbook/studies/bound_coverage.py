"""Do the guarantees hold? Coverage and tightness of risk estimates (chapter 6).

On a distribution whose true risk is known (exactly for a linear rule, or from a
large fresh sample with standard error sqrt(L (1 - L) / n_fresh): 0.06-0.10 % for the
QDA risks of chapter 6's ringnorm run), draw a data set of ``n`` points, run
every estimate on it, and record the pair *(estimate, true risk of the model
the estimate speaks for)*. Repeat on many independent data sets:

* the **coverage** of an estimate is the fraction of repetitions in which it
  is at least the true risk; a ``1 - delta`` upper bound should reach
  ``1 - delta``;
* its **slack** (tightness) is ``estimate - true risk``, one number per
  repetition, whose distribution says how much a valid bound gives away.

A coverage measured on ``R`` repetitions is a binomial proportion: :func:`summarize`
reports its Clopper--Pearson interval (:func:`coverage_interval`), which stays honest
at a coverage of 1, where the standard error :func:`binomial_se` is zero. Two
estimates measured on the same repetitions are compared by the paired difference of
a per-repetition quantity and its standard error, :func:`cvbook.stats.paired_difference`.

The true risks are those of :mod:`cvbook.datasets`: exact for a linear rule on a
distribution with ``linear_rule_risk``, otherwise
:func:`cvbook.datasets.monte_carlo_risk` on one fresh sample per repetition.

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

The long runs behind the chapter's committed figures (command line, records on
disk, resume) are driven by :mod:`cvbook.runs.coverage`.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import KFold, train_test_split

from ..book import format_pm
from ..bounds import clopper_pearson_interval, clopper_pearson_upper
from ..ckcv import CompleteKCV
from ..datasets.synthetic import DISTRIBUTIONS, make_distribution, true_risk
from ..learners import get_learner
from ..risk import score_splits
from ..simulation import repeat
from ..validation import (
    ArgumentTypeError,
    check_bool,
    check_distribution,
    check_finite,
    check_int,
    check_integer_array,
    check_keys,
    check_open_unit,
    check_random_state,
)

__all__ = [
    "COVERAGE_LEARNERS",
    "DEFAULT_LEARNERS",
    "METHODS",
    "TUNED_K",
    "binomial_se",
    "coverage_interval",
    "coverage_trial",
    "default_learner",
    "fold_spread_rule",
    "format_table",
    "run_coverage",
    "select_records",
    "summarize",
]

#: The estimates compared, in the order the chapter shows them, with a label.
METHODS: dict[str, str] = {
    "holdout": "hold-out CP bound",
    "ckcv": "C-KCV L_EE*, random member of F*",
    "ckcv_refit": "C-KCV L_EE*, model refit on all n (misuse)",
    "kfold": "mean K-fold error, refit model",
    "kfold_2std": "mean + 2 std K-fold, refit model",
}


# METHODS's labels with the chapter's notation typeset, for format_table's Markdown (a
# chapter renders it as MyST); METHODS stays plain text for plots and the API page, where
# a "$" would show as itself (so this one is private: the API page would show its "$").
_TABLE_LABELS: dict[str, str] = {
    key: label.replace("L_EE*", "$L_{EE}^*$")
    .replace("F*", "$\\mathcal F^*$")
    .replace(" all n ", " all $n$ ")
    for key, label in METHODS.items()
}


#: ``k`` recorded for C-KCV when k itself is tuned over the ``k_values`` (``k*``).
TUNED_K = 0

_METHOD_INDEX = {name: i for i, name in enumerate(METHODS)}


# --------------------------------------------------------------------------- #
# Distributions, learners and true risks


def _check_name(value: Any, name: str, allowed: Sequence[str]) -> str:
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} must be one of {list(allowed)}, got {value!r}")
    if value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")
    return value


#: The learners of chapter 6: ``"default"``, the study's rule that picks a registry entry
#: per distribution (:data:`DEFAULT_LEARNERS`), or ``"svm"`` of :data:`cvbook.learners.LEARNERS`.
COVERAGE_LEARNERS: tuple[str, ...] = ("default", "svm")

#: The registry entry ``"default"`` picks on each distribution: a shrinkage LDA where the
#: Bayes rule is linear (exact true risks), a regularized QDA on ringnorm, whose Bayes
#: rule is quadratic.
DEFAULT_LEARNERS: dict[str, str] = {
    "twogaussians": "lda_shrinkage",
    "twonorm": "lda_shrinkage",
    "ringnorm": "qda_reg",
}


def default_learner(name: str, learner: str = "default") -> tuple[Any, dict[str, list]]:
    """``(estimator, param_grid)`` the study uses on the distribution ``name``.

    ``learner="default"``: the entry :data:`DEFAULT_LEARNERS` names for the distribution,
    a shrinkage LDA on the two Gaussians and on twonorm (linear, as their Bayes rules
    are, so the true risk is exact and the study is fast), a regularized QDA on
    ringnorm (its true risk comes from a fresh sample). ``learner="svm"``: the
    Gaussian-kernel SVM of Anguita et al. (2012), ``C`` in {1, 10}; its true risk
    always comes from a fresh sample, which costs seconds per repetition. The
    estimator and its grid are the registry's (:func:`cvbook.learners.get_learner`).

    Examples
    --------
    >>> est, grid = default_learner("twogaussians")
    >>> type(est).__name__, grid
    ('LinearDiscriminantAnalysis', {'shrinkage': [0.0, 0.8]})
    >>> default_learner("ringnorm", learner="svm")[1]
    {'C': [1.0, 10.0]}
    """
    _check_name(name, "name", DISTRIBUTIONS)
    if learner == "default":
        entry = get_learner(DEFAULT_LEARNERS[name])
    else:
        entry = get_learner(learner, COVERAGE_LEARNERS, "learner", legacy="coverage")
    return entry.make(), entry.param_grid()


def _risk(model, distribution, n_fresh: int, fresh_seed: int) -> float:
    """True 0-1 risk of a fitted ``model``, by :mod:`cvbook.datasets`' two routes.

    Exact (``distribution.linear_rule_risk``) when the model is a linear rule on the
    labels -1/+1; otherwise :func:`~cvbook.datasets.monte_carlo_risk` on ``n_fresh``
    points drawn from ``fresh_seed`` -- the same fresh sample for every model of a
    repetition, so their risks are compared on common points.
    """
    return true_risk(model, distribution, n=n_fresh, random_state=fresh_seed, batch_size=n_fresh)


def _members_risk(
    search: CompleteKCV, k: int | None, distribution, n_fresh: int, fresh_seed: int
) -> float:
    """Risk of a member of F* (at ``k``) drawn at random: the mean member risk."""
    return float(np.mean([_risk(m, distribution, n_fresh, fresh_seed) for m in search.members(k)]))


# --------------------------------------------------------------------------- #
# One repetition


def _check_values(values: Any, name: str, kind: str) -> list:
    """A non-empty 1-d list of levels in (0, 1) (``kind="delta"``) or of integers."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        raise ArgumentTypeError(f"{name} must be a non-empty sequence, got {values!r}")
    if len(values) == 0:
        raise ValueError(f"{name} must be a non-empty sequence, got {values!r}")
    if kind == "delta":
        arr = check_open_unit(values, name)
        if arr.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
        return [float(v) for v in arr]
    minimum = 3 if kind == "k" else 1
    return [check_int(v, name, minimum=minimum) for v in values]


def _check_study(
    distribution: Any,
    n_values: Any,
    k_values: Any,
    delta_values: Any,
    estimator: Any,
    param_grid: Any,
    n_splits: Any,
    n_fresh: Any,
    tune_k: Any,
) -> tuple:
    """The arguments shared by :func:`coverage_trial` and :func:`run_coverage`, checked."""
    check_distribution(distribution)
    n_values = _check_values(n_values, "n_values", "n")
    k_values = _check_values(k_values, "k_values", "k")
    delta_values = _check_values(delta_values, "delta_values", "delta")
    for n in n_values:
        if n < 2 * max(k_values):
            raise ValueError(
                f"n_values must be >= 2 * max(k_values) = {2 * max(k_values)}, got {n}"
            )
    if not (
        callable(getattr(estimator, "fit", None))
        and callable(getattr(estimator, "get_params", None))
    ):
        raise ArgumentTypeError(
            "estimator must be a scikit-learn classifier (fit, "
            f"get_params), got {type(estimator).__name__}"
        )
    if not isinstance(param_grid, Mapping):
        raise ArgumentTypeError(f"param_grid must be a dict of lists, got {param_grid!r}")
    n_splits = check_int(n_splits, "n_splits", minimum=1)
    n_fresh = check_int(n_fresh, "n_fresh", minimum=1000)
    tune_k = check_bool(tune_k, "tune_k")
    return n_values, k_values, delta_values, n_splits, n_fresh, tune_k


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


def coverage_trial(
    rng: np.random.Generator,
    distribution,
    n_values: Sequence[int],
    k_values: Sequence[int],
    delta_values: Sequence[float],
    estimator,
    param_grid: Mapping,
    n_splits: int = 5,
    n_fresh: int = 100_000,
    tune_k: bool = False,
) -> np.ndarray:
    """One repetition: every estimate, at every ``(n, k, delta)``, on fresh data.

    For each ``n`` one data set is drawn; hold-out and K-fold evaluate
    ``estimator`` as given, C-KCV tunes ``param_grid`` (and ``k`` over
    ``k_values`` if ``tune_k``). One :class:`~cvbook.ckcv.CompleteKCV` fit
    serves every ``k`` (rows restricted to that ``k``) and every ``delta``
    whose selection is the same; a ``delta`` that selects other rows is refit.

    Parameters
    ----------
    rng : numpy.random.Generator (or any seed of cvbook's seed rule)
        The only source of randomness.
    distribution : object with ``sample(m, random_state)``
    n_values : sequence of int
        Sample sizes, each ``>= 2 * max(k_values)``.
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
    rng = check_random_state(rng, "rng")
    n_values, k_values, delta_values, n_splits, n_fresh, tune_k = _check_study(
        distribution,
        n_values,
        k_values,
        delta_values,
        estimator,
        param_grid,
        n_splits,
        n_fresh,
        tune_k,
    )
    rows: list[tuple[float, ...]] = []
    seeds = rng.integers(0, 2**31 - 1, size=(len(n_values), 4))
    fresh_seed = int(rng.integers(0, 2**31 - 1))

    def risk(model) -> float:
        return _risk(model, distribution, n_fresh, fresh_seed)

    for n, s in zip(n_values, seeds, strict=True):
        X, y = distribution.sample(n, random_state=int(s[0]))
        refit = clone(estimator).fit(X, y)
        refit_risk = risk(refit)
        for k in k_values:
            rows.extend(
                _holdout_kfold_rows(estimator, X, y, n, k, delta_values, s, risk, refit_risk)
            )
        rows.extend(
            _ckcv_rows(
                estimator,
                param_grid,
                X,
                y,
                n,
                k_values,
                delta_values,
                n_splits,
                tune_k,
                int(s[3]),
                risk,
                refit_risk,
                distribution,
                n_fresh,
                fresh_seed,
            )
        )
    return np.array(rows, dtype=float)


def _holdout_kfold_rows(
    estimator, X, y, n: int, k: int, delta_values, s, risk, refit_risk: float
) -> list[tuple[float, ...]]:
    """Hold-out's Clopper-Pearson bound and K-fold's mean (and mean + 2 std) at one ``k``.

    ``s`` is the data set's row of seeds (``s[1]`` splits the hold-out,
    ``s[2]`` the folds); ``risk`` scores a fitted model on fresh data.
    """
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=n // k, random_state=int(s[1]) + k)
    held = clone(estimator).fit(X_tr, y_tr)
    held_errors = int(np.sum(held.predict(X_te) != y_te))
    held_risk = risk(held)
    folds = KFold(k, shuffle=True, random_state=int(s[2]) + k).split(X)
    fold_errors = score_splits(estimator, X, y, folds, lambda t, p: np.mean(p != t))
    mean, std = float(np.mean(fold_errors)), float(np.std(fold_errors, ddof=1))
    rows: list[tuple[float, ...]] = []
    for delta in delta_values:
        rows.append(
            (
                _METHOD_INDEX["holdout"],
                n,
                k,
                delta,
                clopper_pearson_upper(held_errors, n // k, delta),
                held_risk,
            )
        )
        rows.append((_METHOD_INDEX["kfold"], n, k, delta, mean, refit_risk))
        rows.append((_METHOD_INDEX["kfold_2std"], n, k, delta, mean + 2 * std, refit_risk))
    return rows


def _reusable_fit(fits: list[CompleteKCV], delta: float, search_ks) -> CompleteKCV | None:
    """A fit whose selected rows are the ones ``delta`` selects, or None."""
    for fitted in fits:
        if all(
            _select_row(fitted.cv_results_, delta, k) == fitted.selected_index(k) for k in search_ks
        ):
            return fitted
    return None


def _ckcv_rows(
    estimator,
    param_grid,
    X,
    y,
    n: int,
    k_values,
    delta_values,
    n_splits: int,
    tune_k: bool,
    search_seed: int,
    risk,
    refit_risk: float,
    distribution,
    n_fresh: int,
    fresh_seed: int,
) -> list[tuple[float, ...]]:
    """C-KCV's bound, scored against its members and against the refit, for every delta."""
    rows: list[tuple[float, ...]] = []
    search_ks = [None, *k_values] if tune_k else list(k_values)
    fits: list[CompleteKCV] = []
    # the same model is never scored twice: a refit with the selected params
    # that are the estimator's own is ``refit``; a row's members are scored once
    base_params = repr(sorted(estimator.get_params().items()))
    misuse_risks: dict[str, float] = {base_params: refit_risk}
    member_risks: dict[tuple[int, int], float] = {}
    for delta in delta_values:
        # reuse a fit whose selected rows are the ones this delta selects
        search = _reusable_fit(fits, delta, search_ks)
        if search is None:
            search = CompleteKCV(
                estimator=estimator,
                param_grid=param_grid,
                k_values=list(k_values),
                n_splits=n_splits,
                delta=delta,
                random_state=search_seed,
                n_jobs=1,
            ).fit(X, y)
            fits.append(search)
        for k in search_ks:
            row = search.selected_index(k)
            bound = _bound_of_row(search.cv_results_, row, delta)
            if (id(search), row) not in member_risks:
                member_risks[id(search), row] = _members_risk(
                    search, k, distribution, n_fresh, fresh_seed
                )
            misuse = clone(estimator).set_params(**search.cv_results_["params"][row])
            key = repr(sorted(misuse.get_params().items()))
            if key not in misuse_risks:
                misuse_risks[key] = risk(misuse.fit(X, y))
            k_label = TUNED_K if k is None else k
            rows.append(
                (_METHOD_INDEX["ckcv"], n, k_label, delta, bound, member_risks[id(search), row])
            )
            rows.append((_METHOD_INDEX["ckcv_refit"], n, k_label, delta, bound, misuse_risks[key]))
    return rows


# --------------------------------------------------------------------------- #
# Many repetitions


def run_coverage(
    distribution: str = "twogaussians",
    n_values: Sequence[int] = (200,),
    k_values: Sequence[int] = (5,),
    delta_values: Sequence[float] = (0.05,),
    n_repeats: int = 200,
    estimator=None,
    param_grid: Mapping | None = None,
    n_splits: int = 5,
    n_fresh: int = 100_000,
    tune_k: bool = False,
    random_state: int | None = 0,
    n_jobs: int | None = None,
    progress: bool = False,
    checkpoint: str | os.PathLike | None = None,
) -> dict[str, np.ndarray]:
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
    random_state : None, int, SeedSequence, Generator or RandomState, default=0
        Root seed; repetition ``i`` depends on it and ``i`` only.
    n_jobs : int or None
        joblib workers (a nonzero int, -1 for every core); the results do not
        depend on it.
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
    if estimator is None:
        estimator, grid = default_learner(distribution)
        param_grid = grid if param_grid is None else param_grid
    param_grid = {} if param_grid is None else param_grid
    n_values, k_values, delta_values, n_splits, n_fresh, tune_k = _check_study(
        dist, n_values, k_values, delta_values, estimator, param_grid, n_splits, n_fresh, tune_k
    )
    n_repeats = check_int(n_repeats, "n_repeats", minimum=1)
    if not isinstance(
        random_state, (np.random.Generator, np.random.RandomState, np.random.SeedSequence)
    ):
        check_random_state(random_state)  # refuses -1, 1.5, "0", True by name
    if n_jobs is not None and check_int(n_jobs, "n_jobs") == 0:
        raise ValueError("n_jobs must be a nonzero int (-1 for every core) or None, got 0")
    progress = check_bool(progress, "progress")
    results = repeat(
        coverage_trial,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        progress=progress,
        desc=f"coverage on {distribution}",
        checkpoint=checkpoint,
        distribution=dist,
        n_values=n_values,
        k_values=k_values,
        delta_values=delta_values,
        estimator=estimator,
        param_grid=param_grid,
        n_splits=n_splits,
        n_fresh=n_fresh,
        tune_k=tune_k,
    )
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


def _broadcast_with_repeats(values: np.ndarray, r: np.ndarray, name: str) -> list[np.ndarray]:
    """``values`` (called ``name``) and ``n_repeats`` broadcast together, or a named error."""
    try:
        return np.broadcast_arrays(values, r)
    except ValueError:
        raise ValueError(
            f"{name} and n_repeats must broadcast together, got shapes "
            f"{np.shape(values)} and {np.shape(r)}"
        ) from None


def binomial_se(coverage: float | np.ndarray, n_repeats: int | np.ndarray):
    """Monte Carlo standard error ``sqrt(c (1 - c) / R)`` of a coverage ``c``.

    It is zero at ``c = 0`` and ``c = 1``, where it says nothing: quote a
    coverage with :func:`coverage_interval` instead.

    Parameters
    ----------
    coverage : float or array_like of float
        Coverages, in [0, 1].
    n_repeats : int or array_like of int
        Repetitions behind each coverage, >= 1.

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> round(binomial_se(0.95, 400), 4)
    0.0109
    >>> binomial_se(1.5, 10)
    Traceback (most recent call last):
    ...
    ValueError: coverage must lie in [0, 1], got 1.5
    """
    c = check_finite(coverage, "coverage")
    if np.any((c < 0) | (c > 1)):
        bad = c[(c < 0) | (c > 1)].ravel()[0]
        raise ValueError(f"coverage must lie in [0, 1], got {bad:g}")
    r = check_integer_array(n_repeats, "n_repeats")
    if np.any(r < 1):
        raise ValueError(f"n_repeats must be >= 1, got {int(r.min())}")
    c, r = _broadcast_with_repeats(c, r, "coverage")
    se = np.sqrt(c * (1 - c) / r)
    return float(se) if se.ndim == 0 else se


def coverage_interval(n_held: int | np.ndarray, n_repeats: int | np.ndarray, alpha: float = 0.05):
    """Two-sided ``1 - alpha`` Clopper--Pearson interval for a coverage.

    ``n_held`` of ``n_repeats`` independent repetitions held; the number of
    failures is binomial, so :func:`cvbook.bounds.clopper_pearson_interval` on it
    gives an interval for the failure probability, and one minus it an interval
    for the coverage. Each end fails with probability at most ``alpha / 2``.
    Unlike :func:`binomial_se` it is informative at a coverage of 1: with 100
    repetitions that all held, the coverage is at least 0.964 (at least 0.970
    one-sided, ``alpha = 0.1``).

    Parameters
    ----------
    n_held : int or array_like of int
        Repetitions in which the estimate was at least the true risk.
    n_repeats : int or array_like of int
        Repetitions, >= 1 and >= ``n_held``.
    alpha : float, default=0.05
        One minus the confidence level, in (0, 1).

    Returns
    -------
    (lower, upper) : tuple of float or numpy.ndarray

    Examples
    --------
    >>> lo, hi = coverage_interval(100, 100)
    >>> round(lo, 3), hi
    (0.964, 1.0)
    >>> round(coverage_interval(100, 100, alpha=0.1)[0], 3)
    0.97
    """
    held = check_integer_array(n_held, "n_held", minimum=0)
    r = check_integer_array(n_repeats, "n_repeats", minimum=1)
    alpha = check_open_unit(alpha, "alpha", scalar=True)
    held, r = _broadcast_with_repeats(held, r, "n_held")
    if np.any(held > r):
        raise ValueError("n_held must be <= n_repeats: more repetitions held than were run")
    fail_lo, fail_hi = clopper_pearson_interval(r - held, r, alpha=alpha)
    lower, upper = 1.0 - np.asarray(fail_hi), 1.0 - np.asarray(fail_lo)
    if lower.ndim == 0:
        return float(lower), float(upper)
    return lower, upper


_RECORD_COLUMNS = ("method", "n", "k", "delta", "estimate", "risk")


def _check_records(records: Any, columns: Sequence[str] = _RECORD_COLUMNS) -> dict[str, np.ndarray]:
    check_keys(records, "records", columns, "a dict of columns (run_coverage's result)")
    out = {c: np.asarray(records[c]) for c in records}
    lengths = {c: out[c].shape for c in columns}
    if any(len(shape) != 1 for shape in lengths.values()) or len(set(lengths.values())) > 1:
        raise ValueError(f"records' columns must be 1-d and of one length, got {lengths}")
    return out


def _check_filter(column: np.ndarray, key: str, value: Any) -> None:
    """A filter value of the column's kind: a number for a numeric column, a string for a
    column of strings (``n="20"`` would match nothing, silently)."""
    numeric = column.dtype.kind in "iuf"
    is_number = isinstance(value, (numbers.Real, np.number)) and not isinstance(
        value, (bool, np.bool_)
    )
    if numeric and not is_number:
        raise ArgumentTypeError(
            f"{key} must be a number (the column {key!r} holds numbers), got {value!r}"
        )
    if column.dtype.kind in "US" and not isinstance(value, (str, np.str_, bytes, np.bytes_)):
        raise ArgumentTypeError(
            f"{key} must be a string (the column {key!r} holds strings), got {value!r}"
        )


def select_records(records: Mapping[str, np.ndarray], **where: Any) -> dict[str, np.ndarray]:
    """The records whose columns equal ``where``, ordered by repetition.

    Two selections from one run that each hold one record per repetition are
    then aligned, repetition by repetition, for :func:`cvbook.stats.paired_difference`. Each filter
    value must be of its column's kind (a number for ``n``, ``k``, ``delta``; a string
    for ``method``): ``n="20"`` is refused by name rather than matching nothing.

    Examples
    --------
    >>> rec = {"method": np.array(["kfold", "holdout", "kfold"]), "n": np.array([50, 50, 50]),
    ...        "k": np.array([5, 5, 5]), "delta": np.array([0.1] * 3),
    ...        "estimate": np.array([0.2, 0.3, 0.1]), "risk": np.array([0.15] * 3),
    ...        "repeat": np.array([1, 0, 0])}
    >>> select_records(rec, method="kfold")["estimate"].tolist()
    [0.1, 0.2]
    """
    rec = _check_records(records, ("repeat", *where))
    sel = np.ones(len(rec["repeat"]), dtype=bool)
    for key, value in where.items():
        _check_filter(rec[key], key, value)
        sel &= rec[key] == value
    order = np.argsort(rec["repeat"][sel], kind="stable")
    return {key: values[sel][order] for key, values in rec.items()}


def fold_spread_rule(records: Mapping[str, np.ndarray], **where: Any) -> dict[str, np.ndarray]:
    """ "Mean + 2 std" taken apart, one entry per data set, from the ``kfold`` records.

    The rule adds two standard deviations of the ``k`` fold errors, the spread of *one*
    fold's error. A two-standard-error margin for their mean would add ``2 std / sqrt(k)``:
    the rule is ``sqrt(k)`` times wider. Both read from the records of ``kfold`` and
    ``kfold_2std`` on the same data sets (``margin = 2 std`` is their difference).

    Parameters
    ----------
    records : dict of numpy.ndarray
        As returned by :func:`run_coverage`.
    **where
        Filters that leave one record per repetition of each method, and must include
        ``k`` (e.g. ``n=200, k=5, delta=0.05``).

    Returns
    -------
    dict of numpy.ndarray
        ``mean`` (the mean fold error), ``margin`` (two standard deviations of the fold
        errors), ``risk`` (of the refit model), ``held_2std`` (``mean + margin >= risk``),
        ``held_2se`` (``mean + margin / sqrt(k) >= risk``) and ``rel_margin`` (``margin``
        over its median over the data sets), ordered by repetition.

    Examples
    --------
    >>> rec = {"method": np.array(["kfold", "kfold_2std"] * 2), "n": np.array([50] * 4),
    ...        "k": np.array([4] * 4), "delta": np.array([0.05] * 4),
    ...        "estimate": np.array([0.2, 0.3, 0.1, 0.3]), "risk": np.array([0.25] * 4),
    ...        "repeat": np.array([0, 0, 1, 1])}
    >>> out = fold_spread_rule(rec, k=4)
    >>> out["margin"].round(3).tolist(), out["held_2std"].tolist(), out["held_2se"].tolist()
    ([0.1, 0.2], [True, True], [True, False])
    """
    if "k" not in where:
        raise ValueError("fold_spread_rule needs k among the filters, e.g. k=5")
    k = check_int(where["k"], "k", minimum=2)
    mean = select_records(records, method="kfold", **where)
    spread = select_records(records, method="kfold_2std", **where)
    reps = mean["repeat"]
    if (
        reps.size == 0
        or np.unique(reps).size != reps.size
        or not np.array_equal(reps, spread["repeat"])
    ):
        raise ValueError(
            f"records must hold one kfold and one kfold_2std record per repetition for {where}"
        )
    margin = spread["estimate"] - mean["estimate"]
    risk = mean["risk"]
    return {
        "mean": mean["estimate"],
        "margin": margin,
        "risk": risk,
        "held_2std": mean["estimate"] + margin >= risk,
        "held_2se": mean["estimate"] + margin / np.sqrt(k) >= risk,
        "rel_margin": margin / np.median(margin) if np.median(margin) > 0 else margin * np.nan,
    }


def summarize(records: Mapping[str, np.ndarray], alpha: float = 0.05) -> list[dict[str, Any]]:
    """Coverage and slack of each estimate, per ``(method, n, k, delta)``.

    Parameters
    ----------
    records : dict of numpy.ndarray
        As returned by :func:`run_coverage` (the columns ``method, n, k, delta,
        estimate, risk``).
    alpha : float, default=0.05
        The coverage's Clopper--Pearson interval has level ``1 - alpha``.

    Returns
    -------
    list of dict
        One row per group, methods in :data:`METHODS` order: ``method, n, k,
        delta, n_repeats, n_held`` (repetitions with estimate >= true risk),
        ``coverage, se`` (binomial standard error), ``cp_low, cp_high``
        (:func:`coverage_interval`), ``slack_mean, slack_std, slack_q05,
        slack_q50, slack_q95`` (slack = estimate - true risk) and ``risk_mean``.

    Examples
    --------
    >>> rec = {"method": np.array(["holdout"] * 4), "n": np.array([100] * 4),
    ...        "k": np.array([5] * 4), "delta": np.array([0.05] * 4),
    ...        "estimate": np.array([0.3, 0.2, 0.25, 0.1]), "risk": np.full(4, 0.15)}
    >>> row = summarize(rec)[0]
    >>> row["coverage"], round(row["se"], 3), round(row["cp_low"], 3), round(row["cp_high"], 3)
    (0.75, 0.217, 0.194, 0.994)
    """
    rec = _check_records(records)
    alpha = check_open_unit(alpha, "alpha", scalar=True)
    method = rec["method"]
    keys = np.column_stack([check_finite(rec[c], c) for c in ("n", "k", "delta")])
    estimate, risk = check_finite(rec["estimate"], "estimate"), check_finite(rec["risk"], "risk")
    out = []
    for name in METHODS:
        in_method = method == name
        if not in_method.any():
            continue
        for key in np.unique(keys[in_method], axis=0):
            sel = in_method & np.all(keys == key, axis=1)
            slack = estimate[sel] - risk[sel]
            n_rep, held = int(sel.sum()), int(np.sum(slack >= 0))
            cov = held / n_rep
            low, high = coverage_interval(held, n_rep, alpha)
            out.append(
                {
                    "method": name,
                    "n": int(key[0]),
                    "k": int(key[1]),
                    "delta": float(key[2]),
                    "n_repeats": n_rep,
                    "n_held": held,
                    "coverage": cov,
                    "se": binomial_se(cov, n_rep),
                    "cp_low": low,
                    "cp_high": high,
                    "slack_mean": float(slack.mean()),
                    "slack_std": float(slack.std(ddof=1)) if slack.size > 1 else 0.0,
                    "slack_q05": float(np.quantile(slack, 0.05)),
                    "slack_q50": float(np.quantile(slack, 0.5)),
                    "slack_q95": float(np.quantile(slack, 0.95)),
                    "risk_mean": float(risk[sel].mean()),
                }
            )
    return out


_TABLE_KEYS = (
    "method",
    "n",
    "k",
    "delta",
    "coverage",
    "cp_low",
    "cp_high",
    "slack_mean",
    "slack_std",
)


def format_table(summary: Sequence[Mapping[str, Any]], digits: int = 3) -> str:
    """A markdown table of :func:`summarize`'s rows: coverage [CP interval], slack.

    The estimates are named by :data:`METHODS`'s labels with the chapter's notation
    typeset (``$L_{EE}^*$``, for a notebook whose Markdown outputs are rendered as MyST);
    a tuned ``k`` is written ``$k^*$``.

    Examples
    --------
    >>> line = format_table([{"method": "kfold", "n": 100, "k": 5, "delta": 0.05,
    ...     "n_held": 50, "n_repeats": 100, "coverage": 0.5, "cp_low": 0.398,
    ...     "cp_high": 0.602, "slack_mean": 0.0, "slack_std": 0.03}]).splitlines()[2]
    >>> line.split(" | ")[5:]
    ['50/100', '0.500 [0.398, 0.602]', '0.000 ± 0.030 |']
    """
    if isinstance(summary, Mapping) or not isinstance(summary, Sequence):
        raise ArgumentTypeError(
            f"summary must be a list of summarize's rows, got {type(summary).__name__}"
        )
    digits = check_int(digits, "digits", minimum=0, maximum=10)
    for i, r in enumerate(summary):
        if not isinstance(r, Mapping) or any(key not in r for key in _TABLE_KEYS):
            raise ValueError(
                f"summary[{i}] must be a row of summarize with the keys {list(_TABLE_KEYS)}"
            )
        if r["method"] not in METHODS:
            raise ValueError(
                f"summary[{i}]['method'] must be one of {list(METHODS)}, got {r['method']!r}"
            )
    lines = [
        "| estimate | n | k | δ | nominal | held | coverage [95% CP] | slack (estimate − risk) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in summary:
        k = "$k^*$" if r["k"] == TUNED_K else str(r["k"])
        label = _TABLE_LABELS[r["method"]]
        is_bound = r["method"] in ("holdout", "ckcv", "ckcv_refit")
        nominal = f"{1 - r['delta']:.2f}" if is_bound else "—"
        held = f"{r['n_held']}/{r['n_repeats']}" if "n_held" in r else "—"
        lines.append(
            f"| {label} | {r['n']} | {k} | {r['delta']:g} | {nominal} | {held} | "
            f"{r['coverage']:.{digits}f} [{r['cp_low']:.{digits}f}, {r['cp_high']:.{digits}f}] | "
            f"{format_pm(r['slack_mean'], r['slack_std'], digits=digits)} |"
        )
    return "\n".join(lines)
