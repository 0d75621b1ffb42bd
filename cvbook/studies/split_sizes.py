"""Chapter 1's studies: the test error over many test sets, and how the split of m points
into training and test parts moves the risk and its bound."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats

from ..bounds import clopper_pearson_coverage, clopper_pearson_interval, clopper_pearson_upper
from ..holdout import clone_estimator, stratified_indices
from ..risk import count_errors, draw_sample, model_risk
from ..simulation import columns
from ..validation import (
    Interval,
    check_1d_labels,
    check_distribution,
    check_finite,
    check_int,
    check_integer_array,
    check_model,
    check_open_unit,
    check_random_state,
    check_rng,
    validate_params,
)

__all__ = [
    "argmin_summary",
    "binomial_range",
    "check_train_sizes",
    "coverage_table",
    "sample_test_errors",
    "single_split",
    "split_sizes_trial",
]


def check_train_sizes(
    train_sizes: Any, low: int, high: int, high_text: str, reason: str = ""
) -> np.ndarray:
    """``train_sizes`` of a trial as an int array: a non-empty list of sizes in ``[low, high]``.

    Parameters
    ----------
    train_sizes : sequence of int
        The training sizes a trial compares.
    low, high : int
        The smallest and largest size allowed.
    high_text : str
        How the message writes ``high`` before its value (``"m"``, ``"m - 2"``).
    reason : str, default=""
        Why the range is what it is, appended to the message of a size outside it.

    Returns
    -------
    numpy.ndarray of int

    Examples
    --------
    >>> check_train_sizes([10, 30], 2, 38, "m - 2").tolist()
    [10, 30]
    >>> check_train_sizes([1, 30], 2, 38, "m - 2")
    Traceback (most recent call last):
    ...
    ValueError: train_sizes must lie in [2, m - 2] = [2, 38], got [1, 30]
    """
    if isinstance(train_sizes, (str, bytes)) or np.ndim(train_sizes) != 1 or len(train_sizes) == 0:
        raise ValueError(f"train_sizes must be a non-empty list of integers, got {train_sizes!r}")
    sizes = check_integer_array(train_sizes, "train_sizes", ndim=1)
    if sizes.min() < low or sizes.max() > high:
        raise ValueError(
            f"train_sizes must lie in [{low}, {high_text}] = [{low}, {high}]{reason}, "
            f"got {sizes.tolist()}"
        )
    return sizes


def sample_test_errors(
    model: Any, distribution: Any, test_size: int, n_test_sets: int, random_state: Any = None
) -> np.ndarray:
    """Error counts of one fixed ``model`` on many independent test sets.

    Each test set holds ``test_size`` fresh points from ``distribution``. The
    counts are Binomial(test_size, L) draws, where L is the model's risk: their
    spread is the uncertainty of a test error.

    Parameters
    ----------
    model : object with ``predict``
        A fitted classifier.
    distribution : object with ``sample(m, random_state)``
        Where the test points come from.
    test_size : int
        Points per test set, >= 1.
    n_test_sets : int
        Number of test sets, >= 1.
    random_state : None, int, Generator, RandomState or SeedSequence

    Returns
    -------
    numpy.ndarray of int, shape (n_test_sets,)

    Examples
    --------
    >>> from cvbook.datasets import TwoGaussians
    >>> class Sign:
    ...     def predict(self, X):
    ...         return np.where(X[:, 0] > 0, 1, -1)
    >>> counts = sample_test_errors(Sign(), TwoGaussians(), 50, 4, random_state=0)
    >>> counts.shape, counts.dtype.kind
    ((4,), 'i')
    """
    check_model(model)
    check_distribution(distribution)
    test_size = check_int(test_size, "test_size", minimum=1)
    n_test_sets = check_int(n_test_sets, "n_test_sets", minimum=1)
    rng = check_random_state(random_state)
    X, y = distribution.sample(test_size * n_test_sets, random_state=rng)
    predicted = check_1d_labels(model.predict(X), "model.predict(X)")
    if predicted.shape != np.shape(y):
        raise ValueError(
            f"model.predict(X) must return one label per point: got shape "
            f"{predicted.shape} for {len(y)} points"
        )
    wrong = (predicted != y).reshape(n_test_sets, test_size)
    return wrong.sum(axis=1).astype(np.int64)


def split_sizes_trial(
    rng: Any,
    distribution: Any,
    estimator: Any,
    m: int,
    train_sizes: Sequence[int],
    delta: float = 0.05,
    n_mc: int = 100_000,
) -> dict[str, np.ndarray]:
    """One data set of ``m`` points, split once for each training size: the trade-off.

    Draws ``m`` points (:func:`draw_sample`: every class holds 2 points or more),
    then, for each ``n_train`` in ``train_sizes``, splits them at random into
    ``n_train`` training and ``m - n_train`` test points, keeping every class in
    both parts (:func:`cvbook.holdout.stratified_indices`); trains
    ``clone(estimator)`` on the first part and records the true risk
    :func:`model_risk` of the model (the target is ``L(f)`` of *this* fitted
    model), its number of test errors, and the one-sided Clopper--Pearson bound
    at ``1 - delta`` those errors give. The splits share one data set, so that
    the training sizes can be compared paired.

    Parameters
    ----------
    rng : None, int, Generator, RandomState or SeedSequence
        All the randomness of the trial.
    distribution : object with ``sample(m, random_state)``, labels in {-1, +1}
    estimator : scikit-learn classifier
        Cloned before each fit.
    m : int
        Points in the data set, >= 4.
    train_sizes : sequence of int
        Training sizes, each in ``[2, m - 2]``; one on which ``estimator`` fails to fit
        (too small for it) gives a ``ValueError`` that names ``train_sizes``.
    delta : float, default=0.05
        The bound fails with probability at most ``delta``, in (0, 1).
    n_mc : int, default=100_000
        Fresh points for a risk that is not exact.

    Returns
    -------
    dict of numpy.ndarray, one entry per training size
        ``n_train``, ``n_test``, ``n_errors``, ``test_error``, ``true_risk``,
        ``upper_bound``.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> out = split_sizes_trial(0, TwoGaussians(), LinearDiscriminantAnalysis(), 40, [10, 30])
    >>> out["n_test"].tolist(), bool(np.all(out["true_risk"] >= TwoGaussians().bayes_risk))
    ([30, 10], True)
    """

    rng = check_random_state(rng, "rng")
    check_distribution(distribution)
    clone_estimator(estimator)
    m = check_int(m, "m", minimum=4)
    sizes = check_train_sizes(
        train_sizes, 2, m - 2, "m - 2", reason=" so that both parts hold both classes"
    )
    delta = check_open_unit(delta, "delta", scalar=True)
    n_mc = check_int(n_mc, "n_mc", minimum=1)
    X, y = draw_sample(distribution, m, rng)
    out: dict[str, list] = {k: [] for k in ("n_errors", "true_risk")}
    for n_train in sizes:
        train, test = stratified_indices(y, test_size=int(m - n_train), random_state=rng)
        try:
            model = clone_estimator(estimator).fit(X[train], y[train])
        except ValueError as err:
            raise _FitFailed(
                f"train_sizes holds {int(n_train)}, a training part on which estimator "
                f"failed to fit ({err}); a larger training size may help",
                int(n_train),
                err,
            ) from err
        out["n_errors"].append(count_errors(y[test], model.predict(X[test])))
        out["true_risk"].append(model_risk(model, distribution, n_mc=n_mc, random_state=rng))
    n_test = m - sizes
    n_errors = np.asarray(out["n_errors"], dtype=np.int64)
    return {
        "n_train": sizes,
        "n_test": n_test,
        "n_errors": n_errors,
        "test_error": n_errors / n_test,
        "true_risk": np.asarray(out["true_risk"]),
        "upper_bound": np.asarray(clopper_pearson_upper(n_errors, n_test, delta), dtype=float),
    }


class _FitFailed(ValueError):
    """The estimator's fit refused a training part (its size is in ``args[1]``)."""

    def __str__(self) -> str:
        return str(self.args[0])


