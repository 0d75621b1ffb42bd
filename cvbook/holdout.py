"""Hold-out: one split into a training and a validation set (chapter 2).

Split the sample ``S`` once (typically 70/30), train on the first part and
measure the error on the second. The same split selects a model among
candidates (:func:`holdout_select`); the selected model is then usually
retrained on all of ``S``. Every function returns the per-split risks, not
only a mean, so that a chapter can show their spread.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit, train_test_split

from .risk import LOSS, Loss, check_target, empirical_risk, score_splits
from .validation import (
    Interval,
    as_random_state,
    check_1d_labels,
    check_candidates,
    check_estimator_arg,
    check_test_fraction,
    check_xy,
    validate_params,
)

__all__ = [
    "Selection",
    "clone_estimator",
    "holdout_risk",
    "holdout_risks",
    "holdout_select",
    "holdout_split",
    "stratified_indices",
]


def clone_estimator(estimator: Any, name: str = "estimator") -> Any:
    """An unfitted copy of ``estimator`` made by :func:`sklearn.base.clone`.

    A bad ``estimator`` gets the package's one estimator check,
    :func:`cvbook.validation.check_estimator_arg` (an :class:`ArgumentTypeError`, which
    is a ``TypeError`` and a ``ValueError``, naming the parameter).

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> clone_estimator(SVC(C=3.0)).C
    3.0
    >>> clone_estimator("svm")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: estimator must be a scikit-learn estimator ...
    """
    return clone(check_estimator_arg(estimator, name))


def _split_seed(random_state: Any) -> np.random.RandomState:
    """The package's seed rule, as the RandomState scikit-learn's splitters take."""
    return as_random_state(random_state, to="randomstate")


#: What a hold-out split accepts (each function adds its own arguments).
_SPLIT = {"test_size": check_test_fraction, "stratify": "boolean", "random_state": "random_state"}


@validate_params(_SPLIT)
def holdout_split(
    X: Any, y: Any, test_size: float = 0.3, stratify: bool = False, random_state: Any = None
) -> tuple[np.ndarray, ...]:
    """Split ``(X, y)`` once into training and validation parts.

    A thin, checked wrapper of :func:`sklearn.model_selection.train_test_split`.

    Parameters
    ----------
    X : array_like of shape (m, d)
    y : array_like of shape (m,)
    test_size : float, default=0.3
        Fraction of the points held out for validation, strictly in (0, 1).
    stratify : bool, default=False
        Keep the class proportions of ``y`` in both parts.
    random_state : None, int, Generator, RandomState or SeedSequence
        Seed of the split.

    Returns
    -------
    X_train, X_val, y_train, y_val : ndarray

    Examples
    --------
    >>> import numpy as np
    >>> X, y = np.arange(20).reshape(10, 2), np.array([-1, 1] * 5)
    >>> X_tr, X_va, y_tr, y_va = holdout_split(X, y, test_size=0.3, random_state=0)
    >>> len(y_tr), len(y_va)
    (7, 3)
    """
    test_size = float(test_size)
    X, y = check_xy(X, y)
    _check_parts(y, test_size, stratify)
    return tuple(
        train_test_split(
            X,
            y,
            test_size=test_size,
            random_state=_split_seed(random_state),
            stratify=y if stratify else None,
        )
    )


def _check_parts(y: np.ndarray, test_size: float, stratify: bool) -> None:
    """Both parts of a hold-out split non-empty (scikit-learn's rounding: the test part
    is ``ceil(test_size m)``), and, with ``stratify``, room for every class in each."""
    m = len(y)
    n_test = int(np.ceil(test_size * m))
    if n_test < 1 or m - n_test < 1:
        raise ValueError(
            f"test_size={test_size} leaves {n_test} test and {m - n_test} training points "
            f"of m={m}: both parts need at least one point"
        )
    if stratify:
        labels, counts = np.unique(y, return_counts=True)
        if counts.min() < 2:
            raise ValueError(
                f"stratify=True needs at least 2 points of every class, but class "
                f"{labels[np.argmin(counts)].item()!r} of y has {counts.min()}"
            )
        if min(n_test, m - n_test) < len(labels):
            raise ValueError(
                f"stratify=True needs at least one point of each of the {len(labels)} "
                f"classes in both parts, but test_size={test_size} gives {n_test} test and "
                f"{m - n_test} training points"
            )


@validate_params({"estimator": "estimator", **_SPLIT, "loss": LOSS})
def holdout_risk(
    estimator: Any,
    X: Any,
    y: Any,
    test_size: float = 0.3,
    stratify: bool = False,
    random_state: Any = None,
    loss: Loss = "zero_one",
) -> float:
    """Validation risk of ``estimator`` trained on one random training part.

    Parameters
    ----------
    estimator : scikit-learn estimator
        Cloned before fitting; the argument is left untouched.
    X, y, test_size, stratify, random_state
        As in :func:`holdout_split`.
    loss : str or callable, default="zero_one"
        As in :func:`cvbook.risk.empirical_risk`.

    Returns
    -------
    float
        The empirical risk on the validation part.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> X, y = TwoGaussians().sample(100, random_state=0)
    >>> r = holdout_risk(LinearDiscriminantAnalysis(), X, y, random_state=0)
    >>> 0.0 <= r <= 1.0
    True
    """
    model = clone(estimator)
    check_target(y, loss)
    X_tr, X_va, y_tr, y_va = holdout_split(X, y, test_size, stratify, random_state)
    model.fit(X_tr, y_tr)
    return empirical_risk(y_va, model.predict(X_va), loss=loss)


@validate_params({"estimator": "estimator", **_SPLIT, "n_splits": Interval("int", 1), "loss": LOSS})
def holdout_risks(
    estimator: Any,
    X: Any,
    y: Any,
    test_size: float = 0.3,
    n_splits: int = 10,
    stratify: bool = False,
    random_state: Any = None,
    loss: Loss = "zero_one",
) -> np.ndarray:
    """Validation risks of ``estimator`` over ``n_splits`` random hold-out splits.

    Each split is drawn independently by :class:`~sklearn.model_selection.ShuffleSplit`
    (or :class:`~sklearn.model_selection.StratifiedShuffleSplit`); their spread
    is the spread of the hold-out estimate due to the split alone.

    Parameters
    ----------
    estimator, X, y, test_size, stratify, loss
        As in :func:`holdout_risk`.
    n_splits : int, default=10
        Number of random splits, >= 1.
    random_state : None, int, Generator, RandomState or SeedSequence
        Seed of the splits.

    Returns
    -------
    ndarray of shape (n_splits,)
        One validation risk per split.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> X, y = TwoGaussians().sample(100, random_state=0)
    >>> holdout_risks(LinearDiscriminantAnalysis(), X, y, n_splits=4, random_state=0).shape
    (4,)
    """
    test_size = float(test_size)
    X, y = check_xy(X, y)
    check_target(y, loss)
    _check_parts(y, test_size, stratify)
    splitter_cls = StratifiedShuffleSplit if stratify else ShuffleSplit
    splitter = splitter_cls(
        n_splits=n_splits, test_size=test_size, random_state=_split_seed(random_state)
    )
    score = lambda y_val, y_pred: empirical_risk(y_val, y_pred, loss=loss)  # noqa: E731
    return np.asarray(score_splits(estimator, X, y, splitter.split(X, y), score))


@dataclass(frozen=True)
class Selection:
    """The outcome of selecting one model among candidates.

    Attributes
    ----------
    candidates : list
        The candidate estimators, unfitted, in the order given.
    risks : ndarray
        Estimated risk of each candidate: shape ``(n_candidates,)`` for hold-out,
        ``(n_candidates, n_splits)`` (one column per fold) for K-fold.
    best_index : int
        Index of the candidate with the smallest estimated risk (first on ties).
    best_estimator : estimator
        The selected candidate, fitted on all of ``S`` when ``refit=True``,
        else on the training part only (hold-out) or unfitted (K-fold).
    """

    candidates: list
    risks: np.ndarray
    best_index: int
    best_estimator: Any

    def __post_init__(self) -> None:
        risks = np.asarray(self.risks)
        if risks.ndim not in (1, 2) or risks.shape[0] == 0:
            raise ValueError(
                f"risks must hold one risk (or one row of fold risks) per candidate, got "
                f"shape {risks.shape}"
            )
        n = risks.shape[0]
        if isinstance(self.best_index, bool) or not isinstance(self.best_index, (int, np.integer)):
            raise TypeError(f"best_index must be an integer, got {self.best_index!r}")
        if not 0 <= self.best_index < n:
            raise ValueError(f"best_index must be in [0, {n}), got {self.best_index}")

    @property
    def mean_risks(self) -> np.ndarray:
        """Estimated risk of each candidate (the mean over folds for K-fold)."""
        r = np.asarray(self.risks, dtype=float)
        return r if r.ndim == 1 else r.mean(axis=1)

    @property
    def best_risk(self) -> float:
        """Estimated risk of the selected candidate: an optimistic number."""
        return float(self.mean_risks[self.best_index])


@validate_params({"candidates": check_candidates, **_SPLIT, "refit": "boolean", "loss": LOSS})
def holdout_select(
    candidates: Sequence[Any],
    X: Any,
    y: Any,
    test_size: float = 0.3,
    stratify: bool = False,
    random_state: Any = None,
    refit: bool = True,
    loss: Loss = "zero_one",
) -> Selection:
    """Select among candidate models by their error on one validation part.

    The hold-out procedure of Ng's lecture notes on cross-validation: split ``S``
    into ``S_train`` and ``S_cv``, train each candidate on ``S_train``, keep the one with the
    smallest error on ``S_cv`` and (with ``refit=True``) retrain it on all of ``S``.

    Parameters
    ----------
    candidates : sequence of estimators
        The models to choose from (e.g. one SVM per value of ``C``).
    X, y, test_size, stratify, random_state, loss
        As in :func:`holdout_risk`; every candidate sees the same split.
    refit : bool, default=True
        Retrain the selected model on all of ``(X, y)``. With ``False`` the
        returned model is the one trained on the training part.

    Returns
    -------
    Selection

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> from cvbook.datasets import TwoGaussians
    >>> X, y = TwoGaussians().sample(100, random_state=0)
    >>> sel = holdout_select([SVC(C=c) for c in (0.01, 1.0)], X, y, random_state=0)
    >>> sel.risks.shape, sel.best_index in (0, 1)
    ((2,), True)
    """
    candidates = list(candidates)
    check_target(y, loss)
    X_tr, X_va, y_tr, y_va = holdout_split(X, y, test_size, stratify, random_state)
    fitted, risks = [], []
    for est in candidates:
        model = clone(est).fit(X_tr, y_tr)
        fitted.append(model)
        risks.append(empirical_risk(y_va, model.predict(X_va), loss=loss))
    risks = np.asarray(risks)
    best = int(np.argmin(risks))
    if refit:
        X, y = check_xy(X, y)
        best_model = clone(candidates[best]).fit(X, y)
    else:
        best_model = fitted[best]
    return Selection(candidates=candidates, risks=risks, best_index=best, best_estimator=best_model)


@validate_params({"random_state": "random_state"})
def stratified_indices(
    y: Any, test_size: float | int = 0.3, random_state: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """Random train and test indices that keep every class in *both* parts.

    Each class gets a share of the test part proportional to its size, rounded,
    but never fewer than one point nor all of its points. Scikit-learn's
    stratified splitters only approximate the proportions, and can leave a rare
    class out of a small part; here a part with one class cannot happen, which
    is what a learner fitted on a few points needs.

    Parameters
    ----------
    y : array_like of shape (m,)
        Labels; every class must hold at least 2 points (see
        :func:`cvbook.risk.draw_sample`).
    test_size : float in (0, 1) or int
        Fraction of the points to test on (rounded up, as ``train_test_split``
        does), or their number; it must leave at least one point of each class
        on each side.
    random_state : None, int, Generator, RandomState or SeedSequence

    Returns
    -------
    train, test : numpy.ndarray of int
        Disjoint, together ``range(m)``, each in random order.

    Examples
    --------
    >>> y = np.array([1, 1, -1, -1, -1, -1, -1, -1, -1, -1])
    >>> train, test = stratified_indices(y, test_size=2, random_state=0)
    >>> sorted(y[test].tolist()), len(train)
    ([-1, 1], 8)
    """
    y = check_1d_labels(y, "y")
    m = len(y)
    classes, inverse, counts = np.unique(y, return_inverse=True, return_counts=True)
    if counts.min() < 2:
        found = dict(zip(classes.tolist(), counts.tolist(), strict=True))
        raise ValueError(
            f"y must hold at least 2 points of every class to keep each class in "
            f"both parts, got {found}"
        )
    if isinstance(test_size, (int, np.integer)) and not isinstance(test_size, bool):
        n_test = int(test_size)
    else:
        n_test = int(np.ceil(check_test_fraction(test_size) * m))
    k = len(classes)
    if not k <= n_test <= m - k:
        raise ValueError(
            f"test_size must leave at least one point of each of the {k} classes "
            f"on each side: a test part of {n_test} of m={m} points is outside "
            f"[{k}, {m - k}]"
        )
    rng = as_random_state(random_state)
    share = counts * n_test / m
    alloc = np.clip(np.round(share), 1, counts - 1).astype(int)
    while alloc.sum() != n_test:  # fix the rounding, within [1, count - 1]
        if alloc.sum() < n_test:
            room = np.where(alloc < counts - 1, share - alloc, -np.inf)
            alloc[int(np.argmax(room))] += 1
        else:
            room = np.where(alloc > 1, alloc - share, -np.inf)
            alloc[int(np.argmax(room))] -= 1
    test = np.concatenate(
        [rng.permutation(np.flatnonzero(inverse == c))[: alloc[c]] for c in range(k)]
    )
    train = np.setdiff1d(np.arange(m), test)
    return rng.permutation(train), rng.permutation(test)
