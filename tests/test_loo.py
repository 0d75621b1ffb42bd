"""Tests of cvbook.loo: closed-form kernel ridge LOO against brute force."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.dummy import DummyClassifier
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import Ridge, RidgeCV
from sklearn.metrics.pairwise import laplacian_kernel, linear_kernel, polynomial_kernel, rbf_kernel

from cvbook.loo import kernel_ridge_loo_predictions, loo_predictions, loo_risk, ridge_loo_mse

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
    assert grid.shape == (len(alphas), *y.shape)
    for a, closed in zip(alphas, grid, strict=False):
        _assert_close(closed, _brute_kernel_ridge(K, y, a))
    # one-alpha array keeps the leading axis; a 0-d array does not
    assert kernel_ridge_loo_predictions(K, y, [1.0]).shape == (1, *y.shape)
    assert kernel_ridge_loo_predictions(K, y, np.float64(1.0)).shape == y.shape


@pytest.mark.parametrize("alpha", [1e-3, 1.0, 100.0])
@pytest.mark.parametrize("method", ["cholesky", "eigh"])
@pytest.mark.parametrize("n_outputs", [None, 2])
def test_intercept_with_linear_kernel_is_ridge(alpha, method, n_outputs):
    X, y = _data(m=35, d=4, n_outputs=n_outputs, seed=2)
    closed = kernel_ridge_loo_predictions(X @ X.T, y, alpha, fit_intercept=True, method=method)
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
    alpha = 10.0**log_alpha
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
    assert H00 == 1.0  # in floating point
    loo = kernel_ridge_loo_predictions(K, y, alpha)
    assert np.all(np.isfinite(loo))
    assert loo[0] == pytest.approx(0.0, abs=1e-12)
    with warnings.catch_warnings():  # sklearn warns of the ill-conditioned refits
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
    with pytest.raises(ValueError, match=r"alpha.*singular"):
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


@pytest.mark.parametrize(
    "K, y, alpha, match",
    [
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
    ],
)
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
    assert loo_risk(
        DummyClassifier(strategy="most_frequent"), X_unbalanced, y_unbalanced
    ) == pytest.approx(5 / 12)


def test_loo_risk_squared_loss_matches_closed_form():
    X, y = _data(m=20, seed=7)
    K = rbf_kernel(X)
    brute = loo_risk(KernelRidge(alpha=0.5, kernel="precomputed"), K, y, loss="squared")
    closed = np.mean((y - kernel_ridge_loo_predictions(K, y, 0.5)) ** 2)
    assert brute == pytest.approx(closed, rel=1e-9)


def test_brute_force_independent_of_n_jobs():
    X, y = _data(m=12, seed=8)
    est = KernelRidge(alpha=0.5, kernel="rbf")
    np.testing.assert_array_equal(
        loo_predictions(est, X, y, n_jobs=1), loo_predictions(est, X, y, n_jobs=2)
    )


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


# --------------------------------------------------------------------------- #
# Huge alpha: no cancellation, checked against exact rational arithmetic
# --------------------------------------------------------------------------- #


def _exact_solve(A, b):
    """Gauss-Jordan elimination in Fractions (exact)."""
    n = len(A)
    M = [[*row[:], b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = next(r for r in range(c, n) if M[r][c] != 0)
        M[c], M[p] = M[p], M[c]
        for r in range(n):
            if r != c and M[r][c] != 0:
                f = M[r][c] / M[c][c]
                M[r] = [x - f * z for x, z in zip(M[r], M[c], strict=False)]
    return [M[i][n] / M[i][i] for i in range(n)]


def _exact_loo(K, y, alpha, fit_intercept=False):
    """LOO predictions of kernel ridge in exact arithmetic, on K, y, alpha as given."""
    from fractions import Fraction

    m = len(y)
    Kf = [[Fraction(float(K[i][j])) for j in range(m)] for i in range(m)]
    yf = [Fraction(float(v)) for v in y]
    a = Fraction(float(alpha))
    out = []
    for i in range(m):
        keep = [j for j in range(m) if j != i]
        A = [[Kf[p][q] + (a if p == q else 0) for q in keep] for p in keep]
        rhs = [yf[p] for p in keep]
        if fit_intercept:  # [K + aI, 1; 1^T, 0] [c; b] = [y; 0]
            A = [[*row, Fraction(1)] for row in A] + [[Fraction(1)] * len(keep) + [Fraction(0)]]
            rhs = [*rhs, Fraction(0)]
        sol = _exact_solve(A, rhs)
        pred = sum(Kf[i][q] * sol[k] for k, q in enumerate(keep))
        out.append(float(pred + (sol[-1] if fit_intercept else 0)))
    return np.array(out)


def _normwise_error(closed, exact):
    return np.max(np.abs(closed - exact)) / np.max(np.abs(exact))


@pytest.mark.parametrize("alpha", [1e-3, 1.0, 1e6, 1e10, 1e14, 1e18])
@pytest.mark.parametrize("method", ["auto", "cholesky", "eigh"])
@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_matches_exact_arithmetic_from_tiny_to_huge_alpha(alpha, method, fit_intercept, kernel):
    """The issue-13 example: at alpha = 1e14, y - residual lost all but two digits
    (4e-2 relative error). Every alpha is now within a few hundred eps of exact."""
    X, y = _data(m=6, d=2, seed=11)
    K = KERNELS[kernel](X)
    closed = kernel_ridge_loo_predictions(K, y, alpha, method=method, fit_intercept=fit_intercept)
    exact = _exact_loo(K, y, alpha, fit_intercept)
    # rank-2 linear K with alpha = 1e-3: the problem itself has condition ~1e4
    tol = 1e-11 if (kernel == "linear" and alpha < 1) else 1e-13
    assert _normwise_error(closed, exact) < tol


def test_huge_alpha_grid_matches_exact_and_brute_force():
    X, y = _data(m=7, d=3, seed=12)
    K = rbf_kernel(X, gamma=0.3)
    alphas = np.array([1e8, 1e12, 1e14, 1e16])
    grid = kernel_ridge_loo_predictions(K, y, alphas)
    for a, closed in zip(alphas, grid, strict=False):
        exact = _exact_loo(K, y, a)
        assert _normwise_error(closed, exact) < 1e-13
        # KernelRidge predicts K c with c = (K + aI)^-1 y: no cancellation either
        assert _normwise_error(_brute_kernel_ridge(K, y, a), exact) < 1e-12


def test_huge_alpha_two_outputs_of_different_scale():
    """The cancellation check is per output: a tiny second output is not drowned."""
    X, y = _data(m=6, n_outputs=2, seed=13)
    y[:, 1] *= 1e-6
    K = rbf_kernel(X)
    closed = kernel_ridge_loo_predictions(K, y, 1e13, method="cholesky")
    for j in range(2):
        assert _normwise_error(closed[:, j], _exact_loo(K, y[:, j], 1e13)) < 1e-13


@settings(max_examples=20, deadline=None)
@given(
    m=st.integers(2, 6),
    log_alpha=st.floats(-2, 18),
    seed=st.integers(0, 10_000),
    fit_intercept=st.booleans(),
    method=st.sampled_from(["cholesky", "eigh"]),
)
def test_property_exact_arithmetic(m, log_alpha, seed, fit_intercept, method):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, 2))
    y = rng.normal(size=m) + 1.0
    K = rbf_kernel(X, gamma=0.5)
    alpha = 10.0**log_alpha
    closed = kernel_ridge_loo_predictions(K, y, alpha, method=method, fit_intercept=fit_intercept)
    exact = _exact_loo(K, y, alpha, fit_intercept)
    assert _normwise_error(closed, exact) < 1e-11


@settings(max_examples=20, deadline=None)
@given(
    m=st.integers(3, 10),
    log_alpha=st.floats(-3, 16),
    seed=st.integers(0, 10_000),
    fit_intercept=st.booleans(),
)
def test_property_closed_form_equals_brute_force(m, log_alpha, seed, fit_intercept):
    """Closed form == m refits (KernelRidge, or Ridge for the intercept), any alpha."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, 3))
    y = rng.normal(size=m)
    alpha = 10.0**log_alpha
    if fit_intercept:
        closed = kernel_ridge_loo_predictions(X @ X.T, y, alpha, fit_intercept=True)
        brute = loo_predictions(Ridge(alpha=alpha), X, y)
    else:
        K = rbf_kernel(X, gamma=0.5)
        closed = kernel_ridge_loo_predictions(K, y, alpha)
        brute = _brute_kernel_ridge(K, y, alpha)
    assert _normwise_error(closed, brute) < 1e-8


