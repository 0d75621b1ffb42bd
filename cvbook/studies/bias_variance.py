"""Chapter 3's study: bias and variance of the K-fold estimate over many data sets, against
the risk of the model on all m points and of the models on the parts."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.base import clone

from ..datasets.synthetic import monte_carlo_risk
from ..holdout import clone_estimator
from ..kfold import checked_kfold, kfold_risks
from ..learners import OneClassFallback
from ..simulation import repeat
from ..stats import Paired, paired_variance_test
from ..validation import (
    ArgumentTypeError,
    check_bool,
    check_distribution,
    check_finite_values,
    check_float,
    check_int,
    check_n_splits_bound,
    check_random_state,
    validate_params,
)

__all__ = [
    "BiasVariance",
    "binomial_ceiling",
    "correlation_difference",
    "kfold_bias_variance",
    "naive_se_ratio",
    "regression_slope",
    "sd_ratio_interval",
]


@dataclass(frozen=True)
class BiasVariance:
    """K-fold estimates against the truth over many data sets.

    Attributes
    ----------
    ks : ndarray of shape (n_k,)
        The values of ``K``.
    estimates : ndarray of shape (n_repeats, n_k)
        The K-fold estimate on each data set, for each ``K``.
    truths : ndarray of shape (n_repeats,)
        True risk of the model trained on all ``m`` points of each data set.
    fold_stds : ndarray of shape (n_repeats, n_k)
        Standard deviation of the ``K`` fold risks (``ddof=1``) behind each
        estimate: the "± std" a report quotes next to it.
    part_truths : ndarray of shape (n_repeats, n_k) or None
        With ``part_truths=True``: true risk of the model trained on the training part
        of the first fold (``m - m_1`` points, about ``m (1 - 1/K)``), on each data set.
    test_estimates : ndarray of shape (n_repeats,) or None
        With ``test_size``: the error of the model trained on all ``m`` points on a fresh
        test set of ``test_size`` points, on each data set. It estimates ``L(f_S)`` without
        bias, so it is the ideal estimate of ``L(f_S)`` at that size, a benchmark for the
        K-fold estimate.
    one_class_fits : int
        How many fits of the study (over all data sets: the ``K`` folds of every ``K``, the
        model on all ``m`` points, the models on the parts) met a training set of one class
        only, on which the learner is the constant rule that predicts that class
        (:class:`~cvbook.learners.OneClassFallback`). Small ``m`` only; 0 otherwise.
    """

    ks: np.ndarray
    estimates: np.ndarray
    truths: np.ndarray
    fold_stds: np.ndarray
    part_truths: np.ndarray | None = None
    test_estimates: np.ndarray | None = None
    one_class_fits: int = 0

    @property
    def fits(self) -> int:
        """How many fits the study made: per data set the ``K`` folds of every ``K``, the
        model on all ``m`` points and (with part truths) one model per ``K`` on a part;
        the count :attr:`one_class_fits` is out of."""
        parts = len(self.ks) if self.part_truths is not None else 0
        return len(self.truths) * (int(self.ks.sum()) + 1 + parts)

    @property
    def expected_risk(self) -> float:
        """``Err_m``, the expected risk of the learner at training size ``m``, estimated
        by the mean of :attr:`truths` over data sets."""
        return float(self.truths.mean())

    @property
    def expected_part_risk(self) -> np.ndarray:
        """``Err_{m - m_1}`` for each ``K``: the mean of :attr:`part_truths`, the expected
        risk at the size of a K-fold training part, the target of the K-fold estimate."""
        if self.part_truths is None:
            raise ValueError("run kfold_bias_variance(..., part_truths=True) to measure it")
        return self.part_truths.mean(axis=0)

    @property
    def bias(self) -> np.ndarray:
        """``E[estimate - true risk]`` for each ``K`` (positive: pessimistic)."""
        return (self.estimates - self.truths[:, None]).mean(axis=0)

    @property
    def variance(self) -> np.ndarray:
        """``Var[estimate]`` over data sets, for each ``K`` (``ddof=1``)."""
        return self.estimates.var(axis=0, ddof=1)

    @property
    def error_variance(self) -> np.ndarray:
        """``Var[estimate - true risk]``: how well it tracks *this* data set's model."""
        return (self.estimates - self.truths[:, None]).var(axis=0, ddof=1)

    @property
    def mse(self) -> np.ndarray:
        """``E[(estimate - true risk)^2]`` for each ``K``."""
        return ((self.estimates - self.truths[:, None]) ** 2).mean(axis=0)

    @property
    def naive_standard_error(self) -> np.ndarray:
        """Mean over data sets of ``fold std / sqrt(K)``, for each ``K``.

        The standard error the estimate *would* have if its ``K`` fold risks were
        independent; they are not (the training sets overlap), and Bengio and
        Grandvalet (2004) show that no unbiased estimator of the variance exists.
        Compare with ``sqrt(variance)``.
        """
        return (self.fold_stds / np.sqrt(self.ks)[None, :]).mean(axis=0)

    @property
    def pooled_naive_standard_error(self) -> np.ndarray:
        """``sqrt(mean fold variance / K)`` over data sets, for each ``K``.

        The naive standard error with the fold variances averaged before the square
        root: a fold standard deviation from ``K`` values is biased low (Jensen), its
        variance is not, so this is the fairer form of :attr:`naive_standard_error`.
        """
        return np.sqrt((self.fold_stds**2).mean(axis=0) / self.ks)


