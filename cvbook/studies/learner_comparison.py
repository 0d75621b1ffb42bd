"""Which of two learners is better? Chapter 7's comparison tests, their size and power.

On twonorm, whose 20 coordinates are exchangeable, LDA on the
first ten coordinates and LDA on the last ten have the same expected risk at
every training size -- a true null by construction. LDA on the first ten
against LDA on the first four is a known difference. Every test of
:mod:`cvbook.compare` runs on each data set; the rejection rate is the
type-I error under the null and the power under the difference -- except McNemar's,
whose null (equal risks of the two fitted models) is false on every data set, so
its rate under the learners' null is a rejection rate, not a size. Each comparison also
records the gap of the learners at the test's own training size.

Every repetition goes through :func:`cvbook.simulation.repeat`, seeded per
task, so results are the same for any ``n_jobs``. The long run's command line is
:mod:`cvbook.runs.intervals`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from ..book import format_pm
from ..bounds import clopper_pearson_interval
from ..compare import (
    COMPARISON_METHODS,
    corrected_paired_ttest,
    differences_5x2,
    five_by_two_splits,
    ftest_5x2cv_from_differences,
    mcnemar_holdout,
    ttest_5x2cv_from_differences,
)
from ..datasets.synthetic import Twonorm, true_risk
from ..intervals import random_splits
from ..simulation import repeat
from ..validation import (
    check_alpha,
    check_index_array,
    check_int,
    check_option,
    check_rng,
    check_test_fraction,
)
from .interval_coverage import check_n_values, check_records

__all__ = [
    "CASES",
    "SubsetLDA",
    "comparison_trial",
    "format_comparison_table",
    "rejections",
    "run_comparisons",
    "summarize_comparisons",
]


class SubsetLDA(ClassifierMixin, BaseEstimator):
    """LDA on some coordinates only; a linear rule on all of them (zero weight elsewhere).

    Parameters
    ----------
    columns : tuple of int
        The coordinates the model sees: distinct column indices of ``X``, at least one
        (checked by ``fit``, as scikit-learn's conventions ask).

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
        X = np.asarray(X)
        cols = check_index_array(self.columns, "columns").tolist()
        n_features = X.shape[1] if X.ndim == 2 else None
        if n_features is not None and max(cols) >= n_features:
            raise ValueError(
                f"columns holds {max(cols)}, but X has {n_features} columns "
                f"(indices 0 to {n_features - 1})"
            )
        self.lda_ = LinearDiscriminantAnalysis().fit(X[:, cols], y)
        self.classes_ = self.lda_.classes_
        coef = np.zeros((1, X.shape[1]))
        coef[0, cols] = self.lda_.coef_.ravel()
        self.coef_ = coef
        self.intercept_ = self.lda_.intercept_
        return self

    def predict(self, X):
        return self.lda_.predict(np.asarray(X)[:, list(self.columns)])


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

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness.
    n_values : sequence of int
        Sizes ``n`` of the data sets, each at least 20.
    case : {"null", "difference"}
        The pair of learners (:data:`CASES`).
    mcnemar_test_size : float, default=0.3
        McNemar's test fraction, strictly between 0 and 1.

    Returns
    -------
    numpy.ndarray of shape (len(n_values) * 4, 8)
        Columns ``n, test index, estimated difference, p-value, risk of A
        minus risk of B`` (models fitted on all ``n``; for McNemar the two
        fitted models it compares), ``n_fits``, then ``gap_train``, the risk of A
        minus B of models fitted on ``n_train`` points, the test's own training
        size (``n - n // 2`` for 5x2cv, ``0.9 n`` for the corrected t, McNemar's
        training part), and ``n_train``.

    Examples
    --------
    >>> comparison_trial(np.random.default_rng(0), [60], "null").shape
    (4, 8)
    """
    rng = check_rng(rng, "rng")
    n_values = check_n_values(n_values)
    check_option(case, "case", CASES)
    mcnemar_test_size = check_test_fraction(mcnemar_test_size, "mcnemar_test_size")
    dist = Twonorm()
    cols_a, cols_b = CASES[case]
    est_a, est_b = SubsetLDA(columns=cols_a), SubsetLDA(columns=cols_b)
    rows = []
    for n in n_values:
        X, y = dist.sample(int(n), random_state=int(rng.integers(0, 2**31 - 1)))
        gap = true_risk(clone(est_a).fit(X, y), dist) - true_risk(clone(est_b).fit(X, y), dist)
        halves = five_by_two_splits(y, random_state=int(rng.integers(0, 2**31 - 1)))
        p = differences_5x2(est_a, est_b, X, y, "zero_one", halves)
        _, p_t = ttest_5x2cv_from_differences(p)
        _, p_f = ftest_5x2cv_from_differences(p)

        # the gap at each test's own training size: models fitted on the first n_train points
        # (i.i.d., so a random training set of that size); McNemar's is its own training part
        def gap_at(n_train: int, X=X, y=y) -> float:
            Xt, yt = X[:n_train], y[:n_train]
            a = true_risk(clone(est_a).fit(Xt, yt), dist)
            return a - true_risk(clone(est_b).fit(Xt, yt), dist)

        n_half = int(n) - int(n) // 2
        gap_half = gap_at(n_half)
        rows.append((n, _TESTS.index("ttest_5x2cv"), p.mean(), p_t, gap, 20, gap_half, n_half))
        rows.append((n, _TESTS.index("ftest_5x2cv"), p.mean(), p_f, gap, 20, gap_half, n_half))
        seed = int(rng.integers(0, 2**31 - 1))
        mc = mcnemar_holdout(est_a, est_b, X, y, test_size=mcnemar_test_size, random_state=seed)
        # the McNemar null is about the two fitted models it compares: record their gap
        n_test = round(mcnemar_test_size * n)
        ((train, _),) = random_splits(y, 1, n_test, "zero_one", check_rng(seed))
        mc_gap = true_risk(clone(est_a).fit(X[train], y[train]), dist) - true_risk(
            clone(est_b).fit(X[train], y[train]), dist
        )
        rows.append(
            (n, _TESTS.index("mcnemar"), mc.difference, mc.p_value, mc_gap, 2, mc_gap, n - n_test)
        )
        ct = corrected_paired_ttest(
            est_a, est_b, X, y, random_state=int(rng.integers(0, 2**31 - 1))
        )
        n_ct = int(n) - round(0.1 * int(n))  # corrected_paired_ttest's default test_size = 0.1
        rows.append(
            (
                n,
                _TESTS.index("corrected_paired_t"),
                ct.difference,
                ct.p_value,
                gap,
                ct.n_fits,
                gap_at(n_ct),
                n_ct,
            )
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
    check_option(case, "case", CASES)
    n_values = check_n_values(n_values)
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
        "gap_train": table[:, 6],
        "n_train": table[:, 7].astype(int),
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
    cols = check_records(
        records, ("case", "n", "test", "p_value", "gap", "n_fits"), "run_comparisons"
    )
    alpha = check_alpha(alpha, "alpha")
    coverage_alpha = check_alpha(coverage_alpha, "coverage_alpha")
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
        lo, hi = (float(v) for v in clopper_pearson_interval(k, R, coverage_alpha))
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
                "reject_k": k,
            }
        )
        if "gap_train" in cols:
            g = cols["gap_train"][sel]
            out[-1]["gap_train"] = float(g.mean())
            out[-1]["gap_train_se"] = float(g.std(ddof=1) / np.sqrt(R)) if R > 1 else float("nan")
            out[-1]["n_train"] = int(cols["n_train"][sel][0])
    return out


def format_comparison_table(summary: Sequence[Mapping[str, Any]], digits: int = 3) -> str:
    """A markdown table of :func:`summarize_comparisons` rows: rejection rate with its CP interval.

    Examples
    --------
    >>> row = {"case": "null", "n": 100, "test": "mcnemar", "n_repeats": 100, "reject": 0.05,
    ...        "reject_lo": 0.016, "reject_hi": 0.113, "gap": 0.0, "gap_se": 0.001, "n_fits": 2}
    >>> format_comparison_table([row]).splitlines()[2].split(" | ")[3]
    '0.050 [0.016, 0.113]'
    """
    digits = check_int(digits, "digits", minimum=0)
    cases = {"null": "equal expected risks", "difference": "a known difference"}
    train = any("gap_train" in r for r in summary)
    lines = [
        "| case | $m$ | test | rejects at 5% [95% CP] | risk A − risk B at $m$ ± SE | "
        + ("training size | risk A − risk B at it ± SE | " if train else "")
        + "fits |",
        "|---|---|---|---|---|" + ("---|---|" if train else "") + "---|",
    ]
    for r in summary:
        extra = (
            f" | {r['n_train']} | {format_pm(r['gap_train'], r['gap_train_se'], digits=digits)}"
            if train
            else ""
        )
        lines.append(
            f"| {cases[r['case']]} | {r['n']} | {COMPARISON_METHODS[r['test']]} | "
            f"{r['reject']:.{digits}f} [{r['reject_lo']:.{digits}f}, {r['reject_hi']:.{digits}f}]"
            f" | {format_pm(r['gap'], r['gap_se'], digits=digits)}{extra} | {r['n_fits']:.0f} |"
        )
    return "\n".join(lines)


def rejections(
    records: Mapping[str, np.ndarray], test: str, alpha: float = 0.05, **where: Any
) -> np.ndarray:
    """Whether ``test`` rejected at level ``alpha``, one entry per data set (paired order).

    ``alpha`` is a level strictly between 0 and 1 (``alpha=5`` is refused, not read as
    5 %).

    Examples
    --------
    >>> rejections(run_comparisons("null", [60], n_repeats=3), "mcnemar").shape
    (3,)
    """
    cols = check_records(records, ("case", "repeat", "n", "test", "p_value"), "run_comparisons")
    alpha = check_alpha(alpha, "alpha")
    sel = cols["test"] == test
    for key, value in where.items():
        sel &= cols[key] == value
    if not sel.any():
        raise ValueError(f"no record of test {test!r} with {where}")
    idx = np.flatnonzero(sel)
    idx = idx[np.lexsort((cols["repeat"][idx], cols["n"][idx], cols["case"][idx]))]
    return cols["p_value"][idx] < alpha
