"""Leave-one-out cross-validation (chapter 4).

Leave-one-out (LOO) is K-fold cross-validation with as many folds as points:
each point is predicted by a model trained on the ``m - 1`` others. Done by
brute force it costs ``m`` fits (:func:`loo_predictions`, :func:`loo_risk`).
For ridge and kernel ridge regression it costs one: the model's predictions
are linear in the targets, ``y_hat = H y``, and the leave-one-out residual of
point ``i`` is

    y_i - y_hat_i^(-i) = (y_i - y_hat_i) / (1 - H_ii).

For kernel ridge, ``H = K (K + alpha I)^-1`` and ``1 - H = alpha G`` with
``G = (K + alpha I)^-1``, so the residual is ``(G y)_i / G_ii``: one
factorisation of ``K + alpha I`` gives every LOO prediction
(:func:`kernel_ridge_loo_predictions`), and one eigendecomposition of ``K``
gives them for a whole grid of ``alpha``.

The closed-form LOO error of ridge regression is :func:`ridge_loo_mse`. The experiments
of chapter 4 (the bias study of ridge, the small-sample failures of K-fold and LOO,
Kohavi's majority vote) are :mod:`cvbook.studies.loo_pitfalls`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.linalg import lapack
from scipy.sparse import issparse
from sklearn.base import clone
from sklearn.model_selection import LeaveOneOut, cross_val_predict

from .risk import LOSS, Loss, check_target, empirical_risk
from .validation import (
    ArgumentTypeError,
    Interval,
    Options,
    check_1d_labels,
    check_features,
    check_finite,
    check_not_complex,
    check_same_length,
    validate_params,
)

__all__ = [
    "check_kernel_problem",
    "kernel_ridge_loo_predictions",
    "loo_predictions",
    "loo_risk",
    "ridge_loo_mse",
]


# --------------------------------------------------------------------------- #
# Closed-form LOO for kernel ridge regression
# --------------------------------------------------------------------------- #


def check_kernel_problem(
    K: ArrayLike, y: ArrayLike, alpha: ArrayLike | float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Validate a kernel ridge problem: a square finite ``K``, ``y`` of matching length,
    positive finite ``alpha`` (one value or several); return the arrays and whether
    ``alpha`` was a scalar. :func:`kernel_ridge_loo_predictions` calls it first (the
    leave-one-out benchmark times it on its own).

    Examples
    --------
    >>> K, y, alphas, scalar = check_kernel_problem(np.eye(3), [1.0, 2.0, 3.0], 0.5)
    >>> alphas, scalar
    (array(0.5), True)
    """
    K = check_finite(K, "K")
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"K must be a square (m, m) kernel matrix, got shape {K.shape}")
    y = check_finite(y, "y")
    if y.ndim not in (1, 2):
        raise ValueError(f"y must have shape (m,) or (m, n_outputs), got shape {y.shape}")
    if y.shape[0] != K.shape[0]:
        raise ValueError(
            f"y must have one target per row of K: K is {K.shape[0]} x {K.shape[1]}, "
            f"y has {y.shape[0]} rows"
        )
    m = K.shape[0]
    if m < 2:
        raise ValueError(f"K must hold at least 2 points for leave-one-out, got m={m}")
    # Symmetry, checked in O(m^2) without a transposed copy: K v == K^T v for a
    # fixed random v (an asymmetric K passes with probability 0).
    v = np.random.default_rng(0).standard_normal(m)
    scale = max(float(K.max()), -float(K.min())) * float(np.abs(v).sum())
    if np.max(np.abs(K @ v - v @ K)) > 1e-10 * scale:
        raise ValueError("K must be symmetric (a kernel matrix), got K != K.T")
    allowed = "a positive float or a non-empty 1-d array of them"
    if alpha is None or isinstance(alpha, (str, bytes, bool, np.bool_)):
        raise ArgumentTypeError(f"alpha must be {allowed}, got {alpha!r}")
    try:
        alpha_arr = check_finite(alpha, "alpha")
    except ValueError as err:  # strings, complex, booleans, NaN/inf: keep the named message
        if isinstance(err, ArgumentTypeError):
            raise ArgumentTypeError(f"alpha must be {allowed}; {err}") from None
        raise ValueError(f"alpha must be finite and > 0, got {alpha!r}") from None
    if alpha_arr.ndim > 1 or alpha_arr.size == 0:
        raise ValueError(f"alpha must be {allowed}, got {alpha!r}")
    if np.any(alpha_arr <= 0):
        raise ValueError(f"alpha must be finite and > 0, got {alpha!r}")
    return K, y, alpha_arr, alpha_arr.ndim == 0