# --------------------------------------------------------------------------- #
# Hostile input: every argument named
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    "K, y, alpha, match, error",
    [
        (np.eye(3) + 0j, np.ones(3), 1.0, "K must be real", TypeError),
        (np.eye(3), np.ones(3) + 1j, 1.0, "y must be real", TypeError),
        (np.eye(3), np.ones(3), 1.0 + 0j, "alpha", TypeError),
        (np.eye(3), np.ones(3), [1.0, 2j], "alpha", TypeError),
        (np.eye(3), np.ones(3), "1.0", "alpha must be a positive float", TypeError),
        (np.eye(3), np.ones(3), True, "alpha must be a positive float", TypeError),
        (np.eye(3), np.ones(3), ["a", "b"], "alpha", TypeError),
        (np.eye(3), np.ones(3), None, "alpha", TypeError),
        (np.full((3, 3), "a"), np.ones(3), 1.0, "K must hold numbers", TypeError),
        (np.eye(3), ["a", "b", "c"], 1.0, "y must hold numbers", TypeError),
        (np.eye(3).astype(bool), np.ones(3), 1.0, "K must hold numbers", TypeError),
        ("K", np.ones(3), 1.0, "K must hold numbers", TypeError),
        (np.eye(3), np.ones(3), [np.nan], "alpha must be finite", ValueError),
        (np.eye(3), np.ones(3), -np.inf, "alpha must be finite", ValueError),
        (np.eye(3), np.ones(3), 1e-320 * 0, "alpha must be finite and > 0", ValueError),
    ],
)
def test_kernel_ridge_hostile_arguments(K, y, alpha, match, error):
    with pytest.raises(error, match=match):
        kernel_ridge_loo_predictions(K, y, alpha)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"method": None}, "method"),
        ({"method": 3}, "method"),
        ({"method": "CHOLESKY"}, "method"),
        ({"fit_intercept": 1}, "fit_intercept"),
        ({"fit_intercept": None}, "fit_intercept"),
    ],
)
def test_kernel_ridge_bad_options(kwargs, match):
    with pytest.raises(ValueError, match=match):
        kernel_ridge_loo_predictions(np.eye(3), np.ones(3), 1.0, **kwargs)


