"""The statistical API under hostile input (issue 20): intervals, compare, CompleteKCV's
precomputed path, the loaders and the run drivers.

Each failure class is one parametrised test (or a few) over the public functions, not a
case per function: a bad input must give either the documented answer or a named error,
a ``ValueError``/``TypeError`` whose message contains the argument's name (the option as
typed, for a command line). Hypothesis draws shapes, dtypes and NaN placements where a
rule holds for all of them.

Failure classes (the ``CLASS`` marker in each test's name): loss vs target type, shapes
that broadcast, labels that are not labels, NaN/inf/empty, index arrays, booleans,
sizes, CompleteKCV's precomputed path, loaders, drivers, and the three decisions of the
issue (McNemar's variant, the nested-CV bias factor, the unclipped Wald interval).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.exceptions import DataConversionWarning
from sklearn.linear_model import Ridge
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.tree import DecisionTreeClassifier

from cvbook.bounds import clopper_pearson_interval, clopper_pearson_upper
from cvbook.ckcv import CompleteKCV, fit_precomputed
from cvbook.compare import (
    combined_ftest_5x2cv,
    corrected_paired_ttest,
    five_by_two_splits,
    ftest_5x2cv_from_differences,
    mcnemar_holdout,
    mcnemar_test,
    paired_ttest_5x2cv,
    ttest_5x2cv_from_differences,
)
from cvbook.datasets import TwoGaussians
from cvbook.datasets.raetsch import load_raetsch
from cvbook.datasets.synthetic import LinearGaussianRegression, monte_carlo_risk, true_risk
from cvbook.intervals import (
    conservative_z_from_means,
    conservative_z_interval,
    corrected_t_from_split_means,
    corrected_t_interval,
    cv_wald_interval,
    holdout_interval,
    nested_cv_from_losses,
    nested_cv_interval,
    pointwise_loss,
    split_losses,
)

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RNG = np.random.default_rng(0)
X40 = RNG.normal(size=(40, 2))
Y_CLASS = np.where(X40[:, 0] > 0, 1, -1)
Y_CONT = X40[:, 0] + 0.1 * RNG.normal(size=40)


def _named(exc_info, *names: str) -> None:
    """The error names at least one of ``names``."""
    text = str(exc_info.value)
    assert any(n in text for n in names), f"{names} not in: {text}"


# --------------------------------------------------------------------------- #
# loss vs target type: a continuous y with the 0-1 loss counts every point as an error

LDA, TREE = LinearDiscriminantAnalysis(), DecisionTreeClassifier(max_depth=2)
ZERO_ONE_ON_CONTINUOUS = {
    "holdout_interval": lambda y: holdout_interval(Ridge(), X40, y, random_state=0),
    "holdout_interval_wald": lambda y: holdout_interval(
        Ridge(), X40, y, method="wald", random_state=0
    ),
    "cv_wald_interval": lambda y: cv_wald_interval(Ridge(), X40, y, n_splits=4, random_state=0),
    "corrected_t_interval": lambda y: corrected_t_interval(Ridge(), X40, y, random_state=0),
    "conservative_z_interval": lambda y: conservative_z_interval(
        Ridge(), X40, y, n_splits=2, n_pairs=2, random_state=0
    ),
    "nested_cv_interval": lambda y: nested_cv_interval(Ridge(), X40, y, n_repeats=1),
    "paired_ttest_5x2cv": lambda y: paired_ttest_5x2cv(Ridge(), Ridge(), X40, y),
    "combined_ftest_5x2cv": lambda y: combined_ftest_5x2cv(Ridge(), Ridge(), X40, y),
    "mcnemar_holdout": lambda y: mcnemar_holdout(Ridge(), DummyRegressor(), X40, y),
    "corrected_paired_ttest": lambda y: corrected_paired_ttest(Ridge(), DummyRegressor(), X40, y),
    "five_by_two_splits": lambda y: five_by_two_splits(y, random_state=0),
    "split_losses": lambda y: split_losses(Ridge(), X40, y, [(np.arange(30), np.arange(30, 40))]),
    "pointwise_loss": lambda y: pointwise_loss(y, y),
    "mcnemar_test": lambda y: mcnemar_test(y, np.sign(y), np.sign(y)),
}


@pytest.mark.parametrize("call", ZERO_ONE_ON_CONTINUOUS.values(), ids=ZERO_ONE_ON_CONTINUOUS)
def test_loss_vs_target_zero_one_refuses_a_continuous_y(call):
    with pytest.raises(ValueError) as err:
        call(Y_CONT)
    _named(err, "y must hold class labels", "y_true must hold class labels")
    assert "continuous" in str(err.value)


SQUARED_ON_STRINGS = {
    "cv_wald_interval": lambda y: cv_wald_interval(LDA, X40, y, loss="squared", n_splits=4),
    "corrected_t_interval": lambda y: corrected_t_interval(LDA, X40, y, loss="squared"),
    "nested_cv_interval": lambda y: nested_cv_interval(LDA, X40, y, loss="squared", n_repeats=1),
    "corrected_paired_ttest": lambda y: corrected_paired_ttest(LDA, LDA, X40, y, loss="squared"),
    "pointwise_loss": lambda y: pointwise_loss(y, y, loss="squared"),
}


@pytest.mark.parametrize("call", SQUARED_ON_STRINGS.values(), ids=SQUARED_ON_STRINGS)
def test_loss_vs_target_squared_refuses_string_labels(call):
    with pytest.raises(ValueError) as err:
        call(np.where(Y_CLASS > 0, "yes", "no"))
    _named(err, "y must hold numbers", "y_true must hold numbers")


def test_loss_vs_target_true_risk_refuses_a_regressor_and_foreign_labels():
    dist = TwoGaussians()
    X, y = dist.sample(200, random_state=0)
    with pytest.raises(ValueError, match="model must be a classifier"):
        true_risk(Ridge().fit(X, y), dist, n=2000, random_state=0)
    with pytest.raises(ValueError, match="model's classes"):
        true_risk(DecisionTreeClassifier().fit(X, (y > 0).astype(int)), dist, n=2000)
    with pytest.raises(ValueError, match="model's classes"):
        monte_carlo_risk(DecisionTreeClassifier().fit(X, (y > 0).astype(int)), dist, n=2000)
    with pytest.raises(ValueError, match="model's classes"):
        true_risk(DecisionTreeClassifier().fit(X, (y > 0).astype(int)), dist, sample=(X, y))
    reg = LinearGaussianRegression()
    Xr, yr = reg.sample(100, random_state=0)
    with pytest.raises(ValueError, match="distribution must draw class labels"):
        monte_carlo_risk(DummyClassifier().fit(Xr, yr > 0), reg, n=2000)
    # the documented answer on valid input is unchanged
    tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    assert 0 < true_risk(tree, dist, n=2000, random_state=0) < 0.5


# --------------------------------------------------------------------------- #
# shapes that broadcast: an (n, 1) column is flattened with a warning, other shapes refused


def test_shapes_pointwise_loss_and_mcnemar_flatten_a_column():
    y = np.array([0, 1, 1, 0, 1, 1])
    pa = np.array([0, 1, 0, 0, 1, 1])
    pb = np.array([1, 0, 0, 0, 1, 0])
    with pytest.warns(DataConversionWarning, match="y_true"):
        col = pointwise_loss(y[:, None], pa)
    np.testing.assert_array_equal(col, pointwise_loss(y, pa))
    with pytest.warns(DataConversionWarning, match="y_true"):
        r = mcnemar_test(y[:, None], pa, pb)
    assert r == mcnemar_test(y, pa, pb)
    assert (r.statistic, r.difference) == (0.0, -0.5)  # b = 0, c = 3 (not an (n, n) count)
    with pytest.warns(DataConversionWarning, match="pred_b"):
        assert mcnemar_test(y, pa, pb[:, None]) == r


@pytest.mark.parametrize(
    "call",
    [
        lambda: pointwise_loss(np.zeros((3, 2), int), np.zeros(3, int)),
        lambda: pointwise_loss(np.zeros(3, int), np.zeros((3, 2), int)),
        lambda: mcnemar_test(np.zeros((3, 2), int), np.zeros(3, int), np.zeros(3, int)),
        lambda: mcnemar_test(np.zeros(3, int), np.zeros((3, 2), int), np.zeros(3, int)),
        lambda: mcnemar_test([0, 1, 1], [0, 1], [0, 1, 1]),
        lambda: pointwise_loss([0, 1, 1], [0, 1]),
        lambda: clopper_pearson_upper([1, 2], [10, 20, 30]),
        lambda: clopper_pearson_interval([1, 2], [10, 20, 30]),
        lambda: clopper_pearson_upper([1, 2], [10, 20], [0.1, 0.2, 0.3]),
        lambda: nested_cv_from_losses([0.1, 0.2], [0.01], [0.0, 1.0], [1.0], 10, 3),
    ],
    ids=[
        "pointwise_y_true_2col",
        "pointwise_y_pred_2col",
        "mcnemar_y_true_2col",
        "mcnemar_pred_a_2col",
        "mcnemar_lengths",
        "pointwise_lengths",
        "cp_upper_broadcast",
        "cp_interval_broadcast",
        "cp_upper_delta_broadcast",
        "nested_a_b_lengths",
    ],
)
def test_shapes_that_do_not_match_are_named(call):
    with pytest.raises(ValueError) as err:
        call()
    _named(err, "y_true", "y_pred", "pred_a", "pred_b", "n_errors", "delta", "a has")


@FAST
@given(
    shape=st.sampled_from([(6,), (6, 1), (1, 6), (6, 2), (2, 3), (6, 1, 1), ()]),
    which=st.sampled_from(["y_true", "pred_a", "pred_b"]),
)
def test_shapes_hypothesis_mcnemar_any_shape(shape, which):
    """Any shape of any argument: the 1-d answer (after a warning for a column) or an
    error naming that argument."""
    y = np.array([0, 1, 1, 0, 1, 1])
    args = {"y_true": y, "pred_a": np.array([0, 1, 0, 0, 1, 1]), "pred_b": np.ones(6, int)}
    ref = mcnemar_test(**args)
    arr = args[which]
    args[which] = np.resize(arr, shape) if shape else np.int64(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataConversionWarning)
        try:
            got = mcnemar_test(**args)
        except ValueError as err:
            assert which in str(err) or "same length" in str(err)
            return
    assert shape in ((6,), (6, 1))
    assert got == ref


@FAST
@given(
    y=hnp.arrays(
        dtype=st.sampled_from([np.int64, np.float64, np.float32, np.bool_, np.uint8]),
        shape=hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=6),
        elements={"allow_nan": True, "allow_infinity": True},
    ),
    loss=st.sampled_from(["zero_one", "squared"]),
)
def test_shapes_hypothesis_pointwise_loss_any_array(y, loss):
    """Any dtype, shape and NaN placement: the loss of the flattened column, or a named
    error (never an (n, n) broadcast, never a NaN loss)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataConversionWarning)
        try:
            got = pointwise_loss(y, y, loss=loss)
        except (ValueError, TypeError) as err:
            assert "y_true" in str(err) or "y_pred" in str(err)
            return
    assert y.ndim == 1 or y.shape[1] == 1
    assert got.shape == (y.shape[0],) and np.all(got == 0.0)