class _Reflector:
    """The Householder reflection ``P`` that swaps ``e_1`` and ``1/sqrt(m)``.

    ``Q = P[:, 1:]`` is an orthonormal basis of the vectors orthogonal to the
    constant vector: the space in which an unpenalised intercept leaves the
    problem. Every product with ``P`` costs O(m n), never O(m^2 n).
    """

    def __init__(self, m: int):
        v = np.full(m, 1.0 / np.sqrt(m))
        v[0] -= 1.0
        self.v = v
        self.beta = 2.0 / (v @ v)

    def apply(self, X: np.ndarray) -> np.ndarray:
        """``P @ X`` for X of shape (m,) or (m, n)."""
        return X - self.beta * np.multiply.outer(self.v, self.v @ X)

    def sandwich(self, K: np.ndarray) -> np.ndarray:
        """``P @ K @ P`` for a symmetric K."""
        Kv = K @ self.v
        b = self.beta
        out = K - b * np.outer(self.v, Kv) - b * np.outer(Kv, self.v)
        out += (b * b * (self.v @ Kv)) * np.outer(self.v, self.v)
        return out

    def lift(self, Z: np.ndarray) -> np.ndarray:
        """``Q @ Z`` with ``Q = P[:, 1:]``, for Z of shape (m - 1, ...)."""
        full = np.zeros((Z.shape[0] + 1, *Z.shape[1:]))
        full[1:] = Z
        return self.apply(full)


def _cholesky_inverse_factor(A: np.ndarray, alpha: float):
    """``L^-1`` where ``A + alpha I = L L^T``; ``None`` if not positive definite."""
    n = A.shape[0]
    B = np.array(A.T, dtype=float, order="F", copy=True)  # = A; a plain copy when A is C-ordered
    B.flat[:: n + 1] += alpha
    L, info = lapack.dpotrf(B, lower=1, clean=1, overwrite_a=1)
    if info != 0:
        return None
    Linv, info = lapack.dtrtri(L, lower=1, overwrite_c=1)
    if info != 0:  # pragma: no cover - dpotrf succeeded, so L has a nonzero diagonal
        return None
    return Linv


def _raise_unit_leverage(points: np.ndarray, alpha: float) -> None:
    shown = points[:10].tolist()
    raise ValueError(
        f"K and alpha={alpha!r} give point(s) {shown}{'...' if points.size > 10 else ''} "
        "a leverage H_ii = 1: without that point the system (K + alpha I) is singular, "
        "so its leave-one-out prediction is undefined. This cannot happen when K is "
        "positive semi-definite; check K, or increase alpha."
    )


