"""Do the intervals of chapter 7 cover? The coverage and comparison studies, and their long run.

**Coverage.** On a distribution whose risk is known, draw a data set of ``n``
points, compute every interval of :mod:`cvbook.intervals` on it, and record
each interval next to the two targets:

* the *conditional* risk ``L(f)`` of the model the interval speaks of -- the
  model fitted on the training part for the hold-out, the model fitted on all
  ``n`` points for every cross-validation method;
* the *expected* risk of the learner at that training size, the mean of the
  conditional risks over the repetitions (its Monte Carlo error is reported).

Risks are exact for a linear learner on the two Gaussians and on twonorm
(:meth:`~cvbook.datasets.synthetic.Twonorm.linear_rule_risk`); otherwise they come from
a fresh sample (standard error recorded).

**Comparison.** On twonorm, whose 20 coordinates are exchangeable, LDA on the
first ten coordinates and LDA on the last ten have the same expected risk at
every training size -- a true null by construction. LDA on the first ten
against LDA on the first four is a known difference. Every test of
:mod:`cvbook.compare` runs on each data set; the rejection rate is the
type-I error under the null and the power under the difference.

Every repetition goes through :func:`cvbook.simulation.repeat`, seeded per
task, so results are the same for any ``n_jobs``. ``python -m
cvbook.runs.intervals --help`` runs the long study, writes its records and
provenance atomically under ``results/intervals/`` and resumes an
interrupted run from its checkpoints.
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
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from .._checks import check_int, check_open_unit
from ..bounds import clopper_pearson_interval
from ..compare import (
    COMPARISON_METHODS,
    _differences_5x2,
    corrected_paired_ttest,
    five_by_two_splits,
    ftest_5x2cv_from_differences,
    mcnemar_holdout,
    ttest_5x2cv_from_differences,
)
from ..datasets.synthetic import Ringnorm, TwoGaussians, Twonorm, linear_rule, true_risk
from ..intervals import (
    INTERVAL_METHODS,
    _random_splits,
    _rng,
    conservative_z_interval,
    corrected_t_interval,
    cv_wald_interval,
    holdout_interval,
    nested_cv_interval,
)
from ..provenance import atomic_write, atomic_write_text, git_commit, git_dirty, package_versions
from ..simulation import paired_difference as simulation_paired_difference
from ..simulation import repeat, saved_repetitions

__all__ = [
    "DESIGNS",
    "DISTRIBUTIONS",
    "LEARNERS",
    "SETTINGS",
    "SubsetLDA",
    "comparison_trial",
    "coverage_hits",
    "format_comparison_table",
    "format_interval_table",
    "interval_trial",
    "load_record",
    "main",
    "make_distribution",
    "make_learner",
    "paired_difference",
    "paired_variance_test",
    "rejections",
    "run_comparisons",
    "run_intervals",
    "save_record",
    "summarize_comparisons",
    "summarize_intervals",
]

#: Distributions, by name.
DISTRIBUTIONS: tuple[str, ...] = ("twogaussians", "twonorm", "ringnorm")

#: Learners, by name.
LEARNERS: tuple[str, ...] = ("lda", "logreg", "svm")

#: The (distribution, learner) pairs of the long run.
DESIGNS: tuple[tuple[str, str], ...] = (
    ("twogaussians", "lda"),
    ("twogaussians", "logreg"),
    ("twonorm", "lda"),
    ("twonorm", "logreg"),
    ("twonorm", "svm"),
    ("ringnorm", "lda"),
    ("ringnorm", "svm"),
)

#: Settings of each interval in the studies. Where the cost forbids the published ones:
#: nested CV with 10 repetitions (the authors use 50 or more), and the conservative Z with
#: J = 5 splits per estimate (Nadeau and Bengio use 15) but their M = 10 pairs of halves.
SETTINGS: dict[str, dict[str, Any]] = {
    "holdout": {"test_size": 0.2},
    "cv_wald": {"n_splits": 10},
    "corrected_t": {"n_splits": 15, "test_size": 0.1},
    "conservative_z": {"n_splits": 5, "n_pairs": 10, "test_size": 0.1},
    "nested_cv": {"n_splits": 5, "n_repeats": 10},
}

_METHODS = list(INTERVAL_METHODS)


def make_distribution(name: str):
    """The distribution called ``name``: the two Gaussians (d = 10), twonorm or ringnorm (d = 20).

    Examples
    --------
    >>> round(make_distribution("twogaussians").bayes_risk, 4)
    0.1587
    """
    if name == "twogaussians":
        return TwoGaussians(separation=2.0, dim=10)
    if name == "twonorm":
        return Twonorm()
    if name == "ringnorm":
        return Ringnorm()
    raise ValueError(f"distribution must be one of {list(DISTRIBUTIONS)}, got {name!r}")


def make_learner(name: str):
    """The learner called ``name``: LDA, logistic regression (C = 1) or an RBF SVM (C = 1).

    Examples
    --------
    >>> make_learner("svm")
    SVC()
    """
    if name == "lda":
        return LinearDiscriminantAnalysis()
    if name == "logreg":
        return LogisticRegression(C=1.0, max_iter=1000)
    if name == "svm":
        return SVC(kernel="rbf", C=1.0, gamma="scale")
    raise ValueError(f"learner must be one of {list(LEARNERS)}, got {name!r}")


class SubsetLDA(ClassifierMixin, BaseEstimator):
    """LDA on some coordinates only; a linear rule on all of them (zero weight elsewhere).

    Parameters
    ----------
    columns : tuple of int
        The coordinates the model sees.

    Examples
    --------
    >>> X, y = Twonorm().sample(200, random_state=0)
    >>> model = SubsetLDA(columns=(0, 1)).fit(X, y)
    >>> model.coef_.shape, int(np.count_nonzero(model.coef_))
    ((1, 20), 2)
    """

    def __init__(self, columns: tuple = (0,)):
        self.columns = columns

    def fit(self, X, y):
        cols = list(self.columns)
        X = np.asarray(X)
        self.lda_ = LinearDiscriminantAnalysis().fit(X[:, cols], y)
        self.classes_ = self.lda_.classes_
        coef = np.zeros((1, X.shape[1]))
        coef[0, cols] = self.lda_.coef_.ravel()
        self.coef_ = coef
        self.intercept_ = self.lda_.intercept_
        return self

    def predict(self, X):
        return self.lda_.predict(np.asarray(X)[:, list(self.columns)])


def _risk_function(distribution, rng: np.random.Generator, n_fresh: int):
    """``risk(model) -> (risk, standard error)``: exact for a linear rule, else a fresh sample."""
    fresh: list[np.ndarray] = []
    seed = int(rng.integers(0, 2**31 - 1))

    def risk(model) -> tuple[float, float]:
        if linear_rule(model) is not None and hasattr(distribution, "linear_rule_risk"):
            return true_risk(model, distribution), 0.0
        if not fresh:
            fresh.extend(distribution.sample(n_fresh, random_state=seed))
        value = true_risk(model, distribution, sample=(fresh[0], fresh[1]), batch_size=10_000)
        return value, float(np.sqrt(max(value * (1 - value), 1e-12) / n_fresh))

    return risk


# --------------------------------------------------------------------------- #
# Coverage of the intervals


def interval_trial(
    rng: np.random.Generator,
    distribution: str,
    learner: str,
    n_values: Sequence[int],
    alpha: float = 0.05,
    n_fresh: int = 50_000,
    settings: Mapping[str, Mapping[str, Any]] | None = None,
) -> np.ndarray:
    """One repetition: every interval at every ``n`` on a fresh data set.

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness.
    distribution, learner : str
        Names (:data:`DISTRIBUTIONS`, :data:`LEARNERS`).
    n_values : sequence of int
    alpha : float, default=0.05
    n_fresh : int, default=50_000
        Fresh points for a risk that is not exact.
    settings : dict, optional
        Keyword arguments of each interval (default :data:`SETTINGS`).

    Returns
    -------
    numpy.ndarray of shape (n_records, 9)
        Columns ``n, method index, estimate, lower, upper, n_fits, risk of the
        model the interval speaks of, risk of the model fitted on all n, standard
        error of those risks``.

    Examples
    --------
    >>> rows = interval_trial(np.random.default_rng(0), "twonorm", "lda", [60],
    ...                       settings={"nested_cv": {"n_splits": 3, "n_repeats": 2}})
    >>> rows.shape
    (6, 9)
    """
    dist = make_distribution(distribution)
    est = make_learner(learner)
    cfg = {k: dict(v) for k, v in SETTINGS.items()}
    for key, value in (settings or {}).items():
        cfg[key] = {**cfg.get(key, {}), **value}
    risk = _risk_function(dist, rng, n_fresh)
    rows = []
    for n in n_values:
        X, y = dist.sample(int(n), random_state=int(rng.integers(0, 2**31 - 1)))
        full_risk, full_se = risk(clone(est).fit(X, y))
        seed = int(rng.integers(0, 2**31 - 1))
        ho = cfg["holdout"]
        n_test = round(ho["test_size"] * n)
        ((train, _),) = _random_splits(y, 1, n_test, "zero_one", _rng(seed))
        ho_risk, ho_se = risk(clone(est).fit(X[train], y[train]))
        results = [
            holdout_interval(est, X, y, method="wald", alpha=alpha, random_state=seed, **ho),
            holdout_interval(est, X, y, alpha=alpha, random_state=seed, **ho),
        ]
        for fn, key in (
            (cv_wald_interval, "cv_wald"),
            (corrected_t_interval, "corrected_t"),
            (conservative_z_interval, "conservative_z"),
            (nested_cv_interval, "nested_cv"),
        ):
            results.append(
                fn(est, X, y, alpha=alpha, **cfg[key], random_state=int(rng.integers(0, 2**31 - 1)))
            )
        for r in results:
            own, own_se = (
                (ho_risk, ho_se) if r.method.startswith("holdout") else (full_risk, full_se)
            )
            rows.append(
                (
                    n,
                    _METHODS.index(r.method),
                    r.estimate,
                    r.lower,
                    r.upper,
                    r.n_fits,
                    own,
                    full_risk,
                    max(own_se, full_se),
                )
            )
    return np.array(rows, dtype=float)


def run_intervals(
    distribution: str = "twonorm",
    learner: str = "lda",
    n_values: Sequence[int] = (100,),
    n_repeats: int = 100,
    alpha: float = 0.05,
    n_fresh: int = 50_000,
    settings: Mapping | None = None,
    random_state: int | None = 0,
    n_jobs: int | None = None,
    progress: bool = False,
    checkpoint: str | os.PathLike | None = None,
) -> dict[str, np.ndarray]:
    """Run :func:`interval_trial` on ``n_repeats`` independent data sets.

    Returns
    -------
    dict of numpy.ndarray
        Columns ``distribution, learner, repeat, n, method, estimate, lower, upper,
        n_fits, risk`` (the conditional target), ``risk_full`` and ``risk_se``.

    Examples
    --------
    >>> rec = run_intervals(n_values=[60], n_repeats=2, random_state=0,
    ...                     settings={"nested_cv": {"n_splits": 3, "n_repeats": 1}})
    >>> sorted(set(rec["method"].tolist()))[:2], len(rec["n"])
    (['conservative_z', 'corrected_t'], 12)
    """
    make_distribution(distribution)
    make_learner(learner)
    n_values = [check_int(v, "n_values", minimum=20) for v in n_values]
    n_repeats = check_int(n_repeats, "n_repeats", minimum=1)
    alpha = float(check_open_unit(alpha, "alpha", scalar=True))
    results = repeat(
        interval_trial,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        progress=progress,
        desc=f"intervals {distribution}/{learner}",
        checkpoint=checkpoint,
        distribution=distribution,
        learner=learner,
        n_values=n_values,
        alpha=alpha,
        n_fresh=n_fresh,
        settings=None if settings is None else dict(settings),
    )
    table = np.concatenate(results)
    reps = np.concatenate([np.full(len(r), i) for i, r in enumerate(results)])
    m = len(table)
    return {
        "distribution": np.full(m, distribution),
        "learner": np.full(m, learner),
        "repeat": reps.astype(int),
        "n": table[:, 0].astype(int),
        "method": np.array(_METHODS)[table[:, 1].astype(int)],
        "estimate": table[:, 2],
        "lower": table[:, 3],
        "upper": table[:, 4],
        "n_fits": table[:, 5].astype(int),
        "risk": table[:, 6],
        "risk_full": table[:, 7],
        "risk_se": table[:, 8],
    }


def _cp(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    lo, hi = clopper_pearson_interval(int(k), int(n), alpha)
    return float(lo), float(hi)


def summarize_intervals(
    records: Mapping[str, np.ndarray], coverage_alpha: float = 0.05
) -> list[dict[str, Any]]:
    """Coverage of each target, with its Clopper--Pearson interval, mean width and cost.

    The expected risk of the learner at the target's training size is the
    mean, over the repetitions, of the conditional risks of the models the
    intervals speak of (``expected_se`` is its Monte Carlo standard error).

    Returns
    -------
    list of dict
        One row per ``(distribution, learner, n, method)``: ``n_repeats``;
        ``cover_conditional``, ``cover_conditional_lo/hi``; ``cover_expected``,
        ``cover_expected_lo/hi``; ``below_expected`` (share of intervals entirely
        below the expected risk: optimistic); ``width`` (mean), ``n_fits``,
        ``expected`` and ``expected_se``, ``estimate_mean``.

    Examples
    --------
    >>> rec = run_intervals(n_values=[60], n_repeats=3, random_state=0,
    ...                     settings={"nested_cv": {"n_splits": 3, "n_repeats": 1}})
    >>> row = summarize_intervals(rec)[0]
    >>> row["method"], row["n_repeats"], 0 <= row["cover_conditional"] <= 1
    ('holdout_wald', 3, True)
    """
    keys = ("distribution", "learner", "n", "method")
    cols = {k: np.asarray(records[k]) for k in records}
    groups = sorted(
        {tuple(v[i] for v in (cols[k] for k in keys)) for i in range(len(cols["n"]))},
        key=lambda g: (g[0], g[1], int(g[2]), _METHODS.index(g[3])),
    )
    out = []
    for g in groups:
        sel = np.ones(len(cols["n"]), dtype=bool)
        for k, v in zip(keys, g, strict=True):
            sel &= cols[k] == v
        lo, hi, risk = cols["lower"][sel], cols["upper"][sel], cols["risk"][sel]
        R = int(sel.sum())
        expected = float(risk.mean())
        cond = int(np.sum((lo <= risk) & (risk <= hi)))
        expc = int(np.sum((lo <= expected) & (expected <= hi)))
        c_lo, c_hi = _cp(cond, R, coverage_alpha)
        e_lo, e_hi = _cp(expc, R, coverage_alpha)
        out.append(
            {
                "distribution": str(g[0]),
                "learner": str(g[1]),
                "n": int(g[2]),
                "method": str(g[3]),
                "n_repeats": R,
                "cover_conditional": cond / R,
                "cover_conditional_lo": c_lo,
                "cover_conditional_hi": c_hi,
                "cover_expected": expc / R,
                "cover_expected_lo": e_lo,
                "cover_expected_hi": e_hi,
                "below_expected": float(np.mean(hi < expected)),
                "width": float(np.mean(hi - lo)),
                "n_fits": float(np.mean(cols["n_fits"][sel])),
                "expected": expected,
                "expected_se": float(risk.std(ddof=1) / np.sqrt(R)) if R > 1 else float("nan"),
                "estimate_mean": float(np.mean(cols["estimate"][sel])),
                "risk_se_max": float(np.max(cols["risk_se"][sel])),
            }
        )
    return out


def coverage_hits(
    records: Mapping[str, np.ndarray], method: str, target: str, **where: Any
) -> np.ndarray:
    """Whether each interval of ``method`` covered ``target``, one entry per data set.

    Parameters
    ----------
    records : dict of numpy.ndarray
        As returned by :func:`run_intervals` (or several concatenated).
    method : str
        A key of :data:`cvbook.intervals.INTERVAL_METHODS`.
    target : {"conditional", "expected"}
    **where
        Equality filters on columns, e.g. ``n=250`` or ``distribution="twonorm"``.

    Returns
    -------
    numpy.ndarray of bool
        Ordered by distribution, learner, n and repetition, so that two methods'
        hits on the same filters pair up data set by data set.

    Examples
    --------
    >>> rec = run_intervals(n_values=[60], n_repeats=3, random_state=0,
    ...                     settings={"nested_cv": {"n_splits": 3, "n_repeats": 1}})
    >>> coverage_hits(rec, "cv_wald", "expected").shape
    (3,)
    """
    if target not in ("conditional", "expected"):
        raise ValueError(f"target must be 'conditional' or 'expected', got {target!r}")
    cols = {k: np.asarray(v) for k, v in records.items()}
    sel = cols["method"] == method
    for key, value in where.items():
        if key not in cols:
            raise ValueError(f"unknown column {key!r}; columns are {sorted(cols)}")
        sel &= cols[key] == value
    if not sel.any():
        raise ValueError(f"no record of method {method!r} with {where}")
    idx = np.flatnonzero(sel)
    order = np.lexsort(
        (cols["repeat"][idx], cols["n"][idx], cols["learner"][idx], cols["distribution"][idx])
    )
    idx = idx[order]
    lo, hi, risk = cols["lower"][idx], cols["upper"][idx], cols["risk"][idx]
    if target == "conditional":
        return (lo <= risk) & (risk <= hi)
    # the expected risk of each (distribution, learner, n) group: the mean of its risks
    keys = np.array(
        [
            f"{d}|{lr}|{n}"
            for d, lr, n in zip(
                cols["distribution"][idx], cols["learner"][idx], cols["n"][idx], strict=True
            )
        ]
    )
    expected = np.empty(len(idx))
    for key in np.unique(keys):
        expected[keys == key] = risk[keys == key].mean()
    return (lo <= expected) & (expected <= hi)


def paired_difference(a: Any, b: Any) -> tuple[float, float]:
    """Mean of ``a - b`` over paired entries and its standard error.

    Examples
    --------
    >>> paired_difference([1, 1, 0, 1], [0, 1, 0, 0])
    (0.5, 0.28867513459481287)
    """
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    if d.ndim != 1 or d.size < 2:
        raise ValueError(f"a and b must be paired 1-d arrays of at least 2 entries, got {d.shape}")
    p = simulation_paired_difference(d)
    return p.mean, p.se


def paired_variance_test(x: Any, y: Any) -> tuple[float, float]:
    """Ratio ``var(x) / var(y)`` of two paired samples and Pitman and Morgan's t statistic.

    With ``s = x + y`` and ``d = x - y``, ``cov(s, d) = var(x) - var(y)``, so the variances
    are equal exactly when ``s`` and ``d`` are uncorrelated; ``t = r sqrt((R - 2) / (1 - r^2))``
    with ``r = corr(s, d)`` has a t distribution with ``R - 2`` degrees of freedom under
    equality for normal pairs (Pitman 1939, Morgan 1939). The pairing (one ``x`` and one ``y``
    per data set) is what a test for independent samples would ignore.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = rng.normal(size=200)
    >>> ratio, t = paired_variance_test(y + rng.normal(scale=2.0, size=200), y)
    >>> ratio > 3, t > 4
    (True, True)
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or x.size < 3:
        raise ValueError(
            f"x and y must be paired 1-d arrays of at least 3 entries, got {x.shape} and {y.shape}"
        )
    r = float(np.corrcoef(x + y, x - y)[0, 1])
    t = r * np.sqrt((x.size - 2) / max(1 - r * r, 1e-300))
    return float(x.var(ddof=1) / y.var(ddof=1)), float(t)


