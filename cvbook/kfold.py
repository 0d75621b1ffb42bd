"""K-fold cross-validation (chapter 3).

Split the sample ``S`` of ``m`` points into ``K`` folds; for each fold, train
on the other ``K - 1`` folds and measure the error on the fold left out. The
K-fold estimate of the risk is the **mean** of the ``K`` fold risks
(seed 000; Mohri et al., seed 004, §4.5).

* :func:`kfold_risks` returns every fold's risk and size (a :class:`FoldRisks`),
  on top of scikit-learn's :class:`~sklearn.model_selection.KFold` /
  :class:`~sklearn.model_selection.StratifiedKFold` and :func:`~sklearn.base.clone`.
* :func:`kfold_from_scratch` is the same procedure written out with numpy, as the
  chapter teaches it; a test shows it equals
  :func:`sklearn.model_selection.cross_val_score` on the same folds.
* :func:`kfold_select` and :func:`nested_kfold` select a model; :func:`kfold_bias_variance`
  measures the bias and variance of the estimate over many data sets, in
  parallel through :func:`cvbook.simulation.repeat`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.utils import check_random_state

from ._checks import check_float, check_int
from .datasets.synthetic import monte_carlo_risk
from .holdout import Loss, Selection, _check_candidates, _check_xy, clone_estimator
from .risk import empirical_risk
from .simulation import repeat

__all__ = [
    "check_n_splits",
    "make_kfold",
    "kfold_indices",
    "kfold_from_scratch",
    "FoldRisks",
    "kfold_risks",
    "kfold_select",
    "NestedResult",
    "nested_kfold",
    "BiasVariance",
    "kfold_bias_variance",
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
    if isinstance(n_splits, bool) or not isinstance(n_splits, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {n_splits!r}")
    n_splits = int(n_splits)
    if n_splits < 2:
        raise ValueError(
            f"{name} must be >= 2 (one fold to test, at least one to train), got {n_splits}")
    if n_splits > m:
        raise ValueError(
            f"{name} must be <= m={m}, the number of points (K = m is leave-one-out), "
            f"got {n_splits}")
    return n_splits


def make_kfold(n_splits: int = 5, y: Any = None, m: int | None = None,
               stratify: bool = False, shuffle: bool = True,
               random_state: Any = None) -> KFold | StratifiedKFold:
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
    random_state : int, RandomState or None
        Seed of the shuffle (ignored when ``shuffle=False``).

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
    rs = random_state if shuffle else None
    if stratify:
        if y is None:
            raise ValueError("y must be given when stratify=True")
        labels, counts = np.unique(np.asarray(y), return_counts=True)
        if counts.min() < n_splits:
            small = labels[np.argmin(counts)].item()
            raise ValueError(
                f"n_splits={n_splits} is too large for stratify=True: class {small!r} of y "
                f"has only {counts.min()} members, and every class needs at least n_splits")
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
    check_random_state(random_state).shuffle(order)
    return [np.sort(fold) for fold in np.array_split(order, n_splits)]


def kfold_from_scratch(estimator: Any, X: Any, y: Any, n_splits: int = 5,
                       random_state: Any = None, loss: Loss = "zero_one") -> np.ndarray:
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
    X, y = _check_xy(X, y)
    clone_estimator(estimator)
    folds = kfold_indices(len(y), n_splits, random_state)
    risks = []
    for test in folds:
        train = np.setdiff1d(np.arange(len(y)), test)      # all of S but the fold
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
        return int(len(self.risks))

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
        """The *sum* of fold risks (as seed 002 writes it): ``K`` times :attr:`mean`."""
        return float(np.sum(self.risks))

    @property
    def std(self) -> float:
        """Standard deviation of the fold risks (``ddof=1``): a spread across folds,
        not the standard error of :attr:`mean`."""
        return float(np.std(self.risks, ddof=1)) if self.n_splits > 1 else 0.0


def kfold_risks(estimator: Any, X: Any, y: Any, n_splits: int = 5, stratify: bool = False,
                shuffle: bool = True, random_state: Any = None,
                loss: Loss = "zero_one", cv: Any = None) -> FoldRisks:
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
    cv : splitter or iterable of (train, test), optional
        Use these folds instead of :func:`make_kfold`'s.

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
    X, y = _check_xy(X, y)
    clone_estimator(estimator)
    if cv is None:
        cv = make_kfold(n_splits, y=y, stratify=stratify, shuffle=shuffle,
                        random_state=random_state)
    splits = cv.split(X, y) if hasattr(cv, "split") else cv
    risks, sizes = [], []
    for train, test in splits:
        model = clone(estimator).fit(X[train], y[train])
        risks.append(empirical_risk(y[test], model.predict(X[test]), loss=loss))
        sizes.append(len(test))
    return FoldRisks(risks=np.asarray(risks), sizes=np.asarray(sizes))


def kfold_select(candidates: Sequence[Any], X: Any, y: Any, n_splits: int = 5,
                 stratify: bool = False, random_state: Any = None, refit: bool = True,
                 loss: Loss = "zero_one") -> Selection:
    """Select among candidate models by their K-fold estimate, then retrain.

    Ng's procedure (seed 001): evaluate every candidate by K-fold on the same
    folds, pick the smallest mean fold risk, retrain that candidate on all of ``S``.

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
    candidates = _check_candidates(candidates)
    X, y = _check_xy(X, y)
    cv = make_kfold(n_splits, y=y, stratify=stratify, random_state=random_state)
    folds = list(cv.split(X, y))
    risks = np.array([kfold_risks(est, X, y, cv=folds, loss=loss).risks for est in candidates])
    best = int(np.argmin(risks.mean(axis=1)))
    best_model = clone(candidates[best])
    if refit:
        best_model.fit(X, y)
    return Selection(candidates=candidates, risks=risks, best_index=best,
                     best_estimator=best_model)


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


