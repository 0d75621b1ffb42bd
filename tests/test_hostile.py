"""The package under hostile input (issue 13), for bounds, datasets.synthetic, simulation,
plotting and provenance.

Three classes of defect, each tested beyond its example:

* silent wrong answers -- a bad input that used to give a number, now a right number or a
  named error;
* unclear errors -- a bad argument that used to fail deep inside numpy, scipy or joblib,
  now an error at the door whose message names the argument;
* seeds -- every ``random_state`` accepts the five kinds of the seed rule (None, int,
  Generator, RandomState, SeedSequence) and refuses the rest by name.

Only public functions are imported here, so that each case can also be run against an
older version of the package (every case marked ``issue`` fails there).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import DataConversionWarning
from sklearn.linear_model import LogisticRegression

from cvbook.bounds import (
    clopper_pearson_coverage,
    clopper_pearson_interval,
    clopper_pearson_upper,
    clopper_pearson_upper_by_inversion,
    error_rate_bound,
)
from cvbook.datasets.synthetic import (
    LinearGaussianRegression,
    Ringnorm,
    TwoGaussians,
    Twonorm,
    monte_carlo_risk,
)
from cvbook.plotting import mark_truth, mean_std, plot_coverage, plot_folds, plot_slack_vs_n
from cvbook.provenance import atomic_write, atomic_write_text
from cvbook.simulation import repeat, saved_repetitions, spawn_generators


def _closed_form_k0(n: int, delta: float) -> float:
    """Clopper--Pearson upper bound at zero errors: 1 - delta**(1/n), without cancellation."""
    return -math.expm1(math.log(delta) / n)


@pytest.fixture
def ax():
    fig, axes = plt.subplots()
    yield axes
    plt.close(fig)


# =========================================================================================
# 1. Silent wrong answers
# =========================================================================================

# -- Clopper--Pearson at small delta (issue example: 1.0 at delta = 1e-17) ----------------


@pytest.mark.parametrize("n", [1, 2, 10, 1000, 10**6])
@pytest.mark.parametrize("delta", [1.8e-16, 1e-17, 1e-20, 1e-50, 1e-100, 1e-200, 1e-300])
def test_issue_cp_upper_is_exact_at_small_delta(n, delta):
    assert clopper_pearson_upper(0, n, delta) == pytest.approx(
        _closed_form_k0(n, delta), rel=1e-12, abs=0
    )


@pytest.mark.parametrize("n", [10, 1000])
@pytest.mark.parametrize("alpha", [1e-17, 1e-100, 1e-300])
def test_cp_interval_upper_end_is_exact_at_small_alpha(n, alpha):
    _, hi = clopper_pearson_interval(0, n, alpha)
    assert hi == pytest.approx(_closed_form_k0(n, alpha / 2), rel=1e-12)


@pytest.mark.parametrize(
    "k, n, delta",
    [(3, 50, 1e-17), (10, 100, 1e-40), (1, 500, 1e-300), (37, 171, 1e-280), (5, 1000, 1e-290)],
)
def test_cp_upper_at_small_delta_solves_the_binomial_equation(k, n, delta):
    """Away from k = 0 the oracle is the defining equation P(Bin(n, p) <= k) = delta."""
    p = clopper_pearson_upper(k, n, delta)
    assert p < 1.0
    assert _exact_log_binom_cdf(k, n, p) == pytest.approx(math.log(delta), rel=1e-11)


def _exact_log_binom_cdf(k: int, n: int, p: float) -> float:
    """log P(Binomial(n, p) <= k) in exact rational arithmetic (scipy's loses digits here)."""
    q = Fraction(p)
    total = sum(math.comb(n, j) * q**j * (1 - q) ** (n - j) for j in range(k + 1))
    return math.log(total.numerator) - math.log(total.denominator)


@pytest.mark.parametrize("k, n, delta", [(1, 5, 1e-300), (1, 3, 1e-200), (2, 4, 1e-290)])
def test_cp_upper_is_never_nan(k, n, delta):
    """scipy's beta.isf returns NaN here (the exact bound is within 1e-60 of 1)."""
    assert clopper_pearson_upper(k, n, delta) == 1.0
    assert clopper_pearson_interval(k, n, 2 * delta)[1] == 1.0


@pytest.mark.parametrize("n", [1, 10, 1000])
@pytest.mark.parametrize("alpha", [1e-17, 1e-100, 1e-280, 1e-300])
def test_cp_interval_lower_end_is_exact_at_small_alpha(n, alpha):
    """At k = n the lower end solves p**n = alpha / 2."""
    lo, _ = clopper_pearson_interval(n, n, alpha)
    assert lo == pytest.approx(math.exp(math.log(alpha / 2) / n), rel=1e-11)


def test_cp_vectorised_upper_is_exact_at_small_delta():
    deltas = np.array([1e-17, 1e-100, 1e-300])
    got = clopper_pearson_upper(0, 1000, deltas)
    np.testing.assert_allclose(got, [_closed_form_k0(1000, d) for d in deltas], rtol=1e-12)


# -- labels as a column vector, 2-d labels ------------------------------------------------


def test_issue_error_rate_bound_flattens_a_column_of_labels_with_a_warning():
    y = np.array([1, -1, 1, 1, -1, 1, -1, -1])
    p = np.array([1, -1, -1, 1, -1, 1, 1, -1])
    with pytest.warns(DataConversionWarning, match="y_true is a column vector"):
        got = error_rate_bound(y[:, None], p)
    assert got == error_rate_bound(y, p) == (0.25, clopper_pearson_upper(2, 8))
    with pytest.warns(DataConversionWarning, match="y_pred"):
        assert error_rate_bound(y, p[:, None]) == got


def test_issue_error_rate_bound_accepts_multiclass_labels():
    """The 0-1 loss counts mistakes; it needs no binary labels."""
    err, up = error_rate_bound([0, 1, 2, 3, 2], [0, 1, 2, 3, 1], delta=0.05)
    assert err == 0.2 and up == clopper_pearson_upper(1, 5, 0.05)


def test_issue_error_rate_bound_refuses_a_list_of_deltas_instead_of_returning_an_array():
    with pytest.raises(ValueError, match="delta must be a real number"):
        error_rate_bound([0, 1], [0, 1], delta=[0.05, 0.1])


# -- complex input cast to real -----------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: clopper_pearson_upper(np.array([3 + 0j]), 10),
        lambda: clopper_pearson_upper(3, np.array([10 + 1j])),
        lambda: clopper_pearson_upper(3, 10, delta=np.array([0.05 + 0.5j])),
        lambda: clopper_pearson_interval(np.array([1 + 0j]), 10),
        lambda: error_rate_bound(np.array([1 + 1j, 0]), np.array([1, 0])),
        lambda: mean_std(np.array([0.1 + 1j, 0.2])),
        lambda: TwoGaussians().linear_rule_risk(np.array([1 + 1j, 0])),
        lambda: Ringnorm(dim=2).bayes_predict(np.array([[1 + 1j, 0]])),
    ],
    ids=["n_errors", "n", "delta", "interval", "labels", "mean_std", "w", "X"],
)
def test_issue_complex_input_is_refused_not_cast(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the old code's ComplexWarning would fail too
        with pytest.raises(TypeError, match="must be real"):
            call()


# -- linear rules: b = nan, huge w, a matrix for w ----------------------------------------

LINEAR = [TwoGaussians(dim=2), Twonorm(dim=2), LinearGaussianRegression(dim=2)]


@pytest.mark.parametrize("dist", LINEAR, ids=lambda d: type(d).__name__)
@pytest.mark.parametrize(
    "b, match",
    [
        (np.nan, "b must be a finite number"),
        (np.inf, "b must be a finite number"),
        ("0", "b must be a real number"),
        ([0.0, 1.0], "b must be a real number"),
        (1j, "b must be a real number"),
    ],
)
def test_issue_linear_rule_risk_refuses_a_bad_intercept(dist, b, match):
    with pytest.raises(ValueError, match=match):
        dist.linear_rule_risk([1.0, 0.0], b=b)


@pytest.mark.parametrize("dist", LINEAR[:2], ids=lambda d: type(d).__name__)
@pytest.mark.parametrize("scale", [1e-200, 1e-100, 1e100, 1e200, 1e300])
def test_linear_rule_risk_does_not_depend_on_the_scale_of_the_rule(dist, scale):
    """sign(c w @ x + c b) is the rule sign(w @ x + b): the old norm overflowed to inf."""
    w, b = np.array([1.0, 0.5]), 0.3
    assert dist.linear_rule_risk(scale * w, scale * b) == pytest.approx(
        dist.linear_rule_risk(w, b), rel=1e-12
    )


@pytest.mark.parametrize("w", [np.ones((2, 2)), np.ones((1, 1, 4))])
def test_linear_rule_risk_refuses_a_matrix_of_coefficients(w):
    with pytest.raises(ValueError, match="w must have length dim=4"):
        TwoGaussians(dim=4).linear_rule_risk(w)


def test_linear_rule_risk_takes_sklearn_coef_shape():
    dist = TwoGaussians(dim=3)
    w = np.array([1.0, -0.5, 0.2])
    assert dist.linear_rule_risk(w[None, :], 0.1) == dist.linear_rule_risk(w, 0.1)


@given(st.floats(-300, 300), st.floats(-3, 3))
@settings(max_examples=60, deadline=None)
def test_linear_rule_risk_is_scale_invariant_property(log10_scale, b):
    dist = TwoGaussians(dim=2)
    w, c = np.array([0.8, -0.3]), 10.0**log10_scale
    assert dist.linear_rule_risk(c * w, c * b) == pytest.approx(
        dist.linear_rule_risk(w, b), rel=1e-10, abs=1e-300
    )


# -- a distribution parameter given as an array -------------------------------------------


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(prior=np.array([0.3, 0.4])), "prior must be a real number"),
        (dict(separation=np.array([1.0, 2.0])), "separation must be a real number"),
        (dict(sigma=[1.0]), "sigma must be a real number"),
    ],
)
def test_distribution_parameters_are_scalars(kwargs, match):
    with pytest.raises(ValueError, match=match):
        TwoGaussians(**kwargs)


