"""Chapter 9's experiments: the bootstrap family against cross-validation, on known truth.

One repetition (:func:`bootstrap_trial`) draws a data set ``S`` of ``m`` points from a
distribution whose risk is known, fits the learner on it, records the risk ``L(f_S)`` of
that model, and computes on ``S`` every estimate of :data:`ESTIMATES`: the out-of-bag
``Err^(1)``, .632 and .632+ (:mod:`cvbook.bootstrap`), stratified K-fold for K = 2, 5
and 10, 10-fold repeated five times, and leave-one-out. It also draws, for each training
size in ``target_sizes``, an independent data set of that size and records the risk of the
model fitted on it: over repetitions, its mean is the learner's expected risk ``Err_n`` at
that size, the target of an estimate whose models train on ``n`` points.

:func:`bootstrap_study` repeats the trial over independent data sets with
:func:`cvbook.simulation.repeat` (identical results for any ``n_jobs``).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import (
    LeaveOneOut,
    RepeatedStratifiedKFold,
    StratifiedKFold,
)

from .. import simulation, stats
from ..bootstrap import N_BOOTSTRAPS, BootstrapSplit, bootstrap_estimates, no_information_rate
from ..datasets.synthetic import Ringnorm, TwoGaussians, Twonorm, linear_rule, true_risk
from ..learners import current_name, get_learner
from ..records import missing_key, read_table, write_table
from ..risk import fit_predict, score_splits
from ..validation import (
    ArgumentTypeError,
    Interval,
    as_random_state,
    check_int,
    check_random_state,
    validate_params,
)

__all__ = [
    "BOOTSTRAP_LEARNERS",
    "CLASS_MIX_ESTIMATES",
    "ESTIMATES",
    "MIN_M",
    "BootstrapStudy",
    "NoInformation",
    "bootstrap_study",
    "bootstrap_trial",
    "class_mix_study",
    "class_mix_trial",
    "mlxtend_noinfo_trial",
    "mlxtend_style_estimates",
    "no_information_trial",
    "own_size",
    "read_study",
    "summarize_study",
    "write_study",
]

#: The smallest data set a study takes: stratified 10-fold needs a class of 10 points.
MIN_M = 20

#: The fewest fresh points that score a model (a smaller fresh sample may miss a class).
MIN_FRESH = 100


def _check_target_sizes(value: Any, name: str = "target_sizes") -> None:
    """The declared constraint of ``target_sizes``: a sequence of training sizes >= 4."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise ArgumentTypeError(f"{name} must be a sequence of training sizes, got {value!r}")
    for n in value:
        check_int(n, name, minimum=4)


#: The arguments every repetition study of this module declares.
_STUDY = {
    "m": Interval("int", MIN_M),
    "n_repeats": Interval("int", 2),
    "n_bootstraps": N_BOOTSTRAPS,
    "target_sizes": _check_target_sizes,
    "random_state": "random_state",
    "n_jobs": "n_jobs",
    "progress": "boolean",
}


#: The estimates a trial computes, in the order of the chapter's tables.
ESTIMATES: tuple[str, ...] = ("oob", ".632", ".632+", "cv2", "cv5", "cv10", "cv10x5", "loo")

#: The learners of the chapter, stable, unstable and tuned: the names of
#: :data:`cvbook.learners.LEARNERS` it accepts.
BOOTSTRAP_LEARNERS: tuple[str, ...] = ("lda", "1nn", "tree", "svm_tuned")


def _learner(name: Any) -> Any:
    """The learner called ``name`` (one of :data:`BOOTSTRAP_LEARNERS`), fresh and unfitted;
    an old name of a committed record is refused with what it is called now."""
    return get_learner(name, BOOTSTRAP_LEARNERS, "learner", legacy="bootstrap").make()


