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
* :func:`kfold_select` and :func:`nested_kfold` select a model; :func:`kfold_bias_variance`
  measures the bias and variance of the estimate over many data sets, in
  parallel through :func:`cvbook.simulation.repeat`, and, with ``part_truths=True``,
  the expected risk at the size of a training part, which is what the estimate aims at.
* :func:`candidate_grid` builds the grids of candidates that chapters 2 and 3 select
  among; :func:`selection_study` (with :func:`grid_nested_kfold` and
  :class:`KernelRidgeClassifier`) compares the winner's own K-fold score with the
  nested estimate over many data sets, with signal and on pure noise.
* :func:`paired_difference` and :func:`correlation_interval` give the uncertainty of
  the chapter's comparisons.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import KFold, StratifiedKFold

from .datasets.synthetic import monte_carlo_risk
from .holdout import Selection, clone_estimator
from .risk import Loss, empirical_risk
from .simulation import Paired, paired_difference, repeat
from .validation import (
    check_bool,
    check_candidates,
    check_cv,
    check_finite_1d,
    check_float,
    check_int,
    check_random_state,
    check_xy,
)

__all__ = [
    "BiasVariance",
    "FoldRisks",
    "NestedResult",
    "check_n_splits",
    "kfold_bias_variance",
    "kfold_from_scratch",
    "kfold_indices",
    "kfold_risks",
    "kfold_select",
    "make_kfold",
    "nested_kfold",
]


def check_n_splits(n_splits: Any, m: int, name: str = "n_splits") -> int:
    """Return ``n_splits`` as an int ``K`` with ``2 <= K <= m``.

    Examples
    --------
    >>> check_n_splits(5, 20)
    5
    >>> check_n_splits(1, 20)
    Traceback (most recent call last):
    ...
    ValueError: n_splits must be >= 2 (one fold to test, at least one to train), got 1
    """
    if isinstance(n_splits, (bool, np.bool_)) or not isinstance(n_splits, (int, np.integer)):
        raise ValueError(
            f"{name} must be an integer >= 2 (the number of folds K), got {n_splits!r}"
        )
    n_splits = int(n_splits)
    if n_splits < 2:
        raise ValueError(
            f"{name} must be >= 2 (one fold to test, at least one to train), got {n_splits}"
        )
    if n_splits > m:
        raise ValueError(
            f"{name} must be <= m={m}, the number of points (K = m is leave-one-out), "
            f"got {n_splits}"
        )
    return n_splits


