"""cvbook.studies.bias_variance: the chapter's experiments."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.svm import SVC

from cvbook.datasets import TwoGaussians
from cvbook.kfold import (
    kfold_from_scratch,
    kfold_risks,
    kfold_select,
    make_kfold,
)
from cvbook.studies.bias_variance import kfold_bias_variance


@pytest.fixture
def data():
    return TwoGaussians(dim=3).sample(53, random_state=0)


def test_unclonable_estimator(data):
    X, y = data
    for fn in (kfold_risks, kfold_from_scratch):
        with pytest.raises(ValueError, match="estimator"):
            fn("svm", X, y)
    with pytest.raises(ValueError, match=r"candidates\[0\]"):
        kfold_select([object()], X, y)
    with pytest.raises(ValueError, match="estimator"):
        kfold_bias_variance(42, TwoGaussians(), m=20, ks=[2])


def test_bias_variance_ks_checked():
    with pytest.raises(ValueError, match="ks"):
        kfold_bias_variance(SVC(), TwoGaussians(), m=20, ks=[2, 21])
    with pytest.raises(ValueError, match="ks"):
        kfold_bias_variance(SVC(), TwoGaussians(), m=20, ks=[])


def test_bias_variance_identical_for_any_n_jobs():
    kw = dict(
        estimator=LinearDiscriminantAnalysis(),
        distribution=TwoGaussians(dim=3),
        m=24,
        ks=[2, 4, 24],
        n_repeats=6,
        random_state=5,
        n_test=2000,
    )
    one = kfold_bias_variance(n_jobs=1, **kw)
    two = kfold_bias_variance(n_jobs=2, **kw)
    np.testing.assert_array_equal(one.estimates, two.estimates)
    np.testing.assert_array_equal(one.truths, two.truths)
    other_seed = kfold_bias_variance(n_jobs=1, **{**kw, "random_state": 6})
    assert not np.array_equal(one.estimates, other_seed.estimates)


def test_bias_variance_matches_direct_computation():
    bv = kfold_bias_variance(
        LinearDiscriminantAnalysis(),
        TwoGaussians(),
        m=20,
        ks=[2, 20],
        n_repeats=4,
        random_state=0,
        n_test=1000,
    )
    assert bv.estimates.shape == (4, 2) and bv.truths.shape == (4,)
    assert np.all((bv.estimates >= 0) & (bv.estimates <= 1))
    np.testing.assert_allclose(bv.bias, np.mean(bv.estimates - bv.truths[:, None], axis=0))
    np.testing.assert_allclose(bv.variance, np.var(bv.estimates, axis=0, ddof=1))
    np.testing.assert_allclose(bv.mse, bv.bias**2 + bv.error_variance * 3 / 4)
    assert bv.fold_stds.shape == (4, 2)
    np.testing.assert_allclose(
        bv.naive_standard_error, np.mean(bv.fold_stds / np.sqrt([2, 20]), axis=0)
    )


def test_bias_variance_one_equals_kfold_risks():
    # The simulation's estimate for one data set is kfold_risks on that data set.
    from cvbook.studies.bias_variance import _bias_variance_one

    rng = np.random.default_rng(3)
    est, stds, truth = _bias_variance_one(
        np.random.default_rng(3),
        LinearDiscriminantAnalysis(),
        TwoGaussians(),
        25,
        [2, 5],
        1000,
        False,
    )
    X, y = TwoGaussians().sample(25, random_state=int(rng.integers(2**31 - 1)))
    for j, k in enumerate([2, 5]):
        fr = kfold_risks(
            LinearDiscriminantAnalysis(),
            X,
            y,
            n_splits=k,
            random_state=int(rng.integers(2**31 - 1)),
        )
        assert est[j] == pytest.approx(fr.mean) and stds[j] == pytest.approx(fr.std)
    assert 0 <= truth <= 1


def test_part_truths_are_the_risk_of_the_first_training_part():
    from cvbook.datasets import monte_carlo_risk
    from cvbook.studies.bias_variance import _bias_variance_one

    args = (LinearDiscriminantAnalysis(), TwoGaussians(), 25, [2, 5], 1000, False)
    est, _, truth = _bias_variance_one(np.random.default_rng(3), *args)
    est2, _, truth2, parts = _bias_variance_one(np.random.default_rng(3), *args, True)
    np.testing.assert_array_equal(est, est2)  # the extra draws come after the others
    assert truth == truth2 and parts.shape == (2,)
    rng = np.random.default_rng(3)
    X, y = TwoGaussians().sample(25, random_state=int(rng.integers(2**31 - 1)))
    fold_seeds = [int(rng.integers(2**31 - 1)) for _ in range(2)]
    rng.integers(2**31 - 1)  # the seed of the full truth
    for j, k in enumerate([2, 5]):
        train, _ = next(make_kfold(k, y=y, random_state=fold_seeds[j]).split(X, y))
        model = LinearDiscriminantAnalysis().fit(X[train], y[train])
        assert parts[j] == monte_carlo_risk(
            model, TwoGaussians(), n=1000, random_state=int(rng.integers(2**31 - 1))
        )


def test_bias_variance_part_truths_flag():
    bv = kfold_bias_variance(
        LinearDiscriminantAnalysis(),
        TwoGaussians(),
        m=20,
        ks=[2, 20],
        n_repeats=3,
        random_state=0,
        n_test=500,
        part_truths=True,
    )
    assert bv.part_truths.shape == (3, 2) and bv.expected_part_risk.shape == (2,)
    assert bv.expected_risk == pytest.approx(bv.truths.mean())
    plain = kfold_bias_variance(
        LinearDiscriminantAnalysis(),
        TwoGaussians(),
        m=20,
        ks=[2, 20],
        n_repeats=3,
        random_state=0,
        n_test=500,
    )
    np.testing.assert_array_equal(plain.estimates, bv.estimates)
    with pytest.raises(ValueError, match="part_truths"):
        _ = plain.expected_part_risk
    with pytest.raises(ValueError, match="part_truths"):
        kfold_bias_variance(
            LinearDiscriminantAnalysis(),
            TwoGaussians(),
            m=20,
            ks=[2],
            n_repeats=2,
            part_truths="yes",
        )
    with pytest.raises(ValueError, match="ks"):
        kfold_bias_variance(LinearDiscriminantAnalysis(), TwoGaussians(), m=20, ks="25")
