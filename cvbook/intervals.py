"""How sure is a CV score? Confidence intervals for the risk (chapter 7).

Every function takes an estimator, the data ``X, y``, a pointwise ``loss``
(``"zero_one"`` or ``"squared"``), a level ``alpha``, a ``random_state`` and
``n_jobs``, and returns a frozen :class:`RiskInterval`: the point estimate,
the two ends, the method, the *target* the method aims at, the training size
of that target, and the number of fits it cost.

Two targets are distinguished (see the notation page):

``"conditional"``
    the risk ``L(f)`` of one fitted model -- for the hold-out, the model
    fitted on the training part; for cross-validation, the model fitted on
    these data;
``"expected"``
    the expected risk of the learner at a training size, ``E L(f_{S_m})``,
    averaged over data sets of ``m`` points.

The methods:

* :func:`holdout_interval` -- one test set; Wald or exact Clopper--Pearson
  (:func:`cvbook.bounds.clopper_pearson_interval`).
* :func:`cv_wald_interval` -- the naive K-fold Wald interval, whose validity
  for the K-fold test error Bayle et al. (2020) prove for stable learners; its
  spread is :func:`cv_wald_sigma` (which chapter 10's paired test reuses).
* :func:`corrected_t_interval` -- Nadeau & Bengio's (2003) corrected
  resampled t over ``J`` random splits.
* :func:`conservative_z_interval` -- Nadeau & Bengio's conservative Z, whose
  variance comes from pairs of disjoint half samples.
* :func:`nested_cv_interval` -- Bates, Hastie & Tibshirani's (2023) nested
  cross-validation interval with its bias correction.

Every fit goes through :func:`split_losses`; the splits are drawn from
``random_state`` before any fit, so the result is the same for any ``n_jobs``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from scipy import stats
from sklearn.model_selection import KFold, ShuffleSplit, StratifiedKFold, StratifiedShuffleSplit

from .bounds import clopper_pearson_interval
from .risk import LOSS, check_target, fit_predict, resolve_loss, zero_one_losses
from .simulation import repeat
from .validation import (
    Interval,
    Options,
    as_random_state,
    check_alpha,
    check_data,
    check_features,
    check_finite_values,
    check_float,
    check_int,
    check_predicted_labels,
    check_same_length,
    check_test_count_bound,
    check_train_test_splits,
    inside_checked_call,
    validate_params,
)

__all__ = [
    "INTERVAL_METHODS",
    "RiskInterval",
    "check_wald_folds",
    "conservative_z_from_means",
    "conservative_z_interval",
    "corrected_t_from_split_means",
    "corrected_t_interval",
    "cv_wald_interval",
    "cv_wald_sigma",
    "holdout_interval",
    "kfold_splits",
    "nested_cv_from_losses",
    "nested_cv_interval",
    "pointwise_loss",
    "random_splits",
    "split_losses",
]

TARGETS = ("conditional", "expected")


@dataclass(frozen=True)
class RiskInterval:
    """A confidence interval for a risk, and what it aims at.

    Attributes
    ----------
    estimate : float
        Point estimate of the risk.
    lower, upper : float
        Ends of the ``1 - alpha`` interval.
    method : str
        Name of the method (a key of :data:`INTERVAL_METHODS`).
    target : str
        ``"conditional"`` (the risk of one fitted model) or ``"expected"``
        (the learner's expected risk at ``train_size`` points).
    train_size : int
        Training size of the model (or learner) the target speaks of.
    n_fits : int
        Number of models fitted to compute the interval.
    alpha : float
        One minus the nominal level.

    Examples
    --------
    >>> r = RiskInterval(0.2, 0.1, 0.3, "holdout_wald", "conditional", 80, 1, 0.05)
    >>> r.width, r.covers(0.25), r.covers(0.35)
    (0.2, True, False)
    """

    estimate: float
    lower: float
    upper: float
    method: str
    target: str
    train_size: int
    n_fits: int
    alpha: float

    def __post_init__(self) -> None:
        if self.target not in TARGETS:
            raise ValueError(f"target must be one of {list(TARGETS)}, got {self.target!r}")
        if self.method not in INTERVAL_METHODS:
            raise ValueError(f"method must be one of {list(INTERVAL_METHODS)}, got {self.method!r}")
        for name in ("estimate", "lower", "upper"):
            check_float(getattr(self, name), name, allow_inf=True)
        if self.lower > self.upper:
            raise ValueError(f"lower must be <= upper, got [{self.lower}, {self.upper}]")
        if not inside_checked_call():  # else alpha was checked at the method's door
            check_alpha(self.alpha)

    @property
    def width(self) -> float:
        """``upper - lower``."""
        return round(self.upper - self.lower, 15)

    def covers(self, value: float) -> bool:
        """Whether ``lower <= value <= upper`` (``value`` a real number, not NaN)."""
        check_float(value, "value", allow_inf=True)
        return bool(self.lower <= value <= self.upper)


# --------------------------------------------------------------------------- #
# Checks and the one place where models are fitted


def _is_zero_one(loss: Any) -> bool:
    """Whether ``loss`` is the 0-1 loss (stratified splits, exact binomial intervals)."""
    return resolve_loss(loss) is zero_one_losses


#: What every interval accepts (each adds its own arguments).
_INTERVAL = {
    "estimator": "estimator",
    "loss": LOSS,
    "alpha": "alpha",
    "random_state": "random_state",
}


def _check_common(loss: Any, alpha: Any, X: Any, y: Any) -> tuple:
    """The data of an interval, checked (``loss`` and ``alpha`` are declared at the door):
    ``(alpha, X, y, n)``."""
    return (float(alpha), *check_data(X, y))


@validate_params({"loss": LOSS})
def pointwise_loss(y_true: Any, y_pred: Any, loss: str = "zero_one") -> np.ndarray:
    """One loss per point.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n,)
        A column vector ``(n, 1)`` is flattened with a ``DataConversionWarning``
        (as scikit-learn does); other shapes, NaN, infinity and, for the 0-1
        loss, a continuous ``y_true`` or non-integer ``y_pred`` (probabilities)
        are refused by name.
    loss : {"zero_one", "squared"}

    Returns
    -------
    numpy.ndarray of shape (n,)

    Examples
    --------
    >>> pointwise_loss([0, 1, 1], [0, 0, 1]).tolist()
    [0.0, 1.0, 0.0]
    >>> pointwise_loss([1.0, 2.0], [1.5, 0.0], loss="squared").tolist()
    [0.25, 4.0]
    """
    fn = resolve_loss(loss)
    y_true = check_target(y_true, loss, "y_true")
    if _is_zero_one(loss):
        y_pred = check_predicted_labels(y_pred, "y_pred", like=y_true)
    else:
        y_pred = check_finite_values(y_pred, "y_pred", ndim=1)
    check_same_length(("y_true", y_true), ("y_pred", y_pred))
    with np.errstate(over="ignore", invalid="ignore"):
        losses = fn(y_true, y_pred)
    if not np.all(np.isfinite(losses)):
        raise ValueError("y_pred gives losses too large to represent (overflow to infinity)")
    return losses


def _fit_losses(estimator, X, y, train, test, loss_fn) -> np.ndarray:
    return loss_fn(y[test], fit_predict(estimator, X, y, train, test))


@validate_params({"estimator": "estimator", "loss": LOSS, "n_jobs": "n_jobs"})
def split_losses(
    estimator,
    X: np.ndarray,
    y: np.ndarray,
    splits: Sequence[tuple[np.ndarray, np.ndarray]],
    loss: str = "zero_one",
    n_jobs: int | None = None,
) -> list[np.ndarray]:
    """Fit a clone of ``estimator`` on each training part; losses on its test part.

    Parameters
    ----------
    estimator : estimator with ``fit`` and ``predict``
    X, y : numpy.ndarray
    splits : sequence of (train_indices, test_indices)
        Integer indices in ``[0, n)`` (no float, negative or repeated index), a
        non-empty test part disjoint from its training part.
    loss : {"zero_one", "squared"}
    n_jobs : int or None
        joblib workers; the splits are fixed beforehand, so the result does
        not depend on it.

    Returns
    -------
    list of numpy.ndarray
        The test losses of each split, in order (one fit per split).

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> X, y = np.zeros((4, 1)), np.array([0, 0, 0, 1])
    >>> split_losses(DummyClassifier(), X, y, [(np.arange(3), np.arange(3, 4))])
    [array([1.])]
    """
    loss_fn = resolve_loss(loss)
    X = check_features(X, "X", min_samples=2)
    y = check_target(y, loss)
    check_same_length(("X", X), ("y", y))
    splits = check_train_test_splits(splits, len(y))
    if n_jobs in (None, 1):
        return [_fit_losses(estimator, X, y, tr, te, loss_fn) for tr, te in splits]
    return list(
        Parallel(n_jobs=n_jobs)(
            delayed(_fit_losses)(estimator, X, y, tr, te, loss_fn) for tr, te in splits
        )
    )


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**31 - 1))


def check_wald_folds(n_splits: Any, n: int, variance: str) -> int:
    """``n_splits`` for a K-fold Wald interval on ``n`` points: 2 to ``n`` folds, and at
    least 2 points per fold for ``variance="within_fold"``.

    Examples
    --------
    >>> check_wald_folds(10, 200, "all_pairs")
    10
    >>> check_wald_folds(10, 15, "within_fold")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: variance='within_fold' needs at least 2 points per fold: ...
    """
    n_splits = check_int(n_splits, "n_splits", minimum=2, maximum=n)
    if variance == "within_fold" and n < 2 * n_splits:
        raise ValueError(
            f"variance='within_fold' needs at least 2 points per fold: n_splits "
            f"must be <= n / 2 = {n // 2}, got {n_splits}"
        )
    return n_splits


@validate_params({"loss": LOSS, "random_state": "random_state"})
def kfold_splits(
    y: Any, n_splits: int, loss: str = "zero_one", random_state: Any = None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Shuffled K-fold splits, the ones :func:`cv_wald_interval` and nested CV draw.

    For the 0-1 loss the folds are stratified (every part keeps each class) when each
    class has at least ``n_splits`` points; otherwise, and for the squared loss, they are
    plain shuffled folds. Called with the seed given to :func:`cv_wald_interval`, it
    returns that interval's folds, so a study can refit the K fold models.

    Parameters
    ----------
    y : array_like of shape (n,)
        Labels (0-1 loss) or targets (squared loss).
    n_splits : int
        K, in ``[2, n]``.
    loss : {"zero_one", "squared"}, default="zero_one"
    random_state : None, int or numpy Generator
        One seed is drawn from it.

    Returns
    -------
    list of (numpy.ndarray, numpy.ndarray)
        ``K`` pairs ``(train indices, test indices)``; the test parts partition ``range(n)``.

    Examples
    --------
    >>> folds = kfold_splits([0, 1] * 5, 5, random_state=0)
    >>> len(folds), sorted(np.concatenate([te for _, te in folds]).tolist()) == list(range(10))
    (5, True)
    >>> kfold_splits([0, 1], 3)
    Traceback (most recent call last):
    ...
    ValueError: n_splits must be <= 2, got 3
    """
    y = check_target(y, loss)
    n_splits = check_int(n_splits, "n_splits", minimum=2, maximum=len(y))
    rng = as_random_state(random_state)
    if _is_zero_one(loss):
        counts = np.unique(y, return_counts=True)[1]
        if counts.min() >= n_splits:
            cv = StratifiedKFold(n_splits, shuffle=True, random_state=_seed(rng))
            return list(cv.split(np.zeros(len(y)), y))
    return list(KFold(n_splits, shuffle=True, random_state=_seed(rng)).split(np.zeros(len(y))))


