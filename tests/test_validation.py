"""Argument checks name the parameter and what is allowed."""

from __future__ import annotations

import numpy as np
import pytest

from cvbook.validation import (
    check_binary_labels,
    check_finite,
    check_int,
    check_integer_array,
    check_open_unit,
    check_same_length,
)


def test_open_unit():
    assert check_open_unit(0.5, "delta") == 0.5
    for bad in (0, 1, -0.1, 1.1, np.nan, np.inf):
        with pytest.raises(ValueError, match="delta must lie strictly between 0 and 1"):
            check_open_unit(bad, "delta")


def test_int():
    assert check_int(np.int64(3), "k", minimum=2) == 3
    with pytest.raises(ValueError, match="k must be >= 2, got 1"):
        check_int(1, "k", minimum=2)
    with pytest.raises(ValueError, match="k must be <= 5, got 6"):
        check_int(6, "k", maximum=5)
    for bad in (2.0, True, "3", None):
        with pytest.raises(ValueError, match="k must be an integer"):
            check_int(bad, "k")


def test_integer_array():
    np.testing.assert_array_equal(check_integer_array([1.0, 2.0], "n"), [1, 2])
    with pytest.raises(ValueError, match="n must hold integers"):
        check_integer_array([1.5], "n")
    with pytest.raises(ValueError, match="n must hold integers, got booleans"):
        check_integer_array([True], "n")


def test_finite_and_lengths():
    with pytest.raises(ValueError, match="X must be finite"):
        check_finite([1.0, np.nan], "X")
    assert check_same_length(("X", [1, 2]), ("y", [3, 4])) == 2
    with pytest.raises(ValueError, match="X has 2, y has 3"):
        check_same_length(("X", [1, 2]), ("y", [1, 2, 3]))


def test_binary_labels():
    check_binary_labels([-1, 1, 1])
    check_binary_labels(np.array(["a", "b"]))
    with pytest.raises(ValueError, match=r"y must be binary .* got 3 distinct labels"):
        check_binary_labels([0, 1, 2])
    with pytest.raises(ValueError, match="y must be one-dimensional"):
        check_binary_labels([[0, 1]])
    with pytest.raises(ValueError, match="y must be finite"):
        check_binary_labels([0.0, np.nan])


# --- the validators added for hostile input (issue 13) ---------------------------------

import warnings  # noqa: E402

from sklearn.exceptions import DataConversionWarning  # noqa: E402
from sklearn.model_selection import KFold  # noqa: E402
from sklearn.utils import check_random_state as sk_check_random_state  # noqa: E402

from cvbook.validation import (  # noqa: E402
    ArgumentTypeError,
    check_1d_labels,
    check_bool,
    check_cv,
    check_features,
    check_float,
    check_not_complex,
    check_random_state,
    check_rng,
)


def test_argument_type_error_is_both_a_type_and_a_value_error():
    with pytest.raises(TypeError):
        check_int("3", "k")
    with pytest.raises(ValueError):
        check_int("3", "k")
    assert issubclass(ArgumentTypeError, TypeError) and issubclass(ArgumentTypeError, ValueError)