def test_loo_risk_flattens_a_column_vector_with_sklearns_warning():
    """The issue-13 example: y[:, None] used to broadcast to an (m, m) comparison."""
    from sklearn.exceptions import DataConversionWarning

    X, y = _data(m=12, seed=14)
    labels = np.where(y > np.median(y), 1, -1)
    est = DummyClassifier(strategy="most_frequent")
    expected = loo_risk(est, X, labels)
    with pytest.warns(DataConversionWarning, match="y is a column vector"):
        got = loo_risk(est, X, labels[:, None])
    assert got == expected == 1.0  # balanced labels: Kohavi's anomaly
    reg = Ridge(alpha=1.0)
    with pytest.warns(DataConversionWarning):
        got = loo_risk(reg, X, y[:, None], loss="squared")
    assert got == pytest.approx(loo_risk(reg, X, y, loss="squared"), rel=1e-12)


@pytest.mark.parametrize(
    "y, match, error",
    [
        (np.ones((6, 2)), "one-dimensional", ValueError),
        (np.ones((6, 1, 1)), "one-dimensional", ValueError),
        (np.ones(6) + 1j, "y must be real", TypeError),
        (np.array([1.0, np.nan, 1, 1, 1, 1]), "y must be finite", ValueError),
        (np.ones(5), "same length", ValueError),
        (np.float64(1.0), "one-dimensional", ValueError),
    ],
)
def test_loo_risk_refuses_bad_labels(y, match, error):
    with pytest.raises(error, match=match):
        loo_risk(Ridge(), np.ones((6, 2)), y, loss="squared")


@pytest.mark.parametrize(
    "kwargs, match, error",
    [
        ({"estimator": "ridge"}, "estimator must be a scikit-learn estimator", TypeError),
        ({"estimator": Ridge}, r"got the class Ridge; pass Ridge\(\) instead", TypeError),
        ({"X": np.ones((6, 2)) * 1j}, "X must be real", TypeError),
        ({"X": 3.0}, "X must hold one row per point", ValueError),
        ({"y": np.full(6, 1j)}, "y must be real", TypeError),
        ({"y": np.ones((6, 1, 2))}, "y must have shape", ValueError),
        ({"y": np.array([np.inf, 1, 1, 1, 1, 1])}, "y must be finite", ValueError),
        ({"n_jobs": 0}, "n_jobs", ValueError),
        ({"n_jobs": 1.5}, "n_jobs must be an integer", TypeError),
        ({"n_jobs": "2"}, "n_jobs must be an integer", TypeError),
    ],
)
def test_loo_predictions_hostile_arguments(kwargs, match, error):
    args = {"estimator": Ridge(), "X": np.ones((6, 2)), "y": np.arange(6.0), "n_jobs": None}
    args.update(kwargs)
    with pytest.raises(error, match=match):
        loo_predictions(args["estimator"], args["X"], args["y"], n_jobs=args["n_jobs"])


@pytest.mark.parametrize("loss", ["r2", "", None, 3, ["squared"]])
def test_loo_risk_refuses_bad_loss_before_fitting(loss):
    with pytest.raises(ValueError, match="loss must be one of"):
        loo_risk(Ridge(), np.ones((4, 1)), np.arange(4.0), loss=loss)


def test_loo_predictions_accepts_sparse_and_multioutput():
    from scipy.sparse import csr_matrix

    X, y = _data(m=10, n_outputs=2, seed=15)
    dense = loo_predictions(Ridge(), X, y)
    assert dense.shape == (10, 2)
    np.testing.assert_allclose(loo_predictions(Ridge(), csr_matrix(X), y), dense, rtol=1e-6)
    with pytest.raises(TypeError, match="X must be real"):
        loo_predictions(Ridge(), csr_matrix(X * 1j), y)


# --------------------------------------------------------------------------- #
# The experiments of chapter 4
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    "X, y, alpha, match",
    [
        (np.ones((5, 2)), np.ones(4), 1.0, "same length"),
        (np.ones(5), np.ones(5), 1.0, "X must be 2-dimensional"),
        (np.ones((5, 2)), np.ones((5, 2)), 1.0, "y must be one-dimensional"),
        (np.ones((5, 2)), np.ones(5), -1.0, "alpha must be > 0"),
        (np.ones((5, 2)) * 1j, np.ones(5), 1.0, "X must be real"),
    ],
)
def test_ridge_loo_mse_refuses(X, y, alpha, match):
    with pytest.raises(ValueError, match=match):
        ridge_loo_mse(X, y, alpha)