# -- a model that predicts a column -------------------------------------------------------


class _ColumnModel:
    """Predicts like a fitted model, but as an (n, 1) column."""

    def __init__(self, model):
        self.model = model

    def predict(self, X):
        return self.model.predict(X)[:, None]


def test_monte_carlo_risk_of_a_model_predicting_a_column_is_its_risk():
    dist = TwoGaussians()
    clf = LogisticRegression().fit(*dist.sample(100, random_state=0))
    expected = monte_carlo_risk(clf, dist, n=2000, random_state=1)
    with pytest.warns(DataConversionWarning, match=r"model.predict\(X\)"):
        got = monte_carlo_risk(_ColumnModel(clf), dist, n=2000, random_state=1)
    assert got == expected


# -- numbers that used to be truncated or taken as true -----------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda ax: plot_folds(ax, [3.7, 4, 4]), "sizes must hold integers"),
        (lambda ax: plot_folds(ax, ["3", "4"]), "sizes must hold integers"),
        (lambda ax: plot_folds(ax, [4, 4], errors=[0.1, 0.2, 0.3]), "errors must have one value"),
        (lambda ax: clopper_pearson_coverage(0.1, 10, two_sided="no"), "two_sided must be True"),
    ],
    ids=["fold-size-3.7", "fold-size-str", "errors-length", "two_sided-str"],
)
def test_values_are_not_truncated_or_coerced(ax, call, match):
    with pytest.raises(ValueError, match=match):
        call(ax) if call.__code__.co_argcount else call()


