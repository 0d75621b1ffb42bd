"""The statistics over the full range of finite input (issue 35, item 2).

``mean_se``, ``paired_difference``, ``correlation_interval``, ``paired_variance_test``,
``intraclass_correlation``, ``lag1_autocorrelation`` and ``label_correlation`` used to
return NaN, +-inf or 0 on finite data of magnitude 1e+-200, and to refuse data that vary
as "constant". Each is now checked, as a property, for its invariance to shifting and
scaling its input (equivariance for the mean and SE), and, on data of ordinary size, for
giving bit for bit what the plain formula gives (the chapters' numbers do not move).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats as sps

from cvbook.dependence import intraclass_correlation, lag1_autocorrelation
from cvbook.stats import (
    correlation_interval,
    mean_se,
    paired_difference,
    paired_variance_test,
    power_of_two_scale,
)
from cvbook.studies.dependent_data import label_correlation

#: Scales over the range of finite floats (powers of two: scaling by them is exact, so the
#: statistics must agree to rounding; other scales are tested with a tolerance below).
EXPONENTS = st.integers(min_value=-900, max_value=900)
SAMPLES = arrays(
    np.float64,
    st.integers(min_value=8, max_value=40),
    # no magnitude below 1e-30 (0 aside): scaled by 2**-900 every entry stays a normal
    # float, so the exact-scaling claims hold (a subnormal loses bits when halved)
    elements=st.floats(min_value=-1e3, max_value=1e3, allow_nan=False).map(
        lambda v: 0.0 if abs(v) < 1e-30 else v
    ),
).filter(lambda a: np.ptp(a) > 1e-3 * max(1.0, np.max(np.abs(a))))


def _rel(a, b, rtol=1e-9):
    np.testing.assert_allclose(a, b, rtol=rtol, atol=0)


@settings(max_examples=60, deadline=None)
@given(SAMPLES, EXPONENTS)
@example(np.array([1.0, 2.0, 3.0, 5.0, 8.0, 13.0, 21.0, 34.0]), -1000)
@example(np.array([1.0, 2.0, 3.0, 5.0, 8.0, 13.0, 21.0, 34.0]), 1000)
def test_mean_se_is_equivariant_to_scale(x, e):
    s = 2.0**e
    m, se, z = mean_se(x)
    ms, ses, zs = mean_se(x * s)
    assert np.isfinite([ms, ses]).all()
    assert ms == m * s and ses == se * s and zs == z  # exact: a power of two


@settings(max_examples=60, deadline=None)
@given(SAMPLES, st.floats(min_value=-1e6, max_value=1e6), EXPONENTS)
def test_paired_difference_is_invariant_to_a_common_shift_and_equivariant_to_scale(x, c, e):
    y = x[::-1].copy()
    base = paired_difference(x, y)
    shifted = paired_difference((x + c), (y + c))  # the shift cancels up to rounding
    assert abs(shifted.mean - base.mean) <= 1e-9 * (abs(c) + np.max(np.abs(x)))
    s = 2.0**e
    scaled = paired_difference(x * s, y * s)
    assert scaled.mean == base.mean * s and scaled.se == base.se * s and scaled.z == base.z


@settings(max_examples=60, deadline=None)
@given(SAMPLES, st.floats(min_value=-1e6, max_value=1e6), EXPONENTS, EXPONENTS)
def test_correlation_interval_is_invariant_to_shift_and_scale(x, c, ea, eb):
    y = np.sin(x) + 0.1 * x
    if np.ptp(y) <= 1e-6 * np.max(np.abs(y)):
        return
    base = correlation_interval(x, y)
    moved = correlation_interval((x + c) * 2.0**ea, y * 2.0**eb)
    assert np.isfinite(moved).all()
    np.testing.assert_allclose(moved, base, atol=1e-6 * (1 + abs(c) / np.ptp(x)))
    r, lo, hi = moved
    assert -1 <= lo <= r <= hi <= 1


@settings(max_examples=60, deadline=None)
@given(SAMPLES, EXPONENTS)
def test_paired_variance_test_is_invariant_to_a_common_scale(x, e):
    y = np.cos(x) * 3 + x[::-1] * 0.5
    if np.ptp(y) <= 1e-6 * np.max(np.abs(y)):
        return
    ratio, t = paired_variance_test(x, y)
    ratio_s, t_s = paired_variance_test(x * 2.0**e, y * 2.0**e)
    assert np.isfinite([ratio_s, t_s]).all()
    _rel(ratio_s, ratio)
    np.testing.assert_allclose(t_s, t, rtol=1e-9, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(SAMPLES, st.floats(min_value=-1e6, max_value=1e6), EXPONENTS)
def test_intraclass_and_lag1_are_invariant_to_shift_and_scale(x, c, e):
    groups = np.arange(x.size) % 3
    icc = intraclass_correlation(x, groups)
    ac = lag1_autocorrelation(x)
    s = 2.0**e
    assert intraclass_correlation(x * s, groups) == pytest.approx(icc, rel=1e-12, abs=1e-12)
    assert lag1_autocorrelation(x * s) == pytest.approx(ac, rel=1e-12, abs=1e-12)
    tol = 1e-7 * (1 + abs(c) / np.ptp(x))
    assert intraclass_correlation(x + c, groups) == pytest.approx(icc, abs=tol)
    assert lag1_autocorrelation(x + c) == pytest.approx(ac, abs=tol)


@settings(max_examples=40, deadline=None)
@given(
    # no magnitude below 1e-30: times 2**-900 it must stay a normal float (a subnormal
    # entry underflowed to 0 and made a varying column constant)
    arrays(
        np.float64,
        (12, 3),
        elements=st.floats(-1e3, 1e3, allow_nan=False).map(lambda v: 0.0 if abs(v) < 1e-30 else v),
    ),
    EXPONENTS,
)
def test_label_correlation_is_invariant_to_scale(X, e):
    y = np.where(np.arange(12) % 2 == 0, 1, -1)
    base = label_correlation(X, y)
    scaled = label_correlation(X * 2.0**e, y)
    np.testing.assert_array_equal(np.isnan(base), np.isnan(scaled))
    np.testing.assert_allclose(scaled, base, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e200, 1e300])
def test_values_far_from_one_are_not_refused_and_not_degenerate(scale):
    rng = np.random.default_rng(0)
    x = rng.normal(size=40)
    y = x + rng.normal(size=40)
    assert mean_se(x * scale).se > 0
    assert 0 < correlation_interval(x * scale, y)[0] < 1
    assert paired_variance_test(x * scale, y * scale)[0] > 0
    g = np.arange(40) % 4
    assert intraclass_correlation(x * scale, g) == pytest.approx(
        intraclass_correlation(x, g), rel=1e-9
    )
    assert lag1_autocorrelation(x * scale) == pytest.approx(lag1_autocorrelation(x), rel=1e-9)
    # tiny variation on a huge offset varies: not "constant"
    big = 1e300 + x * 1e290
    assert mean_se(big).se > 0
    assert lag1_autocorrelation(big) == pytest.approx(lag1_autocorrelation(x), abs=1e-6)


def test_ordinary_data_give_the_plain_formula_bit_for_bit():
    """The exact scaling changes no number the chapters publish."""
    rng = np.random.default_rng(3)
    a, b = rng.normal(0.2, 0.05, 200), rng.normal(0.21, 0.05, 200)
    d = a - b
    p = paired_difference(a, b)
    assert p.mean == float(d.mean()) and p.se == float(d.std(ddof=1) / np.sqrt(d.size))
    x, y = a, b
    ratio, t = paired_variance_test(x, y)
    assert ratio == float(x.var(ddof=1) / y.var(ddof=1))
    r = float(np.corrcoef(x + y, x - y)[0, 1])
    assert t == float(r * np.sqrt((x.size - 2) / max(1 - r * r, 1e-300)))


def test_correlation_interval_is_scipys():
    rng = np.random.default_rng(5)
    x = rng.normal(size=30)
    y = x + rng.normal(size=30)
    res = sps.pearsonr(x, y)
    ci = res.confidence_interval(0.9)
    r, lo, hi = correlation_interval(x, y, level=0.9)
    assert r == pytest.approx(res.statistic, abs=1e-15)
    assert (lo, hi) == pytest.approx((ci.low, ci.high), abs=1e-15)


def test_a_perfect_correlation_has_an_interval_holding_it():
    x = np.arange(10.0)
    r, lo, hi = correlation_interval(x, 3 * x + 1)
    assert lo <= r <= hi and r == pytest.approx(1.0)


def test_a_mean_beyond_the_largest_float_is_refused_by_name():
    with pytest.raises(ValueError, match="largest float"):
        mean_se(np.array([1.7e308, -1.7e308, 1.7e308]))


def test_power_of_two_scale():
    assert power_of_two_scale(np.array([3.0])) == 2.0
    assert power_of_two_scale(np.array([1.7e308])) == 2.0**1023
    assert power_of_two_scale(np.array([5e-324])) == 5e-324
    assert power_of_two_scale(np.zeros(3), np.array([])) == 1.0