# --------------------------------------------------------------------------- #
# labels that are not labels

Y6 = np.array([0, 1, 1, 0, 1, 0])
NOT_LABELS = {
    "probabilities": np.array([0.1, 0.9, 0.8, 0.2, 0.7, 0.4]),
    "continuous": np.linspace(-1, 1, 6),
    "nan": np.array([0, 1, np.nan, 0, 1, 0]),
    "inf": np.array([0, 1, np.inf, 0, 1, 0]),
    "two_columns": np.c_[Y6, 1 - Y6],
    "strings_vs_numbers": np.array(["0", "1", "1", "0", "1", "0"]),
    "mixed_types": np.array([0, "1", 1, 0, 1, 0], dtype=object),
    "complex": Y6 + 1j,
}


@pytest.mark.parametrize("bad", NOT_LABELS.values(), ids=NOT_LABELS)
@pytest.mark.parametrize("which", ["pred_a", "pred_b"])
def test_labels_mcnemar_refuses_predictions_that_are_not_labels(bad, which):
    args = {"y_true": Y6, "pred_a": Y6, "pred_b": Y6}
    args[which] = bad
    with pytest.raises(ValueError) as err:  # ArgumentTypeError is a ValueError too
        mcnemar_test(**args)
    _named(err, which)


@pytest.mark.parametrize(
    "bad", [NOT_LABELS[k] for k in ("probabilities", "nan", "two_columns", "complex")]
)
def test_labels_mcnemar_and_pointwise_loss_refuse_bad_true_labels(bad):
    with pytest.raises(ValueError) as err:
        mcnemar_test(bad, Y6, Y6)
    _named(err, "y_true")
    with pytest.raises(ValueError) as err:
        pointwise_loss(bad, Y6)
    _named(err, "y_true")


def test_labels_pointwise_loss_zero_one_refuses_probabilities_and_accepts_string_labels():
    with pytest.raises(ValueError, match="y_pred must hold predicted class labels"):
        pointwise_loss(Y6, NOT_LABELS["probabilities"])
    s = np.array(["a", "b", "a"])
    assert pointwise_loss(s, np.array(["a", "a", "a"])).tolist() == [0.0, 1.0, 0.0]


def test_labels_completekcv_refuses_mixed_label_types_by_name():
    y = np.array([1, "a"] * 20, dtype=object)
    with pytest.raises(TypeError, match="y must hold labels of one type"):
        CompleteKCV(k_values=[5], n_splits=2).fit(X40, y)


# --------------------------------------------------------------------------- #
# NaN, inf and empty inputs of the from_* functions

GOOD_FROM = {
    "corrected_t_from_split_means": (
        corrected_t_from_split_means,
        {"split_means": [0.1, 0.2, 0.3], "n_train": 90, "n_test": 10},
    ),
    "conservative_z_from_means": (
        conservative_z_from_means,
        {"split_means": [0.1, 0.2], "half_means": [[0.1, 0.3], [0.2, 0.2]]},
    ),
    "ttest_5x2cv_from_differences": (ttest_5x2cv_from_differences, {"p": [[0.1, 0.0]] * 5}),
    "ftest_5x2cv_from_differences": (ftest_5x2cv_from_differences, {"p": [[0.1, 0.0]] * 5}),
    "nested_cv_from_losses": (
        nested_cv_from_losses,
        {
            "a": [0.5, -0.5],
            "b": [0.001, 0.001],
            "inner": [0.0, 1.0, 0.0, 1.0],
            "outer": [0.0, 1.0, 1.0, 1.0],
            "n": 4,
            "n_splits": 2,
        },
    ),
}
ARRAY_ARGS = [
    (fn, arg) for fn, (_, kw) in GOOD_FROM.items() for arg in kw if isinstance(kw[arg], list)
]


@pytest.mark.parametrize("fn,arg", ARRAY_ARGS, ids=[f"{f}-{a}" for f, a in ARRAY_ARGS])
@pytest.mark.parametrize("poison", ["nan", "inf", "-inf", "empty", "string"])
def test_nan_inf_empty_from_functions(fn, arg, poison):
    func, kw = GOOD_FROM[fn]
    kw = dict(kw)
    arr = np.array(kw[arg], dtype=float)
    if poison == "empty":
        bad = np.empty((0, *arr.shape[1:]))
    elif poison == "string":
        bad = arr.astype(str)
    else:
        bad = arr.copy()
        bad.flat[0] = float(poison)
    kw[arg] = bad
    with pytest.raises(ValueError) as err:
        func(**kw)
    _named(err, arg)


@pytest.mark.parametrize("fn", GOOD_FROM, ids=list(GOOD_FROM))
def test_nan_inf_empty_valid_input_gives_finite_answers(fn):
    func, kw = GOOD_FROM[fn]
    assert all(math.isfinite(v) for v in func(**kw))