def test_progress_flag_must_be_a_bool():
    with pytest.raises(ValueError, match="progress must be True or False"):
        repeat(_mean_of_ten, 2, random_state=0, progress="no")


# =========================================================================================
# 2. Errors that say what is wrong
# =========================================================================================


@pytest.mark.parametrize("delta", [1e-20, 1e-50, 1e-300])
@pytest.mark.parametrize("k, n", [(0, 1), (0, 10), (1, 10), (5, 100)])
def test_issue_equation_3_by_inversion_at_tiny_delta(k, n, delta):
    got = clopper_pearson_upper_by_inversion(k, n, delta)
    assert got == pytest.approx(clopper_pearson_upper(k, n, delta), rel=1e-9)
    if k == 0:
        assert got == pytest.approx(_closed_form_k0(n, delta), rel=1e-9)


@pytest.mark.parametrize("delta", [0.5, 0.9, 0.999999, 1 - 1e-12])
@pytest.mark.parametrize("k, n", [(0, 10), (5, 100), (99, 100)])
def test_equation_3_by_inversion_at_delta_near_one(k, n, delta):
    assert clopper_pearson_upper_by_inversion(k, n, delta) == pytest.approx(
        clopper_pearson_upper(k, n, delta), rel=1e-9
    )


BAD_DELTAS = [
    ("0.05", "delta must be"),
    ("abc", "delta must be"),
    (b"0.1", "delta must be"),
    (None, "delta"),
    (True, "delta"),
    ({"d": 0.1}, "delta"),
]


