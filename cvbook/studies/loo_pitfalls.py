"""Chapter 4's studies: leave-one-out and K-fold estimates of ridge regression over many
data sets, the failures of small samples, and the majority vote's LOO error."""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import ArrayLike
from sklearn.model_selection import LeaveOneOut

from ..book import int_seed
from ..loo import ridge_loo_mse
from ..validation import (
    ArgumentTypeError,
    check_1d_labels,
    check_cv,
    check_distribution,
    check_float,
    check_int,
    check_random_state,
    check_target_for_loss,
)

__all__ = [
    "majority_vote_loo",
    "majority_vote_loo_distribution",
    "ridge_estimates_and_risks",
    "single_class_part",
    "small_sample_failures",
]


def ridge_estimates_and_risks(
    rng: np.random.Generator, distribution, m: int, alpha: float, ks: Sequence[int] = (2, 5, 10)
) -> dict:
    """One data set of chapter 4's bias study: LOO and K-fold estimates, and true risks.

    Draws ``m`` points from ``distribution`` (a regression distribution, which must
    offer ``sample`` and the exact squared-loss risk ``linear_rule_risk`` of a linear
    rule, as :class:`cvbook.datasets.LinearGaussianRegression` does; one that draws
    class labels, such as :class:`~cvbook.datasets.TwoGaussians`, is refused by name),
    and returns

    * ``"estimates"``: the LOO estimate of the squared-loss risk of
      ``Ridge(alpha)`` (closed form) and the shuffled K-fold estimate for each ``K``
      in ``ks``, keyed ``"LOO"`` and ``"K-fold"`` (the mean of the fold risks, the
      folds from ``KFold(K, shuffle=True)``, ridge fitted on each training part);
    * ``"train_size"``: the training size each estimate's models use: ``m - 1``
      for LOO, ``m - m // K`` for K-fold (the size of most of its training parts);
    * ``"risks"``: the true risk of ridge trained on the first ``n`` points of the
      same data set, for every such ``n`` and for ``n = m``.

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness.
    distribution : object with ``sample(m, random_state)`` and ``linear_rule_risk(w, b)``
        A regression distribution: its ``y`` must be continuous.
    m : int
        Points per data set, ``>= max(ks)`` and ``>= 3``.
    alpha : float
        Ridge penalty, ``> 0``.
    ks : sequence of int
        Numbers of folds, each in ``[2, m]``.

    Returns
    -------
    dict

    Examples
    --------
    >>> import numpy as np
    >>> from cvbook.datasets import LinearGaussianRegression
    >>> out = ridge_estimates_and_risks(np.random.default_rng(0),
    ...                                 LinearGaussianRegression(dim=2), m=10, alpha=1.0)
    >>> sorted(out["estimates"]), out["train_size"]["LOO"], sorted(out["risks"])
    (['10-fold', '2-fold', '5-fold', 'LOO'], 9, [5, 8, 9, 10])
    """
    from sklearn.model_selection import KFold
    from sklearn.utils.multiclass import type_of_target

    rng = check_random_state(rng, "rng")
    m = check_int(m, "m", minimum=3)
    alpha = check_float(alpha, "alpha", minimum=0.0, exclusive=True)
    ks = [check_int(k, "ks", minimum=2, maximum=m) for k in ks]
    for method in ("sample", "linear_rule_risk"):
        if not callable(getattr(distribution, method, None)):
            raise ArgumentTypeError(
                f"distribution must offer {method}(), got {type(distribution).__name__}"
            )
    X, y = distribution.sample(m, random_state=int_seed(rng))
    kind = type_of_target(y)
    if kind != "continuous":
        raise ArgumentTypeError(
            f"distribution must be a regression distribution (a continuous y, such as "
            f"LinearGaussianRegression), but {type(distribution).__name__} drew a {kind} "
            "target: ridge's squared-loss study does not apply to class labels"
        )
    estimates = {"LOO": ridge_loo_mse(X, y, alpha)}
    train_size = {"LOO": m - 1}
    for k in ks:
        folds = KFold(k, shuffle=True, random_state=int_seed(rng)).split(X)
        fold_risks = []
        for train, test in folds:
            w, b = _ridge_fit(X[train], y[train], alpha)
            fold_risks.append(np.mean((y[test] - X[test] @ w - b) ** 2))
        estimates[f"{k}-fold"] = float(np.mean(fold_risks))
        train_size[f"{k}-fold"] = m - m // k
    risks = {}
    for n in sorted(set(train_size.values()) | {m}):
        w, b = _ridge_fit(X[:n], y[:n], alpha)
        risks[n] = float(distribution.linear_rule_risk(w, b))
    return {"estimates": estimates, "train_size": train_size, "risks": risks}


