"""Is learner A really better than learner B? Tests on the same data (chapter 7).

Each test returns a frozen :class:`ComparisonTest`: the estimated difference
in risk ``A - B``, the statistic, its p-value (two-sided), the degrees of
freedom, the method, the null it tests and the number of fits.

* :func:`paired_ttest_5x2cv` -- Dietterich's (1998) 5x2cv paired t.
* :func:`combined_ftest_5x2cv` -- Alpaydin's (1999) combined 5x2cv F.
* :func:`mcnemar_test` / :func:`mcnemar_holdout` -- the exact McNemar test on
  one test set: it compares the two *fitted* models (their conditional
  risks), not the learners.
* :func:`corrected_paired_ttest` -- Nadeau & Bengio's corrected resampled t
  on the paired differences over ``J`` random splits.

The 5x2cv tests and the corrected t test the null "the learners have the same
expected risk at the training size used"; McNemar tests "the two fitted models
have the same risk".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .intervals import random_splits, split_losses
from .risk import LOSS, check_target, fit_predict
from .validation import (
    Interval,
    Options,
    as_random_state,
    check_alpha,
    check_data,
    check_finite_values,
    check_float,
    check_halvings,
    check_predicted_labels,
    check_same_length,
    check_target_for_loss,
    check_test_count_bound,
    validate_params,
)

__all__ = [
    "COMPARISON_METHODS",
    "MCNEMAR_LOSS",
    "ComparisonTest",
    "combined_ftest_5x2cv",
    "corrected_paired_ttest",
    "five_by_two_splits",
    "ftest_5x2cv_from_differences",
    "mcnemar_holdout",
    "mcnemar_test",
    "paired_ttest_5x2cv",
    "ttest_5x2cv_from_differences",
]

#: The tests, by the name in ``ComparisonTest.method``, with a label.
COMPARISON_METHODS: dict[str, str] = {
    "ttest_5x2cv": "5×2cv paired t (Dietterich)",
    "ftest_5x2cv": "combined 5×2cv F (Alpaydin)",
    "mcnemar": "exact McNemar, one test set",
    "corrected_paired_t": "corrected resampled paired t (Nadeau–Bengio)",
}


@dataclass(frozen=True)
class ComparisonTest:
    """The result of a test comparing two learners (or two fitted models).

    Attributes
    ----------
    difference : float
        Estimated risk of A minus risk of B.
    statistic : float
    p_value : float
        Two-sided p-value (one-sided in the upper tail for the F test).
    df : tuple of float
        Degrees of freedom of the reference distribution (empty for McNemar).
    method : str
    null : str
        ``"conditional"`` (the two fitted models have equal risk) or
        ``"expected"`` (the two learners have equal expected risk).
    n_fits : int

    Examples
    --------
    >>> t = ComparisonTest(0.02, 1.2, 0.3, (5.0,), "ttest_5x2cv", "expected", 20)
    >>> t.rejects(0.05)
    False
    """

    difference: float
    statistic: float
    p_value: float
    df: tuple
    method: str
    null: str
    n_fits: int

    def __post_init__(self) -> None:
        if self.null not in ("conditional", "expected"):
            raise ValueError(f"null must be 'conditional' or 'expected', got {self.null!r}")
        check_float(self.p_value, "p_value", minimum=0.0, maximum=1.0)

    def rejects(self, alpha: float = 0.05) -> bool:
        """Whether the test rejects at level ``alpha``."""
        return bool(self.p_value < check_alpha(alpha))


@validate_params({"loss": LOSS, "random_state": "random_state"})
def five_by_two_splits(y: Any, loss: str = "zero_one", random_state=None) -> list:
    """Five random halvings of the data: ``[(half_1, half_2), ...]``.

    Stratified for the 0-1 loss. Each half serves once for training and once
    for testing.

    Examples
    --------
    >>> halves = five_by_two_splits(np.r_[np.zeros(5), np.ones(5)], random_state=0)
    >>> len(halves), [len(h) for h in halves[0]]
    (5, [5, 5])
    """
    y = check_target(y, loss)
    n = len(y)
    if n < 4:
        raise ValueError(f"y must hold at least 4 points for a 5x2cv test, got {n}")
    rng = as_random_state(random_state)
    return [tuple(random_splits(y, 1, n // 2, loss, rng)[0]) for _ in range(5)]


#: What a comparison of two learners accepts (each test adds its own arguments).
_TWO = {
    "estimator_a": "estimator",
    "estimator_b": "estimator",
    "loss": LOSS,
    "random_state": "random_state",
}


def differences_5x2(est_a, est_b, X, y, loss, splits) -> np.ndarray:
    """``p[i, j]``: risk of A minus risk of B, repetition i, fold j (trained on the other half)."""
    folds = []
    for h1, h2 in splits:
        folds.extend([(h1, h2), (h2, h1)])
    la = split_losses(est_a, X, y, folds, loss)
    lb = split_losses(est_b, X, y, folds, loss)
    return np.array([a.mean() - b.mean() for a, b in zip(la, lb, strict=True)]).reshape(5, 2)


def ttest_5x2cv_from_differences(p: Any) -> tuple[float, float]:
    """Dietterich's 5x2cv t from the 5 x 2 differences ``p[i, j]``.

    ``t = p[0, 0] / sqrt(sum_i s_i**2 / 5)``, with
    ``s_i**2 = (p[i, 0] - pbar_i)**2 + (p[i, 1] - pbar_i)**2``; t has 5
    degrees of freedom.

    With no spread within any repetition (every ``s_i**2 = 0``), ``t`` is the limit of
    the statistic: ``±inf`` (p = 0) when ``p[0, 0] != 0``, 0 (p = 1) when it is 0.

    Returns
    -------
    (t, two-sided p-value)

    Examples
    --------
    >>> t, p = ttest_5x2cv_from_differences([[0.1, 0.0]] * 5)
    >>> round(t, 4)                     # 0.1 / sqrt(0.005)
    1.4142
    """
    p = check_finite_values(p, "p")
    if p.shape != (5, 2):
        raise ValueError(f"p must have shape (5, 2) (5 repetitions x 2 folds), got {p.shape}")
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    denom = math.sqrt(s2.sum() / 5)
    if denom == 0:
        t = 0.0 if p[0, 0] == 0 else math.copysign(math.inf, p[0, 0])
    else:
        t = float(p[0, 0] / denom)
    return t, float(2 * stats.t.sf(abs(t), 5))


def ftest_5x2cv_from_differences(p: Any) -> tuple[float, float]:
    """Alpaydin's combined 5x2cv F from the 5 x 2 differences ``p[i, j]``.

    ``F = sum_ij p[i, j]**2 / (2 sum_i s_i**2)``, F-distributed with (10, 5)
    degrees of freedom under the null.

    Returns
    -------
    (F, p-value in the upper tail)

    Examples
    --------
    >>> f, p = ftest_5x2cv_from_differences([[0.1, 0.0]] * 5)
    >>> round(f, 4)                     # 0.05 / (2 * 0.025)
    1.0
    """
    p = check_finite_values(p, "p")
    if p.shape != (5, 2):
        raise ValueError(f"p must have shape (5, 2) (5 repetitions x 2 folds), got {p.shape}")
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    num, den = float((p**2).sum()), 2 * float(s2.sum())
    if den == 0:
        f = 0.0 if num == 0 else math.inf
    else:
        f = num / den
    return f, float(stats.f.sf(f, 10, 5))


@validate_params(_TWO)
def paired_ttest_5x2cv(
    estimator_a,
    estimator_b,
    X,
    y,
    *,
    loss: str = "zero_one",
    splits: Sequence | None = None,
    random_state=None,
) -> ComparisonTest:
    """Dietterich's (1998) 5x2cv paired t test.

    Five times, the data are halved; each learner is trained on one half and
    tested on the other, then the other way round. See
    :func:`ttest_5x2cv_from_differences`.

    Parameters
    ----------
    estimator_a, estimator_b : estimators
    X, y : array_like
    loss : {"zero_one", "squared"}
    splits : sequence of 5 pairs of index arrays, optional
        The halvings (default: :func:`five_by_two_splits` from ``random_state``):
        integer indices in ``[0, n)``, each pair two disjoint non-empty halves
        that together cover every point.
    random_state : None, int or numpy Generator

    Returns
    -------
    ComparisonTest
        Null ``"expected"`` (equal expected risks at ``n/2`` points); 20 fits.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from sklearn.dummy import DummyClassifier
    >>> from cvbook.datasets import Twonorm
    >>> X, y = Twonorm().sample(100, random_state=0)
    >>> r = paired_ttest_5x2cv(LinearDiscriminantAnalysis(), DummyClassifier(), X, y,
    ...                        random_state=0)
    >>> r.difference < 0, r.p_value < 0.05, r.n_fits
    (True, True, 20)
    """
    X, y, n = check_data(X, y)
    y = check_target(y, loss)
    if splits is None:
        splits = five_by_two_splits(y, loss, random_state)
    else:
        splits = check_halvings(splits, n)
    p = differences_5x2(estimator_a, estimator_b, X, y, loss, splits)
    t, pv = ttest_5x2cv_from_differences(p)
    return ComparisonTest(float(p.mean()), t, pv, (5.0,), "ttest_5x2cv", "expected", 20)


@validate_params(_TWO)
def combined_ftest_5x2cv(
    estimator_a,
    estimator_b,
    X,
    y,
    *,
    loss: str = "zero_one",
    splits: Sequence | None = None,
    random_state=None,
) -> ComparisonTest:
    """Alpaydin's (1999) combined 5x2cv F test (same fits as :func:`paired_ttest_5x2cv`).

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import Twonorm
    >>> X, y = Twonorm().sample(100, random_state=0)
    >>> r = combined_ftest_5x2cv(LinearDiscriminantAnalysis(), LinearDiscriminantAnalysis(),
    ...                          X, y, random_state=0)
    >>> r.difference, r.method                     # the same learner twice
    (0.0, 'ftest_5x2cv')
    """
    X, y, n = check_data(X, y)
    y = check_target(y, loss)
    if splits is None:
        splits = five_by_two_splits(y, loss, random_state)
    else:
        splits = check_halvings(splits, n)
    p = differences_5x2(estimator_a, estimator_b, X, y, loss, splits)
    f, pv = ftest_5x2cv_from_differences(p)
    return ComparisonTest(float(p.mean()), f, pv, (10.0, 5.0), "ftest_5x2cv", "expected", 20)


#: McNemar's test counts right/wrong disagreements: the 0-1 loss only.
MCNEMAR_LOSS = Options(
    "zero_one",
    why="McNemar's test counts right/wrong disagreements; for a regression loss use "
    "corrected_paired_ttest",
)


@validate_params({"loss": MCNEMAR_LOSS, "exact": "boolean", "correction": "boolean"})
def mcnemar_test(
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    *,
    loss: str = "zero_one",
    exact: bool = True,
    correction: bool = True,
) -> ComparisonTest:
    """McNemar's test on one test set: do the two fitted models err equally often?

    With ``b`` the points A gets wrong and B right, and ``c`` the reverse,
    under the null ``b ~ Binomial(b + c, 1/2)``. The exact test (the default)
    has p-value ``min(1, 2 P(Binomial(b + c, 1/2) <= min(b, c)))`` and
    statistic ``min(b, c)``. With ``exact=False`` the chi-square approximation
    ``(|b - c| - 1)**2 / (b + c)`` (Edwards' continuity correction, the
    default ``correction=True``) or ``(b - c)**2 / (b + c)`` is referred to
    chi-square with one degree of freedom; these are the statistics and
    p-values of ``statsmodels.stats.contingency_tables.mcnemar``.

    Decision (issue 20): the continuity-corrected variant is *offered*, not the
    default. The exact binomial test is valid for any ``b + c`` and is what the
    chapter uses; the corrected chi-square only approximates it (it is the
    version Dietterich 1998 analyses), and is there for a reader who must
    reproduce a published value.

    Parameters
    ----------
    y_true, pred_a, pred_b : array_like of shape (n,)
        Labels and the two models' predicted labels on the same test points.
        A column vector ``(n, 1)`` is flattened with a ``DataConversionWarning``;
        a continuous ``y_true``, probabilities or scores in ``pred_a``/``pred_b``
        (non-integer floats), NaN, other 2-d shapes and labels of another kind
        (strings against numbers) are refused by name.
    loss : {"zero_one"}
        Only the 0-1 loss: McNemar counts disagreements in right/wrong.
    exact : bool, default=True
        The exact binomial test; ``False``: the chi-square approximation.
    correction : bool, default=True
        Continuity correction of the chi-square statistic (``exact=False`` only).

    Returns
    -------
    ComparisonTest
        Null ``"conditional"``; no fit (0).

    Examples
    --------
    >>> r = mcnemar_test([1, 1, 1, 1, 0, 0], [1, 1, 1, 1, 0, 0], [0, 0, 0, 1, 0, 0])
    >>> r.statistic, round(r.p_value, 4)       # b = 0, c = 3: 2 * 0.5**3
    (0.0, 0.25)
    >>> r = mcnemar_test([1, 1, 1, 1, 0, 0], [1, 1, 1, 1, 0, 0], [0, 0, 0, 1, 0, 0], exact=False)
    >>> round(r.statistic, 4), r.df            # (|0 - 3| - 1)**2 / 3
    (1.3333, (1.0,))
    """
    exact, correction = bool(exact), bool(correction)
    y_true = check_target_for_loss(y_true, "zero_one", "y_true")
    pred_a = check_predicted_labels(pred_a, "pred_a", like=y_true)
    pred_b = check_predicted_labels(pred_b, "pred_b", like=y_true)
    n = check_same_length(("y_true", y_true), ("pred_a", pred_a), ("pred_b", pred_b))
    wrong_a, wrong_b = pred_a != y_true, pred_b != y_true
    b = int(np.sum(wrong_a & ~wrong_b))
    c = int(np.sum(~wrong_a & wrong_b))
    if exact:
        p = 1.0 if b + c == 0 else min(1.0, 2 * float(stats.binom.cdf(min(b, c), b + c, 0.5)))
        return ComparisonTest((b - c) / n, float(min(b, c)), p, (), "mcnemar", "conditional", 0)
    if b + c == 0:
        chi2, p = 0.0, 1.0
    else:
        chi2 = (abs(b - c) - (1.0 if correction else 0.0)) ** 2 / (b + c)
        p = float(stats.chi2.sf(chi2, 1))
    return ComparisonTest((b - c) / n, float(chi2), p, (1.0,), "mcnemar", "conditional", 0)


@validate_params({**_TWO, "loss": MCNEMAR_LOSS, "test_size": "test_size"})
def mcnemar_holdout(
    estimator_a,
    estimator_b,
    X,
    y,
    *,
    loss: str = "zero_one",
    test_size: float | int = 0.3,
    random_state=None,
) -> ComparisonTest:
    """Fit both learners on one training part and run :func:`mcnemar_test` on the test part.

    Returns
    -------
    ComparisonTest
        Null ``"conditional"`` (the two fitted models); 2 fits.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from sklearn.dummy import DummyClassifier
    >>> from cvbook.datasets import Twonorm
    >>> X, y = Twonorm().sample(200, random_state=0)
    >>> r = mcnemar_holdout(LinearDiscriminantAnalysis(), DummyClassifier(), X, y, random_state=0)
    >>> r.p_value < 0.05, r.n_fits
    (True, 2)
    """
    X, y, n = check_data(X, y)
    y = check_target(y, loss)
    n_test = check_test_count_bound(test_size, n)
    ((train, test),) = random_splits(y, 1, n_test, loss, as_random_state(random_state))
    pa = fit_predict(estimator_a, X, y, train, test)
    pb = fit_predict(estimator_b, X, y, train, test)
    for name, pred in (("estimator_a", pa), ("estimator_b", pb)):
        try:
            check_predicted_labels(pred, "pred", like=y[test])
        except (TypeError, ValueError) as err:
            raise type(err)(
                f"{name} must be a classifier for McNemar's test: its predictions are not "
                f"class labels ({err})"
            ) from None
    r = mcnemar_test(y[test], pa, pb)
    return ComparisonTest(r.difference, r.statistic, r.p_value, (), "mcnemar", "conditional", 2)


@validate_params(
    {**_TWO, "n_splits": Interval("int", 2), "test_size": "test_size", "n_jobs": "n_jobs"}
)
def corrected_paired_ttest(
    estimator_a,
    estimator_b,
    X,
    y,
    *,
    loss: str = "zero_one",
    n_splits: int = 15,
    test_size: float | int = 0.1,
    random_state=None,
    n_jobs: int | None = None,
) -> ComparisonTest:
    """Nadeau & Bengio's corrected resampled t on the paired differences over J splits.

    Both learners are trained and tested on the same ``J`` random splits;
    the differences of their mean test losses get the variance of
    :func:`cvbook.intervals.corrected_t_from_split_means`,
    ``(1/J + n_test/n_train) S**2`` accounts for the overlap of the
    training sets. ``t`` has ``J - 1`` degrees of freedom.

    Returns
    -------
    ComparisonTest
        Null ``"expected"`` (equal expected risks at ``n - n_test`` points);
        ``2 J`` fits.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from sklearn.dummy import DummyClassifier
    >>> from cvbook.datasets import Twonorm
    >>> X, y = Twonorm().sample(100, random_state=0)
    >>> r = corrected_paired_ttest(LinearDiscriminantAnalysis(), DummyClassifier(), X, y,
    ...                            random_state=0)
    >>> r.p_value < 0.05, r.df, r.n_fits
    (True, (14.0,), 30)
    """
    X, y, n = check_data(X, y)
    y = check_target(y, loss)
    n_test = check_test_count_bound(test_size, n)
    splits = random_splits(y, n_splits, n_test, loss, as_random_state(random_state))
    la = split_losses(estimator_a, X, y, splits, loss, n_jobs)
    lb = split_losses(estimator_b, X, y, splits, loss, n_jobs)
    d = np.array([a.mean() - b.mean() for a, b in zip(la, lb, strict=True)])
    J = n_splits
    est = float(d.mean())
    se = math.sqrt((1 / J + n_test / (n - n_test)) * float(d.var(ddof=1)))
    if se == 0:
        t = 0.0 if est == 0 else math.copysign(math.inf, est)
    else:
        t = est / se
    p = float(2 * stats.t.sf(abs(t), J - 1))
    return ComparisonTest(est, t, p, (float(J - 1),), "corrected_paired_t", "expected", 2 * J)