@pytest.mark.parametrize("delta, match", BAD_DELTAS)
@pytest.mark.parametrize(
    "func",
    [
        lambda d: clopper_pearson_upper(1, 10, d),
        lambda d: clopper_pearson_upper_by_inversion(1, 10, d),
        lambda d: error_rate_bound([0, 1], [0, 0], d),
        lambda d: clopper_pearson_coverage(0.1, 10, d),
    ],
    ids=["upper", "inversion", "error_rate_bound", "coverage"],
)
def test_issue_a_delta_that_is_not_a_number_is_named(func, delta, match):
    with pytest.raises(ValueError, match=match):
        func(delta)


@pytest.mark.parametrize("alpha", ["0.05", "x", None, [0.1, "a"]])
def test_interval_alpha_that_is_not_a_number_is_named(alpha):
    with pytest.raises(ValueError, match="alpha"):
        clopper_pearson_interval(1, 10, alpha)


@pytest.mark.parametrize("delta", [[0.05, 0.1], np.array([0.05]), (0.05,)])
def test_issue_a_list_of_deltas_is_refused_where_one_is_meant(delta):
    with pytest.raises(ValueError, match="delta must be a real number"):
        clopper_pearson_upper_by_inversion(1, 10, delta)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(n_errors="3", n=10), "n_errors must hold integers"),
        (dict(n_errors=[1, "3"], n=10), "n_errors must hold integers"),
        (dict(n_errors=1, n="10"), "n must hold integers"),
        (dict(n_errors=[1, [2, 3]], n=10), "n_errors must be a rectangular array"),
        (dict(n_errors=1, n=2.0**70), "n must hold integers below 2\\*\\*63"),
    ],
)
def test_counts_that_are_not_integers_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        clopper_pearson_upper(**kwargs)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(n_errors=3.0, n=10), "n_errors must be an integer"),
        (dict(n_errors=np.inf, n=10), "n_errors must be an integer"),
        (dict(n_errors=1, n="10"), "n must be an integer"),
        (dict(n_errors=True, n=10), "n_errors must be an integer"),
    ],
)
def test_inversion_counts_are_integers(kwargs, match):
    with pytest.raises(ValueError, match=match):
        clopper_pearson_upper_by_inversion(**kwargs)


@pytest.mark.parametrize(
    "risk, match",
    [
        ("0.1", "risk must be a real number"),
        ([0.1], "risk must be a real number"),
        (np.nan, "risk must be a finite number"),
        (1.5, r"risk must lie in \[0, 1\]"),
    ],
)
def test_coverage_risk_is_named(risk, match):
    with pytest.raises(ValueError, match=match):
        clopper_pearson_coverage(risk, 10)