def _seeded(estimator: Any, rng: np.random.Generator) -> Any:
    model = clone(estimator)
    # one seed for the model, also inside a wrapper (OneClassFallback(SVC()) has
    # estimator__random_state): a wrapped learner draws the numbers the bare one draws
    keys = [k for k in model.get_params() if k == "random_state" or k.endswith("__random_state")]
    if keys:
        seed = int(rng.integers(2**31 - 1))
        model.set_params(**dict.fromkeys(keys, seed))
    return model


def _bias_variance_one(
    rng: np.random.Generator,
    estimator: Any,
    distribution: Any,
    m: int,
    ks: Sequence[int],
    n_test: int,
    stratify: bool,
    part_truths: bool = False,
    test_size: int | None = None,
) -> tuple:
    """One data set: the K-fold estimate (and fold std) for every K, the true risk on all m,
    (with ``part_truths``) the true risk of the model trained on fold 1's training part, and
    (with ``test_size``) the error of the full model on a fresh test set, drawn last so that
    the other numbers do not depend on it. Last, the number of those fits whose training set
    held one class (the learner is then the constant rule, :class:`OneClassFallback`)."""
    X, y = distribution.sample(m, random_state=int(rng.integers(2**31 - 1)))
    model = OneClassFallback(_seeded(estimator, rng))  # the estimator itself on two classes
    fold_seeds = [int(rng.integers(2**31 - 1)) for _ in ks]
    cvs = [checked_kfold(k, y, stratify, True, s) for k, s in zip(ks, fold_seeds, strict=True)]
    folds = [kfold_risks(model, X, y, cv=cv) for cv in cvs]
    one_class = sum(np.unique(y[tr]).size < 2 for cv in cvs for tr, _ in cv.split(X, y))
    full = clone(model).fit(X, y)
    one_class += full.one_class_
    truth = monte_carlo_risk(
        full, distribution, n=n_test, random_state=int(rng.integers(2**31 - 1))
    )
    out = (np.array([f.mean for f in folds]), np.array([f.std for f in folds]), truth)
    parts = None
    if part_truths:
        parts = []
        for cv in cvs:
            train, _ = next(cv.split(X, y))
            one_class += np.unique(y[train]).size < 2
            parts.append(
                monte_carlo_risk(
                    clone(model).fit(X[train], y[train]),
                    distribution,
                    n=n_test,
                    random_state=int(rng.integers(2**31 - 1)),
                )
            )
        parts = np.array(parts)
    test = None
    if test_size is not None:
        X_test, y_test = distribution.sample(test_size, random_state=int(rng.integers(2**31 - 1)))
        test = float(np.mean(full.predict(X_test) != y_test))
    return (*out, parts, test, int(one_class))


def _check_ks(ks: Any, name: str = "ks") -> None:
    """The declared constraint of ``ks``: a non-empty list of numbers of folds, ints >= 2
    (each one's bound ``K <= m`` needs ``m``: :func:`kfold_bias_variance` checks it)."""
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Sequence):
        raise ArgumentTypeError(f"{name} must be a list of integers K in [2, m], got {ks!r}")
    if len(ks) == 0:
        raise ValueError(f"{name} must hold at least one value of K, got none")
    for k in ks:
        check_int(k, name, minimum=2)