@FAST
@given(
    values=st.lists(
        st.one_of(
            st.floats(0, 1), st.just(float("nan")), st.just(float("inf")), st.just(-math.inf)
        ),
        min_size=0,
        max_size=8,
    )
)
def test_nan_inf_empty_hypothesis_split_means(values):
    """Any list of split means: a finite interval from finite input, else a named error."""
    try:
        est, lo, hi = corrected_t_from_split_means(values, 90, 10)
    except ValueError as err:
        assert "split_means" in str(err)
        assert len(values) < 2 or not all(math.isfinite(v) for v in values)
        return
    assert all(math.isfinite(v) for v in values) and len(values) >= 2
    assert lo <= est <= hi and math.isfinite(lo) and math.isfinite(hi)


@pytest.mark.parametrize(
    "X,y,name",
    [
        (np.r_[X40[:-1], [[np.nan, 0.0]]], Y_CLASS, "X"),
        (np.r_[X40[:-1], [[np.inf, 0.0]]], Y_CLASS, "X"),
        (X40, np.r_[Y_CONT[:-1], np.nan], "y"),
        (np.empty((0, 2)), np.empty(0), "X"),
    ],
    ids=["X_nan", "X_inf", "y_nan", "empty"],
)
@pytest.mark.parametrize(
    "method",
    [
        lambda X, y: holdout_interval(LDA, X, y, loss="squared", method="wald"),
        lambda X, y: cv_wald_interval(LDA, X, y, loss="squared", n_splits=4),
        lambda X, y: corrected_paired_ttest(LDA, LDA, X, y, loss="squared"),
    ],
    ids=["holdout", "cv_wald", "corrected_paired_ttest"],
)
def test_nan_inf_empty_data_of_the_methods(method, X, y, name):
    with pytest.raises(ValueError) as err:
        method(X, y)
    _named(err, name)


# --------------------------------------------------------------------------- #
# index arrays: user-given splits and halvings

GOOD_SPLIT = (np.arange(30), np.arange(30, 40))
BAD_SPLITS = {
    "float": [(np.arange(30) + 0.5, np.arange(30, 40))],
    "float_integral": [(np.arange(30.0), np.arange(30, 40))],
    "negative": [(np.arange(-1, 29), np.arange(30, 40))],
    "out_of_range": [(np.arange(30), np.arange(30, 41))],
    "empty_test": [(np.arange(30), np.array([], dtype=int))],
    "empty_train": [(np.array([], dtype=int), np.arange(30, 40))],
    "overlap": [(np.arange(31), np.arange(30, 40))],
    "repeated": [(np.r_[np.arange(30), 0], np.arange(30, 40))],
    "bool_mask": [(np.arange(40) < 30, np.arange(40) >= 30)],
    "not_pairs": [np.arange(30)],
    "none": [],
    "string": "kfold",
    "2d": [(np.arange(30).reshape(3, 10), np.arange(30, 40))],
}


@pytest.mark.parametrize("splits", BAD_SPLITS.values(), ids=BAD_SPLITS)
def test_index_arrays_split_losses(splits):
    with pytest.raises(ValueError) as err:
        split_losses(LDA, X40, Y_CLASS, splits)
    _named(err, "splits")


def test_index_arrays_split_losses_valid_split_gives_the_documented_answer():
    (losses,) = split_losses(LDA, X40, Y_CLASS, [GOOD_SPLIT])
    model = LinearDiscriminantAnalysis().fit(X40[:30], Y_CLASS[:30])
    np.testing.assert_array_equal(losses, (model.predict(X40[30:]) != Y_CLASS[30:]) * 1.0)


HALF = (np.arange(20), np.arange(20, 40))
BAD_HALVINGS = {
    "four": [HALF] * 4,
    "not_covering": [(np.arange(10), np.arange(20, 40))] + [HALF] * 4,
    "overlap": [(np.arange(21), np.arange(20, 40))] + [HALF] * 4,
    "float": [(np.arange(20) + 0.5, np.arange(20, 40))] + [HALF] * 4,
    "negative": [(np.r_[-1, np.arange(1, 20)], np.arange(20, 40))] + [HALF] * 4,
    "out_of_range": [(np.arange(20), np.arange(20, 41))] + [HALF] * 4,
    "empty_half": [(np.array([], int), np.arange(40))] + [HALF] * 4,
}


@pytest.mark.parametrize("splits", BAD_HALVINGS.values(), ids=BAD_HALVINGS)
@pytest.mark.parametrize("test", [paired_ttest_5x2cv, combined_ftest_5x2cv])
def test_index_arrays_5x2_halvings(test, splits):
    with pytest.raises(ValueError) as err:
        test(LDA, LDA, X40, Y_CLASS, splits=splits)
    _named(err, "splits")


@pytest.mark.parametrize(
    "bad", [[5, 2], [0.0, 1.0], [3], [0, 40], [-1, 2], [[0, 1]], [0, 0, 1], "0,1"]
)
def test_index_arrays_fit_precomputed_fit_index(bad):
    K = rbf_kernel(X40)
    with pytest.raises(ValueError) as err:
        fit_precomputed(K, Y_CLASS, fit_index=bad)
    _named(err, "fit_index")


# --------------------------------------------------------------------------- #
# booleans that are booleans

NOT_BOOLS = ["False", "True", "", 0, 1, None, 0.0, [True]]


@pytest.mark.parametrize("bad", NOT_BOOLS, ids=[repr(b) for b in NOT_BOOLS])
@pytest.mark.parametrize(
    "call,name",
    [
        (
            lambda v: nested_cv_from_losses(
                [0.5, -0.5], [0.001] * 2, [0, 1, 0, 1], [0, 1, 1, 1], 4, 2, bias_correction=v
            ),
            "bias_correction",
        ),
        (
            lambda v: nested_cv_interval(LDA, X40, Y_CLASS, n_repeats=1, bias_correction=v),
            "bias_correction",
        ),
        (lambda v: mcnemar_test(Y6, Y6, Y6, exact=v), "exact"),
        (lambda v: mcnemar_test(Y6, Y6, Y6, exact=False, correction=v), "correction"),
    ],
    ids=["nested_cv_from_losses", "nested_cv_interval", "mcnemar_exact", "mcnemar_correction"],
)
def test_booleans_are_booleans(call, name, bad):
    with pytest.raises(TypeError) as err:
        call(bad)
    _named(err, name)


def test_booleans_bias_correction_false_differs_from_true():
    args = ([0.5, -0.5], [0.001] * 2, [0.0, 1.0, 0.0, 1.0], [0.0, 1.0, 1.0, 1.0], 4, 3)
    on = nested_cv_from_losses(*args, bias_correction=True)
    off = nested_cv_from_losses(*args, bias_correction=np.False_)
    assert off[0] == pytest.approx(0.5) and on[0] != off[0]


# --------------------------------------------------------------------------- #
# sizes: positive integers where counts are meant; alpha in (0, 1)

BAD_COUNTS = [0, -1, 1.5, 10.0, True, "10", None, float("nan")]


@pytest.mark.parametrize("bad", BAD_COUNTS, ids=[repr(b) for b in BAD_COUNTS])
@pytest.mark.parametrize("name", ["n_train", "n_test"])
def test_sizes_corrected_t_from_split_means(name, bad):
    kw = {"split_means": [0.1, 0.2, 0.3], "n_train": 90, "n_test": 10, name: bad}
    with pytest.raises(ValueError) as err:
        corrected_t_from_split_means(**kw)
    _named(err, name)


@pytest.mark.parametrize("bad", [0, 1, 1.5, 3.0, True, "4"], ids=repr)
@pytest.mark.parametrize("name", ["n", "n_splits"])
def test_sizes_nested_cv_from_losses(name, bad):
    kw = dict(GOOD_FROM["nested_cv_from_losses"][1])
    kw[name] = bad
    with pytest.raises(ValueError) as err:
        nested_cv_from_losses(**kw)
    _named(err, name)


