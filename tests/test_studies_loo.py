"""cvbook.studies.loo_pitfalls: the chapter's experiments."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import Ridge

from cvbook.loo import loo_risk
from cvbook.studies.loo_pitfalls import (
    majority_vote_loo,
    majority_vote_loo_distribution,
    ridge_estimates_and_risks,
    single_class_part,
    small_sample_failures,
)


def _data(m=30, d=3, n_outputs=None, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    shape = (m,) if n_outputs is None else (m, n_outputs)
    y = rng.normal(size=shape) + (X[:, :1] if n_outputs else X[:, 0]) + 3.0
    return X, y


@settings(max_examples=60, deadline=None)
@given(y=st.lists(st.sampled_from([-1, 1, 2]), min_size=2, max_size=9))
def test_property_majority_vote_loo_counts_like_refits(y):
    """Counting equals m refits of DummyClassifier, ties and three classes included."""
    y = np.array(y)
    est = DummyClassifier(strategy="most_frequent")
    assert majority_vote_loo(y) == loo_risk(est, np.zeros((y.size, 1)), y)


@pytest.mark.parametrize("m", [2, 3, 10, 31, 60])
def test_majority_vote_loo_is_unbiased_but_often_one(m):
    """E[LOO] = 1/2 = the risk at m - 1 (eq-ch4-unbiased holds for this learner too),
    while LOO = 1 with the probability that the counts tie (or nearly tie)."""
    from scipy.special import comb

    values, p = majority_vote_loo_distribution(m)
    assert p.sum() == pytest.approx(1.0)
    assert p @ values == pytest.approx(0.5, abs=1e-12)
    half = m // 2
    expected_one = comb(m, half) / 2**m if m % 2 == 0 else comb(m, half + 1) / 2**m
    assert p[values == 1.0].sum() == pytest.approx(expected_one, rel=1e-12)


@pytest.mark.parametrize("m", [10, 11, 30, 31])
def test_majority_vote_loo_is_one_at_a_lead_of_zero_or_one_else_the_minority_share(m):
    """Chapter 4's identity for every m, odd included: with labels -1/+1 the LOO error is 1
    when the positives lead by 0 or 1 (a tie among the others goes to -1), and the share of
    the minority class otherwise."""
    for n_pos in range(m + 1):
        y = np.array([1] * n_pos + [-1] * (m - n_pos))
        lead = 2 * n_pos - m
        expected = 1.0 if lead in (0, 1) else min(n_pos, m - n_pos) / m
        assert majority_vote_loo(y) == pytest.approx(expected, abs=1e-15), (m, n_pos)


@pytest.mark.parametrize(
    "y, match",
    [
        ([1], "at least 2"),
        ([[1, 2], [1, 2]], "one-dimensional"),
        ([1 + 1j, 1], "y must be real"),
    ],
)
def test_majority_vote_loo_refuses(y, match):
    with pytest.raises(ValueError, match=match):
        majority_vote_loo(y)


@pytest.mark.parametrize("m", [1, 2.0, "10", None])
def test_majority_vote_distribution_refuses_m(m):
    with pytest.raises(ValueError, match="m must be"):
        majority_vote_loo_distribution(m)


def test_single_class_part():
    from sklearn.model_selection import KFold, LeaveOneOut

    y = np.array([1, 1, -1, -1, -1, -1])
    assert single_class_part(y, KFold(3).split(y))
    assert not single_class_part(y, LeaveOneOut().split(y))
    assert single_class_part(np.array([1, -1, -1]), LeaveOneOut().split(np.zeros(3)))
    assert single_class_part(np.ones(4), LeaveOneOut().split(np.zeros(4)))  # one class


def test_single_class_part_predicts_the_logistic_failure():
    """Where the check says a part has one class, LogisticRegression cannot be fitted."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import KFold, cross_val_score

    from cvbook.datasets import TwoGaussians

    dist = TwoGaussians(separation=2.0, dim=2, prior=0.3)
    seen = set()
    for seed in range(40):
        X, y = dist.sample(12, random_state=seed)
        cv = KFold(3, shuffle=True, random_state=seed)
        predicted = single_class_part(y, cv.split(X))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scores = cross_val_score(LogisticRegression(), X, y, cv=cv, error_score=np.nan)
        assert predicted == bool(np.isnan(scores).any())
        seen.add(predicted)
    assert seen == {True, False}