def test_1d_labels_follow_scikit_learn():
    y = np.array([1, -1, 1])
    with pytest.warns(DataConversionWarning, match="y_true is a column vector"):
        np.testing.assert_array_equal(check_1d_labels(y[:, None], "y_true"), y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(check_1d_labels(y), y)
        assert check_1d_labels(["a", "b"]).dtype.kind == "U"
    for bad, match in [
        (np.zeros((3, 2)), r"y must be one-dimensional .* got shape \(3, 2\)"),
        (np.zeros((1, 3)), "got shape \\(1, 3\\)"),
        (np.zeros((3, 1, 1)), "one-dimensional"),
        (4, "one-dimensional"),
        ([], "at least one label"),
        ([1.0, np.nan], "finite"),
        ([1 + 0j], "must be real"),
        (np.array([1.0, np.nan], dtype=object), "finite"),
    ]:
        with pytest.raises(ValueError, match=match):
            check_1d_labels(bad)
    assert check_1d_labels([], allow_empty=True).size == 0


def test_binary_labels_use_the_1d_rule():
    with pytest.warns(DataConversionWarning):
        assert check_binary_labels(np.array([[0], [1]])).shape == (2,)
    with pytest.raises(ValueError, match="y must be real"):
        check_binary_labels([1j, 0])


@pytest.mark.parametrize("value", [1 + 2j, [1.0, 2j], np.array([1 + 0j])])
def test_complex_is_refused(value):
    with pytest.raises(ArgumentTypeError, match="X must be real, got complex values"):
        check_not_complex(value, "X")
    with pytest.raises(ArgumentTypeError, match="X must be real"):
        check_finite(value, "X")


def test_float_check():
    assert check_float(np.float32(0.5), "alpha") == 0.5
    assert check_float(np.array(2.0), "alpha") == 2.0
    assert check_float(3, "alpha", minimum=0) == 3.0
    assert check_float(np.inf, "alpha", allow_inf=True) == np.inf
    for bad in ("0.05", b"1", [0.05], np.array([0.05]), None, True, np.bool_(False), 1j, {"a": 1}):
        with pytest.raises(ArgumentTypeError, match="delta must be a real number"):
            check_float(bad, "delta")
    for bad in (np.nan, np.inf, -np.inf):
        with pytest.raises(ValueError, match="delta must be a finite number"):
            check_float(bad, "delta")
    with pytest.raises(ValueError, match=r"alpha must be > 0, got 0\.0"):
        check_float(0, "alpha", minimum=0, exclusive=True)
    with pytest.raises(ValueError, match="alpha must be <= 1"):
        check_float(2, "alpha", maximum=1)


def test_open_unit_scalar_and_arrays():
    assert check_open_unit(0.1, "delta", scalar=True) == 0.1
    np.testing.assert_array_equal(check_open_unit([0.1, 0.2], "delta"), [0.1, 0.2])
    for bad in ("0.1", [0.1, "a"], 0.1 + 1j, True):
        with pytest.raises(ValueError, match="delta"):
            check_open_unit(bad, "delta")
    with pytest.raises(ArgumentTypeError, match="delta must be a real number"):
        check_open_unit([0.05, 0.1], "delta", scalar=True)


@pytest.mark.parametrize(
    "bad", [3.7, 3.0, "35", np.inf, np.nan, True, np.bool_(True), None, [3], 3 + 0j]
)
def test_int_refuses_non_integers(bad):
    with pytest.raises(ArgumentTypeError, match="k must be an integer"):
        check_int(bad, "k")


@pytest.mark.parametrize(
    "bad, match",
    [
        ([3.7], "k_values must hold integers"),
        (["35"], "k_values must hold integers"),
        ("35", "k_values must hold integers, got the string"),
        ([np.inf], "finite integers"),
        ([True, 3], "got booleans"),
        ([3 + 0j], "must be real"),
        ([[3], [4, 5]], "rectangular"),
        ([1e30], "below 2\\*\\*63"),
        ([1, 2], "k_values must hold integers >= 3"),
    ],
)
def test_integer_array_refuses(bad, match):
    with pytest.raises(ValueError, match=match):
        check_integer_array(bad, "k_values", minimum=3)


def test_integer_array_ndim():
    with pytest.raises(ValueError, match="k_values must be 1-dimensional"):
        check_integer_array([[3]], "k_values", ndim=1)


def test_bool_check():
    assert check_bool(True, "shuffle") is True
    for bad in (1, "True", None, np.array([True])):
        with pytest.raises(ArgumentTypeError, match="shuffle must be True or False"):
            check_bool(bad, "shuffle")


def test_features():
    X = check_features([[1, 2], [3, 4]])
    assert X.dtype == float and X.shape == (2, 2)
    for bad, match in [
        (np.empty((3, 0)), "at least one feature"),
        ([1.0, 2.0], "2-dimensional .*reshape"),
        (np.zeros((2, 2, 2)), "2-dim"),
        ([["a", "b"]], "X must hold numbers"),
        ("abc", "got a string"),
        ([[1j, 0]], "must be real"),
        ([[True, False]], "booleans"),
        ([[np.nan, 1.0]], "finite"),
        (np.empty((0, 2)), "at least 1 sample"),
    ]:
        with pytest.raises(ValueError, match=match):
            check_features(bad)


def test_features_refuses_sparse_by_name():
    sparse = pytest.importorskip("scipy.sparse")
    with pytest.raises(ArgumentTypeError, match="X must be a dense array, got a sparse"):
        check_features(sparse.csr_matrix(np.eye(2)))


def test_cv_accepts_the_three_forms():
    assert check_cv(5) == 5 and check_cv(np.int64(3)) == 3
    splitter = KFold(3)
    assert check_cv(splitter) is splitter
    splits = check_cv(KFold(2).split(np.zeros((4, 1))), n_samples=4)
    assert len(splits) == 2 and all(t.dtype == np.int64 for pair in splits for t in pair)


@pytest.mark.parametrize(
    "bad, match",
    [
        ([], "cv must hold at least one \\(train, test\\) split"),
        (iter([]), "at least one"),
        (1, "cv must be >= 2"),
        (True, "cv must be an int >= 2"),
        (5.0, "cv must be an int >= 2"),
        ("5", "cv must be an int"),
        (None, "cv must be an int"),
        ([(0, 1, 2)], "cv\\[0\\] must be a \\(train, test\\) pair"),
        ([([0, 1], [])], "cv\\[0\\] has an empty test part"),
        ([([0, 1], [5])], "cv\\[0\\] holds index 5, but there are only 4 samples"),
        ([([0.5], [1])], "cv\\[0\\] train indices must hold integers"),
        ([([-1], [1])], "cv\\[0\\] train indices must hold integers >= 0"),
    ],
)
def test_cv_refuses(bad, match):
    with pytest.raises(ValueError, match=match):
        check_cv(bad, n_samples=4)


SEEDS = {
    "None": lambda: None,
    "int": lambda: 3,
    "uint32": lambda: np.uint32(3),
    "Generator": lambda: np.random.default_rng(3),
    "RandomState": lambda: np.random.RandomState(3),
    "SeedSequence": lambda: np.random.SeedSequence(3),
}


@pytest.mark.parametrize(
    "to, kind",
    [("generator", np.random.Generator), ("randomstate", np.random.RandomState), ("seed", int)],
)
@pytest.mark.parametrize("seed", list(SEEDS))
def test_random_state_accepts_every_kind_and_converts(seed, to, kind):
    out = check_random_state(SEEDS[seed](), to=to)
    if seed == "None" and to == "seed":
        assert out is None
    else:
        assert isinstance(out, kind)
    if seed != "None":  # reproducible from a fresh seed of the same kind
        again = check_random_state(SEEDS[seed](), to=to)
        if to == "seed":
            assert out == again
        else:
            assert out.random() == again.random()


def test_random_state_passes_through_and_matches_sklearn():
    rng, rs = np.random.default_rng(0), np.random.RandomState(0)
    assert check_random_state(rng) is rng and check_rng(rng) is rng
    assert check_random_state(rs, to="randomstate") is rs
    ours = check_random_state(42, to="randomstate").permutation(10)
    np.testing.assert_array_equal(ours, sk_check_random_state(42).permutation(10))
    assert check_random_state(42, to="seed") == 42


@pytest.mark.parametrize(
    "bad, match",
    [
        (-1, "random_state must be >= 0"),
        (2**32, "random_state must be < 2\\*\\*32"),
        (True, "random_state must be None, an int"),
        (1.0, "must be None, an int"),
        ("0", "must be None, an int"),
        ([0, 1], "must be None, an int"),
        (np.random.PCG64(0), "must be None, an int"),
    ],
)
@pytest.mark.parametrize("to", ["generator", "randomstate", "seed"])
def test_random_state_refuses_by_name(bad, match, to):
    with pytest.raises(ValueError, match=match):
        check_random_state(bad, to=to)


def test_random_state_names_the_argument_and_the_target():
    with pytest.raises(ValueError, match="seed must be >= 0"):
        check_random_state(-2, "seed")
    with pytest.raises(ValueError, match="to must be"):
        check_random_state(0, to="legacy")


# --- one door per idea: one estimator check, one loss registry ---------------------------


def _methods_taking_an_estimator():
    from cvbook import bootstrap, holdout, intervals, kfold, loo

    X = np.random.default_rng(0).normal(size=(40, 2))
    y = (X[:, 0] > 0).astype(int)
    return {
        "holdout_risk": lambda est: holdout.holdout_risk(est, X, y),
        "kfold_risks": lambda est: kfold.kfold_risks(est, X, y),
        "loo_risk": lambda est: loo.loo_risk(est, X, y),
        "cv_wald_interval": lambda est: intervals.cv_wald_interval(est, X, y),
        "corrected_t_interval": lambda est: intervals.corrected_t_interval(est, X, y),
        "bootstrap_estimates": lambda est: bootstrap.bootstrap_estimates(est, X, y),
    }


@pytest.mark.parametrize("bad", ["svm", None, 3])
def test_every_method_answers_a_bad_estimator_with_one_error_and_one_message(bad):
    messages = set()
    for name, call in _methods_taking_an_estimator().items():
        with pytest.raises(ArgumentTypeError) as info:
            call(bad)
        messages.add(str(info.value))
        assert str(info.value).startswith("estimator must be a scikit-learn estimator"), name
    assert len(messages) == 1, messages


def test_the_methods_share_one_loss_registry():
    from sklearn.linear_model import Ridge

    from cvbook import intervals, kfold
    from cvbook.risk import absolute_losses

    X = np.random.default_rng(1).normal(size=(30, 2))
    y = X[:, 0] + np.random.default_rng(2).normal(size=30)
    for loss in ("absolute", absolute_losses):
        k = kfold.kfold_risks(Ridge(), X, y, n_splits=5, loss=loss, random_state=0)
        w = intervals.cv_wald_interval(Ridge(), X, y, n_splits=5, loss=loss, random_state=0)
        assert np.isfinite(k.mean) and w.lower <= w.estimate <= w.upper
    for call in (
        lambda: kfold.kfold_risks(Ridge(), X, y, loss="hinge"),
        lambda: intervals.cv_wald_interval(Ridge(), X, y, loss="hinge"),
    ):
        with pytest.raises(ValueError, match=r"loss must be one of \['absolute', 'squared'"):
            call()


@pytest.mark.parametrize("bad", [3, None, b"zero_one", ["zero_one"]])
def test_a_named_option_of_the_wrong_type_is_a_type_error(bad):
    """One family: a non-str where a named option is declared is a wrong type (as
    cvbook.learners.get_learner says it), an unknown str a wrong value."""
    from cvbook.learners import get_learner
    from cvbook.validation import ArgumentTypeError, Options

    with pytest.raises(ArgumentTypeError, match=r"^loss must be one of"):
        Options("zero_one", "squared").check(bad, "loss")
    with pytest.raises(ArgumentTypeError, match=r"^name must be one of"):
        get_learner(bad)
    with pytest.raises(ValueError, match=r"^loss must be one of") as err:
        Options("zero_one", "squared").check("absolute", "loss")
    assert not isinstance(err.value, ArgumentTypeError)