BAD_ALPHAS = [0, 1, 2, -0.1, float("nan"), float("inf"), "0.05", None, [0.05]]
ALPHA_CALLS = {
    "corrected_t_from_split_means": lambda a: corrected_t_from_split_means([0.1, 0.2], 9, 1, a),
    "conservative_z_from_means": lambda a: conservative_z_from_means([0.1], [[0.1, 0.2]], a),
    "nested_cv_from_losses": lambda a: nested_cv_from_losses(
        [0.5], [0.0], [0.0, 1.0], [1.0], 4, 2, alpha=a
    ),
    "holdout_interval": lambda a: holdout_interval(LDA, X40, Y_CLASS, alpha=a),
    "ComparisonTest.rejects": lambda a: mcnemar_test(Y6, Y6, Y6).rejects(a),
}


@pytest.mark.parametrize("bad", BAD_ALPHAS, ids=[repr(b) for b in BAD_ALPHAS])
@pytest.mark.parametrize("call", ALPHA_CALLS.values(), ids=ALPHA_CALLS)
def test_sizes_alpha(call, bad):
    with pytest.raises(ValueError) as err:
        call(bad)
    _named(err, "alpha")


@pytest.mark.parametrize("bad", [0, 1.5, "2", True, 10**9, -(10**6)], ids=repr)
@pytest.mark.parametrize(
    "call",
    [
        lambda v: cv_wald_interval(LDA, X40, Y_CLASS, n_splits=4, n_jobs=v),
        lambda v: corrected_paired_ttest(LDA, LDA, X40, Y_CLASS, n_jobs=v),
        lambda v: split_losses(LDA, X40, Y_CLASS, [GOOD_SPLIT], n_jobs=v),
    ],
    ids=["cv_wald_interval", "corrected_paired_ttest", "split_losses"],
)
def test_sizes_n_jobs(call, bad):
    with pytest.raises(ValueError) as err:
        call(bad)
    _named(err, "n_jobs")


# --------------------------------------------------------------------------- #
# estimators that are not estimators (a string, a class, an object without predict)

ESTIMATOR_CALLS = {
    "holdout_interval": lambda e: holdout_interval(e, X40, Y_CLASS),
    "cv_wald_interval": lambda e: cv_wald_interval(e, X40, Y_CLASS, n_splits=4),
    "corrected_t_interval": lambda e: corrected_t_interval(e, X40, Y_CLASS),
    "conservative_z_interval": lambda e: conservative_z_interval(e, X40, Y_CLASS),
    "nested_cv_interval": lambda e: nested_cv_interval(e, X40, Y_CLASS, n_repeats=1),
    "split_losses": lambda e: split_losses(e, X40, Y_CLASS, [GOOD_SPLIT]),
    "paired_ttest_5x2cv": lambda e: paired_ttest_5x2cv(LDA, e, X40, Y_CLASS),
    "combined_ftest_5x2cv": lambda e: combined_ftest_5x2cv(e, LDA, X40, Y_CLASS),
    "mcnemar_holdout": lambda e: mcnemar_holdout(LDA, e, X40, Y_CLASS),
    "corrected_paired_ttest": lambda e: corrected_paired_ttest(e, LDA, X40, Y_CLASS),
}


@pytest.mark.parametrize(
    "bad", ["lda", LinearDiscriminantAnalysis, object()], ids=["string", "class", "object"]
)
@pytest.mark.parametrize("call", ESTIMATOR_CALLS.values(), ids=ESTIMATOR_CALLS)
def test_estimators_that_are_not_estimators(call, bad):
    with pytest.raises(TypeError) as err:
        call(bad)
    _named(err, "estimator")


# --------------------------------------------------------------------------- #
# CompleteKCV's precomputed path

K40 = rbf_kernel(X40)
PRECOMPUTED_BAD = {
    "short_y": ((K40, Y_CLASS[:5]), "y must hold one label per row of K"),
    "unknown_param": ((K40, Y_CLASS, {"Cx": 1.0}), "params holds unknown SVC parameter"),
    "unknown_param_in_list": ((K40, Y_CLASS, [{"C": 1.0}, {"gama": 1}]), "params[1]"),
    "one_class": ((K40, np.ones(40, int)), "y must hold two classes"),
    "nan_kernel": ((np.where(np.eye(40) > 0, np.nan, K40), Y_CLASS), "K must be finite"),
    "non_square": ((K40[:5], Y_CLASS), "K must be a square"),
    "1d_kernel": ((K40[0], Y_CLASS), "K must be 2-dimensional"),
    "negative_class_weight": ((K40, Y_CLASS, {"class_weight": {1: -2.0}}), "class_weight"),
    "negative_C": ((K40, Y_CLASS, {"C": -1.0}), "'C' parameter"),
    "string_params": ((K40, Y_CLASS, "C=1"), "params must be a mapping"),
}


@pytest.mark.parametrize("args,match", PRECOMPUTED_BAD.values(), ids=PRECOMPUTED_BAD)
@pytest.mark.parametrize("backend", ["libsvm", "svc"])
def test_precomputed_path_refuses_by_name(args, match, backend):
    from cvbook.ckcv import solver_backend

    if backend == "libsvm" and solver_backend() != "libsvm":
        pytest.skip("libsvm fast path not available")
    with pytest.raises((ValueError, TypeError)) as err:
        fit_precomputed(*args, backend=backend)
    assert match in str(err.value)


@pytest.mark.parametrize(
    "convert",
    [np.asfortranarray, lambda K: K.astype(np.float32), lambda K: K.tolist()],
    ids=["fortran", "float32", "list"],
)
def test_precomputed_path_converts_fortran_float32_and_lists_as_svc_does(convert):
    ref = fit_precomputed(K40, Y_CLASS, {"C": 2.0}, backend="svc")
    got = fit_precomputed(convert(K40), Y_CLASS, {"C": 2.0}, backend="svc")
    np.testing.assert_allclose(got.dual_coef_, ref.dual_coef_, rtol=1e-5, atol=1e-6)


def test_precomputed_path_one_class_training_part_skips_k_with_a_warning():
    """The three-way split is not stratified: a k whose training part holds one class is
    skipped by name; when none is left, the error names k_values and the class size."""
    y = np.r_[np.ones(3), -np.ones(37)].astype(int)
    with pytest.warns(UserWarning, match=r"k_values: skipped k = 3"):
        model = CompleteKCV(
            param_grid={"C": [1.0], "gamma": [1.0]}, k_values=[3, 20], n_splits=20, random_state=1
        ).fit(X40, y)
    assert set(model.cv_results_["k"].tolist()) == {20}
    with pytest.raises(ValueError, match=r"k_values: no k in \[3\].*class 1 has 3 of 40"):
        CompleteKCV(
            param_grid={"C": [1.0], "gamma": [1.0]}, k_values=[3], n_splits=20, random_state=1
        ).fit(X40, y)


@pytest.mark.slow
def test_precomputed_path_default_completekcv_passes_check_estimator():
    """With the default k_values every scikit-learn check passes (the four that fit
    12-21 points with k = 3 alone end in the named k_values error instead)."""
    from sklearn.utils.estimator_checks import check_estimator

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(CompleteKCV(n_splits=2, random_state=0), on_fail=None)
    failed = [r["check_name"] for r in results if r["status"] == "failed"]
    assert failed == []


# --------------------------------------------------------------------------- #
# loaders: the .npz reader


def _npz(tmp_path, **arrays):
    folder = tmp_path / "home"
    folder.mkdir(exist_ok=True)
    base = {"x": [[0.0], [1.0], [2.0]], "t": [1, -1, 1], "train": [[0, 1]], "test": [[2]]}
    np.savez(folder / "heart.npz", **{**base, **arrays})
    return folder


NPZ_BAD = {
    "float_index": ({"train": [[0.5, 1.0]]}, "train"),
    "negative_index": ({"train": [[-1, 1]]}, "train"),
    "index_out_of_range": ({"test": [[3]]}, "test"),
    "empty_index": ({"test": np.empty((1, 0), int)}, "test"),
    "nan_feature": ({"x": [[np.nan], [1.0], [2.0]]}, "x in"),
    "inf_feature": ({"x": [[np.inf], [1.0], [2.0]]}, "x in"),
    "short_labels": ({"t": [1, -1]}, "t in"),
    "string_features": ({"x": [["a"], ["b"], ["c"]]}, "x in"),
    "realisation_counts": ({"test": [[2], [2]]}, "train and test"),
    "bad_labels": ({"t": [0, 1, 2]}, "labels t"),
}


