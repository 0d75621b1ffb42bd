"""The libsvm fast path of complete K-fold CV (chapter 5): private machinery.

For ``SVC(kernel="rbf")`` :class:`~cvbook.ckcv.CompleteKCV` computes the Gaussian kernel
once per gamma on the whole training pool and calls libsvm through scikit-learn's
private module ``sklearn.svm._libsvm``, when a check at first use
(:func:`libsvm_agrees`) finds that it gives the model of ``SVC(kernel="precomputed")``;
otherwise it uses that public estimator (same numbers, slower). Each fit gets the whole
kernel with weight 0 outside the fitting set (:func:`pool_weight`: libsvm drops those
points and reads the others' kernel values in place), and the errors come from one
matrix product per split whose signs are certified against libsvm's own sum
(:func:`pool_predict`).

This module holds that machinery apart from the estimator, as scikit-learn keeps
``svm/_libsvm``, ``svm/_base.py`` and ``svm/_classes.py`` apart: the solver and its
certificate, the joblib tasks of the two phases (:func:`precomputed_chunk`,
:func:`generic_chunk`) and the members of ``F*`` (:class:`RBFMember`). Its names are
public to :mod:`cvbook.ckcv` only; the public doors are :func:`cvbook.ckcv.fit_precomputed`
and :func:`cvbook.ckcv.solver_backend`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.metrics.pairwise import euclidean_distances, rbf_kernel
from sklearn.svm import SVC
from sklearn.utils.class_weight import compute_class_weight
from threadpoolctl import ThreadpoolController

try:  # private module of scikit-learn: used only while it behaves as SVC does
    from sklearn.svm import _libsvm
except ImportError:  # pragma: no cover - depends on the scikit-learn version
    _libsvm = None


# --------------------------------------------------------------------------- #
# The solver of the fast path


@functools.cache
def libsvm_agrees() -> bool:
    """Whether ``_libsvm`` is importable and gives ``SVC(kernel="precomputed")``'s model.

    Checked once per process on a small problem with class weights; any
    exception (a changed private signature) means no.
    """
    if _libsvm is None:
        return False
    try:
        rng = np.random.default_rng(0)
        X = rng.normal(size=(40, 2))
        y = np.where(X[:, 0] + 0.5 * rng.normal(size=40) > 0, 3, -2)
        K = rbf_kernel(X, gamma=0.7)
        params = {**SVC(kernel="precomputed").get_params(), "C": 3.0, "class_weight": {3: 2.0}}
        _libsvm.set_verbosity_wrap(0)
        model = libsvm_fit(K, class_index(y, np.unique(y)), y, np.unique(y), params)
        ours = libsvm_predict(K, model, params)
        svc = SVC(**params).fit(K, y)
        # The pool form: weights 0 outside the fitting set give the model of the
        # block, and the matrix-product prediction gives libsvm's labels.
        classes, t = np.unique(y), class_index(y, np.unique(y))
        fit = np.flatnonzero(rng.random(40) < 0.7)
        ev = np.setdiff1d(np.arange(40), fit)
        pooled = pool_fit(K, t, fit, y[fit], classes, params)
        block = libsvm_fit(kernel_block(K, fit, fit), t[fit], y[fit], classes, params)
        labels = pool_predict(K[ev], fit, [pooled], [params])[:, 0]
        return bool(
            np.array_equal(np.unique(y)[ours.astype(int)], svc.predict(K))
            and np.array_equal(model[3], svc._dual_coef_)
            and np.array_equal(model[4], svc._intercept_)
            and all(np.array_equal(a, b) for a, b in zip(pooled, block, strict=True))
            and np.array_equal(labels, libsvm_predict(kernel_block(K, ev, fit), block, params))
        )
    except Exception:
        return False


def class_index(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    return np.searchsorted(classes, y).astype(np.float64)


_UNIT_WEIGHTS = np.ones(2)
_UNIT_WEIGHTS.flags.writeable = False


def _class_weight(class_weight: Any, classes: np.ndarray, y_fit: np.ndarray) -> np.ndarray:
    """The per-class weights SVC computes: from the *labels* of the fitting set."""
    if class_weight is None:
        return _UNIT_WEIGHTS if len(classes) == 2 else np.ones(len(classes))
    return compute_class_weight(class_weight, classes=classes, y=y_fit)


def libsvm_fit(K_fit, t_fit, y_fit, classes, p, sample_weight=None) -> tuple:
    """libsvm's C-SVC on a precomputed kernel; ``y_fit`` (the fitted labels) sets the class weights.

    ``random_seed=-1``: libsvm draws random numbers only for probability
    estimates, never asked for here, so its global generator is left alone
    (it would be shared by the threads of a parallel fit).
    """
    return _libsvm.fit(
        K_fit,
        t_fit,
        svm_type=0,
        sample_weight=np.empty(0) if sample_weight is None else sample_weight,
        class_weight=_class_weight(p["class_weight"], classes, y_fit),
        kernel="precomputed",
        C=float(p["C"]),
        nu=0.5,
        probability=False,
        degree=p["degree"],
        shrinking=p["shrinking"],
        tol=p["tol"],
        cache_size=p["cache_size"],
        coef0=p["coef0"],
        gamma=0.0,
        epsilon=0.1,
        max_iter=p["max_iter"],
        random_seed=-1,
    )


def gaussian_kernels(X: np.ndarray, gammas: Sequence[float]) -> list[np.ndarray]:
    """``[rbf_kernel(X, gamma=g) for g in gammas]``, bit for bit, from one distance matrix.

    ``rbf_kernel`` computes ``exp(-g * D)`` from the squared distances ``D``;
    computing ``D`` once saves a product and the input checks per gamma.
    """
    D = euclidean_distances(X, squared=True)
    out = []
    for g in gammas:
        K = D * -g
        np.exp(K, out=K)
        out.append(K)
    return out


def pool_weight(n: int, fit: np.ndarray) -> np.ndarray:
    """Sample weights that make libsvm fit on the points ``fit`` (sorted) of the pool, in place.

    The other points get weight zero. libsvm drops them, keeps the rest in
    pool order and reads each kernel value at its pool index, so the model
    (``support`` as positions in ``fit``) is bit for bit the one fit on
    ``K[np.ix_(fit, fit)]``, without copying that block.
    """
    weight = np.zeros(n)
    weight[fit] = 1.0
    return weight


def pool_fit(K: np.ndarray, t: np.ndarray, fit: np.ndarray, y_fit, classes, p) -> tuple:
    """libsvm's model on the points ``fit`` of the pool (:func:`pool_weight`)."""
    return libsvm_fit(K, t, y_fit, classes, p, sample_weight=pool_weight(len(t), fit))


