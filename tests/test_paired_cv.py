"""Bayle et al.'s paired test (cvbook.paired_cv) against independent oracles.

The oracles are written here from the formulas, not from the package:

* the authors' (github.com/alexandre-bayle/cvci, ``cv_num_exper.py``, ``aggr_ours``):
  with K folds of equal size, ``sigma_in**2 = n / (n - K) * (mean(e**2) - mean(m_k**2))``
  (``m_k`` the fold means) and ``sigma_out**2 = mean(e**2) - mean(e)**2``, applied to the
  per-point differences ``e = loss_A - loss_B``; their test of "A better than B" rejects
  when the one-sided upper bound ``mean(e) + z_{1-alpha} sigma / sqrt(n)`` is below 0;
* mlr3inferr's ``ci.wald_cv`` (``R/MeasureCiWaldCV.R``): "all-pairs" is
  ``mean((loss - estimate)**2)`` (divided by n), "within-fold" the mean over the folds of
  R's ``var`` (divided by the fold size minus one), ``se = sqrt(var / n)``,
  ``estimate ± qnorm(1 - alpha/2) se``. R is not installed here: the comparison is with
  that formula, transcribed, not with a run of the package.
"""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.dummy import DummyClassifier

from cvbook.datasets import Twonorm
from cvbook.intervals import cv_wald_interval, cv_wald_sigma
from cvbook.paired_cv import CVComparison, cv_compare, cv_compare_from_losses


def _folds(rng, n_folds, size, kind="zero_one"):
    if kind == "zero_one":
        return [rng.integers(0, 2, size).astype(float) for _ in range(n_folds)]
    return [rng.exponential(size=size) for _ in range(n_folds)]


def _authors_sigma(e, n_folds, version):
    """The authors' aggr_ours, re-derived (equal folds, in order)."""
    n = e.size
    r = n // n_folds
    fold_means = np.array([e[i * r : (i + 1) * r].mean() for i in range(n_folds)])
    if version == "in":
        return math.sqrt(n / (n - n_folds) * (np.mean(e**2) - np.mean(fold_means**2)))
    return math.sqrt(np.mean(e**2) - e.mean() ** 2)


@pytest.mark.parametrize("kind", ["zero_one", "squared"])
@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_the_authors_formulas(kind, seed):
    rng = np.random.default_rng(seed)
    K, size = 10, 20
    la, lb = _folds(rng, K, size, kind), _folds(rng, K, size, kind)
    e = np.concatenate(la) - np.concatenate(lb)
    n = e.size
    for variance, version in (("within_fold", "in"), ("all_pairs", "out")):
        sigma = _authors_sigma(e, K, version)
        r = cv_compare_from_losses(la, lb, variance=variance, alternative="less")
        assert r.se == pytest.approx(sigma / math.sqrt(n), rel=1e-12)
        upper = e.mean() + abs(stats.norm.ppf(0.05)) * sigma / math.sqrt(n)
        assert r.upper == pytest.approx(upper, rel=1e-12)
        assert r.rejects(0.05) == (upper < 0)  # the authors' decision: bound below 0


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_mlr3inferr_wald_cv_formula(seed):
    rng = np.random.default_rng(seed)
    sizes = [7, 8, 8, 9, 7]  # unequal folds, as a shuffled CV of 39 points gives
    losses = [rng.integers(0, 2, s).astype(float) for s in sizes]
    allv = np.concatenate(losses)
    n = allv.size
    q = stats.norm.ppf(1 - 0.05 / 2)
    ap = np.mean((allv - allv.mean()) ** 2)
    wf = np.mean([np.var(v, ddof=1) for v in losses])
    for variance, var_est in (("all_pairs", ap), ("within_fold", wf)):
        assert cv_wald_sigma(losses, variance) ** 2 == pytest.approx(var_est, rel=1e-12)
        # the paired test is the same interval on the differences (here B scores 0)
        zeros = [np.zeros(s) for s in sizes]
        r = cv_compare_from_losses(losses, zeros, variance=variance)
        se = math.sqrt(var_est / n)
        assert (r.lower, r.upper) == pytest.approx(
            (allv.mean() - q * se, allv.mean() + q * se), rel=1e-12
        )


