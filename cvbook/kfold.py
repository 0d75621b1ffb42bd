"""K-fold cross-validation (chapter 3).

Split the sample ``S`` of ``m`` points into ``K`` folds; for each fold, train
on the other ``K - 1`` folds and measure the error on the fold left out. The
K-fold estimate of the risk is the **mean** of the ``K`` fold risks
(Mohri, Rostamizadeh and Talwalkar, *Foundations of Machine Learning*, §4.5).

* :func:`kfold_risks` returns every fold's risk and size (a :class:`FoldRisks`),
  on top of scikit-learn's :class:`~sklearn.model_selection.KFold` /
  :class:`~sklearn.model_selection.StratifiedKFold` and :func:`~sklearn.base.clone`.
* :func:`kfold_from_scratch` is the same procedure written out with numpy, as the
  chapter teaches it; a test shows it equals
  :func:`sklearn.model_selection.cross_val_score` on the same folds.
* :func:`kfold_select` and :func:`nested_kfold` select a model.

The chapter's experiments (the bias and variance of the estimate over data sets, the
selection study and its candidate grids) are :mod:`cvbook.studies.bias_variance` and
:mod:`cvbook.studies.selection`; the uncertainty of its comparisons is :mod:`cvbook.stats`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import KFold, StratifiedKFold

from .holdout import Selection
from .risk import LOSS, Loss, check_target, empirical_risk, score_splits
from .validation import (
    Interval,
    as_random_state,
    check_1d_labels,
    check_candidates,
    check_cv,
    check_finite_values,
    check_int,
    check_integer_array,
    check_n_splits,
    check_n_splits_bound,
    check_train_test_splits,
    check_xy,
    validate_params,
)

__all__ = [
    "FoldRisks",
    "NestedResult",
    "check_n_splits",
    "checked_kfold",
    "kfold_from_scratch",
    "kfold_indices",
    "kfold_risks",
    "kfold_select",
    "make_kfold",
    "nested_kfold",
]


#: What a K-fold split accepts. ``n_splits`` is declared an int >= 2 here; its bound
#: ``n_splits <= m`` needs the data and is the body's (``check_n_splits_bound``), once.
_SPLIT = {"n_splits": Interval("int", 2), "stratify": "boolean", "random_state": "random_state"}


@validate_params({**_SPLIT, "shuffle": "boolean"})
def make_kfold(
    n_splits: int = 5,
    y: Any = None,
    m: int | None = None,
    stratify: bool = False,
    shuffle: bool = True,
    random_state: Any = None,
) -> KFold | StratifiedKFold:
    """A checked scikit-learn K-fold splitter for ``m`` points.

    Parameters
    ----------
    n_splits : int, default=5
        The number of folds ``K``, with ``2 <= K <= m``.
    y : array_like of shape (m,), optional
        The labels; needed with ``stratify=True``, and gives ``m`` if ``m`` is None.
    m : int, optional
        The number of points, if ``y`` is not given.
    stratify : bool, default=False
        Use :class:`~sklearn.model_selection.StratifiedKFold`: every fold keeps
        the class proportions. Every class must then have at least ``K`` members.
    shuffle : bool, default=True
        Shuffle the points before cutting them into folds.
    random_state : None, int, Generator, RandomState or SeedSequence
        Seed of the shuffle (ignored when ``shuffle=False``), by the book's one seed rule
        (``cvbook.validation.check_random_state``): an int gives scikit-learn's folds for
        that int; a Generator or SeedSequence seeds a RandomState from one draw.

    Returns
    -------
    KFold or StratifiedKFold

    Examples
    --------
    >>> cv = make_kfold(3, m=10, random_state=0)
    >>> [len(test) for _, test in cv.split(range(10))]
    [4, 3, 3]
    """
    if y is not None:
        y = check_1d_labels(y, "y")
        if m is not None and check_int(m, "m", minimum=1) != len(y):
            raise ValueError(f"m must be the number of labels in y ({len(y)}), got {m}")
    if m is None:
        if y is None:
            raise ValueError("y or m must be given, to know the number of points")
        m = len(y)
    m = check_int(m, "m", minimum=1)
    n_splits = check_n_splits_bound(n_splits, m)
    if stratify and y is None:
        raise ValueError("y must be given when stratify=True")
    return checked_kfold(n_splits, y, stratify, shuffle, random_state)


@validate_params({**_SPLIT, "shuffle": "boolean"})
def checked_kfold(
    n_splits: int, y: Any, stratify: bool, shuffle: bool, random_state: Any
) -> KFold | StratifiedKFold:
    """:func:`make_kfold` once its arguments are checked (``n_splits`` an int in ``[2, m]``;
    ``y`` given when ``stratify``): a caller that checked the bound of its own
    ``n_splits`` once, under its own name, builds its folds here without a second bound
    check (its declared arguments are skipped inside a checked call, as everywhere).
    Only the stratified split's class sizes, which need ``y``, are checked.

    Examples
    --------
    >>> checked_kfold(3, None, stratify=False, shuffle=True, random_state=0)
    KFold(n_splits=3, random_state=0, shuffle=True)
    """
    int_seed = random_state is None or isinstance(random_state, (int, np.integer))
    rs = as_random_state(random_state, to="seed" if int_seed else "randomstate")
    rs = rs if shuffle else None
    if stratify:
        labels, counts = np.unique(np.asarray(y), return_counts=True)
        if counts.min() < n_splits:
            small = labels[np.argmin(counts)].item()
            raise ValueError(
                f"n_splits={n_splits} is too large for stratify=True: class {small!r} of y "
                f"has only {counts.min()} members, and every class needs at least n_splits"
            )
        return StratifiedKFold(n_splits=n_splits, shuffle=shuffle, random_state=rs)
    return KFold(n_splits=n_splits, shuffle=shuffle, random_state=rs)


@validate_params({"n_splits": Interval("int", 2), "random_state": "random_state"})
def kfold_indices(m: int, n_splits: int, random_state: Any = None) -> list[np.ndarray]:
    """The ``K`` test folds of ``m`` points, from scratch: shuffle, then cut.

    The first ``m % K`` folds get one point more; each fold is returned sorted.
    With an int ``random_state`` these are exactly the test folds of
    ``KFold(n_splits, shuffle=True, random_state=random_state)``.

    Examples
    --------
    >>> [f.tolist() for f in kfold_indices(7, 3, random_state=0)]
    [[1, 2, 6], [0, 3], [4, 5]]
    """
    m = check_int(m, "m", minimum=1)
    n_splits = check_n_splits_bound(n_splits, m)
    order = np.arange(m)
    as_random_state(random_state, to="randomstate").shuffle(order)
    return [np.sort(fold) for fold in np.array_split(order, n_splits)]


@validate_params(
    {
        "estimator": "estimator",
        "n_splits": Interval("int", 2),
        "random_state": "random_state",
        "loss": LOSS,
    }
)
def kfold_from_scratch(
    estimator: Any,
    X: Any,
    y: Any,
    n_splits: int = 5,
    random_state: Any = None,
    loss: Loss = "zero_one",
) -> np.ndarray:
    """K-fold cross-validation written out: the fold risks ``R_1, ..., R_K``.

    For each fold ``S_j``: train on ``S`` without ``S_j``, test on ``S_j``.

    Parameters
    ----------
    estimator : scikit-learn estimator
        Cloned for every fold.
    X : array_like of shape (m, d)
    y : array_like of shape (m,)
    n_splits : int, default=5
        ``K``, with ``2 <= K <= m``.
    random_state : int, RandomState or None
        Seed of the shuffle that assigns points to folds.
    loss : str or callable, default="zero_one"
        As in :func:`cvbook.risk.empirical_risk`.

    Returns
    -------
    ndarray of shape (K,)
        The risk measured on each fold; their mean is the K-fold estimate.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> X, y = TwoGaussians().sample(50, random_state=0)
    >>> kfold_from_scratch(LinearDiscriminantAnalysis(), X, y, n_splits=5, random_state=0).shape
    (5,)
    """
    X, y = check_xy(X, y)
    check_target(y, loss)
    folds = kfold_indices(len(y), n_splits, random_state)
    splits = [(np.setdiff1d(np.arange(len(y)), test), test) for test in folds]  # S but the fold
    score = lambda y_test, y_pred: empirical_risk(y_test, y_pred, loss=loss)  # noqa: E731
    return np.asarray(score_splits(estimator, X, y, splits, score))


@dataclass(frozen=True)
class FoldRisks:
    """The risks measured on each of ``K`` folds, with the fold sizes.

    Attributes
    ----------
    risks : ndarray of shape (K,)
        ``R_j``, the empirical risk on fold ``j``.
    sizes : ndarray of shape (K,)
        ``m_j``, the number of points in fold ``j``.

    Examples
    --------
    >>> fr = FoldRisks(risks=np.array([0.0, 0.5]), sizes=np.array([3, 2]))
    >>> fr.mean, fr.pooled, fr.total
    (0.25, 0.2, 0.5)
    """

    risks: np.ndarray
    sizes: np.ndarray

    def __post_init__(self) -> None:
        risks, sizes = np.asarray(self.risks), np.asarray(self.sizes)
        if risks.ndim != 1 or sizes.shape != risks.shape or risks.size == 0:
            raise ValueError(
                f"risks and sizes must be 1-d with one entry per fold, got shapes "
                f"{risks.shape} and {sizes.shape}"
            )
        check_finite_values(risks, "risks", ndim=1)
        if np.any(risks < 0):
            raise ValueError(f"risks must be >= 0 (mean losses), got {risks.tolist()}")
        check_integer_array(sizes, "sizes", minimum=1, ndim=1)

    @property
    def n_splits(self) -> int:
        """``K``, the number of folds."""
        return len(self.risks)

    @property
    def mean(self) -> float:
        """The K-fold estimate: the mean of the fold risks, ``(1/K) sum_j R_j``."""
        return float(np.mean(self.risks))

    @property
    def pooled(self) -> float:
        """The error over all ``m`` points, ``sum_j m_j R_j / m``.

        Equal to :attr:`mean` when all folds have the same size.
        """
        return float(np.sum(self.risks * self.sizes) / np.sum(self.sizes))

    @property
    def total(self) -> float:
        """The *sum* of fold risks (as a study card on cross-validation writes it).

        ``K`` times :attr:`mean`: not an estimate of risk.
        """
        return float(np.sum(self.risks))

    @property
    def std(self) -> float:
        """Standard deviation of the fold risks (``ddof=1``): a spread across folds,
        not the standard error of :attr:`mean`."""
        return float(np.std(self.risks, ddof=1)) if self.n_splits > 1 else 0.0


@validate_params({"estimator": "estimator", **_SPLIT, "shuffle": "boolean", "loss": LOSS})
def kfold_risks(
    estimator: Any,
    X: Any,
    y: Any,
    n_splits: int = 5,
    stratify: bool = False,
    shuffle: bool = True,
    random_state: Any = None,
    loss: Loss = "zero_one",
    cv: Any = None,
) -> FoldRisks:
    """K-fold cross-validation with scikit-learn's splitters: every fold's risk.

    Parameters
    ----------
    estimator : scikit-learn estimator
        Cloned for every fold.
    X : array_like of shape (m, d)
    y : array_like of shape (m,)
    n_splits, stratify, shuffle, random_state
        As in :func:`make_kfold`.
    loss : str or callable, default="zero_one"
        As in :func:`cvbook.risk.empirical_risk`.
    cv : int, splitter or iterable of (train, test), optional
        Use these folds instead of :func:`make_kfold`'s. An int is the number of folds,
        as in scikit-learn (the folds are then :func:`make_kfold`'s with ``cv`` folds and
        the other arguments); an empty list is refused.

    Returns
    -------
    FoldRisks

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> X, y = TwoGaussians().sample(52, random_state=0)
    >>> fr = kfold_risks(LinearDiscriminantAnalysis(), X, y, n_splits=5, random_state=0)
    >>> fr.sizes.tolist()
    [11, 11, 10, 10, 10]
    >>> bool(np.isclose(fr.total, 5 * fr.mean))
    True
    """
    X, y = check_xy(X, y)
    check_target(y, loss)
    if cv is None:
        n_splits = check_n_splits_bound(n_splits, len(y))
        cv = checked_kfold(n_splits, y, stratify, shuffle, random_state)
    else:
        cv = check_cv(cv, "cv", n_samples=len(y))  # an int: checked >= 2 here, once
        if isinstance(cv, int):  # scikit-learn's convention: the number of folds
            cv = check_n_splits_bound(cv, len(y), name="cv")
            cv = checked_kfold(cv, y, stratify, shuffle, random_state)
    n_cv = getattr(cv, "n_splits", None)
    if isinstance(n_cv, (int, np.integer)) and n_cv > len(y):
        raise ValueError(f"cv has n_splits={n_cv} folds, more than the m={len(y)} points")
    splits = check_train_test_splits(cv.split(X, y) if hasattr(cv, "split") else cv, len(y), "cv")
    score = lambda y_test, y_pred: empirical_risk(y_test, y_pred, loss=loss)  # noqa: E731
    risks = score_splits(estimator, X, y, splits, score)
    sizes = [len(test) for _, test in splits]
    return FoldRisks(risks=np.asarray(risks), sizes=np.asarray(sizes))


@validate_params({"candidates": check_candidates, **_SPLIT, "refit": "boolean", "loss": LOSS})
def kfold_select(
    candidates: Sequence[Any],
    X: Any,
    y: Any,
    n_splits: int = 5,
    stratify: bool = False,
    random_state: Any = None,
    refit: bool = True,
    loss: Loss = "zero_one",
) -> Selection:
    """Select among candidate models by their K-fold estimate, then retrain.

    Ng's procedure (his lecture notes on cross-validation): evaluate every candidate by
    K-fold on the same folds, pick the smallest mean fold risk, retrain that candidate on
    all of ``S``.

    Parameters
    ----------
    candidates : sequence of estimators
    X, y, n_splits, stratify, random_state, loss
        As in :func:`kfold_risks`; every candidate sees the same folds.
    refit : bool, default=True
        Retrain the selected candidate on all of ``(X, y)``; else return it unfitted.

    Returns
    -------
    Selection
        ``risks`` has shape ``(n_candidates, K)``.

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> from cvbook.datasets import TwoGaussians
    >>> X, y = TwoGaussians().sample(60, random_state=0)
    >>> sel = kfold_select([SVC(C=c) for c in (0.01, 1.0, 100.0)], X, y, random_state=0)
    >>> sel.risks.shape
    (3, 5)
    """
    candidates = list(candidates)
    X, y = check_xy(X, y)
    check_target(y, loss)
    n_splits = check_n_splits_bound(n_splits, len(y))
    return _select(candidates, X, y, n_splits, stratify, random_state, refit, loss)


def _select(
    candidates: list,
    X: np.ndarray,
    y: np.ndarray,
    n_splits: int,
    stratify: bool,
    random_state: Any,
    refit: bool,
    loss: Loss,
) -> Selection:
    """:func:`kfold_select` once its arguments are checked (``n_splits`` in ``[2, m]``)."""
    cv = checked_kfold(n_splits, y, stratify, True, random_state)
    folds = list(cv.split(X, y))
    risks = np.array([kfold_risks(est, X, y, cv=folds, loss=loss).risks for est in candidates])
    best = int(np.argmin(risks.mean(axis=1)))
    best_model = clone(candidates[best])
    if refit:
        best_model.fit(X, y)
    return Selection(candidates=candidates, risks=risks, best_index=best, best_estimator=best_model)


@dataclass(frozen=True)
class NestedResult:
    """Nested cross-validation of a select-then-retrain procedure.

    Attributes
    ----------
    outer : FoldRisks
        Risk, on each outer fold, of the model that the inner K-fold selected
        and retrained on the outer training part: an honest estimate.
    inner_best : ndarray of shape (outer K,)
        The inner K-fold score of the selected candidate, in each outer fold:
        the optimistic number a naive report would quote.
    chosen : ndarray of shape (outer K,)
        Index of the candidate selected in each outer fold.
    """

    outer: FoldRisks
    inner_best: np.ndarray
    chosen: np.ndarray


@validate_params(
    {
        "candidates": check_candidates,
        "outer_splits": Interval("int", 2),
        "inner_splits": Interval("int", 2),
        "stratify": "boolean",
        "random_state": "random_state",
        "loss": LOSS,
    }
)
def nested_kfold(
    candidates: Sequence[Any],
    X: Any,
    y: Any,
    outer_splits: int = 5,
    inner_splits: int = 5,
    stratify: bool = False,
    random_state: Any = None,
    loss: Loss = "zero_one",
) -> NestedResult:
    """Nested K-fold: estimate the risk of *selecting* a model with K-fold.

    Each outer training part runs :func:`kfold_select` on its own (inner folds);
    the selected, retrained model is tested on the outer fold, which took no
    part in the choice.

    Parameters
    ----------
    candidates : sequence of estimators
    X : array_like of shape (m, d)
    y : array_like of shape (m,)
    outer_splits : int, default=5
        Folds of the outer loop, in ``[2, m]``.
    inner_splits : int, default=5
        Folds of the inner selection, in ``[2, m']`` with ``m'`` the smallest outer
        training part.
    stratify, random_state, loss
        As in :func:`kfold_select`; the inner folds use the same ``random_state``.

    Returns
    -------
    NestedResult

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> from cvbook.datasets import TwoGaussians
    >>> X, y = TwoGaussians().sample(60, random_state=0)
    >>> res = nested_kfold([SVC(C=c) for c in (0.01, 1.0)], X, y, 3, 3, random_state=0)
    >>> res.outer.n_splits, res.chosen.shape
    (3, (3,))
    """
    candidates = list(candidates)
    X, y = check_xy(X, y)
    check_target(y, loss)
    outer_splits = check_n_splits_bound(outer_splits, len(y), name="outer_splits")
    smallest_train = len(y) - -(-len(y) // outer_splits)  # m minus the largest outer fold
    inner_splits = check_n_splits_bound(inner_splits, smallest_train, name="inner_splits")
    outer = checked_kfold(outer_splits, y, stratify, True, random_state)
    risks, sizes, inner_best, chosen = [], [], [], []
    for train, test in outer.split(X, y):
        # every outer training part has >= smallest_train points: the bound holds
        sel = _select(
            candidates, X[train], y[train], inner_splits, stratify, random_state, True, loss
        )
        risks.append(empirical_risk(y[test], sel.best_estimator.predict(X[test]), loss=loss))
        sizes.append(len(test))
        inner_best.append(sel.best_risk)
        chosen.append(sel.best_index)
    return NestedResult(
        outer=FoldRisks(np.asarray(risks), np.asarray(sizes)),
        inner_best=np.asarray(inner_best),
        chosen=np.asarray(chosen),
    )
