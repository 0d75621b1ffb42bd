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

from .risk import Loss, count_errors, draw_sample, empirical_risk, model_risk, resolve_loss
from .validation import (
    check_1d_labels,
    check_bool,
    check_candidates,
    check_distribution,
    check_int,
    check_integer_array,
    check_random_state,
    check_test_fraction,
    check_xy,
)

__all__ = [
    "Selection",
    "clone_estimator",
    "holdout_risk",
    "holdout_risks",
    "holdout_select",
    "holdout_split",
    "learning_curve_trial",
    "selection_summary",
    "selection_trial",
    "stratified_indices",
]


def clone_estimator(estimator: Any, name: str = "estimator") -> Any:
    """An unfitted copy of ``estimator`` made by :func:`sklearn.base.clone`.

    Raises a :class:`ValueError` naming the parameter when ``estimator`` cannot
    be cloned (it is not a scikit-learn estimator: no ``get_params``).

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> clone_estimator(SVC(C=3.0)).C
    3.0
    >>> clone_estimator("svm")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: estimator must be a scikit-learn estimator that sklearn.base.clone can copy, ...
    """
    try:
        return clone(estimator)
    except (TypeError, RuntimeError, AttributeError) as exc:
        raise ValueError(
            f"{name} must be a scikit-learn estimator that sklearn.base.clone can copy, "
            f"got {estimator!r}"
        ) from exc


def _split_seed(random_state: Any) -> np.random.RandomState:
    """The package's seed rule, as the RandomState scikit-learn's splitters take."""
    return check_random_state(random_state, to="randomstate")


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
    test_size = check_test_fraction(test_size)
    stratify = check_bool(stratify, "stratify")
    X, y = check_xy(X, y)
    return tuple(
        train_test_split(
            X,
            y,
            test_size=test_size,
            random_state=_split_seed(random_state),
            stratify=y if stratify else None,
        )
    )


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
    model = clone_estimator(estimator)
    resolve_loss(loss)
    X_tr, X_va, y_tr, y_va = holdout_split(X, y, test_size, stratify, random_state)
    model.fit(X_tr, y_tr)
    return empirical_risk(y_va, model.predict(X_va), loss=loss)


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
    test_size = check_test_fraction(test_size)
    n_splits = check_int(n_splits, "n_splits", minimum=1)
    stratify = check_bool(stratify, "stratify")
    resolve_loss(loss)
    X, y = check_xy(X, y)
    clone_estimator(estimator)
    splitter_cls = StratifiedShuffleSplit if stratify else ShuffleSplit
    splitter = splitter_cls(
        n_splits=n_splits, test_size=test_size, random_state=_split_seed(random_state)
    )
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
    candidates = check_candidates(candidates)
    refit = check_bool(refit, "refit")
    resolve_loss(loss)
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
    rng = check_random_state(random_state)
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


def _check_trial_sizes(m: Any, test_size: Any) -> tuple[int, int]:
    m = check_int(m, "m", minimum=8)
    n_val = int(np.ceil(check_test_fraction(test_size) * m))
    if not 2 <= n_val <= m - 2:
        raise ValueError(
            f"test_size={test_size} leaves {n_val} of m={m} points to validate; "
            f"each part needs at least 2"
        )
    return m, n_val