@pytest.mark.parametrize(
    "y_true, y_pred, match",
    [
        (np.zeros((2, 2)), np.zeros(2), "y_true must be one-dimensional"),
        (np.zeros(4), np.zeros((2, 2)), "y_pred must be one-dimensional"),
        (np.zeros((4, 1, 1)), np.zeros(4), "y_true must be one-dimensional"),
        (5, 5, "y_true must be one-dimensional"),
        ([0, 1, 2], [0, 1], "same length: y_true has 3, y_pred has 2"),
        ([0.0, np.nan], [0.0, 1.0], "y_true must be finite"),
        ([0, 1], [0, np.inf], "y_pred must be finite"),
        ([], [], "at least one test point"),
        (["a", "b"], [0, 1], "both hold text labels or both numeric"),
    ],
)
def test_error_rate_bound_refuses_bad_labels_by_name(y_true, y_pred, match):
    with pytest.raises(ValueError, match=match):
        error_rate_bound(y_true, y_pred)


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: TwoGaussians(separation="2"), "separation must be a real number"),
        (lambda: TwoGaussians(separation=np.nan), "separation must be a finite number"),
        (lambda: TwoGaussians(separation=-1), "separation must be >= 0"),
        (lambda: TwoGaussians(sigma=1j), "sigma must be a real number"),
        (lambda: TwoGaussians(sigma=0), "sigma must be > 0"),
        (lambda: TwoGaussians(prior="0.5"), "prior must be a real number"),
        (lambda: TwoGaussians(prior=1.0), "prior must lie strictly between 0 and 1"),
        (lambda: TwoGaussians(dim=2.0), "dim must be an integer"),
        (lambda: TwoGaussians(dim=True), "dim must be an integer"),
        (lambda: Twonorm(dim="20"), "dim must be an integer"),
        (lambda: Ringnorm(dim=0), "dim must be >= 1"),
        (lambda: LinearGaussianRegression(signal="1"), "signal must be a real number"),
        (lambda: LinearGaussianRegression(noise=None), "noise must be a real number"),
        (lambda: LinearGaussianRegression(noise=0.0), "noise must be > 0"),
    ],
)
def test_distribution_arguments_are_named(make, match):
    with pytest.raises(ValueError, match=match):
        make()


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: TwoGaussians().sample(3.0), "m must be an integer"),
        (lambda: TwoGaussians().sample("10"), "m must be an integer"),
        (lambda: Twonorm().sample(0), "m must be >= 1"),
        (lambda: Ringnorm(dim=2).bayes_predict([["a", "b"]]), "X must hold numbers"),
        (lambda: Ringnorm(dim=2).bayes_predict(np.empty((3, 0))), "X must have at least one"),
        (lambda: Ringnorm(dim=2).bayes_predict([1.0, 2.0]), "X must be 2-dimensional"),
        (lambda: Ringnorm(dim=2).bayes_predict([[np.nan, 1.0]]), "X must be finite"),
        (lambda: TwoGaussians().linear_rule_risk(["a", "b"]), "w must hold numbers"),
        (lambda: TwoGaussians().linear_rule_risk([0.0, 0.0]), "w must not be the zero vector"),
        (lambda: monte_carlo_risk(None, TwoGaussians()), "model must be a fitted classifier"),
        (
            lambda: monte_carlo_risk(LogisticRegression().fit([[0], [1]], [0, 1]), None),
            "distribution must have a sample",
        ),
        (lambda: monte_carlo_risk(_Constant(), TwoGaussians(), n=10.5), "n must be an integer"),
        (
            lambda: monte_carlo_risk(_Constant(), TwoGaussians(), batch_size=0),
            "batch_size must be >= 1",
        ),
        (
            lambda: monte_carlo_risk(_Constant(length=3), TwoGaussians(), n=10),
            "model.predict\\(X\\) must return one label per point",
        ),
    ],
    ids=lambda v: None if callable(v) else v.split(" ")[0],
)
def test_synthetic_arguments_are_named(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


class _Constant:
    def __init__(self, length=None):
        self.length = length

    def predict(self, X):
        return np.ones(self.length or len(X))


def _mean_of_ten(rng):
    return float(rng.normal(size=10).mean())


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda tmp: repeat(None, 2), "func must be callable"),
        (lambda tmp: repeat(_mean_of_ten, 2.5), "n_repeats must be an integer"),
        (lambda tmp: repeat(_mean_of_ten, "3"), "n_repeats must be an integer"),
        (lambda tmp: repeat(_mean_of_ten, 0), "n_repeats must be >= 1"),
        (lambda tmp: repeat(_mean_of_ten, 2, n_jobs=0), "n_jobs must be None or a non-zero"),
        (lambda tmp: repeat(_mean_of_ten, 2, n_jobs=1.5), "n_jobs must be an integer"),
        (lambda tmp: repeat(_mean_of_ten, 2, desc=3), "desc must be a str"),
        (
            lambda tmp: repeat(_mean_of_ten, 2, random_state=0, checkpoint=123),
            "checkpoint must be a folder path",
        ),
        (
            lambda tmp: repeat(_mean_of_ten, 2, random_state=0, checkpoint=_a_file(tmp)),
            "checkpoint must be a folder",
        ),
        (
            lambda tmp: repeat(_mean_of_ten, 2, random_state=None, checkpoint=tmp / "c"),
            "random_state must be an int when checkpoint is given",
        ),
        (lambda tmp: saved_repetitions(None), "checkpoint must be a folder path"),
        (lambda tmp: spawn_generators(0, 2.0), "n must be an integer"),
        (lambda tmp: spawn_generators(0, -1), "n must be >= 0"),
    ],
)
def test_simulation_arguments_are_named(tmp_path, call, match):
    with pytest.raises(ValueError, match=match):
        call(tmp_path)