@validate_params({"fit_intercept": "boolean", "method": Options("auto", "cholesky", "eigh")})
def kernel_ridge_loo_predictions(
    K: ArrayLike,
    y: ArrayLike,
    alpha: float | ArrayLike,
    *,
    fit_intercept: bool = False,
    method: str = "auto",
) -> np.ndarray:
    r"""Leave-one-out predictions of kernel ridge regression, from one factorisation.

    Kernel ridge with a precomputed kernel fits the dual coefficients
    :math:`c = (K + \alpha I)^{-1} y` (as :class:`sklearn.kernel_ridge.KernelRidge`
    does). With :math:`G = (K + \alpha I)^{-1}`, the prediction for point ``i``
    of the model trained without it is

    .. math:: \hat y_i^{(-i)} = y_i - \frac{(G y)_i}{G_{ii}},

    which is the hat-matrix formula :math:`(y_i - \hat y_i) / (1 - H_{ii})`
    with :math:`1 - H = \alpha G`, written so that no :math:`1 - H_{ii}` is
    ever computed by subtraction.

    Parameters
    ----------
    K : array_like of shape (m, m)
        Symmetric kernel matrix of the ``m`` training points, ``m >= 2``.
    y : array_like of shape (m,) or (m, n_outputs)
        Targets; several outputs share the factorisation.
    alpha : float or array_like of shape (n_alphas,)
        Regularisation, every value finite and ``> 0``.
    fit_intercept : bool, default=False
        ``False`` is exactly ``KernelRidge(kernel="precomputed")`` (no
        intercept). ``True`` adds an unpenalised intercept ``b``, the model
        ``b + sum_j c_j k(x_j, x)``; with a linear kernel ``K = X X^T`` this is
        ``sklearn.linear_model.Ridge(fit_intercept=True)``. The intercept is
        removed exactly by working in the ``m - 1`` dimensions orthogonal to
        the constant vector, at O(m^2) extra cost.
    method : {"auto", "cholesky", "eigh"}, default="auto"
        ``"cholesky"``: one Cholesky factorisation and one triangular
        inverse per ``alpha`` (about 2 m^3 / 3 flops each, twice a plain fit).
        ``"eigh"``: one eigendecomposition of ``K`` (a few times m^3 flops), then
        O(m^2) per ``alpha``: the choice for a grid. ``"auto"`` takes
        Cholesky for one ``alpha`` and eigh for several; if ``K + alpha I``
        is not positive definite, Cholesky falls back to eigh.

    Returns
    -------
    ndarray
        Shape ``(m,)`` for a scalar ``alpha`` and 1-d ``y``; ``(m, n_outputs)``
        for 2-d ``y``. An array ``alpha`` adds a leading axis:
        ``(n_alphas, m)`` or ``(n_alphas, m, n_outputs)``.

    Raises
    ------
    ValueError
        If ``K`` is not square, not symmetric or holds NaN/inf; if ``y`` does
        not match ``K`` or holds NaN/inf; if an ``alpha`` is not finite and
        ``> 0``; if ``K + alpha I`` is singular; or if a point has leverage
        ``H_ii = 1``.
    TypeError
        (``cvbook.validation.ArgumentTypeError``, also a ``ValueError``) if
        ``K``, ``y`` or ``alpha`` hold strings, booleans or complex numbers.

    Notes
    -----
    **Leverage 1.** When ``K`` is positive semi-definite and ``alpha > 0``,
    every eigenvalue of ``H`` lies in [0, 1), so ``0 <= H_ii < 1`` and
    ``G_ii > 0``: each LOO prediction is defined, even when ``H_ii`` is
    within rounding of 1, because ``G_ii`` is a sum of positive terms computed
    without cancellation. ``H_ii = 1`` exactly (``G_ii = 0``) happens only
    for an indefinite ``K``: then ``K + alpha I`` without point ``i`` is
    singular and the model trained without it does not exist. This function
    does not return ``inf`` or ``NaN`` for it: it raises a ``ValueError``
    naming the points (whereas ``KernelRidge`` refitted on those points falls
    back to a least-squares solution with a warning).

    **Huge alpha.** A large ``alpha`` shrinks every prediction towards 0 while the
    residual ``(G y)_i / G_ii`` stays close to ``y_i``, so ``y_i - (G y)_i / G_ii``
    would lose digits to cancellation (at ``alpha = 1e14`` on a unit-scale kernel,
    all but two). The Cholesky route therefore checks the size of its predictions
    against the targets and hands any ``alpha`` where the subtraction lost more than
    four digits to the eigendecomposition, where each point takes whichever of two
    exact formulas is stable for it: ``y_i - (G y)_i / G_ii`` when the leverage
    ``H_ii >= 1/2``, and ``(yhat_i - H_ii y_i) / (1 - H_ii)`` when ``H_ii < 1/2``,
    with ``H_ii = sum_k U_ik^2 lambda_k / (lambda_k + alpha)`` and ``1 - H_ii =
    sum_k U_ik^2 alpha / (lambda_k + alpha)`` both sums of quotients, never
    differences. The tests check the result against exact rational arithmetic
    for ``alpha`` from ``1e-3`` to ``1e18``, to a few ``eps`` relative to the
    largest prediction.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.kernel_ridge import KernelRidge
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(6, 2)), rng.normal(size=6)
    >>> K = X @ X.T
    >>> loo = kernel_ridge_loo_predictions(K, y, alpha=0.5)
    >>> keep = np.arange(1, 6)                        # leave point 0 out, by hand
    >>> model = KernelRidge(alpha=0.5, kernel="precomputed").fit(K[np.ix_(keep, keep)], y[keep])
    >>> bool(np.isclose(loo[0], model.predict(K[[0]][:, keep])[0]))
    True
    >>> kernel_ridge_loo_predictions(K, y, alpha=[0.1, 1.0, 10.0]).shape
    (3, 6)
    """
    K, y, alphas, scalar = check_kernel_problem(K, y, alpha)
    fit_intercept = bool(fit_intercept)
    m = K.shape[0]
    alphas = np.atleast_1d(alphas)
    y2 = y.reshape(m, -1)

    # Reduce to the problem the regularised part solves: (A + alpha I) c = b.
    if fit_intercept:
        P = _Reflector(m)
        A = P.sandwich(K)[1:, 1:]
        A = (A + A.T) / 2
        b = P.apply(y2)[1:]
        lift = P.lift
    else:
        A, b = K, y2
        lift = None

    if method == "auto":
        method = "cholesky" if alphas.size == 1 else "eigh"

    preds = np.empty((alphas.size, m, y2.shape[1]))
    todo = np.arange(alphas.size)
    if method == "cholesky":
        failed = []
        for k in todo:
            Linv = _cholesky_inverse_factor(A, alphas[k])
            if Linv is None:  # K + alpha I not positive definite
                failed.append(k)
                continue
            # G = Linv^T Linv: c = G b, and G_ii = squared norm of column i of Linv.
            c = Linv.T @ (Linv @ b)
            if lift is None:
                diag = np.einsum("ij,ij->j", Linv, Linv)
            else:
                W = lift(Linv.T)  # Q Linv^T, shape (m, m - 1)
                diag = np.einsum("ij,ij->i", W, W)
                c = lift(c)
            preds[k] = y2 - c / diag[:, None]
            if _cancelled(y2, preds[k]):
                failed.append(k)  # huge alpha: redo without cancellation
        todo = np.asarray(failed, dtype=int)

    if todo.size:
        preds[todo] = _eigh_loo(A, b, y2, alphas[todo], lift)

    if y.ndim == 1:
        preds = preds[:, :, 0]
    return preds[0] if scalar else preds


