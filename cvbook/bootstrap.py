"""The bootstrap estimates of the risk: out-of-bag, .632 and .632+ (chapter 9).

A bootstrap sample draws ``m`` points *with replacement* from the ``m`` points of ``S``;
about ``1 - (1 - 1/m)**m ≈ 0.632`` of the distinct points are in it, and the others --
*out of bag* -- were never seen by the model fitted on it. Three estimates of the risk
are built from ``B`` such samples (Efron 1983; Efron and Tibshirani 1997):

* the **leave-one-out bootstrap** ``Err^(1)``: for each point, the mean loss of the
  models whose sample left it out, averaged over the points. Each model saw about
  ``0.632 m`` distinct points, so ``Err^(1)`` is pessimistic for the learner at size ``m``;
* **.632**: ``0.368 * err + 0.632 * Err^(1)``, where ``err`` is the training
  (apparent) error of the model fitted on all of ``S``, which is optimistic;
* **.632+**: the weight on ``Err^(1)`` grows with the *relative overfitting rate*
  ``R = (Err^(1) - err) / (gamma - err)``, where ``gamma`` is the *no-information
  error rate*, the risk the fitted rule would have if inputs and labels were independent.
  When the rule fits its training data perfectly (``err = 0``) and ``Err^(1)`` reaches
  ``gamma``, ``R = 1`` and .632+ is ``0.632 Err^(1) + 0.368 gamma`` (their (32) adds the
  correction, with ``Err^(1)`` capped at ``gamma``, to .632, which keeps the uncapped
  ``Err^(1)``): near ``gamma`` where .632 stays near ``0.632 Err^(1)``.

The formulas are those of Efron and Tibshirani (1997), equations (6)-(8) and (27)-(32),
with their constants 0.632 and 0.368 (``1 - 1/e = 0.6321...``).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.utils.multiclass import type_of_target

from .risk import LOSSES, check_target
from .validation import (
    ArgumentTypeError,
    Interval,
    Options,
    as_random_state,
    check_1d_labels,
    check_finite_values,
    check_label_pair,
    check_same_length,
    check_train_test_splits,
    check_xy,
    validate_params,
)

__all__ = [
    "BOOTSTRAP_LOSS",
    "N_BOOTSTRAPS",
    "BootstrapEstimates",
    "BootstrapSplit",
    "bootstrap_estimates",
    "bootstrap_replicate_errors",
    "no_information_rate",
]

#: The weight of ``Err^(1)`` in the .632 estimate, as Efron (1983) writes it.
W632 = 0.632

#: The one rule for a number of bootstrap samples ``B``, in the package and its studies
#: (a chapter may cap it for its running time).
N_BOOTSTRAPS = Interval("int", 2)


class BootstrapSplit:
    """Bootstrap samples as a scikit-learn style splitter: ``train`` is a sample of ``m``
    indices drawn with replacement, ``test`` the indices it left out (out of bag).

    Parameters
    ----------
    n_bootstraps : int, default=200
        ``B``, the number of bootstrap samples.
    random_state : seed, optional
        Any of cvbook's five kinds of seed (see :func:`cvbook.validation.check_random_state`);
        an int gives the same samples every time.
    stratify : bool, default=False
        Draw each sample class by class, ``m_c`` points with replacement from the ``m_c``
        points of class ``c`` (``split`` then needs ``y``): every sample keeps the class
        counts of ``S``, so no model is fitted on one class, as with stratified K-fold.

    Examples
    --------
    >>> splits = list(BootstrapSplit(3, random_state=0).split(np.zeros((5, 1))))
    >>> len(splits), [len(train) for train, _ in splits]
    (3, [5, 5, 5])
    >>> all(np.intersect1d(train, test).size == 0 for train, test in splits)
    True
    """

    @validate_params(
        {"n_bootstraps": N_BOOTSTRAPS, "random_state": "random_state", "stratify": "boolean"}
    )
    def __init__(
        self, n_bootstraps: int = 200, random_state: Any = None, stratify: bool = False
    ) -> None:
        self.n_bootstraps = int(n_bootstraps)
        self.random_state = random_state
        self.stratify = bool(stratify)

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        """``B``, the number of bootstrap samples."""
        return self.n_bootstraps

    def split(self, X: Any, y: Any = None, groups: Any = None) -> Iterable[tuple]:
        """Yield ``(train, test)``: a bootstrap sample and its out-of-bag indices.

        ``X`` may be an array, a list, a DataFrame or a ``scipy.sparse`` matrix (only its
        number of rows is read); ``groups`` is ignored, with a ``UserWarning``.
        """
        shape = getattr(X, "shape", None)
        if isinstance(shape, tuple) and shape:
            m = int(shape[0])
        elif isinstance(X, (str, bytes)) or not hasattr(X, "__len__"):
            raise ArgumentTypeError(
                f"X must be an array of points (one row each), got {type(X).__name__}"
            )
        else:
            m = len(X)
        if groups is not None:
            warnings.warn(
                "The groups parameter is ignored by BootstrapSplit: it draws points, not groups",
                UserWarning,
                stacklevel=2,
            )
        if m < 2:
            raise ValueError(f"X must have at least 2 rows for a bootstrap, got {m}")
        rng = as_random_state(self.random_state)
        if self.stratify:
            if y is None:
                raise ValueError("y is needed to split with stratify=True")
            y = check_1d_labels(y, "y")
            if y.shape[0] != m:
                raise ValueError(f"arrays must have the same length: X has {m}, y has {y.size}")
            if type_of_target(y) == "continuous":
                raise ValueError(
                    "stratify=True draws class by class, but y is a continuous target "
                    f"({np.unique(y).size} distinct values of {m}): use stratify=False"
                )
            classes = [np.flatnonzero(y == c) for c in np.unique(y)]
        for _ in range(self.n_bootstraps):
            if self.stratify:
                train = np.sort(
                    np.concatenate(
                        [idx[rng.integers(0, len(idx), size=len(idx))] for idx in classes]
                    )
                )
            else:
                train = rng.integers(0, m, size=m)
            in_bag = np.zeros(m, dtype=bool)
            in_bag[train] = True
            yield train, np.flatnonzero(~in_bag)


#: The losses .632+ defines ``gamma`` for (a narrower rule than :data:`cvbook.risk.LOSS`).
BOOTSTRAP_LOSS = Options("zero_one", "squared", why="the losses .632+ defines gamma for")


@validate_params({"loss": BOOTSTRAP_LOSS})
def no_information_rate(y: Any, y_pred: Any, loss: str = "zero_one") -> float:
    """The no-information error rate ``gamma``: the mean loss over all ``m**2`` pairs of a
    label ``y_i`` and a prediction ``f(x_j)``, as if inputs and labels were independent.

    Efron and Tibshirani (1997), equation (27): ``gamma = (1/m**2) sum_i sum_j Q(y_i,
    f(x_j))``. For the 0-1 loss it is ``sum_l p_l (1 - q_l)``, with ``p_l`` the share of
    label ``l`` among the ``y`` and ``q_l`` among the predictions (their equation (28) for two
    classes); for the squared loss ``mean(y**2) - 2 mean(y) mean(f) + mean(f**2)``.
    Both are computed in O(m), not by forming the ``m**2`` pairs.

    Examples
    --------
    >>> no_information_rate([0, 0, 1, 1], [0, 0, 0, 1])   # 1/2 * 1/4 + 1/2 * 3/4
    0.5
    >>> no_information_rate([0.0, 2.0], [1.0, 1.0], loss="squared")
    1.0
    """
    if loss == "zero_one":
        y, y_pred = check_label_pair(y, y_pred, names=("y", "y_pred"))
    else:
        y = check_finite_values(y, "y", ndim=1)
        y_pred = check_finite_values(y_pred, "y_pred", ndim=1)
        check_same_length(("y", y), ("y_pred", y_pred))
    if y.size == 0:
        raise ValueError("y must hold at least one point, got an empty array")
    if loss == "zero_one":
        labels, inverse = np.unique(np.concatenate([y, y_pred]), return_inverse=True)
        p = np.bincount(inverse[: len(y)], minlength=len(labels)) / len(y)
        q = np.bincount(inverse[len(y) :], minlength=len(labels)) / len(y_pred)
        return float(np.sum(p * (1.0 - q)))
    y = y.astype(float)
    y_pred = y_pred.astype(float)
    return float(np.mean(y**2) - 2.0 * np.mean(y) * np.mean(y_pred) + np.mean(y_pred**2))


@dataclass(frozen=True)
class BootstrapEstimates:
    """The bootstrap family's estimates of the risk from one set of ``B`` samples.

    Attributes
    ----------
    err_train : float
        ``err``, the training (apparent) error of the model fitted on all of ``S``.
    err1 : float
        ``Err^(1)``, the leave-one-out bootstrap (out-of-bag) estimate.
    err632 : float
        ``0.368 err + 0.632 Err^(1)``.
    err632plus : float
        The .632+ estimate, with ``Err^(1)`` capped at ``gamma`` and ``R`` in ``[0, 1]``.
    gamma : float
        The no-information error rate of the model fitted on ``S``.
    relative_overfitting : float
        ``R'``, the relative overfitting rate used by .632+ (0 where ``Err^(1) <= err`` or
        ``gamma <= err``).
    weight : float
        ``w = 0.632 / (1 - 0.368 R')``: where ``Err^(1) <= gamma``, .632+ is
        ``(1 - w) err + w Err^(1)``.
    err_boot : float
        The simple bootstrap estimate (*The Elements of Statistical Learning*, (7.54)):
        the mean over samples of each sample's model's error on all of ``S``, points it
        was trained on included. Shown for its failure, not for use.
    out_of_bag_share : float
        The mean share of ``S`` left out of a sample (about ``(1 - 1/m)**m``).
    n_bootstraps : int
        ``B``.
    n_never_out : int
        Points that were in every sample (they have no out-of-bag loss and are left out of
        ``Err^(1)``'s average, as in Efron and Tibshirani's definition).
    n_fits : int
        Models fitted: ``B + 1``.
    """

    err_train: float
    err1: float
    err632: float
    err632plus: float
    gamma: float
    relative_overfitting: float
    weight: float
    err_boot: float
    out_of_bag_share: float
    n_bootstraps: int
    n_never_out: int

    @property
    def n_fits(self) -> int:
        """Models fitted: one per bootstrap sample, and one on all of ``S``."""
        return self.n_bootstraps + 1


def _fit_predict(estimator: Any, X: np.ndarray, y: np.ndarray, train: np.ndarray) -> np.ndarray:
    """Fit a clone on the bootstrap sample and predict every point of ``S``.

    A learner that refuses a sample holding fewer classes than ``S`` (a rare class not
    drawn) gets an error that says so and points to ``stratify=True``.
    """
    try:
        return clone(estimator).fit(X[train], y[train]).predict(X)
    except ValueError as err:
        drawn, labels = np.unique(y[train]), np.unique(y)
        if drawn.size < labels.size and type_of_target(y) != "continuous":
            counts = {str(c): int(np.sum(y == c)) for c in labels if c not in drawn}
            raise ValueError(
                f"a bootstrap sample holds {drawn.size} of the {labels.size} classes of y "
                f"(the classes not drawn, with their counts in y: {counts}), and the estimator "
                f"refused it ({type(err).__name__}: {err}); use stratify=True, which keeps every "
                "class's count in each sample"
            ) from err
        raise


def _replicates(estimator, X, y, splits, n_jobs) -> list[np.ndarray]:
    return Parallel(n_jobs=n_jobs)(
        delayed(_fit_predict)(estimator, X, y, train) for train, _ in splits
    )


@validate_params({"estimator": "estimator", "loss": BOOTSTRAP_LOSS, "n_jobs": "n_jobs"})
def bootstrap_replicate_errors(
    estimator: Any,
    X: Any,
    y: Any,
    splits: Any,
    loss: str = "zero_one",
    n_jobs: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Per bootstrap sample: the out-of-bag error and the error on all of ``S``.

    These are the quantities that :func:`mlxtend.evaluate.bootstrap_point632_score`
    combines *per sample* (it returns one accuracy per sample: for ``method="oob"``,
    one minus the first array; for ``method=".632"``, one minus
    ``0.632 * oob + 0.368 * full``). :func:`bootstrap_estimates` follows Efron and
    Tibshirani instead: see its notes for the differences.

    Parameters
    ----------
    estimator : scikit-learn estimator
        Cloned for each sample.
    X, y : array_like
        The data set ``S``.
    splits : iterable of (train, test)
        Bootstrap samples and their out-of-bag indices (e.g. :class:`BootstrapSplit`, or
        mlxtend's ``BootstrapOutOfBag``).
    loss : {"zero_one", "squared"}
    n_jobs : int, optional
        Fits run in parallel with joblib; the result does not depend on it.

    Returns
    -------
    oob : ndarray of shape (B,)
        The mean loss on each sample's out-of-bag points (NaN where there are none).
    full : ndarray of shape (B,)
        The mean loss of each sample's model on all ``m`` points.

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X, y = np.arange(8.0).reshape(-1, 1), np.array([0, 0, 0, 0, 1, 1, 1, 1])
    >>> oob, full = bootstrap_replicate_errors(
    ...     KNeighborsClassifier(1), X, y, BootstrapSplit(4, random_state=0).split(X))
    >>> oob.shape, bool(np.all(full <= 0.5))
    ((4,), True)
    """
    X, y = check_xy(X, y)
    per_point = LOSSES[loss]
    check_target(y, loss)
    estimator = clone(estimator)
    splits = check_train_test_splits(splits, len(y), unique_train=False, allow_empty_test=True)
    preds = _replicates(estimator, X, y, splits, n_jobs)
    oob = np.array(
        [
            per_point(y[test], p[test]).mean() if test.size else np.nan
            for (_, test), p in zip(splits, preds, strict=True)
        ]
    )
    full = np.array([per_point(y, p).mean() for p in preds])
    return oob, full


@validate_params(
    {
        "estimator": "estimator",
        "n_bootstraps": N_BOOTSTRAPS,
        "loss": BOOTSTRAP_LOSS,
        "random_state": "random_state",
        "n_jobs": "n_jobs",
        "stratify": "boolean",
    }
)
def bootstrap_estimates(
    estimator: Any,
    X: Any,
    y: Any,
    n_bootstraps: int = 200,
    loss: str = "zero_one",
    random_state: Any = None,
    n_jobs: int | None = None,
    splits: Any = None,
    stratify: bool = False,
) -> BootstrapEstimates:
    """The out-of-bag (leave-one-out bootstrap), .632 and .632+ estimates of the risk.

    Parameters
    ----------
    estimator : scikit-learn estimator
        Cloned for each bootstrap sample and once for all of ``S``.
    X : array_like of shape (m, d)
    y : array_like of shape (m,)
    n_bootstraps : int, default=200
        ``B``. Ignored when ``splits`` is given.
    loss : {"zero_one", "squared"}, default="zero_one"
        The two losses for which Efron and Tibshirani define ``gamma``.
    random_state : seed, optional
        Draws the samples (:class:`BootstrapSplit`).
    n_jobs : int, optional
        The ``B`` fits run in parallel with joblib; the estimates do not depend on it.
    splits : iterable of (train, test), optional
        Use these samples (e.g. mlxtend's ``BootstrapOutOfBag``) instead of drawing them.
    stratify : bool, default=False
        Draw the samples class by class (:class:`BootstrapSplit`); ignored with ``splits``.

    Returns
    -------
    BootstrapEstimates

    Notes
    -----
    Where the definitions differ from :func:`mlxtend.evaluate.bootstrap_point632_score`
    (mlxtend 0.23-0.25):

    * mlxtend returns one *accuracy* per bootstrap sample; here one error per estimate.
    * ``Err^(1)`` here averages over *points* the mean loss of the models that left each
      point out (Efron and Tibshirani's (6)); mlxtend's ``"oob"`` averages over *samples*
      the error on each sample's out-of-bag points (the two weigh points differently, and
      differ in general).
    * ``err`` here is the training error of the model fitted on all of ``S`` (Efron 1983,
      Efron and Tibshirani (7)); mlxtend uses, per sample, the error of that sample's
      model on all of ``S``.
    * ``gamma`` here uses the predictions of the model fitted on ``S`` (their (27)); mlxtend's
      uses, per sample, that sample's model, and forms the ``m**2`` pairs.
    * Here ``Err^(1)`` is capped at ``gamma`` and ``R`` set to 0 outside the range where
      it is defined (their (30)-(31)), and .632+ is their (32), so it lies between .632 and
      ``Err^(1)``; mlxtend clips neither, and its ``R`` can be negative, above 1 or a
      division by zero.

    :func:`bootstrap_replicate_errors` gives the per-sample quantities mlxtend combines, and
    the tests check them against mlxtend on shared samples.

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 2)), rng.integers(0, 2, size=40)  # labels carry no information
    >>> est = bootstrap_estimates(KNeighborsClassifier(1), X, y, n_bootstraps=50, random_state=0)
    >>> est.err_train   # 1-NN fits its training data
    0.0
    >>> bool(est.err632 < est.err632plus <= est.err1)
    True
    """
    X, y = check_xy(X, y)
    name = loss
    per_point = LOSSES[name]
    check_target(y, loss)
    estimator = clone(estimator)
    given = splits is not None
    if stratify and not given and name == "squared":
        raise ValueError(
            "stratify=True draws class by class, but loss='squared' scores a regression "
            "target: use stratify=False"
        )
    if splits is None:
        splits = BootstrapSplit(n_bootstraps, random_state=random_state, stratify=stratify)
        splits = splits.split(X, y)
    splits = check_train_test_splits(splits, len(y), unique_train=False, allow_empty_test=True)
    m, B = len(y), len(splits)
    preds = _replicates(estimator, X, y, splits, n_jobs)
    # Out-of-bag losses as an (B, m) matrix, NaN where the point was in the sample.
    losses = np.full((B, m), np.nan)
    for b, ((_, test), p) in enumerate(zip(splits, preds, strict=True)):
        losses[b, test] = per_point(y[test], p[test])
    err_boot = float(np.mean([per_point(y, p).mean() for p in preds]))
    counts = np.sum(~np.isnan(losses), axis=0)
    seen = counts > 0
    if not np.any(seen):
        raise ValueError(
            "splits leave no point out of bag: each test part is empty"
            if given
            else "no point was ever out of bag: give more bootstrap samples (n_bootstraps)"
        )
    per_point_err = np.nansum(losses[:, seen], axis=0) / counts[seen]
    err1 = float(np.mean(per_point_err))
    full = clone(estimator).fit(X, y).predict(X)
    err = float(np.mean(per_point(y, full)))
    gamma = no_information_rate(y, full, name)
    err632 = (1.0 - W632) * err + W632 * err1
    err1_capped = min(err1, gamma)  # their (30)
    r = (err1_capped - err) / (gamma - err) if err1 > err and gamma > err else 0.0  # (31)
    weight = W632 / (1.0 - (1.0 - W632) * r)
    # (32): Err^(.632+) = Err^(.632) + (Err^(1)' - err) (.368 .632 R') / (1 - .368 R')
    err632plus = err632 + (err1_capped - err) * (1.0 - W632) * W632 * r / (1.0 - (1.0 - W632) * r)
    return BootstrapEstimates(
        err_train=err,
        err1=err1,
        err632=float(err632),
        err632plus=float(err632plus),
        gamma=float(gamma),
        relative_overfitting=float(r),
        weight=float(weight),
        err_boot=err_boot,
        out_of_bag_share=float(np.mean([len(test) for _, test in splits]) / m),
        n_bootstraps=B,
        n_never_out=int(np.sum(~seen)),
    )
