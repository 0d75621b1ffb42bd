"""Do the intervals of chapter 7 cover? The coverage and comparison studies, and their long run.

**Coverage.** On a distribution whose risk is known, draw a data set of ``n``
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

**Comparison.** On twonorm, whose 20 coordinates are exchangeable, LDA on the
first ten coordinates and LDA on the last ten have the same expected risk at
every training size -- a true null by construction. LDA on the first ten
against LDA on the first four is a known difference. Every test of
:mod:`cvbook.compare` runs on each data set; the rejection rate is the
type-I error under the null and the power under the difference -- except McNemar's,
whose null (equal risks of the two fitted models) is false on every data set, so
its rate under the learners' null is a rejection rate, not a size. Each comparison also
records the gap of the learners at the test's own training size.

**Nested CV's bias factor.** :func:`run_nested_learning_curve` measures the learner's
risks at nested CV's inner and outer training sizes and at ``n`` on the same points;
:func:`bias_factor` reads off the factor its bias correction needs.

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
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.svm import SVC

from ..book import format_pm
from ..bounds import clopper_pearson_interval
from ..compare import (
    COMPARISON_METHODS,
    corrected_paired_ttest,
    differences_5x2,
    five_by_two_splits,
    ftest_5x2cv_from_differences,
    mcnemar_holdout,
    ttest_5x2cv_from_differences,
)
from ..datasets.synthetic import Twonorm, linear_rule, make_distribution, true_risk
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
from ..simulation import repeat
from ..validation import (
    ArgumentTypeError,
    check_alpha,
    check_index_array,
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
    "SubsetLDA",
    "bias_factor",
    "comparison_trial",
    "coverage_hits",
    "format_comparison_table",
    "format_interval_table",
    "interval_trial",
    "make_learner",
    "nested_learning_curve_trial",
    "own_target",
    "rejections",
    "run_comparisons",
    "run_intervals",
    "run_nested_learning_curve",
    "summarize_comparisons",
    "summarize_intervals",
]


#: Learners, by name.
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


def _check_n_values(n_values: Any) -> list[int]:
    """The sizes ``n``: a non-empty sequence of integers, each at least 20."""
    if isinstance(n_values, (str, bytes)) or not isinstance(n_values, Iterable):
        raise ArgumentTypeError(
            f"n_values must be a sequence of sizes n (integers >= 20), got {n_values!r}"
        )
    out = [check_int(v, "n_values", minimum=20) for v in n_values]
    if not out:
        raise ValueError("n_values must hold at least one size n, got none")
    return out


def _check_records(records: Any, columns: Sequence[str], producer: str) -> dict[str, np.ndarray]:
    """The columns of ``records`` as arrays; a missing one is refused by name."""
    check_keys(records, "records", columns, f"a dict of columns ({producer}'s result)")
    return {k: np.asarray(v) for k, v in records.items()}


def _make_learner(name: Any, argument: str):
    """The learner called ``name``; an error names ``argument`` as the caller spells it."""
    if isinstance(name, str):
        if name == "lda":
            return LinearDiscriminantAnalysis()
        if name == "logreg":
            return LogisticRegression(C=1.0, max_iter=1000)
        if name == "svm":
            return SVC(kernel="rbf", C=1.0, gamma="scale")
    raise ValueError(f"{argument} must be one of {list(INTERVAL_LEARNERS)}, got {name!r}")


def make_learner(name: str):
    """The learner called ``name``: LDA, logistic regression (C = 1) or an RBF SVM (C = 1).

    Examples
    --------
    >>> make_learner("svm")
    SVC()
    """
    return _make_learner(name, "name")


class SubsetLDA(ClassifierMixin, BaseEstimator):
    """LDA on some coordinates only; a linear rule on all of them (zero weight elsewhere).

    Parameters
    ----------
    columns : tuple of int
        The coordinates the model sees: distinct column indices of ``X``, at least one
        (checked by ``fit``, as scikit-learn's conventions ask).

    Examples
    --------
    >>> X, y = Twonorm().sample(200, random_state=0)
    >>> model = SubsetLDA(columns=(0, 1)).fit(X, y)
    >>> model.coef_.shape, int(np.count_nonzero(model.coef_))
    ((1, 20), 2)
    """

    def __init__(self, columns: tuple = (0,)):
        self.columns = columns

    def fit(self, X, y):
        X = np.asarray(X)
        cols = check_index_array(self.columns, "columns").tolist()
        n_features = X.shape[1] if X.ndim == 2 else None
        if n_features is not None and max(cols) >= n_features:
            raise ValueError(
                f"columns holds {max(cols)}, but X has {n_features} columns "
                f"(indices 0 to {n_features - 1})"
            )
        self.lda_ = LinearDiscriminantAnalysis().fit(X[:, cols], y)
        self.classes_ = self.lda_.classes_
        coef = np.zeros((1, X.shape[1]))
        coef[0, cols] = self.lda_.coef_.ravel()
        self.coef_ = coef
        self.intercept_ = self.lda_.intercept_
        return self

    def predict(self, X):
        return self.lda_.predict(np.asarray(X)[:, list(self.columns)])


#: The fewest fresh points that score a model: a smaller fresh sample may miss a class.
_MIN_FRESH = 100


def _risk_function(distribution, rng: np.random.Generator, n_fresh: int):
    """``risk(model) -> (risk, standard error)``: exact for a linear rule, else a fresh sample."""
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
        Names (:data:`DISTRIBUTIONS`, :data:`INTERVAL_LEARNERS`).
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
    est = _make_learner(learner, "learner")
    n_values = _check_n_values(n_values)
    cfg = _check_settings(settings)
    n_fresh = check_int(n_fresh, "n_fresh", minimum=_MIN_FRESH)
    risk = _risk_function(dist, rng, n_fresh)
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
    _make_learner(learner, "learner")
    n_values = _check_n_values(n_values)
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
    cols = _check_records(
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


def format_comparison_table(summary: Sequence[Mapping[str, Any]], digits: int = 3) -> str:
    """A markdown table of :func:`summarize_comparisons` rows: rejection rate with its CP interval.

    Examples
    --------
    >>> row = {"case": "null", "n": 100, "test": "mcnemar", "n_repeats": 100, "reject": 0.05,
    ...        "reject_lo": 0.016, "reject_hi": 0.113, "gap": 0.0, "gap_se": 0.001, "n_fits": 2}
    >>> format_comparison_table([row]).splitlines()[2].split(" | ")[3]
    '0.050 [0.016, 0.113]'
    """
    digits = check_int(digits, "digits", minimum=0)
    cases = {"null": "equal expected risks", "difference": "a known difference"}
    train = any("gap_train" in r for r in summary)
    lines = [
        "| case | $m$ | test | rejects at 5% [95% CP] | risk A − risk B at $m$ ± SE | "
        + ("training size | risk A − risk B at it ± SE | " if train else "")
        + "fits |",
        "|---|---|---|---|---|" + ("---|---|" if train else "") + "---|",
    ]
    for r in summary:
        extra = (
            f" | {r['n_train']} | {format_pm(r['gap_train'], r['gap_train_se'], digits=digits)}"
            if train
            else ""
        )
        lines.append(
            f"| {cases[r['case']]} | {r['n']} | {COMPARISON_METHODS[r['test']]} | "
            f"{r['reject']:.{digits}f} [{r['reject_lo']:.{digits}f}, {r['reject_hi']:.{digits}f}]"
            f" | {format_pm(r['gap'], r['gap_se'], digits=digits)}{extra} | {r['n_fits']:.0f} |"
        )
    return "\n".join(lines)


def rejections(
    records: Mapping[str, np.ndarray], test: str, alpha: float = 0.05, **where: Any
) -> np.ndarray:
    """Whether ``test`` rejected at level ``alpha``, one entry per data set (paired order).

    ``alpha`` is a level strictly between 0 and 1 (``alpha=5`` is refused, not read as
    5 %).

    Examples
    --------
    >>> rejections(run_comparisons("null", [60], n_repeats=3), "mcnemar").shape
    (3,)
    """
    cols = _check_records(records, ("case", "repeat", "n", "test", "p_value"), "run_comparisons")
    alpha = check_alpha(alpha, "alpha")
    sel = cols["test"] == test
    for key, value in where.items():
        sel &= cols[key] == value
    if not sel.any():
        raise ValueError(f"no record of test {test!r} with {where}")
    idx = np.flatnonzero(sel)
    idx = idx[np.lexsort((cols["repeat"][idx], cols["n"][idx], cols["case"][idx]))]
    return cols["p_value"][idx] < alpha


# --------------------------------------------------------------------------- #
# Comparing two learners

#: The two cases of the comparison study: column sets of learner A and learner B on twonorm.
CASES: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "null": (tuple(range(10)), tuple(range(10, 20))),
    "difference": (tuple(range(10)), tuple(range(4))),
}

_TESTS = list(COMPARISON_METHODS)


def comparison_trial(
    rng: np.random.Generator, n_values: Sequence[int], case: str, mcnemar_test_size: float = 0.3
) -> np.ndarray:
    """One repetition of the comparison study on twonorm: every test at every ``n``.

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness.
    n_values : sequence of int
        Sizes ``n`` of the data sets, each at least 20.
    case : {"null", "difference"}
        The pair of learners (:data:`CASES`).
    mcnemar_test_size : float, default=0.3
        McNemar's test fraction, strictly between 0 and 1.

    Returns
    -------
    numpy.ndarray of shape (len(n_values) * 4, 8)
        Columns ``n, test index, estimated difference, p-value, risk of A
        minus risk of B`` (models fitted on all ``n``; for McNemar the two
        fitted models it compares), ``n_fits``, then ``gap_train``, the risk of A
        minus B of models fitted on ``n_train`` points, the test's own training
        size (``n - n // 2`` for 5x2cv, ``0.9 n`` for the corrected t, McNemar's
        training part), and ``n_train``.

    Examples
    --------
    >>> comparison_trial(np.random.default_rng(0), [60], "null").shape
    (4, 8)
    """
    rng = check_rng(rng, "rng")
    n_values = _check_n_values(n_values)
    check_option(case, "case", CASES)
    mcnemar_test_size = check_test_fraction(mcnemar_test_size, "mcnemar_test_size")
    dist = Twonorm()
    cols_a, cols_b = CASES[case]
    est_a, est_b = SubsetLDA(columns=cols_a), SubsetLDA(columns=cols_b)
    rows = []
    for n in n_values:
        X, y = dist.sample(int(n), random_state=int(rng.integers(0, 2**31 - 1)))
        gap = true_risk(clone(est_a).fit(X, y), dist) - true_risk(clone(est_b).fit(X, y), dist)
        halves = five_by_two_splits(y, random_state=int(rng.integers(0, 2**31 - 1)))
        p = differences_5x2(est_a, est_b, X, y, "zero_one", halves)
        _, p_t = ttest_5x2cv_from_differences(p)
        _, p_f = ftest_5x2cv_from_differences(p)

        # the gap at each test's own training size: models fitted on the first n_train points
        # (i.i.d., so a random training set of that size); McNemar's is its own training part
        def gap_at(n_train: int, X=X, y=y) -> float:
            Xt, yt = X[:n_train], y[:n_train]
            a = true_risk(clone(est_a).fit(Xt, yt), dist)
            return a - true_risk(clone(est_b).fit(Xt, yt), dist)

        n_half = int(n) - int(n) // 2
        gap_half = gap_at(n_half)
        rows.append((n, _TESTS.index("ttest_5x2cv"), p.mean(), p_t, gap, 20, gap_half, n_half))
        rows.append((n, _TESTS.index("ftest_5x2cv"), p.mean(), p_f, gap, 20, gap_half, n_half))
        seed = int(rng.integers(0, 2**31 - 1))
        mc = mcnemar_holdout(est_a, est_b, X, y, test_size=mcnemar_test_size, random_state=seed)
        # the McNemar null is about the two fitted models it compares: record their gap
        n_test = round(mcnemar_test_size * n)
        ((train, _),) = random_splits(y, 1, n_test, "zero_one", check_rng(seed))
        mc_gap = true_risk(clone(est_a).fit(X[train], y[train]), dist) - true_risk(
            clone(est_b).fit(X[train], y[train]), dist
        )
        rows.append(
            (n, _TESTS.index("mcnemar"), mc.difference, mc.p_value, mc_gap, 2, mc_gap, n - n_test)
        )
        ct = corrected_paired_ttest(
            est_a, est_b, X, y, random_state=int(rng.integers(0, 2**31 - 1))
        )
        n_ct = int(n) - round(0.1 * int(n))  # corrected_paired_ttest's default test_size = 0.1
        rows.append(
            (
                n,
                _TESTS.index("corrected_paired_t"),
                ct.difference,
                ct.p_value,
                gap,
                ct.n_fits,
                gap_at(n_ct),
                n_ct,
            )
        )
    return np.array(rows, dtype=float)


def run_comparisons(
    case: str = "null",
    n_values: Sequence[int] = (100,),
    n_repeats: int = 200,
    random_state: int | None = 0,
    n_jobs: int | None = None,
    progress: bool = False,
    checkpoint: str | os.PathLike | None = None,
) -> dict[str, np.ndarray]:
    """Run :func:`comparison_trial` on ``n_repeats`` data sets.

    Examples
    --------
    >>> rec = run_comparisons("difference", [60], n_repeats=2)
    >>> sorted(set(rec["test"].tolist()))
    ['corrected_paired_t', 'ftest_5x2cv', 'mcnemar', 'ttest_5x2cv']
    """
    check_option(case, "case", CASES)
    n_values = _check_n_values(n_values)
    n_repeats = check_int(n_repeats, "n_repeats", minimum=1)
    results = repeat(
        comparison_trial,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        progress=progress,
        desc=f"comparisons ({case})",
        checkpoint=checkpoint,
        n_values=n_values,
        case=case,
    )
    table = np.concatenate(results)
    reps = np.concatenate([np.full(len(r), i) for i, r in enumerate(results)])
    m = len(table)
    return {
        "case": np.full(m, case),
        "repeat": reps.astype(int),
        "n": table[:, 0].astype(int),
        "test": np.array(_TESTS)[table[:, 1].astype(int)],
        "difference": table[:, 2],
        "p_value": table[:, 3],
        "gap": table[:, 4],
        "n_fits": table[:, 5].astype(int),
        "gap_train": table[:, 6],
        "n_train": table[:, 7].astype(int),
    }


def summarize_comparisons(
    records: Mapping[str, np.ndarray], alpha: float = 0.05, coverage_alpha: float = 0.05
) -> list[dict[str, Any]]:
    """Rejection rate of each test at level ``alpha``, with its Clopper--Pearson interval.

    Returns
    -------
    list of dict
        One row per ``(case, n, test)``: ``n_repeats, reject, reject_lo, reject_hi``,
        ``gap`` (mean true risk difference A - B of the models fitted on all n,
        i.e. the expected difference at n) and ``gap_se``, ``n_fits``.

    Examples
    --------
    >>> rows = summarize_comparisons(run_comparisons("null", [60], n_repeats=3))
    >>> [r["test"] for r in rows]
    ['ttest_5x2cv', 'ftest_5x2cv', 'mcnemar', 'corrected_paired_t']
    """
    cols = _check_records(
        records, ("case", "n", "test", "p_value", "gap", "n_fits"), "run_comparisons"
    )
    alpha = check_alpha(alpha, "alpha")
    coverage_alpha = check_alpha(coverage_alpha, "coverage_alpha")
    out = []
    groups = sorted(
        {
            (str(c), int(n), str(t))
            for c, n, t in zip(cols["case"], cols["n"], cols["test"], strict=True)
        },
        key=lambda g: (list(CASES).index(g[0]), g[1], _TESTS.index(g[2])),
    )
    for case, n, test in groups:
        sel = (cols["case"] == case) & (cols["n"] == n) & (cols["test"] == test)
        R = int(sel.sum())
        k = int(np.sum(cols["p_value"][sel] < alpha))
        lo, hi = _cp(k, R, coverage_alpha)
        gap = cols["gap"][sel]
        out.append(
            {
                "case": case,
                "n": n,
                "test": test,
                "n_repeats": R,
                "reject": k / R,
                "reject_lo": lo,
                "reject_hi": hi,
                "gap": float(gap.mean()),
                "gap_se": float(gap.std(ddof=1) / np.sqrt(R)) if R > 1 else float("nan"),
                "n_fits": float(cols["n_fits"][sel].mean()),
                "reject_k": k,
            }
        )
        if "gap_train" in cols:
            g = cols["gap_train"][sel]
            out[-1]["gap_train"] = float(g.mean())
            out[-1]["gap_train_se"] = float(g.std(ddof=1) / np.sqrt(R)) if R > 1 else float("nan")
            out[-1]["n_train"] = int(cols["n_train"][sel][0])
    return out


# --------------------------------------------------------------------------- #
# The learning curve behind nested CV's bias correction


def nested_learning_curve_trial(
    rng: np.random.Generator,
    distribution: str,
    learner: str,
    n_values: Sequence[int],
    n_splits: int = 5,
    n_fresh: int = 50_000,
) -> np.ndarray:
    """One data set per ``n``: risks of models fitted on its first n (K-2)/K, n (K-1)/K, n points.

    Nested CV's inner fits train on ``n (K-2)/K`` points and its outer fits on
    ``n (K-1)/K``; its bias correction extrapolates from the two to ``n``. The
    points are i.i.d., so the first ``s`` of a data set are a training set of size ``s``,
    and the three models share their points (a paired design: the differences are
    precise).

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness.
    distribution, learner : str
        Names (:data:`cvbook.datasets.synthetic.DISTRIBUTIONS`, :data:`INTERVAL_LEARNERS`).
    n_values : sequence of int
        Full sizes ``n``, each at least 20; one data set each.
    n_splits : int, default=5
        Nested CV's ``K``, at least 3.
    n_fresh : int, default=50_000
        Fresh points for a risk that is not exact, >= 100 (so that they hold both classes).

    Returns
    -------
    numpy.ndarray of shape (len(n_values), 4)
        Columns ``n, risk at n (K-2)/K, risk at n (K-1)/K, risk at n``.

    Examples
    --------
    >>> nested_learning_curve_trial(np.random.default_rng(0), "twogaussians", "lda", [50]).shape
    (1, 4)
    """
    rng = check_rng(rng, "rng")
    dist, est = make_distribution(distribution), _make_learner(learner, "learner")
    K = check_int(n_splits, "n_splits", minimum=3)
    n_values = _check_n_values(n_values)
    n_fresh = check_int(n_fresh, "n_fresh", minimum=_MIN_FRESH)
    risk = _risk_function(dist, rng, n_fresh)
    rows = []
    for n in n_values:
        X, y = dist.sample(int(n), random_state=int(rng.integers(0, 2**31 - 1)))
        sizes = (round(n * (K - 2) / K), round(n * (K - 1) / K), int(n))
        rows.append((n, *(risk(clone(est).fit(X[:s], y[:s]))[0] for s in sizes)))
    return np.array(rows, dtype=float)


def run_nested_learning_curve(
    distribution: str = "twogaussians",
    learner: str = "lda",
    n_values: Sequence[int] = (50, 100, 250),
    n_repeats: int = 1000,
    n_splits: int = 5,
    random_state: int | None = 0,
    n_jobs: int | None = None,
    progress: bool = False,
    checkpoint: str | os.PathLike | None = None,
) -> dict[str, np.ndarray]:
    """Run :func:`nested_learning_curve_trial` on ``n_repeats`` data sets.

    Parameters
    ----------
    distribution, learner : str
        As in :func:`nested_learning_curve_trial`.
    n_values : sequence of int, default=(50, 100, 250)
    n_repeats : int, default=1000
        Data sets per size, at least 2.
    n_splits : int, default=5
        Nested CV's ``K``.
    random_state : int or None, default=0
    n_jobs : int or None
        Workers of :func:`cvbook.simulation.repeat`; the records do not depend on it.
    progress : bool, default=False
    checkpoint : path or None
        Folder of :func:`cvbook.simulation.repeat`'s checkpoints (resume).

    Returns
    -------
    dict of numpy.ndarray
        Columns ``repeat, n, risk_inner`` (risk at ``n (K-2)/K``), ``risk_outer`` (at
        ``n (K-1)/K``) and ``risk_full`` (at ``n``).

    Examples
    --------
    >>> rec = run_nested_learning_curve(n_values=[50], n_repeats=3)
    >>> sorted(rec), rec["risk_inner"].shape
    (['n', 'repeat', 'risk_full', 'risk_inner', 'risk_outer'], (3,))
    """
    make_distribution(distribution)
    _make_learner(learner, "learner")
    n_values = _check_n_values(n_values)
    n_repeats = check_int(n_repeats, "n_repeats", minimum=2)
    n_splits = check_int(n_splits, "n_splits", minimum=3)
    results = repeat(
        nested_learning_curve_trial,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        progress=progress,
        desc=f"learning curve {distribution}/{learner}",
        checkpoint=checkpoint,
        distribution=distribution,
        learner=learner,
        n_values=n_values,
        n_splits=n_splits,
    )
    table = np.concatenate(results)
    reps = np.concatenate([np.full(len(r), i) for i, r in enumerate(results)])
    return {
        "repeat": reps.astype(int),
        "n": table[:, 0].astype(int),
        "risk_inner": table[:, 1],
        "risk_outer": table[:, 2],
        "risk_full": table[:, 3],
    }


def bias_factor(records: Mapping[str, np.ndarray], **where: Any) -> dict[str, float]:
    """The factor nested CV's bias correction needs, read off a learning curve, with its SE.

    Nested CV estimates ``Err`` at ``n`` as ``Err_NCV - c (Err_NCV - Err_CV)``, where
    ``Err_NCV`` is the mean risk at ``n (K-2)/K`` and ``Err_CV`` at ``n (K-1)/K``. The
    correction is exact in expectation when ``c = (E L_inner - E L_full) / (E L_inner -
    E L_outer)``; this is the ratio of the two paired means, with a delta-method standard
    error. A learning curve ``a + b / n`` gives ``c = 1 + (K-2)/K`` exactly.

    Parameters
    ----------
    records : dict of numpy.ndarray
        As returned by :func:`run_nested_learning_curve`.
    **where
        Equality filters on columns, e.g. ``n=50``.

    Returns
    -------
    dict
        ``factor`` and its ``se``; ``inner_minus_full`` and ``inner_minus_outer`` (the
        two mean differences) and ``n_repeats`` (records used).

    Examples
    --------
    >>> rec = {"n": np.array([50] * 4), "risk_inner": np.array([0.30, 0.32, 0.31, 0.33]),
    ...        "risk_outer": np.array([0.29, 0.30, 0.30, 0.32]),
    ...        "risk_full": np.array([0.28, 0.30, 0.29, 0.31])}
    >>> round(bias_factor(rec)["factor"], 3)
    1.6
    """
    cols = {k: np.asarray(v) for k, v in records.items()}
    missing = sorted({"n", "risk_inner", "risk_outer", "risk_full"} - set(cols))
    if missing:
        raise ValueError(f"records lack the columns {missing}")
    sel = np.ones(len(cols["n"]), dtype=bool)
    for key, value in where.items():
        if key not in cols:
            raise ValueError(f"unknown column {key!r}; columns are {sorted(cols)}")
        sel &= cols[key] == value
    if sel.sum() < 2:
        raise ValueError(f"need at least 2 records with {where}, got {int(sel.sum())}")
    a = cols["risk_inner"][sel] - cols["risk_full"][sel]
    b = cols["risk_inner"][sel] - cols["risk_outer"][sel]
    factor = float(a.mean() / b.mean())
    grad = np.array([1 / b.mean(), -a.mean() / b.mean() ** 2])
    se = float(np.sqrt(grad @ np.cov(a, b) @ grad / a.size))
    return {
        "factor": factor,
        "se": se,
        "inner_minus_full": float(a.mean()),
        "inner_minus_outer": float(b.mean()),
        "n_repeats": int(a.size),
    }


# --------------------------------------------------------------------------- #
# Records on disk


# --------------------------------------------------------------------------- #
# The long run
