"""cvbook.studies.split_sizes: the chapter's experiments."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.tree import DecisionTreeClassifier

from cvbook.datasets import TwoGaussians
from cvbook.studies.split_sizes import (
    argmin_summary,
    binomial_range,
    coverage_table,
    sample_test_errors,
    single_split,
    split_sizes_trial,
)


class Sign:
    def predict(self, X):
        return np.where(X[:, 0] > 0, 1, -1)


def test_sample_test_errors_are_binomial_with_the_true_risk():
    dist = TwoGaussians()
    risk = dist.linear_rule_risk([1.0, 0.0])
    counts = sample_test_errors(Sign(), dist, 100, 4000, random_state=0)
    assert abs(counts.mean() / 100 - risk) < 4 * np.sqrt(risk * (1 - risk) / 400_000)
    assert counts.std() == pytest.approx(np.sqrt(100 * risk * (1 - risk)), rel=0.05)
    again = sample_test_errors(Sign(), dist, 100, 4000, random_state=0)
    np.testing.assert_array_equal(counts, again)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(test_size=0), ValueError, "test_size must be >= 1"),
        (dict(test_size=2.5), TypeError, "test_size must be an integer"),
        (dict(n_test_sets="3"), TypeError, "n_test_sets must be an integer"),
        (dict(model=object()), TypeError, "model must be a fitted classifier"),
        (dict(distribution="gauss"), TypeError, "distribution must have a sample"),
        (dict(random_state=-1), ValueError, "random_state must be >= 0"),
        (dict(random_state=1.5), TypeError, "random_state must be"),
    ],
)
def test_sample_test_errors_refuses_by_name(kwargs, exc, match):
    args = dict(model=Sign(), distribution=TwoGaussians(), test_size=10, n_test_sets=3)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        sample_test_errors(**args)


def test_sample_test_errors_refuses_a_column_of_predictions():
    class Column:
        def predict(self, X):
            return np.ones((len(X), 2))

    with pytest.raises(ValueError, match=r"model.predict\(X\) must be one-dimensional"):
        sample_test_errors(Column(), TwoGaussians(), 10, 2, random_state=0)


def test_split_sizes_trial_is_paired_and_reproducible():
    dist = TwoGaussians()
    out = split_sizes_trial(3, dist, LinearDiscriminantAnalysis(), 40, [4, 20, 36], delta=0.1)
    assert out["n_train"].tolist() == [4, 20, 36] and out["n_test"].tolist() == [36, 20, 4]
    assert np.all(out["true_risk"] >= dist.bayes_risk)
    assert np.all(out["upper_bound"] >= out["test_error"])
    again = split_sizes_trial(3, dist, LinearDiscriminantAnalysis(), 40, [4, 20, 36], delta=0.1)
    for key in out:
        np.testing.assert_array_equal(out[key], again[key])


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 20261122])
def test_single_split_never_sees_one_class(seed):
    """The issue's crash: 10 training points of one class (seed 20261122 in chapter 1)."""
    rng = np.random.default_rng(seed)
    for _ in range(40):
        out = single_split(rng, TwoGaussians(), LinearDiscriminantAnalysis(), 40, 0.25)
        assert out["n_train"] == 10 and 0 < out["true_risk"] < 1


def test_single_split_uses_the_exact_risk_of_a_linear_model():
    dist = TwoGaussians()
    out = single_split(np.random.default_rng(1), dist, LinearDiscriminantAnalysis(), 60, 0.5)
    assert out["n_train"] == 30 and out["n_test"] == 30
    assert dist.bayes_risk <= out["true_risk"] < 0.5
    assert out["test_error"] <= out["upper_bound"]
    tree = single_split(
        np.random.default_rng(1), dist, DecisionTreeClassifier(random_state=0), 60, 0.5
    )
    assert 0 < tree["true_risk"] < 0.6


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(train_fraction=1.0), ValueError, "train_fraction must lie strictly between 0 and 1"),
        (dict(train_fraction="0.5"), TypeError, "train_fraction must be a real number"),
        (dict(m=3), ValueError, "m must be >= 4"),
        (dict(m=40.0), TypeError, "m must be an integer"),
        (dict(delta=0), ValueError, "delta must lie strictly between 0 and 1"),
        (dict(delta=[0.05, 0.1]), TypeError, "delta must be a real number"),
        (dict(estimator="lda"), ValueError, "estimator must be a scikit-learn estimator"),
        (dict(distribution=None), TypeError, "distribution must have a sample"),
        (dict(rng="x"), TypeError, "rng must be"),
    ],
)
def test_single_split_refuses_by_name(kwargs, exc, match):
    args = dict(
        rng=0,
        distribution=TwoGaussians(),
        estimator=LinearDiscriminantAnalysis(),
        m=40,
        train_fraction=0.5,
    )
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        single_split(**args)


@pytest.mark.parametrize(
    "sizes, match",
    [
        ([], "train_sizes must be a non-empty list"),
        ("10", "train_sizes must be a non-empty"),
        ([1, 10], r"train_sizes must lie in \[2, m - 2\]"),
        ([10, 39], "must lie in"),
        ([10.5], "train_sizes must hold integers"),
        ([[10]], "train_sizes must be a non-empty"),
    ],
)
def test_split_sizes_trial_refuses_bad_sizes(sizes, match):
    with pytest.raises(ValueError, match=match):
        split_sizes_trial(0, TwoGaussians(), LinearDiscriminantAnalysis(), 40, sizes)