@pytest.mark.parametrize("arrays,name", NPZ_BAD.values(), ids=NPZ_BAD)
def test_loaders_npz_layout(tmp_path, arrays, name):
    home = _npz(tmp_path, **arrays)
    with pytest.raises(ValueError) as err:
        load_raetsch("heart", 1, data_home=home)
    _named(err, name)


@pytest.mark.parametrize(
    "content", [b"junk", b"PK\x03\x04truncated", b"\x93NUMPY\x01\x00"], ids=["junk", "zip", "npy"]
)
def test_loaders_junk_or_truncated_npz(tmp_path, content):
    home = tmp_path / "home"
    home.mkdir()
    (home / "heart.npz").write_bytes(content)
    with pytest.raises(ValueError) as err:
        load_raetsch("heart", 1, data_home=home)
    assert "cannot read" in str(err.value) and "allow_pickle" not in str(err.value)


def test_loaders_truncated_copy_of_a_valid_npz(tmp_path):
    home = _npz(tmp_path)
    data = (home / "heart.npz").read_bytes()
    (home / "heart.npz").write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="cannot read"):
        load_raetsch("heart", 1, data_home=home)


def test_loaders_valid_npz_gives_the_documented_answer(tmp_path):
    X_train, y_train, X_test, y_test = load_raetsch("heart", 1, data_home=_npz(tmp_path))
    assert X_train.ravel().tolist() == [0.0, 1.0] and y_train.tolist() == [1, -1]
    assert X_test.ravel().tolist() == [2.0] and y_test.tolist() == [1]


# --------------------------------------------------------------------------- #
# drivers: usage error naming the option, exit 2, no traceback


def _usage_error(capsys, main, argv, option):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert option in err, err
    assert "Traceback" not in err


DRIVER_CASES = {
    "coverage": (
        "cvbook.runs.coverage",
        [
            (["--out", "{file}/run"], "--out"),
            (["--out", "{dir}"], "--out"),
            (["--out", "r", "--n", "0"], "--n"),
            (["--out", "r", "--k", "2"], "--k"),
            (["--out", "r", "--delta", "inf"], "--delta"),
            (["--out", "r", "--delta", "1"], "--delta"),
            (["--out", "r", "--n-repeats", "0"], "--n-repeats"),
            (["--out", "r", "--n-fresh", "10"], "--n-fresh"),
            (["--out", "r", "--seed", "-1"], "--seed"),
            (["--out", "r", "--seed", "4294967296"], "--seed"),
            (["--out", "r", "--n-jobs", "0"], "--n-jobs"),
            (["--out", "r", "--n", "10", "--k", "6"], "--n"),
            (["--out", "r", "--checkpoint", "{file}"], "--checkpoint"),
            (["--out", "r", "--n"], "--n"),
        ],
    ),
    "table1": (
        "cvbook.runs.table1",
        [
            (["--out", "{file}/t"], "--out"),
            (["--out", "{file}"], "--out"),
            (["--datasets"], "--datasets"),
            (["--datasets", "bananas"], "--datasets"),
            (["--realisations"], "--realisations"),
            (["--realisations", "0"], "--realisations"),
            (["--realisations", "x"], "--realisations"),
            (["--n-jobs", "0"], "--n-jobs"),
            (["--data-home", "{dir}/missing"], "--data-home"),
            (["--data-home", "{file}"], "--data-home"),
        ],
    ),
    "intervals": (
        "cvbook.runs.intervals",
        [
            (["--out", "{file}/i"], "--out"),
            (["--out", "{file}"], "--out"),
            (["--scale", "inf"], "--scale"),
            (["--scale", "nan"], "--scale"),
            (["--scale", "0"], "--scale"),
            (["--scale", "-1"], "--scale"),
            (["--n-jobs", "0"], "--n-jobs"),
            (["--seed", "-1"], "--seed"),
            (["--seed", "4294967295"], "--seed"),
            (["--n-fresh", "0"], "--n-fresh"),
            (["--designs"], "--designs"),
            (["--designs", "nope"], "--designs"),
        ],
    ),
    "bootstrap": (
        "cvbook.runs.bootstrap",
        [
            (["--out", "{file}/b"], "--out"),
            (["--out", "{file}"], "--out"),
            (["--out", "{dir}/b", "--m", "3"], "--m"),
            (["--out", "{dir}/b", "--distribution", "bogus"], "--distribution"),
            (["--out", "{dir}/b", "--seed", "-3"], "--seed"),
            (["--out", "{dir}/b", "--n-jobs", "0"], "--n-jobs"),
            (["--out", "{dir}/b", "--learners", "forest"], "--learners"),
            (["--out", ""], "--out"),
            (["--out", "{dir}/b", "--m", "20", "3"], "--m"),
        ],
    ),
    "which_is_better": (
        "cvbook.runs.which_is_better",
        [
            (["--out", "{file}/b"], "--out"),
            (["--out", "{file}"], "--out"),
            (["--out", ""], "--out"),
            (["--out", "{dir}/b", "--n", "10"], "--n"),
            (["--out", "{dir}/b", "--n-repeats", "0"], "--n-repeats"),
            (["--out", "{dir}/b", "--seed", "-3"], "--seed"),
            (["--out", "{dir}/b", "--n-jobs", "0"], "--n-jobs"),
            (["--out", "{dir}/b", "--cases", "bogus"], "--cases"),
        ],
    ),
}
DRIVER_PARAMS = [
    pytest.param(module, argv, option, id=f"{name}:{' '.join(argv)}")
    for name, (module, cases) in DRIVER_CASES.items()
    for argv, option in cases
]


@pytest.mark.parametrize("module,argv,option", DRIVER_PARAMS)
def test_drivers_bad_option_is_a_usage_error(tmp_path, capsys, monkeypatch, module, argv, option):
    import importlib

    main = importlib.import_module(module).main
    (tmp_path / "afile").write_text("x")
    monkeypatch.chdir(tmp_path)
    argv = [a.format(file=tmp_path / "afile", dir=tmp_path) for a in argv] + ["--no-progress"]
    _usage_error(capsys, main, argv, option)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]  # nothing written


def test_drivers_table1_realisation_out_of_range_names_the_option(tmp_path, capsys):
    from cvbook.runs.table1 import main

    home = _npz(tmp_path)
    argv = ["--out", str(tmp_path / "t"), "--datasets", "heart", "--realisations", "2"]
    _usage_error(capsys, main, [*argv, "--data-home", str(home), "--no-progress"], "--realisations")


def test_drivers_coverage_writes_under_the_exact_out_path(tmp_path):
    """--out run.a and --out run.b write two runs (no with_suffix collision)."""
    from cvbook.runs.coverage import main, read_results

    common = ["--n", "30", "--k", "3", "--n-repeats", "2", "--n-fresh", "1000", "--no-progress"]
    for name, seed in (("run.a", "1"), ("run.b", "2")):
        assert main(["--out", str(tmp_path / name), "--seed", seed, *common]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "records.json",  # the ledger of the folder's runs (cvbook.records)
        "run.a.json",
        "run.a.records.csv.gz",
        "run.b.json",
        "run.b.records.csv.gz",
    ]
    assert read_results(tmp_path / "run.a")[1]["parameters"]["seed"] == 1
    assert read_results(tmp_path / "run.b")[1]["parameters"]["seed"] == 2


# --------------------------------------------------------------------------- #
# the three decisions


