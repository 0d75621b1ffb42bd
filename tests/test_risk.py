"""Losses and empirical risk agree with scikit-learn's metrics; bad input is refused."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st
from sklearn import metrics

from cvbook.risk import (LOSSES, absolute_loss, count_errors, empirical_risk,
                         squared_loss, zero_one_loss)

floats = st.floats(-1e3, 1e3, allow_nan=False)


@given(st.lists(st.tuples(st.sampled_from([-1, 1]), st.sampled_from([-1, 1])), min_size=1, max_size=200))
def test_zero_one_matches_sklearn(pairs):
    y, p = map(np.array, zip(*pairs))
    assert empirical_risk(y, p) == pytest.approx(metrics.zero_one_loss(y, p))
    assert count_errors(y, p) == metrics.zero_one_loss(y, p, normalize=False)


@given(st.lists(st.tuples(floats, floats), min_size=1, max_size=100))
def test_squared_and_absolute_match_sklearn(pairs):
    y, p = map(np.array, zip(*pairs))
    assert empirical_risk(y, p, "squared") == pytest.approx(metrics.mean_squared_error(y, p), rel=1e-9, abs=1e-9)
    assert empirical_risk(y, p, "absolute") == pytest.approx(metrics.mean_absolute_error(y, p), rel=1e-9, abs=1e-9)


def test_per_point_losses():
    np.testing.assert_array_equal(zero_one_loss([1, 2, 3], [1, 0, 3]), [0, 1, 0])
    np.testing.assert_array_equal(squared_loss([1.0, 2.0], [0.0, 4.0]), [1.0, 4.0])
    np.testing.assert_array_equal(absolute_loss([1.0, 2.0], [0.0, 4.0]), [1.0, 2.0])
    assert set(LOSSES) == {"zero_one", "squared", "absolute"}


def test_callable_loss():
    assert empirical_risk([1.0, 3.0], [0.0, 0.0], loss=lambda y, p: np.abs(y - p) ** 3) == 14.0


@pytest.mark.parametrize("call, match", [
    (lambda: empirical_risk([1, 2], [1]), "same length: y_true has 2, y_pred has 1"),
    (lambda: empirical_risk([], []), "at least one point"),
    (lambda: empirical_risk([1.0, np.nan], [1.0, 1.0], "squared"), "y_true must be finite"),
    (lambda: empirical_risk([1.0, 1.0], [np.inf, 1.0], "squared"), "y_pred must be finite"),
    (lambda: empirical_risk([1, 1], [1, 1], loss="hinge"), "loss must be one of"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_sample_test_errors_are_binomial_with_the_true_risk():
    from cvbook.datasets import TwoGaussians
    from cvbook.risk import sample_test_errors

    class Sign:
        def predict(self, X):
            return np.where(X[:, 0] > 0, 1, -1)

    dist = TwoGaussians()
    risk = dist.linear_rule_risk([1.0, 0.0])
    counts = sample_test_errors(Sign(), dist, 100, 4000, random_state=0)
    assert abs(counts.mean() / 100 - risk) < 4 * np.sqrt(risk * (1 - risk) / 400_000)
    assert counts.std() == pytest.approx(np.sqrt(100 * risk * (1 - risk)), rel=0.05)
    again = sample_test_errors(Sign(), dist, 100, 4000, random_state=0)
    np.testing.assert_array_equal(counts, again)
    with pytest.raises(ValueError, match="test_size must be >= 1"):
        sample_test_errors(Sign(), dist, 0, 3)


def test_single_split_uses_the_exact_risk_of_a_linear_model():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.tree import DecisionTreeClassifier
    from cvbook.datasets import TwoGaussians
    from cvbook.risk import single_split

    dist = TwoGaussians()
    out = single_split(np.random.default_rng(1), dist, LinearDiscriminantAnalysis(), 60, 0.5)
    assert out["n_train"] == 30 and out["n_test"] == 30
    assert dist.bayes_risk <= out["true_risk"] < 0.5
    assert out["test_error"] <= out["upper_bound"]
    tree = single_split(np.random.default_rng(1), dist, DecisionTreeClassifier(random_state=0), 60, 0.5)
    assert 0 < tree["true_risk"] < 0.6
    with pytest.raises(ValueError, match="train_fraction must lie strictly between 0 and 1"):
        single_split(np.random.default_rng(1), dist, LinearDiscriminantAnalysis(), 60, 1.0)
    with pytest.raises(ValueError, match="leaves an empty part"):
        single_split(np.random.default_rng(1), dist, LinearDiscriminantAnalysis(), 3, 0.1)
