"""Do the intervals of chapter 7 cover? Each interval against the targets it may speak of.

On a distribution whose risk is known, draw a data set of ``n``
points, compute every interval of :mod:`cvbook.intervals` on it, and record
each interval next to the two targets:

* the *conditional* risk ``L(f)`` of the model the interval speaks of -- the
  model fitted on the training part for the hold-out, the model fitted on all
  ``n`` points for every cross-validation method;
* the *expected* risk of the learner at that training size, the mean of the
  conditional risks over the repetitions (its Monte Carlo error is reported);

and next to each method's *own* target (:data:`OWN_TARGETS`, :func:`own_target`): the
K-fold test error of the naive interval's fold models, and the expected risk at the
training size of a split (``0.9 n``) for the corrected t and the conservative Z.

Risks are exact for a linear learner on the two Gaussians and on twonorm
(:meth:`~cvbook.datasets.synthetic.Twonorm.linear_rule_risk`); otherwise they come from
a fresh sample (standard error recorded).

The learners (:data:`INTERVAL_LEARNERS`, names of :mod:`cvbook.learners`), the check of
the sizes (:func:`check_n_values`),
of a study's records (:func:`check_records`) and the scorer of a model
(:func:`risk_function`) are public: chapter 7's other two studies,
:mod:`cvbook.studies.learner_comparison` and :mod:`cvbook.studies.nested_cv_bias`,
use them too.

Every repetition goes through :func:`cvbook.simulation.repeat`, seeded per
task, so results are the same for any ``n_jobs``. The long run's command line
(``python -m cvbook.runs.intervals --help``), its records and their reader are
:mod:`cvbook.runs.intervals`.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from sklearn.base import clone

from ..bounds import clopper_pearson_interval
from ..datasets.synthetic import linear_rule, make_distribution, true_risk
from ..intervals import (
    INTERVAL_METHODS,
    conservative_z_interval,
    corrected_t_interval,
    cv_wald_interval,
    holdout_interval,
    kfold_splits,
    nested_cv_interval,
    random_splits,
)
from ..learners import get_learner
from ..simulation import repeat
from ..validation import (
    ArgumentTypeError,
    check_alpha,
    check_int,
    check_keys,
    check_open_unit,
    check_option,
    check_rng,
    check_test_fraction,
)

__all__ = [
    "DESIGNS",
    "INTERVAL_LEARNERS",
    "OWN_TARGETS",
    "SETTINGS",
    "check_n_values",
    "check_records",
    "coverage_hits",
    "format_interval_table",
    "interval_trial",
    "own_target",
    "risk_function",
    "run_intervals",
    "summarize_intervals",
]


#: The learners of chapter 7: the names of :data:`cvbook.learners.LEARNERS` it accepts.
INTERVAL_LEARNERS: tuple[str, ...] = ("lda", "logreg", "svm")

#: The (distribution, learner) pairs of the long run.
DESIGNS: tuple[tuple[str, str], ...] = (
    ("twogaussians", "lda"),
    ("twogaussians", "logreg"),
    ("twonorm", "lda"),
    ("twonorm", "logreg"),
    ("twonorm", "svm"),
    ("ringnorm", "lda"),
    ("ringnorm", "svm"),
)

#: Settings of each interval in the studies. Where the cost forbids the published ones:
#: nested CV with 10 repetitions (the authors use 50 or more), and the conservative Z with
#: J = 5 splits per estimate (Nadeau and Bengio use 15) but their M = 10 pairs of halves.
SETTINGS: dict[str, dict[str, Any]] = {
    "holdout": {"test_size": 0.2},
    "cv_wald": {"n_splits": 10},
    "corrected_t": {"n_splits": 15, "test_size": 0.1},
    "conservative_z": {"n_splits": 5, "n_pairs": 10, "test_size": 0.1},
    "nested_cv": {"n_splits": 5, "n_repeats": 10},
}

_METHODS = list(INTERVAL_METHODS)

#: The interval function behind each key of :data:`SETTINGS`.
_INTERVAL_FUNCTIONS = {
    "holdout": holdout_interval,
    "cv_wald": cv_wald_interval,
    "corrected_t": corrected_t_interval,
    "conservative_z": conservative_z_interval,
    "nested_cv": nested_cv_interval,
}

#: Keyword arguments the trials set themselves: a setting may not change them.
_SET_BY_TRIAL = ("loss", "alpha", "random_state", "method")


def _setting_keys(key: str) -> list[str]:
    """The keyword arguments of the interval ``key`` that a setting may give."""
    params = inspect.signature(_INTERVAL_FUNCTIONS[key]).parameters.values()
    return [p.name for p in params if p.kind is p.KEYWORD_ONLY and p.name not in _SET_BY_TRIAL]


def _check_settings(settings: Any) -> dict[str, dict[str, Any]]:
    """:data:`SETTINGS` updated by ``settings``; an unknown interval or keyword is refused
    by name (a typo would otherwise run the defaults silently)."""
    cfg = {k: dict(v) for k, v in SETTINGS.items()}
    if settings is None:
        return cfg
    if not isinstance(settings, Mapping):
        raise ArgumentTypeError(
            f"settings must be a dict of interval name to keyword arguments, got {settings!r}"
        )
    for key, value in settings.items():
        if key not in SETTINGS:
            raise ValueError(
                f"settings has an unknown key {key!r}; the allowed keys are {list(SETTINGS)}"
            )
        if not isinstance(value, Mapping):
            raise ArgumentTypeError(
                f"settings[{key!r}] must be a dict of keyword arguments, got {value!r}"
            )
        allowed = _setting_keys(key)
        for arg in value:
            if arg not in allowed:
                raise ValueError(
                    f"settings[{key!r}] has an unknown key {arg!r}; the allowed keys are {allowed}"
                )
        cfg[key] = {**cfg.get(key, {}), **value}
    check_test_fraction(cfg["holdout"]["test_size"], "settings['holdout']['test_size']")
    return cfg


def check_n_values(n_values: Any) -> list[int]:
    """The sizes ``n`` of a study: a non-empty sequence of integers, each at least 20.

    Parameters
    ----------
    n_values : sequence of int
        The sizes, as the caller gave them.

    Returns
    -------
    list of int

    Raises
    ------
    ArgumentTypeError
        If ``n_values`` is not a sequence (a string is refused).
    ValueError
        If it is empty or holds a size below 20.

    Examples
    --------
    >>> check_n_values((50, 100))
    [50, 100]
    """
    if isinstance(n_values, (str, bytes)) or not isinstance(n_values, Iterable):
        raise ArgumentTypeError(
            f"n_values must be a sequence of sizes n (integers >= 20), got {n_values!r}"
        )
    out = [check_int(v, "n_values", minimum=20) for v in n_values]
    if not out:
        raise ValueError("n_values must hold at least one size n, got none")
    return out


def check_records(records: Any, columns: Sequence[str], producer: str) -> dict[str, np.ndarray]:
    """The columns of a study's ``records`` as arrays; a missing one is refused by name.

    Parameters
    ----------
    records : dict of array-like
        Records of a study, by column.
    columns : sequence of str
        The columns the caller needs.
    producer : str
        The function whose result ``records`` should be, named in the error.

    Returns
    -------
    dict of numpy.ndarray

    Examples
    --------
    >>> check_records({"n": [50, 100]}, ("n",), "run_intervals")["n"].tolist()
    [50, 100]
    """
    check_keys(records, "records", columns, f"a dict of columns ({producer}'s result)")
    return {k: np.asarray(v) for k, v in records.items()}


#: The fewest fresh points that score a model: a smaller fresh sample may miss a class.
_MIN_FRESH = 100


def risk_function(distribution, rng: np.random.Generator, n_fresh: int):
    """``risk(model) -> (risk, standard error)``: exact for a linear rule, else a fresh sample.

    Parameters
    ----------
    distribution : distribution of :mod:`cvbook.datasets.synthetic`
        Where the points come from.
    rng : numpy.random.Generator
        Draws the seed of the fresh sample (drawn once, on the first model that needs it).
    n_fresh : int
        Fresh points for a risk that is not exact, at least 100 (so that they hold both
        classes).

    Returns
    -------
    callable
        ``risk(model)``: the model's risk and its standard error (0 when exact).

    Examples
    --------
    >>> from cvbook.datasets.synthetic import make_distribution
    >>> dist = make_distribution("twonorm")
    >>> X, y = dist.sample(100, random_state=0)
    >>> risk = risk_function(dist, np.random.default_rng(0), 1000)
    >>> risk(get_learner("lda").make().fit(X, y))[1]
    0.0
    """
    n_fresh = check_int(n_fresh, "n_fresh", minimum=_MIN_FRESH)
    fresh: list[np.ndarray] = []
    seed = int(rng.integers(0, 2**31 - 1))

    def risk(model) -> tuple[float, float]:
        if linear_rule(model) is not None and hasattr(distribution, "linear_rule_risk"):
            return true_risk(model, distribution), 0.0
        if not fresh:
            fresh.extend(distribution.sample(n_fresh, random_state=seed))
        value = true_risk(model, distribution, sample=(fresh[0], fresh[1]), batch_size=10_000)
        return value, float(np.sqrt(max(value * (1 - value), 1e-12) / n_fresh))

    return risk


# --------------------------------------------------------------------------- #
# Coverage of the intervals


def interval_trial(
    rng: np.random.Generator,
    distribution: str,
    learner: str,
    n_values: Sequence[int],
    alpha: float = 0.05,
    n_fresh: int = 50_000,
    settings: Mapping[str, Mapping[str, Any]] | None = None,
) -> np.ndarray:
    """One repetition: every interval at every ``n`` on a fresh data set.

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness.
    distribution, learner : str
        Names (:data:`cvbook.datasets.synthetic.DISTRIBUTIONS`, :data:`INTERVAL_LEARNERS`).
    n_values : sequence of int
        Sizes ``n`` of the data sets, each at least 20.
    alpha : float, default=0.05
    n_fresh : int, default=50_000
        Fresh points for a risk that is not exact, >= 100 (so that they hold both classes).
    settings : dict, optional
        Keyword arguments of each interval, by the keys of :data:`SETTINGS` (which
        gives the defaults). An unknown interval or keyword argument is refused by name;
        ``loss``, ``alpha``, ``random_state`` and ``method`` are the trial's own.

    Returns
    -------
    numpy.ndarray of shape (n_records, 13)
        Columns ``n, method index, estimate, lower, upper, n_fits, risk of the
        model the interval speaks of, risk of the model fitted on all n, standard
        error of those risks``, then ``risk_kfold`` (the K-fold test error: mean
        risk of the naive interval's K fold models), ``risk_sub`` (risk of one
        model fitted on ``n_sub`` points, the corrected t's training size),
        ``n_sub`` and the standard error of those two risks.

    Examples
    --------
    >>> rows = interval_trial(np.random.default_rng(0), "twonorm", "lda", [60],
    ...                       settings={"nested_cv": {"n_splits": 3, "n_repeats": 2}})
    >>> rows.shape
    (6, 13)
    """
    rng = check_rng(rng, "rng")
    dist = make_distribution(distribution)
    est = get_learner(learner, INTERVAL_LEARNERS, "learner").make()
    n_values = check_n_values(n_values)
    cfg = _check_settings(settings)
    risk = risk_function(dist, rng, n_fresh)
    rows = []
    for n in n_values:
        X, y = dist.sample(int(n), random_state=int(rng.integers(0, 2**31 - 1)))
        full_risk, full_se = risk(clone(est).fit(X, y))
        seed = int(rng.integers(0, 2**31 - 1))
        ho = cfg["holdout"]
        n_test = round(ho["test_size"] * n)
        ((train, _),) = random_splits(y, 1, n_test, "zero_one", check_rng(seed))
        ho_risk, ho_se = risk(clone(est).fit(X[train], y[train]))
        results = [
            holdout_interval(est, X, y, method="wald", alpha=alpha, random_state=seed, **ho),
            holdout_interval(est, X, y, alpha=alpha, random_state=seed, **ho),
        ]
        seeds = {}
        for fn, key in (
            (cv_wald_interval, "cv_wald"),
            (corrected_t_interval, "corrected_t"),
            (conservative_z_interval, "conservative_z"),
            (nested_cv_interval, "nested_cv"),
        ):
            seeds[key] = int(rng.integers(0, 2**31 - 1))
            results.append(fn(est, X, y, alpha=alpha, **cfg[key], random_state=seeds[key]))
        # the naive interval's own target, the K-fold test error: the mean risk of its K fold
        # models (the same folds: cv_wald_interval draws them from its seed exactly so)
        folds = kfold_splits(
            y, cfg["cv_wald"].get("n_splits", 10), "zero_one", check_rng(seeds["cv_wald"])
        )
        fold_risks = [risk(clone(est).fit(X[tr], y[tr])) for tr, _ in folds]
        kfold_risk = float(np.mean([r for r, _ in fold_risks]))
        kfold_se = float(np.sqrt(np.mean([s**2 for _, s in fold_risks])))
        # one model at the corrected t's (and conservative Z's) training size: the points are
        # i.i.d., so the first n_train of them are a random training set of that size, and the
        # mean of these risks over the data sets estimates Err at n_train
        n_train = results[3].train_size
        sub_risk, sub_se = risk(clone(est).fit(X[:n_train], y[:n_train]))
        for r in results:
            own, own_se = (
                (ho_risk, ho_se) if r.method.startswith("holdout") else (full_risk, full_se)
            )
            rows.append(
                (
                    n,
                    _METHODS.index(r.method),
                    r.estimate,
                    r.lower,
                    r.upper,
                    r.n_fits,
                    own,
                    full_risk,
                    max(own_se, full_se),
                    kfold_risk,
                    sub_risk,
                    n_train,
                    max(kfold_se, sub_se),
                )
            )
    return np.array(rows, dtype=float)


def run_intervals(
    distribution: str = "twonorm",
    learner: str = "lda",
    n_values: Sequence[int] = (100,),
    n_repeats: int = 100,
    alpha: float = 0.05,
    n_fresh: int = 50_000,
    settings: Mapping | None = None,
    random_state: int | None = 0,
    n_jobs: int | None = None,
    progress: bool = False,
    checkpoint: str | os.PathLike | None = None,
) -> dict[str, np.ndarray]:
    """Run :func:`interval_trial` on ``n_repeats`` independent data sets.

    Returns
    -------
    dict of numpy.ndarray
        Columns ``distribution, learner, repeat, n, method, estimate, lower, upper,
        n_fits, risk`` (the conditional target), ``risk_full`` and ``risk_se``;
        ``risk_kfold`` (the K-fold test error of the naive interval's folds),
        ``risk_sub`` (risk of a model fitted on ``n_sub`` points, the training size of
        the corrected t and conservative Z) and ``risk_sub_se`` (the SE of those two).

    Examples
    --------
    >>> rec = run_intervals(n_values=[60], n_repeats=2, random_state=0,
    ...                     settings={"nested_cv": {"n_splits": 3, "n_repeats": 1}})
    >>> sorted(set(rec["method"].tolist()))[:2], len(rec["n"])
    (['conservative_z', 'corrected_t'], 12)
    """
    make_distribution(distribution)
    get_learner(learner, INTERVAL_LEARNERS, "learner")
    n_values = check_n_values(n_values)
    n_repeats = check_int(n_repeats, "n_repeats", minimum=1)
    alpha = float(check_open_unit(alpha, "alpha", scalar=True))
    _check_settings(settings)
    n_fresh = check_int(n_fresh, "n_fresh", minimum=_MIN_FRESH)
    results = repeat(
        interval_trial,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        progress=progress,
        desc=f"intervals {distribution}/{learner}",
        checkpoint=checkpoint,
        distribution=distribution,
        learner=learner,
        n_values=n_values,
        alpha=alpha,
        n_fresh=n_fresh,
        settings=None if settings is None else dict(settings),
    )
    table = np.concatenate(results)
    reps = np.concatenate([np.full(len(r), i) for i, r in enumerate(results)])
    m = len(table)
    return {
        "distribution": np.full(m, distribution),
        "learner": np.full(m, learner),
        "repeat": reps.astype(int),
        "n": table[:, 0].astype(int),
        "method": np.array(_METHODS)[table[:, 1].astype(int)],
        "estimate": table[:, 2],
        "lower": table[:, 3],
        "upper": table[:, 4],
        "n_fits": table[:, 5].astype(int),
        "risk": table[:, 6],
        "risk_full": table[:, 7],
        "risk_se": table[:, 8],
        "risk_kfold": table[:, 9],
        "risk_sub": table[:, 10],
        "n_sub": table[:, 11].astype(int),
        "risk_sub_se": table[:, 12],
    }


def _cp(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    lo, hi = clopper_pearson_interval(int(k), int(n), alpha)
    return float(lo), float(hi)


#: Each interval's own target: ``"risk"`` (the conditional risk of the model it speaks of),
#: ``"risk_kfold"`` (the K-fold test error, per data set) or ``"Err_sub"`` (the expected risk
#: at the method's training size, the mean of ``risk_sub`` over the data sets of a design and
#: size).
OWN_TARGETS: dict[str, str] = {
    "holdout_wald": "risk",
    "holdout_cp": "risk",
    "cv_wald": "risk_kfold",
    "corrected_t": "Err_sub",
    "conservative_z": "Err_sub",
    "nested_cv": "risk",
}


def own_target(records: Mapping[str, np.ndarray]) -> np.ndarray:
    """The value of each record's own target (:data:`OWN_TARGETS`), one entry per record.

    ``Err_sub`` is the mean of ``risk_sub`` over the records of the same distribution,
    learner, size and method (one per data set); its Monte Carlo error is that of a mean.

    Parameters
    ----------
    records : dict of numpy.ndarray
        As returned by :func:`run_intervals` (or several concatenated), with the columns
        ``risk_kfold`` and ``risk_sub`` (runs before these were recorded lack them).

    Returns
    -------
    numpy.ndarray of float, shape (n_records,)
        Records of a method missing from :data:`OWN_TARGETS` get NaN.

    Raises
    ------
    ValueError
        If a column the targets need is missing.

    Examples
    --------
    >>> rec = {"distribution": np.array(["a", "a"]), "learner": np.array(["l", "l"]),
    ...        "n": np.array([50, 50]), "method": np.array(["corrected_t"] * 2),
    ...        "risk": np.array([0.1, 0.2]), "risk_kfold": np.array([0.1, 0.2]),
    ...        "risk_sub": np.array([0.3, 0.5])}
    >>> own_target(rec).tolist()
    [0.4, 0.4]
    """
    cols = {k: np.asarray(v) for k, v in records.items()}
    if "risk_kfold" not in cols or "risk_sub" not in cols:
        raise ValueError("records lack the columns risk_kfold and risk_sub (an older run)")
    missing = sorted({"distribution", "learner", "n", "method", "risk"} - set(cols))
    if missing:
        raise ValueError(f"records lack the columns {missing}")
    out = np.full(len(cols["n"]), np.nan)
    for method, column in OWN_TARGETS.items():
        sel = cols["method"] == method
        if column != "Err_sub":
            out[sel] = cols[column][sel]
            continue
        keys = np.array(
            [
                f"{d}|{lr}|{n}"
                for d, lr, n in zip(
                    cols["distribution"][sel], cols["learner"][sel], cols["n"][sel], strict=True
                )
            ]
        )
        values = cols["risk_sub"][sel]
        target = np.empty(values.size)
        for key in np.unique(keys):
            target[keys == key] = values[keys == key].mean()
        out[sel] = target
    return out


def summarize_intervals(
    records: Mapping[str, np.ndarray], coverage_alpha: float = 0.05
) -> list[dict[str, Any]]:
    """Coverage of each target, with its Clopper--Pearson interval, mean width and cost.

    The expected risk of the learner at the target's training size is the
    mean, over the repetitions, of the conditional risks of the models the
    intervals speak of (``expected_se`` is its Monte Carlo standard error).

    Returns
    -------
    list of dict
        One row per ``(distribution, learner, n, method)``: ``n_repeats``;
        ``cover_conditional``, ``cover_conditional_lo/hi``; ``cover_expected``,
        ``cover_expected_lo/hi``; ``below_expected`` (share of intervals entirely
        below the expected risk: optimistic); ``width`` (mean), ``n_fits``,
        ``expected`` and ``expected_se``, ``estimate_mean``; ``cover_conditional_k``
        (the count). Records with the columns ``risk_kfold`` and ``risk_sub`` add
        ``cover_own``, ``cover_own_k``, ``cover_own_lo/hi`` (coverage of each method's own
        target, :func:`own_target`) and ``own_mean``.

    Examples
    --------
    >>> rec = run_intervals(n_values=[60], n_repeats=3, random_state=0,
    ...                     settings={"nested_cv": {"n_splits": 3, "n_repeats": 1}})
    >>> row = summarize_intervals(rec)[0]
    >>> row["method"], row["n_repeats"], 0 <= row["cover_conditional"] <= 1
    ('holdout_wald', 3, True)
    """
    keys = ("distribution", "learner", "n", "method")
    cols = check_records(
        records,
        (*keys, "lower", "upper", "risk", "n_fits", "estimate", "risk_se"),
        "run_intervals",
    )
    coverage_alpha = check_alpha(coverage_alpha, "coverage_alpha")
    own = own_target(cols) if "risk_kfold" in cols else None
    groups = sorted(
        {tuple(v[i] for v in (cols[k] for k in keys)) for i in range(len(cols["n"]))},
        key=lambda g: (g[0], g[1], int(g[2]), _METHODS.index(g[3])),
    )
    out = []
    for g in groups:
        sel = np.ones(len(cols["n"]), dtype=bool)
        for k, v in zip(keys, g, strict=True):
            sel &= cols[k] == v
        lo, hi, risk = cols["lower"][sel], cols["upper"][sel], cols["risk"][sel]
        R = int(sel.sum())
        expected = float(risk.mean())
        if own is not None:
            o = own[sel]
            k_own = int(np.sum((lo <= o) & (o <= hi)))
            own_row = {"cover_own": k_own / R, "cover_own_k": k_own}
            own_row["cover_own_lo"], own_row["cover_own_hi"] = _cp(k_own, R, coverage_alpha)
            own_row["own_mean"] = float(o.mean())
        else:
            own_row = {}
        cond = int(np.sum((lo <= risk) & (risk <= hi)))
        expc = int(np.sum((lo <= expected) & (expected <= hi)))
        c_lo, c_hi = _cp(cond, R, coverage_alpha)
        e_lo, e_hi = _cp(expc, R, coverage_alpha)
        out.append(
            {
                "distribution": str(g[0]),
                "learner": str(g[1]),
                "n": int(g[2]),
                "method": str(g[3]),
                "n_repeats": R,
                "cover_conditional": cond / R,
                "cover_conditional_lo": c_lo,
                "cover_conditional_hi": c_hi,
                "cover_expected": expc / R,
                "cover_expected_lo": e_lo,
                "cover_expected_hi": e_hi,
                "below_expected": float(np.mean(hi < expected)),
                "width": float(np.mean(hi - lo)),
                "n_fits": float(np.mean(cols["n_fits"][sel])),
                "expected": expected,
                "expected_se": float(risk.std(ddof=1) / np.sqrt(R)) if R > 1 else float("nan"),
                "estimate_mean": float(np.mean(cols["estimate"][sel])),
                "risk_se_max": float(np.max(cols["risk_se"][sel])),
                "cover_conditional_k": cond,
                **own_row,
            }
        )
    return out


def coverage_hits(
    records: Mapping[str, np.ndarray], method: str, target: str, **where: Any
) -> np.ndarray:
    """Whether each interval of ``method`` covered ``target``, one entry per data set.

    Parameters
    ----------
    records : dict of numpy.ndarray
        As returned by :func:`run_intervals` (or several concatenated).
    method : str
        A key of :data:`cvbook.intervals.INTERVAL_METHODS`.
    target : {"conditional", "expected", "own"}
        ``"own"``: each method's own target (:func:`own_target`).
    **where
        Equality filters on columns, e.g. ``n=250`` or ``distribution="twonorm"``.

    Returns
    -------
    numpy.ndarray of bool
        Ordered by distribution, learner, n and repetition, so that two methods'
        hits on the same filters pair up data set by data set.

    Examples
    --------
    >>> rec = run_intervals(n_values=[60], n_repeats=3, random_state=0,
    ...                     settings={"nested_cv": {"n_splits": 3, "n_repeats": 1}})
    >>> coverage_hits(rec, "cv_wald", "expected").shape
    (3,)
    """
    if target not in ("conditional", "expected", "own"):
        raise ValueError(f"target must be 'conditional', 'expected' or 'own', got {target!r}")
    cols = {k: np.asarray(v) for k, v in records.items()}
    sel = cols["method"] == method
    for key, value in where.items():
        if key not in cols:
            raise ValueError(f"unknown column {key!r}; columns are {sorted(cols)}")
        sel &= cols[key] == value
    if not sel.any():
        raise ValueError(f"no record of method {method!r} with {where}")
    idx = np.flatnonzero(sel)
    order = np.lexsort(
        (cols["repeat"][idx], cols["n"][idx], cols["learner"][idx], cols["distribution"][idx])
    )
    idx = idx[order]
    lo, hi, risk = cols["lower"][idx], cols["upper"][idx], cols["risk"][idx]
    if target == "conditional":
        return (lo <= risk) & (risk <= hi)
    if target == "own":
        own = own_target(cols)[idx]
        return (lo <= own) & (own <= hi)
    # the expected risk of each (distribution, learner, n) group: the mean of its risks
    keys = np.array(
        [
            f"{d}|{lr}|{n}"
            for d, lr, n in zip(
                cols["distribution"][idx], cols["learner"][idx], cols["n"][idx], strict=True
            )
        ]
    )
    expected = np.empty(len(idx))
    for key in np.unique(keys):
        expected[keys == key] = risk[keys == key].mean()
    return (lo <= expected) & (expected <= hi)


def format_interval_table(
    summary: Sequence[Mapping[str, Any]], methods: Sequence[str] | None = None, digits: int = 2
) -> str:
    """A markdown table of :func:`summarize_intervals` rows: coverage of each target, width, fits.

    Rows that carry ``cover_own`` (records with each method's own target) get a column
    for it, before the coverage of ``L(f)`` and of the expected risk. ``methods``, if
    given, keeps the rows of these keys of :data:`cvbook.intervals.INTERVAL_METHODS`
    (an unknown key is refused); ``digits`` (an integer >= 0) is the precision of the
    coverages.

    Examples
    --------
    >>> row = {"distribution": "twonorm", "learner": "lda", "n": 50, "method": "cv_wald",
    ...        "n_repeats": 10, "cover_conditional": 0.9, "cover_conditional_lo": 0.55,
    ...        "cover_conditional_hi": 0.997, "cover_expected": 1.0, "cover_expected_lo": 0.69,
    ...        "cover_expected_hi": 1.0, "width": 0.12, "n_fits": 10.0}
    >>> format_interval_table([row]).splitlines()[2].split(" | ")[4:6]
    ['0.90 [0.55, 1.00]', '1.00 [0.69, 1.00]']
    >>> format_interval_table([{**row, "cover_own": 0.8, "cover_own_lo": 0.44,
    ...                         "cover_own_hi": 0.97}]).splitlines()[2].split(" | ")[4]
    '0.80 [0.44, 0.97]'
    """
    if methods is not None:
        if isinstance(methods, (str, bytes)) or not isinstance(methods, Iterable):
            raise ArgumentTypeError(
                f"methods must be a list of interval names such as ['cv_wald'], got {methods!r}"
            )
        methods = list(methods)
        for method in methods:
            check_option(method, "methods", INTERVAL_METHODS)
    digits = check_int(digits, "digits", minimum=0)
    names = {"lda": "LDA", "logreg": "logistic regression", "svm": "RBF SVM"}
    own = any("cover_own" in r for r in summary)
    head = "| distribution | learner | $m$ | interval | "
    head += "covers its own target [95% CP] | " if own else ""
    lines = [
        head + "covers $L(f)$ [95% CP] | covers expected risk [95% CP] | mean width | fits |",
        "|---|---|---|---|" + ("---|" if own else "") + "---|---|---|---|",
    ]

    def cell(r: Mapping[str, Any], key: str) -> str:
        return f"{r[key]:.{digits}f} [{r[key + '_lo']:.{digits}f}, {r[key + '_hi']:.{digits}f}] | "

    for r in summary:
        if methods is not None and r["method"] not in methods:
            continue
        lines.append(
            f"| {r['distribution']} | {names.get(r['learner'], r['learner'])} | {r['n']} | "
            f"{INTERVAL_METHODS[r['method']]} | "
            + (cell(r, "cover_own") if own else "")
            + cell(r, "cover_conditional")
            + cell(r, "cover_expected")
            + f"{r['width']:.3f} | {r['n_fits']:.0f} |"
        )
    return "\n".join(lines)
