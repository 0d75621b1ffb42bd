"""Breiman's twonorm and ringnorm: the samplers agree with their stated risks."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from cvbook.datasets import Ringnorm, Twonorm


def _mc_error(dist, predict, n, seed):
    X, y = dist.sample(n, random_state=seed)
    return float(np.mean(predict(X) != y))


def test_twonorm_bayes_risk_is_phi_minus_two():
    assert Twonorm().bayes_risk == pytest.approx(stats.norm.cdf(-2.0), abs=1e-12)
    # the same for any dimension: the means are always 4 apart
    assert Twonorm(dim=5).bayes_risk == pytest.approx(stats.norm.cdf(-2.0), abs=1e-12)


def test_twonorm_sample_moments():
    dist = Twonorm()
    X, y = dist.sample(40_000, random_state=0)
    assert X.shape == (40_000, 20) and set(np.unique(y)) == {-1, 1}
    assert abs(np.mean(y == 1) - 0.5) < 4 * 0.5 / np.sqrt(40_000)
    for label in (-1, 1):
        mean = X[y == label].mean(axis=0)
        assert np.allclose(mean, label * dist.a, atol=0.05)
        assert np.allclose(X[y == label].std(axis=0), 1.0, atol=0.05)


def test_twonorm_linear_rule_risk_matches_monte_carlo():
    dist = Twonorm()
    rng = np.random.default_rng(3)
    for _ in range(3):
        w, b = rng.normal(size=20) + 0.5, float(rng.normal())
        n = 400_000
        mc = _mc_error(
            dist,
            lambda X, w=w, b=b: np.where(X @ w + b > 0, 1, -1),
            n,
            seed=int(rng.integers(1e6)),
        )
        exact = dist.linear_rule_risk(w, b)
        se = np.sqrt(exact * (1 - exact) / n)
        assert abs(mc - exact) < 4 * se


def test_ringnorm_sample_moments():
    dist = Ringnorm()
    X, y = dist.sample(40_000, random_state=1)
    wide, narrow = X[y == 1], X[y == -1]
    assert np.allclose(wide.mean(axis=0), 0.0, atol=0.06)
    assert np.allclose(wide.std(axis=0), 2.0, atol=0.06)
    assert np.allclose(narrow.mean(axis=0), dist.a, atol=0.05)
    assert np.allclose(narrow.std(axis=0), 1.0, atol=0.05)


def test_ringnorm_bayes_risk_matches_monte_carlo():
    dist = Ringnorm()
    n = 1_000_000
    mc = _mc_error(dist, dist.bayes_predict, n, seed=7)
    se = np.sqrt(dist.bayes_risk * (1 - dist.bayes_risk) / n)
    assert abs(mc - dist.bayes_risk) < 4 * se
    assert 0.0145 < dist.bayes_risk < 0.0155


def test_ringnorm_bayes_rule_is_the_likelihood_ratio():
    dist = Ringnorm()
    X, _ = dist.sample(2000, random_state=2)
    wide = stats.multivariate_normal(np.zeros(20), 4 * np.eye(20)).logpdf(X)
    narrow = stats.multivariate_normal(np.full(20, dist.a), np.eye(20)).logpdf(X)
    assert np.array_equal(dist.bayes_predict(X), np.where(wide > narrow, 1, -1))


def test_ringnorm_bayes_rule_beats_other_rules():
    dist = Ringnorm()
    X, y = dist.sample(200_000, random_state=4)
    bayes = np.mean(dist.bayes_predict(X) != y)
    by_norm = np.mean(np.where(np.linalg.norm(X, axis=1) > np.sqrt(20 * 2.2), 1, -1) != y)
    assert bayes < by_norm


@pytest.mark.parametrize("cls", [Twonorm, Ringnorm])
def test_seeded_and_validated(cls):
    a, b = cls().sample(10, random_state=5), cls().sample(10, random_state=5)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    with pytest.raises(ValueError, match="dim"):
        cls(dim=0)
    with pytest.raises(ValueError, match="m"):
        cls().sample(0)


def test_bad_inputs_name_the_parameter():
    with pytest.raises(ValueError, match="w must have length"):
        Twonorm().linear_rule_risk(np.ones(3))
    with pytest.raises(ValueError, match="zero vector"):
        Twonorm().linear_rule_risk(np.zeros(20))
    with pytest.raises(ValueError, match="X must have shape"):
        Ringnorm().bayes_predict(np.zeros((2, 3)))


def test_ringnorm_bayes_errors_count_the_bayes_rule_on_fresh_points():
    # the same points as an explicit loop over batches of default_rng(seed); kept per call
    ring, rng, errors = Ringnorm(), np.random.default_rng(3), 0
    for size in (2_000, 2_000, 2_001):
        X, y = ring.sample(size, random_state=rng)
        errors += int(np.sum(ring.bayes_predict(X) != y))
    assert ring.bayes_errors(6_001, seed=3, batches=3) == errors
    assert ring.bayes_errors(6_001, seed=3, batches=3) == errors  # from the cache
    assert ring.bayes_errors(6_001, seed=4, batches=3) != errors
    with pytest.raises(ValueError, match="seed"):
        ring.bayes_errors(100, seed=-1)