def format_interval_table(
    summary: Sequence[Mapping[str, Any]], methods: Sequence[str] | None = None, digits: int = 2
) -> str:
    """A markdown table of :func:`summarize_intervals` rows: coverage of each target, width, fits.

    Examples
    --------
    >>> row = {"distribution": "twonorm", "learner": "lda", "n": 50, "method": "cv_wald",
    ...        "n_repeats": 10, "cover_conditional": 0.9, "cover_conditional_lo": 0.55,
    ...        "cover_conditional_hi": 0.997, "cover_expected": 1.0, "cover_expected_lo": 0.69,
    ...        "cover_expected_hi": 1.0, "width": 0.12, "n_fits": 10.0}
    >>> format_interval_table([row]).splitlines()[2].split(" | ")[4:6]
    ['0.90 [0.55, 1.00]', '1.00 [0.69, 1.00]']
    """
    names = {"lda": "LDA", "logreg": "logistic regression", "svm": "RBF SVM"}
    lines = [
        "| distribution | learner | $m$ | interval | covers $L(f)$ [95% CP] | "
        "covers expected risk [95% CP] | mean width | fits |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in summary:
        if methods is not None and r["method"] not in methods:
            continue
        lines.append(
            f"| {r['distribution']} | {names.get(r['learner'], r['learner'])} | {r['n']} | "
            f"{INTERVAL_METHODS[r['method']]} | "
            f"{r['cover_conditional']:.{digits}f} [{r['cover_conditional_lo']:.{digits}f}, "
            f"{r['cover_conditional_hi']:.{digits}f}] | "
            f"{r['cover_expected']:.{digits}f} [{r['cover_expected_lo']:.{digits}f}, "
            f"{r['cover_expected_hi']:.{digits}f}] | {r['width']:.3f} | {r['n_fits']:.0f} |"
        )
    return "\n".join(lines)


def format_comparison_table(summary: Sequence[Mapping[str, Any]], digits: int = 3) -> str:
    """A markdown table of :func:`summarize_comparisons` rows: rejection rate with its CP interval.

    Examples
    --------
    >>> row = {"case": "null", "n": 100, "test": "mcnemar", "n_repeats": 100, "reject": 0.05,
    ...        "reject_lo": 0.016, "reject_hi": 0.113, "gap": 0.0, "gap_se": 0.001, "n_fits": 2}
    >>> format_comparison_table([row]).splitlines()[2].split(" | ")[3]
    '0.050 [0.016, 0.113]'
    """
    cases = {"null": "equal expected risks", "difference": "a known difference"}
    lines = [
        "| case | $m$ | test | rejects at 5% [95% CP] | risk A − risk B ± SE | fits |",
        "|---|---|---|---|---|---|",
    ]
    for r in summary:
        lines.append(
            f"| {cases[r['case']]} | {r['n']} | {COMPARISON_METHODS[r['test']]} | "
            f"{r['reject']:.{digits}f} [{r['reject_lo']:.{digits}f}, {r['reject_hi']:.{digits}f}]"
            f" | {r['gap']:.{digits}f} ± {r['gap_se']:.{digits}f} | {r['n_fits']:.0f} |"
        )
    return "\n".join(lines)


def rejections(
    records: Mapping[str, np.ndarray], test: str, alpha: float = 0.05, **where: Any
) -> np.ndarray:
    """Whether ``test`` rejected at level ``alpha``, one entry per data set (paired order).

    Examples
    --------
    >>> rejections(run_comparisons("null", [60], n_repeats=3), "mcnemar").shape
    (3,)
    """
    cols = {k: np.asarray(v) for k, v in records.items()}
    sel = cols["test"] == test
    for key, value in where.items():
        sel &= cols[key] == value
    if not sel.any():
        raise ValueError(f"no record of test {test!r} with {where}")
    idx = np.flatnonzero(sel)
    idx = idx[np.lexsort((cols["repeat"][idx], cols["n"][idx], cols["case"][idx]))]
    return cols["p_value"][idx] < alpha


# --------------------------------------------------------------------------- #
# Comparing two learners

#: The two cases of the comparison study: column sets of learner A and learner B on twonorm.
CASES: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "null": (tuple(range(10)), tuple(range(10, 20))),
    "difference": (tuple(range(10)), tuple(range(4))),
}