@validate_params({"n_splits": Interval("int", 1), "loss": LOSS, "rng": "random_state"})
def random_splits(
    y: Any, n_splits: int, n_test: int, loss: str, rng: Any
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n_splits`` random train/test splits with ``n_test`` test points (stratified for 0-1).

    The 0-1 loss's splits are stratified when every class has two points and both parts
    room for each class; otherwise, and for the squared loss, they are plain shuffles.

    Parameters
    ----------
    y : array_like of shape (n,)
        Labels (0-1 loss) or targets (squared loss).
    n_splits : int
        How many splits, ``>= 1``.
    n_test : int
        Test points per split, in ``[1, n - 1]``.
    loss : {"zero_one", "squared"}
    rng : None, int, Generator, RandomState or SeedSequence
        One seed is drawn from it per call (a Generator advances).

    Examples
    --------
    >>> splits = random_splits([0, 1] * 5, 3, 4, "zero_one", 0)
    >>> len(splits), [len(test) for _, test in splits]
    (3, [4, 4, 4])
    """
    y = check_target(y, loss)
    n = len(y)
    n_test = check_int(n_test, "n_test", minimum=1, maximum=max(1, n - 1))
    if n < 2:
        raise ValueError(f"y must hold at least 2 points to split, got {n}")
    rng = as_random_state(rng)
    if _is_zero_one(loss):
        counts = np.unique(y, return_counts=True)[1]
        if (
            counts.size > 1
            and counts.min() >= 2
            and n_test >= counts.size
            and n - n_test >= counts.size
        ):
            cv = StratifiedShuffleSplit(n_splits, test_size=n_test, random_state=_seed(rng))
            return list(cv.split(np.zeros(n), y))
    cv = ShuffleSplit(n_splits, test_size=n_test, random_state=_seed(rng))
    return list(cv.split(np.zeros(n)))


def _z(alpha: float) -> float:
    return float(stats.norm.ppf(1 - alpha / 2))


# --------------------------------------------------------------------------- #
# Hold-out


@validate_params(
    {**_INTERVAL, "test_size": "test_size", "method": Options("clopper_pearson", "wald")}
)
def holdout_interval(
    estimator,
    X,
    y,
    *,
    loss: str = "zero_one",
    test_size: float | int = 0.2,
    method: str = "clopper_pearson",
    alpha: float = 0.05,
    random_state=None,
) -> RiskInterval:
    """Interval for the risk of the model fitted on a training part, from one test set.

    Parameters
    ----------
    estimator : estimator
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
    loss : {"zero_one", "squared"}, default="zero_one"
    test_size : float in (0, 1) or int, default=0.2
        Fraction or number of test points.
    method : {"clopper_pearson", "wald"}, default="clopper_pearson"
        Exact binomial interval (0-1 loss only) or ``mean ± z * sd / sqrt(n_test)``.
        Decision (issue 20): the Wald interval is *not* clipped to [0, 1]
        (nor to [0, inf) for the squared loss). It is the textbook normal
        interval; an end outside the range of the loss shows that the normal
        approximation fails at this ``n_test``, which clipping would hide, and
        the coverage studies of chapter 7 score the interval as defined. Use
        ``"clopper_pearson"`` for an interval inside [0, 1]. The Wald interval needs
        at least 2 test points (one gives no standard deviation: refused).
    alpha : float, default=0.05
    random_state : None, int or numpy Generator

    Returns
    -------
    RiskInterval
        Target ``"conditional"``: the risk of the model fitted on the
        ``n - n_test`` training points; one fit.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import Twonorm
    >>> X, y = Twonorm().sample(200, random_state=0)
    >>> r = holdout_interval(LinearDiscriminantAnalysis(), X, y, random_state=0)
    >>> r.method, r.target, r.train_size, r.n_fits, r.lower <= r.estimate <= r.upper
    ('holdout_cp', 'conditional', 160, 1, True)
    """
    alpha, X, y, n = _check_common(loss, alpha, X, y)
    y = check_target(y, loss)
    if method == "clopper_pearson" and not _is_zero_one(loss):
        raise ValueError(
            "method='clopper_pearson' needs loss='zero_one' (it counts errors); "
            f"got loss={loss!r}: use method='wald'"
        )
    n_test = check_test_count_bound(test_size, n)
    if method == "wald" and n_test < 2:
        raise ValueError(
            f"test_size must give at least 2 test points for method='wald' (its width "
            f"needs the standard deviation of the test losses), got {n_test}; use "
            "method='clopper_pearson' for one test point"
        )
    rng = as_random_state(random_state)
    (split,) = random_splits(y, 1, n_test, loss, rng)
    (losses,) = split_losses(estimator, X, y, [split], loss)
    est = float(losses.mean())
    if method == "clopper_pearson":
        lo, hi = clopper_pearson_interval(int(losses.sum()), n_test, alpha)
        name = "holdout_cp"
    else:
        half = _z(alpha) * float(losses.std(ddof=1)) / math.sqrt(n_test)
        lo, hi = est - half, est + half
        name = "holdout_wald"
    return RiskInterval(est, float(lo), float(hi), name, "conditional", n - n_test, 1, alpha)


# --------------------------------------------------------------------------- #
# Naive K-fold Wald interval (Bayle et al. 2020)


@validate_params({**_INTERVAL, "variance": Options("within_fold", "all_pairs"), "n_jobs": "n_jobs"})
def cv_wald_interval(
    estimator,
    X,
    y,
    *,
    loss: str = "zero_one",
    n_splits: int = 10,
    variance: str = "within_fold",
    alpha: float = 0.05,
    random_state=None,
    n_jobs: int | None = None,
) -> RiskInterval:
    """The naive K-fold Wald interval, ``CV ± z * sigma / sqrt(n)``.

    ``CV`` is the mean of the ``n`` out-of-fold losses. Bayle et al. (2020)
    show that, for learners stable enough, ``sqrt(n) (CV - R) / sigma`` is
    asymptotically normal, where ``R`` is the *K-fold test error*, the mean
    of the risks of the K fold models. ``sigma**2`` is estimated within folds
    (the mean of the folds' variances, their ``sigma_in``) or from all pairs
    (the variance of all ``n`` losses about ``CV``).

    Parameters
    ----------
    estimator : estimator
    X, y : array_like
    loss : {"zero_one", "squared"}
    n_splits : int, default=10
        K, at least 2.
    variance : {"within_fold", "all_pairs"}, default="within_fold"
    alpha : float, default=0.05
    random_state : None, int or numpy Generator
    n_jobs : int or None

    Returns
    -------
    RiskInterval
        Target ``"conditional"`` (the K-fold test error, a mean of conditional
        risks at ``n (K - 1) / K`` points); K fits.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import Twonorm
    >>> X, y = Twonorm().sample(200, random_state=0)
    >>> r = cv_wald_interval(LinearDiscriminantAnalysis(), X, y, random_state=0)
    >>> r.method, r.n_fits, r.train_size
    ('cv_wald', 10, 180)
    """
    alpha, X, y, n = _check_common(loss, alpha, X, y)
    y = check_target(y, loss)
    n_splits = check_wald_folds(n_splits, n, variance)
    rng = as_random_state(random_state)
    splits = kfold_splits(y, n_splits, loss, rng)
    losses = split_losses(estimator, X, y, splits, loss, n_jobs)
    return _cv_wald_from_losses(losses, variance, alpha, n)


@validate_params({"variance": Options("within_fold", "all_pairs")})
def cv_wald_sigma(losses: Sequence[np.ndarray], variance: str = "within_fold") -> float:
    """The spread ``sigma`` of the naive K-fold Wald interval, from the K folds' losses.

    Bayle et al. (2020) give two estimates of the asymptotic variance ``sigma**2`` of
    ``sqrt(n) (CV - R)``:

    ``"within_fold"``
        ``sigma_in**2``, the mean over the folds of each fold's sample variance
        (``ddof=1``) of its out-of-fold losses;
    ``"all_pairs"``
        ``sigma_out**2``, the mean squared deviation (``ddof=0``) of all ``n``
        out-of-fold losses from their mean ``CV``.

    The same function serves chapter 10's paired test, whose "losses" are the
    per-point differences of two learners' losses on the same folds.

    Parameters
    ----------
    losses : sequence of array_like
        The out-of-fold losses of each of the K folds (finite; at least 2 folds, and
        at least 2 points in every fold for ``"within_fold"``).
    variance : {"within_fold", "all_pairs"}, default="within_fold"

    Returns
    -------
    float
        ``sigma`` (not squared), ``>= 0``.

    Examples
    --------
    >>> round(cv_wald_sigma([[0.0, 1.0], [1.0, 1.0]], "within_fold") ** 2, 4)  # (0.5 + 0) / 2
    0.25
    >>> round(cv_wald_sigma([[0.0, 1.0], [1.0, 1.0]], "all_pairs") ** 2, 4)    # 3/4 * 1/4
    0.1875
    """
    if isinstance(losses, np.ndarray) or not isinstance(losses, Sequence) or len(losses) < 2:
        raise ValueError("losses must be a sequence of at least 2 folds' loss arrays")
    parts = [
        check_finite_values(part, f"losses[{k}]", ndim=1, min_size=1)
        for k, part in enumerate(losses)
    ]
    if variance == "within_fold":
        small = [k for k, part in enumerate(parts) if part.size < 2]
        if small:
            raise ValueError(
                f"variance='within_fold' needs at least 2 points per fold; losses[{small[0]}] "
                "holds 1"
            )
        return math.sqrt(float(np.mean([np.var(part, ddof=1) for part in parts])))
    allv = np.concatenate(parts)
    return math.sqrt(float(np.mean((allv - allv.mean()) ** 2)))


def _cv_wald_from_losses(
    losses: Sequence[np.ndarray], variance: str, alpha: float, n: int
) -> RiskInterval:
    est = float(np.concatenate(losses).mean())
    half = _z(alpha) * cv_wald_sigma(losses, variance) / math.sqrt(n)
    k = len(losses)
    return RiskInterval(
        est, est - half, est + half, "cv_wald", "conditional", n - round(n / k), k, alpha
    )


# --------------------------------------------------------------------------- #
# Nadeau & Bengio (2003): corrected resampled t and conservative Z


@validate_params({"n_train": Interval("int", 1), "n_test": Interval("int", 1), "alpha": "alpha"})
def corrected_t_from_split_means(
    split_means: Any, n_train: int, n_test: int, alpha: float = 0.05
) -> tuple[float, float, float]:
    """Corrected resampled t interval from the mean test loss of each of J splits.

    ``mu ± t_{J-1} * sqrt((1/J + n_test/n_train) * S**2)``, where ``S**2`` is
    the sample variance of the ``J`` split means (Nadeau & Bengio 2003, their
    corrected resampled t).

    Parameters
    ----------
    split_means : array_like of shape (J,), J >= 2
        Finite mean test losses.
    n_train, n_test : int
        Training and test sizes of each split, positive integers (``n_test=0``
        would silently give the uncorrected t).
    alpha : float in (0, 1), default=0.05

    Returns
    -------
    (estimate, lower, upper)

    Examples
    --------
    >>> est, lo, hi = corrected_t_from_split_means([0.1, 0.2, 0.3], 90, 10, alpha=0.05)
    >>> round(est, 3), round(hi - est, 4)   # 4.3027 * sqrt((1/3 + 1/9) * 0.01)
    (0.2, 0.2868)
    """
    mus = check_finite_values(split_means, "split_means", ndim=1, min_size=2)
    alpha = float(alpha)
    J = mus.size
    est = float(mus.mean())
    se = math.sqrt((1 / J + n_test / n_train) * float(mus.var(ddof=1)))
    half = float(stats.t.ppf(1 - alpha / 2, J - 1)) * se
    return est, est - half, est + half


@validate_params(
    {**_INTERVAL, "n_splits": Interval("int", 2), "test_size": "test_size", "n_jobs": "n_jobs"}
)
def corrected_t_interval(
    estimator,
    X,
    y,
    *,
    loss: str = "zero_one",
    n_splits: int = 15,
    test_size: float | int = 0.1,
    alpha: float = 0.05,
    random_state=None,
    n_jobs: int | None = None,
) -> RiskInterval:
    """Nadeau & Bengio's corrected resampled t over ``J`` random train/test splits.

    The ``J`` split means are correlated (their training sets overlap), so
    their naive variance ``S**2 / J`` is far too small; Nadeau & Bengio
    inflate it to ``(1/J + n_test/n_train) S**2``.

    Parameters
    ----------
    estimator : estimator
    X, y : array_like
    loss : {"zero_one", "squared"}
    n_splits : int, default=15
        J, at least 2.
    test_size : float or int, default=0.1
        ``n_test`` (``n_2`` in the paper).
    alpha : float, default=0.05
    random_state : None, int or numpy Generator
    n_jobs : int or None

    Returns
    -------
    RiskInterval
        Target ``"expected"``: the learner's expected risk at ``n - n_test``
        points; J fits.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import Twonorm
    >>> X, y = Twonorm().sample(200, random_state=0)
    >>> r = corrected_t_interval(LinearDiscriminantAnalysis(), X, y, random_state=0)
    >>> r.method, r.target, r.n_fits, r.train_size
    ('corrected_t', 'expected', 15, 180)
    """
    alpha, X, y, n = _check_common(loss, alpha, X, y)
    y = check_target(y, loss)
    n_test = check_test_count_bound(test_size, n)
    rng = as_random_state(random_state)
    splits = random_splits(y, n_splits, n_test, loss, rng)
    means = [float(v.mean()) for v in split_losses(estimator, X, y, splits, loss, n_jobs)]
    est, lo, hi = corrected_t_from_split_means(means, n - n_test, n_test, alpha)
    return RiskInterval(est, lo, hi, "corrected_t", "expected", n - n_test, n_splits, alpha)


@validate_params(
    {
        **_INTERVAL,
        "n_splits": Interval("int", 1),
        "n_pairs": Interval("int", 1),
        "test_size": "test_size",
        "n_jobs": "n_jobs",
    }
)
def conservative_z_interval(
    estimator,
    X,
    y,
    *,
    loss: str = "zero_one",
    n_splits: int = 15,
    n_pairs: int = 10,
    test_size: float | int = 0.1,
    alpha: float = 0.05,
    random_state=None,
    n_jobs: int | None = None,
) -> RiskInterval:
    """Nadeau & Bengio's conservative Z.

    The estimate is the mean test loss over ``J`` random splits of all the
    data (as :func:`corrected_t_interval`). Its variance is bounded above
    from ``M`` pairs of *disjoint* half samples: on each half the same
    estimate is computed (J splits, same ``n_test``, training parts of
    ``n/2 - n_test`` points), and

    .. math:: \\hat\\sigma^2 = \\frac{1}{2M} \\sum_{m=1}^M (\\hat\\mu_{m,1} - \\hat\\mu_{m,2})^2 .

    The two halves share no point, so the squared difference is unbiased for
    twice the variance of an estimate from ``n/2`` points -- larger than the
    variance at ``n`` points, hence "conservative". The interval is
    ``mu ± z * sigma``.

    Parameters
    ----------
    estimator : estimator
    X, y : array_like
    loss : {"zero_one", "squared"}
    n_splits : int, default=15
        J, at least 1.
    n_pairs : int, default=10
        M, at least 1.
    test_size : float or int, default=0.1
        ``n_test``, of the whole sample; each half keeps the same count.
    alpha : float, default=0.05
    random_state : None, int or numpy Generator
    n_jobs : int or None

    Returns
    -------
    RiskInterval
        Target ``"expected"`` at ``n - n_test`` points; ``J (1 + 2M)`` fits.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import Twonorm
    >>> X, y = Twonorm().sample(200, random_state=0)
    >>> r = conservative_z_interval(LinearDiscriminantAnalysis(), X, y, n_splits=5, n_pairs=3,
    ...                             random_state=0)
    >>> r.method, r.n_fits
    ('conservative_z', 35)
    """
    alpha, X, y, n = _check_common(loss, alpha, X, y)
    y = check_target(y, loss)
    n_test = check_test_count_bound(test_size, n)
    half_n = n // 2
    if half_n - n_test < 2:
        raise ValueError(
            f"test_size leaves {half_n - n_test} training points in each half "
            f"sample of {half_n}: conservative Z needs n / 2 - n_test >= 2"
        )
    rng = as_random_state(random_state)
    splits = random_splits(y, n_splits, n_test, loss, rng)
    # the pairs of disjoint halves, and the J splits inside each half (indices into X)
    for _ in range(n_pairs):
        perm = _half_permutation(y, loss, rng)
        for part in (perm[:half_n], perm[half_n : 2 * half_n]):
            inner = random_splits(y[part], n_splits, n_test, loss, rng)
            splits.extend((part[tr], part[te]) for tr, te in inner)
    means = np.array([v.mean() for v in split_losses(estimator, X, y, splits, loss, n_jobs)])
    halves = means[n_splits:].reshape(n_pairs, 2, n_splits).mean(axis=2)
    est, lo, hi = conservative_z_from_means(means[:n_splits], halves, alpha)
    return RiskInterval(est, lo, hi, "conservative_z", "expected", n - n_test, len(splits), alpha)


@validate_params({"alpha": "alpha"})
def conservative_z_from_means(
    split_means: Any, half_means: Any, alpha: float = 0.05
) -> tuple[float, float, float]:
    """Conservative Z interval from the J split means and the M pairs of half-sample estimates.

    ``mu = mean(split_means)``; ``sigma**2 = sum_m (h[m, 0] - h[m, 1])**2 / (2 M)``;
    the interval is ``mu ± z_{1 - alpha/2} sigma``.

    Parameters
    ----------
    split_means : array_like of shape (J,)
        Mean test loss of each split of all the data.
    half_means : array_like of shape (M, 2)
        The estimate on each of the two disjoint halves of pair ``m``.
    alpha : float, default=0.05

    Returns
    -------
    (estimate, lower, upper)

    Examples
    --------
    >>> est, lo, hi = conservative_z_from_means([0.1, 0.2, 0.3], [[0.1, 0.3], [0.2, 0.2]])
    >>> round(est, 3), round(hi - est, 4)     # sigma**2 = 0.04 / 4; 1.96 * 0.1
    (0.2, 0.196)
    """
    mus = check_finite_values(split_means, "split_means", ndim=1, min_size=1)
    h = check_finite_values(half_means, "half_means", min_size=2)
    if h.ndim != 2 or h.shape[1] != 2 or h.shape[0] < 1:
        raise ValueError(f"half_means must have shape (M, 2) with M >= 1, got {h.shape}")
    alpha = float(alpha)
    est = float(mus.mean())
    sigma = math.sqrt(float(np.sum((h[:, 0] - h[:, 1]) ** 2)) / (2 * h.shape[0]))
    half = _z(alpha) * sigma
    return est, est - half, est + half


def _half_permutation(y: np.ndarray, loss: str, rng: np.random.Generator) -> np.ndarray:
    """A permutation whose first and second halves hold each class about equally (0-1 loss)."""
    n = len(y)
    if not _is_zero_one(loss):
        return rng.permutation(n)
    # deal each class alternately into the two halves, then shuffle each half
    first, second = [], []
    turn = 0
    for label in np.unique(y):
        idx = rng.permutation(np.flatnonzero(y == label))
        for j, i in enumerate(idx):
            (first if (j + turn) % 2 == 0 else second).append(i)
        turn = (turn + len(idx)) % 2
    first, second = rng.permutation(first), rng.permutation(second)
    if len(first) < len(second):
        first, second = second, first
    # len(first) = ceil(n/2): its surplus point goes last, outside both halves of size n // 2
    return np.concatenate([first[: n // 2], second, first[n // 2 :]]).astype(np.int64)


# --------------------------------------------------------------------------- #
# Nested cross-validation (Bates, Hastie & Tibshirani 2023)


def _nested_repetition(
    rng: np.random.Generator, estimator, X, y, n_splits: int, loss: str
) -> dict[str, np.ndarray]:
    """One repetition of nested CV: (a, b) terms per outer fold, inner and outer losses."""
    folds = [te for _, te in kfold_splits(y, n_splits, loss, rng)]
    K = n_splits
    n = len(y)
    everything = np.arange(n)
    # fits without two folds: losses on each of the two (Bates et al.'s inner CV, shared)
    pair_splits, pairs = [], []
    for f1 in range(K - 1):
        for f2 in range(f1 + 1, K):
            test = np.concatenate([folds[f1], folds[f2]])
            pair_splits.append((np.setdiff1d(everything, test), test))
            pairs.append((f1, f2))
    pair_losses = split_losses(estimator, X, y, pair_splits, loss)
    inner: dict[tuple[int, int], np.ndarray] = {}  # (scored fold, other left-out fold)
    for (f1, f2), losses in zip(pairs, pair_losses, strict=True):
        inner[(f1, f2)] = losses[: len(folds[f1])]
        inner[(f2, f1)] = losses[len(folds[f1]) :]
    outer = split_losses(estimator, X, y, [(np.setdiff1d(everything, f), f) for f in folds], loss)
    a = np.empty(K)
    b = np.empty(K)
    for f1 in range(K):
        e_in = np.concatenate([inner[(f2, f1)] for f2 in range(K) if f2 != f1])
        a[f1] = e_in.mean() - outer[f1].mean()
        b[f1] = np.var(outer[f1], ddof=1) / len(folds[f1])
    return {
        "a": a,
        "b": b,
        "inner": np.concatenate(list(inner.values())),
        "outer": np.concatenate(outer),
    }


@validate_params(
    {
        "n_splits": Interval("int", 2),
        "n": Interval("int"),
        "alpha": "alpha",
        "bias_correction": "boolean",
    }
)
def nested_cv_from_losses(
    a: Any,
    b: Any,
    inner: Any,
    outer: Any,
    n: int,
    n_splits: int,
    alpha: float = 0.05,
    bias_correction: bool = True,
) -> tuple[float, float, float, float]:
    """Bates, Hastie & Tibshirani's nested-CV interval from its ingredients.

    Parameters
    ----------
    a : array_like
        For every outer fold of every repetition, ``mean(inner CV losses on the
        other folds) - mean(losses on the held-out fold)``.
    b : array_like
        For the same folds, ``var(losses on the held-out fold) / fold size``.
    inner : array_like
        All inner-CV losses (each point K - 1 times per repetition).
    outer : array_like
        All outer losses (a K-fold CV per repetition).
    n : int
        Sample size.
    n_splits : int
        K.
    alpha : float, default=0.05
    bias_correction : bool, default=True

    Returns
    -------
    (estimate, lower, upper, inflation)
        ``MSE = mean(a**2) - mean(b)``; the standard error
        ``sd(inner) / sqrt(n) * inflation``, with
        ``inflation = sqrt(MSE) / (sd(inner) / sqrt(n (K - 1) / K))`` clipped to
        ``[1, sqrt(K)]``; the estimate ``mean(inner) - bias`` with
        ``bias = (mean(inner) - mean(outer)) * (1 + ((K - 2) / K) ** 1.5)``.

    Notes
    -----
    Decision (issue 20), the bias factor ``1 + ((K - 2) / K) ** 1.5``: it is
    the one of the authors' R package ``nestedcv`` (``R/core.R``, the same in
    every revision that has a bias step, up to its head). The inner losses
    come from models fit on ``n (K - 2) / K`` points, the outer ones on
    ``n (K - 1) / K``; the factor extrapolates their gap to ``n`` points. It
    differs from the ``1 + (K - 2) / K`` of mlr3inferr and oosse (exponent 1),
    and from a factor in ``(K - 2) / (K - 1)`` that issue 20 attributes to the
    R package but which no revision of it holds.

    Every input is checked: ``a``, ``b``, ``inner`` and ``outer`` finite and
    1-d (``inner`` at least 2 values), ``a`` and ``b`` of one length,
    ``b >= 0``, ``n >= n_splits >= 2`` integers, ``alpha`` in (0, 1),
    ``bias_correction`` a real boolean (the string ``"False"`` is refused).

    Examples
    --------
    >>> est, lo, hi, infl = nested_cv_from_losses([0.5, -0.5], [0.001, 0.001],
    ...     [0.0, 1.0, 0.0, 1.0], [0.0, 1.0, 1.0, 1.0], n=4, n_splits=2, alpha=0.05)
    >>> round(est, 4), round(infl, 4)  # bias (0.5 - 0.75) * 1; sqrt(0.249) / (0.5774 / sqrt(2))
    (0.75, 1.2223)
    """
    a = check_finite_values(a, "a", ndim=1, min_size=1)
    b = check_finite_values(b, "b", ndim=1, min_size=1)
    check_same_length(("a", a), ("b", b))
    if np.any(b < 0):
        raise ValueError(f"b must hold variances (>= 0), got {float(b.min())}")
    inner = check_finite_values(inner, "inner", ndim=1, min_size=2)
    outer = check_finite_values(outer, "outer", ndim=1, min_size=1)
    K, n = int(n_splits), int(n)
    if n < K:
        raise ValueError(f"n must be >= n_splits = {K} (each fold holds a point), got {n}")
    alpha = float(alpha)
    mse = float(np.mean(a**2) - np.mean(b))
    sd = float(np.std(inner, ddof=1))
    n_sub = math.floor(n * (K - 1) / K)
    if sd > 0:
        inflation = math.sqrt(max(0.0, mse)) / (sd / math.sqrt(n_sub))
        inflation = min(max(inflation, 1.0), math.sqrt(K))
    else:
        inflation = 1.0
    raw = float(inner.mean())
    bias = (raw - float(outer.mean())) * (1 + ((K - 2) / K) ** 1.5) if bias_correction else 0.0
    est = raw - bias
    half = _z(alpha) * sd / math.sqrt(n) * inflation
    return est, est - half, est + half, inflation


@validate_params(
    {
        **_INTERVAL,
        "n_repeats": Interval("int", 1),
        "bias_correction": "boolean",
        "n_jobs": "n_jobs",
    }
)
def nested_cv_interval(
    estimator,
    X,
    y,
    *,
    loss: str = "zero_one",
    n_splits: int = 5,
    n_repeats: int = 20,
    bias_correction: bool = True,
    alpha: float = 0.05,
    random_state=None,
    n_jobs: int | None = None,
) -> RiskInterval:
    """Bates, Hastie & Tibshirani's (2023) nested cross-validation interval.

    Each repetition draws K folds. For every outer fold ``k`` it runs a
    (K-1)-fold CV on the other folds -- the *inner* losses -- and scores the
    model fitted without fold ``k`` on fold ``k`` -- the *outer* losses. The
    squared gap between the two means, less the binomial-type noise of the
    outer mean, estimates the mean squared error of a CV estimate; that
    estimate, rescaled to ``n`` points, is the interval's standard error
    (see :func:`nested_cv_from_losses`). As in the authors' implementation,
    each inner fit leaves two folds out and is shared by both, so a
    repetition costs ``K (K - 1) / 2 + K`` fits; the bias correction reads the
    plain K-fold CV off the outer fits (the authors re-run a separate CV,
    same estimator, more fits).

    Parameters
    ----------
    estimator : estimator
    X, y : array_like
    loss : {"zero_one", "squared"}
    n_splits : int, default=5
        K, at least 3 (the inner CV needs 2 folds).
    n_repeats : int, default=20
        Repetitions over random fold assignments, at least 1 (the authors use
        50 or more for a stable standard error).
    bias_correction : bool, default=True
        Shift the estimate from training size ``n (K - 2) / K`` toward ``n``.
    alpha : float, default=0.05
    random_state : None, int or numpy Generator
    n_jobs : int or None
        Repetitions run in parallel, each with its own spawned generator
        (:func:`cvbook.simulation.repeat`), so the result does not depend on it.

    Returns
    -------
    RiskInterval
        Target ``"conditional"``: the risk of the model fitted on all ``n``
        points (Bates et al.'s ``Err_XY``).

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import Twonorm
    >>> X, y = Twonorm().sample(100, random_state=0)
    >>> r = nested_cv_interval(LinearDiscriminantAnalysis(), X, y, n_repeats=2, random_state=0)
    >>> r.method, r.target, r.n_fits, r.train_size
    ('nested_cv', 'conditional', 30, 100)
    """
    alpha, X, y, n = _check_common(loss, alpha, X, y)
    y = check_target(y, loss)
    n_splits = check_int(n_splits, "n_splits", minimum=3, maximum=n // 2)
    seed = _seed(as_random_state(random_state))
    reps = repeat(
        _nested_repetition,
        n_repeats,
        random_state=seed,
        n_jobs=n_jobs,
        estimator=estimator,
        X=X,
        y=y,
        n_splits=n_splits,
        loss=loss,
    )
    parts = {key: np.concatenate([r[key] for r in reps]) for key in reps[0]}
    est, lo, hi, _ = nested_cv_from_losses(
        parts["a"], parts["b"], parts["inner"], parts["outer"], n, n_splits, alpha, bias_correction
    )
    n_fits = n_repeats * (n_splits * (n_splits - 1) // 2 + n_splits)
    return RiskInterval(est, lo, hi, "nested_cv", "conditional", n, n_fits, alpha)


#: The interval methods, by the name in ``RiskInterval.method``, with a label.
INTERVAL_METHODS: dict[str, str] = {
    "holdout_wald": "hold-out, Wald",
    "holdout_cp": "hold-out, Clopper–Pearson",
    "cv_wald": "naive K-fold Wald (Bayle et al.)",
    "corrected_t": "corrected resampled t (Nadeau–Bengio)",
    "conservative_z": "conservative Z (Nadeau–Bengio)",
    "nested_cv": "nested CV (Bates et al.)",
}