def selection_trial(
    rng: Any,
    distribution: Any,
    candidates: Sequence[Any],
    m: int,
    test_size: float = 0.3,
    n_mc: int = 10_000,
    m_test: int | None = None,
) -> dict[str, Any]:
    """One data set of the hold-out procedure, with the truth beside every number.

    Draws a sample ``S`` of ``m`` points (:func:`cvbook.risk.draw_sample`: every
    class holds 2 points or more) and an independent test set ``T`` of
    ``m_test`` points; splits ``S`` once into ``S_train`` and ``S_cv`` keeping
    both classes on each side (:func:`stratified_indices`). Every candidate is
    trained on ``S_train`` (the *validated* model) and retrained on all of ``S``
    (the *retrained* model), with the same hyperparameters and seed. The true
    risks of all models are measured on one common fresh sample of ``n_mc``
    points (:func:`cvbook.risk.model_risk`), so that they compare paired.

    Parameters
    ----------
    rng : None, int, Generator, RandomState or SeedSequence
        All the randomness of the trial.
    distribution : object with ``sample(m, random_state)``, labels in {-1, +1}
    candidates : sequence of estimators
        Cloned before each fit.
    m : int
        Points in ``S``, >= 8.
    test_size : float, default=0.3
        Fraction of ``S`` held out (rounded up, as ``train_test_split`` does).
    n_mc : int, default=10_000
        Fresh points that measure each true risk.
    m_test : int, optional
        Points in ``T`` (default ``m``).

    Returns
    -------
    dict
        ``n_val`` and ``n_test`` (ints); per candidate (arrays of length
        ``len(candidates)``): ``val_errors`` (errors on ``S_cv`` of the
        validated model), ``risk_validated`` and ``risk_retrained`` (true
        risks), ``test_errors`` (errors on ``T`` of the retrained model).

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> from cvbook.datasets import TwoGaussians
    >>> out = selection_trial(0, TwoGaussians(), [SVC(C=0.1), SVC(C=1.0)], m=40, n_mc=500)
    >>> out["n_val"], out["val_errors"].shape, out["risk_retrained"].shape
    (12, (2,), (2,))
    """
    rng = check_random_state(rng, "rng")
    check_distribution(distribution)
    candidates = check_candidates(candidates)
    m, n_val = _check_trial_sizes(m, test_size)
    n_mc = check_int(n_mc, "n_mc", minimum=1)
    m_test = m if m_test is None else check_int(m_test, "m_test", minimum=1)
    X, y = draw_sample(distribution, m, rng)
    X_te, y_te = distribution.sample(m_test, random_state=rng)
    train, val = stratified_indices(y, test_size=n_val, random_state=rng)
    mc_seed = int(rng.integers(2**32))
    out: dict[str, list] = {
        k: [] for k in ("val_errors", "risk_validated", "risk_retrained", "test_errors")
    }
    for est in candidates:
        validated = clone(est).fit(X[train], y[train])
        retrained = clone(est).fit(X, y)
        out["val_errors"].append(count_errors(y[val], validated.predict(X[val])))
        out["risk_validated"].append(model_risk(validated, distribution, n_mc, mc_seed))
        out["risk_retrained"].append(model_risk(retrained, distribution, n_mc, mc_seed))
        out["test_errors"].append(count_errors(y_te, retrained.predict(X_te)))
    result: dict[str, Any] = {"n_val": n_val, "n_test": m_test}
    result.update(
        {
            k: np.asarray(v, dtype=np.int64 if k.endswith("errors") else float)
            for k, v in out.items()
        }
    )
    return result


