"""Losses and empirical risk agree with scikit-learn's metrics; bad input is refused by name."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.exceptions import DataConversionWarning
from sklearn.tree import DecisionTreeClassifier

from cvbook.datasets import TwoGaussians
from cvbook.risk import (
    LOSSES,
    absolute_losses,
    count_errors,
    draw_sample,
    empirical_risk,
    model_risk,
    squared_losses,
    zero_one_losses,
)

floats = st.floats(-1e3, 1e3, allow_nan=False)


class Sign:
    def predict(self, X):
        return np.where(X[:, 0] > 0, 1, -1)


@given(
    st.lists(
        st.tuples(st.sampled_from([-1, 1]), st.sampled_from([-1, 1])), min_size=1, max_size=200
    )
)
def test_zero_one_matches_sklearn(pairs):
    y, p = map(np.array, zip(*pairs, strict=True))
    assert empirical_risk(y, p) == pytest.approx(metrics.zero_one_loss(y, p))
    assert count_errors(y, p) == metrics.zero_one_loss(y, p, normalize=False)
    # the per-point losses average to sklearn's zero_one_loss (the name says "losses")
    assert zero_one_losses(y, p).mean() == pytest.approx(metrics.zero_one_loss(y, p))


@given(st.lists(st.tuples(floats, floats), min_size=1, max_size=100))
def test_squared_and_absolute_match_sklearn(pairs):
    y, p = map(np.array, zip(*pairs, strict=True))
    assert empirical_risk(y, p, "squared") == pytest.approx(
        metrics.mean_squared_error(y, p), rel=1e-9, abs=1e-9
    )
    assert empirical_risk(y, p, "absolute") == pytest.approx(
        metrics.mean_absolute_error(y, p), rel=1e-9, abs=1e-9
    )


@given(st.lists(st.sampled_from([-1, 1, 2]), min_size=1, max_size=50))
def test_column_labels_give_the_1d_answer(labels):
    """Property: y as a (n, 1) column gives the 1-d result, with sklearn's warning."""
    y = np.array(labels)
    p = np.roll(y, 1)
    with pytest.warns(DataConversionWarning):
        assert empirical_risk(y[:, None], p) == empirical_risk(y, p)
    with pytest.warns(DataConversionWarning):
        assert count_errors(y, p[:, None]) == count_errors(y, p)


def test_the_issue_examples_column_vectors():
    y = np.array([1, -1, 1, 1, -1, 1, -1, -1])
    with pytest.warns(DataConversionWarning):
        assert empirical_risk(y[:, None], y) == 0.0  # was 0.47 (broadcast to 8 x 8)
    with pytest.warns(DataConversionWarning):
        assert count_errors(y[:, None], y) == 0  # was 30 errors among 8 points


def test_per_point_losses():
    np.testing.assert_array_equal(zero_one_losses([1, 2, 3], [1, 0, 3]), [0, 1, 0])
    np.testing.assert_array_equal(zero_one_losses(["a", "b"], ["a", "a"]), [0, 1])
    np.testing.assert_array_equal(squared_losses([1.0, 2.0], [0.0, 4.0]), [1.0, 4.0])
    np.testing.assert_array_equal(absolute_losses([1.0, 2.0], [0.0, 4.0]), [1.0, 2.0])
    assert set(LOSSES) == {"zero_one", "squared", "absolute"}


def test_old_name_is_gone():
    import cvbook.risk

    assert not hasattr(cvbook.risk, "zero_one_loss")


def test_callable_loss():
    assert empirical_risk([1.0, 3.0], [0.0, 0.0], loss=lambda y, p: np.abs(y - p) ** 3) == 14.0


LABEL_FUNCS = [zero_one_losses, squared_losses, absolute_losses, count_errors, empirical_risk]


