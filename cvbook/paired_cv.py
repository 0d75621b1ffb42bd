"""Is learner A better than B on this data set? Bayle et al.'s cross-validation test (chapter 10).

Bayle, Bayle, Janson and Mackey (2020, "Cross-validation confidence intervals for
test error", NeurIPS) prove a central limit theorem for K-fold cross-validation: for
learners stable enough,

.. math:: \\sqrt{n}\\,(\\widehat{\\Delta} - \\Delta_K) / \\sigma \\to \\mathcal N(0, 1),

where, for two learners fitted on the same folds, :math:`\\widehat\\Delta` is the mean over
the ``n`` points of the per-point difference of their out-of-fold losses (A minus B),
and the **target** :math:`\\Delta_K` is the difference of their *K-fold test errors*:
the mean over the K folds of the risk of A's fold model minus the risk of B's. It is a
conditional target -- it speaks of the 2K models fitted on these data, not of the
learners' expected risks.

The test is chapter 7's naive K-fold Wald interval (:func:`cvbook.intervals.cv_wald_interval`)
applied to the per-point loss differences: the same folds
(:func:`cvbook.intervals.kfold_splits`), the same fits
(:func:`cvbook.intervals.split_losses`) and the same two variance estimates
(:func:`cvbook.intervals.cv_wald_sigma`, within folds or over all pairs).

* :func:`cv_compare` -- fit both learners on the same K folds and test.
* :func:`cv_compare_from_losses` -- the test from the two learners' out-of-fold losses.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .intervals import check_wald_folds, cv_wald_sigma, kfold_splits, split_losses
from .risk import LOSS, check_target
from .validation import (
    Options,
    as_random_state,
    check_alpha,
    check_data,
    check_finite_values,
    check_float,
    check_int,
    check_option,
    inside_checked_call,
    validate_params,
)

__all__ = ["ALTERNATIVES", "VARIANCES", "CVComparison", "cv_compare", "cv_compare_from_losses"]

#: The two variance estimates of Bayle et al. (their sigma_in and sigma_out).
VARIANCES: tuple[str, ...] = ("all_pairs", "within_fold")

#: The alternatives: ``"less"`` is "A has the smaller K-fold test error" (A better).
ALTERNATIVES: tuple[str, ...] = ("two-sided", "less", "greater")


@dataclass(frozen=True)
class CVComparison:
    """Bayle et al.'s test of two learners on the same K folds, and its interval.

    Attributes
    ----------
    difference : float
        The cross-validated difference of the losses, A minus B.
    se : float
        ``sigma / sqrt(n)``.
    statistic : float
        ``difference / se`` (0 when both are 0, ``±inf`` when only ``se`` is).
    p_value : float
        Of the null "``Delta_K = 0``" against ``alternative``.
    lower, upper : float
        The ``1 - alpha`` confidence interval for ``Delta_K`` that matches the
        alternative (one end infinite for a one-sided alternative).
    variance : str
        ``"all_pairs"`` or ``"within_fold"``.
    alternative : str
    alpha : float
    n : int
        Number of points.
    n_splits : int
        K.
    n_fits : int
        ``2 K`` when the test fitted the learners, 0 when given losses.

    Examples
    --------
    >>> r = CVComparison(-0.05, 0.02, -2.5, 0.0124, -0.089, -0.011, "all_pairs",
    ...                  "two-sided", 0.05, 100, 10, 20)
    >>> r.rejects(), r.covers(0.0), r.target
    (True, False, 'difference of the K-fold test errors, A - B')
    """

    difference: float
    se: float
    statistic: float
    p_value: float
    lower: float
    upper: float
    variance: str
    alternative: str
    alpha: float
    n: int
    n_splits: int
    n_fits: int

    def __post_init__(self) -> None:
        check_float(self.difference, "difference")
        check_float(self.se, "se", minimum=0.0)
        check_float(self.statistic, "statistic", allow_inf=True)
        check_float(self.p_value, "p_value", minimum=0.0, maximum=1.0)
        check_float(self.lower, "lower", allow_inf=True)
        check_float(self.upper, "upper", allow_inf=True)
        if not inside_checked_call():  # else these were checked at the method's door
            check_option(self.variance, "variance", VARIANCES)
            check_option(self.alternative, "alternative", ALTERNATIVES)
            check_alpha(self.alpha)
        check_int(self.n, "n", minimum=2)
        check_int(self.n_splits, "n_splits", minimum=2)
        check_int(self.n_fits, "n_fits", minimum=0)
        if self.lower > self.upper:
            raise ValueError(f"lower must be <= upper, got [{self.lower}, {self.upper}]")

    @property
    def target(self) -> str:
        """What the test and the interval speak of."""
        return "difference of the K-fold test errors, A - B"

    def rejects(self, alpha: float | None = None) -> bool:
        """Whether the test rejects ``Delta_K = 0`` at ``alpha`` (default: its own)."""
        return bool(self.p_value < (self.alpha if alpha is None else check_alpha(alpha)))

    def covers(self, value: float) -> bool:
        """Whether ``lower <= value <= upper``."""
        check_float(value, "value", allow_inf=True)
        return bool(self.lower <= value <= self.upper)


#: What a paired K-fold comparison accepts.
_OPTIONS = {
    "variance": Options(*VARIANCES),
    "alternative": Options(*ALTERNATIVES),
    "alpha": "alpha",
}


@validate_params(_OPTIONS)
def cv_compare_from_losses(
    losses_a: Sequence[Any],
    losses_b: Sequence[Any],
    *,
    variance: str = "all_pairs",
    alternative: str = "two-sided",
    alpha: float = 0.05,
) -> CVComparison:
    """Bayle et al.'s test from two learners' out-of-fold losses on the same K folds.

    With ``d_i = loss_A(i) - loss_B(i)`` on every point (each scored by the model fitted
    without its fold), ``difference = mean(d)``, ``sigma`` is
    :func:`cvbook.intervals.cv_wald_sigma` of the folds' differences, and
    ``z = difference / (sigma / sqrt(n))`` is referred to the standard normal.

    Parameters
    ----------
    losses_a, losses_b : sequence of array_like
        The K folds' out-of-fold losses of A and of B, fold ``k`` of both on the same
        points in the same order (K >= 2; same sizes; finite).
    variance : {"all_pairs", "within_fold"}, default="all_pairs"
        Bayle et al.'s ``sigma_out`` or ``sigma_in`` (see :func:`cv_wald_sigma`).
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"less"``: A's K-fold test error is below B's (A better).
    alpha : float, default=0.05
        Level of the interval; :meth:`CVComparison.rejects` uses it.

    Returns
    -------
    CVComparison
        With ``n_fits = 0``.

    Examples
    --------
    >>> a = [np.array([0.0, 0, 1, 0]), np.array([0.0, 0, 0, 1])]
    >>> b = [np.array([1.0, 0, 1, 1]), np.array([1.0, 1, 0, 1])]
    >>> r = cv_compare_from_losses(a, b, alternative="less")
    >>> r.difference, round(r.se, 4), round(r.p_value, 4)   # d: four -1, four 0
    (-0.5, 0.1768, 0.0023)
    """
    alpha = float(alpha)
    folds = []
    for name, losses in (("losses_a", losses_a), ("losses_b", losses_b)):
        if isinstance(losses, np.ndarray) or not isinstance(losses, Sequence) or len(losses) < 2:
            raise ValueError(f"{name} must be a sequence of at least 2 folds' loss arrays")
        folds.append(
            [
                check_finite_values(v, f"{name}[{k}]", ndim=1, min_size=1)
                for k, v in enumerate(losses)
            ]
        )
    fa, fb = folds
    if len(fa) != len(fb):
        raise ValueError(
            f"losses_a and losses_b must hold the same folds, got {len(fa)} and {len(fb)} folds"
        )
    for k, (a, b) in enumerate(zip(fa, fb, strict=True)):
        if a.size != b.size:
            raise ValueError(
                f"losses_a[{k}] and losses_b[{k}] must score the same points, got "
                f"{a.size} and {b.size} losses"
            )
    diffs = [a - b for a, b in zip(fa, fb, strict=True)]
    n = sum(d.size for d in diffs)
    if n < 2:
        raise ValueError(f"the folds must hold at least 2 points in all, got {n}")
    est = float(np.concatenate(diffs).mean())
    se = cv_wald_sigma(diffs, variance) / math.sqrt(n)
    if se == 0:
        z = 0.0 if est == 0 else math.copysign(math.inf, est)
    else:
        z = est / se
    if alternative == "two-sided":
        p = float(2 * stats.norm.sf(abs(z)))
        half = float(stats.norm.isf(alpha / 2)) * se
        lo, hi = est - half, est + half
    elif alternative == "less":
        p = float(stats.norm.cdf(z))
        lo, hi = -math.inf, est + float(stats.norm.isf(alpha)) * se
    else:
        p = float(stats.norm.sf(z))
        lo, hi = est - float(stats.norm.isf(alpha)) * se, math.inf
    return CVComparison(
        est, se, z, min(p, 1.0), lo, hi, variance, alternative, alpha, n, len(diffs), 0
    )


@validate_params(
    {
        "estimator_a": "estimator",
        "estimator_b": "estimator",
        "loss": LOSS,
        **_OPTIONS,
        "random_state": "random_state",
        "n_jobs": "n_jobs",
    }
)
def cv_compare(
    estimator_a,
    estimator_b,
    X,
    y,
    *,
    loss: str = "zero_one",
    n_splits: int = 10,
    variance: str = "all_pairs",
    alternative: str = "two-sided",
    alpha: float = 0.05,
    random_state=None,
    n_jobs: int | None = None,
) -> CVComparison:
    """Is A better than B? Bayle et al.'s test on the same K folds of ``X, y``.

    The folds are :func:`cvbook.intervals.kfold_splits` of ``random_state`` (stratified
    for the 0-1 loss), so the same seed gives chapter 7's
    :func:`~cvbook.intervals.cv_wald_interval` the same folds; each learner is fitted
    K times (:func:`cvbook.intervals.split_losses`) and the test is
    :func:`cv_compare_from_losses`.

    Parameters
    ----------
    estimator_a, estimator_b : estimators with ``fit`` and ``predict``
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
    loss : {"zero_one", "squared"}, default="zero_one"
    n_splits : int, default=10
        K, in ``[2, n]`` (``[2, n / 2]`` for ``variance="within_fold"``).
    variance : {"all_pairs", "within_fold"}, default="all_pairs"
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
    alpha : float, default=0.05
    random_state : None, int, Generator, RandomState or SeedSequence
    n_jobs : int or None
        joblib workers; the folds are drawn first, so the result does not depend on it.

    Returns
    -------
    CVComparison
        Its target is the difference of the two learners' K-fold test errors on these
        data; ``2 K`` fits.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from sklearn.dummy import DummyClassifier
    >>> from cvbook.datasets import Twonorm
    >>> X, y = Twonorm().sample(200, random_state=0)
    >>> r = cv_compare(LinearDiscriminantAnalysis(), DummyClassifier(), X, y,
    ...                alternative="less", random_state=0)
    >>> r.difference < 0, r.rejects(), r.n_fits
    (True, True, 20)
    """
    alpha = float(alpha)
    X, y, n = check_data(X, y)
    y = check_target(y, loss)
    n_splits = check_wald_folds(n_splits, n, variance)
    splits = kfold_splits(y, n_splits, loss, as_random_state(random_state))
    la = split_losses(estimator_a, X, y, splits, loss, n_jobs)
    lb = split_losses(estimator_b, X, y, splits, loss, n_jobs)
    r = cv_compare_from_losses(la, lb, variance=variance, alternative=alternative, alpha=alpha)
    return CVComparison(
        r.difference,
        r.se,
        r.statistic,
        r.p_value,
        r.lower,
        r.upper,
        variance,
        alternative,
        alpha,
        n,
        n_splits,
        2 * n_splits,
    )
