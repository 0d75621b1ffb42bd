"""Is learner A better than B on one data set? Bayle et al.'s test on known truth (chapter 10).

**Size and power** (:func:`one_dataset_trial`, :func:`run_one_dataset`). On twonorm,
whose 20 coordinates are exchangeable, the two pairs of chapter 7
(:data:`PAIRS`): LDA on the first ten coordinates against LDA on the last ten (equal
expected risks at every training size: chapter 7's null), and LDA on the first ten
against LDA on the first seven (a known difference, smaller than chapter 7's). On each data
set of ``n`` points every test runs: Bayle et al.'s test with both variance estimates
(:func:`cvbook.paired_cv.cv_compare_from_losses`, on K = 10 stratified folds), chapter 7's
corrected resampled t (J = 15, 10 % test) and 5x2cv t. Each fold model is a linear rule,
so its risk is exact (:meth:`cvbook.datasets.Twonorm.linear_rule_risk`), and so is
Bayle et al.'s target, the difference of the two K-fold test errors ``Delta_K``.

**A stability failure** (:func:`majority_trial`, :func:`run_majority`). A = the
majority vote (predict the most frequent label of the training part; scikit-learn's
``DummyClassifier()``), B = always predict -1, labels ``+1`` with probability ``p``,
independent of everything. Both fold models' risks are exact (``1 - p`` or ``p``),
hence ``Delta_K``. At ``p = 1/2`` the majority of a training part is a near tie that one
point can flip -- the loss-stability condition of Bayle et al. fails -- and, with plain
shuffled folds, the fold's own composition decides it. Stratified folds
(``stratified=True``) fix each fold's label composition to the sample's and cut that
link: the switch-off of chapter 10.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np
from scipy.stats import norm
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import KFold, StratifiedKFold

from ..bounds import clopper_pearson_interval
from ..compare import (
    corrected_paired_ttest,
    differences_5x2,
    five_by_two_splits,
    ttest_5x2cv_from_differences,
)
from ..datasets.synthetic import Twonorm, true_risk
from ..intervals import cv_wald_sigma, kfold_splits
from ..paired_cv import VARIANCES, cv_compare_from_losses
from ..risk import zero_one_losses
from ..simulation import columns, repeat
from ..stats import mean_se
from ..validation import check_alpha, check_float, check_int, check_option, check_rng

__all__ = [
    "ONE_DATASET_TESTS",
    "PAIRS",
    "FastLDA",
    "majority_trial",
    "one_dataset_trial",
    "run_majority",
    "run_one_dataset",
    "summarize_majority",
    "summarize_one_dataset",
]

#: The tests of the size-and-power table, by column name, with a label.
ONE_DATASET_TESTS: dict[str, str] = {
    "bayle_all_pairs": "Bayle et al., all pairs (sigma_out)",
    "bayle_within_fold": "Bayle et al., within folds (sigma_in)",
    "corrected_t": "corrected resampled t (Nadeau–Bengio)",
    "ttest_5x2cv": "5×2cv paired t (Dietterich)",
}

_ALPHA = 0.05

#: The pairs of learners on twonorm: coordinates seen by A and by B. ``"null"`` is
#: chapter 7's null (equal expected risks by symmetry); ``"difference"`` gives A three
#: informative coordinates more than B (10 against 7).
PAIRS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "null": (tuple(range(10)), tuple(range(10, 20))),
    "difference": (tuple(range(10)), tuple(range(7))),
}


class FastLDA(ClassifierMixin, BaseEstimator):
    """Linear discriminant on some coordinates, in closed form (labels -1/+1).

    ``w = S^{-1} (mu_+ - mu_-)`` with ``S`` the pooled within-class covariance (divided
    by ``n - 2``), ``b = -w (mu_+ + mu_-) / 2 + log(n_+ / n_-)``; zero weight on the
    coordinates it does not see. The same rule as scikit-learn's
    ``LinearDiscriminantAnalysis`` up to the scale of ``S`` in the prior term, at a
    tenth of its cost (the studies fit it tens of thousands of times). A linear rule,
    so its risk on twonorm is exact.

    Parameters
    ----------
    columns : tuple of int
        The coordinates it sees.

    Examples
    --------
    >>> X, y = Twonorm().sample(200, random_state=0)
    >>> m = FastLDA(columns=(0, 1)).fit(X, y)
    >>> m.coef_.shape, int(np.count_nonzero(m.coef_)), m.score(X, y) > 0.6
    ((1, 20), 2, True)
    """

    def __init__(self, columns: tuple = (0,)):
        self.columns = columns

    def fit(self, X, y):
        X, y = np.asarray(X, dtype=float), np.asarray(y)
        cols = list(self.columns)
        if X.ndim != 2 or max(cols) >= X.shape[1]:
            raise ValueError(f"X must be 2-d with more than {max(cols)} columns")
        self.classes_ = np.unique(y)
        if self.classes_.tolist() != [-1, 1]:
            raise ValueError(f"y must hold both labels -1 and +1, got {self.classes_.tolist()}")
        Z = X[:, cols]
        pos, neg = Z[y == 1], Z[y == -1]
        mu_p, mu_n = pos.mean(axis=0), neg.mean(axis=0)
        resid = np.vstack([pos - mu_p, neg - mu_n])
        cov = resid.T @ resid / max(len(y) - 2, 1)
        w = np.linalg.solve(cov, mu_p - mu_n)
        self.coef_ = np.zeros((1, X.shape[1]))
        self.coef_[0, cols] = w
        self.intercept_ = np.array([-w @ (mu_p + mu_n) / 2 + np.log(len(pos) / len(neg))])
        return self

    def predict(self, X):
        scores = np.asarray(X, dtype=float) @ self.coef_[0] + self.intercept_[0]
        return np.where(scores > 0, 1, -1)


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**31 - 1))


def one_dataset_trial(
    rng: np.random.Generator, case: str, n: int = 200, n_splits: int = 10
) -> dict[str, float]:
    """One data set of twonorm: every test of :data:`ONE_DATASET_TESTS` and their targets.

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness.
    case : {"null", "difference"}
        The pair of learners (:data:`PAIRS`).
    n : int, default=200
        Size of the data set, at least 40.
    n_splits : int, default=10
        K of Bayle et al.'s test, in ``[2, n / 4]``.

    Returns
    -------
    dict
        ``p_<test>`` for each test (two-sided p-values); ``delta_k``, the difference of
        the two K-fold test errors (exact); ``est`` and ``se_<variance>``, Bayle et al.'s
        estimate and standard errors; ``cover_<variance>``, whether its 95 % interval
        covers ``delta_k``; ``gap_n``, the exact risk of A minus B fitted on all n.

    Examples
    --------
    >>> r = one_dataset_trial(np.random.default_rng(0), "null", n=60)
    >>> sorted(k for k in r if k.startswith("p_"))
    ['p_bayle_all_pairs', 'p_bayle_within_fold', 'p_corrected_t', 'p_ttest_5x2cv']
    """
    rng = check_rng(rng, "rng")
    check_option(case, "case", PAIRS)
    n = check_int(n, "n", minimum=40)
    n_splits = check_int(n_splits, "n_splits", minimum=2, maximum=n // 4)
    dist = Twonorm()
    est_a, est_b = (FastLDA(columns=cols) for cols in PAIRS[case])
    X, y = dist.sample(n, random_state=_seed(rng))
    losses: dict[str, list[np.ndarray]] = {"a": [], "b": []}
    delta = 0.0
    for train, test in kfold_splits(y, n_splits, "zero_one", rng):
        risks = []
        for key, est in (("a", est_a), ("b", est_b)):
            model = clone(est).fit(X[train], y[train])
            losses[key].append((model.predict(X[test]) != y[test]).astype(float))
            risks.append(true_risk(model, dist))
        delta += (risks[0] - risks[1]) / n_splits
    out: dict[str, float] = {"delta_k": delta}
    for variance in VARIANCES:
        r = cv_compare_from_losses(losses["a"], losses["b"], variance=variance, alpha=_ALPHA)
        out[f"p_bayle_{variance}"] = r.p_value
        out[f"se_{variance}"] = r.se
        out[f"cover_{variance}"] = float(r.covers(delta))
        out["est"] = r.difference
    out["p_corrected_t"] = corrected_paired_ttest(
        est_a, est_b, X, y, random_state=_seed(rng)
    ).p_value
    halves = five_by_two_splits(y, random_state=_seed(rng))
    out["p_ttest_5x2cv"] = ttest_5x2cv_from_differences(
        differences_5x2(est_a, est_b, X, y, "zero_one", halves)
    )[1]
    out["gap_n"] = true_risk(clone(est_a).fit(X, y), dist) - true_risk(clone(est_b).fit(X, y), dist)
    return out


def run_one_dataset(
    case: str,
    n: int = 200,
    n_repeats: int = 200,
    n_splits: int = 10,
    random_state: Any = 0,
    n_jobs: int | None = None,
    progress: bool = False,
) -> dict[str, np.ndarray]:
    """:func:`one_dataset_trial` on ``n_repeats`` independent data sets.

    Returns
    -------
    dict of numpy.ndarray
        One array per key of the trial, one entry per data set.

    Examples
    --------
    >>> rec = run_one_dataset("difference", n=60, n_repeats=2)
    >>> rec["delta_k"].shape
    (2,)
    """
    check_option(case, "case", PAIRS)
    n_repeats = check_int(n_repeats, "n_repeats", minimum=2)
    rows = repeat(
        one_dataset_trial,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        progress=progress,
        desc=f"one data set ({case})",
        case=case,
        n=n,
        n_splits=n_splits,
    )
    return columns(rows, dtype=float)


def _rate(hits: np.ndarray) -> dict[str, float]:
    k, m = int(np.sum(hits)), int(hits.size)
    if m == 0:  # no data set in the subset (a tiny run): no rate, the whole [0, 1] interval
        return {"rate": float("nan"), "lo": 0.0, "hi": 1.0, "k": 0, "n": 0}
    lo, hi = clopper_pearson_interval(k, m, 0.05)
    return {"rate": k / m, "lo": float(lo), "hi": float(hi), "k": k, "n": m}


def summarize_one_dataset(
    records: Mapping[str, np.ndarray], alpha: float = 0.05
) -> dict[str, dict[str, Any]]:
    """Rejection rate of each test at ``alpha`` (Clopper–Pearson 95 %), and Bayle's coverage.

    Returns
    -------
    dict
        ``reject[test]`` and, for Bayle et al.'s two variances, ``miss[variance]``, the
        rate at which the 95 % interval misses its own target ``Delta_K``; each a dict
        ``rate, lo, hi, k, n``.

    Examples
    --------
    >>> s = summarize_one_dataset(run_one_dataset("null", n=60, n_repeats=3))
    >>> sorted(s["reject"]) == sorted(ONE_DATASET_TESTS), sorted(s["miss"])
    (True, ['all_pairs', 'within_fold'])
    """
    alpha = check_alpha(alpha)
    for key in [f"p_{t}" for t in ONE_DATASET_TESTS] + [f"cover_{v}" for v in VARIANCES]:
        if key not in records:
            raise ValueError(f"records must come from run_one_dataset; {key!r} is missing")
    return {
        "reject": {t: _rate(records[f"p_{t}"] < alpha) for t in ONE_DATASET_TESTS},
        "miss": {v: _rate(records[f"cover_{v}"] == 0) for v in VARIANCES},
    }


# --------------------------------------------------------------------------- #
# The stability failure: the majority vote near a tie


def majority_trial(
    rng: np.random.Generator,
    n: int = 100,
    p: float = 0.5,
    n_splits: int = 10,
    stratified: bool = False,
) -> dict[str, float]:
    """One data set of pure-noise labels: the majority vote (A) against "always -1" (B).

    The folds are plain shuffled K-fold by default; ``stratified=True`` uses stratified
    folds (``StratifiedKFold``), which fix each fold's label composition to the
    sample's, so that a fold's own labels no longer decide its training part's
    majority (the switch-off of chapter 10). The fold models' risks are exact:
    a model predicting ``+1`` has risk ``1 - p``, one predicting ``-1`` has risk ``p``.

    Parameters
    ----------
    rng : numpy.random.Generator
    n : int, default=100
        Points, at least ``2 * n_splits``.
    p : float in (0, 1), default=0.5
        Probability of the label ``+1``.
    n_splits : int, default=10
    stratified : bool, default=False
        Stratified folds instead of plain shuffled ones.

    Returns
    -------
    dict
        ``delta_k`` (exact), ``est``, ``cover_<variance>`` (Bayle et al.'s 95 % interval
        covers ``delta_k``), ``err_a`` (A's K-fold test error, exact), ``cv_a`` (A's CV
        estimate), ``cover_a`` (chapter 7's ``cv_wald_interval``, within folds,
        covers ``err_a``), ``disagree`` (1 if the fold models do not all predict
        the same label), ``informative`` (1 if the paired differences ``d_i`` are not
        all 0; 0 when every fold model of A predicts ``-1``, so that A and B are the same
        function, the interval is the point ``{0}`` and ``delta_k`` is 0: it covers by
        construction) and ``label_z``, the labels' own z: their mean over its standard
        error, ``mean(y) / (std(y) / sqrt(n))`` (``std`` with ``ddof=0``, as Bayle et
        al.'s all-pairs variance; +-inf when every label is the same). Where every fold
        model predicts ``+1``, ``d_i = -y_i`` and the all-pairs interval is the z
        interval for the mean of ``-y``: it misses ``delta_k = 0`` exactly when
        ``|label_z|`` exceeds the normal quantile.

    Examples
    --------
    >>> r = majority_trial(np.random.default_rng(0), n=40)
    >>> r["delta_k"] in (-0.0, 0.0)          # at p = 1/2 both risks are exactly 1/2
    True
    >>> bool(np.isfinite(r["label_z"]))
    True
    """
    rng = check_rng(rng, "rng")
    n_splits = check_int(n_splits, "n_splits", minimum=2)
    n = check_int(n, "n", minimum=2 * n_splits)
    p = check_float(p, "p", minimum=0.0, maximum=1.0, exclusive=True)
    if not isinstance(stratified, (bool, np.bool_)):
        raise TypeError(f"stratified must be True or False, got {stratified!r}")
    y = np.where(rng.random(n) < p, 1, -1)
    X = np.zeros((n, 1))
    if stratified:
        splitter = StratifiedKFold(n_splits, shuffle=True, random_state=_seed(rng))
    else:
        splitter = KFold(n_splits, shuffle=True, random_state=_seed(rng))
    with warnings.catch_warnings():  # a label rarer than n_splits: stratified as far as it goes
        warnings.simplefilter("ignore", UserWarning)
        folds = list(splitter.split(X, y))
    loss_fn = zero_one_losses
    la, lb, risk_a, labels = [], [], [], []
    for train, test in folds:
        # DummyClassifier(strategy="most_frequent")'s rule, without its fitting cost:
        # +1 when +1 is the strict majority of the training part, else -1 (a tie goes to
        # the smaller label); tests/test_studies_which_is_better.py checks it is the same
        label = 1 if 2 * int(np.sum(y[train] == 1)) > len(train) else -1
        la.append(loss_fn(y[test], np.full(len(test), label)))
        lb.append(loss_fn(y[test], np.full(len(test), -1)))
        risk_a.append(1 - p if label == 1 else p)
        labels.append(label)
    err_a = float(np.mean(risk_a))
    out: dict[str, float] = {"delta_k": err_a - p, "err_a": err_a}
    out["disagree"] = float(len(set(labels)) > 1)
    out["informative"] = float(any(np.any(a != b) for a, b in zip(la, lb, strict=True)))
    y_bar, y_sd = float(np.mean(y)), float(np.std(y))
    out["label_z"] = y_bar / (y_sd / np.sqrt(n)) if y_sd > 0 else float(np.sign(y_bar) * np.inf)
    for variance in VARIANCES:
        r = cv_compare_from_losses(la, lb, variance=variance)
        out[f"cover_{variance}"] = float(r.covers(out["delta_k"]))
        out["est"] = r.difference
    # chapter 7's naive K-fold Wald interval for A alone, on the same folds
    cv_a = float(np.concatenate(la).mean())
    half = float(norm.isf(0.025)) * cv_wald_sigma(la, "within_fold") / np.sqrt(n)
    out["cv_a"] = cv_a
    out["cover_a"] = float(abs(cv_a - err_a) <= half)
    return out


def run_majority(
    n: int = 100,
    p: float = 0.5,
    n_repeats: int = 500,
    n_splits: int = 10,
    random_state: Any = 0,
    n_jobs: int | None = None,
    stratified: bool = False,
) -> dict[str, np.ndarray]:
    """:func:`majority_trial` on ``n_repeats`` independent data sets.

    Examples
    --------
    >>> run_majority(n=40, n_repeats=3)["cover_a"].shape
    (3,)
    """
    n_repeats = check_int(n_repeats, "n_repeats", minimum=2)
    rows = repeat(
        majority_trial,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        n=n,
        p=p,
        n_splits=n_splits,
        stratified=stratified,
    )
    return columns(rows, dtype=float)


def summarize_majority(records: Mapping[str, np.ndarray]) -> dict[str, Any]:
    """Miss rates of the 95 % intervals against their own targets, and the CV estimate's bias.

    Returns
    -------
    dict
        ``miss_<variance>`` (Bayle et al.'s test, target ``Delta_K``), ``miss_a``
        (chapter 7's interval, target A's K-fold test error), each a dict
        ``rate, lo, hi, k, n``; ``bias_a``, the mean of ``cv_a - err_a`` with its
        standard error (:func:`cvbook.stats.mean_se`). When the records hold
        ``informative`` (they do from :func:`run_majority`): ``point_interval``, the
        share of data sets where A and B are the same function (every ``d_i`` is 0,
        the interval is the point ``{0}`` = ``Delta_K``, covered by construction), and
        ``miss_<variance>_informative``, the miss rates among the other data sets
        (``n = 0``, rate ``nan``, when there are none). When they also hold ``disagree``
        (they do from :func:`run_majority`), those informative data sets are split in
        two: ``miss_<variance>_disagree``, where the fold models do not all predict the
        same label, and ``miss_<variance>_all_plus``, where every fold model predicts
        ``+1`` (then ``d_i = -y_i``: A and B differ on every point).

    Examples
    --------
    >>> s = summarize_majority(run_majority(n=40, n_repeats=5))
    >>> sorted(s)  # doctest: +NORMALIZE_WHITESPACE
    ['bias_a', 'miss_a', 'miss_all_pairs', 'miss_all_pairs_all_plus', 'miss_all_pairs_disagree',
     'miss_all_pairs_informative', 'miss_within_fold', 'miss_within_fold_all_plus',
     'miss_within_fold_disagree', 'miss_within_fold_informative', 'point_interval']
    """
    for key in ("cover_a", "cv_a", "err_a", *(f"cover_{v}" for v in VARIANCES)):
        if key not in records:
            raise ValueError(f"records must come from run_majority; {key!r} is missing")
    out: dict[str, Any] = {f"miss_{v}": _rate(records[f"cover_{v}"] == 0) for v in VARIANCES}
    out["miss_a"] = _rate(records["cover_a"] == 0)
    out["bias_a"] = mean_se(records["cv_a"] - records["err_a"], "cv_a - err_a")
    if "informative" in records:
        informative = np.asarray(records["informative"]) == 1
        out["point_interval"] = _rate(~informative)
        for v in VARIANCES:
            out[f"miss_{v}_informative"] = _rate(records[f"cover_{v}"][informative] == 0)
        if "disagree" in records:  # the informative ones: fold models disagree, or all say +1
            disagree = np.asarray(records["disagree"]) == 1
            for v in VARIANCES:
                miss = records[f"cover_{v}"] == 0
                out[f"miss_{v}_disagree"] = _rate(miss[informative & disagree])
                out[f"miss_{v}_all_plus"] = _rate(miss[informative & ~disagree])
    return out