_TESTS = list(COMPARISON_METHODS)


def comparison_trial(
    rng: np.random.Generator, n_values: Sequence[int], case: str, mcnemar_test_size: float = 0.3
) -> np.ndarray:
    """One repetition of the comparison study on twonorm: every test at every ``n``.

    Returns
    -------
    numpy.ndarray of shape (len(n_values) * 4, 6)
        Columns ``n, test index, estimated difference, p-value, risk of A
        minus risk of B`` (models fitted on all ``n``; for McNemar the two
        fitted models it compares) and ``n_fits``.

    Examples
    --------
    >>> comparison_trial(np.random.default_rng(0), [60], "null").shape
    (4, 6)
    """
    if case not in CASES:
        raise ValueError(f"case must be one of {list(CASES)}, got {case!r}")
    dist = Twonorm()
    cols_a, cols_b = CASES[case]
    est_a, est_b = SubsetLDA(columns=cols_a), SubsetLDA(columns=cols_b)
    rows = []
    for n in n_values:
        X, y = dist.sample(int(n), random_state=int(rng.integers(0, 2**31 - 1)))
        gap = true_risk(clone(est_a).fit(X, y), dist) - true_risk(clone(est_b).fit(X, y), dist)
        halves = five_by_two_splits(y, random_state=int(rng.integers(0, 2**31 - 1)))
        p = _differences_5x2(est_a, est_b, X, y, "zero_one", halves)
        _, p_t = ttest_5x2cv_from_differences(p)
        _, p_f = ftest_5x2cv_from_differences(p)
        rows.append((n, _TESTS.index("ttest_5x2cv"), p.mean(), p_t, gap, 20))
        rows.append((n, _TESTS.index("ftest_5x2cv"), p.mean(), p_f, gap, 20))
        seed = int(rng.integers(0, 2**31 - 1))
        mc = mcnemar_holdout(est_a, est_b, X, y, test_size=mcnemar_test_size, random_state=seed)
        # the McNemar null is about the two fitted models it compares: record their gap
        n_test = round(mcnemar_test_size * n)
        ((train, _),) = _random_splits(y, 1, n_test, "zero_one", _rng(seed))
        mc_gap = true_risk(clone(est_a).fit(X[train], y[train]), dist) - true_risk(
            clone(est_b).fit(X[train], y[train]), dist
        )
        rows.append((n, _TESTS.index("mcnemar"), mc.difference, mc.p_value, mc_gap, 2))
        ct = corrected_paired_ttest(
            est_a, est_b, X, y, random_state=int(rng.integers(0, 2**31 - 1))
        )
        rows.append(
            (n, _TESTS.index("corrected_paired_t"), ct.difference, ct.p_value, gap, ct.n_fits)
        )
    return np.array(rows, dtype=float)