#: Digits the subtraction ``y - residual`` may lose before the Cholesky route hands an
#: alpha to the eigendecomposition: a norm-wise error of about ``1e4 * eps`` at most.
_MAX_CANCELLATION = 1e4


def _cancelled(y2: np.ndarray, preds: np.ndarray) -> bool:
    """Whether ``preds = y - residual`` lost more than 4 digits to cancellation.

    The subtraction has an absolute error of about ``eps * max|y|``; relative to the
    predictions that is ``eps * max|y| / max|preds|``, per output.
    """
    top_y = np.max(np.abs(y2), axis=0)
    top_p = np.max(np.abs(preds), axis=0)
    return bool(np.any(top_y > _MAX_CANCELLATION * top_p))


def _eigh_loo(A, b, y2, alphas, lift):
    """LOO predictions for several alphas from one eigendecomposition of ``A``.

    Two exact formulas are evaluated, and each point takes the one that is stable
    for it. With ``s_k = lambda_k / (lambda_k + alpha)`` and
    ``t_k = alpha / (lambda_k + alpha)`` (each a quotient, never a difference):

    * ``y_i - (G y)_i / G_ii`` loses digits when the prediction is much smaller
      than ``y_i`` (a huge ``alpha`` shrinks every prediction towards 0);
    * ``(yhat_i - H_ii y_i) / (1 - H_ii)``, with ``yhat = U diag(s) U^T y``,
      ``H_ii = sum_k U_ik^2 s_k`` and ``1 - H_ii = sum_k U_ik^2 t_k``, loses digits
      when ``1 - H_ii`` is small (a tiny ``alpha``).

    A point with ``H_ii < 1/2`` takes the second, the others the first: either way
    the error is a few ``eps`` times the size of the predictions and targets.
    """
    m = y2.shape[0]
    lam, V = np.linalg.eigh(A)
    U = V if lift is None else lift(V)  # orthonormal, shape (m, r)
    Utb = V.T @ b  # (r, n_outputs)
    shifted = lam[None, :] + alphas[:, None]  # (n_alphas, r)
    top = np.max(np.abs(shifted), axis=1)
    tol = m * np.finfo(float).eps
    singular = np.min(np.abs(shifted), axis=1) <= tol * top
    if np.any(singular):
        bad = alphas[singular]
        raise ValueError(
            f"alpha={bad.tolist()} makes K + alpha I singular (K has eigenvalue "
            f"{-bad[0]!r} to rounding): the kernel ridge fit itself is undefined; "
            "choose another alpha or check that K is positive semi-definite"
        )
    inv = 1.0 / shifted  # eigenvalues of G, per alpha
    U2 = (U * U).T  # (r, m)
    diags = inv @ U2  # (n_alphas, m): G_ii
    s = lam[None, :] * inv  # eigenvalues of H (minus 1/m)
    t = alphas[:, None] * inv  # eigenvalues of I - H
    lev = s @ U2 + (1.0 / m if lift is not None else 0.0)  # H_ii
    one_minus_lev = t @ U2  # 1 - H_ii = alpha G_ii
    n_out = y2.shape[1]

    def combine(weights):
        # U @ diag(weights_a) @ U^T b for every alpha a, in one matrix product.
        scaled = weights.T[:, :, None] * Utb[:, None, :]
        out = (U @ scaled.reshape(U.shape[1], -1)).reshape(m, alphas.size, n_out)
        return out.transpose(1, 0, 2)  # (n_alphas, m, n_outputs)

    coefs = combine(inv)  # G y
    fitted = combine(s)  # H y (minus the mean, if intercept)
    if lift is not None:
        fitted = fitted + y2.mean(axis=0)
    preds = np.empty((alphas.size, m, n_out))
    for j in range(alphas.size):
        small = np.abs(diags[j]) <= tol * np.max(np.abs(inv[j]))
        if np.any(small):
            _raise_unit_leverage(np.flatnonzero(small), float(alphas[j]))
        by_residual = y2 - coefs[j] / diags[j][:, None]
        by_leverage = (fitted[j] - lev[j][:, None] * y2) / one_minus_lev[j][:, None]
        preds[j] = np.where((lev[j] < 0.5)[:, None], by_leverage, by_residual)
    return preds