def _a_file(folder):
    path = folder / "not_a_folder.txt"
    path.write_text("x")
    return path


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda tmp: atomic_write(None, lambda t: None), TypeError, "path must be a str"),
        (lambda tmp: atomic_write(3, lambda t: None), TypeError, "path must be a str"),
        (lambda tmp: atomic_write("", lambda t: None), ValueError, "path must not be empty"),
        (lambda tmp: atomic_write(tmp, lambda t: None), ValueError, "is a folder"),
        (lambda tmp: atomic_write(tmp / "a.txt", "text"), TypeError, "write must be a function"),
        (lambda tmp: atomic_write_text(tmp / "a.txt", 3), TypeError, "text must be a str"),
        (lambda tmp: atomic_write_text(tmp / "a.txt", b"x"), TypeError, "text must be a str"),
    ],
)
def test_provenance_arguments_are_named(tmp_path, call, exc, match):
    with pytest.raises(exc, match=match):
        call(tmp_path)
    assert not (tmp_path / "a.txt").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


ROW = {
    "method": "holdout",
    "delta": 0.1,
    "coverage": 0.92,
    "se": 0.01,
    "n": 100,
    "slack_q05": -0.05,
    "slack_q50": 0.0,
    "slack_q95": 0.05,
}


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda ax: mean_std(["a", "b"]), "values must hold numbers"),
        (lambda ax: mean_std([]), "values must be a non-empty array"),
        (lambda ax: mean_std([0.1, np.nan]), "values must be finite"),
        (lambda ax: mean_std([0.1, 0.2], digits=2.5), "digits must be an integer"),
        (lambda ax: mean_std([0.1, 0.2], digits=-1), "digits must be >= 0"),
        (lambda ax: mean_std([0.1, 0.2], scale="100"), "scale must be a real number"),
        (lambda ax: mark_truth(None, 0.1), "ax must be a matplotlib Axes"),
        (lambda ax: mark_truth(ax, "0.1"), "value must be a real number"),
        (lambda ax: mark_truth(ax, 0.1, label=3), "label must be a string"),
        (lambda ax: plot_folds(None, [3, 3]), "ax must be a matplotlib Axes"),
        (lambda ax: plot_folds(ax, [3]), "sizes must hold at least two"),
        (lambda ax: plot_folds(ax, [3, 0]), "sizes must hold integers >= 1"),
        (lambda ax: plot_folds(ax, [[3, 3]]), "sizes must be 1-dimensional"),
        (lambda ax: plot_folds(ax, [3, 3], errors=["a", "b"]), "errors must hold numbers"),
        (lambda ax: plot_folds(ax, [3, 3], test_color=1), "test_color must be a string"),
        (lambda ax: plot_coverage(ax, []), "summary must hold at least one row"),
        (lambda ax: plot_coverage(ax, "rows"), "summary must be a list of dicts"),
        (lambda ax: plot_coverage(ax, [1, 2]), r"summary\[0\] must be a dict"),
        (lambda ax: plot_coverage(ax, [{"method": "holdout"}]), r"summary\[0\] lacks the keys"),
        (lambda ax: plot_coverage(ax, [ROW], n_se="2"), "n_se must be a real number"),
        (lambda ax: plot_coverage(ax, [ROW], n_se=-1), "n_se must be >= 0"),
        (lambda ax: plot_coverage(ax, [ROW], methods="holdout"), "methods must be a non-empty"),
        (lambda ax: plot_coverage(ax, [ROW], labels=["a"]), "labels must be a dict"),
        (lambda ax: plot_slack_vs_n(ax, [{"method": "kfold", "n": 10}]), "lacks the keys"),
        (lambda ax: plot_slack_vs_n(ax, None), "summary must be a list of dicts"),
    ],
)
def test_plotting_arguments_are_named(ax, call, match):
    with pytest.raises(ValueError, match=match):
        call(ax)


