"""The statistics every study reports, each defined once.

* :func:`paired_difference` -> :class:`Paired`: the mean of ``a - b`` over paired,
  independent repetitions, its standard error and ``z = mean / se``. Every comparing
  sentence of the book rests on it.
* :func:`mean_se`: mean ± SE of independent values (the paired difference against 0).
* :func:`proportion_difference` -> :class:`Difference`: the difference of two independent
  proportions ``k_a / n_a - k_b / n_b`` with its (unpooled) standard error.
* :func:`correlation_interval`: a Pearson correlation with its Fisher-z interval.
* :func:`paired_variance_test`: Pitman and Morgan's test of equal variances of paired samples.
* A proportion with its Clopper–Pearson interval is :func:`cvbook.bounds.clopper_pearson_interval`.

Every statistic holds over the whole range of finite input (values of 1e-300 or 1e300):
the input is divided by a power of two near its largest magnitude before any
difference, mean or square (:func:`power_of_two_scale`). That division is exact, so on
data of ordinary size every result is bit for bit what the plain formula gives.

One rule for a zero standard error (every difference the same): ``z`` is ``0`` when the
mean is 0 (no difference is no evidence) and ``±inf`` otherwise (a difference that never
varies is certain).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats as _scipy_stats

from .validation import (
    Interval,
    check_finite,
    check_finite_values,
    check_float,
    check_int,
    validate_params,
)

__all__ = [
    "Difference",
    "Paired",
    "correlation_interval",
    "mean_se",
    "mean_se_by_column",
    "newcombe_interval",
    "paired_difference",
    "paired_variance_test",
    "power_of_two_scale",
    "proportion_difference",
]


def power_of_two_scale(*arrays: np.ndarray) -> float:
    """The power of two ``s`` with ``max |x| / s`` in ``[1, 2)`` over ``arrays`` (1 if all 0).

    Dividing finite data by ``s`` is exact (no rounding, barring values below 1e-308 of
    the largest), so a statistic computed on ``x / s`` and scaled back is the one computed
    on ``x`` wherever that does not overflow or underflow, and finite where it would.

    Examples
    --------
    >>> power_of_two_scale(np.array([3.0, -5.0])), power_of_two_scale(np.zeros(2))
    (4.0, 1.0)
    >>> power_of_two_scale(np.array([1e300]), np.array([1.0])) > 1e299
    True
    """
    largest = max((float(np.max(np.abs(a))) for a in arrays if np.size(a)), default=0.0)
    if largest == 0 or not np.isfinite(largest):
        return 1.0
    return float(np.ldexp(1.0, int(np.frexp(largest)[1]) - 1))


@dataclass(frozen=True)
class Difference:
    """A difference with its standard error and z = mean / se (two independent estimates).

    What :class:`cvbook.claims.Claims` reads (its ``mean`` and ``se``); unpacks as
    ``mean, se, z``. :class:`Paired` is the difference over paired repetitions.
    """

    mean: float
    se: float

    def __post_init__(self) -> None:
        check_float(self.mean, "mean", allow_inf=True)
        check_float(self.se, "se", minimum=0.0, allow_inf=True)

    @property
    def z(self) -> float:
        """``mean / se`` (with ``se = 0``: infinite if the mean is nonzero, 0 if it is 0)."""
        if self.se == 0:
            return 0.0 if self.mean == 0 else float(np.sign(self.mean) * np.inf)
        return self.mean / self.se

    def __iter__(self) -> Iterator[float]:
        """``mean, se, z = difference``: the three numbers a sentence quotes."""
        return iter((self.mean, self.se, self.z))

    def __getitem__(self, i: int) -> float:
        """``difference[0]``, ``[1]``, ``[2]``: mean, se and z."""
        return (self.mean, self.se, self.z)[i]


@dataclass(frozen=True)
class Paired(Difference):
    """A paired difference over ``n`` repetitions: its mean, standard error and z = mean / se.

    The book's comparing sentences rest on it ("A is closer to the truth than B"):
    the chapters assert on ``z``.
    """

    n: int

    def __post_init__(self) -> None:
        super().__post_init__()
        check_int(self.n, "n", minimum=1)


def _as_numbers(values: Any) -> Any:
    """Boolean indicators as 0.0 and 1.0; anything else unchanged (checked by the caller)."""
    arr = np.asarray(values) if not isinstance(values, np.ndarray) else values
    return arr.astype(float) if arr.dtype == bool else values


def paired_difference(a: Any, b: Any = 0.0) -> Paired:
    """Mean of ``a - b`` over paired repetitions, with its standard error.

    ``a[r]`` and ``b[r]`` are measured on the same repetition ``r`` (the same data set),
    which are independent; the standard error of the mean difference is
    ``std(a - b, ddof=1) / sqrt(R)``, and pairing removes the spread the two share.

    Parameters
    ----------
    a : array_like of float, shape (R,)
        Finite, ``R >= 2``. Booleans (an indicator per repetition) count as 0 and 1.
    b : float or array_like of float, shape (R,), default=0
        What ``a`` is compared with, repetition by repetition.

    Returns
    -------
    Paired

    Examples
    --------
    >>> p = paired_difference([0.3, 0.5, 0.4], [0.1, 0.2, 0.3])
    >>> round(p.mean, 3), round(p.se, 3), p.n
    (0.2, 0.058, 3)
    """
    a = check_finite(_as_numbers(a), "a")
    if a.ndim != 1:
        raise ValueError(f"a must be one-dimensional, got shape {a.shape}")
    if np.ndim(b):
        b = check_finite(_as_numbers(b), "b")
        if b.shape != a.shape:
            raise ValueError(
                f"a and b must be paired (the same length), got shapes {a.shape} and {b.shape}"
            )
    else:
        b = check_finite(b, "b")
    if a.size < 2:
        raise ValueError(f"a must hold at least 2 repetitions, got {a.size}")
    scale = power_of_two_scale(a, b)
    d = a / scale - np.asarray(b) / scale  # exact scaling: a - b cannot overflow
    mean, sd = float(d.mean()) * scale, float(d.std(ddof=1)) * scale
    if np.all(d == d[0]):
        # equal differences have no spread; the rounding of mean and std would give one
        # of about 1e-17, and a z of 1e16 that the claims' SE-0 rule could not see
        sd = 0.0
    if not (np.isfinite(mean) and np.isfinite(sd)):
        raise ValueError(
            f"a - b has a mean or spread beyond the largest float (about 1.8e308): "
            f"a and b hold values up to {2 * scale:.3g} in magnitude"
        )
    return Paired(mean=mean, se=float(sd / np.sqrt(d.size)), n=int(d.size))


def mean_se(values: Any, name: str = "values") -> Paired:
    """Mean of independent repetitions, its standard error and ``z = mean / se``.

    The summary behind every comparing sentence of the book: pass the paired
    differences ``a - b`` over repetitions and read how many standard errors
    their mean lies from zero. It is :func:`paired_difference` of ``values`` against 0, and
    unpacks as ``mean, se, z``.

    Parameters
    ----------
    values : array_like of shape (n,)
        At least 2 finite numbers.
    name : str
        Named in the error message.

    Returns
    -------
    Paired
        Unpacks as ``mean, se, z``.

    Examples
    --------
    >>> [round(v, 4) for v in mean_se([0.1, 0.3, 0.2, 0.4])]
    [0.25, 0.0645, 3.873]
    """
    arr = check_finite(values, name)
    if arr.ndim != 1 or arr.size < 2:
        raise ValueError(f"{name} must be a 1-d array of at least 2 numbers, got shape {arr.shape}")
    return paired_difference(arr)


def mean_se_by_column(values: Any, name: str = "values") -> tuple[np.ndarray, np.ndarray]:
    """Column by column, the mean over repetitions (rows) and its standard error.

    The curve form of :func:`mean_se`: ``values[r, j]`` is repetition ``r`` at point ``j`` of
    a curve (a training size, a K), and the result is the mean curve with its error bars,
    ``std(ddof=1) / sqrt(R)`` in every column.

    Parameters
    ----------
    values : array_like of shape (R, n_points)
        Finite, ``R >= 2`` rows.
    name : str
        Named in the error message.

    Returns
    -------
    (mean, se) : tuple of numpy.ndarray, each of shape (n_points,)

    Examples
    --------
    >>> mean, se = mean_se_by_column([[0.1, 0.4], [0.3, 0.2]])
    >>> mean.round(3).tolist(), se.round(3).tolist()
    ([0.2, 0.3], [0.1, 0.1])
    """
    arr = check_finite(values, name)
    if arr.ndim != 2 or arr.shape[0] < 2:
        raise ValueError(
            f"{name} must be a 2-d array of at least 2 rows (repetitions), got shape {arr.shape}"
        )
    se = arr.std(axis=0, ddof=1) / np.sqrt(arr.shape[0])
    equal = np.all(arr == arr[:1], axis=0)  # no spread, not a rounding residue of one
    return arr.mean(axis=0), np.where(equal, 0.0, se)


#: Counts of successes and of trials: (numpy) integers in numpy's int64 range.
_SUCCESSES, _TRIALS = Interval("int", 0, 2**63 - 1), Interval("int", 1, 2**63 - 1)


def _two_samples(k_a: int, n_a: int, k_b: int, n_b: int) -> tuple[int, int, int, int]:
    """Declared counts as Python ints, each ``k <= n`` (the one bound between two of them)."""
    k_a, n_a, k_b, n_b = int(k_a), int(n_a), int(k_b), int(n_b)
    for k, n, name in ((k_a, n_a, "a"), (k_b, n_b, "b")):
        if k > n:
            raise ValueError(f"k_{name} must be <= n_{name}={n}, got {k}")
    return k_a, n_a, k_b, n_b


@validate_params({"k_a": _SUCCESSES, "n_a": _TRIALS, "k_b": _SUCCESSES, "n_b": _TRIALS})
def proportion_difference(k_a: int, n_a: int, k_b: int, n_b: int) -> Difference:
    """Difference of two independent proportions ``k_a / n_a - k_b / n_b``, with its SE.

    ``k_a`` successes in ``n_a`` trials and ``k_b`` in ``n_b``, the two samples
    independent (two separate sets of data sets, not the same ones scored twice: those
    are paired, :func:`paired_difference`). The standard error is the unpooled (Wald)
    one, ``sqrt(p_a (1 - p_a) / n_a + p_b (1 - p_b) / n_b)`` with ``p = k / n``, which
    needs no hypothesis of equal proportions (statsmodels' ``test_proportions_2indep``
    with ``method="wald"``).

    Parameters
    ----------
    k_a, k_b : int
        Successes, ``0 <= k <= n``.
    n_a, n_b : int
        Trials, ``>= 1``.

    Returns
    -------
    Difference
        ``mean = p_a - p_b``, ``se``, ``z = mean / se``; unpacks as ``mean, se, z``. The
        SE is 0 when both proportions are 0 or 1: the normal approximation then says
        nothing, and :class:`cvbook.claims.Claims` leaves a claim on it *not resolved*.

    Notes
    -----
    The Wald SE is trusted when every sample holds several successes and several failures
    (a rule of thumb: ``k >= 5`` and ``n - k >= 5`` in both); the interval ``mean ± z·se``
    is anti-conservative at small counts and at proportions near 0 or 1 (Agresti and
    Caffo, "Simple and effective confidence intervals for proportions and differences of
    proportions result from adding two successes and two failures", The American
    Statistician, 2000; Newcombe, "Interval estimation for the difference between
    independent proportions: comparison of eleven methods", Statistics in Medicine, 1998).
    Counts ``(5, 6, 0, 6)`` give ``z = 5.48`` while Fisher's exact one-sided p is
    ``7.6e-3`` (``z`` of about 2.4). At small counts, pass :func:`newcombe_interval` (at
    the claim's level) to a claim as its ``interval=`` instead of this ``Difference``.

    Examples
    --------
    >>> d = proportion_difference(30, 100, 18, 120)
    >>> round(d.mean, 3), round(d.se, 4), round(d.z, 2)
    (0.15, 0.0562, 2.67)
    >>> proportion_difference(5, 4, 0, 10)
    Traceback (most recent call last):
    ...
    ValueError: k_a must be <= n_a=4, got 5
    """
    k_a, n_a, k_b, n_b = _two_samples(k_a, n_a, k_b, n_b)
    p_a, p_b = k_a / n_a, k_b / n_b
    se = math.sqrt(p_a * (1 - p_a) / n_a + p_b * (1 - p_b) / n_b)
    return Difference(mean=p_a - p_b, se=se)


def _wilson(k: int, n: int, z: float) -> tuple[float, float]:
    """Wilson's score interval for ``k`` successes in ``n`` trials at ``z``."""
    p, z2 = k / n, z * z
    centre = (k + z2 / 2) / (n + z2)
    half = z / (n + z2) * math.sqrt(k * (1 - p) + z2 / 4)
    return max(0.0, centre - half), min(1.0, centre + half)


@validate_params(
    {
        "k_a": _SUCCESSES,
        "n_a": _TRIALS,
        "k_b": _SUCCESSES,
        "n_b": _TRIALS,
        "alpha": Interval("real", 0, 1, closed="neither"),
    }
)
def newcombe_interval(
    k_a: int, n_a: int, k_b: int, n_b: int, alpha: float = 0.05
) -> tuple[float, float]:
    """Newcombe's hybrid score interval for ``k_a / n_a - k_b / n_b`` (independent samples).

    Each proportion gets Wilson's score interval ``(l, u)`` at ``z = Φ⁻¹(1 - alpha / 2)``,
    and the difference ``d = p_a - p_b`` the interval ``d - sqrt((p_a - l_a)² + (u_b -
    p_b)²)``, ``d + sqrt((u_a - p_a)² + (p_b - l_b)²)`` (Newcombe, "Interval estimation for
    the difference between independent proportions: comparison of eleven methods",
    Statistics in Medicine, 1998; statsmodels' ``confint_proportions_2indep`` with
    ``method="newcomb"``). Unlike the Wald interval of :func:`proportion_difference` it
    keeps near its level at small counts and at proportions of 0 or 1, where the Wald SE
    is 0.

    Parameters
    ----------
    k_a, n_a, k_b, n_b : int
        Successes and trials of the two samples, as in :func:`proportion_difference`.
    alpha : float, default=0.05
        One minus the two-sided level, in (0, 1); ``2 Φ(-4)`` is as wide as ±4 SE.

    Returns
    -------
    (low, high) : tuple of float
        Within ``[-1, 1]``; pass it with ``estimate=k_a / n_a - k_b / n_b`` to a claim.

    Examples
    --------
    >>> from scipy.stats import norm
    >>> lo, hi = newcombe_interval(5, 6, 0, 6, alpha=2 * norm.sf(4))  # as wide as ±4 SE
    >>> round(lo, 3), round(hi, 3)  # Wald's 0.833 ± 4 x 0.152 = [0.225, 1.442] excludes 0
    (-0.137, 0.991)
    >>> newcombe_interval(1, 1, 0, 1, alpha=0.05)[0] < 0  # Wald: SE 0, "shows" anything
    True
    """
    k_a, n_a, k_b, n_b = _two_samples(k_a, n_a, k_b, n_b)
    z = float(_scipy_stats.norm.isf(float(alpha) / 2))
    p_a, p_b = k_a / n_a, k_b / n_b
    (l_a, u_a), (l_b, u_b) = _wilson(k_a, n_a, z), _wilson(k_b, n_b, z)
    d = p_a - p_b
    low = d - math.sqrt((p_a - l_a) ** 2 + (u_b - p_b) ** 2)
    high = d + math.sqrt((u_a - p_a) ** 2 + (p_b - l_b) ** 2)
    return max(-1.0, low), min(1.0, high)


@validate_params({"level": Interval("real", 0, 1, closed="neither")})
def correlation_interval(a: Any, b: Any, level: float = 0.95) -> tuple[float, float, float]:
    """Pearson correlation of ``a`` and ``b`` with its Fisher-z confidence interval.

    ``atanh(r)`` is approximately normal with standard deviation ``1/sqrt(n - 3)``; the
    correlation and the interval are :func:`scipy.stats.pearsonr`'s (which scales its input:
    values of any finite size give the same ``r``).

    Returns
    -------
    (r, low, high) : tuple of float

    Examples
    --------
    >>> x = np.arange(10.0)
    >>> r, lo, hi = correlation_interval(x, x + np.sin(x))
    >>> lo < r < hi <= 1
    True
    """
    a, b = check_finite_values(a, "a", ndim=1), check_finite_values(b, "b", ndim=1)
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same length, got {a.size} and {b.size}")
    if a.size < 4:
        raise ValueError(f"a and b must hold at least 4 pairs, got {a.size}")
    if not (np.max(a) > np.min(a) and np.max(b) > np.min(b)):
        raise ValueError("a and b must both vary (a correlation needs a spread)")
    level = float(level)
    result = _scipy_stats.pearsonr(a / power_of_two_scale(a), b / power_of_two_scale(b))
    r = float(np.clip(result.statistic, -1.0, 1.0))
    ci = result.confidence_interval(confidence_level=level)
    return r, float(min(ci.low, r)), float(max(ci.high, r))


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
    x = check_finite_values(x, "x", ndim=1, min_size=3)
    y = check_finite_values(y, "y", ndim=1, min_size=3)
    if x.shape != y.shape:
        raise ValueError(
            f"x and y must be paired 1-d arrays of at least 3 entries, got {x.shape} and {y.shape}"
        )
    for name, arr in (("x", x), ("y", y)):
        if np.all(arr == arr[0]):
            raise ValueError(f"{name} must not be constant: its variance is 0, the ratio undefined")
    scale = power_of_two_scale(x, y)  # one scale for both: s and d need x and y as they are
    xs, ys = x / scale, y / scale
    r = float(np.clip(np.corrcoef(xs + ys, xs - ys)[0, 1], -1.0, 1.0))
    t = r * np.sqrt((x.size - 2) / max(1 - r * r, 1e-300))
    # each variance on its own scale, so that neither underflows beside the other
    sx, sy = power_of_two_scale(x), power_of_two_scale(y)
    ratio = (np.var(x / sx, ddof=1) / np.var(y / sy, ddof=1)) * (sx / sy) ** 2
    return float(ratio), float(t)