def _ridge_fit(X: np.ndarray, y: np.ndarray, alpha: float) -> tuple[np.ndarray, float]:
    """``Ridge(alpha, fit_intercept=True).fit(X, y)``'s ``coef_`` and ``intercept_``.

    The same normal equations on centred data, without scikit-learn's per-call
    validation (which costs more than the solve at this size).
    """
    x_mean, y_mean = X.mean(axis=0), y.mean()
    Xc = X - x_mean
    w = np.linalg.solve(Xc.T @ Xc + alpha * np.eye(X.shape[1]), Xc.T @ (y - y_mean))
    return w, float(y_mean - x_mean @ w)


def single_class_part(y: ArrayLike, splits: Iterable) -> bool:
    """Whether some training part of ``splits`` holds a single class (or none).

    On such a part a classifier cannot be fitted (logistic regression and most others
    refuse one class) or cannot predict the other class, so the cross-validation
    estimate cannot be computed as intended. A data set with one class only fails
    on every split.

    Parameters
    ----------
    y : array_like of shape (m,)
        Labels.
    splits : iterable of (train, test) index arrays
        For example ``KFold(3).split(X)``.

    Returns
    -------
    bool

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import KFold
    >>> y = np.array([1, 1, -1, -1, -1, -1])
    >>> single_class_part(y, KFold(3).split(y))     # the first fold takes both positives
    True
    """
    y = check_1d_labels(y, "y")
    if isinstance(splits, numbers.Integral) or (
        hasattr(splits, "split") and hasattr(splits, "get_n_splits")
    ):
        raise ArgumentTypeError(
            "splits must be an iterable of (train, test) index arrays, such as "
            f"KFold(3).split(X); got {type(splits).__name__} (call its split method)"
        )
    splits = check_cv(splits, "splits", n_samples=y.size)
    return any(np.unique(y[train]).size < 2 for train, _ in splits)


