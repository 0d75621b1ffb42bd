"""Synthetic distributions with a known risk.

The book prefers these to real data wherever it can: on them the *true* risk of
a classifier is known, exactly for a linear rule (:meth:`TwoGaussians.linear_rule_risk`)
and to any wanted precision for a fitted model (:func:`monte_carlo_risk`), so an
estimate can always be drawn next to the truth.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ..validation import (
    ArgumentTypeError,
    check_1d_labels,
    check_distribution,
    check_features,
    check_finite,
    check_float,
    check_int,
    check_open_unit,
    check_option,
    check_random_state,
)

__all__ = [
    "DISTRIBUTIONS",
    "LinearGaussianRegression",
    "Ringnorm",
    "TwoGaussians",
    "Twonorm",
    "linear_rule",
    "make_distribution",
    "monte_carlo_risk",
    "true_risk",
]


@dataclass(frozen=True)
class TwoGaussians:
    """Two Gaussian classes with a shared isotropic covariance.

    ``y = +1`` with probability ``prior``, else ``-1``; given ``y``,
    ``x ~ N(y * separation / 2 * e_1, sigma**2 I_dim)``: the class means sit
    at ``±separation/2`` on the first axis.

    Parameters
    ----------
    separation : float, default=2.0
        Distance between the two class means.
    dim : int, default=2
        Dimension of ``x``; the extra dimensions carry noise only.
    sigma : float, default=1.0
        Standard deviation of each coordinate.
    prior : float, default=0.5
        Probability of the positive class, in (0, 1).

    Examples
    --------
    >>> dist = TwoGaussians(separation=2.0)
    >>> X, y = dist.sample(5, random_state=0)
    >>> X.shape, sorted(set(y.tolist())) <= [-1, 1]
    ((5, 2), True)
    >>> round(dist.bayes_risk, 4)   # Phi(-1)
    0.1587
    """

    separation: float = 2.0
    dim: int = 2
    sigma: float = 1.0
    prior: float = 0.5

    def __post_init__(self) -> None:
        check_float(self.separation, "separation", minimum=0)
        check_int(self.dim, "dim", minimum=1)
        check_float(self.sigma, "sigma", minimum=0, exclusive=True)
        check_open_unit(self.prior, "prior", scalar=True)

    @property
    def means(self) -> tuple[np.ndarray, np.ndarray]:
        """Means of the negative and the positive class."""
        mu = np.zeros(self.dim)
        mu[0] = self.separation / 2
        return -mu, mu

    def sample(self, m: int, random_state=None) -> tuple[np.ndarray, np.ndarray]:
        """Draw ``m`` i.i.d. labelled points ``(X, y)`` with ``y`` in {-1, +1}."""
        m = check_int(m, "m", minimum=1)
        rng = check_random_state(random_state)
        y = np.where(rng.random(m) < self.prior, 1, -1)
        X = rng.standard_normal((m, self.dim)) * self.sigma
        X[:, 0] += y * self.separation / 2
        return X, y

    def linear_rule_risk(self, w: ArrayLike, b: float = 0.0) -> float:
        """Exact 0-1 risk of the rule ``sign(w @ x + b)``.

        Given the class, ``w @ x + b`` is normal with mean ``w @ mu_y + b``
        and standard deviation ``sigma * ||w||``, so each class's error is a
        normal CDF.

        Examples
        --------
        >>> round(TwoGaussians(separation=2.0).linear_rule_risk([1.0, 0.0]), 4)
        0.1587
        """
        w, b = _check_linear_rule(w, b, self.dim, classifier=True)
        scale = self.sigma * np.linalg.norm(w)
        mu_neg, mu_pos = self.means
        err_pos = stats.norm.cdf(-(w @ mu_pos + b) / scale)  # positive called negative
        err_neg = stats.norm.cdf((w @ mu_neg + b) / scale)  # negative called positive
        return float(self.prior * err_pos + (1 - self.prior) * err_neg)

    @property
    def bayes_rule(self) -> tuple[np.ndarray, float]:
        """``(w, b)`` of the Bayes classifier, a linear rule for this family."""
        w = np.zeros(self.dim)
        w[0] = self.separation / self.sigma**2
        b = float(np.log(self.prior / (1 - self.prior)))
        return w, b

    @property
    def bayes_risk(self) -> float:
        """The smallest risk any classifier can reach on this distribution."""
        if self.separation == 0:
            return float(min(self.prior, 1 - self.prior))
        return self.linear_rule_risk(*self.bayes_rule)


def _check_zero_one_pair(model: Any, y: np.ndarray, predicted: np.ndarray) -> None:
    """The 0-1 risk needs class labels on both sides, from the same label set.

    A regression target, continuous predictions (a regressor), or a classifier
    whose classes are not the distribution's (``{0, 1}`` against ``{-1, +1}``)
    would count errors that are not errors: refused by name.
    """
    from sklearn.utils.multiclass import type_of_target

    kind = type_of_target(y)
    if kind not in ("binary", "multiclass"):
        raise ValueError(
            f"distribution must draw class labels for a 0-1 risk, got a {kind} target "
            "(a regression distribution has no 0-1 risk; use its squared-error risk)"
        )
    if predicted.dtype.kind == "f" and np.any(predicted != np.round(predicted)):
        raise ValueError(
            "model must be a classifier: model.predict(X) returned continuous values "
            "(a regressor has no 0-1 risk)"
        )
    classes = getattr(model, "classes_", None)
    labels = set(np.unique(y).tolist())
    if classes is not None:
        extra = set(np.asarray(classes).tolist()) - labels
        if extra:
            raise ValueError(
                f"model's classes {np.asarray(classes).tolist()} are not the distribution's "
                f"labels {sorted(labels)}: the model was trained on other labels "
                f"({sorted(extra)} never occur)"
            )


def monte_carlo_risk(
    model, distribution, n: int = 200_000, random_state=None, batch_size: int = 50_000
) -> float:
    """True 0-1 risk of a fitted ``model``, estimated on a large fresh sample.

    The standard error is at most ``0.5 / sqrt(n)`` (0.0011 for the default),
    small beside the spread of any estimate the book studies.

    Parameters
    ----------
    model : object with ``predict``
        A fitted classifier.
    distribution : object with ``sample(m, random_state)``
        The distribution the model's training data came from.
    n : int, default=200_000
        Size of the fresh sample.
    random_state : int, numpy Generator, RandomState or None
        Seed of the fresh sample.
    batch_size : int, default=50_000
        Points predicted at a time, to bound memory.

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> dist = TwoGaussians()
    >>> clf = LogisticRegression().fit(*dist.sample(200, random_state=0))
    >>> abs(monte_carlo_risk(clf, dist, random_state=1) - dist.bayes_risk) < 0.02
    True
    """
    if not callable(getattr(model, "predict", None)):
        raise TypeError(
            f"model must be a fitted classifier with a predict method, got {type(model).__name__}"
        )
    check_distribution(distribution)
    n = check_int(n, "n", minimum=1)
    batch_size = check_int(batch_size, "batch_size", minimum=1)
    rng = check_random_state(random_state)
    errors, done = 0, 0
    while done < n:
        size = min(batch_size, n - done)
        X, y = distribution.sample(size, random_state=rng)
        expected = getattr(model, "n_features_in_", None)
        if done == 0 and isinstance(expected, (int, np.integer)) and expected != X.shape[1]:
            raise ValueError(
                f"model was fitted on {expected} features, but distribution draws points "
                f"with {X.shape[1]}: score a model on the distribution it was trained on"
            )
        # A column of predictions would broadcast against y into a (size, size) matrix.
        predicted = check_1d_labels(model.predict(X), "model.predict(X)")
        if predicted.shape != np.shape(y):
            raise ValueError(
                f"model.predict(X) must return one label per point: got shape "
                f"{predicted.shape} for {np.shape(y)[0]} points"
            )
        if done == 0:
            _check_zero_one_pair(model, check_1d_labels(y, "distribution's y"), predicted)
        errors += int(np.sum(predicted != y))
        done += size
    return errors / n


def linear_rule(model: Any) -> tuple[np.ndarray, float] | None:
    """``(w, b)`` with ``model.predict(x) = sign(w @ x + b)`` on labels -1/+1, else None.

    Read from scikit-learn's ``coef_``, ``intercept_`` and ``classes_`` (one row of
    coefficients, classes exactly ``[-1, 1]``).

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> lda = LinearDiscriminantAnalysis().fit(*TwoGaussians().sample(100, random_state=0))
    >>> w, b = linear_rule(lda)
    >>> w.shape
    (2,)
    """
    coef, intercept = getattr(model, "coef_", None), getattr(model, "intercept_", None)
    classes = getattr(model, "classes_", None)
    if coef is None or intercept is None or classes is None:
        return None
    coef = np.asarray(coef)
    if coef.ndim != 2 or coef.shape[0] != 1 or list(np.asarray(classes)) != [-1, 1]:
        return None
    return coef.ravel(), float(np.ravel(intercept)[0])


def true_risk(
    model: Any,
    distribution: Any,
    n: int = 200_000,
    random_state: Any = None,
    batch_size: int = 50_000,
    sample: tuple[Any, Any] | None = None,
) -> float:
    """The true 0-1 risk ``L(f)`` of a fitted classifier on a known distribution.

    The one place the book computes it. Exact when the model is a linear rule
    (:func:`linear_rule`) and the distribution has ``linear_rule_risk``; otherwise the
    model's error on ``sample`` when one is given (so that several models are compared
    on common points), else :func:`monte_carlo_risk` on ``n`` fresh points.

    Parameters
    ----------
    model : fitted classifier
    distribution : object with ``sample(m, random_state)``
    n, random_state, batch_size
        As for :func:`monte_carlo_risk` (unused when the risk is exact or ``sample`` is
        given).
    sample : pair (X, y), optional
        A fresh sample to score a non-linear model on.

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> dist = TwoGaussians()
    >>> lda = LinearDiscriminantAnalysis().fit(*dist.sample(500, random_state=0))
    >>> true_risk(lda, dist) == dist.linear_rule_risk(lda.coef_, lda.intercept_[0])
    True
    """
    check_int(n, "n", minimum=1)
    check_int(batch_size, "batch_size", minimum=1)
    if sample is not None:  # checked on both routes, also when the exact one answers
        if not isinstance(sample, (tuple, list)) or len(sample) != 2:
            raise TypeError(f"sample must be a pair (X, y), got {type(sample).__name__}")
        if len(sample[0]) != len(check_1d_labels(sample[1], "sample y")):
            raise ValueError(
                f"sample must be a pair (X, y) of the same length, got {len(sample[0])} "
                f"and {len(sample[1])}"
            )
    rule = linear_rule(model)
    if rule is not None and callable(getattr(distribution, "linear_rule_risk", None)):
        return float(distribution.linear_rule_risk(*rule))
    if sample is not None:
        X, y = sample
        y = check_1d_labels(y, "sample y")
        if not callable(getattr(model, "predict", None)):
            raise TypeError(
                f"model must be a fitted classifier with a predict method, got "
                f"{type(model).__name__}"
            )
        if len(X) != len(y):
            raise ValueError(
                f"sample must be a pair (X, y) of the same length, got {len(X)} and {len(y)}"
            )
        first = check_1d_labels(model.predict(X[:batch_size]), "model.predict(X)")
        _check_zero_one_pair(model, y, first)
        errors = sum(
            int(
                np.sum(
                    check_1d_labels(model.predict(X[i : i + batch_size]), "model.predict(X)")
                    != y[i : i + batch_size]
                )
            )
            for i in range(0, len(y), batch_size)
        )
        return errors / len(y)
    return monte_carlo_risk(
        model, distribution, n=n, random_state=random_state, batch_size=batch_size
    )


def _check_linear_rule(
    w: ArrayLike, b: Any, dim: int, classifier: bool
) -> tuple[np.ndarray, float]:
    """``(w, b)`` of a linear rule in ``dim`` dimensions, checked by name.

    ``w`` may be 1-d or a single row or column (scikit-learn's ``coef_`` is
    ``(1, dim)``). For a classifier ``sign(w @ x + b)`` the pair is rescaled
    by ``max |w|``, which leaves the rule unchanged and keeps a huge ``w``
    from overflowing its norm.
    """
    arr = check_finite(w, "w")
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.ravel()
    if arr.shape != (dim,):
        raise ValueError(f"w must have length dim={dim}, got shape {arr.shape}")
    b = check_float(b, "b")
    if classifier:
        top = float(np.max(np.abs(arr)))
        if top == 0:
            raise ValueError("w must not be the zero vector: the rule would be constant")
        arr, b = arr / top, b / top
    return arr, b


# ---------------------------------------------------------------------------
# Breiman's twonorm and ringnorm (chapter 6)
# ---------------------------------------------------------------------------


def _balanced_labels(rng, m: int) -> np.ndarray:
    """Equiprobable labels in {-1, +1}."""
    return np.where(rng.random(m) < 0.5, 1, -1)


@dataclass(frozen=True)
class _BreimanNorm:
    """What twonorm and ringnorm share: ``dim``, its check, and the draw of ``(Z, y)``.

    A subclass gives ``a`` and ``_features(Z, y)``, which turns the standard normal
    draws ``Z`` (shape ``(m, dim)``) into the points ``X`` of the labels ``y``.
    """

    dim: int = 20

    def __post_init__(self) -> None:
        check_int(self.dim, "dim", minimum=1)

    def sample(self, m: int, random_state=None) -> tuple[np.ndarray, np.ndarray]:
        """Draw ``m`` i.i.d. labelled points ``(X, y)`` with ``y`` in {-1, +1}."""
        m = check_int(m, "m", minimum=1)
        rng = check_random_state(random_state)
        y = _balanced_labels(rng, m)
        Z = rng.standard_normal((m, self.dim))
        return self._features(Z, y), y


@dataclass(frozen=True)
class Twonorm(_BreimanNorm):
    """Breiman's *twonorm*: two unit-covariance Gaussians on the diagonal.

    ``y = ±1`` with probability 1/2 each; given ``y``,
    ``x ~ N(y * a * 1, I_dim)`` with ``a = 2 / sqrt(dim)`` (Breiman, 1996).
    The distance between the means is ``2 a sqrt(dim) = 4``, so the Bayes rule
    ``sign(1 @ x)`` errs with probability ``Phi(-2) = 0.02275``, whatever
    ``dim``. The rule ``sign(w @ x + b)`` of any linear model has an exact risk,
    :meth:`linear_rule_risk`.

    Parameters
    ----------
    dim : int, default=20
        Dimension of ``x`` (Breiman uses 20).

    Examples
    --------
    >>> dist = Twonorm()
    >>> X, y = dist.sample(4, random_state=0)
    >>> X.shape
    (4, 20)
    >>> round(dist.bayes_risk, 4)
    0.0228
    """

    @property
    def a(self) -> float:
        """Offset of each coordinate of the class means, ``2 / sqrt(dim)``."""
        return 2.0 / np.sqrt(self.dim)

    def _features(self, Z: np.ndarray, y: np.ndarray) -> np.ndarray:
        return Z + (y * self.a)[:, None]

    def linear_rule_risk(self, w: ArrayLike, b: float = 0.0) -> float:
        """Exact 0-1 risk of the rule ``sign(w @ x + b)``.

        Given ``y``, ``w @ x + b ~ N(y a (w @ 1) + b, ||w||^2)``.

        Examples
        --------
        >>> round(Twonorm().linear_rule_risk(np.ones(20)), 5)
        0.02275
        """
        w, b = _check_linear_rule(w, b, self.dim, classifier=True)
        scale = float(np.linalg.norm(w))
        shift = self.a * float(w.sum())
        err_pos = stats.norm.cdf(-(shift + b) / scale)  # +1 called -1
        err_neg = stats.norm.cdf((-shift + b) / scale)  # -1 called +1
        return float(0.5 * err_pos + 0.5 * err_neg)

    @property
    def bayes_rule(self) -> tuple[np.ndarray, float]:
        """``(w, b)`` of the Bayes classifier: ``sign(sum(x))``."""
        return np.ones(self.dim), 0.0

    @property
    def bayes_risk(self) -> float:
        """``Phi(-2)``, the smallest risk any classifier can reach."""
        return self.linear_rule_risk(*self.bayes_rule)


@dataclass(frozen=True)
class Ringnorm(_BreimanNorm):
    """Breiman's *ringnorm*: a wide Gaussian around a narrow one.

    ``y = ±1`` with probability 1/2 each. Class ``+1`` is ``N(0, 4 I_dim)``;
    class ``-1`` is ``N(a * 1, I_dim)`` with ``a = 1 / sqrt(dim)``
    (Breiman, 1996, who calls them class 1 and class 2).

    The Bayes rule is quadratic: say ``+1`` when
    ``||x - mu||^2 / 2 - ||x||^2 / 8 > dim * log 2``. Its risk has no elementary
    closed form, but each class's error is a noncentral chi-square tail
    (see :attr:`bayes_risk`), which scipy evaluates to many digits: for
    ``dim = 20`` it is 0.014965. Breiman quotes "about 1.3%"; the value for
    the distribution as he defines it is 1.50%, which a Monte Carlo run of the
    Bayes rule on 8 million points confirms (0.015013 ± 0.000043).

    Parameters
    ----------
    dim : int, default=20
        Dimension of ``x`` (Breiman uses 20).

    Examples
    --------
    >>> dist = Ringnorm()
    >>> X, y = dist.sample(4, random_state=0)
    >>> X.shape
    (4, 20)
    >>> round(dist.bayes_risk, 4)
    0.015
    """

    @property
    def a(self) -> float:
        """Offset of each coordinate of the narrow class's mean, ``1 / sqrt(dim)``."""
        return 1.0 / np.sqrt(self.dim)

    def _features(self, Z: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.where((y == 1)[:, None], 2.0 * Z, Z + self.a)

    def bayes_predict(self, X: ArrayLike) -> np.ndarray:
        """Labels the Bayes rule gives to the rows of ``X``.

        Examples
        --------
        >>> dist = Ringnorm()
        >>> dist.bayes_predict(np.zeros((1, 20))).tolist(), dist.bayes_predict(
        ...     np.full((1, 20), 3.0)).tolist()
        ([-1], [1])
        """
        X = check_features(X, "X")
        if X.shape[1] != self.dim:
            raise ValueError(f"X must have shape (m, {self.dim}), got {X.shape}")
        q = 0.5 * np.sum((X - self.a) ** 2, axis=1) - np.sum(X**2, axis=1) / 8
        return np.where(q > self.dim * np.log(2.0), 1, -1)

    def bayes_errors(self, n_points: int, seed: int, batches: int = 8) -> int:
        """Errors of the Bayes rule on ``n_points`` fresh points: a check of :attr:`bayes_risk`.

        The points are drawn from ``numpy.random.default_rng(seed)`` in ``batches``
        batches of equal size (the last takes the remainder), to keep memory small.
        The count is a pure function of the arguments and is kept for the process (a
        chapter re-run in the same kernel, as the papermill test does a dozen times,
        draws the four million points once).

        Examples
        --------
        >>> Ringnorm().bayes_errors(8_000, seed=0) / 8_000 < 0.03
        True
        """
        n_points = check_int(n_points, "n_points", minimum=1)
        seed = check_int(seed, "seed", minimum=0)
        batches = check_int(batches, "batches", minimum=1, maximum=n_points)
        return _bayes_errors(self, n_points, seed, batches)

    @property
    def bayes_risk(self) -> float:
        """Risk of the Bayes rule, from two noncentral chi-square tails.

        With ``||mu||^2 = dim a^2 = 1`` and ``t = dim log 2``: for ``x = 2z``
        (class +1), ``q = 1.5 ||z - 2mu/3||^2 - 1/6``, and for ``x = mu + z``
        (class -1), ``q = (3 ||z - mu/3||^2 - 4/3) / 8``, with ``z ~ N(0, I)``.
        So the two errors are ``P(chi2'(dim, 4/9) < (t + 1/6) / 1.5)`` and
        ``P(chi2'(dim, 1/9) > (8 t + 4/3) / 3)``.
        """
        t = self.dim * np.log(2.0)
        mu2 = self.dim * self.a**2  # = 1
        err_pos = stats.ncx2.cdf((t + mu2 / 6) / 1.5, self.dim, 4 * mu2 / 9)
        err_neg = stats.ncx2.sf((8 * t + 4 * mu2 / 3) / 3, self.dim, mu2 / 9)
        return float(0.5 * err_pos + 0.5 * err_neg)


@dataclass(frozen=True)
class LinearGaussianRegression:
    """A linear model with Gaussian inputs and noise: the squared-loss risk is exact.

    ``x ~ N(0, I_dim)`` and ``y = x @ coef + noise * eps`` with
    ``eps ~ N(0, 1)``; ``coef = signal / sqrt(dim) * (1, ..., 1)``, so that
    ``||coef|| = signal``. For any linear predictor ``f(x) = w @ x + b``,

    ``E[(y - f(x))^2] = ||w - coef||^2 + b^2 + noise^2``,

    the regression counterpart of :meth:`TwoGaussians.linear_rule_risk`.

    Parameters
    ----------
    dim : int, default=5
        Dimension of ``x``.
    signal : float, default=1.0
        Norm of the true coefficient vector, ``>= 0``.
    noise : float, default=1.0
        Standard deviation of the noise, ``> 0``; ``noise**2`` is the Bayes risk.

    Examples
    --------
    >>> dist = LinearGaussianRegression(dim=3, signal=2.0, noise=0.5)
    >>> X, y = dist.sample(4, random_state=0)
    >>> X.shape, y.shape
    ((4, 3), (4,))
    >>> dist.bayes_risk, round(dist.linear_rule_risk(np.zeros(3)), 6)
    (0.25, 4.25)
    """

    dim: int = 5
    signal: float = 1.0
    noise: float = 1.0

    def __post_init__(self) -> None:
        check_int(self.dim, "dim", minimum=1)
        check_float(self.signal, "signal", minimum=0)
        check_float(self.noise, "noise", minimum=0, exclusive=True)

    @property
    def coef(self) -> np.ndarray:
        """The true coefficients, of norm ``signal``."""
        return np.full(self.dim, self.signal / np.sqrt(self.dim))

    def sample(self, m: int, random_state=None) -> tuple[np.ndarray, np.ndarray]:
        """Draw ``m`` i.i.d. points ``(X, y)``, X of shape (m, dim), y of shape (m,)."""
        m = check_int(m, "m", minimum=1)
        rng = check_random_state(random_state)
        X = rng.standard_normal((m, self.dim))
        y = X @ self.coef + self.noise * rng.standard_normal(m)
        return X, y

    def linear_rule_risk(self, w: ArrayLike, b: float = 0.0) -> float:
        """Exact squared-loss risk of ``f(x) = w @ x + b``.

        Examples
        --------
        >>> dist = LinearGaussianRegression(dim=2, signal=0.0, noise=1.0)
        >>> dist.linear_rule_risk([1.0, 0.0], b=1.0)
        3.0
        """
        w, b = _check_linear_rule(w, b, self.dim, classifier=False)
        return float(np.sum((w - self.coef) ** 2) + b**2 + self.noise**2)

    @property
    def bayes_risk(self) -> float:
        """``noise**2``, the risk of ``f(x) = x @ coef``."""
        return float(self.noise**2)


#: The distributions the studies know by name (:func:`make_distribution`).
DISTRIBUTIONS: tuple[str, ...] = ("twogaussians", "twonorm", "ringnorm")


def make_distribution(distribution: str) -> TwoGaussians | Twonorm | Ringnorm:
    """The distribution called ``distribution`` (one of :data:`DISTRIBUTIONS`).

    ``"twogaussians"`` is ``TwoGaussians(separation=2, dim=10)`` (Bayes risk
    ``Phi(-1) = 0.159``); ``"twonorm"`` and ``"ringnorm"`` are Breiman's, in
    dimension 20.

    Examples
    --------
    >>> round(make_distribution("twonorm").bayes_risk, 4)
    0.0228
    >>> round(make_distribution("twogaussians").bayes_risk, 4)
    0.1587
    """
    if not isinstance(distribution, str):
        raise ArgumentTypeError(
            f"distribution must be one of {list(DISTRIBUTIONS)}, got {distribution!r}"
        )
    check_option(distribution, "distribution", DISTRIBUTIONS)
    if distribution == "twogaussians":
        return TwoGaussians(separation=2.0, dim=10)
    if distribution == "twonorm":
        return Twonorm()
    return Ringnorm()


@lru_cache(maxsize=8)
def _bayes_errors(dist: Ringnorm, n_points: int, seed: int, batches: int) -> int:
    rng, errors = np.random.default_rng(seed), 0
    sizes = [n_points // batches] * batches
    sizes[-1] += n_points % batches
    for size in sizes:
        X, y = dist.sample(size, random_state=rng)
        errors += int(np.sum(dist.bayes_predict(X) != y))
    return errors
