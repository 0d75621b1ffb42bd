"""cvbook.studies.split_sizes: the chapter's experiments."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.tree import DecisionTreeClassifier

from cvbook.datasets import TwoGaussians
from cvbook.studies.split_sizes import sample_test_errors, single_split, split_sizes_trial


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
