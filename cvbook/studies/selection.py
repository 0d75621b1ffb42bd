"""Chapters 2-3's selection studies: what choosing a model on a validation or K-fold
score costs, and what the winner's own score says about its risk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.metrics.pairwise import rbf_kernel

from ..datasets.synthetic import monte_carlo_risk
from ..holdout import stratified_indices
from ..kfold import FoldRisks, NestedResult, checked_kfold
from ..learners import get_learner
from ..risk import count_errors, draw_sample, model_risk
from ..simulation import repeat
from ..validation import (
    Interval,
    check_bool,
    check_candidates,
    check_distribution,
    check_float,
    check_int,
    check_n_splits_bound,
    check_random_state,
    check_splitter_seed,
    check_test_fraction,
    check_xy,
    validate_params,
)

__all__ = [
    "CandidateGrid",
    "GridNested",
    "KernelRidgeClassifier",
    "SelectionStudy",
    "candidate_grid",
    "choice_costs",
    "grid_nested_kfold",
    "selection_study",
    "selection_summary",
    "selection_trial",
]


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


def _trials_and_subset(
    trials: Sequence[dict], subset: Sequence[int] | None
) -> tuple[list[dict], int, np.ndarray]:
    """The trials as a list, the number of candidates, and ``subset`` checked as positions."""
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
            f"subset must be a non-empty list of candidate positions in [0, {n_cand}), "
            f"got {subset!r}"
        )
    return trials, n_cand, idx


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
    trials, n_cand, idx = _trials_and_subset(trials, subset)
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


#: The candidate families a chapter selects among: hyperparameter name, default grid, value
#: fixed in advance. A family is not one configuration (that is :mod:`cvbook.learners`):
#: it is a hyperparameter and the values a selection tries.
_GRIDS: dict[str, tuple[str, tuple, Any]] = {
    "svm": ("C", (0.1, 1.0, 10.0, 100.0), 1.0),
    "knn": ("k", (1, 5, 9, 15), 5),
    "kridge": ("alpha", (0.001, 0.01, 0.1, 1.0, 10.0), 1.0),
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
    """One candidate of the family ``model``: ``"svm"`` is :mod:`cvbook.learners`' ``"svm"``
    (the Gaussian-kernel SVM) with its ``C`` (and ``gamma``) set to ``value``."""
    from sklearn.neighbors import KNeighborsClassifier

    if model == "knn":
        return KNeighborsClassifier(n_neighbors=value)
    if model == "kridge":
        alpha, gamma = value if isinstance(value, tuple) else (value, 1.0)
        return KernelRidgeClassifier(alpha=alpha, gamma=gamma)
    svm = get_learner("svm").make()
    if isinstance(value, tuple):
        return svm.set_params(C=value[0], gamma=value[1])
    return svm.set_params(C=value)


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
    name, default, _ = _GRIDS[model]
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
        gammas = [check_float(g, "gammas", minimum=0, exclusive=True) for g in gammas]
    return _grid_of(model, vals, gammas)


def _grid_of(model: str, vals: list, gammas: list[float] | None) -> CandidateGrid:
    """:func:`candidate_grid` of values already checked and converted (ints for ``"knn"``,
    floats otherwise; ``gammas`` floats or None): the studies that declared their grid at
    the door build it here, without checking it again."""
    name, _, fixed = _GRIDS[model]
    if gammas is not None:
        vals = [(c, g) for c in vals for g in gammas]
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
        from cvbook.validation import check_features

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
    cv = checked_kfold(n_splits, None, False, True, random_state)
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


def _check_positive_list(values: Any, name: str) -> None:
    """A kernel ridge grid list (``alphas`` or ``gammas``), named as the caller spells it
    (``candidate_grid`` would call ``alphas`` its ``values``): a non-empty list, tuple or
    1-d real numpy array of distinct positive numbers (a repeated value would count one
    candidate twice, and ``chosen`` would name either)."""
    if isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "iuf":
        values = values.tolist()  # the same floats as the list: the studies' outputs agree
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
        raise ValueError(
            f"{name} must be a non-empty list, tuple or 1-d array of distinct positive "
            f"numbers, got {values!r}"
        )
    seen: set[float] = set()
    for v in values:
        v = check_float(v, name, minimum=0, exclusive=True)
        if v in seen:
            raise ValueError(
                f"{name} must be a non-empty list, tuple or 1-d array of distinct positive "
                f"numbers, got {v!r} twice in {values!r}"
            )
        seen.add(v)


def _kridge_grid(alphas: Sequence[float], gammas: Sequence[float]) -> CandidateGrid:
    """``candidate_grid("kridge", alphas, gammas)`` of lists checked at the door."""
    return _grid_of("kridge", [float(a) for a in alphas], [float(g) for g in gammas])


#: What the grid studies declare once at the door: the grid (non-empty lists, tuples or
#: 1-d arrays of distinct positive numbers) and the split counts (ints >= 2); the counts'
#: bounds against the data (``_check_split_bounds``) are the bodies', once per call.
_GRID_STUDY = {
    "alphas": _check_positive_list,
    "gammas": _check_positive_list,
    "outer_splits": Interval("int", 2),
    "inner_splits": Interval("int", 2),
}


def _check_split_bounds(outer_splits: int, inner_splits: int, m: int) -> tuple[int, int]:
    """The bounds of declared split counts on ``m`` points: ``outer_splits <= m``, and
    ``inner_splits`` at most the smallest outer training part, ``m - ceil(m / outer_splits)``
    (so every inner selection, on every training part, has points enough)."""
    outer_splits = check_n_splits_bound(outer_splits, m, name="outer_splits")
    inner_splits = check_n_splits_bound(
        inner_splits, m - -(-m // outer_splits), name="inner_splits"
    )
    return outer_splits, inner_splits


@validate_params(_GRID_STUDY)
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
        The grid: distinct positive numbers (a list, tuple or 1-d array).
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
    grid = _kridge_grid(alphas, gammas)
    outer_splits, inner_splits = _check_split_bounds(outer_splits, inner_splits, len(y))
    rs = check_splitter_seed(random_state)
    if isinstance(rs, np.random.RandomState):  # one int for all the shuffles, as documented
        rs = int(rs.randint(0, 2**31 - 1))
    return _grid_nested(X, y, grid, len(gammas), outer_splits, inner_splits, rs)


def _grid_nested(
    X: np.ndarray,
    y: np.ndarray,
    grid: CandidateGrid,
    n_gammas: int,
    outer_splits: int,
    inner_splits: int,
    rs: int | None,
) -> GridNested:
    """:func:`grid_nested_kfold` once its arguments are checked (``X``, ``y`` by
    ``check_xy``; the split counts and their bounds on ``len(y)``; ``rs`` an int or None):
    the selection study runs it on every data set without checking them again."""
    alphas = np.array([a for a, _ in grid.values[::n_gammas]])
    gammas = [g for _, g in grid.values[:n_gammas]]
    m = len(y)
    classes = np.unique(y)
    if classes.size > 2:
        raise ValueError(f"y must hold at most two classes, got {classes.size}")
    t = np.where(y == classes[-1], 1.0, -1.0)
    kernels = [rbf_kernel(X, X, gamma=g) for g in gammas]
    everything = np.arange(m)
    scores = _grid_select(kernels, t, everything, inner_splits, rs, alphas)
    best = int(np.argmin(scores))
    risks, sizes, inner_best, chosen = [], [], [], []
    for train, test in checked_kfold(outer_splits, None, False, True, rs).split(everything):
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
    grid: CandidateGrid,
    n_gammas: int,
    outer_splits: int,
    inner_splits: int,
    n_test: int,
    null: bool,
) -> tuple[float, float, float, int]:
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):  # tiny matrices: BLAS threads only cost time
        return _selection_one_body(
            rng, distribution, m, grid, n_gammas, outer_splits, inner_splits, n_test, null
        )


def _selection_one_body(
    rng, distribution, m, grid, n_gammas, outer_splits, inner_splits, n_test, null
):
    X, y = distribution.sample(m, random_state=int(rng.integers(2**31 - 1)))
    if null:  # labels that carry no information: fair coins, independent of X
        y = np.where(rng.random(m) < 0.5, 1, -1)
    fold_seed = int(rng.integers(2**31 - 1))
    X, y = check_xy(X, y)
    # the grid and the split counts (with their bounds on m) were checked by
    # selection_study, once; the grid was built there, once
    res = _grid_nested(X, y, grid, n_gammas, outer_splits, inner_splits, fold_seed)
    alpha, gamma = grid.values[res.best_index]
    shipped = KernelRidgeClassifier(alpha=alpha, gamma=gamma).fit(X, y)
    mc_seed = int(rng.integers(2**31 - 1))
    truth = 0.5 if null else monte_carlo_risk(shipped, distribution, n=n_test, random_state=mc_seed)
    return res.own_score, res.nested.outer.mean, float(truth), res.best_index


@validate_params(_GRID_STUDY)
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
        The grid: distinct positive numbers (a list, tuple or 1-d array).
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
    outer_splits, inner_splits = _check_split_bounds(outer_splits, inner_splits, m)
    null = check_bool(null, "null")
    n_test = check_int(n_test, "n_test", minimum=1)
    out = repeat(
        _selection_one,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        distribution=distribution,
        m=m,
        grid=_kridge_grid(alphas, gammas),
        n_gammas=len(gammas),
        outer_splits=outer_splits,
        inner_splits=inner_splits,
        n_test=n_test,
        null=null,
    )
    own, nested, truths, chosen = (np.array(c) for c in zip(*out, strict=True))
    return SelectionStudy(own=own, nested=nested, truths=truths, chosen=chosen)


def choice_costs(
    trials: Sequence[dict], subset: Sequence[int] | None = None
) -> dict[str, np.ndarray]:
    """What a hold-out choice costs at the full size ``m``, trial by trial.

    From the outputs of :func:`selection_trial`, which hold for every candidate
    the true risk of its model trained on ``S_train`` (``risk_validated``) and
    retrained on all of ``S`` (``risk_retrained``). On each data set the
    candidate *best at m* is the one whose retrained model has the smallest true
    risk; the candidate *best at the training size* the one whose validated model
    has; the hold-out picks the first with the fewest validation errors. Scored
    at ``m`` (all retrained):

    - ``regret``: the hold-out's pick minus the best at ``m``;
    - ``size_shift``: the best at the training size minus the best at ``m`` --
      the cost of choosing for models trained on fewer points, even with the
      true risks known;
    - ``noise``: the hold-out's pick minus the best at the training size -- the
      cost of choosing on a finite validation part. ``regret = size_shift + noise``.

    Parameters
    ----------
    trials : sequence of dict
        Outputs of :func:`selection_trial`, all with the same candidates.
    subset : sequence of int, optional
        Positions of the candidates to choose among (default: all).

    Returns
    -------
    dict of numpy.ndarray, one entry per trial
        ``regret``, ``size_shift``, ``noise`` (floats), and ``pick``,
        ``best_train``, ``best_full`` (candidate positions).

    Examples
    --------
    >>> trial = {"n_val": 10, "val_errors": np.array([1, 2, 3]),
    ...          "risk_validated": np.array([0.30, 0.20, 0.40]),
    ...          "risk_retrained": np.array([0.25, 0.19, 0.18])}
    >>> c = choice_costs([trial])
    >>> [round(float(c[k][0]), 2) for k in ("regret", "size_shift", "noise")]
    [0.07, 0.01, 0.06]
    """
    trials, n_cand, idx = _trials_and_subset(trials, subset)
    rows = []
    for t in trials:
        if len(t["val_errors"]) != n_cand:
            raise ValueError("every trial must hold the same candidates")
        val = np.asarray(t["val_errors"], dtype=float)
        r_train = np.asarray(t["risk_validated"], dtype=float)
        r_full = np.asarray(t["risk_retrained"], dtype=float)
        pick = int(idx[np.argmin(val[idx])])
        best_train = int(idx[np.argmin(r_train[idx])])
        best_full = int(idx[np.argmin(r_full[idx])])
        rows.append(
            (
                r_full[pick] - r_full[best_full],
                r_full[best_train] - r_full[best_full],
                r_full[pick] - r_full[best_train],
                pick,
                best_train,
                best_full,
            )
        )
    cols = np.array(rows, dtype=float).T
    out = dict(zip(("regret", "size_shift", "noise"), cols[:3], strict=True))
    out |= {
        k: c.astype(int) for k, c in zip(("pick", "best_train", "best_full"), cols[3:], strict=True)
    }
    return out