def nested_kfold(candidates: Sequence[Any], X: Any, y: Any, outer_splits: int = 5,
                 inner_splits: int = 5, stratify: bool = False, random_state: Any = None,
                 loss: Loss = "zero_one") -> NestedResult:
    """Nested K-fold: estimate the risk of *selecting* a model with K-fold.

    Each outer training part runs :func:`kfold_select` on its own (inner folds);
    the selected, retrained model is tested on the outer fold, which took no
    part in the choice.

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> from cvbook.datasets import TwoGaussians
    >>> X, y = TwoGaussians().sample(60, random_state=0)
    >>> res = nested_kfold([SVC(C=c) for c in (0.01, 1.0)], X, y, 3, 3, random_state=0)
    >>> res.outer.n_splits, res.chosen.shape
    (3, (3,))
    """
    candidates = _check_candidates(candidates)
    X, y = _check_xy(X, y)
    outer = make_kfold(outer_splits, y=y, stratify=stratify, random_state=random_state)
    risks, sizes, inner_best, chosen = [], [], [], []
    for train, test in outer.split(X, y):
        sel = kfold_select(candidates, X[train], y[train], n_splits=inner_splits,
                           stratify=stratify, random_state=random_state, refit=True, loss=loss)
        risks.append(empirical_risk(y[test], sel.best_estimator.predict(X[test]), loss=loss))
        sizes.append(len(test))
        inner_best.append(sel.best_risk)
        chosen.append(sel.best_index)
    return NestedResult(outer=FoldRisks(np.asarray(risks), np.asarray(sizes)),
                        inner_best=np.asarray(inner_best), chosen=np.asarray(chosen))


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
    """

    ks: np.ndarray
    estimates: np.ndarray
    truths: np.ndarray
    fold_stds: np.ndarray

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


def _bias_variance_one(rng: np.random.Generator, estimator: Any, distribution: Any, m: int,
                       ks: Sequence[int], n_test: int,
                       stratify: bool) -> tuple[np.ndarray, np.ndarray, float]:
    """One data set: the K-fold estimate (and fold std) for every K, the true risk on all m."""
    X, y = distribution.sample(m, random_state=int(rng.integers(2**31 - 1)))
    model = _seeded(estimator, rng)
    folds = [kfold_risks(model, X, y, n_splits=k, stratify=stratify,
                         random_state=int(rng.integers(2**31 - 1))) for k in ks]
    truth = monte_carlo_risk(clone(model).fit(X, y), distribution, n=n_test,
                             random_state=int(rng.integers(2**31 - 1)))
    return np.array([f.mean for f in folds]), np.array([f.std for f in folds]), truth


def kfold_bias_variance(estimator: Any, distribution: Any, m: int, ks: Sequence[int],
                        n_repeats: int = 100, random_state: Any = None, n_jobs: int | None = None,
                        n_test: int = 20_000, stratify: bool = False,
                        progress: bool = False) -> BiasVariance:
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
    ks = [check_n_splits(k, m, name="ks") for k in ks]
    if not ks:
        raise ValueError("ks must hold at least one value of K, got none")
    n_test = check_int(n_test, "n_test", minimum=1)
    out = repeat(_bias_variance_one, n_repeats, random_state=random_state, n_jobs=n_jobs,
                 progress=progress, desc="K-fold bias/variance", estimator=estimator,
                 distribution=distribution, m=m, ks=ks, n_test=n_test, stratify=stratify)
    return BiasVariance(ks=np.asarray(ks), estimates=np.array([e for e, _, _ in out]),
                        truths=np.array([t for _, _, t in out]),
                        fold_stds=np.array([s for _, s, _ in out]))


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
    if isinstance(value, tuple):
        return SVC(C=value[0], gamma=value[1])
    return SVC(C=value)


def candidate_grid(model: str = "svm", values: Sequence[Any] | None = None,
                   gammas: Sequence[float] | None = None) -> CandidateGrid:
    """The candidates a chapter selects among, for ``model = "svm"`` or ``"knn"``.

    Parameters
    ----------
    model : {"svm", "knn"}, default="svm"
        ``"svm"``: :class:`~sklearn.svm.SVC` with a Gaussian kernel, grid of ``C``;
        ``"knn"``: :class:`~sklearn.neighbors.KNeighborsClassifier`, grid of ``k``.
    values : sequence, optional
        The grid of ``C`` (positive numbers) or of ``k`` (positive integers); default
        ``(0.1, 1, 10, 100)`` or ``(1, 5, 9, 15)``.
    gammas : sequence of float, optional
        ``"svm"`` only: also vary the kernel width ``gamma``; the grid is then every
        ``(C, gamma)`` pair, ``C`` varying slowest.

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
    ValueError: model must be one of ['knn', 'svm'], got 'forest'
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
        if model != "svm":
            raise ValueError(f"gammas applies to model='svm' only, got model={model!r}")
        if isinstance(gammas, (str, bytes)) or not isinstance(gammas, Sequence) or \
                len(gammas) == 0:
            raise ValueError(f"gammas must be a non-empty list of positive numbers, "
                             f"got {gammas!r}")
        gs = [check_float(g, "gammas", minimum=0, exclusive=True) for g in gammas]
        vals = [(c, g) for c in vals for g in gs]
        name = "(C, gamma)"
    fixed_index = vals.index(fixed) if fixed in vals else None
    return CandidateGrid(model=model, name=name, values=vals,
                         candidates=[_make_candidate(model, v) for v in vals],
                         fixed=_make_candidate(model, fixed), fixed_index=fixed_index)


__all__ += ["CandidateGrid", "candidate_grid"]