# --------------------------------------------------------------------------- #
# Brute-force LOO for any estimator
# --------------------------------------------------------------------------- #


@validate_params({"estimator": "estimator", "n_jobs": "n_jobs"})
def loo_predictions(
    estimator, X: ArrayLike, y: ArrayLike, *, n_jobs: int | None = None
) -> np.ndarray:
    """Leave-one-out predictions of any estimator, by ``m`` refits.

    A thin wrapper of :func:`sklearn.model_selection.cross_val_predict` with
    :class:`sklearn.model_selection.LeaveOneOut`: prediction ``i`` comes from
    a clone of ``estimator`` fitted on every point but ``i``.

    Parameters
    ----------
    estimator : sklearn estimator
        Not modified (cloned for each fit).
    X : array_like of shape (m, n_features)
        Features (or a precomputed kernel, for ``kernel="precomputed"``).
    y : array_like of shape (m,) or (m, n_outputs)
        Targets.
    n_jobs : int or None
        joblib's ``n_jobs`` for the ``m`` fits; the result does not depend on it.

    Returns
    -------
    ndarray of shape (m,) or (m, n_outputs)

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.dummy import DummyRegressor
    >>> loo_predictions(DummyRegressor(), np.zeros((3, 1)), np.array([0.0, 3.0, 6.0]))
    array([4.5, 3. , 1.5])
    """
    X, y = _check_brute_force(X, y)
    return cross_val_predict(clone(estimator), X, y, cv=LeaveOneOut(), n_jobs=n_jobs)


