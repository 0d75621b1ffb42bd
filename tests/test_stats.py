"""cvbook.stats: each statistic the studies report, with its oracle."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats as scipy_stats

from cvbook.stats import (
    Difference,
    Paired,
    correlation_interval,
    mean_se,
    mean_se_by_column,
    newcombe_interval,
    paired_difference,
    paired_variance_test,
    proportion_difference,
)
from cvbook.validation import ArgumentTypeError


def test_paired_difference_and_correlation_interval():
    p = paired_difference([1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 0.0])
    assert p.mean == 2.5 and p.se == pytest.approx(np.std([1, 2, 3, 4], ddof=1) / 2)
    assert p.z == pytest.approx(2.5 / p.se)
    assert paired_difference([1.0, 1.0], [0.0, 0.0]).z == np.inf
    rng = np.random.default_rng(0)
    a = rng.normal(size=400)
    r, lo, hi = correlation_interval(a, a + rng.normal(size=400))
    assert lo < 1 / np.sqrt(2) < hi and lo < r < hi
    for bad in ([1.0, np.nan, 2.0, 3.0], [[1.0, 2.0]], "abc"):
        with pytest.raises(ValueError):
            correlation_interval(bad, [1.0, 2.0, 3.0, 4.0])
    with pytest.raises(ValueError, match="vary"):
        correlation_interval([1.0] * 5, [1.0, 2.0, 3.0, 4.0, 5.0])
    with pytest.raises(ValueError, match="level"):
        correlation_interval([1.0, 2, 3, 4], [2.0, 1, 4, 3], level=1.5)


def test_mean_se():
    rng = np.random.default_rng(17)
    x = rng.normal(0.3, 2.0, size=400)
    mean, se, z = mean_se(x)
    assert mean == pytest.approx(x.mean())
    assert se == pytest.approx(x.std(ddof=1) / 20)
    assert z == pytest.approx(mean / se)
    # z is scale-free and flips with the sign
    assert mean_se(-5 * x)[2] == pytest.approx(-z)
    assert tuple(mean_se([2.0, 2.0])) == (2.0, 0.0, np.inf)
    assert mean_se([0.0, 0.0]).z == 0.0  # one rule for se == 0 (cvbook.stats)


@pytest.mark.parametrize(
    "values, match",
    [
        ([1.0], "at least 2"),
        ([[1.0, 2.0], [3.0, 4.0]], "1-d"),
        ([1.0, np.nan], "finite"),
        (["a", "b"], "values must hold numbers"),
        ([1 + 1j, 2], "values must be real"),
    ],
)
def test_mean_se_refuses(values, match):
    with pytest.raises(ValueError, match=match):
        mean_se(values)


def test_mean_se_small():
    mean, se, z = mean_se(np.array([1.0, 2.0, 3.0]))
    assert (mean, se, z) == pytest.approx((2.0, 1 / np.sqrt(3), 2 * np.sqrt(3)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert mean_se([0.0, 0.0])[2] == 0.0
    for bad, match in [([1.0], "at least 2"), ([[1.0, 2.0]], "1-d"), ([1.0, np.nan], "finite")]:
        with pytest.raises(ValueError, match=match):
            mean_se(bad)


def test_correlation_interval_matches_scipy():
    """Oracle: scipy's Fisher-z interval of pearsonr gives the same numbers."""
    rng = np.random.default_rng(4)
    for n in (5, 40, 400):
        a = rng.normal(size=n)
        b = 0.5 * a + rng.normal(size=n)
        r, lo, hi = correlation_interval(a, b, level=0.9)
        res = scipy_stats.pearsonr(a, b)
        ci = res.confidence_interval(confidence_level=0.9)
        assert (r, lo, hi) == pytest.approx((res.statistic, ci.low, ci.high), rel=1e-12, abs=1e-12)


def test_paired_unpacks_and_indexes():
    p = paired_difference([0.3, 0.5, 0.4], [0.1, 0.2, 0.3])
    assert isinstance(p, Paired)
    mean, se, z = p
    assert (p[0], p[1], p[2]) == (mean, se, z) == (p.mean, p.se, p.z)
    assert paired_difference([1.0, 1.0], [0.0, 0.0]).z == np.inf
    assert paired_difference([-1.0, -1.0], [0.0, 0.0]).z == -np.inf
    assert paired_difference([1.0, 1.0], [1.0, 1.0]).z == 0.0


def test_paired_variance_test_oracle():
    """Pitman-Morgan: t of corr(x + y, x - y) with R - 2 degrees of freedom."""
    rng = np.random.default_rng(2)
    y = rng.normal(size=60)
    x = y + rng.normal(scale=1.5, size=60)
    ratio, t = paired_variance_test(x, y)
    r = scipy_stats.pearsonr(x + y, x - y).statistic
    assert ratio == pytest.approx(x.var(ddof=1) / y.var(ddof=1), rel=1e-12)
    assert t == pytest.approx(r * np.sqrt(58 / (1 - r * r)), rel=1e-10)
    with pytest.raises(ValueError, match="at least 3"):
        paired_variance_test([1.0, 2.0], [1.0, 2.0])