@pytest.mark.parametrize("func", LABEL_FUNCS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "y_true, y_pred, exc, match",
    [
        (np.ones((3, 2)), np.ones(3), ValueError, "y_true must be one-dimensional"),
        (np.ones(3), np.ones((3, 3)), ValueError, "y_pred must be one-dimensional"),
        (np.ones((1, 3)), np.ones(3), ValueError, "y_true must be one-dimensional"),
        (np.ones((2, 2, 1)), np.ones(2), ValueError, "y_true must be one-dimensional"),
        (np.array([1 + 1j, 1]), np.ones(2), TypeError, "y_true must be real"),
        (np.ones(2), np.array([1, 2j]), TypeError, "y_pred must be real"),
        (np.ones(3), np.ones(2), ValueError, "same length: y_true has 3, y_pred has 2"),
        (np.array([1.0, np.nan]), np.ones(2), ValueError, "y_true must be finite"),
        (np.ones(2), np.array([np.inf, 1.0]), ValueError, "y_pred must be finite"),
        (1.0, np.ones(1), ValueError, "y_true must be one-dimensional"),
    ],
)
def test_bad_labels_are_refused_by_name(func, y_true, y_pred, exc, match):
    with pytest.raises(exc, match=match):
        func(y_true, y_pred)


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: empirical_risk([], []), ValueError, "at least one point"),
        (lambda: empirical_risk([1, 1], [1, 1], loss="hinge"), ValueError, "loss must be one of"),
        (lambda: empirical_risk([1, 1], [1, 1], loss=3), ValueError, "loss must be one of"),
        (
            lambda: empirical_risk([1.0, 2.0], [1.0, 1.0], loss=lambda y, p: np.ones((2, 2))),
            ValueError,
            "one loss per point",
        ),
        (
            lambda: empirical_risk(
                [1.0, 2.0], [1.0, 1.0], loss=lambda y, p: np.array([1.0, np.nan])
            ),
            ValueError,
            "loss.* must be finite",
        ),
        (lambda: squared_losses(["a"], ["b"]), TypeError, "y_true must hold numbers"),
    ],
)
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_model_risk_is_exact_for_a_linear_rule_and_monte_carlo_otherwise():
    dist = TwoGaussians()
    X, y = dist.sample(200, random_state=0)
    lda = LinearDiscriminantAnalysis().fit(X, y)
    exact = dist.linear_rule_risk(lda.coef_.ravel(), float(lda.intercept_[0]))
    assert model_risk(lda, dist) == exact
    tree = DecisionTreeClassifier(random_state=0).fit(X, y)
    mc = model_risk(tree, dist, n_mc=20_000, random_state=1)
    assert mc == model_risk(tree, dist, n_mc=20_000, random_state=1)  # seeded
    assert dist.bayes_risk - 0.02 < mc < 0.5


@given(st.sampled_from([(0, 1), (1, 2), (-1, 1)]), st.integers(0, 2**32 - 1))
@settings(max_examples=15, deadline=None)
def test_model_risk_agrees_with_monte_carlo_whatever_the_labels(labels, seed):
    """Property: the exact route is taken only when it is right (labels -1/+1)."""
    dist = TwoGaussians()
    X, y = dist.sample(100, random_state=seed)
    y = np.where(y == 1, labels[1], labels[0])
    lda = LinearDiscriminantAnalysis().fit(X, y)

    class Relabel:  # predictions mapped back to -1/+1
        def predict(self, X):
            return np.where(lda.predict(X) == labels[1], 1, -1)

    exact_or_mc = model_risk(Relabel(), dist, n_mc=40_000, random_state=seed)
    truth = dist.linear_rule_risk(lda.coef_.ravel(), float(lda.intercept_[0]))
    assert abs(exact_or_mc - truth) < 5 * 0.5 / np.sqrt(40_000)


def test_draw_sample_holds_every_class():
    dist = TwoGaussians(prior=0.85)
    for seed in range(30):
        _, y = draw_sample(dist, 8, seed)
        assert min(np.sum(y == 1), np.sum(y == -1)) >= 2
    with pytest.raises(ValueError, match="m must be >= 4"):
        draw_sample(dist, 3, 0)
    with pytest.raises(RuntimeError, match="no sample"):
        draw_sample(TwoGaussians(prior=1e-9), 10, 0, max_draws=5)