def selection_summary(
    trials: Sequence[dict], subset: Sequence[int] | None = None, fixed_index: int = 0
) -> dict[str, np.ndarray]:
    """What hold-out selection among ``subset`` of the candidates gives, trial by trial.

    From the output of :func:`selection_trial` over many trials. The selected
    candidate is the first with the fewest validation errors (as
    :func:`holdout_select`).

    Parameters
    ----------
    trials : sequence of dict
        Outputs of :func:`selection_trial`, all with the same candidates.
    subset : sequence of int, optional
        Positions of the candidates to select among (default: all).
    fixed_index : int, default=0
        A candidate chosen in advance, for comparison.

    Returns
    -------
    dict of numpy.ndarray, one entry per trial
        ``best`` (position of the selected candidate), ``val_best`` (its
        validation error), ``risk_best`` (its true risk, trained on
        ``S_train``), ``regret`` (that minus the smallest true risk in the
        subset), ``regret_random`` (the mean regret of a candidate picked at
        random), ``optimism`` (``val_best - risk_best``), ``val_fixed`` and
        ``risk_fixed`` (the candidate fixed in advance), ``retrained_best``
        (the true risk of the selected candidate retrained on ``S``) and
        ``test_best`` (its error on ``T``).

    Examples
    --------
    >>> trial = {"n_val": 10, "n_test": 20, "val_errors": np.array([3, 1]),
    ...          "risk_validated": np.array([0.2, 0.25]), "risk_retrained": np.array([0.2, 0.2]),
    ...          "test_errors": np.array([4, 5])}
    >>> s = selection_summary([trial])
    >>> s["best"].tolist(), s["optimism"].round(2).tolist(), s["regret"].round(2).tolist()
    ([1], [-0.15], [0.05])
    """
    trials = list(trials)
    if not trials:
        raise ValueError("trials must hold at least one output of selection_trial, got none")
    n_cand = len(trials[0]["val_errors"])
    idx = np.arange(n_cand) if subset is None else np.asarray(subset)
    if (
        idx.ndim != 1
        or idx.size == 0
        or not np.issubdtype(idx.dtype, np.integer)
        or idx.min() < 0
        or idx.max() >= n_cand
    ):
        raise ValueError(
            f"subset must be a non-empty list of candidate positions in "
            f"[0, {n_cand}), got {subset!r}"
        )
    fixed_index = check_int(fixed_index, "fixed_index", minimum=0, maximum=n_cand - 1)
    rows = []
    for t in trials:
        val = t["val_errors"] / t["n_val"]
        risk = t["risk_validated"]
        best = int(idx[np.argmin(val[idx])])
        rows.append(
            (
                best,
                val[best],
                risk[best],
                risk[best] - risk[idx].min(),
                risk[idx].mean() - risk[idx].min(),
                val[best] - risk[best],
                val[fixed_index],
                risk[fixed_index],
                t["risk_retrained"][best],
                t["test_errors"][best] / t["n_test"],
            )
        )
    cols = np.array(rows, dtype=float).T
    names = (
        "best",
        "val_best",
        "risk_best",
        "regret",
        "regret_random",
        "optimism",
        "val_fixed",
        "risk_fixed",
        "retrained_best",
        "test_best",
    )
    out = dict(zip(names, cols, strict=True))
    out["best"] = out["best"].astype(int)
    return out


def learning_curve_trial(
    rng: Any,
    distribution: Any,
    estimator: Any,
    m: int,
    train_sizes: Sequence[int],
    n_mc: int = 10_000,
) -> np.ndarray:
    """True risk of ``estimator`` trained on ``n`` points of one sample, for each ``n``.

    Draws ``m`` points (:func:`cvbook.risk.draw_sample`), and for each ``n`` in
    ``train_sizes`` trains on ``n`` of them drawn at random with both classes
    kept (:func:`stratified_indices`; ``n = m`` uses them all). The true risks
    are measured on one common fresh sample of ``n_mc`` points, so that two
    sizes compare paired.

    Parameters
    ----------
    rng : None, int, Generator, RandomState or SeedSequence
    distribution : object with ``sample(m, random_state)``, labels in {-1, +1}
    estimator : scikit-learn classifier
    m : int
        Points in the sample, >= 8.
    train_sizes : sequence of int
        Each in ``[4, m]``.
    n_mc : int, default=10_000

    Returns
    -------
    numpy.ndarray of float, shape (len(train_sizes),)

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> learning_curve_trial(0, TwoGaussians(), LinearDiscriminantAnalysis(), 40, [10, 40]).shape
    (2,)
    """

    rng = check_random_state(rng, "rng")
    check_distribution(distribution)
    clone_estimator(estimator)
    m = check_int(m, "m", minimum=8)
    if isinstance(train_sizes, (str, bytes)) or np.ndim(train_sizes) != 1 or len(train_sizes) == 0:
        raise ValueError(f"train_sizes must be a non-empty list of integers, got {train_sizes!r}")
    sizes = check_integer_array(train_sizes, "train_sizes", ndim=1)
    if sizes.min() < 4 or sizes.max() > m:
        raise ValueError(f"train_sizes must lie in [4, m] = [4, {m}], got {sizes.tolist()}")
    n_mc = check_int(n_mc, "n_mc", minimum=1)
    X, y = draw_sample(distribution, m, rng)
    mc_seed = int(rng.integers(2**32))
    risks = []
    for n in sizes:
        if n >= m - 1:  # all the points, or all but one at random
            train = rng.permutation(m)[:n]
        else:
            train = stratified_indices(y, test_size=int(m - n), random_state=rng)[0]
        model = clone(estimator).fit(X[train], y[train])
        risks.append(model_risk(model, distribution, n_mc, mc_seed))
    return np.asarray(risks)
