"""Exact binomial (Clopper--Pearson) bounds for a 0-1 error rate (chapters 1, 5, 6 and 7).

When a classifier is scored on ``n`` points it never saw, the number of
mistakes is a Binomial(n, L) draw, where L is its true risk. Clopper and
Pearson (1934) invert the binomial tail to get bounds on L that hold with
probability at least 1 - delta *whatever L is*. Anguita et al. (2012), equation
(3), use the one-sided version (their equation prints ``p^s`` where ``p^j``
belongs):

.. math::

    L_{EE} = \\max_p \\Big\\{p : \\sum_{j=0}^{k} \\binom{n}{j} p^j (1-p)^{n-j}
    \\ge \\delta \\Big\\}, \\qquad k = n \\hat L_n .

That maximum is a beta quantile, the upper ``delta`` point of Beta(k + 1, n - k).
:func:`clopper_pearson_upper` computes it with the survival-function form
``scipy.stats.beta.isf(delta, k + 1, n - k)``, not ``beta.ppf(1 - delta, ...)``:
``1 - delta`` rounds away the digits of a small ``delta`` (it is exactly 1.0
below ``delta`` = 1.1e-16), while ``isf`` is exact down to ``delta`` = 1e-300,
as the tests check against the closed form ``1 - delta**(1/n)`` at ``k = 0``.
:func:`clopper_pearson_upper_by_inversion` solves the displayed sum directly,
as the chapter writes it, and the tests show the two agree.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import optimize, special, stats

from .validation import (
    ArgumentTypeError,
    Interval,
    check_1d_labels,
    check_broadcast,
    check_float,
    check_int,
    check_integer_array,
    check_label_pair,
    check_same_length,
    validate_params,
)

__all__ = [
    "clopper_pearson_coverage",
    "clopper_pearson_interval",
    "clopper_pearson_upper",
    "clopper_pearson_upper_by_inversion",
    "error_rate_bound",
]


def _counts_and_level(n_errors, n, level, name: str) -> tuple[np.ndarray, ...]:
    """The counts (:func:`_counts`) and a level (``delta`` or ``alpha``), broadcast together."""
    level = np.asarray(level, dtype=float)
    k, n = _counts(n_errors, n)
    check_broadcast(("n_errors", k), ("n", n), (name, level))
    return tuple(np.broadcast_arrays(k, n, level))


def _counts(n_errors, n) -> tuple[np.ndarray, np.ndarray]:
    k = check_integer_array(n_errors, "n_errors")
    n = check_integer_array(n, "n")
    if np.any(n < 1):
        raise ValueError(f"n must be >= 1 (the number of test points), got {n.min()}")
    if np.any(k < 0):
        raise ValueError(f"n_errors must be >= 0, got {k.min()}")
    check_broadcast(("n_errors", k), ("n", n))
    k, n = np.broadcast_arrays(k, n)
    if np.any(k > n):
        raise ValueError("n_errors must be <= n: more errors than test points")
    return k, n


@validate_params({"delta": "open-unit"})
def clopper_pearson_upper(n_errors, n, delta: float = 0.05):
    """One-sided Clopper--Pearson upper bound on a 0-1 risk.

    With probability at least ``1 - delta`` over the test sample, the true
    risk is at most the returned value.

    Parameters
    ----------
    n_errors : int or array_like of int
        Number of misclassified test points, ``0 <= n_errors <= n``.
    n : int or array_like of int
        Number of test points, ``n >= 1``. Broadcast against ``n_errors``.
    delta : float or array_like, default=0.05
        Probability that the bound fails, strictly inside (0, 1).

    Returns
    -------
    float or numpy.ndarray
        The upper bound, a float for scalar input, an array otherwise.

    Examples
    --------
    >>> round(float(clopper_pearson_upper(0, 100, delta=0.05)), 4)
    0.0295
    >>> clopper_pearson_upper([0, 5, 10], 100).round(3)
    array([0.03 , 0.102, 0.164])
    """
    k, n, delta = _counts_and_level(n_errors, n, delta, "delta")
    with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # boost's NaN, repaired below
        upper = stats.beta.isf(delta, k + 1, np.maximum(n - k, 1))
    upper = np.where(k >= n, 1.0, upper)
    upper = _repair(upper, k, n, delta)
    return float(upper) if upper.ndim == 0 else upper


#: Below this level scipy's beta quantiles (boost) lose digits -- 1e-2 relative at
#: 1e-300 -- or return NaN; the log-space root of equation (3) takes over there.
_QUANTILE_FLOOR = 1e-250


def _repair(
    end: np.ndarray, k: np.ndarray, n: np.ndarray, level: np.ndarray, lower: bool = False
) -> np.ndarray:
    """Recompute, by the log-space root of equation (3), the ends scipy got wrong.

    scipy's beta quantiles return NaN when the bound is within about 1e-70 of
    1 (``beta.isf(1e-300, 2, 4)``), and lose digits below ``delta`` = 1e-250.
    The lower end of a count ``k`` is the mirror image of the upper end of
    ``n - k``: with the logit ``u`` of that upper end, it is ``expit(-u)``, to
    full relative precision however small.
    """
    end = np.array(end, dtype=float)
    k, n, level = np.broadcast_arrays(k, n, level)
    todo = (np.isnan(end) | (level < _QUANTILE_FLOOR)) & ((k > 0) if lower else (k < n))
    for idx in np.ndindex(end.shape):
        if todo[idx]:
            kk, nn = int(k[idx]), int(n[idx])
            if lower:
                end[idx] = special.expit(-_upper_logit(nn - kk, nn, float(level[idx])))
            else:
                end[idx] = special.expit(_upper_logit(kk, nn, float(level[idx])))
    return end


@validate_params({"alpha": "open-unit"})
def clopper_pearson_interval(n_errors, n, alpha: float = 0.05):
    """Two-sided Clopper--Pearson interval for a 0-1 risk.

    With probability at least ``1 - alpha`` the interval covers the true risk.
    Each end fails with probability at most ``alpha / 2``.

    Parameters
    ----------
    n_errors : int or array_like of int
        Number of misclassified test points, ``0 <= n_errors <= n``.
    n : int or array_like of int
        Number of test points, ``n >= 1``.
    alpha : float, default=0.05
        One minus the confidence level, strictly inside (0, 1).

    Returns
    -------
    (lower, upper) : tuple of float or numpy.ndarray

    Examples
    --------
    >>> lo, hi = clopper_pearson_interval(10, 100)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.049, 0.1762)
    """
    k, n, alpha = _counts_and_level(n_errors, n, alpha, "alpha")
    with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # boost's NaN, repaired below
        lower = stats.beta.ppf(alpha / 2, np.maximum(k, 1), n - k + 1)
        upper = stats.beta.isf(alpha / 2, k + 1, np.maximum(n - k, 1))
    lower = np.where(k == 0, 0.0, lower)
    upper = np.where(k >= n, 1.0, upper)
    upper = _repair(upper, k, n, alpha / 2)
    lower = _repair(lower, k, n, alpha / 2, lower=True)
    if lower.ndim == 0:
        return float(lower), float(upper)
    return lower, upper


@validate_params({"n": Interval("int", 1), "delta": Interval("real", 0, 1, closed="neither")})
def clopper_pearson_upper_by_inversion(n_errors: int, n: int, delta: float = 0.05) -> float:
    """Equation (3) of Anguita et al. (2012), solved as written.

    Finds the largest ``p`` with ``P(Binomial(n, p) <= n_errors) >= delta`` by
    root-finding on the binomial sum. It is slower than
    :func:`clopper_pearson_upper` and exists to show that the beta quantile is
    the same number.

    Parameters
    ----------
    n_errors : int
        Number of errors on the ``n`` test points.
    n : int
        Number of test points.
    delta : float, default=0.05
        Probability that the bound fails, in (0, 1).

    Returns
    -------
    float

    Examples
    --------
    >>> round(clopper_pearson_upper_by_inversion(5, 100), 6) == round(
    ...     float(clopper_pearson_upper(5, 100)), 6)
    True
    """
    n = int(n)
    k = check_int(n_errors, "n_errors", minimum=0, maximum=n)
    delta = float(delta)
    if k == n:
        return 1.0
    return float(special.expit(_upper_logit(k, n, delta)))


def _upper_logit(k: int, n: int, delta: float) -> float:
    """The logit ``u`` of the Clopper--Pearson upper end, ``p = expit(u)``, for ``k < n``."""
    # sum_{j=0}^{k} C(n, j) p^j (1-p)^(n-j) = delta   (p^j, not p^s). For delta > 1/2
    # the sum is close to 1 and carries few digits of delta, so solve its complement
    # sum_{j=k+1}^{n} ... = 1 - delta instead.
    j = np.arange(k + 1) if delta <= 0.5 else np.arange(k + 1, n + 1)
    target = np.log(delta) if delta <= 0.5 else np.log1p(-delta)
    log_comb = special.gammaln(n + 1) - special.gammaln(j + 1) - special.gammaln(n - j + 1)

    def log_tail_minus_log_delta(u: float) -> float:
        # p = expit(u), so that both p and 1 - p keep every digit, even at p = 1 - 1e-20.
        log_p, log_q = -np.logaddexp(0.0, -u), -np.logaddexp(0.0, u)
        return float(special.logsumexp(log_comb + j * log_p + (n - j) * log_q)) - target

    # The tail falls from 1 at p -> 0 to 0 at p -> 1, so the root is unique; working
    # with logarithms and the logit u of p, [-1e4, 1e4] brackets it for every delta
    # down to the smallest float.
    return float(optimize.brentq(log_tail_minus_log_delta, -1e4, 1e4, xtol=1e-13, rtol=1e-15))


@validate_params(
    {
        "n": Interval("int", 1),
        "delta": Interval("real", 0, 1, closed="neither"),
        "two_sided": "boolean",
    }
)
def clopper_pearson_coverage(
    risk: float, n: int, delta: float = 0.05, two_sided: bool = False
) -> float:
    """Exact probability that the Clopper--Pearson bound covers ``risk``.

    The number of test errors of a classifier with true risk ``risk`` is
    Binomial(n, risk), so the coverage is a finite sum of binomial
    probabilities over the error counts whose bound (or interval) contains
    ``risk``. It is at least ``1 - delta`` for every ``risk`` -- the guarantee
    -- and oscillates above it because the counts are discrete.

    Parameters
    ----------
    risk : float
        True risk, in [0, 1].
    n : int
        Number of test points, >= 1.
    delta : float, default=0.05
        Failure probability of the bound (``alpha`` of the interval if
        ``two_sided``), in (0, 1).
    two_sided : bool, default=False
        Coverage of :func:`clopper_pearson_interval` instead of the upper bound.

    Returns
    -------
    float

    Examples
    --------
    >>> clopper_pearson_coverage(0.1, 100, delta=0.05) >= 0.95
    True
    """
    n, delta = int(n), float(delta)
    risk = check_float(risk, "risk")
    if not 0.0 <= risk <= 1.0:
        raise ValueError(f"risk must lie in [0, 1], got {risk!r}")
    k = np.arange(n + 1)
    pmf = stats.binom.pmf(k, n, risk)
    if two_sided:
        lower, upper = clopper_pearson_interval(k, n, alpha=delta)
        covered = (lower <= risk) & (risk <= upper)
    else:
        covered = clopper_pearson_upper(k, n, delta=delta) >= risk
    return float(pmf[covered].sum())


@validate_params({"delta": Interval("real", 0, 1, closed="neither")})
def error_rate_bound(y_true, y_pred, delta: float = 0.05) -> tuple[float, float]:
    """Test error of a classifier and its one-sided Clopper--Pearson bound.

    The bound treats each test point as a Bernoulli trial, mistake or not, so
    it holds for the 0-1 loss with any number of classes: the labels only have
    to be comparable for equality.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n,)
        True and predicted labels on ``n >= 1`` test points never used in
        training. A column vector ``(n, 1)`` is flattened with a
        ``DataConversionWarning``, as in scikit-learn; other 2-d shapes,
        complex values, NaN, a mix of string and numeric labels, a continuous
        ``y_true`` and predicted probabilities or scores are refused.
    delta : float, default=0.05
        Probability that the bound fails, in (0, 1).

    Returns
    -------
    (test_error, upper_bound) : tuple of float

    Examples
    --------
    >>> err, up = error_rate_bound([1, -1, 1, 1], [1, 1, 1, 1], delta=0.05)
    >>> err, round(up, 3)
    (0.25, 0.751)
    >>> error_rate_bound([0, 1, 2, 2], [0, 1, 2, 0])[0]   # three classes
    0.25
    """
    delta = float(delta)
    y_true = check_1d_labels(y_true, "y_true", allow_empty=True)
    y_pred = check_1d_labels(y_pred, "y_pred", allow_empty=True)
    n = check_same_length(("y_true", y_true), ("y_pred", y_pred))
    if n == 0:
        raise ValueError("y_true must hold at least one test point, got an empty array")
    if _is_text(y_true) != _is_text(y_pred):
        raise ArgumentTypeError(
            f"y_true and y_pred must both hold text labels or both numeric labels, got "
            f"dtypes {y_true.dtype} and {y_pred.dtype}: a string never equals a number"
        )
    y_true, y_pred = check_label_pair(y_true, y_pred)
    errors = int(np.count_nonzero(y_true != y_pred))
    return errors / n, clopper_pearson_upper(errors, n, delta)


def _is_text(labels: np.ndarray) -> bool:
    return labels.dtype.kind in "USO" and any(isinstance(v, (str, bytes)) for v in labels)