def single_split(
    rng: Any, distribution: Any, estimator: Any, m: int, train_fraction: float, delta: float = 0.05
) -> dict[str, float]:
    """Split ``m`` points once into training and test parts; report what each gives.

    :func:`split_sizes_trial` for one training size, ``round(train_fraction * m)``
    (clipped to ``[2, m - 2]``): the model's true risk, its test error and the
    one-sided Clopper--Pearson bound at ``1 - delta``. Both parts always hold
    both classes (stratified split of a sample with 2 points of each class at
    least), so no draw leaves a learner with one class. A training part too small
    for the learner (LDA needs more points than classes) gives a ``ValueError``
    that names ``train_fraction``.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> out = single_split(np.random.default_rng(0), TwoGaussians(),
    ...                    LinearDiscriminantAnalysis(), m=40, train_fraction=0.5)
    >>> sorted(out)
    ['n_test', 'n_train', 'test_error', 'true_risk', 'upper_bound']
    """
    m = check_int(m, "m", minimum=4)
    train_fraction = check_open_unit(train_fraction, "train_fraction", scalar=True)
    n_train = min(max(round(train_fraction * m), 2), m - 2)
    try:
        out = split_sizes_trial(rng, distribution, estimator, m, [n_train], delta=delta)
    except _FitFailed as err:
        raise ValueError(
            f"train_fraction={train_fraction} of m={m} points gives a training part of "
            f"{n_train} points, too small: estimator failed to fit on it ({err.args[2]}); "
            "use a larger train_fraction"
        ) from err.args[2]
    return {
        "n_train": n_train,
        "n_test": m - n_train,
        "true_risk": float(out["true_risk"][0]),
        "test_error": float(out["test_error"][0]),
        "upper_bound": float(out["upper_bound"][0]),
    }


