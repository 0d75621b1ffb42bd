"""Tests of cvbook.loo: closed-form kernel ridge LOO against brute force."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.dummy import DummyClassifier
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import Ridge, RidgeCV
from sklearn.metrics.pairwise import (laplacian_kernel, linear_kernel, polynomial_kernel,
                                      rbf_kernel)

from cvbook.loo import kernel_ridge_loo_predictions, loo_predictions, loo_risk

RTOL = 1e-8


def _data(m=30, d=3, n_outputs=None, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    shape = (m,) if n_outputs is None else (m, n_outputs)
    y = rng.normal(size=shape) + (X[:, :1] if n_outputs else X[:, 0]) + 3.0
    return X, y


KERNELS = {
    "linear": lambda X: linear_kernel(X),
    "rbf": lambda X: rbf_kernel(X, gamma=0.5),
    "poly": lambda X: polynomial_kernel(X, degree=3, coef0=1.0),
    "laplacian": lambda X: laplacian_kernel(X, gamma=0.3),
}


def _brute_kernel_ridge(K, y, alpha):
    return loo_predictions(KernelRidge(alpha=alpha, kernel="precomputed"), K, y)


def _assert_close(closed, brute):
    """Equal to RTOL relative to the size of the predictions."""
    scale = np.max(np.abs(brute))
    np.testing.assert_allclose(closed, brute, rtol=RTOL, atol=RTOL * scale)


@pytest.mark.parametrize("kernel", sorted(KERNELS))
@pytest.mark.parametrize("alpha", [1e-3, 0.3, 10.0])
@pytest.mark.parametrize("n_outputs", [None, 2])
@pytest.mark.parametrize("method", ["auto", "cholesky", "eigh"])
def test_equals_brute_force_kernel_ridge(kernel, alpha, n_outputs, method):
    X, y = _data(n_outputs=n_outputs)
    K = KERNELS[kernel](X)
    closed = kernel_ridge_loo_predictions(K, y, alpha, method=method)
    brute = _brute_kernel_ridge(K, y, alpha)
    assert closed.shape == y.shape
    _assert_close(closed, brute)


@pytest.mark.parametrize("kernel", sorted(KERNELS))
@pytest.mark.parametrize("n_outputs", [None, 3])
def test_grid_of_alphas_equals_brute_force_per_alpha(kernel, n_outputs):
    X, y = _data(m=25, n_outputs=n_outputs, seed=1)
    K = KERNELS[kernel](X)
    alphas = np.array([1e-2, 0.1, 1.0, 5.0])
    grid = kernel_ridge_loo_predictions(K, y, alphas)
    assert grid.shape == (len(alphas),) + y.shape
    for a, closed in zip(alphas, grid):
        _assert_close(closed, _brute_kernel_ridge(K, y, a))
    # one-alpha array keeps the leading axis; a 0-d array does not
    assert kernel_ridge_loo_predictions(K, y, [1.0]).shape == (1,) + y.shape
    assert kernel_ridge_loo_predictions(K, y, np.float64(1.0)).shape == y.shape


@pytest.mark.parametrize("alpha", [1e-3, 1.0, 100.0])
@pytest.mark.parametrize("method", ["cholesky", "eigh"])
@pytest.mark.parametrize("n_outputs", [None, 2])
def test_intercept_with_linear_kernel_is_ridge(alpha, method, n_outputs):
    X, y = _data(m=35, d=4, n_outputs=n_outputs, seed=2)
    closed = kernel_ridge_loo_predictions(X @ X.T, y, alpha, fit_intercept=True,
                                          method=method)
    brute = loo_predictions(Ridge(alpha=alpha, fit_intercept=True), X, y)
    _assert_close(closed, brute)


def test_intercept_agrees_with_sklearn_ridgecv_loo():
    X, y = _data(m=50, d=5, seed=3)
    alphas = np.logspace(-3, 3, 7)
    ref = RidgeCV(alphas=alphas, store_cv_results=True).fit(X, y)
    loo = kernel_ridge_loo_predictions(X @ X.T, y, alphas, fit_intercept=True)
    sq_err = (y[None, :] - loo) ** 2
    np.testing.assert_allclose(sq_err.T, ref.cv_results_, rtol=1e-7, atol=1e-9)


def test_intercept_matters():
    """With shifted targets, the no-intercept and intercept LOO differ."""
    X, y = _data(seed=4)
    K = rbf_kernel(X)
    a = kernel_ridge_loo_predictions(K, y + 100, 1.0)
    b = kernel_ridge_loo_predictions(K, y + 100, 1.0, fit_intercept=True)
    assert np.max(np.abs(a - b)) > 1.0
    # and the intercept version is shift-equivariant
    c = kernel_ridge_loo_predictions(K, y, 1.0, fit_intercept=True)
    np.testing.assert_allclose(b, c + 100, rtol=1e-10)


@settings(max_examples=25, deadline=None)
@given(m=st.integers(2, 12), log_alpha=st.floats(-2, 2), seed=st.integers(0, 10_000))
def test_property_matches_refit(m, log_alpha, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, 2))
    y = rng.normal(size=m)
    K = rbf_kernel(X, gamma=1.0)
    alpha = 10.0 ** log_alpha
    closed = kernel_ridge_loo_predictions(K, y, alpha)
    i = int(rng.integers(m))
    keep = np.delete(np.arange(m), i)
    model = KernelRidge(alpha=alpha, kernel="precomputed").fit(K[np.ix_(keep, keep)], y[keep])
    expected = model.predict(K[[i]][:, keep])[0]
    assert closed[i] == pytest.approx(expected, rel=1e-8, abs=1e-10)


def test_near_unit_leverage_is_still_accurate():
    """A point orthogonal to the rest with a huge self-similarity: H_ii rounds to 1,
    yet its LOO prediction (0: the others say nothing about it) is exact."""
    X, y = _data(m=10, seed=5)
    K = rbf_kernel(X)
    K[0, :] = K[:, 0] = 0.0
    K[0, 0] = 1e20
    alpha = 1e-3
    H00 = (K @ np.linalg.inv(K + alpha * np.eye(10)))[0, 0]
    assert H00 == 1.0                      # in floating point
    loo = kernel_ridge_loo_predictions(K, y, alpha)
    assert np.all(np.isfinite(loo))
    assert loo[0] == pytest.approx(0.0, abs=1e-12)
    with warnings.catch_warnings():     # sklearn warns of the ill-conditioned refits
        warnings.simplefilter("ignore")
        brute = _brute_kernel_ridge(K, y, alpha)
    _assert_close(loo[1:], brute[1:])


def test_exact_unit_leverage_raises():
    """Indefinite K: leaving point 0 or 1 out leaves a singular system."""
    K = np.array([[-1.0, 1.0, 0.0], [1.0, -1.0, 0.0], [0.0, 0.0, 1.0]])
    with pytest.raises(ValueError, match=r"\[0, 1\] a leverage H_ii = 1"):
        kernel_ridge_loo_predictions(K, [1.0, 2.0, 3.0], 1.0)


def test_singular_system_raises():
    K = np.diag([-2.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="alpha.*singular"):
        kernel_ridge_loo_predictions(K, [1.0, 2.0, 3.0], 2.0)


def test_indefinite_but_regular_falls_back_to_eigh():
    """Cholesky fails on an indefinite K + alpha I; the eigh path still gives the
    exact LOO (checked against the explicit formula on each sub-system)."""
    rng = np.random.default_rng(6)
    A = rng.normal(size=(6, 6))
    K = (A + A.T) / 2
    y = rng.normal(size=6)
    alpha = 0.7
    assert np.min(np.linalg.eigvalsh(K + alpha * np.eye(6))) < 0
    loo = kernel_ridge_loo_predictions(K, y, alpha, method="cholesky")
    for i in range(6):
        keep = np.delete(np.arange(6), i)
        c = np.linalg.solve(K[np.ix_(keep, keep)] + alpha * np.eye(5), y[keep])
        assert loo[i] == pytest.approx(K[i, keep] @ c, rel=1e-9)


@pytest.mark.parametrize("K, y, alpha, match", [
    (np.ones((3, 4)), np.ones(3), 1.0, "K must be a square"),
    (np.ones(3), np.ones(3), 1.0, "K must be a square"),
    (np.eye(3), np.ones(4), 1.0, "y must have one target per row of K"),
    (np.eye(3), np.ones((3, 2, 2)), 1.0, "y must have shape"),
    (np.eye(3), np.ones(3), 0.0, "alpha must be finite and > 0"),
    (np.eye(3), np.ones(3), -1.0, "alpha must be finite and > 0"),
    (np.eye(3), np.ones(3), np.nan, "alpha must be finite and > 0"),
    (np.eye(3), np.ones(3), np.inf, "alpha must be finite and > 0"),
    (np.eye(3), np.ones(3), [1.0, 0.0], "alpha must be finite and > 0"),
    (np.eye(3), np.ones(3), [], "alpha must be a positive float"),
    (np.eye(3), np.ones(3), [[1.0]], "alpha must be a positive float"),
    (np.array([[1.0, np.nan], [np.nan, 1.0]]), np.ones(2), 1.0, "K must be finite"),
    (np.eye(2), np.array([1.0, np.nan]), 1.0, "y must be finite"),
    (np.array([[1.0, 0.5], [0.0, 1.0]]), np.ones(2), 1.0, "K must be symmetric"),
    (np.eye(1), np.ones(1), 1.0, "at least 2 points"),
])
def test_bad_input_names_the_parameter(K, y, alpha, match):
    with pytest.raises(ValueError, match=match):
        kernel_ridge_loo_predictions(K, y, alpha)


def test_bad_method_and_intercept_flag():
    with pytest.raises(ValueError, match="method"):
        kernel_ridge_loo_predictions(np.eye(3), np.ones(3), 1.0, method="lu")
    with pytest.raises(ValueError, match="fit_intercept"):
        kernel_ridge_loo_predictions(np.eye(3), np.ones(3), 1.0, fit_intercept="yes")


def test_loo_predictions_checks_lengths():
    with pytest.raises(ValueError, match="same length"):
        loo_predictions(Ridge(), np.ones((4, 2)), np.ones(3))
    with pytest.raises(ValueError, match="at least 2"):
        loo_predictions(Ridge(), np.ones((1, 2)), np.ones(1))


def test_majority_vote_anomaly_and_risk():
    X = np.zeros((10, 1))
    y = np.array([-1, 1] * 5)
    assert loo_risk(DummyClassifier(strategy="most_frequent"), X, y) == 1.0
    # two extra positives: removing a positive keeps them the majority, so only
    # the negatives are misclassified (one extra would still tie, and lose)
    y_unbalanced = np.array([-1, 1] * 5 + [1, 1])
    X_unbalanced = np.zeros((12, 1))
    assert loo_risk(DummyClassifier(strategy="most_frequent"),
                    X_unbalanced, y_unbalanced) == pytest.approx(5 / 12)


def test_loo_risk_squared_loss_matches_closed_form():
    X, y = _data(m=20, seed=7)
    K = rbf_kernel(X)
    brute = loo_risk(KernelRidge(alpha=0.5, kernel="precomputed"), K, y, loss="squared")
    closed = np.mean((y - kernel_ridge_loo_predictions(K, y, 0.5)) ** 2)
    assert brute == pytest.approx(closed, rel=1e-9)


def test_brute_force_independent_of_n_jobs():
    X, y = _data(m=12, seed=8)
    est = KernelRidge(alpha=0.5, kernel="rbf")
    np.testing.assert_array_equal(loo_predictions(est, X, y, n_jobs=1),
                                  loo_predictions(est, X, y, n_jobs=2))


def test_linear_gaussian_regression_risk_matches_monte_carlo():
    from cvbook.datasets import LinearGaussianRegression
    dist = LinearGaussianRegression(dim=4, signal=1.5, noise=0.7)
    w, b = np.array([0.3, -0.2, 1.0, 0.0]), 0.4
    X, y = dist.sample(400_000, random_state=0)
    mc = np.mean((y - X @ w - b) ** 2)
    assert dist.linear_rule_risk(w, b) == pytest.approx(mc, rel=0.01)
    assert dist.bayes_risk == pytest.approx(0.49)
    with pytest.raises(ValueError, match="noise"):
        LinearGaussianRegression(noise=0.0)
    with pytest.raises(ValueError, match="w must have length"):
        dist.linear_rule_risk(np.ones(3))