def test_mean_se_by_column_is_mean_se_of_each_column():
    rng = np.random.default_rng(0)
    values = rng.normal(size=(30, 4))
    mean, se = mean_se_by_column(values)
    for j in range(4):
        p = mean_se(values[:, j])
        assert mean[j] == pytest.approx(p.mean, rel=1e-14) and se[j] == pytest.approx(p.se)
    np.testing.assert_array_equal(se, values.std(axis=0, ddof=1) / np.sqrt(30))
    for bad in ([1.0, 2.0], [[1.0, 2.0]], [[1.0, np.nan], [2.0, 3.0]]):
        with pytest.raises(ValueError, match="values"):
            mean_se_by_column(bad)


# --- two independent proportions ------------------------------------------------------------


def _counts(rng, size):
    """Random (k_a, n_a, k_b, n_b), neither proportion pair at 0 or 1 on both sides."""
    rows = []
    while len(rows) < size:
        n_a, n_b = (int(v) for v in rng.integers(1, 5000, size=2))
        k_a, k_b = int(rng.integers(0, n_a + 1)), int(rng.integers(0, n_b + 1))
        if 0 < k_a < n_a or 0 < k_b < n_b:
            rows.append((k_a, n_a, k_b, n_b))
    return rows


def test_proportion_difference_matches_statsmodels_wald():
    """Oracle: statsmodels' two independent proportions, unpooled (Wald) variance: the same
    difference, variance, statistic and 95 % interval."""
    smp = pytest.importorskip("statsmodels.stats.proportion")
    z975 = scipy_stats.norm.isf(0.025)
    for k_a, n_a, k_b, n_b in _counts(np.random.default_rng(32), 300):
        d = proportion_difference(k_a, n_a, k_b, n_b)
        ref = smp.test_proportions_2indep(
            k_a, n_a, k_b, n_b, method="wald", compare="diff", correction=False
        )
        lo, hi = smp.confint_proportions_2indep(k_a, n_a, k_b, n_b, method="wald", compare="diff")
        assert d.mean == pytest.approx(ref.diff, rel=1e-12, abs=1e-15)
        assert d.se**2 == pytest.approx(ref.variance, rel=1e-12)
        assert d.z == pytest.approx(ref.statistic, rel=1e-10, abs=1e-12)
        assert (d.mean - z975 * d.se, d.mean + z975 * d.se) == pytest.approx((lo, hi), abs=1e-12)


def test_proportion_difference_is_the_hand_formula_bit_for_bit():
    """The formula chapter 10 wrote by hand, to the last bit (the door moved it)."""
    for k_a, n_a, k_b, n_b in [*_counts(np.random.default_rng(10), 300), (0, 7, 7, 7)]:
        ra, rb = k_a / n_a, k_b / n_b
        se = float(np.sqrt(ra * (1 - ra) / n_a + rb * (1 - rb) / n_b))
        d = proportion_difference(np.int64(k_a), n_a, k_b, np.int64(n_b))
        assert (d.mean, d.se) == (ra - rb, se)
        assert type(d.mean) is float and type(d.se) is float


def test_proportion_difference_zero_se_and_what_claims_read():
    from cvbook.claims import Claims

    assert tuple(proportion_difference(0, 5, 0, 9)) == (0.0, 0.0, 0.0)
    assert tuple(proportion_difference(5, 5, 0, 9)) == (1.0, 0.0, np.inf)
    d = proportion_difference(60, 100, 20, 100)
    assert isinstance(d, Difference) and not isinstance(d, Paired)
    mean, se, z = d
    assert (mean, se, z) == (d[0], d[1], d[2]) and z == pytest.approx(mean / se)
    claim = Claims("ch0", strict=False).greater(
        "ch0_a_higher", "A's rate is higher", target="p_a - p_b", estimate=d, value=0.0
    )
    assert (claim.estimate, claim.se, claim.verdict) == (mean, se, "shown")
    assert isinstance(paired_difference([1.0, 2.0], [0.0, 0.0]), Difference)