@FAST
@given(b=st.integers(0, 40), c=st.integers(0, 40), same=st.integers(1, 20))
def test_decision_mcnemar_exact_and_corrected_agree_with_statsmodels(b, c, same):
    sm = pytest.importorskip("statsmodels.stats.contingency_tables")
    y = np.zeros(b + c + same, int)
    pa = np.r_[np.ones(b), np.zeros(c), np.zeros(same)].astype(int)  # A wrong on the b
    pb = np.r_[np.zeros(b), np.ones(c), np.zeros(same)].astype(int)  # B wrong on the c
    table = [[same, c], [b, 0]]  # rows: A right/wrong; columns: B right/wrong
    exact = mcnemar_test(y, pa, pb)
    ref = sm.mcnemar(table, exact=True)
    assert exact.statistic == ref.statistic
    assert exact.p_value == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-300)
    if b + c:
        for correction in (True, False):
            chi = mcnemar_test(y, pa, pb, exact=False, correction=correction)
            ref = sm.mcnemar(table, exact=False, correction=correction)
            assert chi.statistic == pytest.approx(ref.statistic, rel=1e-12)
            assert chi.p_value == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("K", [2, 3, 5, 10])
def test_decision_nested_bias_factor_is_one_plus_k_minus_2_over_k_to_the_1_5(K):
    inner, outer = [0.0, 1.0, 0.0, 1.0], [0.0, 1.0, 1.0, 1.0]  # means 0.5 and 0.75
    est = nested_cv_from_losses([0.1], [0.0], inner, outer, 10, K)[0]
    assert est == pytest.approx(0.5 + 0.25 * (1 + ((K - 2) / K) ** 1.5), rel=1e-12)
    assert est != pytest.approx(0.5 + 0.25 * (1 + (K - 2) / K)) or K == 2  # not mlr3inferr's


def test_decision_wald_interval_is_not_clipped():
    """Two errors in 20 test points: the Wald interval reaches below 0 and is kept so."""
    y = np.r_[np.ones(36), -np.ones(4)].astype(int)
    always_one = DummyClassifier(strategy="constant", constant=1)
    r = holdout_interval(always_one, X40, y, method="wald", test_size=20, random_state=0)
    assert r.estimate == 0.1  # the stratified test part holds 2 of the 4 negatives
    half = 1.959963984540054 * math.sqrt(0.1 * 0.9 * 20 / 19) / math.sqrt(20)
    assert r.lower == pytest.approx(0.1 - half) and r.lower < 0


# --------------------------------------------------------------------------- #
# studies: the seed of a Table 1 fit names a bad data set or realisation


@pytest.mark.parametrize(
    "name,realisation,param",
    [
        ("bananas", 1, "name"),
        (1, 1, "name"),
        ("banana", 0, "realisation"),
        ("banana", 1.0, "realisation"),
    ],
)
def test_studies_table1_seed_names_its_argument(name, realisation, param):
    from cvbook.studies.table1_replication import TABLE1_GRID

    with pytest.raises(ValueError) as err:
        TABLE1_GRID.random_state(name, realisation)
    _named(err, param)
    assert TABLE1_GRID.random_state("banana", 1) == TABLE1_GRID.random_state("banana", 1)


# --------------------------------------------------------------------------- #
# Second pass: an independent probe of every public function (954 calls), 2026-11-26.
# Each row is (call, exception, fragment the message must hold: the argument's name).