# ---- issue 27: the binomial range, the coverage table, the paired argmin ----


def test_binomial_range_mass_outside_is_the_binomial_sum():
    from scipy import stats

    r = binomial_range(20, 0.17068, level=0.9)
    assert (r["lo"], r["hi"]) == (0.05, 0.3)
    k = np.arange(21)
    pmf = stats.binom.pmf(k, 20, 0.17068)
    brute = pmf[(k < r["k_lo"]) | (k > r["k_hi"])].sum()
    assert r["outside"] == pytest.approx(brute, abs=1e-12)
    assert r["outside"] == pytest.approx(0.0654, abs=5e-4)  # the 6.5 %, not 10 %


@pytest.mark.parametrize(
    "m, p, level", [(1, 0.5, 0.9), (20, 0.0, 0.9), (50, 1.0, 0.5), (300, 0.03, 0.99)]
)
def test_binomial_range_keeps_at_least_its_level(m, p, level):
    r = binomial_range(m, p, level=level)
    assert 0 <= r["k_lo"] <= r["k_hi"] <= m
    assert r["outside"] <= 1 - level + 1e-12


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"m": 0, "risk": 0.1}, "m"),
        ({"m": 5, "risk": 1.5}, "risk"),
        ({"m": 5, "risk": 0.1, "level": 1.0}, "level"),
    ],
)
def test_binomial_range_refuses_bad_input(kwargs, name):
    with pytest.raises(ValueError, match=name):
        binomial_range(**kwargs)


def test_coverage_table_matches_counting_and_the_exact_sum():
    from scipy import stats

    from cvbook.bounds import clopper_pearson_interval, clopper_pearson_upper

    rng = np.random.default_rng(3)
    counts = {50: rng.binomial(50, 0.2, 500), 20: rng.binomial(20, 0.2, 300)}
    t = coverage_table(counts, 0.2, delta=0.1)
    assert t["m"].tolist() == [20, 50] and t["n_sets"].tolist() == [300, 500]
    for j, m in enumerate((20, 50)):
        up = clopper_pearson_upper(counts[m], m, delta=0.1)
        lo2, hi2 = clopper_pearson_interval(counts[m], m, alpha=0.1)
        assert t["sim_one"][j] == np.mean(up >= 0.2)
        assert t["sim_two"][j] == np.mean((lo2 <= 0.2) & (hi2 >= 0.2))
        k = np.arange(m + 1)
        pmf = stats.binom.pmf(k, m, 0.2)
        assert t["exact_one"][j] == pytest.approx(
            pmf[clopper_pearson_upper(k, m, delta=0.1) >= 0.2].sum()
        )
        for side in ("one", "two"):
            assert t[f"lo_{side}"][j] <= t[f"sim_{side}"][j] <= t[f"hi_{side}"][j]
            assert t[f"exact_{side}"][j] >= 0.9 - 1e-12
        assert t["gap"][j] == pytest.approx(np.mean(up - 0.2))


def test_coverage_table_z_scores_a_wrong_risk():
    rng = np.random.default_rng(0)
    counts = {100: rng.binomial(100, 0.3, 2000)}
    assert abs(coverage_table(counts, 0.3)["z_one"][0]) < 4.5
    assert coverage_table(counts, 0.4)["z_one"][0] < -10  # counts at 0.3 seldom reach 0.4


@pytest.mark.parametrize(
    "counts, name",
    [({}, "counts"), ({10: [3]}, "counts"), ({10: [3, 11]}, "counts"), ({10: [3, 2.5]}, "counts")],
)
def test_coverage_table_refuses_bad_counts(counts, name):
    with pytest.raises(ValueError, match=name):
        coverage_table(counts, 0.2)


def test_argmin_summary_paired_differences_and_bootstrap():
    rng = np.random.default_rng(1)
    base = rng.normal(size=(300, 1))  # shared per repetition: pairing removes it
    values = base + np.array([0.5, 0.0, 0.02, 0.6]) + 0.05 * rng.normal(size=(300, 4))
    s = argmin_summary(values, n_boot=500, random_state=0)
    assert s["best"] == 1
    d = values - values[:, [1]]
    assert np.allclose(s["diff"], d.mean(axis=0))
    assert np.allclose(s["se"], d.std(axis=0, ddof=1) / np.sqrt(300))
    assert s["z"][0] > 50 and s["z"][3] > 50 and s["z"][1] == 0
    assert s["boot_share"].sum() == pytest.approx(1.0)
    assert s["boot_share"][[0, 3]].sum() == 0 and s["boot_share"][1] > 0.5
    again = argmin_summary(values, n_boot=500, random_state=0)
    assert np.array_equal(again["boot_share"], s["boot_share"])


@pytest.mark.parametrize(
    "values", [np.zeros(5), np.zeros((1, 3)), np.array([[0.0, np.nan], [1.0, 2.0]])]
)
def test_argmin_summary_refuses_bad_values(values):
    with pytest.raises(ValueError, match="values"):
        argmin_summary(values)