@pytest.mark.parametrize(
    "args, error, message",
    [
        ((5, 4, 0, 10), ValueError, "k_a must be <= n_a=4, got 5"),
        ((0, 4, 11, 10), ValueError, "k_b must be <= n_b=10, got 11"),
        ((-1, 4, 0, 10), ValueError, "k_a must be >= 0, got -1"),
        ((0, 0, 0, 10), ValueError, "n_a must be >= 1, got 0"),
        ((1, 4, 0.5, 10), ArgumentTypeError, "k_b must be an integer, got 0.5"),
        ((1, 4, 0, 10.0), ArgumentTypeError, "n_b must be an integer, got 10.0"),
        ((True, 4, 0, 10), ArgumentTypeError, "k_a must be an integer, got True"),
        ((1, "4", 0, 10), ArgumentTypeError, "n_a must be an integer, got '4'"),
        ((0, 2**63, 0, 10), ValueError, f"n_a must be <= {2**63 - 1}, got {2**63}"),
    ],
)
def test_proportion_difference_refuses_bad_counts_by_name(args, error, message):
    with pytest.raises(ValueError) as info:
        proportion_difference(*args)
    assert type(info.value) is error
    assert str(info.value) == message


def test_newcombe_interval_matches_statsmodels_newcomb():
    """Oracle: statsmodels' ``confint_proportions_2indep(method="newcomb")``, on random
    counts and on every count of samples up to 6 (zeros and full samples included)."""
    smp = pytest.importorskip("statsmodels.stats.proportion")
    small = [
        (k_a, n_a, k_b, n_b)
        for n_a in range(1, 7)
        for n_b in range(1, 7)
        for k_a in range(n_a + 1)
        for k_b in range(n_b + 1)
    ]
    z4_alpha = float(2 * scipy_stats.norm.sf(4))
    for k_a, n_a, k_b, n_b in [*_counts(np.random.default_rng(7), 200), *small]:
        for alpha in (0.05, z4_alpha):
            got = newcombe_interval(k_a, n_a, k_b, n_b, alpha=alpha)
            ref = smp.confint_proportions_2indep(
                k_a, n_a, k_b, n_b, method="newcomb", compare="diff", alpha=alpha
            )
            assert got == pytest.approx(tuple(map(float, ref)), abs=1e-12)
            assert -1.0 <= got[0] <= k_a / n_a - k_b / n_b <= got[1] <= 1.0


def test_newcombe_interval_does_not_show_what_the_wald_se_shows_at_small_counts():
    """Counts (5, 6, 0, 6): the Wald z is 5.5 (shown at z = 4) while Fisher's one-sided p is
    7.6e-3; Newcombe's interval as wide as ±4 SE holds 0, and the claim is not resolved."""
    from cvbook.claims import Claims

    z4_alpha = float(2 * scipy_stats.norm.sf(4))
    claims = Claims("ch0", strict=False)
    wald = claims.greater("ch0_wald", "A > B", target="p_a - p_b",
                          estimate=proportion_difference(5, 6, 0, 6))  # fmt: skip
    assert wald.verdict == "shown" and wald.z == pytest.approx(5.48, abs=0.01)
    lo, hi = newcombe_interval(5, 6, 0, 6, alpha=z4_alpha)
    assert lo < 0 < hi
    newc = claims.greater("ch0_newc", "A > B", target="p_a - p_b", estimate=5 / 6,
                          interval=(lo, hi))  # fmt: skip
    assert newc.verdict == "not resolved"


@pytest.mark.parametrize(
    "args, kwargs, error, message",
    [
        ((5, 4, 0, 10), {}, ValueError, "k_a must be <= n_a=4, got 5"),
        ((0, 0, 0, 10), {}, ValueError, "n_a must be >= 1, got 0"),
        ((1, 4, 0.5, 10), {}, ArgumentTypeError, "k_b must be an integer, got 0.5"),
        (
            (1, 4, 0, 10),
            {"alpha": 0.0},
            ValueError,
            "alpha must lie strictly between 0 and 1, got 0.0",
        ),
        ((1, 4, 0, 10), {"alpha": "0.05"}, ArgumentTypeError, "alpha must be a real number"),
    ],
)
def test_newcombe_interval_refuses_bad_counts_and_levels_by_name(args, kwargs, error, message):
    with pytest.raises(ValueError) as info:
        newcombe_interval(*args, **kwargs)
    assert type(info.value) is error
    assert str(info.value).startswith(message)


@pytest.mark.parametrize("value", [0.1, 0.7, 1 / 3, -0.46, 1e-300])
@pytest.mark.parametrize("n", [3, 4, 7, 14])
def test_equal_differences_have_an_se_of_exactly_zero(value, n):
    """Referee C: np.full(3, 0.1) gave an SE of 3.9e-17 (the rounding of mean and std), a
    z of 1e16, and a claim shown from three equal differences; the claims' SE-0 rule needs
    a 0."""
    from cvbook.claims import Claims

    d = paired_difference(np.full(n, value), 0.5)
    assert d.se == 0.0 and mean_se(np.full(n, value)).se == 0.0
    assert mean_se_by_column(np.full((n, 2), value))[1].tolist() == [0.0, 0.0]
    claims = Claims("ch0", strict=False)
    claims.less("ch0_eq", "equal", target="0.5", estimate=d, value=0.6)
    assert claims["ch0_eq"].verdict == "not resolved"