#: Decision values within ``_SIGN_SLACK (terms + 2) eps A`` of 0 are left to libsvm: eps
#: is twice the unit roundoff, so this is four times the sum of both error bounds.
_SIGN_SLACK = 8.0
_EPS = float(np.finfo(np.float64).eps)


def pool_predict(K_rows: np.ndarray, fit: np.ndarray, models: list, params: list) -> np.ndarray:
    """Labels (0., 1.) libsvm predicts, one column per model, from ``K_rows`` = K(points, pool).

    One matrix product gives every decision value. libsvm sums the same
    terms in another order; each sum is within ``(terms + 1) u A`` of the
    exact value, with ``A = sum |c_i K_i| + |b|`` and ``u`` the unit roundoff
    (Higham, *Accuracy and Stability of Numerical Algorithms*, sec. 3.1), and
    ``A <= sum |c_i| + |b|`` because a Gaussian kernel lies in [0, 1]. A
    decision value further than twice that from 0 has libsvm's sign; the rare
    ones closer to 0 are predicted by libsvm itself, so the labels are libsvm's
    exactly. Needs ``0 <= K_rows <= 1``.
    """
    n, r = K_rows.shape[1], len(models)
    coef = np.zeros((n, r))
    for j, model in enumerate(models):
        coef[fit[model[0]], j] = model[3][0]
    b = np.array([model[4][0] for model in models])
    dec = K_rows @ coef
    dec += b
    pred = (dec <= 0).astype(np.float64)  # libsvm: label 0 if the decision is > 0
    tol = _SIGN_SLACK * (n + 2) * _EPS * (np.abs(coef).sum(axis=0) + np.abs(b))
    unsure = np.abs(dec) <= tol
    if unsure.any():
        for j in np.flatnonzero(unsure.any(axis=0)):
            rows = np.flatnonzero(unsure[:, j])
            pred[rows, j] = libsvm_predict(kernel_block(K_rows, rows, fit), models[j], params[j])
    return pred


