"""Chapter 8's experiments: grouped points, autocorrelated series, and leakage.

Each trial draws one data set from a distribution whose true risk for the question
asked is known in closed form or computed on fresh draws, runs the splitters or the
procedures the chapter compares on that same data set, and returns their estimates
beside the targets, so that the chapter can form paired differences. The studies
repeat a trial through :func:`cvbook.simulation.repeat` (one generator per
repetition, spawned from one seed: the results do not depend on ``n_jobs``).

* :class:`GroupedGaussians` and :func:`groups_trial`: a random effect per group,
  shared by the features and by the label noise with intra-group correlation ``icc``;
  the targets are the risk on *new groups* and on *new points of the same groups*.
* :class:`AR1Series` and :func:`time_trial`: AR(1) features and AR(1) noise with
  autocorrelation ``phi``; the target is the risk on the (far) future.
* :func:`esl_trial`: *The Elements of Statistical Learning*, section 7.10.2: 50 points,
  5,000 predictors independent of the labels, the 100 most correlated kept, 1-NN.
* :func:`preprocessing_trial` (an imputer and a scaler fitted on all the data) and
  :func:`target_encoding_trial` (a target encoder fitted on all the data): leakage
  through preprocessing, against the same procedures inside a ``Pipeline``.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.sparse import issparse
from scipy.special import ndtr
from scipy.stats import t as student_t
from sklearn.base import clone
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import (
    GroupKFold,
    GroupShuffleSplit,
    KFold,
    LeaveOneGroupOut,
    LeavePGroupsOut,
    StratifiedGroupKFold,
    StratifiedKFold,
    TimeSeriesSplit,
)
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, TargetEncoder
from threadpoolctl import threadpool_limits

from ..book import int_seed
from ..bounds import clopper_pearson_interval
from ..dependence import BlockedKFold, intraclass_correlation
from ..records import read_table, write_table
from ..risk import fit_predict, score_splits
from ..simulation import columns, repeat
from ..stats import power_of_two_scale
from ..validation import (
    ArgumentTypeError,
    check_1d_labels,
    check_estimator_arg,
    check_features,
    check_finite,
    check_float,
    check_int,
    check_model,
    check_rng,
    check_same_length,
    check_target_for_loss,
)

__all__ = [
    "GROUP_SPLITTERS",
    "LAGGED_CASES",
    "TIME_SPLITTERS",
    "AR1Series",
    "GroupedGaussians",
    "cv_error",
    "cv_mse",
    "esl_study",
    "esl_trial",
    "groups_study",
    "groups_trial",
    "label_correlation",
    "lagged_study",
    "lagged_trial",
    "leakage_study",
    "oversampling_trial",
    "preprocessing_trial",
    "read_record",
    "target_encoding_trial",
    "time_study",
    "time_trial",
    "write_record",
]

#: The splitters of the groups section, in the order the chapter shows them.
GROUP_SPLITTERS = ("kfold", "stratified", "group", "stratified_group", "group_holdout")
#: The splitters of the time section.
TIME_SPLITTERS = ("shuffled", "blocked", "blocked_gap", "forward", "forward_gap")


# --------------------------------------------------------------------------- groups


@dataclass(frozen=True)
class GroupedGaussians:
    """Labels ``y = sign(slope * x_1 + noise)`` with a random effect per group.

    Group ``g`` draws a centre ``u_g ~ N(0, I_d)`` and an effect ``b_g ~ N(0, 1)``;
    its point ``j`` has features ``x = sqrt(icc) u_g + sqrt(1 - icc) w`` and noise
    ``sqrt(icc) b_g + sqrt(1 - icc) e`` with ``w ~ N(0, I_d)``, ``e ~ N(0, 1)``. Every
    feature and the noise have intra-group correlation ``icc``; marginally, a point is
    ``x ~ N(0, I_d)`` with ``P(y = +1 | x) = Phi(slope * x_1)`` whatever ``icc``, so
    ``icc = 0`` gives i.i.d. points (the control). ``label_icc``, when given, sets the
    noise's intra-group correlation apart from the features' (the same marginal law).

    Examples
    --------
    >>> dist = GroupedGaussians(n_groups=4, group_size=3, icc=0.5)
    >>> X, y, groups, centres, effects = dist.sample(np.random.default_rng(0))
    >>> X.shape, sorted(set(y.tolist())), np.bincount(groups).tolist()
    ((12, 5), [-1, 1], [3, 3, 3, 3])
    """

    n_groups: int = 20
    group_size: int = 10
    icc: float = 0.5
    d: int = 5
    slope: float = 1.5
    label_icc: float | None = None

    def __post_init__(self) -> None:
        check_int(self.n_groups, "n_groups", minimum=2)
        check_int(self.group_size, "group_size", minimum=1)
        for name in ("icc", "label_icc"):
            value = getattr(self, name)
            if name == "label_icc" and value is None:
                continue
            check_float(value, name, minimum=0, maximum=1, exclusive=False)
            if value >= 1:
                raise ValueError(f"{name} must be < 1 (a group of identical points), got {value}")
        check_int(self.d, "d", minimum=1)
        check_float(self.slope, "slope")

    @property
    def noise_icc(self) -> float:
        """The intra-group correlation of the label noise: ``label_icc``, else ``icc``."""
        return self.icc if self.label_icc is None else float(self.label_icc)

    def sample(self, rng: np.random.Generator):
        """``X, y, groups, centres, effects``: one data set and its hidden group terms.

        ``rng`` is a Generator (used as is) or any seed of the seed rule.
        """
        rng = check_rng(rng, "rng")
        a, c = np.sqrt(self.icc), np.sqrt(1.0 - self.icc)
        an, cn = np.sqrt(self.noise_icc), np.sqrt(1.0 - self.noise_icc)
        groups = np.repeat(np.arange(self.n_groups), self.group_size)
        centres = rng.standard_normal((self.n_groups, self.d))
        effects = rng.standard_normal(self.n_groups)
        X = a * centres[groups] + c * rng.standard_normal((groups.size, self.d))
        noise = an * effects[groups] + cn * rng.standard_normal(groups.size)
        y = np.where(self.slope * X[:, 0] + noise > 0, 1, -1)
        return X, y, groups, centres, effects

    def risk_new_groups(
        self, model: Any, rng: np.random.Generator, n_fresh: int
    ) -> tuple[float, float]:
        """Risk of ``model`` on a new group and its Monte Carlo SE.

        The conditional risk given ``x`` is exact; it is averaged over ``n_fresh`` fresh ``x``
        (``n_fresh >= 2``, so that the SE exists).
        """
        model = check_model(model, "model")
        rng = check_rng(rng, "rng")
        n_fresh = check_int(n_fresh, "n_fresh", minimum=2)
        X = rng.standard_normal((n_fresh, self.d))
        p = ndtr(self.slope * X[:, 0])  # P(y = +1 | x) for a point of a new group
        return _mean_se(np.where(model.predict(X) == 1, 1.0 - p, p))

    def risk_same_groups(
        self, model: Any, centres: np.ndarray, effects: np.ndarray, rng, n_fresh: int
    ) -> tuple[float, float]:
        """Risk of ``model`` on new points of the data set's own groups, and its Monte Carlo SE.

        Each group weighs the same; the conditional risk given ``x`` and the group's
        effect is exact, averaged over ``n_fresh // n_groups`` fresh ``x`` per group (at least
        one; ``n_fresh >= 2``). ``centres`` and ``effects`` are what :meth:`sample` returned.
        """
        model = check_model(model, "model")
        rng = check_rng(rng, "rng")
        n_fresh = check_int(n_fresh, "n_fresh", minimum=2)
        centres = check_features(centres, "centres")
        effects = check_finite(effects, "effects")
        if centres.shape != (self.n_groups, self.d) or np.shape(effects) != (self.n_groups,):
            raise ValueError(
                f"centres and effects must be what sample() returned: shapes "
                f"({self.n_groups}, {self.d}) and ({self.n_groups},), got {centres.shape} and "
                f"{np.shape(effects)}"
            )
        a, c = np.sqrt(self.icc), np.sqrt(1.0 - self.icc)
        an, cn = np.sqrt(self.noise_icc), np.sqrt(1.0 - self.noise_icc)
        per = max(1, n_fresh // self.n_groups)
        g = np.repeat(np.arange(self.n_groups), per)
        X = a * centres[g] + c * rng.standard_normal((g.size, self.d))
        p = ndtr((self.slope * X[:, 0] + an * effects[g]) / cn)
        return _mean_se(np.where(model.predict(X) == 1, 1.0 - p, p))


def _mean_se(values: np.ndarray) -> tuple[float, float]:
    return float(values.mean()), float(values.std(ddof=1) / np.sqrt(values.size))


#: scikit-learn's splitters that need ``groups``.
_GROUP_SPLITTERS = (
    GroupKFold,
    GroupShuffleSplit,
    LeaveOneGroupOut,
    LeavePGroupsOut,
    StratifiedGroupKFold,
)


def _check_cv_features(X: Any) -> Any:
    """``X`` as a 2-d array the folds can index (a DataFrame or a list becomes an array; a
    ``scipy.sparse`` matrix is kept). Missing values and categories coded as numbers pass:
    a pipeline may impute or encode them."""
    if issparse(X):
        return X.tocsr()
    if isinstance(X, (str, bytes)) or X is None:
        raise ArgumentTypeError(f"X must be a 2-d array of numbers, got {X!r}")
    arr = np.asarray(X.to_numpy() if hasattr(X, "to_numpy") else X)
    if arr.dtype.kind not in "biuf":
        raise ArgumentTypeError(f"X must hold numbers, got an array of dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(
            f"X must be 2-dimensional (n_samples, n_features), got shape {arr.shape}"
            + (" (reshape with X.reshape(-1, 1) for one feature)" if arr.ndim == 1 else "")
        )
    if np.any(np.isinf(arr)):
        raise ValueError("X must not hold infinite values")
    return arr


def _check_cv_arguments(model: Any, X: Any, y: Any, cv: Any, groups: Any = None) -> Any:
    """``model`` an estimator, ``cv`` a splitter, ``groups`` given to a group splitter, one
    row, label and group each; returns ``X`` and ``groups`` as the folds index them."""
    check_estimator_arg(model, "model")
    if not callable(getattr(cv, "split", None)) or isinstance(cv, type):
        raise ArgumentTypeError(
            f"cv must be a splitter with a split method, such as KFold(5), got {cv!r}"
        )
    X = _check_cv_features(X)
    if X.shape[0] != y.shape[0]:
        raise ValueError(
            f"arrays must have the same length: X has {X.shape[0]}, y has {y.shape[0]}"
        )
    if groups is None:
        if isinstance(cv, _GROUP_SPLITTERS):
            raise ValueError(
                f"groups must be given for cv={type(cv).__name__}(...): it splits by group "
                "(one group label per point)"
            )
    else:
        groups = check_1d_labels(groups, "groups")
        if groups.shape[0] != X.shape[0]:
            raise ValueError(
                f"arrays must have the same length: X has {X.shape[0]}, groups has "
                f"{groups.shape[0]}"
            )
    return X, groups


def cv_error(model: Any, X: np.ndarray, y: np.ndarray, cv: Any, groups: Any = None) -> float:
    """The cross-validated 0-1 error of ``model``: what ``1 - cross_val_score(...).mean()`` gives.

    A plain loop over ``cv.split(X, y, groups)`` (a fresh clone per fold), without
    ``cross_val_score``'s overhead, which dominates on data sets this small. ``cv`` is
    a splitter (an object with ``split``); ``y`` holds class labels (a continuous target
    is refused by name); ``groups``, one label per point, is required by a group splitter
    such as ``GroupKFold``.

    Examples
    --------
    >>> from sklearn.model_selection import KFold
    >>> X, y = np.arange(8.0)[:, None], np.array([-1, -1, -1, -1, 1, 1, 1, 1])
    >>> cv_error(KNeighborsClassifier(1), X, y, KFold(4))
    0.25
    """
    y = check_target_for_loss(y, "zero_one", "y")
    X, groups = _check_cv_arguments(model, X, y, cv, groups)
    fold_errors = score_splits(model, X, y, cv.split(X, y, groups), lambda t, p: np.mean(p != t))
    return float(np.mean(fold_errors))


def cv_mse(model: Any, X: np.ndarray, y: np.ndarray, cv: Any) -> float:
    """The cross-validated squared error of ``model`` (mean over folds of the fold MSE).

    ``cv`` is a splitter (an object with ``split``) and ``y`` holds numbers. A group
    splitter (``GroupKFold``, ...) is refused: this function takes no ``groups``.

    Examples
    --------
    >>> from sklearn.model_selection import KFold
    >>> X, y = np.arange(4.0)[:, None], np.array([0.0, 1.0, 2.0, 3.0])
    >>> cv_mse(KNeighborsRegressor(1), X, y, KFold(2))
    2.5
    """
    y = check_target_for_loss(y, "squared", "y")
    X, _ = _check_cv_arguments(model, X, y, cv)
    fold_errors = score_splits(model, X, y, cv.split(X, y), lambda t, p: np.mean((p - t) ** 2))
    return float(np.mean(fold_errors))


def groups_trial(
    rng: np.random.Generator,
    icc: float = 0.5,
    n_groups: int = 20,
    group_size: int = 10,
    d: int = 5,
    n_neighbors: int = 5,
    n_splits: int = 5,
    n_fresh: int = 10_000,
    label_icc: float | None = None,
) -> dict[str, float]:
    """One grouped data set: five splitters' estimates and the two targets.

    The learner is ``KNeighborsClassifier(n_neighbors)``, ``n_neighbors`` at most the
    points of a training part, ``(n_groups - ceil(n_groups / n_splits)) * group_size``.
    The estimates are 0-1 errors
    of shuffled ``KFold``, ``StratifiedKFold``, ``GroupKFold``, ``StratifiedGroupKFold``
    (``n_splits`` folds each) and a 20 % hold-out of whole groups (``GroupShuffleSplit``).
    The targets are the risk of the model fitted on the whole data set on a new group
    (``risk_new``) and on new points of its own groups (``risk_same``), each computed
    exactly given ``x`` and averaged over ``n_fresh`` fresh points.

    The hold-out of whole groups is also scored against its own target, the risk on new
    groups of the model trained on the kept groups (``holdout_risk``): ``covers_naive`` and
    ``covers_group`` say whether the naive Clopper--Pearson interval (test points as if
    independent) and a t-interval over the held-out groups' error rates cover it
    (``width_*`` their widths). ``loss_icc`` is the intra-group correlation of the fitted
    model's 0-1 losses on new groups.

    Examples
    --------
    >>> out = groups_trial(np.random.default_rng(0), icc=0.5, n_fresh=500)
    >>> sorted(out)  # doctest: +NORMALIZE_WHITESPACE
    ['covers_group', 'covers_naive', 'group', 'group_holdout', 'holdout_risk', 'kfold',
     'loss_icc', 'risk_new', 'risk_new_se', 'risk_same', 'risk_same_se', 'stratified',
     'stratified_group', 'width_group', 'width_naive']
    """
    rng = check_rng(rng, "rng")
    dist = GroupedGaussians(
        n_groups=n_groups, group_size=group_size, icc=icc, d=d, label_icc=label_icc
    )
    n_splits = check_int(n_splits, "n_splits", minimum=2, maximum=n_groups)
    n_fresh = check_int(n_fresh, "n_fresh", minimum=2)
    # the training part beside the largest group fold (groups of equal size)
    smallest_train = (n_groups - -(-n_groups // n_splits)) * group_size
    n_neighbors = check_int(n_neighbors, "n_neighbors", minimum=1)
    if n_neighbors > smallest_train:
        raise ValueError(
            f"n_neighbors must be <= {smallest_train}, the points of a training part "
            f"((n_groups - ceil(n_groups / n_splits)) * group_size with n_groups={n_groups}, "
            f"n_splits={n_splits}, group_size={group_size}), got {n_neighbors}"
        )
    X, y, groups, centres, effects = dist.sample(rng)
    model = KNeighborsClassifier(n_neighbors=n_neighbors)
    seed = int_seed(rng)
    out = {
        "kfold": cv_error(model, X, y, KFold(n_splits, shuffle=True, random_state=seed)),
        "stratified": cv_error(
            model, X, y, StratifiedKFold(n_splits, shuffle=True, random_state=seed)
        ),
        "group": cv_error(model, X, y, GroupKFold(n_splits), groups),
        "stratified_group": cv_error(
            model, X, y, StratifiedGroupKFold(n_splits, shuffle=True, random_state=seed), groups
        ),
        "group_holdout": cv_error(
            model, X, y, GroupShuffleSplit(1, test_size=1 / n_splits, random_state=seed), groups
        ),
    }
    fitted = KNeighborsClassifier(n_neighbors=model.n_neighbors).fit(X, y)
    out["risk_new"], out["risk_new_se"] = dist.risk_new_groups(fitted, rng, n_fresh)
    out["risk_same"], out["risk_same_se"] = dist.risk_same_groups(
        fitted, centres, effects, rng, n_fresh
    )
    out.update(_holdout_intervals(dist, model, X, y, groups, n_splits, seed, rng, n_fresh))
    out["loss_icc"] = _loss_icc(dist, fitted, rng, n_fresh)
    return out


def _holdout_intervals(dist, model, X, y, groups, n_splits, seed, rng, n_fresh):
    """The whole-group hold-out, its own target and whether two 95 % intervals cover it.

    The hold-out model trains on the groups ``GroupShuffleSplit`` keeps (the same split
    as ``group_holdout``); its target is *its* risk on new groups. ``covers_naive``: the
    Clopper--Pearson interval that treats the test points as independent;
    ``covers_group``: a t-interval over the per-group error rates of the held-out groups
    (the group as the unit).
    """
    split = GroupShuffleSplit(1, test_size=1 / n_splits, random_state=seed)
    tr, te = next(split.split(X, y, groups))
    held = clone(model).fit(X[tr], y[tr])
    wrong = (held.predict(X[te]) != y[te]).astype(float)
    target, _ = dist.risk_new_groups(held, rng, n_fresh)
    lo, hi = clopper_pearson_interval(int(wrong.sum()), wrong.size)
    rates = np.array([wrong[groups[te] == g].mean() for g in np.unique(groups[te])])
    half = student_t.ppf(0.975, rates.size - 1) * rates.std(ddof=1) / np.sqrt(rates.size)
    return {
        "holdout_risk": target,
        "covers_naive": float(lo <= target <= hi),
        "covers_group": float(rates.mean() - half <= target <= rates.mean() + half),
        "width_naive": hi - lo,
        "width_group": min(1.0, rates.mean() + half) - max(0.0, rates.mean() - half),
    }


def _loss_icc(dist, model, rng, n_fresh):
    """The intra-group correlation of the 0-1 losses of ``model`` on new groups.

    ``max(2, n_fresh // group_size)`` new groups of ``group_size`` points with their
    labels; the ANOVA estimate (:func:`cvbook.dependence.intraclass_correlation`). This,
    not the features' correlation, sets the variance of an error rate over whole groups.
    """
    if dist.group_size < 2:
        return float("nan")  # groups of one point: no intra-group correlation
    fresh = GroupedGaussians(
        n_groups=max(2, n_fresh // dist.group_size),
        group_size=dist.group_size,
        icc=dist.icc,
        d=dist.d,
        slope=dist.slope,
        label_icc=dist.label_icc,
    )
    Xf, yf, gf, *_ = fresh.sample(rng)
    losses = (model.predict(Xf) != yf).astype(float)
    if np.ptp(losses) == 0:
        return 0.0
    return intraclass_correlation(losses, gf)


def groups_study(
    iccs, n_repeats: int, random_state: Any = None, n_jobs: int | None = None, **kwargs: Any
) -> dict[float, dict[str, np.ndarray]]:
    """:func:`groups_trial` repeated ``n_repeats`` times at each intra-group correlation.

    Returns ``{icc: {name: array of n_repeats values}}``; the repetitions of one ``icc``
    are independent data sets (each spawned from ``random_state`` and the position of
    ``icc`` in ``iccs``).

    Examples
    --------
    >>> res = groups_study([0.0], 2, random_state=0, n_fresh=200)
    >>> res[0.0]["kfold"].shape
    (2,)
    """
    return _study(groups_trial, "icc", iccs, n_repeats, random_state, n_jobs, kwargs)


def _study(trial, name, values, n_repeats, random_state, n_jobs, kwargs):
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ArgumentTypeError(
            f"{name}s must be a sequence of values of {name}, such as [0.0, 0.5], got {values!r}"
        )
    values = [check_float(v, name) for v in values]
    if not values:
        raise ValueError(f"{name}s must hold at least one value")
    root = np.random.SeedSequence(check_rng(random_state).integers(2**63))
    out = {}
    for value, child in zip(values, root.spawn(len(values)), strict=True):
        with threadpool_limits(limits=1):  # tiny problems: BLAS/OpenMP threads only cost time
            reps = repeat(
                trial, n_repeats, random_state=child, n_jobs=n_jobs, **{name: value}, **kwargs
            )
        out[value] = columns(reps)
    return out


# --------------------------------------------------------------------------- time


@dataclass(frozen=True)
class AR1Series:
    """``y_t = sin(2 x_t) + x_t + e_t`` with AR(1) feature ``x_t`` and AR(1) noise ``e_t``.

    Both are stationary AR(1) series with lag-one autocorrelation ``phi``: ``x_t`` has
    variance 1 and ``e_t`` variance ``noise ** 2``. Marginally ``x_t ~ N(0, 1)`` whatever
    ``phi``, so the risk on the far future of a fitted model ``f`` is
    ``E[(sin(2x) + x - f(x))^2] + noise^2`` with ``x ~ N(0, 1)``; ``phi = 0`` gives
    i.i.d. points (the control).

    Examples
    --------
    >>> X, y = AR1Series(n=5, phi=0.9).sample(np.random.default_rng(0))
    >>> X.shape, y.shape
    ((5, 1), (5,))
    """

    n: int = 300
    phi: float = 0.9
    noise: float = 0.5

    def __post_init__(self) -> None:
        check_int(self.n, "n", minimum=2)
        check_float(self.phi, "phi", minimum=-1, maximum=1, exclusive=True)
        check_float(self.noise, "noise", minimum=0)

    @staticmethod
    def signal(x: np.ndarray) -> np.ndarray:
        return np.sin(2.0 * x) + x

    def _ar1(self, rng: np.random.Generator, scale: float) -> np.ndarray:
        z = rng.standard_normal(self.n) * np.sqrt(1.0 - self.phi**2)
        z[0] = rng.standard_normal()
        for t in range(1, self.n):
            z[t] += self.phi * z[t - 1]
        return scale * z

    def sample(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``X`` (shape ``(n, 1)``) and ``y`` in time order (``rng``: any seed of the seed rule)."""
        rng = check_rng(rng, "rng")
        x = self._ar1(rng, 1.0)
        e = self._ar1(rng, self.noise)
        return x[:, None], self.signal(x) + e

    def risk_future(
        self, model: Any, rng: np.random.Generator, n_fresh: int, x: np.ndarray | None = None
    ) -> tuple[float, float]:
        """Squared-error risk of ``model`` on the far future, and its Monte Carlo SE.

        The noise term ``noise ** 2`` is exact; the rest is averaged over ``n_fresh`` fresh x
        (or over the given ``x``, so that several models share one sample; ``n_fresh >= 2``,
        so that the SE exists).
        """
        model = check_model(model, "model")
        if x is None:
            rng = check_rng(rng, "rng")
            n_fresh = check_int(n_fresh, "n_fresh", minimum=2)
            x = rng.standard_normal(n_fresh)
        else:
            x = check_finite(x, "x")
        return _mean_se((self.signal(x) - model.predict(x[:, None])) ** 2 + self.noise**2)


def time_trial(
    rng: np.random.Generator,
    phi: float = 0.9,
    n: int = 300,
    n_neighbors: int = 5,
    n_splits: int = 5,
    gap: int = 20,
    n_fresh: int = 10_000,
) -> dict[str, float]:
    """One autocorrelated series: five splitters' mean squared errors and the target.

    The learner is ``KNeighborsRegressor(n_neighbors)``. The estimates are shuffled
    ``KFold``, :class:`~cvbook.dependence.BlockedKFold` without and with ``gap``, and
    ``TimeSeriesSplit`` without and with ``gap`` (``n_splits`` folds each). The target
    ``risk_future`` is the risk on the far future of the model fitted on the whole series.
    ``TimeSeriesSplit``'s own targets, ``forward_target`` and ``forward_gap_target``, are
    the mean over its folds of the far-future risk of each fold's model (trained on the
    fold's past only), on the same fresh points.

    Examples
    --------
    >>> out = time_trial(np.random.default_rng(0), n_fresh=500)
    >>> sorted(out)  # doctest: +NORMALIZE_WHITESPACE
    ['blocked', 'blocked_gap', 'forward', 'forward_gap', 'forward_gap_target', 'forward_target',
     'risk_future', 'risk_future_se', 'shuffled']
    """
    rng = check_rng(rng, "rng")
    series = AR1Series(n=n, phi=phi)
    n_splits = check_int(n_splits, "n_splits", minimum=2, maximum=n // 2)
    gap = check_int(gap, "gap", minimum=0)
    n_fresh = check_int(n_fresh, "n_fresh", minimum=2)
    n_neighbors = check_int(n_neighbors, "n_neighbors", minimum=1)
    # The folds depend only on n, n_splits and gap: check them before drawing the series.
    splitters = {
        "shuffled": KFold(n_splits, shuffle=True, random_state=0),
        "blocked": BlockedKFold(n_splits),
        "blocked_gap": BlockedKFold(n_splits, gap=gap),
        "forward": TimeSeriesSplit(n_splits),
        "forward_gap": TimeSeriesSplit(n_splits, gap=gap),
    }
    index = np.zeros((n, 1))
    for name, cv in splitters.items():
        try:
            smallest = min(len(tr) for tr, _ in cv.split(index))
        except ValueError as err:
            raise ValueError(
                f"n={n}, n_splits={n_splits} and gap={gap} give no {name} split: {err}"
            ) from None
        if n_neighbors > smallest:
            raise ValueError(
                f"n_neighbors must be <= {smallest}, the points of the smallest training part "
                f"({name} split of n={n} points with n_splits={n_splits}, gap={gap}), "
                f"got {n_neighbors}"
            )
    X, y = series.sample(rng)
    model = KNeighborsRegressor(n_neighbors=n_neighbors)
    splitters["shuffled"] = KFold(n_splits, shuffle=True, random_state=int_seed(rng))
    out = {name: cv_mse(model, X, y, cv) for name, cv in splitters.items()}
    fitted = KNeighborsRegressor(n_neighbors=model.n_neighbors).fit(X, y)
    x_fresh = rng.standard_normal(n_fresh)
    out["risk_future"], out["risk_future_se"] = series.risk_future(fitted, rng, n_fresh, x=x_fresh)
    for name in ("forward", "forward_gap"):  # the fold models' own far-future risk
        risks = [
            series.risk_future(clone(model).fit(X[tr], y[tr]), rng, n_fresh, x=x_fresh)[0]
            for tr, _ in splitters[name].split(X)
        ]
        out[f"{name}_target"] = float(np.mean(risks))
    return out


def time_study(
    phis, n_repeats: int, random_state: Any = None, n_jobs: int | None = None, **kwargs: Any
) -> dict[float, dict[str, np.ndarray]]:
    """:func:`time_trial` repeated ``n_repeats`` times at each autocorrelation ``phi``.

    Examples
    --------
    >>> res = time_study([0.0], 2, random_state=0, n_fresh=200)
    >>> res[0.0]["shuffled"].shape
    (2,)
    """
    return _study(time_trial, "phi", phis, n_repeats, random_state, n_jobs, kwargs)


#: The cases of :func:`lagged_trial`.
LAGGED_CASES = ("series_5nn", "ar1_5nn", "ar1_ols")


def lagged_trial(
    rng: np.random.Generator,
    case: str = "series_5nn",
    phi: float = 0.95,
    n: int = 300,
    n_neighbors: int = 5,
    n_splits: int = 5,
    n_fresh: int = 10_000,
) -> dict[str, float]:
    """Models whose inputs capture the dependence: shuffled and blocked K-fold, far-future risk.

    ``case``:

    * ``"series_5nn"``: :class:`AR1Series` (``noise = 0.5``) with the inputs
      ``(x_t, x_{t-1}, y_{t-1})``; the best forecast is ``s(x_t) + phi (y_{t-1} - s(x_{t-1}))``
      and its residual, an innovation of the noise, is white. ``KNeighborsRegressor``.
    * ``"ar1_5nn"`` and ``"ar1_ols"``: a pure AR(1) series ``y_t`` (variance 1) with the
      input ``y_{t-1}``; ``KNeighborsRegressor`` or ``LinearRegression``. The best forecast
      ``phi y_{t-1}`` leaves white residuals: the case of Bergmeir, Hyndman and Koo (2018).

    The target ``risk_future`` is the model's risk on the far future, exact given the
    inputs, averaged over ``n_fresh`` fresh input vectors from the stationary law.

    Examples
    --------
    >>> out = lagged_trial(np.random.default_rng(0), "ar1_ols", n_fresh=500)
    >>> sorted(out)
    ['blocked', 'risk_future', 'shuffled']
    """
    rng = check_rng(rng, "rng")
    if case not in LAGGED_CASES:
        raise ValueError(f"case must be one of {list(LAGGED_CASES)}, got {case!r}")
    phi = check_float(phi, "phi", minimum=-1, maximum=1, exclusive=True)
    n = check_int(n, "n", minimum=4 * n_splits)
    n_splits = check_int(n_splits, "n_splits", minimum=2)
    n_fresh = check_int(n_fresh, "n_fresh", minimum=1)
    n_neighbors = check_int(n_neighbors, "n_neighbors", minimum=1)
    innovation = np.sqrt(1.0 - phi**2)
    if case == "series_5nn":
        series = AR1Series(n=n + 1, phi=phi)
        x, y = series.sample(rng)
        x = x[:, 0]
        X = np.column_stack([x[1:], x[:-1], y[:-1]])
        target = y[1:]
        # fresh stationary inputs: x_{t-1}, x_t, and the noise e_{t-1} = y_{t-1} - s(x_{t-1})
        x0 = rng.standard_normal(n_fresh)
        x1 = phi * x0 + innovation * rng.standard_normal(n_fresh)
        e0 = series.noise * rng.standard_normal(n_fresh)
        fresh = np.column_stack([x1, x0, series.signal(x0) + e0])
        best = series.signal(x1) + phi * e0
        floor = (series.noise * innovation) ** 2
        model = KNeighborsRegressor(n_neighbors=n_neighbors)
    else:
        z = rng.standard_normal(n + 1) * innovation
        z[0] = rng.standard_normal()
        for t in range(1, n + 1):
            z[t] += phi * z[t - 1]
        X, target = z[:-1, None], z[1:]
        fresh = rng.standard_normal((n_fresh, 1))
        best, floor = phi * fresh[:, 0], innovation**2
        model = (
            KNeighborsRegressor(n_neighbors=n_neighbors)
            if case == "ar1_5nn"
            else LinearRegression()
        )
    seed = int_seed(rng)
    out = {
        "shuffled": cv_mse(model, X, target, KFold(n_splits, shuffle=True, random_state=seed)),
        "blocked": cv_mse(model, X, target, BlockedKFold(n_splits)),
    }
    fitted = clone(model).fit(X, target)
    out["risk_future"] = float(np.mean((best - fitted.predict(fresh)) ** 2) + floor)
    return out


def lagged_study(
    cases, n_repeats: int, random_state: Any = None, n_jobs: int | None = None, **kwargs: Any
) -> dict[str, dict[str, np.ndarray]]:
    """:func:`lagged_trial` repeated ``n_repeats`` times for each case of ``cases``.

    Examples
    --------
    >>> res = lagged_study(["ar1_ols"], 2, random_state=0, n_fresh=200)
    >>> res["ar1_ols"]["shuffled"].shape
    (2,)
    """
    if isinstance(cases, (str, bytes)) or not isinstance(cases, Iterable):
        raise ArgumentTypeError(f"cases must be a sequence of {list(LAGGED_CASES)}, got {cases!r}")
    cases = list(cases)
    bad = [c for c in cases if c not in LAGGED_CASES]
    if bad or not cases:
        raise ValueError(
            f"cases must be a non-empty sequence of {list(LAGGED_CASES)}, got {cases!r}"
        )
    root = np.random.SeedSequence(check_rng(random_state).integers(2**63))
    out = {}
    for case, child in zip(cases, root.spawn(len(cases)), strict=True):
        with threadpool_limits(limits=1):
            reps = repeat(
                lagged_trial, n_repeats, random_state=child, n_jobs=n_jobs, case=case, **kwargs
            )
        out[case] = columns(reps)
    return out


# --------------------------------------------------------------------------- leakage


def _balanced_labels(rng: np.random.Generator, n: int) -> np.ndarray:
    y = np.where(np.arange(n) < n // 2, 1, -1)
    return rng.permutation(y)


def label_correlation(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The correlation of each column of ``X`` with the labels ``y`` (a ``score_func``).

    Signed, with the labels coded ``-1/+1``: ``SelectKBest(label_correlation, k=k)``
    keeps the ``k`` predictors with the *highest* correlation with the class labels, as
    ESL's section 7.10.2 words it; ``SelectKBest(f_classif, k=k)`` keeps the ``k`` largest
    in absolute value (for two classes, the F statistic is increasing in ``|r|``).

    Parameters
    ----------
    X : array_like of shape (n, p)
        Finite numbers.
    y : array_like of shape (n,)
        Numeric labels, not all equal (a constant ``y`` has no correlation with anything:
        a ``ValueError``).

    Returns
    -------
    numpy.ndarray of shape (p,)
        The correlations; NaN for a constant column of ``X``, whose correlation is
        undefined (``SelectKBest`` ranks NaN scores last, so such a column is never
        kept before a varying one).

    Examples
    --------
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0]])
    >>> label_correlation(X, np.array([-1, -1, 1, 1])).round(3).tolist()
    [0.894, 0.0]
    >>> float(label_correlation(np.c_[X, np.ones(4)], np.array([-1, -1, 1, 1]))[2])
    nan
    """
    X = check_features(X, "X")
    y = check_1d_labels(y, "y")
    check_same_length(("X", X), ("y", y))
    if y.dtype.kind not in "iuf":
        raise ArgumentTypeError(f"y must hold numeric labels (coded -1/+1), got dtype {y.dtype}")
    if np.ptp(y) == 0:
        raise ValueError(
            f"y must hold two classes: all its {y.size} labels equal {y[0]!r}, and a constant "
            "y has no correlation with any column"
        )
    varies = np.max(X, axis=0) > np.min(X, axis=0)
    # Each column divided by a power of two near its largest magnitude before centring
    # and squaring: exact, so r is the plain formula's on ordinary data, and neither the
    # mean nor the squares overflow or underflow on values of 1e+-300.
    Xs = X[:, varies]
    Xs = Xs / np.array([power_of_two_scale(col) for col in Xs.T])
    ys = y / power_of_two_scale(y)
    Xc, yc = Xs - Xs.mean(axis=0), ys - ys.mean()
    r = np.full(X.shape[1], np.nan)
    r[varies] = np.clip((yc @ Xc) / np.sqrt((Xc**2).sum(axis=0) * (yc @ yc)), -1.0, 1.0)
    return r


def esl_trial(
    rng: np.random.Generator,
    n: int = 50,
    p: int = 5000,
    k: int = 100,
    n_splits: int = 5,
    selection: str = "signed",
) -> dict[str, float]:
    """ESL section 7.10.2: select ``k`` of ``p`` label-free predictors, then 1-NN, CV'd two ways.

    ``n`` points in two equal classes, ``p`` standard Gaussian predictors independent
    of the labels, so every classifier has risk exactly 1/2. *Wrong*: keep the ``k``
    predictors with the highest correlation with the labels over all ``n`` points
    (``selection="signed"``, ESL's words, :func:`label_correlation`; or
    ``"absolute"``, the largest ``|r|``, ``f_classif``), then cross-validate 1-NN on
    them. *Right*: the same selection inside each fold (a ``Pipeline`` of
    ``SelectKBest`` and 1-NN, as ``cross_val_score`` would run it). ``wrong_absolute`` is
    the wrong way with the largest ``|r|`` on the same data set. All use the same
    stratified ``n_splits``-fold split.

    Examples
    --------
    >>> out = esl_trial(np.random.default_rng(0), p=500, k=20)
    >>> out["wrong"] < out["right"]
    True
    """
    rng = check_rng(rng, "rng")
    n = check_int(n, "n", minimum=4)
    p = check_int(p, "p", minimum=1)
    k = check_int(k, "k", minimum=1, maximum=p)
    n_splits = check_int(n_splits, "n_splits", minimum=2, maximum=n // 2)
    if selection not in ("signed", "absolute"):
        raise ValueError(f"selection must be 'signed' or 'absolute', got {selection!r}")
    score = label_correlation if selection == "signed" else f_classif
    y = _balanced_labels(rng, n)
    X = rng.standard_normal((n, p))
    cv = StratifiedKFold(n_splits, shuffle=True, random_state=int_seed(rng))
    nn1 = KNeighborsClassifier(n_neighbors=1)
    chosen = SelectKBest(score, k=k).fit(X, y).get_support()
    by_abs = SelectKBest(f_classif, k=k).fit(X, y).get_support()
    return {
        "wrong": cv_error(nn1, X[:, chosen], y, cv),
        "right": cv_error(make_pipeline(SelectKBest(score, k=k), nn1), X, y, cv),
        "wrong_absolute": cv_error(nn1, X[:, by_abs], y, cv),
    }


def esl_study(
    n_repeats: int, random_state: Any = None, n_jobs: int | None = None, **kwargs: Any
) -> dict[str, np.ndarray]:
    """:func:`esl_trial` repeated: ``{"wrong": ..., "right": ...}`` arrays.

    Examples
    --------
    >>> esl_study(2, random_state=0, p=200, k=10)["right"].shape
    (2,)
    """
    with threadpool_limits(limits=1):  # tiny problems: BLAS/OpenMP threads only cost time
        reps = repeat(esl_trial, n_repeats, random_state=random_state, n_jobs=n_jobs, **kwargs)
    return columns(reps)


def preprocessing_trial(
    rng: np.random.Generator,
    n: int = 100,
    d: int = 5,
    missing: float = 0.2,
    n_neighbors: int = 5,
    n_splits: int = 5,
    n_fresh: int = 2000,
) -> dict[str, float]:
    """A mean imputer and a scaler fitted on all the data, against the same inside the folds.

    Two Gaussian classes (means ``+-0.5`` on every feature, unit variance, feature ``j``
    scaled by ``10 ** (j - 2)``), a fraction ``missing`` of the entries missing
    completely at random, ``KNeighborsClassifier(n_neighbors)``. *Wrong*: impute and
    scale with statistics of all ``n`` points, then cross-validate the classifier.
    *Right*: ``make_pipeline(SimpleImputer(), StandardScaler(), classifier)`` in
    ``cross_val_score`` (same folds). ``risk`` is the risk of that pipeline fitted on all
    the data, on ``n_fresh`` fresh points with the same missingness.

    Examples
    --------
    >>> out = preprocessing_trial(np.random.default_rng(0), n_fresh=500)
    >>> sorted(out)
    ['right', 'risk', 'wrong']
    """
    rng = check_rng(rng, "rng")
    n_splits = check_int(n_splits, "n_splits", minimum=2)
    n = check_int(n, "n", minimum=2 * n_splits)
    d = check_int(d, "d", minimum=1)
    missing = check_float(missing, "missing", minimum=0, maximum=1, exclusive=True)
    n_fresh = check_int(n_fresh, "n_fresh", minimum=1)
    n_neighbors = check_int(n_neighbors, "n_neighbors", minimum=1)
    # stratified folds of the two classes (n // 2 and n - n // 2 points)
    smallest_train = n - -(-(n // 2) // n_splits) - -(-(n - n // 2) // n_splits)
    if n_neighbors > smallest_train:
        raise ValueError(
            f"n_neighbors must be <= {smallest_train}, the points of the smallest training part "
            f"of n={n} points in n_splits={n_splits} stratified folds, got {n_neighbors}"
        )
    scales = 10.0 ** (np.arange(d) - 2)

    def draw(m: int, y: np.ndarray) -> np.ndarray:
        X = (rng.standard_normal((m, d)) + 0.5 * y[:, None]) * scales
        X[rng.random((m, d)) < missing] = np.nan
        return X

    y = _balanced_labels(rng, n)
    X = draw(n, y)
    clf = KNeighborsClassifier(n_neighbors=n_neighbors)
    cv = StratifiedKFold(n_splits, shuffle=True, random_state=int_seed(rng))
    X_all = make_pipeline(SimpleImputer(), StandardScaler()).fit_transform(X)
    pipe = make_pipeline(SimpleImputer(), StandardScaler(), clf)
    y_new = np.where(rng.random(n_fresh) < 0.5, 1, -1)
    return {
        "wrong": cv_error(clf, X_all, y, cv),
        "right": cv_error(pipe, X, y, cv),
        "risk": float(np.mean(pipe.fit(X, y).predict(draw(n_fresh, y_new)) != y_new)),
    }


def _target_encoder(seed: int) -> TargetEncoder:
    """A ``TargetEncoder`` whose internal cross-fitting (``fit_transform``) is seeded.

    scikit-learn 1.9 takes a splitter as ``cv`` and deprecates ``shuffle`` and
    ``random_state``; earlier versions (>= 1.6) take them and an int ``cv``.
    """
    if inspect.signature(TargetEncoder).parameters["shuffle"].default == "deprecated":
        return TargetEncoder(cv=StratifiedKFold(5, shuffle=True, random_state=seed))
    return TargetEncoder(cv=5, shuffle=True, random_state=seed)


def target_encoding_trial(
    rng: np.random.Generator,
    n: int = 200,
    n_levels: int = 50,
    n_splits: int = 5,
) -> dict[str, float]:
    """A target encoder fitted on all the data, against the same inside the folds.

    ``n`` points in two equal classes and one categorical feature with ``n_levels``
    levels drawn uniformly, independent of the label: every classifier has risk exactly
    1/2. *Wrong*: ``TargetEncoder().fit(X, y).transform(X)`` on all ``n`` points (each
    point's code holds its own label), then cross-validate ``LogisticRegression`` on the
    codes. *Right*: ``make_pipeline(TargetEncoder(), LogisticRegression())`` in
    ``cross_val_score`` (same stratified folds).

    Examples
    --------
    >>> out = target_encoding_trial(np.random.default_rng(0))
    >>> out["wrong"] < out["right"]
    True
    """
    rng = check_rng(rng, "rng")
    n_splits = check_int(n_splits, "n_splits", minimum=2)
    n = check_int(n, "n", minimum=2 * n_splits)
    n_levels = check_int(n_levels, "n_levels", minimum=2)
    y = _balanced_labels(rng, n)
    X = rng.integers(n_levels, size=(n, 1))
    cv = StratifiedKFold(n_splits, shuffle=True, random_state=int_seed(rng))
    seed = int_seed(rng)
    codes = _target_encoder(seed).fit(X, y).transform(X)
    pipe = make_pipeline(_target_encoder(seed), LogisticRegression())
    return {
        "wrong": cv_error(LogisticRegression(), codes, y, cv),
        "right": cv_error(pipe, X, y, cv),
    }


def _oversample(rng: np.random.Generator, y: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``idx`` with random copies of its smaller class added until the classes are equal."""
    classes, counts = np.unique(y[idx], return_counts=True)
    small = idx[y[idx] == classes[np.argmin(counts)]]
    extra = rng.choice(small, size=counts.max() - counts.min(), replace=True)
    return np.concatenate([idx, extra])


def _balanced_error(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """The mean of the per-class error rates."""
    return float(np.mean([np.mean(y_pred[y_true == c] != c) for c in np.unique(y_true)]))


def oversampling_trial(
    rng: np.random.Generator,
    n: int = 200,
    n_minority: int = 40,
    d: int = 5,
    n_neighbors: int = 5,
    n_splits: int = 5,
) -> dict[str, float]:
    """Random oversampling of the minority class before the split, against inside the folds.

    ``n`` points, ``n_minority`` of class ``+1``, ``d`` standard Gaussian features
    independent of the labels: every classifier has balanced error exactly 1/2.
    *Wrong*: copy minority points at random until the classes are equal, then run
    stratified ``n_splits``-fold CV of ``KNeighborsClassifier(n_neighbors)`` on the
    enlarged set (copies of a test point can sit in the training folds). *Right*: the same
    oversampling applied to each training part only, the test fold left as drawn. Both
    report the balanced error (mean of the two per-class error rates) averaged over folds.

    Examples
    --------
    >>> out = oversampling_trial(np.random.default_rng(0))
    >>> out["wrong"] < out["right"]
    True
    """
    rng = check_rng(rng, "rng")
    n = check_int(n, "n", minimum=4 * n_splits)
    n_minority = check_int(n_minority, "n_minority", minimum=n_splits, maximum=n // 2)
    d = check_int(d, "d", minimum=1)
    n_splits = check_int(n_splits, "n_splits", minimum=2)
    clf = KNeighborsClassifier(n_neighbors=check_int(n_neighbors, "n_neighbors", minimum=1))
    y = rng.permutation(np.where(np.arange(n) < n_minority, 1, -1))
    X = rng.standard_normal((n, d))
    seed = int_seed(rng)
    big = _oversample(rng, y, np.arange(n))
    Xb, yb = X[big], y[big]
    folds = StratifiedKFold(n_splits, shuffle=True, random_state=seed)
    wrong = score_splits(clf, Xb, yb, folds.split(Xb, yb), _balanced_error)
    right = []
    for tr, te in StratifiedKFold(n_splits, shuffle=True, random_state=seed).split(X, y):
        tr = _oversample(rng, y, tr)
        right.append(_balanced_error(y[te], fit_predict(clf, X, y, tr, te)))
    return {"wrong": float(np.mean(wrong)), "right": float(np.mean(right))}


def leakage_study(
    trial, n_repeats: int, random_state: Any = None, n_jobs: int | None = None, **kwargs: Any
) -> dict[str, np.ndarray]:
    """:func:`preprocessing_trial`, :func:`target_encoding_trial` or
    :func:`oversampling_trial` repeated.

    Examples
    --------
    >>> leakage_study(target_encoding_trial, 2, random_state=0)["wrong"].shape
    (2,)
    """
    if trial not in (preprocessing_trial, target_encoding_trial, oversampling_trial, esl_trial):
        raise ValueError(
            "trial must be preprocessing_trial, target_encoding_trial, oversampling_trial or "
            f"esl_trial, got {trial!r}"
        )
    with threadpool_limits(limits=1):  # tiny problems: BLAS/OpenMP threads only cost time
        reps = repeat(trial, n_repeats, random_state=random_state, n_jobs=n_jobs, **kwargs)
    return columns(reps)


# --------------------------------------------------------------------------- records


def write_record(path: Any, values: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
    """Write one study's arrays (one row per data set) as a table, atomically.

    The file is a table of the package's one format (:func:`cvbook.records.write_table`)
    with float64 columns, so that :func:`read_record` gives every value back bit for bit;
    ``meta`` (e.g. ``{"study": "time", "phi": 0.95}``) heads the file.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_record(pathlib.Path(tmp) / "t.csv.gz", {"a": np.array([0.1, 0.2])}, {"x": 1})
    ...     back = read_record(pathlib.Path(tmp) / "t.csv.gz")
    >>> back["a"].tolist()
    [0.1, 0.2]
    """
    if not isinstance(values, Mapping) or not values:
        raise ArgumentTypeError(f"values must be a non-empty dict of arrays, got {values!r}")
    columns = {k: np.asarray(v, dtype=float) for k, v in values.items()}
    write_table(path, columns, meta)


def read_record(path: Any) -> dict[str, np.ndarray]:
    """Read what :func:`write_record` wrote: ``{name: array}`` (a missing or foreign file
    raises an error that names ``path``; :func:`cvbook.records.read_table`)."""
    return read_table(path).columns