def _second_pass_cases() -> dict:
    from sklearn.linear_model import LinearRegression

    from cvbook import book, bootstrap, ckcv, dependence, holdout, kfold, loo, risk, stats
    from cvbook.bounds import error_rate_bound
    from cvbook.compare import ComparisonTest
    from cvbook.datasets.synthetic import make_distribution
    from cvbook.intervals import RiskInterval, kfold_splits, random_splits

    X, y = TwoGaussians().sample(40, random_state=0)
    y_cont = np.linspace(-3.0, 3.0, 40) + 0.1
    lda = LinearDiscriminantAnalysis()
    ri = ("holdout_wald", "conditional", 80, 1, 0.05)
    return {
        # loss vs target: a continuous y with the 0-1 loss, predictions that are not labels
        "risk.empirical_risk continuous": (
            lambda: risk.empirical_risk([0.1, 2.3, 3.3], [0.1, 2.3, 3.1]),
            ValueError,
            "y_true",
        ),
        "risk.zero_one_losses probabilities": (
            lambda: risk.zero_one_losses([1, 0, 1], [0.9, 0.2, 0.7]),
            ValueError,
            "y_pred",
        ),
        "risk.zero_one_losses str vs int": (
            lambda: risk.zero_one_losses(["1", "0"], [1, 0]),
            TypeError,
            "y_pred",
        ),
        "risk.count_errors str vs int": (
            lambda: risk.count_errors(["a"], [1]),
            TypeError,
            "y_pred",
        ),
        "bounds.error_rate_bound probabilities": (
            lambda: error_rate_bound([1, 0, 1], [0.9, 0.2, 0.7]),
            ValueError,
            "y_pred",
        ),
        "bounds.error_rate_bound continuous": (
            lambda: error_rate_bound([0.1, 2.3, 3.3], [0.1, 2.3, 3.1]),
            ValueError,
            "y_true",
        ),
        "bounds.error_rate_bound None label": (
            lambda: error_rate_bound([None, 1], [1, 1]),
            TypeError,
            "y_true",
        ),
        "holdout.holdout_risk continuous": (
            lambda: holdout.holdout_risk(LinearRegression(), X, y_cont),
            ValueError,
            "y must",
        ),
        "holdout.holdout_risks continuous": (
            lambda: holdout.holdout_risks(LinearRegression(), X, y_cont),
            ValueError,
            "y must",
        ),
        "holdout.holdout_select continuous": (
            lambda: holdout.holdout_select([LinearRegression()], X, y_cont),
            ValueError,
            "y must",
        ),
        "kfold.kfold_risks continuous": (
            lambda: kfold.kfold_risks(LinearRegression(), X, y_cont),
            ValueError,
            "y must",
        ),
        "kfold.kfold_from_scratch continuous": (
            lambda: kfold.kfold_from_scratch(LinearRegression(), X, y_cont),
            ValueError,
            "y must",
        ),
        "kfold.kfold_select continuous": (
            lambda: kfold.kfold_select([LinearRegression()], X, y_cont),
            ValueError,
            "y must",
        ),
        "loo.loo_risk continuous": (
            lambda: loo.loo_risk(LinearRegression(), X, y_cont),
            ValueError,
            "y must",
        ),
        "bootstrap.bootstrap_estimates continuous": (
            lambda: bootstrap.bootstrap_estimates(LinearRegression(), X, y_cont, n_bootstraps=5),
            ValueError,
            "y must",
        ),
        "bootstrap.no_information_rate probabilities": (
            lambda: bootstrap.no_information_rate([0, 1], [0.2, 0.9]),
            ValueError,
            "y_pred",
        ),
        "bootstrap.no_information_rate continuous": (
            lambda: bootstrap.no_information_rate([0.5, 1.5], [0.5, 1.5]),
            ValueError,
            "y must hold class labels",  # its argument is y (issue 35), not y_true
        ),
        "bootstrap.no_information_rate length": (
            lambda: bootstrap.no_information_rate([0, 1, 1], [0, 1]),
            ValueError,
            "y_pred",
        ),
        "bootstrap.no_information_rate empty": (
            lambda: bootstrap.no_information_rate([], []),
            ValueError,
            "y",
        ),
        "bootstrap.no_information_rate NaN squared": (
            lambda: bootstrap.no_information_rate([1, 2], [1, np.nan], "squared"),
            ValueError,
            "y_pred",
        ),
        "intervals.kfold_splits continuous": (
            lambda: kfold_splits(y_cont, 5),
            ValueError,
            "y must",
        ),
        "intervals.kfold_splits NaN": (
            lambda: kfold_splits([0, 1, np.nan, 1], 2),
            ValueError,
            "y must",
        ),
        # index arrays a user gives as cv
        "kfold.kfold_risks overlapping parts": (
            lambda: kfold.kfold_risks(lda, X, y, cv=[(np.arange(40), np.arange(10))]),
            ValueError,
            "cv[0]",
        ),
        "kfold.kfold_risks repeated train": (
            lambda: kfold.kfold_risks(
                lda, X, y, cv=[(np.r_[np.arange(10, 40), 10], np.arange(10))]
            ),
            ValueError,
            "cv[0]",
        ),
        "kfold.kfold_risks empty train": (
            lambda: kfold.kfold_risks(lda, X, y, cv=[(np.array([], int), np.arange(10))]),
            ValueError,
            "cv[0]",
        ),
        "kfold.kfold_risks too many folds": (
            lambda: kfold.kfold_risks(
                lda, X, y, cv=__import__("sklearn").model_selection.KFold(50)
            ),
            ValueError,
            "cv",
        ),
        "kfold.kfold_risks junk seed unshuffled": (
            lambda: kfold.kfold_risks(lda, X, y, shuffle=False, random_state="junk"),
            TypeError,
            "random_state",
        ),
        "kfold.make_kfold m against y": (
            lambda: kfold.make_kfold(5, y=y, m=10),
            ValueError,
            "m must",
        ),
        "kfold.make_kfold 2-d y": (
            lambda: kfold.make_kfold(2, y=[[0, 1], [1, 0]], stratify=True),
            ValueError,
            "y must",
        ),
        "kfold.check_n_splits m a string": (
            lambda: kfold.check_n_splits(5, "10"),
            TypeError,
            "m must",
        ),
        "kfold.FoldRisks lengths": (
            lambda: kfold.FoldRisks(np.array([0.1, 0.2]), np.array([1])),
            ValueError,
            "sizes",
        ),
        # sizes
        "holdout.holdout_risk empty training part": (
            lambda: holdout.holdout_risk(lda, X, y, test_size=0.99),
            ValueError,
            "test_size",
        ),
        "holdout.holdout_risks stratify one member": (
            lambda: holdout.holdout_risks(lda, X, np.r_[np.ones(39), 0], stratify=True),
            ValueError,
            "stratify",
        ),
        "holdout.holdout_risks stratify tiny test": (
            lambda: holdout.holdout_risks(lda, X, y, stratify=True, test_size=0.01),
            ValueError,
            "stratify",
        ),
        "holdout.Selection empty": (
            lambda: holdout.Selection([], np.array([]), 0, None),
            ValueError,
            "risks",
        ),
        "loo.loo_risk n_jobs huge": (
            lambda: loo.loo_risk(lda, X, y, n_jobs=10**6),
            ValueError,
            "n_jobs",
        ),
        "bootstrap.bootstrap_estimates n_jobs 0": (
            lambda: bootstrap.bootstrap_estimates(lda, X, y, n_bootstraps=5, n_jobs=0),
            ValueError,
            "n_jobs",
        ),
        "bootstrap.bootstrap_estimates n_jobs str": (
            lambda: bootstrap.bootstrap_estimates(lda, X, y, n_bootstraps=5, n_jobs="2"),
            TypeError,
            "n_jobs",
        ),
        "bootstrap.bootstrap_estimates splits without out-of-bag": (
            lambda: bootstrap.bootstrap_estimates(
                lda, X, y, splits=[(np.arange(40), np.array([], int))]
            ),
            ValueError,
            "splits",
        ),
        "ckcv.first_minimum negative rtol": (
            lambda: ckcv.first_minimum([1.0, 2.0], rtol=-1),
            ValueError,
            "rtol",
        ),
        "ckcv.first_minimum NaN rtol": (
            lambda: ckcv.first_minimum([1.0, 2.0], rtol=float("nan")),
            ValueError,
            "rtol",
        ),
        "datasets.true_risk n": (
            lambda: true_risk(lda.fit(X, y), TwoGaussians(), n=-5),
            ValueError,
            "n must",
        ),
        # estimators that are not estimators
        "bootstrap.bootstrap_estimates a string": (
            lambda: bootstrap.bootstrap_estimates("lda", X, y, n_bootstraps=5),
            ValueError,
            "estimator",
        ),
        "bootstrap.bootstrap_estimates a class": (
            lambda: bootstrap.bootstrap_estimates(LinearDiscriminantAnalysis, X, y, n_bootstraps=5),
            ValueError,
            "estimator",
        ),
        "ckcv.CompleteKCV a string": (
            lambda: CompleteKCV(estimator="svm").fit(X, y),
            TypeError,
            "estimator",
        ),
        "ckcv.CompleteKCV negative C": (
            lambda: CompleteKCV(param_grid={"C": [-1.0]}).fit(X, y),
            ValueError,
            "C",
        ),
        "ckcv.CompleteKCV scalar C": (
            lambda: CompleteKCV(param_grid={"C": 1.0}).fit(X, y),
            TypeError,
            "param_grid",
        ),
        "ckcv.CompleteKCV empty C": (
            lambda: CompleteKCV(param_grid={"C": []}).fit(X, y),
            ValueError,
            "param_grid",
        ),
        "ckcv.CompleteKCV n_jobs 0": (
            lambda: CompleteKCV(n_jobs=0).fit(X, y),
            ValueError,
            "n_jobs",
        ),
        "ckcv.ThreeWaySplit an int": (lambda: list(ckcv.ThreeWaySplit(3).split(5)), TypeError, "X"),
        "bootstrap.BootstrapSplit an int": (
            lambda: list(bootstrap.BootstrapSplit(3).split(5)),
            TypeError,
            "X",
        ),
        "bootstrap.BootstrapSplit a string": (
            lambda: list(bootstrap.BootstrapSplit(3).split("abcdef")),
            TypeError,
            "X",
        ),
        "compare.mcnemar_holdout a regressor": (
            lambda: mcnemar_holdout(LinearRegression(), lda, X, y),
            ValueError,
            "estimator_a",
        ),
        # results that are not results
        "intervals.RiskInterval lower above upper": (
            lambda: RiskInterval(0.2, 0.3, 0.1, *ri),
            ValueError,
            "lower",
        ),
        "intervals.RiskInterval unknown method": (
            lambda: RiskInterval(0.2, 0.1, 0.3, "bogus", *ri[1:]),
            ValueError,
            "method",
        ),
        "intervals.RiskInterval alpha 5": (
            lambda: RiskInterval(0.2, 0.1, 0.3, *ri[:-1], 5),
            ValueError,
            "alpha",
        ),
        "intervals.RiskInterval.covers NaN": (
            lambda: RiskInterval(0.2, 0.1, 0.3, *ri).covers(float("nan")),
            ValueError,
            "value",
        ),
        "intervals.RiskInterval.covers a string": (
            lambda: RiskInterval(0.2, 0.1, 0.3, *ri).covers("0.2"),
            TypeError,
            "value",
        ),
        "intervals.random_splits n_test": (
            lambda: random_splits(y, 2, 40, "zero_one", 0),
            ValueError,
            "n_test",
        ),
        "compare.ComparisonTest NaN p": (
            lambda: ComparisonTest(0.1, 1.0, float("nan"), (5.0,), "x", "expected", 20),
            ValueError,
            "p_value",
        ),
        "compare.ComparisonTest unknown null": (
            lambda: ComparisonTest(0.1, 1.0, 0.5, (5.0,), "x", "bogus", 20),
            ValueError,
            "null",
        ),
        "stats.Paired negative se": (lambda: stats.Paired(0.1, -1.0, 3), ValueError, "se"),
        "stats.Paired strings": (lambda: stats.Paired("a", "b", 3), TypeError, "mean"),
        "stats.paired_variance_test NaN": (
            lambda: stats.paired_variance_test([1, 2, np.nan, 4], [1, 2, 3, 4]),
            ValueError,
            "x",
        ),
        "stats.paired_variance_test constant": (
            lambda: stats.paired_variance_test([1, 2, 3], [5, 5, 5]),
            ValueError,
            "y must",
        ),
        "stats.paired_variance_test strings": (
            lambda: stats.paired_variance_test(["a", "b", "c"], [1, 2, 3]),
            TypeError,
            "x",
        ),
        "dependence.intraclass_correlation constant": (
            lambda: dependence.intraclass_correlation([5, 5, 5, 5], [0, 0, 1, 1]),
            ValueError,
            "values",
        ),
        "dependence.intraclass_correlation NaN groups": (
            lambda: dependence.intraclass_correlation([1, 2, 3, 4], [0, 0, np.nan, np.nan]),
            ValueError,
            "groups",
        ),
        "dependence.lag1_autocorrelation strings": (
            lambda: dependence.lag1_autocorrelation(["1", "2", "3"]),
            TypeError,
            "series",
        ),
        "risk.draw_sample classes an int": (
            lambda: risk.draw_sample(TwoGaussians(), 10, classes=5),
            TypeError,
            "classes",
        ),
        "risk.draw_sample foreign classes": (
            lambda: risk.draw_sample(TwoGaussians(), 10, classes=(0, 1)),
            ValueError,
            "classes",
        ),
        "datasets.make_distribution upper case": (
            lambda: make_distribution("TWONORM"),
            ValueError,
            "distribution must",
        ),
        # the chapters' scaffolding
        "book.format_pm negative scale": (
            lambda: book.format_pm(0.1, 0.01, scale=-100),
            ValueError,
            "scale",
        ),
        "book.format_pm overflow": (
            lambda: book.format_pm(1e300, 1e300, scale=1e10),
            ValueError,
            "scale",
        ),
        "book.publish a bool with a format": (
            lambda: book.publish(hp_b=(True, ".3f")),
            TypeError,
            "hp_b",
        ),
        "book.publish a keyword": (lambda: book.publish({"class": 1}), ValueError, "class"),
        "book.publish a private name": (
            lambda: book.publish({"_values": 1}),
            ValueError,
            "_values",
        ),
        "book.publish twice": (lambda: book.publish({"hp_d": 1}, hp_d=2), ValueError, "hp_d"),
        "book.publish a string": (lambda: book.publish("abc"), TypeError, "values"),
        "book.check_seed above 2**32": (lambda: book.check_seed(2**40, "seed"), ValueError, "seed"),
        "book.check_int_list negative min_len": (
            lambda: book.check_int_list([1], "s", min_len=-1),
            ValueError,
            "min_len",
        ),
        "book.check_choice a string as choices": (
            lambda: book.check_choice("s", "m", "svm"),
            TypeError,
            "choices",
        ),
        "book.check_choice no choices": (
            lambda: book.check_choice("s", "m", []),
            ValueError,
            "choices",
        ),
        "book.check_int_parameter empty range": (
            lambda: book.check_int_parameter(5, "m", low=10, high=1),
            ValueError,
            "low",
        ),
        "book.check_int_parameter string bound": (
            lambda: book.check_int_parameter(5, "m", low="1"),
            TypeError,
            "low",
        ),
        "book.check_float_parameter NaN bound": (
            lambda: book.check_float_parameter(0.5, "d", low=np.nan),
            TypeError,
            "low",
        ),
        "book.results_path absolute": (
            lambda: book.results_path("/etc/passwd"),
            ValueError,
            "parts",
        ),
        "book.results_path escapes": (
            lambda: book.results_path("..", "..", "etc"),
            ValueError,
            "parts",
        ),
        "book.results_path none": (lambda: book.results_path(), ValueError, "parts"),
        "book.unknown_parameters None": (
            lambda: book.unknown_parameters(None, "x = 1"),
            TypeError,
            "parameters_source",
        ),
        "book.unknown_parameters syntax error": (
            lambda: book.unknown_parameters("m = (", "n = 2"),
            ValueError,
            "parameters_source",
        ),
    }