def _libsvm_call(fn, K: np.ndarray, model: tuple, p: Mapping) -> np.ndarray:
    """``fn`` (libsvm's ``predict`` or ``decision_function``) of a precomputed-kernel model."""
    support, sv, n_support, dual_coef, intercept, prob_a, prob_b, _, _ = model
    return fn(
        K,
        support,
        sv,
        n_support,
        dual_coef,
        intercept,
        prob_a,
        prob_b,
        svm_type=0,
        kernel="precomputed",
        degree=p["degree"],
        coef0=p["coef0"],
        gamma=0.0,
        cache_size=p["cache_size"],
    )


def libsvm_predict(K_eval, model, p) -> np.ndarray:
    return _libsvm_call(_libsvm.predict, K_eval, model, p)


@functools.lru_cache(maxsize=1)
def _svc_defaults_cached() -> tuple:
    return tuple(SVC(kernel="precomputed").get_params().items())


def svc_defaults() -> dict:
    return dict(_svc_defaults_cached())


@functools.cache
def _threadpools() -> ThreadpoolController:
    return ThreadpoolController()  # after numpy's import: it finds numpy's BLAS


def one_blas_thread():
    """Context in which BLAS uses one thread.

    The fast path runs many small matrix products between libsvm fits;
    BLAS threads would spin on the other cores the fits (or the other
    joblib workers) need.
    """
    return _threadpools().limit(limits=1, user_api="blas")


# --------------------------------------------------------------------------- #
# Work done in the joblib tasks (module level so that every backend can pickle it)