def small_sample_failures(
    rng: np.random.Generator, distribution, m: int, ks: Sequence[int] = (2, 3, 5)
) -> dict:
    """One tiny data set: which cross-validations leave a training part with one class.

    Draws ``m`` labelled points from ``distribution`` and, for each ``K`` in ``ks``,
    checks shuffled ``KFold`` (what chapter 3's :func:`cvbook.kfold.kfold_risks` uses by
    default) and ``StratifiedKFold`` (scikit-learn's default for a classifier in
    ``cross_val_score``), then LOO, with :func:`single_class_part`.

    A draw with a class of fewer than 2 points is not special-cased: every method fails
    on it (the training part without that point has one class, or the class is
    absent), and it is counted like any other draw. StratifiedKFold's warning that a
    class has fewer than ``K`` members is silenced here; the chapter shows it.

    Parameters
    ----------
    rng : numpy.random.Generator
    distribution : object with ``sample(m, random_state)`` returning ``(X, y)``
    m : int
        Points per data set, ``>= max(ks)``.
    ks : sequence of int
        Numbers of folds, each in ``[2, m]``.

    Returns
    -------
    dict
        ``"{K}-fold shuffled"`` and ``"{K}-fold stratified"`` for each K, and ``"LOO"``:
        True where a training part holds one class; ``"minority"``: the size of the
        smaller class (0 if there is one class only).

    Examples
    --------
    >>> import numpy as np
    >>> from cvbook.datasets import TwoGaussians
    >>> out = small_sample_failures(np.random.default_rng(0), TwoGaussians(prior=0.3), 12)
    >>> out["LOO"] == (out["minority"] < 2) == out["3-fold stratified"]
    True
    """
    import warnings

    from sklearn.model_selection import KFold, StratifiedKFold

    rng = check_random_state(rng, "rng")
    m = check_int(m, "m", minimum=2)
    ks = [check_int(k, "ks", minimum=2, maximum=m) for k in ks]
    check_distribution(distribution)
    X, y = distribution.sample(m, random_state=int_seed(rng))
    y = check_1d_labels(y, "y")
    out: dict = {}
    for k in ks:
        shuffled = KFold(k, shuffle=True, random_state=int_seed(rng))
        stratified = StratifiedKFold(k, shuffle=True, random_state=int_seed(rng))
        out[f"{k}-fold shuffled"] = single_class_part(y, shuffled.split(X))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "least populated class ..."
            out[f"{k}-fold stratified"] = single_class_part(y, stratified.split(X, y))
    out["LOO"] = single_class_part(y, LeaveOneOut().split(X))
    counts = [int(np.sum(y == c)) for c in np.unique(y)]
    out["minority"] = min(counts) if len(counts) > 1 else 0
    return out


def majority_vote_loo(y: ArrayLike) -> float:
    """Exact LOO 0-1 error of the majority vote, by counting instead of ``m`` refits.

    The learner is ``DummyClassifier(strategy="most_frequent")``: it predicts the
    most frequent label of its training set, a tie going to the smallest label (the
    first of scikit-learn's sorted ``classes_``). Leaving point ``i`` out removes one
    vote for its own label, so the prediction for it depends only on the label counts.

    Parameters
    ----------
    y : array_like of shape (m,)
        Class labels, ``m >= 2``; any number of classes (with three or more, the vote
        is the most frequent of them). A continuous target is refused (the majority
        vote is a classifier).

    Returns
    -------
    float

    Examples
    --------
    >>> majority_vote_loo([-1, 1, -1, 1])      # balanced: every point is outvoted
    1.0
    >>> majority_vote_loo([-1, -1, -1, 1])     # only the lone positive is wrong
    0.25
    """
    y = check_target_for_loss(y, "zero_one", "y")
    if y.size < 2:
        raise ValueError(f"y must hold at least 2 labels for leave-one-out, got {y.size}")
    _, counts = np.unique(y, return_counts=True)
    wrong = 0
    for j, c in enumerate(counts):
        without = counts.copy()
        without[j] -= 1
        if without.max() == 0:  # pragma: no cover - m >= 2 leaves a vote
            continue
        predicted = int(np.argmax(without))  # first (smallest) label among ties
        wrong += c * (predicted != j)
    return float(wrong / y.size)


def majority_vote_loo_distribution(m: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact distribution of :func:`majority_vote_loo` on ``m`` labels, each ±1 w.p. 1/2.

    The LOO error depends on the data only through the number ``n`` of positives,
    which is Binomial(m, 1/2).

    Parameters
    ----------
    m : int
        Number of points, ``>= 2``.

    Returns
    -------
    values, probabilities : ndarray, ndarray
        The LOO error for ``n = 0..m`` positives and its probability.

    Examples
    --------
    >>> values, p = majority_vote_loo_distribution(10)
    >>> float(np.round(p @ values, 12))       # unbiased: the risk of the vote is 1/2
    0.5
    """
    from scipy.stats import binom

    m = check_int(m, "m", minimum=2)
    values = np.array([majority_vote_loo(np.r_[-np.ones(m - n), np.ones(n)]) for n in range(m + 1)])
    return values, binom.pmf(np.arange(m + 1), m, 0.5)