def binomial_range(m: int, risk: float, level: float = 0.9) -> dict[str, float]:
    """Central range of a test error on ``m`` points, and the exact mass outside it.

    The error count of a fixed classifier with risk ``risk`` on ``m`` fresh
    points is Binomial(m, risk). Its ``(1 - level) / 2`` and ``(1 + level) / 2``
    quantiles ``k_lo`` and ``k_hi`` are atoms of that law, so the closed range
    ``[k_lo / m, k_hi / m]`` holds *more* than ``level`` of it; the mass outside,
    ``P(k < k_lo) + P(k > k_hi)``, is computed exactly from the binomial law
    rather than read as ``1 - level``.

    Parameters
    ----------
    m : int
        Test points, >= 1.
    risk : float
        True risk, in [0, 1].
    level : float, default=0.9
        Central probability the range is built for, in (0, 1).

    Returns
    -------
    dict
        ``k_lo``, ``k_hi`` (counts), ``lo``, ``hi`` (test errors) and ``outside``
        (the exact probability of a test error outside ``[lo, hi]``).

    Examples
    --------
    >>> r = binomial_range(20, 0.17068, level=0.9)
    >>> r["lo"], r["hi"], round(r["outside"], 3)
    (0.05, 0.3, 0.065)
    """
    m = check_int(m, "m", minimum=1)
    risk = check_finite(risk, "risk")
    if risk.ndim != 0 or not 0.0 <= float(risk) <= 1.0:
        raise ValueError(f"risk must be one number in [0, 1], got {risk!r}")
    risk = float(risk)
    level = float(check_open_unit(level, "level", scalar=True))
    k_lo, k_hi = (int(v) for v in stats.binom.ppf([(1 - level) / 2, (1 + level) / 2], m, risk))
    outside = float(stats.binom.cdf(k_lo - 1, m, risk) + stats.binom.sf(k_hi, m, risk))
    return {"k_lo": k_lo, "k_hi": k_hi, "lo": k_lo / m, "hi": k_hi / m, "outside": outside}