def _splitter_state(random_state: Any) -> Any:
    """``random_state`` checked by the one seed rule, in a form scikit-learn's splitters take.

    None, an int and a RandomState pass unchanged (so an int gives scikit-learn's folds);
    a Generator or SeedSequence becomes a RandomState seeded from one draw.
    """
    rs = check_random_state(
        random_state,
        to="seed"
        if random_state is None or isinstance(random_state, (int, np.integer))
        else "randomstate",
    )
    return rs


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
    if m is None:
        if y is None:
            raise ValueError("y or m must be given, to know the number of points")
        m = len(y)
    m = check_int(m, "m", minimum=1)
    n_splits = check_n_splits(n_splits, m)
    stratify, shuffle = check_bool(stratify, "stratify"), check_bool(shuffle, "shuffle")
    rs = _splitter_state(random_state) if shuffle else None
    if stratify:
        if y is None:
            raise ValueError("y must be given when stratify=True")
        labels, counts = np.unique(np.asarray(y), return_counts=True)
        if counts.min() < n_splits:
            small = labels[np.argmin(counts)].item()
            raise ValueError(
                f"n_splits={n_splits} is too large for stratify=True: class {small!r} of y "
                f"has only {counts.min()} members, and every class needs at least n_splits"
            )
        return StratifiedKFold(n_splits=n_splits, shuffle=shuffle, random_state=rs)
    return KFold(n_splits=n_splits, shuffle=shuffle, random_state=rs)


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
    n_splits = check_n_splits(n_splits, m)
    order = np.arange(m)
    check_random_state(random_state, to="randomstate").shuffle(order)
    return [np.sort(fold) for fold in np.array_split(order, n_splits)]


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
    clone_estimator(estimator)
    folds = kfold_indices(len(y), n_splits, random_state)
    risks = []
    for test in folds:
        train = np.setdiff1d(np.arange(len(y)), test)  # all of S but the fold
        model = clone(estimator).fit(X[train], y[train])
        risks.append(empirical_risk(y[test], model.predict(X[test]), loss=loss))
    return np.asarray(risks)


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
    clone_estimator(estimator)
    if cv is None:
        cv = make_kfold(
            n_splits, y=y, stratify=stratify, shuffle=shuffle, random_state=random_state
        )
    else:
        cv = check_cv(cv, "cv", n_samples=len(y))
        if isinstance(cv, int):  # scikit-learn's convention: the number of folds
            cv = make_kfold(
                check_n_splits(cv, len(y), name="cv"),
                y=y,
                stratify=stratify,
                shuffle=shuffle,
                random_state=random_state,
            )
    splits = cv.split(X, y) if hasattr(cv, "split") else cv
    risks, sizes = [], []
    for train, test in splits:
        model = clone(estimator).fit(X[train], y[train])
        risks.append(empirical_risk(y[test], model.predict(X[test]), loss=loss))
        sizes.append(len(test))
    return FoldRisks(risks=np.asarray(risks), sizes=np.asarray(sizes))


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
    candidates = check_candidates(candidates)
    X, y = check_xy(X, y)
    refit = check_bool(refit, "refit")
    cv = make_kfold(n_splits, y=y, stratify=stratify, random_state=random_state)
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
    candidates = check_candidates(candidates)
    X, y = check_xy(X, y)
    outer_splits = check_n_splits(outer_splits, len(y), name="outer_splits")
    smallest_train = len(y) - -(-len(y) // outer_splits)  # m minus the largest outer fold
    inner_splits = check_n_splits(inner_splits, smallest_train, name="inner_splits")
    outer = make_kfold(outer_splits, y=y, stratify=stratify, random_state=random_state)
    risks, sizes, inner_best, chosen = [], [], [], []
    for train, test in outer.split(X, y):
        sel = kfold_select(
            candidates,
            X[train],
            y[train],
            n_splits=inner_splits,
            stratify=stratify,
            random_state=random_state,
            refit=True,
            loss=loss,
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
    """

    ks: np.ndarray
    estimates: np.ndarray
    truths: np.ndarray
    fold_stds: np.ndarray
    part_truths: np.ndarray | None = None

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


def _seeded(estimator: Any, rng: np.random.Generator) -> Any:
    model = clone(estimator)
    if "random_state" in model.get_params():
        model.set_params(random_state=int(rng.integers(2**31 - 1)))
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
) -> tuple:
    """One data set: the K-fold estimate (and fold std) for every K, the true risk on all m,
    and (with ``part_truths``) the true risk of the model trained on fold 1's training part."""
    X, y = distribution.sample(m, random_state=int(rng.integers(2**31 - 1)))
    model = _seeded(estimator, rng)
    fold_seeds = [int(rng.integers(2**31 - 1)) for _ in ks]
    folds = [
        kfold_risks(model, X, y, n_splits=k, stratify=stratify, random_state=s)
        for k, s in zip(ks, fold_seeds, strict=True)
    ]
    truth = monte_carlo_risk(
        clone(model).fit(X, y), distribution, n=n_test, random_state=int(rng.integers(2**31 - 1))
    )
    out = (np.array([f.mean for f in folds]), np.array([f.std for f in folds]), truth)
    if not part_truths:
        return out
    parts = []
    for k, s in zip(ks, fold_seeds, strict=True):
        train, _ = next(make_kfold(k, y=y, stratify=stratify, random_state=s).split(X, y))
        parts.append(
            monte_carlo_risk(
                clone(model).fit(X[train], y[train]),
                distribution,
                n=n_test,
                random_state=int(rng.integers(2**31 - 1)),
            )
        )
    return (*out, np.array(parts))


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
) -> BiasVariance:
    """Bias and variance of the K-fold estimate, over ``n_repeats`` fresh data sets.

    Each repetition draws ``S`` (``m`` points) from ``distribution``, computes
    the K-fold estimate for every ``K`` in ``ks``, and the true risk of the model
    trained on all of ``S`` (by :func:`~cvbook.datasets.synthetic.monte_carlo_risk`
    on ``n_test`` fresh points). Repetitions run in parallel through
    :func:`cvbook.simulation.repeat`, seeded per task: the result does not
    depend on ``n_jobs``.

    Parameters
    ----------
    estimator : scikit-learn estimator
        The learner; a ``random_state`` parameter, if any, is seeded per repetition.
    distribution : object with ``sample(m, random_state)``
        E.g. :class:`~cvbook.datasets.synthetic.TwoGaussians`.
    m : int
        Size of each data set, >= 2.
    ks : sequence of int
        Values of ``K``, each in ``[2, m]`` (``m`` is leave-one-out).
    n_repeats : int, default=100
        Number of data sets.
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
    m = check_int(m, "m", minimum=2)
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Sequence):
        raise ValueError(f"ks must be a list of integers K in [2, m], got {ks!r}")
    ks = [check_n_splits(k, m, name="ks") for k in ks]
    if not ks:
        raise ValueError("ks must hold at least one value of K, got none")
    n_test = check_int(n_test, "n_test", minimum=1)
    stratify = check_bool(stratify, "stratify")
    part_truths = check_bool(part_truths, "part_truths")
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
    )
    return BiasVariance(
        ks=np.asarray(ks),
        estimates=np.array([o[0] for o in out]),
        truths=np.array([o[2] for o in out]),
        fold_stds=np.array([o[1] for o in out]),
        part_truths=np.array([o[3] for o in out]) if part_truths else None,
    )


# --- candidate grids (chapters 2 and 3) --------------------------------------------------

#: The book's learners: hyperparameter name, default grid, value fixed in advance.
_GRIDS: dict[str, tuple[str, tuple, Any]] = {
    "svm": ("C", (0.1, 1.0, 10.0, 100.0), 1.0),
    "knn": ("k", (1, 5, 9, 15), 5),
}


@dataclass(frozen=True)
class CandidateGrid:
    """A grid of candidate models for one learner, as the chapters select among them.

    Attributes
    ----------
    model : str
        ``"svm"`` (Gaussian-kernel SVM) or ``"knn"`` (k-nearest neighbours).
    name : str
        The hyperparameter(s) the grid varies: ``"C"``, ``"k"`` or ``"(C, gamma)"``.
    values : list
        One value per candidate (a ``(C, gamma)`` pair for a two-dimensional grid).
    candidates : list of estimators
        The unfitted candidates, in the order of ``values``.
    fixed : estimator
        The learner with the value fixed in advance (``C = 1`` or ``k = 5``).
    fixed_index : int or None
        Position of the fixed value in ``values``, if the grid holds it.
    """

    model: str
    name: str
    values: list
    candidates: list
    fixed: Any
    fixed_index: int | None

    def make(self, value: Any) -> Any:
        """A new, unfitted candidate with hyperparameter ``value``."""
        return _make_candidate(self.model, value)


def _make_candidate(model: str, value: Any) -> Any:
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.svm import SVC

    if model == "knn":
        return KNeighborsClassifier(n_neighbors=value)
    if model == "kridge":
        alpha, gamma = value if isinstance(value, tuple) else (value, 1.0)
        return KernelRidgeClassifier(alpha=alpha, gamma=gamma)
    if isinstance(value, tuple):
        return SVC(C=value[0], gamma=value[1])
    return SVC(C=value)


def candidate_grid(
    model: str = "svm", values: Sequence[Any] | None = None, gammas: Sequence[float] | None = None
) -> CandidateGrid:
    """The candidates a chapter selects among, for ``model = "svm"`` or ``"knn"``.

    Parameters
    ----------
    model : {"svm", "knn", "kridge"}, default="svm"
        ``"svm"``: :class:`~sklearn.svm.SVC` with a Gaussian kernel, grid of ``C``;
        ``"knn"``: :class:`~sklearn.neighbors.KNeighborsClassifier`, grid of ``k``;
        ``"kridge"``: :class:`KernelRidgeClassifier`, grid of ``alpha`` (``gamma = 1``
        unless ``gammas`` is given).
    values : sequence, optional
        The grid of ``C`` (positive numbers) or of ``k`` (positive integers); default
        ``(0.1, 1, 10, 100)`` or ``(1, 5, 9, 15)``.
    gammas : sequence of float, optional
        ``"svm"`` and ``"kridge"`` only: also vary the kernel width ``gamma``; the grid
        is then every ``(C, gamma)`` (or ``(alpha, gamma)``) pair, the first varying
        slowest.

    Returns
    -------
    CandidateGrid

    Examples
    --------
    >>> g = candidate_grid("svm", values=[0.1, 1.0, 10.0])
    >>> g.name, g.values, g.fixed_index
    ('C', [0.1, 1.0, 10.0], 1)
    >>> len(candidate_grid("svm", values=[1, 10], gammas=[0.1, 1.0]).candidates)
    4
    >>> candidate_grid("forest")
    Traceback (most recent call last):
    ...
    ValueError: model must be one of ['knn', 'kridge', 'svm'], got 'forest'
    """
    if not isinstance(model, str) or model not in _GRIDS:
        raise ValueError(f"model must be one of {sorted(_GRIDS)}, got {model!r}")
    name, default, fixed = _GRIDS[model]
    raw = default if values is None else values
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence) or len(raw) == 0:
        raise ValueError(f"values must be a non-empty list of {name} values, got {values!r}")
    if model == "knn":
        vals = [check_int(v, "values", minimum=1) for v in raw]
    else:
        vals = [check_float(v, "values", minimum=0, exclusive=True) for v in raw]
    if gammas is not None:
        if model == "knn":
            raise ValueError(f"gammas applies to the kernel models only, got model={model!r}")
        if isinstance(gammas, (str, bytes)) or not isinstance(gammas, Sequence) or len(gammas) == 0:
            raise ValueError(f"gammas must be a non-empty list of positive numbers, got {gammas!r}")
        gs = [check_float(g, "gammas", minimum=0, exclusive=True) for g in gammas]
        vals = [(c, g) for c in vals for g in gs]
        name = f"({name}, gamma)"
    fixed_index = vals.index(fixed) if fixed in vals else None
    return CandidateGrid(
        model=model,
        name=name,
        values=vals,
        candidates=[_make_candidate(model, v) for v in vals],
        fixed=_make_candidate(model, fixed),
        fixed_index=fixed_index,
    )


__all__ += ["CandidateGrid", "candidate_grid"]


# --- the selection study of chapter 3, section 4 ------------------------------------------

from sklearn.base import BaseEstimator, ClassifierMixin  # noqa: E402
from sklearn.metrics.pairwise import rbf_kernel  # noqa: E402

_GRIDS["kridge"] = ("alpha", (0.001, 0.01, 0.1, 1.0, 10.0), 1.0)


class KernelRidgeClassifier(ClassifierMixin, BaseEstimator):
    """Kernel ridge regression on labels coded -1/+1, predicting by its sign.

    Also called regularised least-squares classification or the least-squares SVM: the
    Gaussian-kernel SVM's hinge loss replaced by the squared loss. Its fit is one
    linear solve, which makes a grid of ``alpha x gamma`` cheap to cross-validate. A
    training set with a single class gives the constant classifier of that class.

    Parameters
    ----------
    alpha : float, default=1.0
        Ridge penalty (larger: smoother), > 0.
    gamma : float, default=1.0
        Width of the kernel ``exp(-gamma ||x - x'||^2)``, > 0.

    Examples
    --------
    >>> from cvbook.datasets import TwoGaussians
    >>> X, y = TwoGaussians().sample(40, random_state=0)
    >>> clf = KernelRidgeClassifier(alpha=0.1, gamma=0.1).fit(X, y)
    >>> float(np.mean(clf.predict(X) == y)) > 0.5
    True
    """

    def __init__(self, alpha: float = 1.0, gamma: float = 1.0) -> None:
        self.alpha = alpha
        self.gamma = gamma

    def fit(self, X: Any, y: Any) -> KernelRidgeClassifier:
        """Fit on ``(X, y)`` with at most two classes."""
        X, y = check_xy(X, y)
        alpha = check_float(self.alpha, "alpha", minimum=0, exclusive=True)
        gamma = check_float(self.gamma, "gamma", minimum=0, exclusive=True)
        self.classes_ = np.unique(y)
        if self.classes_.size > 2:
            raise ValueError(f"y must hold at most two classes, got {self.classes_.size}")
        target = np.where(y == self.classes_[-1], 1.0, -1.0)
        self.X_fit_ = X
        self.dual_coef_ = _ridge_coef(rbf_kernel(X, X, gamma=gamma), target, np.array([alpha]))[
            :, 0
        ]
        self.n_features_in_ = X.shape[1]
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """The kernel ridge regression ``f(x)``; positive means ``classes_[-1]``."""
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self)
        from .validation import check_features

        X = check_features(X, "X")
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but the classifier was fitted "
                f"with {self.n_features_in_}"
            )
        return rbf_kernel(X, self.X_fit_, gamma=float(self.gamma)) @ self.dual_coef_

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[-1]`` where ``f(x) > 0``, else ``classes_[0]``."""
        return np.where(self.decision_function(X) > 0, self.classes_[-1], self.classes_[0])


def _ridge_coef(kernel: np.ndarray, target: np.ndarray, alphas: np.ndarray) -> np.ndarray:
    """Dual coefficients ``(K + alpha I)^{-1} t`` for every alpha (columns), by one eigh."""
    w, V = np.linalg.eigh(kernel)
    return V @ ((V.T @ target)[:, None] / (w[:, None] + alphas[None, :]))


def _grid_errors(
    kernels: list[np.ndarray],
    t: np.ndarray,
    train: np.ndarray,
    test: np.ndarray,
    alphas: np.ndarray,
) -> np.ndarray:
    """Test error of every (alpha, gamma) candidate trained on ``train``: (n_alpha, n_gamma)."""
    out = np.empty((alphas.size, len(kernels)))
    for g, K in enumerate(kernels):
        coef = _ridge_coef(K[np.ix_(train, train)], t[train], alphas)
        pred = np.where(K[np.ix_(test, train)] @ coef > 0, 1.0, -1.0)
        out[:, g] = (pred != t[test][:, None]).mean(axis=0)
    return out


def _grid_select(kernels, t, idx, n_splits, random_state, alphas):
    """K-fold selection on the points ``idx``: mean fold error of every candidate."""
    cv = make_kfold(n_splits, m=idx.size, random_state=random_state)
    scores = np.zeros((alphas.size, len(kernels)))
    for train, test in cv.split(idx):
        scores += _grid_errors(kernels, t, idx[train], idx[test], alphas)
    return scores.ravel() / n_splits


@dataclass(frozen=True)
class GridNested:
    """The selected candidate's own K-fold score and the nested estimate, on one data set.

    Attributes
    ----------
    scores : ndarray of shape (n_candidates,)
        K-fold estimate of every candidate on all of ``S`` (order of
        ``candidate_grid("kridge", alphas, gammas).values``).
    best_index : int
        The candidate with the smallest score (the first on ties), shipped after
        retraining on all of ``S``.
    nested : NestedResult
        Nested K-fold of the whole select-then-retrain procedure.
    """

    scores: np.ndarray
    best_index: int
    nested: NestedResult

    @property
    def own_score(self) -> float:
        """The winner's own K-fold score: the number a naive report quotes."""
        return float(self.scores[self.best_index])


def grid_nested_kfold(
    X: Any,
    y: Any,
    alphas: Sequence[float],
    gammas: Sequence[float],
    outer_splits: int = 5,
    inner_splits: int = 5,
    random_state: Any = None,
) -> GridNested:
    """Select among kernel ridge classifiers by K-fold, and nest it, with shared kernels.

    The same numbers as :func:`kfold_select` and :func:`nested_kfold` run on
    ``candidate_grid("kridge", alphas, gammas).candidates`` with unstratified shuffled
    folds (a test checks it), computed with one Gaussian kernel matrix per ``gamma`` and
    one eigendecomposition per training part for all ``alphas``: tens of times faster.

    Parameters
    ----------
    X : array_like of shape (m, d)
    y : array_like of shape (m,)
        Two classes at most.
    alphas, gammas : sequence of float
        The grid (positive numbers).
    outer_splits, inner_splits : int, default=5
        As in :func:`nested_kfold`.
    random_state : None, int, Generator, RandomState or SeedSequence
        Seed of every shuffle (the same for the selection on ``S``, the outer folds and
        the inner folds, as in :func:`nested_kfold`).

    Returns
    -------
    GridNested

    Examples
    --------
    >>> from cvbook.datasets import TwoGaussians
    >>> X, y = TwoGaussians().sample(30, random_state=0)
    >>> res = grid_nested_kfold(X, y, [0.1, 1.0], [0.1, 1.0], 3, 3, random_state=0)
    >>> res.scores.shape, res.nested.outer.n_splits
    ((4,), 3)
    """
    X, y = check_xy(X, y)
    grid = candidate_grid("kridge", values=alphas, gammas=gammas)
    n_gammas = len(gammas)
    alphas = np.array([a for a, _ in grid.values[::n_gammas]])
    gammas = [g for _, g in grid.values[:n_gammas]]
    m = len(y)
    outer_splits = check_n_splits(outer_splits, m, name="outer_splits")
    inner_splits = check_n_splits(inner_splits, m - -(-m // outer_splits), name="inner_splits")
    rs = _splitter_state(random_state)
    if isinstance(rs, np.random.RandomState):  # one int for all the shuffles, as documented
        rs = int(rs.randint(0, 2**31 - 1))
    classes = np.unique(y)
    if classes.size > 2:
        raise ValueError(f"y must hold at most two classes, got {classes.size}")
    t = np.where(y == classes[-1], 1.0, -1.0)
    kernels = [rbf_kernel(X, X, gamma=g) for g in gammas]
    everything = np.arange(m)
    scores = _grid_select(kernels, t, everything, inner_splits, rs, alphas)
    best = int(np.argmin(scores))
    risks, sizes, inner_best, chosen = [], [], [], []
    for train, test in make_kfold(outer_splits, m=m, random_state=rs).split(everything):
        inner = _grid_select(kernels, t, train, inner_splits, rs, alphas)
        j = int(np.argmin(inner))
        a, g = divmod(j, len(gammas))
        risks.append(_grid_errors([kernels[g]], t, train, test, alphas[[a]])[0, 0])
        sizes.append(len(test))
        inner_best.append(inner[j])
        chosen.append(j)
    nested = NestedResult(
        outer=FoldRisks(np.asarray(risks), np.asarray(sizes)),
        inner_best=np.asarray(inner_best),
        chosen=np.asarray(chosen),
    )
    return GridNested(scores=scores, best_index=best, nested=nested)


@dataclass(frozen=True)
class SelectionStudy:
    """The selection study over many data sets (chapter 3, section 4).

    Attributes
    ----------
    own : ndarray of shape (n_repeats,)
        The selected candidate's own K-fold score on each data set.
    nested : ndarray of shape (n_repeats,)
        The nested K-fold estimate of select-then-retrain.
    truths : ndarray of shape (n_repeats,)
        True risk ``L(f_S)`` of the model shipped (selected, retrained on all of ``S``);
        exactly 1/2 under ``null=True``.
    chosen : ndarray of shape (n_repeats,)
        Index of the shipped candidate.
    """

    own: np.ndarray
    nested: np.ndarray
    truths: np.ndarray
    chosen: np.ndarray


def _selection_one(
    rng: np.random.Generator,
    distribution: Any,
    m: int,
    alphas: Sequence[float],
    gammas: Sequence[float],
    outer_splits: int,
    inner_splits: int,
    n_test: int,
    null: bool,
) -> tuple[float, float, float, int]:
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):  # tiny matrices: BLAS threads only cost time
        return _selection_one_body(
            rng, distribution, m, alphas, gammas, outer_splits, inner_splits, n_test, null
        )


def _selection_one_body(
    rng, distribution, m, alphas, gammas, outer_splits, inner_splits, n_test, null
):
    X, y = distribution.sample(m, random_state=int(rng.integers(2**31 - 1)))
    if null:  # labels that carry no information: fair coins, independent of X
        y = np.where(rng.random(m) < 0.5, 1, -1)
    fold_seed = int(rng.integers(2**31 - 1))
    res = grid_nested_kfold(X, y, alphas, gammas, outer_splits, inner_splits, fold_seed)
    alpha, gamma = candidate_grid("kridge", alphas, gammas).values[res.best_index]
    shipped = KernelRidgeClassifier(alpha=alpha, gamma=gamma).fit(X, y)
    mc_seed = int(rng.integers(2**31 - 1))
    truth = 0.5 if null else monte_carlo_risk(shipped, distribution, n=n_test, random_state=mc_seed)
    return res.own_score, res.nested.outer.mean, float(truth), res.best_index


def selection_study(
    distribution: Any,
    m: int,
    alphas: Sequence[float],
    gammas: Sequence[float],
    n_repeats: int = 100,
    outer_splits: int = 5,
    inner_splits: int = 5,
    null: bool = False,
    n_test: int = 10_000,
    random_state: Any = None,
    n_jobs: int | None = None,
) -> SelectionStudy:
    """Own score against nested estimate of K-fold selection, over fresh data sets.

    Each repetition draws ``S`` (``m`` points) from ``distribution``, selects among the
    ``alpha x gamma`` kernel ridge classifiers by K-fold (``inner_splits`` folds), ships
    the winner retrained on all of ``S``, and runs nested K-fold
    (:func:`grid_nested_kfold`). The true risk of the shipped model is measured on
    ``n_test`` fresh points. With ``null=True`` the labels are replaced by fair coin
    flips drawn independently of ``X``: every classifier then has true risk 1/2 exactly.
    A training part with one class gives a constant classifier (by design, no failure).

    Parameters
    ----------
    distribution : object with ``sample(m, random_state)``
    m : int
        Size of each data set.
    alphas, gammas : sequence of float
        The grid.
    n_repeats : int, default=100
    outer_splits, inner_splits : int, default=5
    null : bool, default=False
    n_test : int, default=10_000
    random_state : None, int, Generator, RandomState or SeedSequence
        Root seed (:func:`cvbook.simulation.repeat`); the result does not depend on
        ``n_jobs``.
    n_jobs : int or None

    Returns
    -------
    SelectionStudy

    Examples
    --------
    >>> from cvbook.datasets import TwoGaussians
    >>> st = selection_study(TwoGaussians(), 30, [0.1, 1.0], [0.1, 1.0], n_repeats=2,
    ...                      outer_splits=3, inner_splits=3, null=True, random_state=0)
    >>> st.truths.tolist()
    [0.5, 0.5]
    """
    m = check_int(m, "m", minimum=4)
    candidate_grid("kridge", alphas, gammas)  # checks the grid by name
    outer_splits = check_n_splits(outer_splits, m, name="outer_splits")
    inner_splits = check_n_splits(inner_splits, m - -(-m // outer_splits), name="inner_splits")
    null = check_bool(null, "null")
    n_test = check_int(n_test, "n_test", minimum=1)
    out = repeat(
        _selection_one,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        distribution=distribution,
        m=m,
        alphas=list(alphas),
        gammas=list(gammas),
        outer_splits=outer_splits,
        inner_splits=inner_splits,
        n_test=n_test,
        null=null,
    )
    own, nested, truths, chosen = (np.array(c) for c in zip(*out, strict=True))
    return SelectionStudy(own=own, nested=nested, truths=truths, chosen=chosen)


# --- paired comparisons and correlations -------------------------------------------------


def correlation_interval(a: Any, b: Any, level: float = 0.95) -> tuple[float, float, float]:
    """Pearson correlation of ``a`` and ``b`` with its Fisher-z confidence interval.

    ``atanh(r)`` is approximately normal with standard deviation ``1/sqrt(n - 3)``.

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
    from scipy import stats

    a, b = check_finite_1d(a, "a"), check_finite_1d(b, "b")
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same length, got {a.size} and {b.size}")
    if a.size < 4:
        raise ValueError(f"a and b must hold at least 4 pairs, got {a.size}")
    if np.ptp(a) == 0 or np.ptp(b) == 0:
        raise ValueError("a and b must both vary (a correlation needs a spread)")
    level = check_float(level, "level", minimum=0, maximum=1, exclusive=True)
    r = float(np.corrcoef(a, b)[0, 1])
    half = stats.norm.isf((1 - level) / 2) / np.sqrt(a.size - 3)
    z = np.arctanh(np.clip(r, -1 + 1e-15, 1 - 1e-15))
    return r, float(np.tanh(z - half)), float(np.tanh(z + half))


__all__ += [
    "GridNested",
    "KernelRidgeClassifier",
    "Paired",
    "SelectionStudy",
    "correlation_interval",
    "grid_nested_kfold",
    "paired_difference",
    "selection_study",
]