@dataclass(frozen=True)
class NoInformation:
    """Labels independent of the inputs: every classifier's risk is exactly 1/2.

    ``x ~ N(0, I_dim)``; a sample of ``m`` points holds ``m // 2`` points of each class
    (``-1`` and ``+1``; one more ``+1`` when ``m`` is odd) in random order, as in the
    example of *The Elements of Statistical Learning*, section 7.11.

    Examples
    --------
    >>> X, y = NoInformation(dim=3).sample(6, random_state=0)
    >>> X.shape, int((y == 1).sum())
    ((6, 3), 3)
    >>> NoInformation().risk
    0.5
    """

    dim: int = 2

    def __post_init__(self) -> None:
        check_int(self.dim, "dim", minimum=1)

    @property
    def risk(self) -> float:
        """The risk of any classifier: 1/2."""
        return 0.5

    def sample(self, m: int, random_state: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """``m`` points with balanced labels drawn independently of ``x``."""
        m = check_int(m, "m", minimum=2)
        rng = check_random_state(random_state)
        y = np.where(np.arange(m) < m // 2, -1, 1)
        return rng.standard_normal((m, self.dim)), rng.permutation(y)


_DISTRIBUTIONS = {
    "twogaussians": lambda: TwoGaussians(separation=2.0, dim=2),
    "twonorm": lambda: Twonorm(dim=20),
    "ringnorm": lambda: Ringnorm(dim=20),
    "noinformation": lambda: NoInformation(dim=2),
}


def _distribution(name: Any, argument: str) -> Any:
    """The distribution called ``name``; an error names ``argument`` as the caller spells it."""
    if not isinstance(name, str) or name not in _DISTRIBUTIONS:
        raise ValueError(f"{argument} must be one of {sorted(_DISTRIBUTIONS)}, got {name!r}")
    return _DISTRIBUTIONS[name]()


def bootstrap_distribution(name: str) -> Any:
    """The chapter's distributions: ``"twogaussians"``, ``"twonorm"``, ``"ringnorm"``,
    ``"noinformation"``.

    Examples
    --------
    >>> type(bootstrap_distribution("noinformation")).__name__
    'NoInformation'
    >>> bootstrap_distribution("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: name must be one of ['noinformation', 'ringnorm', ...], got 'nope'
    """
    return _distribution(name, "name")


def _risk(model: Any, distribution: Any, fresh: tuple[np.ndarray, np.ndarray] | None) -> float:
    """``L(f)``: exactly 1/2 on :class:`NoInformation`, else :func:`true_risk` (exact for a
    linear rule on two Gaussians, else the error on the shared fresh sample)."""
    if isinstance(distribution, NoInformation):
        return distribution.risk
    return true_risk(model, distribution, sample=fresh)


#: Draws of a data set before :func:`_sample` gives up (a class of fewer than 2 points).
MAX_DRAWS = 1000


def _sample(distribution: Any, m: int, rng: np.random.Generator) -> tuple:
    """``m`` i.i.d. points, redrawn while a class has fewer than 2 of them (then a training
    part of LOO or of stratified K-fold would hold one class). At ``m = 20`` and prior 1/2
    a redraw happens with probability ``21 / 2**19``, about 4e-5. A distribution that
    draws other than two classes, or whose every one of :data:`MAX_DRAWS` samples has a
    class of fewer than 2 points, is refused by name (a ``ValueError``), not redrawn
    forever."""
    for _ in range(MAX_DRAWS):
        X, y = distribution.sample(m, random_state=rng)
        labels, counts = np.unique(y, return_counts=True)
        if len(labels) > 2:
            raise ValueError(
                f"distribution must draw two classes, but a sample of m={m} points holds "
                f"{len(labels)}: {labels.tolist()[:5]}"
            )
        if len(labels) == 2 and counts.min() >= 2:
            return X, y
    last = dict(zip(labels.tolist(), counts.tolist(), strict=True))
    raise ValueError(
        f"distribution drew no sample of m={m} points with 2 points of each of two classes "
        f"in {MAX_DRAWS} draws (the last held {last}): "
        "a class is too rare for m; draw more points or use a distribution with two classes"
    )


def _seeded(learner: Any, rng: np.random.Generator) -> Any:
    """A clone whose own randomness (a tree's tie-breaking) comes from ``rng``."""
    est = clone(learner)
    if "random_state" in est.get_params():
        est.set_params(random_state=int(rng.integers(2**32)))
    return est


def _cv_error(est: Any, X: np.ndarray, y: np.ndarray, cv: Any) -> float:
    """The mean over folds of the fold error rates (what ``1 - cross_val_score`` gives with
    accuracy; a plain loop, without ``cross_val_score``'s per-fold overhead)."""
    errors = score_splits(est, X, y, cv.split(X, y), lambda t, p: float(np.mean(p != t)))
    return float(np.mean(errors))


@validate_params(
    {
        "rng": "random_state",
        "distribution": "distribution",
        "learner": "estimator",
        "m": Interval("int", 10),
        "n_bootstraps": N_BOOTSTRAPS,
        "target_sizes": _check_target_sizes,
        "n_fresh": Interval("int", MIN_FRESH),
    }
)
def bootstrap_trial(
    rng: np.random.Generator,
    distribution: Any,
    learner: Any,
    m: int,
    n_bootstraps: int = 50,
    target_sizes: Sequence[int] = (),
    n_fresh: int = 20_000,
) -> dict[str, float]:
    """One data set: every estimate of :data:`ESTIMATES`, the risk of ``f_S``, and one
    draw of the risk at each training size in ``target_sizes``.

    Parameters
    ----------
    rng : numpy.random.Generator, int, or any seed of the seed rule
        All the randomness of the trial (a Generator is used as is).
    distribution : object with ``sample(m, random_state)``
        Draws labels in two classes.
    learner : scikit-learn classifier
        Cloned before each fit.
    m : int
        Size of the data set, >= 10 (stratified 10-fold needs 10 points).
    n_bootstraps : int, default=50
        Bootstrap samples, >= 2.
    target_sizes : sequence of int, default=()
        Training sizes of the risk draws, each >= 4 (two points of each class).
    n_fresh : int, default=20_000
        Fresh points for a risk that is not exact, >= 100 (so that they hold both classes).

    Returns
    -------
    dict
        ``risk`` (``L(f_S)``), ``train`` (training error of ``f_S``), the estimates by
        name, and ``err_at_<n>`` for each ``n`` in ``target_sizes``.

    Examples
    --------
    >>> out = bootstrap_trial(np.random.default_rng(0), TwoGaussians(),
    ...                       get_learner("lda").make(), 30, n_bootstraps=10, target_sizes=(15,))
    >>> sorted(out)[:4]
    ['.632', '.632+', 'cv10', 'cv10x5']
    """
    rng = as_random_state(rng)
    target_sizes = [int(n) for n in target_sizes]
    X, y = _sample(distribution, m, rng)
    est = _seeded(learner, rng)
    model = clone(est).fit(X, y)
    # The fresh points that score non-linear models come from a child of ``rng``
    # (``Generator.spawn`` does not advance ``rng``): reproducible from the trial's seed.
    exact = isinstance(distribution, NoInformation) or (
        isinstance(distribution, TwoGaussians) and linear_rule(model) is not None
    )
    fresh = None if exact else distribution.sample(n_fresh, random_state=rng.spawn(1)[0])
    out: dict[str, float] = {"risk": _risk(model, distribution, fresh)}
    boot = bootstrap_estimates(
        est, X, y, n_bootstraps=n_bootstraps, random_state=rng.integers(2**32), stratify=True
    )
    out["train"], out["oob"], out[".632"], out[".632+"] = (
        boot.err_train,
        boot.err1,
        boot.err632,
        boot.err632plus,
    )
    with warnings.catch_warnings():  # a class smaller than K: StratifiedKFold warns, copes
        warnings.simplefilter("ignore", UserWarning)
        for k in (2, 5, 10):
            cv = StratifiedKFold(k, shuffle=True, random_state=int(rng.integers(2**32)))
            out[f"cv{k}"] = _cv_error(est, X, y, cv)
        seed = int(rng.integers(2**32))
        out["cv10x5"] = _cv_error(
            est, X, y, RepeatedStratifiedKFold(n_splits=10, n_repeats=5, random_state=seed)
        )
    out["loo"] = _cv_error(est, X, y, LeaveOneOut())
    for n in target_sizes:
        Xn, yn = _sample(distribution, int(n), rng)
        out[f"err_at_{int(n)}"] = _risk(clone(est).fit(Xn, yn), distribution, fresh)
    return out


@validate_params({"rng": "random_state", "m": Interval("int", 2), "n_bootstraps": N_BOOTSTRAPS})
def no_information_trial(
    rng: np.random.Generator, m: int, n_bootstraps: int = 50, dim: int = 2
) -> dict[str, float]:
    """One data set of the classic failure: 1-NN on :class:`NoInformation` (true risk 1/2).

    Returns the training error, the simple bootstrap ``err_boot``, ``Err^(1)``, .632,
    .632+, the no-information rate ``gamma``, the out-of-bag share and the LOO error.
    ``rng`` is a Generator (used as is) or any seed of the seed rule (an int, ...).

    Examples
    --------
    >>> out = no_information_trial(np.random.default_rng(0), 20, n_bootstraps=10)
    >>> out["train"], out["gamma"]
    (0.0, 0.5)
    """
    rng = as_random_state(rng)
    X, y = NoInformation(dim=dim).sample(m, random_state=rng)
    nn = get_learner("1nn").make()
    # Efron's plain bootstrap (classes balanced in S, so a one-class sample has
    # probability about 2**(1 - m); 1-NN would cope anyway).
    b = bootstrap_estimates(nn, X, y, n_bootstraps=n_bootstraps, random_state=rng.integers(2**32))
    return {
        "train": b.err_train,
        "boot": b.err_boot,
        "oob": b.err1,
        ".632": b.err632,
        ".632+": b.err632plus,
        "gamma": b.gamma,
        "share": b.out_of_bag_share,
        "loo": _cv_error(nn, X, y, LeaveOneOut()),
    }


@validate_params(
    {"estimator": "estimator", "n_bootstraps": N_BOOTSTRAPS, "random_state": "random_state"}
)
def mlxtend_style_estimates(
    estimator: Any,
    X: Any,
    y: Any,
    n_bootstraps: int = 50,
    random_state: Any = None,
    splits: Any = None,
) -> dict[str, float]:
    """The out-of-bag, .632 and .632+ estimates *as mlxtend defines them*, as 0-1 errors.

    mlxtend's ``bootstrap_point632_score`` (0.23-0.25) combines, per bootstrap sample
    ``b``, the error ``oob_b`` of that sample's model on its out-of-bag points and its
    error ``full_b`` on all of ``S`` (:func:`cvbook.bootstrap.bootstrap_replicate_errors`
    gives both): .632 is ``0.368 full_b + 0.632 oob_b``; .632+ uses, per sample,
    ``gamma_b`` (the no-information rate of that sample's predictions on ``S``),
    ``R_b = (oob_b - full_b) / (gamma_b - full_b)`` unclipped, and the weight
    ``w_b = 0.632 / (1 - 0.368 R_b)``; each is averaged over the samples. These are other
    estimators than Efron and Tibshirani's, which :func:`cvbook.bootstrap.bootstrap_estimates`
    computes (see its notes). Samples with ``gamma_b == full_b`` are left out of .632+.
    ``splits`` (pairs of sample and out-of-bag indices, e.g. mlxtend's
    ``BootstrapOutOfBag``) replaces the ``n_bootstraps`` samples drawn from ``random_state``.

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X, y = NoInformation().sample(30, random_state=0)
    >>> out = mlxtend_style_estimates(KNeighborsClassifier(1), X, y, 20, random_state=0)
    >>> sorted(out)
    ['.632', '.632+', 'oob']
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    oob, full, plus = [], [], []
    if splits is None:
        splits = BootstrapSplit(n_bootstraps, random_state=random_state).split(X, y)
    for train, test in splits:
        if test.size == 0:
            continue
        pred = clone(estimator).fit(X[train], y[train]).predict(X)
        o, f = float(np.mean(pred[test] != y[test])), float(np.mean(pred != y))
        gamma = no_information_rate(y, pred)
        oob.append(o)
        full.append(f)
        if gamma != f:
            r = (o - f) / (gamma - f)
            w = 0.632 / (1.0 - 0.368 * r)
            plus.append((1.0 - w) * f + w * o)
    oob_a, full_a = np.array(oob), np.array(full)
    return {
        "oob": float(oob_a.mean()),
        ".632": float(np.mean(0.368 * full_a + 0.632 * oob_a)),
        ".632+": float(np.mean(plus)) if plus else float("nan"),
    }


@validate_params({"rng": "random_state", "m": Interval("int", 4), "n_bootstraps": N_BOOTSTRAPS})
def mlxtend_noinfo_trial(
    rng: np.random.Generator, m: int, n_bootstraps: int = 50
) -> dict[str, float]:
    """One data set of the classic failure (:class:`NoInformation`, 1-NN), scored by
    :func:`mlxtend_style_estimates`: mlxtend's out-of-bag, .632 and .632+ (true risk 1/2).

    Examples
    --------
    >>> sorted(mlxtend_noinfo_trial(np.random.default_rng(0), 20, n_bootstraps=10))
    ['.632', '.632+', 'oob']
    """
    rng = as_random_state(rng)
    X, y = NoInformation().sample(m, random_state=rng)
    nn = get_learner("1nn").make()
    return mlxtend_style_estimates(nn, X, y, n_bootstraps, random_state=rng.integers(2**32))


def _per_point_oob(
    est: Any, X: np.ndarray, y: np.ndarray, splits: list
) -> tuple[np.ndarray, np.ndarray]:
    """Per point: the mean 0-1 loss of the models whose sample left it out, and how many
    models that is (Efron and Tibshirani's (6) before the average over points)."""
    losses = np.zeros(len(y))
    counts = np.zeros(len(y))
    for train, test in splits:
        wrong = fit_predict(est, X, y, train, test) != y[test]
        losses[test] += wrong
        counts[test] += 1
    seen = counts > 0
    return np.where(seen, losses / np.maximum(counts, 1), np.nan), counts


def _balanced(values: np.ndarray, y: np.ndarray) -> float:
    """The mean over the classes of the class means of ``values`` (NaN left out): an error
    rate scored under equal class weights, the population's mix here, not ``S``'s."""
    return float(np.mean([np.nanmean(values[y == c]) for c in np.unique(y)]))


def _two_class_splits(
    m: int, y: np.ndarray, n_bootstraps: int, stratify: bool, seed: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n_bootstraps`` bootstrap samples (:class:`~cvbook.bootstrap.BootstrapSplit`); a plain
    sample that holds one class only is replaced by the next draw (at ``m = 20`` and equal
    classes this happens with probability about ``2**-19`` per sample)."""
    out: list[tuple[np.ndarray, np.ndarray]] = []
    draws = BootstrapSplit(10 * n_bootstraps, random_state=seed, stratify=stratify)
    for train, test in draws.split(np.zeros((m, 1)), y):
        if len(np.unique(y[train])) == 2:
            out.append((train, test))
            if len(out) == n_bootstraps:
                return out
    raise RuntimeError("could not draw bootstrap samples with both classes")  # pragma: no cover


#: The quantities of :func:`class_mix_trial`, besides ``risk`` and ``err_at_<n>``.
CLASS_MIX_ESTIMATES: tuple[str, ...] = (
    "oob_strat",
    "oob_strat_bal",
    "oob_plain",
    "oob_plain_bal",
    "cv10",
    "cv10_bal",
    "n_out",
)


@validate_params(
    {
        "rng": "random_state",
        "m": Interval("int", MIN_M),
        "n_bootstraps": N_BOOTSTRAPS,
        "target_sizes": _check_target_sizes,
    }
)
def class_mix_trial(
    rng: np.random.Generator,
    m: int,
    learner: str = "lda",
    n_bootstraps: int = 50,
    target_sizes: Sequence[int] = (),
) -> dict[str, float]:
    """One data set of two Gaussians: ``Err^(1)`` by the stratified and by the plain
    bootstrap, and stratified 10-fold, each scored as usual and class-balanced.

    Every resampling estimate is an error rate on the points of ``S``, whose class mix
    ``p_hat`` is ``S``'s, while ``L(f_S)`` and ``Err_n`` weigh the two classes 1/2-1/2 (the
    population's mix). Scoring the *same* predictions class-balanced (the mean of the two
    per-class error rates, ``*_bal``) removes that difference and leaves the training-size
    effect. ``oob_strat`` draws each bootstrap sample class by class (what
    :func:`bootstrap_trial` uses), ``oob_plain`` draws ``m`` points from ``S`` (Efron's
    bootstrap, the default of :func:`cvbook.bootstrap.bootstrap_estimates`); ``n_out`` is
    the mean number of plain samples that left a point out, the models ``Err^(1)``
    averages per point (about ``B e^-1``). ``risk`` is ``L(f_S)``, exact for a linear rule;
    ``err_at_<n>`` the risk of the learner trained on an independent set of ``n`` points.

    Examples
    --------
    >>> out = class_mix_trial(np.random.default_rng(0), 20, n_bootstraps=10, target_sizes=(10,))
    >>> sorted(out)  # doctest: +NORMALIZE_WHITESPACE
    ['cv10', 'cv10_bal', 'err_at_10', 'n_out', 'oob_plain', 'oob_plain_bal', 'oob_strat',
     'oob_strat_bal', 'risk']
    """
    rng = as_random_state(rng)
    est = _learner(learner)
    target_sizes = [int(n) for n in target_sizes]
    dist = _distribution("twogaussians", "distribution")
    X, y = _sample(dist, m, rng)
    est = _seeded(est, rng)
    model = clone(est).fit(X, y)
    exact = linear_rule(model) is not None
    fresh = None if exact else dist.sample(20_000, random_state=rng.spawn(1)[0])
    out: dict[str, float] = {"risk": _risk(model, dist, fresh)}
    for name, stratify in (("strat", True), ("plain", False)):
        splits = _two_class_splits(m, y, n_bootstraps, stratify, int(rng.integers(2**32)))
        per_point, counts = _per_point_oob(est, X, y, splits)
        out[f"oob_{name}"] = float(np.nanmean(per_point))
        out[f"oob_{name}_bal"] = _balanced(per_point, y)
        if not stratify:
            out["n_out"] = float(counts.mean())
    cv = StratifiedKFold(10, shuffle=True, random_state=int(rng.integers(2**32)))
    held = np.empty(m)
    fold_errors = []
    with warnings.catch_warnings():  # a class smaller than 10: StratifiedKFold warns, copes
        warnings.simplefilter("ignore", UserWarning)
        for tr, te in cv.split(X, y):
            wrong = fit_predict(est, X, y, tr, te) != y[te]
            held[te] = wrong
            fold_errors.append(wrong.mean())
    out["cv10"], out["cv10_bal"] = float(np.mean(fold_errors)), _balanced(held, y)
    for n in target_sizes:
        Xn, yn = _sample(dist, int(n), rng)
        out[f"err_at_{int(n)}"] = _risk(clone(est).fit(Xn, yn), dist, fresh)
    return out


@validate_params(_STUDY)
def class_mix_study(
    m: int,
    n_repeats: int,
    learner: str = "lda",
    n_bootstraps: int = 50,
    target_sizes: Sequence[int] = (),
    random_state: Any = None,
    n_jobs: int | None = None,
    progress: bool = False,
) -> BootstrapStudy:
    """Repeat :func:`class_mix_trial` on ``n_repeats`` independent data sets.

    Examples
    --------
    >>> st = class_mix_study(20, 3, n_bootstraps=5, random_state=0)
    >>> st.n_repeats, st.learner
    (3, 'lda')
    """
    _learner(learner)
    rows = simulation.repeat(
        class_mix_trial,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        progress=progress,
        desc=f"class mix, {learner}, m={m}",
        m=m,
        learner=learner,
        n_bootstraps=n_bootstraps,
        target_sizes=tuple(target_sizes),
    )
    values = simulation.columns(rows, dtype=float)
    return BootstrapStudy(values=values, m=m, learner=learner, distribution="twogaussians")


@dataclass(frozen=True)
class BootstrapStudy:
    """The trials of :func:`bootstrap_study`, one array per quantity.

    Attributes
    ----------
    values : dict of str to ndarray of shape (R,)
        ``risk``, ``train``, every estimate of :data:`ESTIMATES` and ``err_at_<n>``.
    m : int
    learner, distribution : str
    """

    values: dict[str, np.ndarray]
    m: int
    learner: str
    distribution: str

    def __post_init__(self) -> None:
        if not isinstance(self.values, Mapping):
            raise ArgumentTypeError(
                f"values must be a dict of str to arrays, got {type(self.values).__name__}"
            )
        if "risk" not in self.values:
            raise ValueError(f"values must hold the key 'risk', got {sorted(self.values)}")
        lengths = {}
        for key, column in self.values.items():
            if not isinstance(key, str):
                raise ArgumentTypeError(f"values must have str keys, got the key {key!r}")
            shape = np.shape(column)
            if len(shape) != 1:
                raise ValueError(f"values[{key!r}] must be 1-d (one value per data set)")
            kind = np.asarray(column).dtype.kind
            if kind not in "biuf":
                raise ArgumentTypeError(
                    f"values[{key!r}] must hold numbers, got an array of dtype "
                    f"{np.asarray(column).dtype}"
                )
            lengths[key] = shape[0]
        if len(set(lengths.values())) > 1:
            raise ValueError(f"values must hold one value per data set in each key, got {lengths}")
        if lengths["risk"] == 0:
            raise ValueError("values must hold at least one data set, got empty arrays")
        check_int(self.m, "m", minimum=10)
        for name in ("learner", "distribution"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise ArgumentTypeError(f"{name} must be a str (its name), got {value!r}")
            if not value or any(c.isspace() or c == "=" for c in value):
                raise ValueError(
                    f"{name} must be a non-empty name without spaces or '=' (write_study "
                    f"writes it in a header), got {value!r}"
                )

    def __getitem__(self, key: str) -> np.ndarray:
        """The values of ``key``; a missing key raises a
        :class:`~cvbook.records.RecordKeyError` that names it and the keys held."""
        if key not in self.values:
            raise missing_key(key, self.values, "study")
        return self.values[key]

    @property
    def n_repeats(self) -> int:
        """``R``, the number of data sets."""
        return len(self.values["risk"])

    def bias(self, estimate: str, target: str = "risk") -> stats.Paired:
        """Mean of ``estimate - target`` with its SE over the data sets. Against ``risk``
        this is the bias for ``Err_m`` (the mean of ``L(f_S)``); against ``err_at_<n>``,
        for ``Err_n``."""
        return stats.paired_difference(self[estimate], self[target])

    def squared_errors(self, estimate: str) -> np.ndarray:
        """``(estimate - L(f_S))**2`` per data set: its mean is the MSE for ``L(f_S)``."""
        return (self[estimate] - self["risk"]) ** 2

    def rmse(self, estimate: str) -> float:
        """Root mean squared error for ``L(f_S)`` over the data sets."""
        return float(np.sqrt(np.mean(self.squared_errors(estimate))))

    def mse_difference(self, a: str, b: str) -> stats.Paired:
        """Paired difference of the squared errors of ``a`` and ``b`` for ``L(f_S)``: a
        negative mean says ``a`` is closer to the risk of the model fitted on ``S``."""
        return stats.paired_difference(self.squared_errors(a), self.squared_errors(b))


@validate_params({**_STUDY, "n_fresh": Interval("int", MIN_FRESH)})
def bootstrap_study(
    distribution: str,
    learner: str,
    m: int,
    n_repeats: int,
    n_bootstraps: int = 50,
    target_sizes: Sequence[int] = (),
    random_state: Any = None,
    n_jobs: int | None = None,
    n_fresh: int = 20_000,
    progress: bool = False,
    checkpoint: Any = None,
) -> BootstrapStudy:
    """Repeat :func:`bootstrap_trial` on ``n_repeats`` independent data sets.

    ``checkpoint`` is a folder where every finished data set is saved at once (see
    :func:`cvbook.simulation.repeat`): the same call resumes from it.

    Examples
    --------
    >>> st = bootstrap_study("noinformation", "1nn", 20, n_repeats=3, n_bootstraps=10,
    ...                      random_state=0)
    >>> st.n_repeats, float(st["risk"][0]), float(st["train"].max())
    (3, 0.5, 0.0)
    """
    dist = _distribution(distribution, "distribution")
    est = _learner(learner)
    sizes = tuple(int(n) for n in target_sizes)
    rows = simulation.repeat(
        bootstrap_trial,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        progress=progress,
        desc=f"{learner}, m={m}",
        distribution=dist,
        learner=est,
        m=m,
        n_bootstraps=n_bootstraps,
        target_sizes=sizes,
        n_fresh=n_fresh,
        checkpoint=checkpoint,
    )
    values = simulation.columns(rows, dtype=float)
    return BootstrapStudy(values=values, m=m, learner=learner, distribution=distribution)


def own_size(estimate: str, m: int) -> int:
    """The training size whose expected risk ``Err_n`` an estimate aims at.

    The out-of-bag ``Err^(1)`` scores models that saw about ``0.632 m`` distinct points;
    K-fold's models train on ``m - m/K`` points (``m // K`` folds rounded as the study's
    ``target_sizes`` are); .632, .632+ and leave-one-out aim at ``m`` (LOO's
    ``m - 1`` is taken as ``m``).

    Examples
    --------
    >>> [own_size(e, 40) for e in ESTIMATES]
    [25, 40, 40, 20, 32, 36, 36, 40]
    """
    m = check_int(m, "m", minimum=10)
    if estimate == "oob":
        return round(0.632 * m)
    if estimate in ("cv2", "cv5", "cv10", "cv10x5"):
        k = int(estimate[2:].split("x")[0])
        return m - m // k
    if estimate in (".632", ".632+", "loo"):
        return m
    raise ValueError(f"estimate must be one of {list(ESTIMATES)}, got {estimate!r}")


def summarize_study(study: BootstrapStudy) -> list[dict[str, Any]]:
    """One row per estimate: mean and SD over the data sets, bias for ``Err_m`` and for
    ``Err_n`` at its own training size (each a :class:`~cvbook.stats.Paired`), and
    RMSE for ``L(f_S)``.

    Examples
    --------
    >>> st = bootstrap_study("twogaussians", "lda", 20, n_repeats=3, n_bootstraps=5,
    ...                      target_sizes=(10, 13, 16, 18, 20), random_state=0)
    >>> [r["estimate"] for r in summarize_study(st)][:3]
    ['oob', '.632', '.632+']
    """
    _check_study(study)
    rows = []
    for e in ESTIMATES:
        n = own_size(e, study.m)
        key = f"err_at_{n}"
        rows.append(
            {
                "estimate": e,
                "mean": float(study[e].mean()),
                "sd": float(study[e].std(ddof=1)),
                "bias_m": study.bias(e, "risk"),
                "own_n": n,
                "bias_own": study.bias(e, key) if key in study.values else None,
                "rmse": study.rmse(e),
            }
        )
    return rows


def write_study(path: Any, study: BootstrapStudy) -> None:
    """Write a study's values to ``path`` as a table (one row per data set, float64
    columns; its distribution, learner and ``m`` in the table's meta), atomically, so that
    :func:`read_study` gives them back bit for bit (:func:`cvbook.records.write_table`).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> st = bootstrap_study("twogaussians", "lda", 20, n_repeats=2, n_bootstraps=5,
    ...                      random_state=0)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_study(pathlib.Path(tmp) / "lda_m20.csv.gz", st)
    ...     back = read_study(pathlib.Path(tmp) / "lda_m20.csv.gz")
    >>> all(np.array_equal(back[k], st[k]) for k in st.values), back.learner, back.m
    (True, 'lda', 20)
    """
    _check_study(study)
    meta = {"distribution": study.distribution, "learner": study.learner, "m": study.m}
    columns = {k: np.asarray(v, dtype=float) for k, v in study.values.items()}
    write_table(path, columns, meta)


def _check_study(study: Any) -> BootstrapStudy:
    if not isinstance(study, BootstrapStudy):
        raise ArgumentTypeError(
            f"study must be a BootstrapStudy (what bootstrap_study or read_study returns), "
            f"got {type(study).__name__}"
        )
    return study


def read_study(path: Any) -> BootstrapStudy:
    """Read what :func:`write_study` wrote (:func:`cvbook.records.read_table`).

    The learner is named as :mod:`cvbook.learners` names it now: a record written under an
    old name (``"svc"``, now ``"svm_tuned"``) reads with the new one
    (:func:`cvbook.learners.current_name`); the file keeps what was written.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist (the message names it).
    ValueError
        If ``path`` is not a study that :func:`write_study` wrote (not a whole table, or
        not a study's meta and columns); the message names it.
    """
    columns, meta = read_table(path)
    try:
        learner = current_name(meta["learner"], "bootstrap")
        if learner not in BOOTSTRAP_LEARNERS:  # else chapter 9 fails deep, at its .index
            raise ValueError(f"learner must be one of {list(BOOTSTRAP_LEARNERS)}, got {learner!r}")
        return BootstrapStudy(
            values=columns, m=meta["m"], learner=learner, distribution=meta["distribution"]
        )
    except (ValueError, KeyError) as err:
        raise ValueError(
            f"path {str(path)!r} must be a study that write_study wrote ({type(err).__name__}: "
            f"{err})"
        ) from None
