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
    est, stds, truth, *_ = _bias_variance_one(
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
    est, _, truth, *_ = _bias_variance_one(np.random.default_rng(3), *args)
    est2, _, truth2, parts, *_ = _bias_variance_one(np.random.default_rng(3), *args, True)
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


# --- chapter 3, section 5: the benchmark, the paired variance ranking, the naive SE -------
from cvbook.studies.bias_variance import (  # noqa: E402
    BiasVariance,
    binomial_ceiling,
    correlation_difference,
    naive_se_ratio,
    regression_slope,
    sd_ratio_interval,
)


def test_test_size_adds_a_test_set_and_changes_nothing_else():
    kwargs = dict(m=30, ks=[2, 5], n_repeats=6, random_state=3, n_test=2000)
    plain = kfold_bias_variance(LinearDiscriminantAnalysis(), TwoGaussians(), **kwargs)
    more = kfold_bias_variance(LinearDiscriminantAnalysis(), TwoGaussians(), test_size=30, **kwargs)
    assert plain.test_estimates is None
    np.testing.assert_array_equal(plain.estimates, more.estimates)
    np.testing.assert_array_equal(plain.truths, more.truths)
    assert more.test_estimates.shape == (6,)
    assert np.all(np.isin(np.round(more.test_estimates * 30), np.arange(31)))


def test_test_set_is_unbiased_for_the_truth():
    # E[T | f_S] = L(f_S): the mean of T - L over data sets is within 4 SE of 0
    bv = kfold_bias_variance(
        LinearDiscriminantAnalysis(),
        TwoGaussians(),
        m=30,
        ks=[2],
        n_repeats=60,
        random_state=0,
        n_test=5000,
        test_size=200,
    )
    d = bv.test_estimates - bv.truths
    assert abs(d.mean()) < 4 * d.std(ddof=1) / np.sqrt(d.size)


@pytest.mark.parametrize("bad", [0, -3, 2.5, "m"])
def test_test_size_refused_by_name(bad):
    with pytest.raises((ValueError, TypeError), match="test_size"):
        kfold_bias_variance(
            LinearDiscriminantAnalysis(), TwoGaussians(), m=20, ks=[2], n_repeats=2, test_size=bad
        )


def test_pooled_naive_standard_error_is_the_root_of_the_mean_variance():
    stds = np.array([[0.1, 0.2], [0.3, 0.4]])
    bv = BiasVariance(
        ks=np.array([2, 4]), estimates=np.zeros((2, 2)), truths=np.zeros(2), fold_stds=stds
    )
    np.testing.assert_allclose(
        bv.pooled_naive_standard_error, np.sqrt([(0.01 + 0.09) / 2 / 2, (0.04 + 0.16) / 2 / 4])
    )
    assert np.all(bv.pooled_naive_standard_error >= bv.naive_standard_error)  # Jensen


def test_regression_slope_agrees_with_numpy():
    rng = np.random.default_rng(1)
    x = rng.normal(size=50)
    y = 0.7 * x + rng.normal(size=50)
    slope, se = regression_slope(x, y)
    assert slope == pytest.approx(np.polyfit(x, y, 1)[0])
    resid = y - np.polyval(np.polyfit(x, y, 1), x)
    assert se == pytest.approx(np.sqrt(resid @ resid / 48 / ((x - x.mean()) @ (x - x.mean()))))
    with pytest.raises(ValueError, match="x must vary"):
        regression_slope(np.ones(5), np.arange(5.0))
    with pytest.raises(ValueError, match="same length"):
        regression_slope(np.arange(5.0), np.arange(4.0))


def test_correlation_difference_sign_and_its_se():
    rng = np.random.default_rng(2)
    c = rng.normal(size=400)
    close, far = c + 0.5 * rng.normal(size=400), c + 3 * rng.normal(size=400)
    p = correlation_difference(close, far, c, n_boot=300)
    r = np.corrcoef(close, c)[0, 1] - np.corrcoef(far, c)[0, 1]
    assert p.mean == pytest.approx(r) and p.z > 4 and p.n == 400
    same = correlation_difference(far, far, c, n_boot=50)
    assert same.mean == 0 and same.se == 0
    with pytest.raises(ValueError, match="n_boot"):
        correlation_difference(close, far, c, n_boot=1)


def test_binomial_ceiling_matches_a_simulated_test_set():
    rng = np.random.default_rng(3)
    truths = rng.uniform(0.1, 0.3, size=20_000)
    tests = rng.binomial(40, truths) / 40
    assert binomial_ceiling(truths, 40) == pytest.approx(np.corrcoef(tests, truths)[0, 1], abs=0.02)
    with pytest.raises(ValueError, match="truths"):
        binomial_ceiling([0.5, 1.5], 10)


def test_sd_ratio_interval_covers_and_agrees_with_pitman_morgan():
    from cvbook.stats import paired_variance_test

    rng = np.random.default_rng(4)
    covered = 0
    for _ in range(200):
        y = rng.normal(size=60)
        x = 1.2 * y + 0.6 * rng.normal(size=60)  # sd ratio sqrt(1.44 + 0.36)
        ratio, lo, hi, t = sd_ratio_interval(x, y)
        covered += lo <= np.sqrt(1.8) <= hi
    assert 0.9 <= covered / 200 <= 0.99
    var_ratio, t_pm = paired_variance_test(x, y)
    assert ratio == pytest.approx(np.sqrt(var_ratio)) and t == pytest.approx(t_pm)
    # the interval excludes 1 exactly when |t| exceeds the t quantile
    from scipy import stats

    assert (lo > 1) == (t > stats.t.ppf(0.975, 58))


def test_naive_se_ratio_and_its_checks():
    bv = kfold_bias_variance(
        LinearDiscriminantAnalysis(),
        TwoGaussians(),
        m=30,
        ks=[2, 5],
        n_repeats=20,
        random_state=0,
        n_test=2000,
    )
    ratio, z = naive_se_ratio(bv, 1, n_boot=100)
    assert ratio == pytest.approx(np.sqrt(bv.variance[1]) / bv.pooled_naive_standard_error[1])
    assert np.isfinite(z)
    with pytest.raises(ValueError, match="j"):
        naive_se_ratio(bv, 2)
    with pytest.raises(TypeError, match="bv"):
        naive_se_ratio("bv", 0)


def test_naive_se_ratio_is_nan_without_a_warning_on_degenerate_data(recwarn):
    # Tiny runs: estimates that barely vary leave bootstrap resamples with a constant
    # estimate (log 0), and folds with no spread leave 0 / 0. Neither may warn; an
    # undefined ratio is NaN, and degenerate resamples are left out of the SE.
    stds = np.array([[0.1], [0.2], [0.1], [0.3], [0.2]])
    few = BiasVariance(
        ks=np.array([2]),
        estimates=np.array([[0.2], [0.2], [0.2], [0.2], [0.3]]),
        truths=np.zeros(5),
        fold_stds=stds,
    )
    ratio, z = naive_se_ratio(few, 0, n_boot=200, random_state=0)
    assert ratio == pytest.approx(few.estimates[:, 0].std(ddof=1) / np.sqrt((stds**2).mean() / 2))
    assert np.isfinite(z)  # many resamples repeat the constant rows: left out, not warned
    flat = BiasVariance(
        ks=np.array([2]), estimates=few.estimates, truths=np.zeros(5), fold_stds=np.zeros((5, 1))
    )
    assert all(np.isnan(naive_se_ratio(flat, 0, n_boot=50)))
    constant = BiasVariance(
        ks=np.array([2]), estimates=np.full((5, 1), 0.2), truths=np.zeros(5), fold_stds=stds
    )
    assert all(np.isnan(naive_se_ratio(constant, 0, n_boot=50)))
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_correlation_difference_leaves_out_constant_resamples_without_a_warning(recwarn):
    # Five rows, one of them apart: many resamples make a column constant (no correlation).
    a, b, c = np.array([0, 0, 0, 0, 1.0]), np.array([0, 0, 0, 1.0, 1]), np.array([0, 0, 0, 0.5, 1])
    p = correlation_difference(a, b, c, n_boot=300, random_state=0)
    r = np.corrcoef(a, c)[0, 1] - np.corrcoef(b, c)[0, 1]
    assert p.mean == pytest.approx(r) and np.isfinite(p.se) and p.se > 0
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_a_one_class_training_part_is_the_constant_rule():
    # m = 6 draws training parts (and samples) of one class: SVC alone refuses them; the
    # study's learner is the constant rule there, counted, and every number is finite.
    bv = kfold_bias_variance(
        SVC(),
        TwoGaussians(),
        m=6,
        ks=[2, 3],
        n_repeats=3,
        random_state=0,
        n_test=200,
        part_truths=True,
        test_size=6,
        n_jobs=1,
    )
    assert bv.one_class_fits > 0
    for values in (bv.estimates, bv.truths, bv.fold_stds, bv.part_truths, bv.test_estimates):
        assert np.isfinite(values).all()
    assert (
        kfold_bias_variance(
            SVC(), TwoGaussians(), m=30, ks=[2], n_repeats=2, random_state=0, n_test=200
        ).one_class_fits
        == 0
    )


def test_a_wrapped_learner_gives_the_bare_learners_numbers():
    """Chapter 3 passes OneClassFallback(SVC()); the study must draw the seeds the bare SVC
    draws (its random_state is then estimator__random_state), so every number is the same."""
    import dataclasses

    from sklearn.svm import SVC

    from cvbook.datasets import TwoGaussians
    from cvbook.learners import OneClassFallback

    dist = TwoGaussians(separation=2.0, dim=5)
    kw = dict(m=20, ks=[2, 5], n_repeats=4, random_state=3, n_test=500)
    bare = kfold_bias_variance(SVC(), dist, **kw)
    wrapped = kfold_bias_variance(OneClassFallback(SVC()), dist, **kw)
    for field in dataclasses.fields(bare):
        assert np.array_equal(getattr(bare, field.name), getattr(wrapped, field.name)), field.name


def test_fits_counts_every_fit_the_study_made():
    """The count one_class_fits is out of: K folds of every K, the model on all m and,
    with part truths, one model per K; checked by counting the fits themselves."""
    from unittest import mock

    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    from cvbook.datasets import TwoGaussians

    calls = []
    original = LinearDiscriminantAnalysis.fit

    def counted(self, X, y):
        calls.append(len(y))
        return original(self, X, y)

    dist = TwoGaussians(separation=2.0, dim=5)
    for parts in (False, True):
        calls.clear()
        with mock.patch.object(LinearDiscriminantAnalysis, "fit", counted):
            bv = kfold_bias_variance(
                LinearDiscriminantAnalysis(),
                dist,
                m=20,
                ks=[2, 5],
                n_repeats=3,
                random_state=0,
                n_test=200,
                part_truths=parts,
            )
        assert bv.fits == len(calls) == 3 * (2 + 5 + 1 + (2 if parts else 0))
