"""cvbook.claims: verdicts of the five kinds, strict runs, published numbers, bad input."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cvbook.book import clear_published, published
from cvbook.claims import CLAIMS_MIME, VERDICTS, ClaimError, Claims
from cvbook.stats import mean_se

finite = st.floats(-1e3, 1e3, allow_nan=False)
positive = st.floats(1e-6, 1e3, allow_nan=False)


@pytest.fixture(autouse=True)
def _fresh_numbers():
    clear_published()
    yield
    clear_published()


@pytest.mark.parametrize(
    ("kind", "estimate", "se", "verdict"),
    [
        ("greater", 0.05, 0.01, "shown"),  # z = 5
        ("greater", 0.03, 0.01, "not resolved"),  # z = 3 < 4
        ("greater", -0.05, 0.01, "contradicted"),
        ("less", -0.05, 0.01, "shown"),
        ("less", 0.0, 0.01, "not resolved"),
        ("less", 0.05, 0.01, "contradicted"),
    ],
)
def test_directional_verdicts(kind, estimate, se, verdict):
    claims = Claims("ch0", strict=False)
    c = getattr(claims, kind)("ch0_c", "a sentence", target="L(f_S)", estimate=estimate, se=se)
    assert c.verdict == verdict
    assert published()["ch0_c_verdict"] == verdict


@pytest.mark.parametrize(
    ("estimate", "se", "margin", "verdict"),
    [
        (0.001, 0.001, 0.01, "shown"),  # [-0.003, 0.005] inside ±0.01
        (0.004, 0.003, 0.01, "not resolved"),  # [-0.008, 0.016] straddles +0.01
        (0.05, 0.001, 0.01, "contradicted"),  # wholly above +0.01
        (-0.05, 0.001, 0.01, "contradicted"),
    ],
)
def test_within_verdicts(estimate, se, margin, verdict):
    c = Claims("ch0", strict=False).within(
        "ch0_eq",
        "no difference within the margin",
        target="Err_n",
        estimate=estimate,
        se=se,
        margin=margin,
    )
    assert c.verdict == verdict


def test_within_around_a_center():
    claims = Claims("ch0", strict=False)
    c = claims.within("ch0_c", "s", target="t", estimate=0.95, se=0.001, margin=0.01, center=0.95)
    assert c.verdict == "shown"
    assert c.test.startswith("within ±0.01 of 0.95")


def test_covers_and_excludes_read_the_given_interval():
    claims = Claims("ch6", strict=False)
    assert (
        claims.covers(
            "ch6_a", "s", target="L(f_S)", estimate=0.94, interval=(0.93, 0.96), level=0.95
        ).verdict
        == "shown"
    )
    assert (
        claims.covers(
            "ch6_b", "s", target="L(f_S)", estimate=0.70, interval=(0.65, 0.75), level=0.95
        ).verdict
        == "contradicted"
    )
    assert (
        claims.excludes(
            "ch6_c", "s", target="L(f_S)", estimate=0.70, interval=(0.65, 0.75), level=0.95
        ).verdict
        == "shown"
    )
    assert (
        claims.excludes(
            "ch6_d", "s", target="L(f_S)", estimate=0.94, interval=(0.93, 0.96), level=0.95
        ).verdict
        == "not resolved"
    )
    assert published()["ch6_c"] == "0.700 [0.650, 0.750]"
    assert published()["ch6_c_z"] == "n/a"  # an interval has no z; the name is still there


def test_a_paired_difference_is_an_estimate():
    p = mean_se([0.1, 0.12, 0.11, 0.13, 0.09])
    c = Claims("ch3", strict=True).greater("ch3_p", "s", target="t", estimate=p)
    assert (c.estimate, c.se) == (p.mean, p.se)
    assert published()["ch3_p_z"] == f"{p.z:+.1f}"


def test_strict_stops_at_the_first_claim_not_shown_and_names_it():
    claims = Claims("ch9", strict=True)
    with pytest.raises(ClaimError, match=r"ch9_bias \(\.632 is biased low; target Err_m\)"):
        claims.less("ch9_bias", ".632 is biased low", target="Err_m", estimate=-0.01, se=0.005)
    with pytest.raises(AssertionError):  # a ClaimError fails a run as an assert would
        claims.within("ch9_eq", "s", target="t", estimate=0.0, se=1.0, margin=0.5)


def test_a_relaxed_run_records_every_verdict_and_shows_the_table(capsys, monkeypatch):
    pytest.importorskip("IPython")  # a kernel's display; the minimum-versions env has none
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj, raw: shown.append(obj))
    claims = Claims("ch2", strict=False)
    claims.greater("ch2_a", "a > 0", target="L(f_S)", estimate=1.0, se=0.1)
    claims.greater("ch2_b", "b > 0", target="L(f_S)", estimate=0.1, se=0.1)
    claims.greater("ch2_a", "a > 0", target="L(f_S)", estimate=2.0, se=0.1)  # a cell re-run
    claims.show()
    assert len(claims) == 2 and claims["ch2_a"].estimate == 2.0
    assert published()["ch2_claims_shown"] == "1"
    assert published()["ch2_claims_total"] == "2"
    (bundle,) = shown
    assert "| `ch2_b` | b > 0 | L(f_S) |" in bundle["text/markdown"]
    record = json.loads(json.dumps(bundle[CLAIMS_MIME]))  # JSON-ready
    assert record["strict"] is False
    assert [c["verdict"] for c in record["claims"]] == ["shown", "not resolved"]


def test_an_unknown_claim_is_named():
    with pytest.raises(KeyError, match="no claim named 'ch1_x'"):
        Claims("ch1", strict=False)["ch1_x"]


@given(estimate=finite, se=positive, value=finite, z=st.floats(0.5, 10))
def test_directional_verdicts_are_mirror_images(estimate, se, value, z):
    claims = Claims("ch0", strict=False)
    g = claims.greater("ch0_g", "s", target="t", estimate=estimate, se=se, value=value, z=z)
    m = claims.less("ch0_m", "s", target="t", estimate=-estimate, se=se, value=-value, z=z)
    assert g.verdict == m.verdict
    assert g.verdict in VERDICTS
    # shown exactly when the estimate lies more than z standard errors above the line
    lo = estimate - z * se
    assert (g.verdict == "shown") == (lo > value)


@given(estimate=finite, se=positive, margin=positive)
def test_within_is_shown_only_when_the_interval_fits(estimate, se, margin):
    c = Claims("ch0", strict=False).within(
        "ch0_w", "s", target="t", estimate=estimate, se=se, margin=margin
    )
    fits = abs(estimate) + 4 * se <= margin * (1 + 1e-12)
    if c.verdict == "shown":
        assert abs(estimate) + 4 * se <= margin * (1 + 1e-9) + 1e-12
    if fits and not math.isclose(abs(estimate) + 4 * se, margin):
        assert c.verdict == "shown"


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"id": "ch1_x", "estimate": 0.1}, TypeError, "se or its interval"),
        ({"id": "ch1_x", "estimate": 0.1, "se": 0.1, "interval": (0, 1)}, TypeError, "one of"),
        ({"id": "x", "estimate": 0.1, "se": 0.1}, ValueError, "starting with 'ch1_'"),
        ({"id": "ch1 x", "estimate": 0.1, "se": 0.1}, ValueError, "identifier"),
        ({"id": "ch1_x", "estimate": float("nan"), "se": 0.1}, ValueError, "estimate"),
        ({"id": "ch1_x", "estimate": "0.1", "se": 0.1}, TypeError, "estimate"),
        ({"id": "ch1_x", "estimate": 0.1, "se": -1.0}, ValueError, "se must be >= 0"),
        ({"id": "ch1_x", "estimate": 0.1, "se": 0.1, "z": 0}, ValueError, "z must be > 0"),
        ({"id": "ch1_x", "estimate": 0.1, "interval": (0.2, 0.1)}, ValueError, "low <= high"),
        ({"id": "ch1_x", "estimate": 0.1, "interval": (0.0,)}, TypeError, "pair"),
        ({"id": "ch1_x", "estimate": 0.1, "interval": (0.0, 1), "z": 2}, TypeError, "z applies"),
        ({"id": "ch1_x", "sentence": "", "estimate": 0.1, "se": 0.1}, TypeError, "sentence"),
        ({"id": "ch1_x", "target": None, "estimate": 0.1, "se": 0.1}, TypeError, "target"),
    ],
)
def test_bad_claims_are_refused_by_name(kwargs, error, match):
    args = {"sentence": "s", "target": "t", **kwargs}
    with pytest.raises(error, match=match):
        Claims("ch1", strict=False).greater(args.pop("id"), args.pop("sentence"), **args)


def test_bad_margins_and_chapters_are_refused():
    with pytest.raises(ValueError, match="margin must be > 0"):
        Claims("ch1", strict=False).within("ch1_x", "s", target="t", estimate=0, se=1, margin=0)
    with pytest.raises(ValueError, match="chapter must be a prefix"):
        Claims("chapter4", strict=True)
    with pytest.raises(TypeError, match="strict must be True or False"):
        Claims("ch4", strict=1)


def test_a_covers_claim_with_a_margin_needs_a_narrow_interval():
    claims = Claims("ch6", strict=False)
    wide = claims.covers(
        "ch6_w", "s", target="t", estimate=0.9, interval=(0.5, 1.0), level=0.95, margin=0.03
    )
    narrow = claims.covers(
        "ch6_n", "s", target="t", estimate=0.94, interval=(0.93, 0.96), level=0.95, margin=0.03
    )
    missed = claims.covers(
        "ch6_m", "s", target="t", estimate=0.80, interval=(0.75, 0.85), level=0.95, margin=0.03
    )
    assert (wide.verdict, narrow.verdict, missed.verdict) == (
        "not resolved",
        "shown",
        "contradicted",
    )
    assert narrow.test == "covers 0.95, interval within ±0.03"
    # without a margin, the same wide interval "shows" it: the weaker claim the docs warn of
    assert (
        claims.covers(
            "ch6_x", "s", target="t", estimate=0.9, interval=(0.5, 1.0), level=0.95
        ).verdict
        == "shown"
    )


def test_a_skipped_claim_is_not_made_publishes_na_and_stands_in_the_table(monkeypatch):
    pytest.importorskip("IPython")
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj, raw: shown.append(obj))
    claims = Claims("ch1", strict=False)
    c = claims.skip("ch1_sd", "the spread is binomial", target="√(L(1−L)/m)",
                    reason="a true risk of 0 leaves every test error at 0")  # fmt: skip
    assert c.verdict == "not made" and c.verdict in VERDICTS and c.z is None
    assert c.numbers() == "n/a" and c.test.startswith("not made: a true risk of 0")
    assert published()["ch1_sd"] == "n/a" and published()["ch1_sd_z"] == "n/a"
    assert published()["ch1_sd_verdict"] == "not made"
    claims.greater("ch1_a", "a > 0", target="L(f_S)", estimate=1.0, se=0.1)
    claims.show()
    assert published()["ch1_claims_shown"] == "1" and published()["ch1_claims_total"] == "2"
    (bundle,) = shown
    assert (
        "| `ch1_sd` | the spread is binomial | √(L(1−L)/m) | n/a | not made: a true"
        in (bundle["text/markdown"])
    )
    record = json.loads(json.dumps(bundle[CLAIMS_MIME], allow_nan=False))  # no NaN leaks
    assert record["claims"][0]["verdict"] == "not made"
    assert record["claims"][0]["reason"].startswith("a true risk of 0")


def test_a_strict_run_stops_on_a_claim_not_made_and_names_its_reason():
    claims = Claims("ch3", strict=True)
    with pytest.raises(ClaimError, match=r"ch3_spread .*not made, a constant column"):
        claims.skip("ch3_spread", "the spread grows", target="sd ratio",
                    reason="a constant column has no standard deviation")  # fmt: skip


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"reason": ""}, TypeError, "reason must be a non-empty string"),
        ({"reason": None}, TypeError, "reason must be a non-empty string"),
        ({"reason": "r", "target": " "}, TypeError, "target must be"),
    ],
)
def test_a_skip_without_a_reason_is_refused(kwargs, error, match):
    args = {"target": "t", **kwargs}
    with pytest.raises(error, match=match):
        Claims("ch1", strict=False).skip("ch1_x", "s", **args)
    with pytest.raises(ValueError, match="id must be an identifier"):
        Claims("ch1", strict=False).skip("ch2_x", "s", target="t", reason="r")


def test_equal_paired_differences_resolve_only_from_the_sign_tests_n():
    # SE 0: n equal differences show a claim only from sign_test_n(z) = 15 on (z = 4)
    from cvbook.claims import sign_test_n
    from cvbook.stats import paired_difference

    assert sign_test_n() == 15
    few, many = paired_difference(np.ones(14)), paired_difference(np.ones(15))
    claims = Claims("ch99", strict=False)
    assert claims.greater("ch99_few", "A beats B", target="t", estimate=few).verdict == (
        "not resolved"
    )
    assert claims.greater("ch99_many", "A beats B", target="t", estimate=many).verdict == "shown"
    assert claims.less("ch99_less", "B beats A", target="t", estimate=few).verdict == (
        "not resolved"
    )
    zero = paired_difference(np.zeros(3))
    within = claims.within("ch99_same", "A is B", target="t", estimate=zero, margin=0.01)
    assert within.verdict == "not resolved"
    assert "below the sign test's 15" in claims["ch99_few"].test
    assert claims["ch99_many"].note is None and "note" not in claims["ch99_many"].record()


@pytest.mark.parametrize(
    ("kind", "estimate", "extra"),
    [
        ("greater", "Difference(0.3, 0.0)", {}),
        ("greater", "proportion_difference(1, 1, 0, 1)", {}),
        ("less", "Difference(-1.0, 0.0)", {}),
        ("within", "Difference(0.0, 0.0)", {"margin": 0.01}),
        ("greater", "0.3", {"se": 0.0}),
        ("less", "-0.3", {"se": 0.0}),
        ("within", "0.0", {"se": 0.0, "margin": 0.01}),
    ],
)
def test_an_se_of_zero_without_a_count_resolves_nothing(kind, estimate, extra):
    """A Difference or a plain float with SE 0 has no count for the sign test: the claim is
    not resolved (a strict run stops on it), and its test says why."""
    from cvbook.stats import Difference, proportion_difference

    est = eval(estimate, {"Difference": Difference, "proportion_difference": proportion_difference})
    c = getattr(Claims("ch99", strict=False), kind)(
        "ch99_c", "s", target="t", estimate=est, **extra
    )
    assert c.verdict == "not resolved"
    assert published()["ch99_c_verdict"] == "not resolved"
    assert "SE 0 and no count of equal differences" in c.test
    assert c.record()["note"] == c.note
    with pytest.raises(ClaimError, match="SE 0 and no count"):
        getattr(Claims("ch99", strict=True), kind)("ch99_c", "s", target="t", estimate=est, **extra)


def test_a_difference_with_an_se_is_refused_by_its_own_name():
    from cvbook.stats import Difference, paired_difference

    claims = Claims("ch0", strict=False)
    with pytest.raises(TypeError, match="not with a Difference"):
        claims.greater("ch0_c", "s", target="t", estimate=Difference(0.3, 0.1), se=0.1)
    with pytest.raises(TypeError, match="not with a Paired"):
        claims.greater("ch0_c", "s", target="t", estimate=paired_difference([1.0, 2.0]), se=0.1)


def test_a_claim_publishes_the_same_names_made_or_not_with_an_se_or_an_interval():
    """A re-run compares its published names with another run's (tests/test_papermill.py):
    a claim on an interval, made in one run and not made in another, must not add or
    drop ``<id>_z`` (chapter 10's seed run published it only where the claim was skipped)."""
    names = {}
    for how in ("interval", "se", "skip"):
        clear_published()
        claims = Claims("ch0", strict=False)
        if how == "interval":
            claims.greater(
                "ch0_c",
                "a rate above 0.7",
                target="t",
                estimate=0.9,
                interval=(0.8, 1.0),
                value=0.7,
            )
        elif how == "se":
            claims.greater("ch0_c", "a mean above 0", target="t", estimate=1.0, se=0.1, value=0.0)
        else:
            claims.skip("ch0_c", "a rate above 0.7", target="t", reason="no data")
        names[how] = set(published())
    clear_published()
    assert (
        names["interval"] == names["se"] == names["skip"] == {"ch0_c", "ch0_c_z", "ch0_c_verdict"}
    )


def test_a_claim_with_no_finite_z_publishes_n_a():
    """All paired differences equal (SE 0): the verdict says so and the prose's z reads
    "n/a", never "∞" (chapter 8 worked around the "∞" by hand)."""
    from cvbook.claims import Claims
    from cvbook.stats import Paired

    claims = Claims("ch0", strict=False)
    claims.greater("ch0_flat", "all equal", target="0", estimate=Paired(0.5, 0.0, n=4), value=0.0)
    assert published()["ch0_flat_z"] == "n/a"
    assert claims["ch0_flat"].verdict == "not resolved"