def test_paired_test_uses_chapter_7s_folds():
    X, y = Twonorm().sample(120, random_state=1)
    a, b = LinearDiscriminantAnalysis(), DummyClassifier()
    r = cv_compare(a, b, X, y, n_splits=5, random_state=7)
    ia = cv_wald_interval(a, X, y, n_splits=5, random_state=7)
    ib = cv_wald_interval(b, X, y, n_splits=5, random_state=7)
    assert r.difference == pytest.approx(ia.estimate - ib.estimate, abs=1e-12)
    assert r.n_fits == 10 and r.n == 120 and r.n_splits == 5


def test_p_values_and_alternatives():
    rng = np.random.default_rng(3)
    la, lb = _folds(rng, 5, 30), _folds(rng, 5, 30)
    two = cv_compare_from_losses(la, lb)
    less = cv_compare_from_losses(la, lb, alternative="less")
    greater = cv_compare_from_losses(la, lb, alternative="greater")
    assert two.p_value == pytest.approx(2 * min(less.p_value, greater.p_value))
    assert less.p_value + greater.p_value == pytest.approx(1.0)
    assert math.isinf(less.lower) and math.isinf(greater.upper)
    # a difference that never varies: z is infinite, p is 0
    r = cv_compare_from_losses([np.ones(3), np.ones(3)], [np.zeros(3), np.zeros(3)])
    assert math.isinf(r.statistic) and r.p_value == 0.0 and r.se == 0.0
    same = cv_compare_from_losses([np.ones(3), np.zeros(3)], [np.ones(3), np.zeros(3)])
    assert same.statistic == 0.0 and same.p_value == 1.0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"variance": "pairs"}, "variance"),
        ({"alternative": "smaller"}, "alternative"),
        ({"alpha": 1.5}, "alpha"),
    ],
)
def test_bad_options_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        cv_compare_from_losses([np.ones(3), np.zeros(3)], [np.ones(3), np.zeros(3)], **kwargs)


def test_bad_losses_are_named():
    with pytest.raises(ValueError, match="losses_a"):
        cv_compare_from_losses(np.ones(4), [np.ones(2), np.ones(2)])
    with pytest.raises(ValueError, match="same folds"):
        cv_compare_from_losses([np.ones(2)] * 3, [np.ones(2)] * 2)
    with pytest.raises(ValueError, match=r"losses_a\[1\] and losses_b\[1\]"):
        cv_compare_from_losses([np.ones(2), np.ones(3)], [np.ones(2), np.ones(2)])
    with pytest.raises(ValueError, match=r"losses_b\[0\]"):
        cv_compare_from_losses([np.ones(2)] * 2, [np.array([1.0, np.nan]), np.ones(2)])
    with pytest.raises(ValueError, match="2 points per fold"):
        cv_compare_from_losses([np.ones(1)] * 2, [np.ones(1)] * 2, variance="within_fold")


def test_public_door_checks_before_fitting():
    X, y = Twonorm().sample(40, random_state=0)
    with pytest.raises(ValueError, match="n_splits"):
        cv_compare(DummyClassifier(), DummyClassifier(), X, y, n_splits=30, variance="within_fold")
    with pytest.raises(ValueError, match="loss"):
        cv_compare(DummyClassifier(), DummyClassifier(), X, y, loss="hinge")
    with pytest.raises((TypeError, ValueError), match="estimator_b"):
        cv_compare(DummyClassifier(), "lda", X, y)


def test_result_record_refuses_impossible_fields():
    with pytest.raises(ValueError, match="lower"):
        CVComparison(0.0, 0.1, 0.0, 1.0, 0.2, 0.1, "all_pairs", "two-sided", 0.05, 10, 2, 0)
    with pytest.raises(ValueError, match="p_value"):
        CVComparison(0.0, 0.1, 0.0, 1.5, -0.1, 0.1, "all_pairs", "two-sided", 0.05, 10, 2, 0)