def run_comparisons(
    case: str = "null",
    n_values: Sequence[int] = (100,),
    n_repeats: int = 200,
    random_state: int | None = 0,
    n_jobs: int | None = None,
    progress: bool = False,
    checkpoint: str | os.PathLike | None = None,
) -> dict[str, np.ndarray]:
    """Run :func:`comparison_trial` on ``n_repeats`` data sets.

    Examples
    --------
    >>> rec = run_comparisons("difference", [60], n_repeats=2)
    >>> sorted(set(rec["test"].tolist()))
    ['corrected_paired_t', 'ftest_5x2cv', 'mcnemar', 'ttest_5x2cv']
    """
    if case not in CASES:
        raise ValueError(f"case must be one of {list(CASES)}, got {case!r}")
    n_values = [check_int(v, "n_values", minimum=20) for v in n_values]
    n_repeats = check_int(n_repeats, "n_repeats", minimum=1)
    results = repeat(
        comparison_trial,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        progress=progress,
        desc=f"comparisons ({case})",
        checkpoint=checkpoint,
        n_values=n_values,
        case=case,
    )
    table = np.concatenate(results)
    reps = np.concatenate([np.full(len(r), i) for i, r in enumerate(results)])
    m = len(table)
    return {
        "case": np.full(m, case),
        "repeat": reps.astype(int),
        "n": table[:, 0].astype(int),
        "test": np.array(_TESTS)[table[:, 1].astype(int)],
        "difference": table[:, 2],
        "p_value": table[:, 3],
        "gap": table[:, 4],
        "n_fits": table[:, 5].astype(int),
    }


