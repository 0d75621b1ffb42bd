"""Clopper--Pearson bounds: agreement with scipy's beta quantiles, properties, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import stats

from cvbook.bounds import (
    clopper_pearson_interval,
    clopper_pearson_upper,
    clopper_pearson_upper_by_inversion,
)

counts = st.integers(min_value=1, max_value=2000).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))
)
deltas = st.floats(min_value=1e-4, max_value=0.5)


@given(counts, deltas)
def test_upper_is_the_beta_quantile(kn, delta):
    k, n = kn
    expected = 1.0 if k == n else stats.beta.isf(delta, k + 1, n - k)
    assert clopper_pearson_upper(k, n, delta) == pytest.approx(expected, rel=1e-12, abs=1e-15)


@given(counts, deltas)
def test_upper_satisfies_equation_3(kn, delta):
    """At the bound, P(Binomial(n, p) <= k) = delta: the defining equation."""
    k, n = kn
    p = clopper_pearson_upper(k, n, delta)
    if k < n:
        assert stats.binom.cdf(k, n, p) == pytest.approx(delta, rel=1e-6)
        assert stats.binom.cdf(k, n, min(1.0, p * (1 + 1e-6) + 1e-12)) < delta


@settings(max_examples=60, deadline=None)
@given(counts, deltas)
def test_equation_3_solved_as_written_matches_the_quantile(kn, delta):
    k, n = kn
    assert clopper_pearson_upper_by_inversion(k, n, delta) == pytest.approx(
        clopper_pearson_upper(k, n, delta), rel=1e-7, abs=1e-12
    )


@given(st.integers(1, 1000), deltas, st.data())
def test_upper_is_monotone_in_the_error_count(n, delta, data):
    k1 = data.draw(st.integers(0, n))
    k2 = data.draw(st.integers(k1, n))
    assert clopper_pearson_upper(k1, n, delta) <= clopper_pearson_upper(k2, n, delta)


@given(st.integers(0, 500), st.integers(1, 500), deltas)
def test_upper_falls_as_the_test_set_grows_at_fixed_errors(k, extra, delta):
    n = k + extra
    assert clopper_pearson_upper(k, n + 1, delta) <= clopper_pearson_upper(k, n, delta)


@given(counts, st.floats(1e-3, 0.3), st.floats(1e-3, 0.3))
@example(kn=(863, 1333), d1=0.29999999999999993, d2=0.3)  # CI's 5-ulp step
def test_upper_loosens_as_delta_shrinks(kn, d1, d2):
    k, n = kn
    lo, hi = sorted((d1, d2))
    # Monotone to the precision the bound is computed at (1e-12 relative, the tolerance of
    # the quantile tests above): boost's inverse beta is an iterative root and, at scipy's
    # minimum version, steps back by a few ulp between adjacent deltas -- CI found 5 ulp
    # (k=863, n=1333, delta=0.3 and the float below); an ulp count cannot bound that.
    up_lo, up_hi = clopper_pearson_upper(k, n, lo), clopper_pearson_upper(k, n, hi)
    assert up_lo >= up_hi * (1 - 1e-12)


@given(counts, deltas)
def test_upper_lies_above_the_empirical_rate(kn, delta):
    k, n = kn
    assert k / n <= clopper_pearson_upper(k, n, delta) <= 1.0


@given(counts, st.floats(1e-3, 0.5))
def test_interval_matches_beta_quantiles_and_contains_the_rate(kn, alpha):
    k, n = kn
    lo, hi = clopper_pearson_interval(k, n, alpha)
    exp_lo = 0.0 if k == 0 else stats.beta.ppf(alpha / 2, k, n - k + 1)
    exp_hi = 1.0 if k == n else stats.beta.isf(alpha / 2, k + 1, n - k)
    assert lo == pytest.approx(exp_lo, rel=1e-12, abs=1e-15)
    assert hi == pytest.approx(exp_hi, rel=1e-12, abs=1e-15)
    assert lo <= k / n <= hi


def test_interval_upper_end_is_the_one_sided_bound_at_half_alpha():
    k = np.arange(0, 51)
    _, hi = clopper_pearson_interval(k, 50, alpha=0.1)
    np.testing.assert_allclose(hi, clopper_pearson_upper(k, 50, delta=0.05))


def test_vectorised_over_arrays_and_broadcast():
    k = np.array([[0, 1], [2, 3]])
    out = clopper_pearson_upper(k, 10, delta=0.05)
    assert out.shape == (2, 2)
    np.testing.assert_allclose(out[1, 0], clopper_pearson_upper(2, 10))
    out = clopper_pearson_upper(3, np.array([10, 20, 40]))
    assert out.shape == (3,) and np.all(np.diff(out) < 0)
    lo, hi = clopper_pearson_interval([0, 5], [5, 5])
    assert lo[0] == 0.0 and hi[1] == 1.0


def test_scalar_input_returns_float():
    assert isinstance(clopper_pearson_upper(3, 10), float)
    lo, hi = clopper_pearson_interval(3, 10)
    assert isinstance(lo, float) and isinstance(hi, float)


def test_coverage_is_at_least_nominal_on_a_binomial():
    """The guarantee itself, checked exactly: sum the binomial pmf over covering counts."""
    n, delta = 60, 0.1
    k = np.arange(n + 1)
    upper = clopper_pearson_upper(k, n, delta)
    for p in np.linspace(0.01, 0.9, 40):
        coverage = stats.binom.pmf(k, n, p)[upper >= p].sum()
        assert coverage >= 1 - delta - 1e-12


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(n_errors=1, n=10, delta=0.0), "delta must lie strictly between 0 and 1"),
        (dict(n_errors=1, n=10, delta=1.0), "delta must lie strictly between 0 and 1"),
        (dict(n_errors=1, n=10, delta=-0.2), "delta"),
        (dict(n_errors=1, n=10, delta=float("nan")), "delta"),
        (dict(n_errors=1, n=0), "n must be >= 1"),
        (dict(n_errors=-1, n=10), "n_errors must be >= 0"),
        (dict(n_errors=11, n=10), "n_errors must be <= n"),
        (dict(n_errors=2.5, n=10), "n_errors must hold integers"),
        (dict(n_errors=float("nan"), n=10), "n_errors must hold finite integers"),
        (dict(n_errors=1, n=float("inf")), "n must hold finite integers"),
        (dict(n_errors="3", n=10), "n_errors must hold integers"),
    ],
)
def test_upper_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        clopper_pearson_upper(**kwargs)


@pytest.mark.parametrize("alpha", [0.0, 1.0, 2.0, float("nan")])
def test_interval_rejects_bad_alpha(alpha):
    with pytest.raises(ValueError, match="alpha must lie strictly between 0 and 1"):
        clopper_pearson_interval(1, 10, alpha)


def test_inversion_rejects_bad_input():
    with pytest.raises(ValueError, match="n_errors must be <= 10"):
        clopper_pearson_upper_by_inversion(11, 10)
    with pytest.raises(ValueError, match="delta"):
        clopper_pearson_upper_by_inversion(1, 10, delta=1.5)


def test_integral_floats_are_accepted():
    assert clopper_pearson_upper(3.0, 10.0) == clopper_pearson_upper(3, 10)


def test_exact_coverage_is_at_least_nominal_and_matches_simulation():
    from cvbook.bounds import clopper_pearson_coverage

    for risk in (0.02, 0.1, 0.3):
        for n in (10, 50, 200):
            assert clopper_pearson_coverage(risk, n, 0.05) >= 0.95 - 1e-12
            assert clopper_pearson_coverage(risk, n, 0.05, two_sided=True) >= 0.95 - 1e-12
    rng = np.random.default_rng(0)
    k = rng.binomial(100, 0.1, size=200_000)
    simulated = np.mean(clopper_pearson_upper(k, 100, 0.05) >= 0.1)
    assert abs(simulated - clopper_pearson_coverage(0.1, 100, 0.05)) < 0.003
    with pytest.raises(ValueError, match=r"risk must lie in \[0, 1\]"):
        clopper_pearson_coverage(1.5, 10)


def test_error_rate_bound_from_labels():
    from cvbook.bounds import error_rate_bound

    err, up = error_rate_bound([1, -1, 1, -1, 1], [1, -1, -1, -1, 1], delta=0.1)
    assert err == 0.2 and up == clopper_pearson_upper(1, 5, 0.1)
    assert error_rate_bound(np.array(["a", "b"]), np.array(["a", "a"]))[0] == 0.5


def test_error_rate_bound_accepts_multiclass_labels():
    """The 0-1 loss counts mistakes: it needs no binary labels."""
    from cvbook.bounds import error_rate_bound

    err, up = error_rate_bound([0, 1, 2, 2, 3], [0, 1, 2, 0, 3], delta=0.1)
    assert err == 0.2 and up == clopper_pearson_upper(1, 5, 0.1)
    assert error_rate_bound(["a", "b", "c"], ["a", "b", "b"])[0] == pytest.approx(1 / 3)


@pytest.mark.parametrize(
    "y_true, y_pred, kwargs, match",
    [
        ([0, 1], [0, 1, 1], {}, "same length: y_true has 2, y_pred has 3"),
        ([0.0, np.nan], [0.0, 1.0], {}, "y_true must be finite"),
        ([0.0, 1.0], [np.inf, 1.0], {}, "y_pred must be finite"),
        ([], [], {}, "at least one test point"),
        ([0, 1], [0, 1], {"delta": 1.0}, "delta must lie strictly between 0 and 1"),
    ],
)
def test_error_rate_bound_rejects_bad_input(y_true, y_pred, kwargs, match):
    from cvbook.bounds import error_rate_bound

    with pytest.raises(ValueError, match=match):
        error_rate_bound(y_true, y_pred, **kwargs)