def _re_probe_cases() -> dict:
    """What a re-run of the probe (1,685 calls) still found after the second pass."""
    from cvbook import kfold, loo, risk
    from cvbook.datasets import Twonorm
    from cvbook.provenance import atomic_write_text

    X, y = TwoGaussians().sample(40, random_state=0)
    lda20 = LinearDiscriminantAnalysis().fit(*Twonorm().sample(60, random_state=0))
    lda2 = LinearDiscriminantAnalysis().fit(X, y)
    return {
        "kfold.FoldRisks NaN risk": (
            lambda: kfold.FoldRisks(np.array([0.1, np.nan]), np.array([5, 5])),
            ValueError,
            "risks",
        ),
        "kfold.FoldRisks negative risk": (
            lambda: kfold.FoldRisks(np.array([-0.1, 0.2]), np.array([5, 5])),
            ValueError,
            "risks",
        ),
        "kfold.FoldRisks empty fold": (
            lambda: kfold.FoldRisks(np.array([0.1, 0.2]), np.array([0, 5])),
            ValueError,
            "sizes",
        ),
        "kfold.FoldRisks fractional size": (
            lambda: kfold.FoldRisks(np.array([0.1, 0.2]), np.array([2.5, 5])),
            ValueError,
            "sizes",
        ),
        "intervals.pointwise_loss overflow": (
            lambda: pointwise_loss([1e200, 2.0], [-1e200, 2.0], "squared"),
            ValueError,
            "y_pred",
        ),
        "risk.empirical_risk negative losses": (
            lambda: risk.empirical_risk([1, 0], [1, 1], loss=lambda a, b: -np.ones(2)),
            ValueError,
            "loss",
        ),
        "risk.empirical_risk a one-argument loss": (
            lambda: risk.empirical_risk([1, 0], [1, 1], loss=abs),
            TypeError,
            "loss",
        ),
        "loo.loo_risk 1-d X": (
            lambda: loo.loo_risk(LinearDiscriminantAnalysis(), X[:, 0], y),
            ValueError,
            "X",
        ),
        "datasets.monte_carlo_risk other dimension": (
            lambda: monte_carlo_risk(lda20, TwoGaussians(), n=100),
            ValueError,
            "features",
        ),
        "datasets.true_risk sample lengths on the exact route": (
            lambda: true_risk(lda2, TwoGaussians(), sample=(X, y[:5])),
            ValueError,
            "sample",
        ),
        "provenance.atomic_write_text under a file": (
            lambda: atomic_write_text(__file__ + "/child.txt", "x"),
            ValueError,
            "path",
        ),
    }


SECOND_PASS = {**_second_pass_cases(), **_re_probe_cases()}


@pytest.mark.parametrize("case", SECOND_PASS, ids=list(SECOND_PASS))
def test_second_pass_named_errors(case):
    call, error, fragment = SECOND_PASS[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error, match=None) as info:
            call()
    assert fragment in str(info.value), f"{case}: {info.value}"


def test_second_pass_valid_input_still_works():
    """What the second pass tightened still takes what it documents."""
    from cvbook import book, bootstrap, kfold, risk
    from cvbook.bounds import error_rate_bound

    assert risk.empirical_risk(["a", "b"], ["a", "a"]) == 0.5
    assert risk.empirical_risk([1.0, -1.0], [1, 1]) == 0.5  # float labels that are whole
    assert error_rate_bound([1, -1, 1, 1], [1, 1, 1, 1])[0] == 0.25
    assert bootstrap.no_information_rate([0, 0, 1, 1], [0, 0, 0, 1]) == 0.5
    assert bootstrap.no_information_rate([0.0, 2.0], [1.0, 1.0], loss="squared") == 1.0
    assert book.format_number(-0.0001, ">8.2f") == "    0.00"
    assert (
        book.format_number(5, ",d") == "5" and book.format_number(np.int64(1234), ",d") == "1,234"
    )
    from cvbook.validation import check_int

    assert check_int(np.array(3), "k") == 3
    # a number a legal run cannot compute (the SE of one data set) reads n/a, never "nan"
    assert book.format_number(np.nan, ".3f") == "n/a"
    book.publish(hp_undefined=(np.nan, ".3f"), hp_infinite=(-np.inf, ".3f"))
    assert book.published()["hp_undefined"] == "n/a"
    assert book.published()["hp_infinite"] == "−∞"
    assert book.check_seed(2**32 - 1, "seed") == 2**32 - 1
    book.publish(hp_zero_d=(np.array(0.5), ".2f"))
    assert book.published()["hp_zero_d"] == "0.50"
    X, y = TwoGaussians().sample(40, random_state=0)
    folds = kfold.kfold_risks(LinearDiscriminantAnalysis(), X, y, n_splits=4, random_state=0)
    assert folds.n_splits == 4