def summarize_comparisons(
    records: Mapping[str, np.ndarray], alpha: float = 0.05, coverage_alpha: float = 0.05
) -> list[dict[str, Any]]:
    """Rejection rate of each test at level ``alpha``, with its Clopper--Pearson interval.

    Returns
    -------
    list of dict
        One row per ``(case, n, test)``: ``n_repeats, reject, reject_lo, reject_hi``,
        ``gap`` (mean true risk difference A - B of the models fitted on all n,
        i.e. the expected difference at n) and ``gap_se``, ``n_fits``.

    Examples
    --------
    >>> rows = summarize_comparisons(run_comparisons("null", [60], n_repeats=3))
    >>> [r["test"] for r in rows]
    ['ttest_5x2cv', 'ftest_5x2cv', 'mcnemar', 'corrected_paired_t']
    """
    cols = {k: np.asarray(v) for k, v in records.items()}
    out = []
    groups = sorted(
        {
            (str(c), int(n), str(t))
            for c, n, t in zip(cols["case"], cols["n"], cols["test"], strict=True)
        },
        key=lambda g: (list(CASES).index(g[0]), g[1], _TESTS.index(g[2])),
    )
    for case, n, test in groups:
        sel = (cols["case"] == case) & (cols["n"] == n) & (cols["test"] == test)
        R = int(sel.sum())
        k = int(np.sum(cols["p_value"][sel] < alpha))
        lo, hi = _cp(k, R, coverage_alpha)
        gap = cols["gap"][sel]
        out.append(
            {
                "case": case,
                "n": n,
                "test": test,
                "n_repeats": R,
                "reject": k / R,
                "reject_lo": lo,
                "reject_hi": hi,
                "gap": float(gap.mean()),
                "gap_se": float(gap.std(ddof=1) / np.sqrt(R)) if R > 1 else float("nan"),
                "n_fits": float(cols["n_fits"][sel].mean()),
            }
        )
    return out