@validate_params({"ks": _check_ks})
def kfold_bias_variance(
    estimator: Any,
    distribution: Any,
    m: int,
    ks: Sequence[int],
    n_repeats: int = 100,
    random_state: Any = None,
    n_jobs: int | None = None,
    n_test: int = 20_000,
    stratify: bool = False,
    progress: bool = False,
    part_truths: bool = False,
    test_size: int | None = None,
) -> BiasVariance:
    """Bias and variance of the K-fold estimate, over ``n_repeats`` fresh data sets.

    Each repetition draws ``S`` (``m`` points) from ``distribution``, computes
    the K-fold estimate for every ``K`` in ``ks``, and the true risk of the model
    trained on all of ``S`` (by :func:`~cvbook.datasets.synthetic.monte_carlo_risk`
    on ``n_test`` fresh points). On a training set of one class (a small ``m`` can draw
    one) the learner is the constant rule that predicts that class
    (:class:`~cvbook.learners.OneClassFallback`); :attr:`BiasVariance.one_class_fits`
    counts those fits. Repetitions run in parallel through
    :func:`cvbook.simulation.repeat`, seeded per task: the result does not
    depend on ``n_jobs``.

    Parameters
    ----------
    estimator : scikit-learn estimator
        The learner; a ``random_state`` parameter, if any, is seeded per repetition.
    distribution : object with ``sample(m, random_state)``
        E.g. :class:`~cvbook.datasets.synthetic.TwoGaussians`.
    m : int
        Size of each data set, >= 3.
    ks : sequence of int
        Values of ``K``, each in ``[2, m]`` (``m`` is leave-one-out), such that every
        training part holds at least 2 points: ``m - ceil(m / K) >= 2``.
    n_repeats : int, default=100
        Number of data sets, >= 2 (the variance over data sets needs two).
    random_state : int or None
        Root seed.
    n_jobs : int or None
        joblib's ``n_jobs``.
    n_test : int, default=20_000
        Size of the fresh sample that measures each true risk.
    stratify : bool, default=False
        Stratified folds.
    progress : bool, default=False
        Show a progress bar.
    part_truths : bool, default=False
        Also measure the true risk of the model trained on the first fold's training part
        (``m - m_1`` points) for every ``K``: its mean over data sets estimates the expected
        risk at that size, which is what the K-fold estimate aims at.
    test_size : int or None, default=None
        Also measure the error of the model trained on all ``m`` points on a fresh test
        set of this many points (``m``: a test set as large as the sample), the ideal
        estimate of ``L(f_S)`` at that size (:attr:`BiasVariance.test_estimates`).

    Returns
    -------
    BiasVariance

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> bv = kfold_bias_variance(LinearDiscriminantAnalysis(), TwoGaussians(), m=30,
    ...                          ks=[2, 5], n_repeats=3, random_state=0, n_test=2000)
    >>> bv.estimates.shape, bv.bias.shape
    ((3, 2), (2,))
    """
    clone_estimator(estimator)
    check_distribution(distribution, "distribution")
    m = check_int(m, "m", minimum=3)
    ks = [check_n_splits_bound(k, m, name="ks") for k in ks]  # declared: only the bound
    for k in ks:
        if m - -(-m // k) < 2:  # the training part beside the largest fold
            raise ValueError(
                f"ks holds K={k}, whose largest fold leaves a training part of "
                f"{m - -(-m // k)} point(s) of the m={m}: every training part needs at least "
                "2 points (m - ceil(m / K) >= 2); use a larger m or another K"
            )
    n_repeats = check_int(n_repeats, "n_repeats", minimum=2)
    n_test = check_int(n_test, "n_test", minimum=1)
    stratify = check_bool(stratify, "stratify")
    part_truths = check_bool(part_truths, "part_truths")
    if test_size is not None:
        test_size = check_int(test_size, "test_size", minimum=1)
    out = repeat(
        _bias_variance_one,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        progress=progress,
        desc="K-fold bias/variance",
        estimator=estimator,
        distribution=distribution,
        m=m,
        ks=ks,
        n_test=n_test,
        stratify=stratify,
        part_truths=part_truths,
        test_size=test_size,
    )
    return BiasVariance(
        ks=np.asarray(ks),
        estimates=np.array([o[0] for o in out]),
        truths=np.array([o[2] for o in out]),
        fold_stds=np.array([o[1] for o in out]),
        part_truths=np.array([o[3] for o in out]) if part_truths else None,
        test_estimates=np.array([o[4] for o in out]) if test_size is not None else None,
        one_class_fits=sum(o[5] for o in out),
    )


def _paired_1d(x: Any, y: Any, minimum: int, names: tuple[str, str] = ("x", "y")):
    x = check_finite_values(x, names[0], ndim=1)
    y = check_finite_values(y, names[1], ndim=1)
    if x.shape != y.shape:
        raise ValueError(
            f"{names[0]} and {names[1]} must be paired (the same length), got {x.size} and {y.size}"
        )
    if x.size < minimum:
        raise ValueError(
            f"{names[0]} and {names[1]} must hold at least {minimum} pairs, got {x.size}"
        )
    return x, y


def _check_varies(values: np.ndarray, name: str, what: str) -> None:
    """A named error for constant ``values`` (zero variance), on which ``what`` is undefined."""
    if np.ptp(values) == 0:
        raise ValueError(
            f"{name} must vary: all its {values.size} values equal {values[0]!r} (zero "
            f"variance), and {what} is undefined"
        )


# --- chapter 3, section 5: what the estimate tracks, and how its spread compares -----------


def regression_slope(x: Any, y: Any) -> tuple[float, float]:
    """Least-squares slope of ``y`` on ``x`` with its standard error.

    Regressing an estimate on the true risk ``L(f_S)`` over data sets: an estimate that
    tracks ``L(f_S)`` one for one (a fresh test set, ``E[T | f_S] = L(f_S)``) has slope 1.

    Returns
    -------
    (slope, se) : tuple of float

    Examples
    --------
    >>> x = np.arange(10.0)
    >>> slope, se = regression_slope(x, 2 * x + np.sin(x))
    >>> round(slope, 2), se < 0.1
    (2.01, True)
    """
    from scipy import stats

    x, y = _paired_1d(x, y, minimum=3)
    if np.ptp(x) == 0:
        raise ValueError("x must vary (a slope needs a spread of x)")
    fit = stats.linregress(x, y)
    return float(fit.slope), float(fit.stderr)


def correlation_difference(
    a: Any, b: Any, c: Any, n_boot: int = 2000, random_state: Any = 0
) -> Paired:
    """``corr(a, c) - corr(b, c)`` over paired rows, with a bootstrap standard error.

    The rows (data sets) are resampled with replacement, which keeps the dependence of
    the two correlations, which share ``c``. ``a``, ``b`` and ``c`` must each vary: a
    constant one has no correlation (a ``ValueError`` names it). A resample in which one
    of them is constant (few rows) has no correlation either and is left out of the
    standard error, without a warning; with fewer than two resamples left, ``se`` is NaN.

    Returns
    -------
    Paired
        ``mean`` is the difference of the two correlations, ``se`` its bootstrap standard
        error, ``n`` the number of rows.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> c = rng.normal(size=300)
    >>> p = correlation_difference(c + rng.normal(size=300), c + 3 * rng.normal(size=300), c)
    >>> p.z > 4
    True
    """
    a, c = _paired_1d(a, c, minimum=4, names=("a", "c"))
    b, _ = _paired_1d(b, c, minimum=4, names=("b", "c"))
    for values, name in ((a, "a"), (b, "b"), (c, "c")):
        _check_varies(values, name, "a correlation with it")
    n_boot = check_int(n_boot, "n_boot", minimum=2)
    rng = check_random_state(random_state, "random_state")

    def diff(i: np.ndarray) -> float:
        if min(np.ptp(a[i]), np.ptp(b[i]), np.ptp(c[i])) == 0:
            return math.nan  # a resample that repeats one row: a constant has no correlation
        return float(np.corrcoef(a[i], c[i])[0, 1] - np.corrcoef(b[i], c[i])[0, 1])

    full = diff(np.arange(a.size))
    boot = np.array([diff(rng.integers(0, a.size, a.size)) for _ in range(n_boot)])
    boot = boot[np.isfinite(boot)]  # resamples without a correlation are left out
    se = float(boot.std(ddof=1)) if boot.size > 1 else math.nan
    return Paired(mean=full, se=se, n=int(a.size))


def binomial_ceiling(truths: Any, n_points: int) -> float:
    """Correlation with ``L(f_S)`` of an ideal estimate from ``n_points`` fresh points.

    A test set of ``n`` points counts ``Bin(n, L(f_S))`` errors: its error is ``L(f_S)``
    plus a noise of variance ``L(1 - L) / n`` uncorrelated with ``L``. Its correlation
    with ``L(f_S)`` over data sets is therefore
    ``sd(L) / sqrt(var(L) + E[L (1 - L)] / n)``, the ceiling for any estimate that rests
    on ``n`` points.

    Examples
    --------
    >>> round(binomial_ceiling([0.1, 0.12, 0.14, 0.16], 40), 2)
    0.44
    """
    truths = check_finite_values(truths, "truths", ndim=1)
    n_points = check_int(n_points, "n_points", minimum=1)
    if truths.size < 2 or np.any((truths < 0) | (truths > 1)):
        raise ValueError("truths must hold at least 2 risks in [0, 1]")
    var = truths.var(ddof=1)
    noise = float(np.mean(truths * (1 - truths))) / n_points
    return float(np.sqrt(var / (var + noise))) if var + noise > 0 else 0.0


def sd_ratio_interval(x: Any, y: Any, level: float = 0.95) -> tuple[float, float, float, float]:
    """``sd(x) / sd(y)`` over paired rows, with the Pitman--Morgan interval and ``t``.

    The interval inverts Pitman and Morgan's test (equality of two variances measured on
    the same rows): with ``F = var(x) / var(y)``, ``r = corr(x, y)`` and ``c`` the
    ``t`` quantile with ``R - 2`` degrees of freedom,
    ``k = 1 + 2 (1 - r^2) c^2 / (R - 2)`` and the variance ratio lies in
    ``F (k -+ sqrt(k^2 - 1))``; the square roots give the interval of the ratio of
    standard deviations. ``x`` and ``y`` must each vary (a ``ValueError`` names a
    constant one: the ratio would be 0 or infinite, the interval undefined).

    Returns
    -------
    (ratio, low, high, t) : tuple of float

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = rng.normal(size=400)
    >>> ratio, lo, hi, t = sd_ratio_interval(1.3 * y + 0.5 * rng.normal(size=400), y)
    >>> lo < ratio < hi, t > 4
    (True, True)
    """
    from scipy import stats

    x, y = _paired_1d(x, y, minimum=4)
    level = check_float(level, "level", minimum=0, maximum=1, exclusive=True)
    for values, name in ((x, "x"), (y, "y")):
        _check_varies(values, name, "the ratio of standard deviations")
    var_ratio, t = paired_variance_test(x, y)
    r = float(np.corrcoef(x, y)[0, 1])
    c = stats.t.ppf(0.5 + level / 2, x.size - 2)
    k = 1 + 2 * (1 - r * r) * c * c / (x.size - 2)
    root = np.sqrt(k * k - 1)
    return (
        float(np.sqrt(var_ratio)),
        float(np.sqrt(var_ratio * (k - root))),
        float(np.sqrt(var_ratio * (k + root))),
        t,
    )


def naive_se_ratio(
    bv: BiasVariance, j: int, n_boot: int = 2000, random_state: Any = 0
) -> tuple[float, float]:
    """How far the naive standard error under-states the spread of the estimate at ``ks[j]``.

    The ratio is ``sd(estimate)`` over data sets to ``sqrt(mean fold variance / K)``
    (:attr:`BiasVariance.pooled_naive_standard_error`), and ``z`` is ``log(ratio)`` over
    its bootstrap standard error (data sets resampled with replacement).

    The ratio is undefined when the estimates at ``ks[j]`` are constant over the data sets
    or no fold risk varies (possible in tiny runs): both numbers are then NaN. A bootstrap
    resample that is degenerate in the same way is left out of the standard error; with
    fewer than two resamples left, ``z`` is NaN. No warning is raised in either case.

    Returns
    -------
    (ratio, z) : tuple of float

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> bv = kfold_bias_variance(LinearDiscriminantAnalysis(), TwoGaussians(), m=30,
    ...                          ks=[2, 5], n_repeats=20, random_state=0, n_test=2000)
    >>> ratio, z = naive_se_ratio(bv, 1, n_boot=200)
    >>> ratio > 0
    True
    """
    if not isinstance(bv, BiasVariance):
        raise TypeError(f"bv must be a BiasVariance, got {type(bv).__name__}")
    j = check_int(j, "j", minimum=0, maximum=len(bv.ks) - 1)
    n_boot = check_int(n_boot, "n_boot", minimum=2)
    rng = check_random_state(random_state, "random_state")
    est, var, k = bv.estimates[:, j], bv.fold_stds[:, j] ** 2, int(bv.ks[j])

    def log_ratio(i: np.ndarray) -> float:
        sd, mean_var = est[i].std(ddof=1), var[i].mean()
        if sd <= 0 or mean_var <= 0:
            return math.nan  # a constant estimate or no spread within folds: no ratio, no log
        return float(np.log(sd / np.sqrt(mean_var / k)))

    full = log_ratio(np.arange(est.size))
    if not math.isfinite(full):
        return math.nan, math.nan  # the ratio is undefined (see above)
    boot = np.array([log_ratio(rng.integers(0, est.size, est.size)) for _ in range(n_boot)])
    boot = boot[np.isfinite(boot)]  # resamples without a ratio are left out
    se = float(boot.std(ddof=1)) if boot.size > 1 else math.nan
    return float(np.exp(full)), full / se if se > 0 else math.nan