@validate_params(
    {
        "delta": Interval("real", 0, 1, closed="neither"),
        "ci_level": Interval("real", 0, 1, closed="neither"),
    }
)
def coverage_table(
    counts: dict[int, Any], risk: float, delta: float = 0.05, ci_level: float = 0.95
) -> dict[str, np.ndarray]:
    """Simulated and exact coverage of the Clopper--Pearson bound and interval, per size.

    For each test-set size ``m`` the simulated coverage is the share of test sets
    whose one-sided bound (:func:`cvbook.bounds.clopper_pearson_upper`), or
    two-sided interval (:func:`cvbook.bounds.clopper_pearson_interval`), contains
    ``risk``; the exact coverage is the binomial sum
    (:func:`cvbook.bounds.clopper_pearson_coverage`). Each simulated coverage is
    a count of ``R`` test sets and gets its own Clopper--Pearson interval at
    ``ci_level``; its ``z`` is measured against the exact value with the SE
    ``sqrt(c (1 - c) / R)`` of the exact ``c``.

    Parameters
    ----------
    counts : dict of int to array_like of int
        Test-set size ``m`` to the error counts of ``R >= 2`` test sets of that size
        (:func:`sample_test_errors`).
    risk : float
        True risk of the classifier, in [0, 1].
    delta : float, default=0.05
        Failure probability of the bound (``alpha`` of the interval), in (0, 1).
    ci_level : float, default=0.95
        Level of the intervals on the simulated coverages, in (0, 1).

    Returns
    -------
    dict of numpy.ndarray, one entry per size (sorted)
        ``m``, ``n_sets``; for ``side`` in ``one``, ``two``: ``sim_<side>``,
        ``exact_<side>``, ``lo_<side>``, ``hi_<side>`` (interval of the simulated
        coverage) and ``z_<side>``; ``gap`` (mean one-sided bound minus ``risk``).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> t = coverage_table({50: rng.binomial(50, 0.2, 400)}, 0.2)
    >>> bool(t["exact_one"][0] >= 0.95), bool(t["lo_two"][0] <= t["sim_two"][0] <= t["hi_two"][0])
    (True, True)
    """
    if not isinstance(counts, dict) or not counts:
        raise ValueError("counts must be a non-empty dict of test-set size to error counts")
    risk = check_finite(risk, "risk")
    if risk.ndim != 0 or not 0.0 <= float(risk) <= 1.0:
        raise ValueError(f"risk must be one number in [0, 1], got {risk!r}")
    risk = float(risk)
    delta, ci_level = float(delta), float(ci_level)
    rows = []
    for m in sorted(counts):
        m_ok = check_int(m, "a size of counts", minimum=1)
        k = check_integer_array(counts[m], f"counts[{m}]", minimum=0, ndim=1)
        if k.size < 2 or k.max() > m_ok:
            raise ValueError(
                f"counts[{m}] must hold the error counts (0 to {m_ok}) of at least 2 test sets"
            )
        r = k.size
        up = clopper_pearson_upper(k, m_ok, delta=delta)
        lo2, up2 = clopper_pearson_interval(k, m_ok, alpha=delta)
        row = {"m": m_ok, "n_sets": r, "gap": float(np.mean(up - risk))}
        for side, hit, two in (
            ("one", up >= risk, False),
            ("two", (lo2 <= risk) & (risk <= up2), True),
        ):
            exact = clopper_pearson_coverage(risk, m_ok, delta, two_sided=two)
            n_hit = int(hit.sum())
            ci_lo, ci_hi = clopper_pearson_interval(n_hit, r, alpha=1 - ci_level)
            se = np.sqrt(exact * (1 - exact) / r)
            row |= {
                f"sim_{side}": n_hit / r,
                f"exact_{side}": exact,
                f"lo_{side}": float(ci_lo),
                f"hi_{side}": float(ci_hi),
                f"z_{side}": (n_hit / r - exact) / se if se > 0 else 0.0,
            }
        rows.append(row)
    return columns(rows)


def argmin_summary(values: Any, n_boot: int = 2000, random_state: Any = None) -> dict[str, Any]:
    """Where the mean of paired columns is smallest, and how sure that is.

    ``values[r, j]`` is measured on repetition ``r`` (a data set) at setting ``j``
    (a training size). The best setting is the column of the smallest mean; each
    other column is compared with it *paired* over repetitions (mean difference,
    its standard error and ``z``), and a bootstrap over repetitions gives the
    share of resamples in which each column has the smallest mean.

    Parameters
    ----------
    values : array_like of float, shape (R, J)
        ``R >= 2`` repetitions, ``J >= 1`` settings, finite.
    n_boot : int, default=2000
        Bootstrap resamples, >= 1.
    random_state : None, int, Generator, RandomState or SeedSequence

    Returns
    -------
    dict
        ``best`` (column index), ``diff``, ``se``, ``z`` (arrays of shape (J,):
        column minus best, paired; 0, 0 and 0 at ``best``), and ``boot_share``
        (shape (J,), sums to 1).

    Examples
    --------
    >>> v = np.array([[3.0, 1.0, 2.0], [3.5, 1.2, 2.0], [2.9, 0.8, 2.5]])
    >>> s = argmin_summary(v, n_boot=200, random_state=0)
    >>> s["best"], s["boot_share"].tolist()
    (1, [0.0, 1.0, 0.0])
    """
    arr = check_finite(values, "values")
    if arr.ndim != 2 or arr.shape[0] < 2 or arr.shape[1] < 1:
        raise ValueError(
            f"values must have shape (R, J) with R >= 2 repetitions, got shape {arr.shape}"
        )
    n_boot = check_int(n_boot, "n_boot", minimum=1)
    rng = check_rng(random_state)
    r = arr.shape[0]
    best = int(np.argmin(arr.mean(axis=0)))
    d = arr - arr[:, [best]]
    diff = d.mean(axis=0)
    se = d.std(axis=0, ddof=1) / np.sqrt(r)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, diff / np.where(se > 0, se, 1.0), 0.0)
    picks = np.argmin(arr[rng.integers(0, r, size=(n_boot, r))].mean(axis=1), axis=1)
    share = np.bincount(picks, minlength=arr.shape[1]) / n_boot
    return {"best": best, "diff": diff, "se": se, "z": z, "boot_share": share}