def test_small_sample_failures_stratified_fails_only_where_loo_fails():
    from cvbook.datasets import TwoGaussians
    from cvbook.simulation import repeat

    runs = repeat(
        small_sample_failures,
        150,
        random_state=0,
        distribution=TwoGaussians(separation=2.0, dim=2, prior=0.3),
        m=12,
    )
    for r in runs:
        assert r["LOO"] == (r["minority"] < 2)
        for k in (2, 3, 5):
            assert r[f"{k}-fold stratified"] == r["LOO"]
            assert r[f"{k}-fold shuffled"] >= r["LOO"]  # loses whatever LOO loses
    assert any(r["3-fold shuffled"] and not r["LOO"] for r in runs)
    assert any(r["LOO"] for r in runs)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"m": 1}, "m must be >= 2"),
        ({"m": 12.0}, "m must be an integer"),
        ({"ks": (1,)}, "ks must be >= 2"),
        ({"ks": (13,)}, "ks must be <= 12"),
        ({"distribution": "twogaussians"}, "distribution must have a sample"),
        ({"rng": -1}, "rng must be >= 0"),
    ],
)
def test_small_sample_failures_refuses(kwargs, match):
    from cvbook.datasets import TwoGaussians

    args = {"rng": np.random.default_rng(0), "distribution": TwoGaussians(prior=0.3), "m": 12}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        small_sample_failures(**args)


def test_ridge_estimates_and_risks():
    from cvbook.datasets import LinearGaussianRegression

    dist = LinearGaussianRegression(dim=3)
    out = ridge_estimates_and_risks(np.random.default_rng(5), dist, m=20, alpha=1.0, ks=(2, 20))
    assert out["train_size"] == {"LOO": 19, "2-fold": 10, "20-fold": 19}
    assert sorted(out["risks"]) == [10, 19, 20]
    # 20-fold on 20 points is LOO whatever the shuffle
    assert out["estimates"]["20-fold"] == pytest.approx(out["estimates"]["LOO"], rel=1e-10)
    # the same rng gives the same numbers
    again = ridge_estimates_and_risks(np.random.default_rng(5), dist, m=20, alpha=1.0, ks=(2, 20))
    assert again == out
    assert all(r > dist.bayes_risk for r in out["risks"].values())


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"m": 2}, "m must be >= 3"),
        ({"alpha": 0.0}, "alpha must be > 0"),
        ({"alpha": "1"}, "alpha must be a real number"),
        ({"ks": (2, 31)}, "ks must be <= 30"),
        ({"distribution": object()}, "distribution must offer"),
    ],
)
def test_ridge_estimates_and_risks_refuses(kwargs, match):
    from cvbook.datasets import LinearGaussianRegression

    args = {
        "rng": np.random.default_rng(0),
        "distribution": LinearGaussianRegression(),
        "m": 30,
        "alpha": 1.0,
    }
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        ridge_estimates_and_risks(**args)


@pytest.mark.parametrize("alpha", [1e-3, 1.0, 1e4])
def test_fast_ridge_fit_is_sklearns_ridge(alpha):
    from cvbook.studies.loo_pitfalls import _ridge_fit

    X, y = _data(m=15, d=4, seed=16)
    ref = Ridge(alpha=alpha).fit(X, y)
    w, b = _ridge_fit(X, y, alpha)
    np.testing.assert_allclose(w, ref.coef_, rtol=1e-10, atol=1e-12)
    assert b == pytest.approx(ref.intercept_, rel=1e-10)


def test_ridge_study_kfold_is_the_books_kfold():
    """The K-fold estimate equals cvbook.kfold.kfold_risks on the same folds."""
    from sklearn.model_selection import KFold

    from cvbook.book import int_seed
    from cvbook.datasets import LinearGaussianRegression
    from cvbook.kfold import kfold_risks

    dist = LinearGaussianRegression(dim=5)
    out = ridge_estimates_and_risks(np.random.default_rng(8), dist, m=30, alpha=1.0, ks=(5,))
    rng = np.random.default_rng(8)
    X, y = dist.sample(30, random_state=int_seed(rng))
    folds = list(KFold(5, shuffle=True, random_state=int_seed(rng)).split(X))
    ref = kfold_risks(Ridge(alpha=1.0), X, y, loss="squared", cv=folds).mean
    assert out["estimates"]["5-fold"] == pytest.approx(ref, rel=1e-10)
    assert out["estimates"]["LOO"] == pytest.approx(
        loo_risk(Ridge(alpha=1.0), X, y, loss="squared"), rel=1e-10
    )


@pytest.mark.parametrize(
    "splits, match",
    [
        (3, "splits must be an iterable"),
        ("KFold", "splits must be"),
        ([], "at least one"),
        ([([0, 1], [9])], "index 9"),
        ([([0, 1.5], [2])], "integers"),
    ],
)
def test_single_class_part_refuses_bad_splits(splits, match):
    from sklearn.model_selection import KFold

    y = np.array([1, -1, 1, -1])
    with pytest.raises(ValueError, match=match):
        single_class_part(y, splits)
    with pytest.raises(TypeError, match="call its split method"):
        single_class_part(y, KFold(2))
