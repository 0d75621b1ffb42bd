"""TwoGaussians: its exact risk agrees with Monte Carlo; samples are seeded."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.linear_model import LogisticRegression

from cvbook.datasets import TwoGaussians, monte_carlo_risk


class LinearRule:
    def __init__(self, w, b):
        self.w, self.b = np.asarray(w, float), b

    def predict(self, X):
        return np.where(X @ self.w + self.b > 0, 1, -1)


@pytest.mark.parametrize(
    "dist, w, b",
    [
        (TwoGaussians(), [1.0, 0.0], 0.0),
        (TwoGaussians(separation=1.0, dim=3, sigma=0.7, prior=0.3), [1.0, 0.5, -0.2], 0.3),
        (TwoGaussians(separation=3.0, prior=0.8), [0.2, 1.0], -0.5),
    ],
)
def test_exact_risk_agrees_with_a_large_fresh_sample(dist, w, b):
    exact = dist.linear_rule_risk(w, b)
    n = 400_000
    mc = monte_carlo_risk(LinearRule(w, b), dist, n=n, random_state=1)
    se = np.sqrt(exact * (1 - exact) / n)
    assert abs(mc - exact) < 4 * se


def test_bayes_risk_is_phi_of_half_the_separation_over_sigma():
    assert TwoGaussians(separation=2.0).bayes_risk == pytest.approx(stats.norm.cdf(-1.0))
    assert TwoGaussians(separation=3.0, sigma=1.5).bayes_risk == pytest.approx(stats.norm.cdf(-1.0))
    assert TwoGaussians(separation=0.0, prior=0.3).bayes_risk == pytest.approx(0.3)


def test_bayes_rule_beats_every_other_linear_rule():
    dist = TwoGaussians(separation=1.5, dim=2, prior=0.35)
    rng = np.random.default_rng(0)
    for _ in range(50):
        w, b = rng.normal(size=2), rng.normal()
        assert dist.linear_rule_risk(w, b) >= dist.bayes_risk - 1e-12


def test_sample_is_seeded_and_shaped():
    dist = TwoGaussians(dim=4, prior=0.25)
    X1, y1 = dist.sample(1000, random_state=3)
    X2, y2 = dist.sample(1000, random_state=3)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    assert X1.shape == (1000, 4) and set(np.unique(y1)) == {-1, 1}
    assert abs(np.mean(y1 == 1) - 0.25) < 0.05
    X3, _ = dist.sample(1000, random_state=4)
    assert not np.array_equal(X1, X3)


def test_fitted_model_risk_is_near_bayes():
    dist = TwoGaussians()
    clf = LogisticRegression().fit(*dist.sample(2000, random_state=0))
    risk = monte_carlo_risk(clf, dist, n=100_000, random_state=1)
    assert dist.bayes_risk - 0.01 < risk < dist.bayes_risk + 0.02


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(separation=-1.0), "separation"),
        (dict(dim=0), "dim must be >= 1"),
        (dict(sigma=0.0), "sigma"),
        (dict(prior=1.0), "prior must lie strictly between 0 and 1"),
    ],
)
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        TwoGaussians(**kwargs)


def test_bad_calls():
    dist = TwoGaussians()
    with pytest.raises(ValueError, match="m must be >= 1"):
        dist.sample(0)
    with pytest.raises(ValueError, match="w must have length dim=2"):
        dist.linear_rule_risk([1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="zero vector"):
        dist.linear_rule_risk([0.0, 0.0])
    with pytest.raises(ValueError, match="w must be finite"):
        dist.linear_rule_risk([np.nan, 0.0])
    with pytest.raises(ValueError, match="n must be >= 1"):
        monte_carlo_risk(LinearRule([1, 0], 0), dist, n=0)