def test_plotting_still_draws_valid_input():
    fig, axes = plt.subplots(1, 3)
    plot_coverage(axes[0], [ROW], labels={"holdout": "hold-out"})
    plot_slack_vs_n(axes[1], [ROW])
    plot_folds(axes[2], np.array([3, 3, 2]), errors=[0.1, 0.2, 0.3])
    plt.close(fig)
    assert mean_std(np.array([[0.1], [0.3]])) == "0.200 ± 0.141"


# =========================================================================================
# 3. Seeds: one rule everywhere
# =========================================================================================


def _seed_kinds():
    """Fresh seeds of each accepted kind (a stateful one must be new for each call)."""
    return {
        "None": lambda: None,
        "int": lambda: 7,
        "numpy-int": lambda: np.uint32(7),
        "Generator": lambda: np.random.default_rng(7),
        "RandomState": lambda: np.random.RandomState(7),
        "SeedSequence": lambda: np.random.SeedSequence(7),
    }


SEEDED = {
    "TwoGaussians.sample": lambda rs: TwoGaussians().sample(5, random_state=rs)[0],
    "Twonorm.sample": lambda rs: Twonorm(dim=3).sample(5, random_state=rs)[0],
    "Ringnorm.sample": lambda rs: Ringnorm(dim=3).sample(5, random_state=rs)[0],
    "LinearGaussianRegression.sample": lambda rs: LinearGaussianRegression(dim=2).sample(
        5, random_state=rs
    )[0],
    "monte_carlo_risk": lambda rs: monte_carlo_risk(
        _Constant(), TwoGaussians(), n=50, random_state=rs
    ),
    "spawn_generators": lambda rs: [g.random() for g in spawn_generators(rs, 3)],
    "repeat": lambda rs: repeat(_mean_of_ten, 3, random_state=rs),
}


@pytest.mark.parametrize("kind", list(_seed_kinds()))
@pytest.mark.parametrize("func", list(SEEDED))
def test_issue_every_seed_kind_is_accepted_and_reproducible(func, kind):
    make = _seed_kinds()[kind]
    first, second = SEEDED[func](make()), SEEDED[func](make())
    if kind != "None":
        np.testing.assert_array_equal(first, second)


@pytest.mark.parametrize(
    "seed, match",
    [
        (-1, "random_state must be >= 0"),
        (2**32, "random_state must be < 2\\*\\*32"),
        (True, "random_state must be None, an int"),
        (1.5, "random_state must be None, an int"),
        ("0", "random_state must be None, an int"),
        ([1, 2], "random_state must be None, an int"),
        (np.random.PCG64(0), "random_state must be None, an int"),
    ],
)
@pytest.mark.parametrize("func", list(SEEDED))
def test_issue_a_bad_seed_is_refused_by_name(func, seed, match):
    with pytest.raises(ValueError, match=match):
        SEEDED[func](seed)


def test_a_shared_generator_advances_so_two_draws_differ():
    rng = np.random.default_rng(0)
    a, _ = TwoGaussians().sample(5, random_state=rng)
    b, _ = TwoGaussians().sample(5, random_state=rng)
    assert not np.array_equal(a, b)