def kernel_block(K: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``K[np.ix_(rows, cols)]`` (C-contiguous), gathered columns first, then whole rows."""
    return K.take(cols, axis=1).take(rows, axis=0)


class _PrecomputedSVC:
    """A C-SVC on a precomputed kernel fit by libsvm directly (the fast path's member).

    It holds the arrays ``SVC(kernel="precomputed").fit`` would hold and
    predicts as that SVC does, without scikit-learn's per-call checks (which
    cost more than the fit on small data). The tests compare both.
    """

    def __init__(self, model: tuple, params: dict, classes: np.ndarray):
        self.model = model
        self.params = params
        self.classes_ = classes

    @property
    def support_(self) -> np.ndarray:
        return self.model[0]

    @property
    def n_support_(self) -> np.ndarray:
        return self.model[2]

    @property
    def dual_coef_(self) -> np.ndarray:
        return -self.model[3]  # SVC flips the signs of a binary problem

    @property
    def intercept_(self) -> np.ndarray:
        return -self.model[4]

    def predict(self, K: np.ndarray) -> np.ndarray:
        """Labels from the kernel ``K`` between new points and the fitting set."""
        K = np.ascontiguousarray(K, dtype=np.float64)
        return self.classes_[libsvm_predict(K, self.model, self.params).astype(np.intp)]

    def decision_function(self, K: np.ndarray) -> np.ndarray:
        """Signed distance to the boundary, positive for ``classes_[1]``, as SVC gives it."""
        K = np.ascontiguousarray(K, dtype=np.float64)
        return -_libsvm_call(_libsvm.decision_function, K, self.model, self.params).ravel()


def _errors_svc(K_fit, y_fit, K_eval, y_eval, p, keep) -> tuple:
    """Errors on the evaluation block of ``SVC(kernel="precomputed")`` fit on ``K_fit``."""
    svc = SVC(**p).fit(K_fit, y_fit)
    return int(np.count_nonzero(svc.predict(K_eval) != y_eval)), (svc if keep else None)


def precomputed_chunk(K, y, base_params, points, splits, phase, keep, backend) -> list:
    """MS or EE errors of the grid points sharing one kernel, on several splits.

    ``phase="ms"`` fits on TR and counts on MS; ``"ee"`` fits on TR u MS and
    counts on EE, keeping the model of the points with ``keep[j]``. With
    libsvm the kernel is read in place (:func:`pool_weight`, :func:`pool_predict`);
    with the public SVC the blocks of a split are sliced once and shared by the points.
    """
    classes = np.unique(y)
    t = class_index(y, classes)
    ps = [{**base_params, **params} for params in points]
    if backend == "libsvm":
        # A global of libsvm; SVC.fit sets it on every call too, threads included.
        _libsvm.set_verbosity_wrap(int(base_params["verbose"]))
    out = []
    for tr, ms, ee in splits:
        # Both sorted (ThreeWaySplit sorts its parts): libsvm sees the points in
        # pool order whether it is given the block or the pool with weights.
        fit = tr if phase == "ms" else np.sort(np.concatenate([tr, ms]))
        ev = ms if phase == "ms" else ee
        if backend == "libsvm":
            weight, y_fit = pool_weight(len(y), fit), y[fit]
            models = [libsvm_fit(K, t, y_fit, classes, p, sample_weight=weight) for p in ps]
            pred, t_ev = pool_predict(K.take(ev, axis=0), fit, models, ps), t[ev]
            # Mismatches of 0/1 labels: sum(pred) + sum(t) - 2 t.pred (exact in floats).
            errors = (pred.sum(axis=0) + t_ev.sum() - 2.0 * (t_ev @ pred)).astype(int).tolist()
            out.append(
                [
                    (e, _PrecomputedSVC(model, p, classes) if kept else None)
                    for e, model, p, kept in zip(errors, models, ps, keep, strict=True)
                ]
            )
            continue
        # The public SVC: one gather for both blocks, rows fit then ev, columns
        # fit; the first len(fit) rows are K_fit (a C-contiguous view), the rest K_eval.
        K_both = kernel_block(K, np.concatenate([fit, ev]), fit)
        K_fit, K_eval = K_both[: len(fit)], K_both[len(fit) :]
        out.append(
            [
                _errors_svc(K_fit, y[fit], K_eval, y[ev], p, kept)
                for p, kept in zip(ps, keep, strict=True)
            ]
        )
    return out


def generic_chunk(X, y, base, points, splits, phase, keep) -> list:
    """As :func:`precomputed_chunk`, refitting the estimator on raw features."""
    out = []
    for tr, ms, ee in splits:
        fit = tr if phase == "ms" else np.sort(np.concatenate([tr, ms]))
        ev = ms if phase == "ms" else ee
        row = []
        for params, kept in zip(points, keep, strict=True):
            est = clone(base).set_params(**params).fit(X[fit], y[fit])
            row.append((int(np.count_nonzero(est.predict(X[ev]) != y[ev])), est if kept else None))
        out.append(row)
    return out


class RBFMember(ClassifierMixin, BaseEstimator):
    """One model of F*: an SVC on a precomputed Gaussian kernel, usable on raw X.

    ``svc`` is the model of the EE phase: a :class:`_PrecomputedSVC` (libsvm
    called directly) or, with the fallback solver, an ``SVC(kernel="precomputed")``;
    both predict alike. Holds a reference to the training pool (shared by all
    members, never copied) and the indices of the points it was fit on.
    """

    def __init__(self, svc: Any, gamma: float, X_pool: np.ndarray, fit_index: np.ndarray):
        self.svc = svc
        self.gamma = gamma
        self.X_pool = X_pool
        self.fit_index = fit_index

    @property
    def classes_(self) -> np.ndarray:
        return self.svc.classes_

    def predict_from_pool_kernel(self, K_pool: np.ndarray) -> np.ndarray:
        """Predict from ``K(X, X_pool)`` computed once for many members."""
        return self.svc.predict(K_pool[:, self.fit_index])

    def decision_function(self, X) -> np.ndarray:
        K = rbf_kernel(np.asarray(X, dtype=float), self.X_pool[self.fit_index], gamma=self.gamma)
        return self.svc.decision_function(K)

    def predict(self, X) -> np.ndarray:
        K = rbf_kernel(np.asarray(X, dtype=float), self.X_pool[self.fit_index], gamma=self.gamma)
        return self.svc.predict(K)
