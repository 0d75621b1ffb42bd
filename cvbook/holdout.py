"""Hold-out: one split into a training and a validation set (chapter 2).

Split the sample ``S`` once (typically 70/30), train on the first part and
measure the error on the second. The same split selects a model among
candidates (:func:`holdout_select`); the selected model is then usually
retrained on all of ``S``. Every function returns the per-split risks, not
only a mean, so that a chapter can show their spread.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence, Union

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit, train_test_split

from ._checks import check_int, check_open_unit, check_same_length
from .risk import empirical_risk

__all__ = [
    "clone_estimator",
    "holdout_split",
    "holdout_risk",
    "holdout_risks",
    "Selection",
    "holdout_select",
]

Loss = Union[str, Callable[[np.ndarray, np.ndarray], np.ndarray]]


def clone_estimator(estimator: Any, name: str = "estimator") -> Any:
    """An unfitted copy of ``estimator`` made by :func:`sklearn.base.clone`.

    Raises a :class:`ValueError` naming the parameter when ``estimator`` cannot
    be cloned (it is not a scikit-learn estimator: no ``get_params``).

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> clone_estimator(SVC(C=3.0)).C
    3.0
    >>> clone_estimator("svm")
    Traceback (most recent call last):
    ...
    ValueError: estimator must be a scikit-learn estimator that sklearn.base.clone can copy, got 'svm'
    """
    try:
        return clone(estimator)
    except (TypeError, RuntimeError, AttributeError) as exc:
        raise ValueError(
            f"{name} must be a scikit-learn estimator that sklearn.base.clone can copy, "
            f"got {estimator!r}"
        ) from exc


def _check_test_size(test_size: Any) -> float:
    if isinstance(test_size, bool) or np.ndim(test_size) != 0:
        raise ValueError(f"test_size must be a number strictly between 0 and 1, got {test_size!r}")
    return float(check_open_unit(test_size, "test_size"))


def _check_xy(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    X, y = np.asarray(X), np.asarray(y)
    check_same_length(("X", X), ("y", y))
    if y.ndim != 1:
        raise ValueError(f"y must be one-dimensional, got shape {y.shape}")
    return X, y


def holdout_split(X: Any, y: Any, test_size: float = 0.3, stratify: bool = False,
                  random_state: Any = None) -> tuple[np.ndarray, ...]:
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
    random_state : int, RandomState or None
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
    test_size = _check_test_size(test_size)
    X, y = _check_xy(X, y)
    return tuple(train_test_split(X, y, test_size=test_size, random_state=random_state,
                                  stratify=y if stratify else None))


def holdout_risk(estimator: Any, X: Any, y: Any, test_size: float = 0.3,
                 stratify: bool = False, random_state: Any = None,
                 loss: Loss = "zero_one") -> float:
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
    model = clone_estimator(estimator)
    X_tr, X_va, y_tr, y_va = holdout_split(X, y, test_size, stratify, random_state)
    model.fit(X_tr, y_tr)
    return empirical_risk(y_va, model.predict(X_va), loss=loss)


def holdout_risks(estimator: Any, X: Any, y: Any, test_size: float = 0.3,
                  n_splits: int = 10, stratify: bool = False, random_state: Any = None,
                  loss: Loss = "zero_one") -> np.ndarray:
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
    random_state : int, RandomState or None
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
    test_size = _check_test_size(test_size)
    n_splits = check_int(n_splits, "n_splits", minimum=1)
    X, y = _check_xy(X, y)
    clone_estimator(estimator)
    splitter_cls = StratifiedShuffleSplit if stratify else ShuffleSplit
    splitter = splitter_cls(n_splits=n_splits, test_size=test_size, random_state=random_state)
    risks = []
    for train, val in splitter.split(X, y):
        model = clone(estimator).fit(X[train], y[train])
        risks.append(empirical_risk(y[val], model.predict(X[val]), loss=loss))
    return np.asarray(risks)


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

    @property
    def mean_risks(self) -> np.ndarray:
        """Estimated risk of each candidate (the mean over folds for K-fold)."""
        r = np.asarray(self.risks, dtype=float)
        return r if r.ndim == 1 else r.mean(axis=1)

    @property
    def best_risk(self) -> float:
        """Estimated risk of the selected candidate: an optimistic number."""
        return float(self.mean_risks[self.best_index])


def _check_candidates(candidates: Sequence[Any]) -> list:
    candidates = list(candidates)
    if len(candidates) == 0:
        raise ValueError("candidates must hold at least one estimator, got none")
    for i, est in enumerate(candidates):
        clone_estimator(est, name=f"candidates[{i}]")
    return candidates


def holdout_select(candidates: Sequence[Any], X: Any, y: Any, test_size: float = 0.3,
                   stratify: bool = False, random_state: Any = None, refit: bool = True,
                   loss: Loss = "zero_one") -> Selection:
    """Select among candidate models by their error on one validation part.

    The procedure of Ng (2013), seed 001: split ``S`` into ``S_train`` and
    ``S_cv``, train each candidate on ``S_train``, keep the one with the
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
    candidates = _check_candidates(candidates)
    X_tr, X_va, y_tr, y_va = holdout_split(X, y, test_size, stratify, random_state)
    fitted, risks = [], []
    for est in candidates:
        model = clone(est).fit(X_tr, y_tr)
        fitted.append(model)
        risks.append(empirical_risk(y_va, model.predict(X_va), loss=loss))
    risks = np.asarray(risks)
    best = int(np.argmin(risks))
    if refit:
        X, y = _check_xy(X, y)
        best_model = clone(candidates[best]).fit(X, y)
    else:
        best_model = fitted[best]
    return Selection(candidates=candidates, risks=risks, best_index=best,
                     best_estimator=best_model)