def test_an_int_seed_keeps_the_numbers_it_always_gave():
    """The seed rule changed how seeds are checked, not the streams of int seeds."""
    expected = np.random.default_rng(3).standard_normal((4, 2))
    X, _ = LinearGaussianRegression(dim=2).sample(4, random_state=3)
    np.testing.assert_array_equal(X, expected)
    children = np.random.SeedSequence(5).spawn(2)
    got = spawn_generators(5, 2)
    assert [g.random() for g in got] == [np.random.default_rng(c).random() for c in children]


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=30, deadline=None)
def test_spawned_generators_depend_only_on_the_seed(seed):
    a = [g.integers(2**62) for g in spawn_generators(seed, 3)]
    b = [g.integers(2**62) for g in spawn_generators(np.int64(seed), 3)]
    assert a == b and len(set(a)) == 3


# =========================================================================================
# Properties of the Clopper--Pearson bound over the whole range of delta
# =========================================================================================

counts = st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n)))
log_deltas = st.floats(min_value=math.log(1e-300), max_value=math.log(0.5))


@given(counts, log_deltas)
@settings(max_examples=200, deadline=None)
def test_cp_upper_lies_in_the_rate_to_one_range_at_any_delta(kn, log_delta):
    k, n = kn
    upper = clopper_pearson_upper(k, n, math.exp(log_delta))
    assert k / n <= upper <= 1.0


@given(counts, log_deltas, log_deltas)
@settings(max_examples=200, deadline=None)
def test_cp_upper_is_monotone_in_delta_at_any_delta(kn, a, b):
    """Monotone to the bound's precision, 1e-12 relative: scipy's beta.isf (at the minimum
    version) steps back by a few ulp between adjacent deltas (1 ulp at k=0, n=256,
    delta = 0.5; 5 ulp at k=863, n=1333, delta = 0.3)."""
    k, n = kn
    lo, hi = sorted((math.exp(a), math.exp(b)))
    upper_hi = clopper_pearson_upper(k, n, hi)
    assert clopper_pearson_upper(k, n, lo) >= upper_hi * (1 - 1e-12)


@given(st.integers(1, 2000), log_deltas, st.data())
@settings(max_examples=200, deadline=None)
def test_cp_upper_is_monotone_in_k_at_any_delta(n, log_delta, data):
    k1 = data.draw(st.integers(0, n))
    k2 = data.draw(st.integers(k1, n))
    delta = math.exp(log_delta)
    assert clopper_pearson_upper(k1, n, delta) <= clopper_pearson_upper(k2, n, delta)


@given(st.integers(1, 10**7), log_deltas)
@settings(max_examples=200, deadline=None)
def test_cp_upper_at_zero_errors_is_the_closed_form(n, log_delta):
    delta = math.exp(log_delta)
    assert clopper_pearson_upper(0, n, delta) == pytest.approx(_closed_form_k0(n, delta), rel=1e-11)


@given(
    st.integers(1, 300).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    st.floats(math.log(1e-300), math.log(1 - 1e-9)),
)
@settings(max_examples=80, deadline=None)
def test_equation_3_by_inversion_matches_the_quantile_at_any_delta(kn, log_delta):
    k, n = kn
    delta = math.exp(log_delta)
    assert clopper_pearson_upper_by_inversion(k, n, delta) == pytest.approx(
        clopper_pearson_upper(k, n, delta), rel=1e-8, abs=1e-300
    )


@given(st.lists(st.integers(0, 4), min_size=1, max_size=60), st.data())
@settings(max_examples=60, deadline=None)
def test_error_rate_bound_counts_mistakes_for_any_number_of_classes(y_true, data):
    y_pred = data.draw(st.lists(st.integers(0, 4), min_size=len(y_true), max_size=len(y_true)))
    err, up = error_rate_bound(y_true, y_pred, delta=0.05)
    mistakes = sum(a != b for a, b in zip(y_true, y_pred, strict=True))
    assert err == mistakes / len(y_true)
    assert up == clopper_pearson_upper(mistakes, len(y_true), 0.05) >= err