# --------------------------------------------------------------------------- #
# Records on disk

_KINDS = {"U": str, "i": int, "f": float}


def save_record(
    path: str | os.PathLike, records: Mapping[str, np.ndarray], meta: Mapping[str, Any]
) -> None:
    """Write ``records`` as ``<path>.csv.gz`` (exact floats) and ``meta`` as ``<path>.json``.

    Both are written atomically (:func:`cvbook.provenance.atomic_write`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     save_record(pathlib.Path(tmp) / "r", {"n": np.array([5]), "x": np.array([0.1])},
    ...                 {"seed": 1})
    ...     rec, meta = load_record(pathlib.Path(tmp) / "r")
    >>> rec["x"].tolist(), rec["n"].dtype.kind, meta
    ([0.1], 'i', {'seed': 1})
    """
    path = Path(path)
    columns = {k: np.asarray(v) for k, v in records.items()}
    header = [f"{k}:{v.dtype.kind if v.dtype.kind in 'if' else 'U'}" for k, v in columns.items()]
    lines = [",".join(header)]
    for row in zip(*(v.tolist() for v in columns.values()), strict=True):
        lines.append(
            ",".join(
                repr(float(v)) if h.endswith(":f") else str(v)
                for h, v in zip(header, row, strict=True)
            )
        )
    text = "\n".join(lines) + "\n"

    def write_gz(tmp: str) -> None:
        with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh:
            fh.write(text.encode())

    atomic_write(path.parent / f"{path.name}.csv.gz", write_gz)
    atomic_write_text(path.parent / f"{path.name}.json", json.dumps(meta, indent=1) + "\n")