def _check_brute_force(X, y):
    """The data of the brute-force LOO (the estimator and ``n_jobs`` are declared at the
    door); return ``X`` and ``y`` as arrays."""
    if issparse(X):
        if np.iscomplexobj(X.data):
            raise ArgumentTypeError("X must be real, got complex values")
    else:
        X = check_not_complex(X, "X")
        if X.ndim != 2:
            raise ValueError(
                f"X must hold one row per point (2-d, shape (m, d)), got shape {X.shape}"
            )
    y = check_not_complex(y, "y")
    if y.ndim not in (1, 2):
        raise ValueError(f"y must have shape (m,) or (m, n_outputs), got shape {y.shape}")
    if np.issubdtype(y.dtype, np.number) and not np.all(np.isfinite(y)):
        raise ValueError("y must be finite: it holds NaN or infinite values")
    m = check_same_length(("X", X), ("y", y)) if not issparse(X) else X.shape[0]
    if issparse(X) and X.shape[0] != y.shape[0]:
        raise ValueError(
            f"arrays must have the same length: X has {X.shape[0]}, y has {y.shape[0]}"
        )
    if m < 2:
        raise ValueError(f"X must hold at least 2 points for leave-one-out, got {m}")
    return X, y


@validate_params({"estimator": "estimator", "loss": LOSS, "n_jobs": "n_jobs"})
def loo_risk(
    estimator,
    X: ArrayLike,
    y: ArrayLike,
    loss: Loss = "zero_one",
    *,
    n_jobs: int | None = None,
) -> float:
    """Leave-one-out estimate of the risk: the mean loss of the ``m`` LOO predictions.

    Each point is predicted once, by a model that did not see it, and the
    loss is averaged over points. This is the mean of ``m`` one-point fold
    risks, so the loss must be a mean of per-point losses (0-1, squared,
    absolute); a score such as R^2 or AUC is not defined on one point.

    Parameters
    ----------
    estimator : sklearn estimator
    X : array_like of shape (m, n_features)
    y : array_like of shape (m,)
        A column vector of shape ``(m, 1)`` is flattened with scikit-learn's
        ``DataConversionWarning`` (as its estimators do); any other 2-d ``y``, and
        complex or non-finite values, are refused.
    loss : {"zero_one", "squared", "absolute"} or callable, default="zero_one"
        See :func:`cvbook.risk.empirical_risk`.
    n_jobs : int or None
        joblib's ``n_jobs`` for the ``m`` fits.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.dummy import DummyClassifier
    >>> X, y = np.zeros((4, 1)), np.array([-1, -1, 1, 1])
    >>> loo_risk(DummyClassifier(strategy="most_frequent"), X, y)   # Kohavi's anomaly
    1.0
    """
    y = check_target(y, loss)
    pred = loo_predictions(estimator, X, y, n_jobs=n_jobs)
    return empirical_risk(y, pred, loss=loss)


# --------------------------------------------------------------------------- #
# Ridge regression in closed form
# --------------------------------------------------------------------------- #


@validate_params({"alpha": Interval("real", 0.0, None, closed="right")})
def ridge_loo_mse(X: ArrayLike, y: ArrayLike, alpha: float) -> float:
    """Closed-form LOO mean squared error of ``Ridge(alpha, fit_intercept=True)``.

    Ridge with an intercept is kernel ridge with the linear kernel ``X X^T`` and an
    unpenalised intercept, so one call of :func:`kernel_ridge_loo_predictions`
    replaces ``m`` refits.

    Parameters
    ----------
    X : array_like of shape (m, d)
    y : array_like of shape (m,)
    alpha : float
        Ridge penalty, ``> 0``.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Ridge
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(20, 3)), rng.normal(size=20)
    >>> bool(np.isclose(ridge_loo_mse(X, y, 1.0), loo_risk(Ridge(1.0), X, y, "squared")))
    True
    """
    X = check_features(X, "X", min_samples=2)
    y = check_1d_labels(y, "y")
    check_same_length(("X", X), ("y", y))
    y = check_finite(y, "y")
    alpha = float(alpha)
    pred = kernel_ridge_loo_predictions(X @ X.T, y, alpha, fit_intercept=True)
    return float(np.mean((y - pred) ** 2))