def load_record(path: str | os.PathLike) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Read what :func:`save_record` wrote: ``(records, meta)``.

    Examples
    --------
    >>> load_record("no/such/record")
    Traceback (most recent call last):
    ...
    FileNotFoundError: [Errno 2] No such file or directory: 'no/such/record.csv.gz'
    """
    path = Path(path)
    with gzip.open(path.parent / f"{path.name}.csv.gz", "rt") as fh:
        lines = fh.read().splitlines()
    header = [h.split(":") for h in lines[0].split(",")]
    rows = [line.split(",") for line in lines[1:]]
    dtypes = {"U": str, "i": np.int64, "f": np.float64}
    records = {
        key: np.array([_KINDS[kind](r[j]) for r in rows], dtype=dtypes[kind])
        for j, (key, kind) in enumerate(header)
    }
    meta = json.loads((path.parent / f"{path.name}.json").read_text())
    return records, meta


# --------------------------------------------------------------------------- #
# The long run

#: The long run's plan: per design ``"distribution/learner"``, the sizes and the number of data
#: sets; and the comparison study's. The claims of chapter 7 rest on the main design (LDA on the
#: two Gaussians, exact risks) and on the comparisons, which get most of the data sets; the
#: other designs show the pattern with wider Clopper-Pearson intervals. About 12 minutes of one
#: core (the RBF SVM, whose fits and fresh-sample risks cost the most, stops at n = 500).
LONG_RUN: dict[str, Any] = {
    "coverage": {
        "twogaussians/lda": {"n_values": [50, 100, 250, 500, 1000], "n_repeats": 200},
        "twogaussians/logreg": {"n_values": [50, 250, 1000], "n_repeats": 20},
        "twonorm/lda": {"n_values": [50, 250, 1000], "n_repeats": 20},
        "twonorm/logreg": {"n_values": [50, 250, 1000], "n_repeats": 20},
        "twonorm/svm": {"n_values": [50, 250, 500], "n_repeats": 12},
        "ringnorm/lda": {"n_values": [50, 250, 1000], "n_repeats": 20},
        "ringnorm/svm": {"n_values": [50, 250, 500], "n_repeats": 12},
    },
    "comparison": {"n_values": [100, 300], "n_repeats": 400},
}


def _concat(parts: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: the long coverage and comparison studies, with provenance; resumable.

    Examples
    --------
    >>> main(["--help"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    SystemExit: 0
    """
    parser = argparse.ArgumentParser(
        prog="python -m cvbook.runs.intervals",
        description="Coverage of the risk intervals and error rates of the learner "
        "comparisons of chapter 7, on distributions with known risk.",
    )
    parser.add_argument("--out", default="results/intervals", help="output folder")
    parser.add_argument("--seed", type=int, default=2028)
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="multiply every number of data sets of the plan (at least 2 each)",
    )
    parser.add_argument(
        "--designs",
        nargs="+",
        default=None,
        help="distribution/learner pairs of the plan to run (default: all)",
    )
    parser.add_argument(
        "--n-fresh", type=int, default=20_000, help="fresh points for a risk that is not exact"
    )
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    from .._checks import (
        check_float,
        check_int,
        check_n_jobs,
        check_output_path,
        check_random_state,
        name_options,
    )

    options = {
        "n_fresh": "--n-fresh",
        "random_state": "--seed",
        "n_jobs": "--n-jobs",
        "n_repeats": "--scale",
    }
    try:  # every option checked by the name the user typed, before any work
        check_output_path(args.out, "--out", folder=True)
        check_float(args.scale, "--scale", minimum=0.0, exclusive=True)
        check_random_state(args.seed, "--seed")
        # the parts use the seeds --seed to --seed + 100 + (number of cases)
        check_int(args.seed, "--seed", maximum=2**32 - 1 - 200)
        check_int(args.n_fresh, "--n-fresh", minimum=1)
        check_n_jobs(args.n_jobs, "--n-jobs")
    except ValueError as err:
        parser.error(str(err))
    out = Path(args.out)
    plan = json.loads(json.dumps(LONG_RUN))
    if args.designs is not None:
        unknown = sorted(set(args.designs) - set(plan["coverage"]))
        if unknown:
            parser.error(f"--designs: unknown {unknown}; choose from {list(plan['coverage'])}")
        plan["coverage"] = {k: v for k, v in plan["coverage"].items() if k in args.designs}
    for block in [*plan["coverage"].values(), plan["comparison"]]:
        block["n_repeats"] = max(2, round(block["n_repeats"] * args.scale))
    commit, dirty = git_commit(), git_dirty()  # the code that runs: read before the run
    start, cpu_start = time.time(), time.process_time()
    parts_dir = out / "parts"
    resumed: dict[str, int] = {}
    pieces, comps, timings = [], [], {}
    designs = list(plan["coverage"])
    # the main design, then the comparisons, then the other designs (cheapest first): a run
    # cut short and resumed at a smaller --scale keeps what matters most
    order = [*designs[:1], "comparison/null", "comparison/difference", *designs[1:]]
    try:
        for part in order:
            kind, what = part.split("/")
            name = f"{kind}_{what}"
            ck = parts_dir / name
            resumed[name] = len(saved_repetitions(ck))
            t0 = time.time()
            with threadpool_limits(1):  # one BLAS thread per worker: no oversubscription
                if kind == "comparison":
                    block = plan["comparison"]
                    comps.append(
                        run_comparisons(
                            what,
                            block["n_values"],
                            block["n_repeats"],
                            random_state=args.seed + 100 + list(CASES).index(what),
                            n_jobs=args.n_jobs,
                            progress=not args.no_progress,
                            checkpoint=ck,
                        )
                    )
                else:
                    block = plan["coverage"][part]
                    seed = args.seed + list(LONG_RUN["coverage"]).index(part)
                    pieces.append(
                        run_intervals(
                            kind,
                            what,
                            block["n_values"],
                            block["n_repeats"],
                            n_fresh=args.n_fresh,
                            random_state=seed,
                            n_jobs=args.n_jobs,
                            progress=not args.no_progress,
                            checkpoint=ck,
                        )
                    )
            timings[name] = round(time.time() - t0, 1)
    except (ValueError, OSError) as err:  # one line naming the option, exit 2
        parser.error(name_options(str(err), options))
    coverage, comparison = _concat(pieces), _concat(comps)
    provenance = {
        "command": "python -m cvbook.runs.intervals "
        + " ".join(sys.argv[1:] if argv is None else list(argv)),
        "parameters": {
            "seed": args.seed,
            "plan": plan,
            "scale": args.scale,
            "settings": SETTINGS,
            "alpha": 0.05,
            "n_fresh": args.n_fresh,
            "comparison_cases": {k: [list(v[0]), list(v[1])] for k, v in CASES.items()},
        },
        "versions": package_versions(),
        "commit": commit,
        "uncommitted_package_files": dirty,
        "wall_time_s": round(time.time() - start, 1),
        "wall_time_by_part_s": timings,
        "cpu_time_s": round(time.process_time() - cpu_start, 1),  # this process (n_jobs=1)
        "cpu_count": os.cpu_count(),
        "n_jobs": args.n_jobs,
        "repetitions_resumed": resumed,  # done by an earlier, interrupted run (not timed here)
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    save_record(
        out / "coverage",
        coverage,
        {"provenance": provenance, "summary": summarize_intervals(coverage)},
    )
    save_record(
        out / "comparison",
        comparison,
        {"provenance": provenance, "summary": summarize_comparisons(comparison)},
    )
    shutil.rmtree(parts_dir)  # the records are on disk: the checkpoints are not needed
    print(
        f"wrote {out}/coverage.* and {out}/comparison.* in {provenance['wall_time_s']} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
