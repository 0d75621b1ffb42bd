"""Synthetic distributions with a known risk.

The book prefers these to real data wherever it can: on them the *true* risk of
a classifier is known, exactly for a linear rule (:meth:`TwoGaussians.linear_rule_risk`)
and to any wanted precision for a fitted model (:func:`monte_carlo_risk`), so an
estimate can always be drawn next to the truth.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats
from sklearn.utils import check_random_state

from .._checks import check_finite, check_int, check_open_unit

__all__ = ["TwoGaussians", "monte_carlo_risk"]


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
        if not np.isfinite(self.separation) or self.separation < 0:
            raise ValueError(f"separation must be finite and >= 0, got {self.separation!r}")
        check_int(self.dim, "dim", minimum=1)
        if not np.isfinite(self.sigma) or self.sigma <= 0:
            raise ValueError(f"sigma must be finite and > 0, got {self.sigma!r}")
        check_open_unit(self.prior, "prior")

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
        y = np.where(rng.random_sample(m) < self.prior, 1, -1)
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
        w = check_finite(w, "w").ravel()
        if w.shape != (self.dim,):
            raise ValueError(f"w must have length dim={self.dim}, got {w.shape[0]}")
        scale = self.sigma * np.linalg.norm(w)
        if scale == 0:
            raise ValueError("w must not be the zero vector: the rule would be constant")
        mu_neg, mu_pos = self.means
        err_pos = stats.norm.cdf(-(w @ mu_pos + b) / scale)   # positive called negative
        err_neg = stats.norm.cdf((w @ mu_neg + b) / scale)    # negative called positive
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


def monte_carlo_risk(model, distribution, n: int = 200_000, random_state=None,
                     batch_size: int = 50_000) -> float:
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
    random_state : int, numpy Generator/RandomState or None
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
    n = check_int(n, "n", minimum=1)
    batch_size = check_int(batch_size, "batch_size", minimum=1)
    rng = check_random_state(random_state)
    errors, done = 0, 0
    while done < n:
        size = min(batch_size, n - done)
        X, y = distribution.sample(size, random_state=rng)
        errors += int(np.sum(model.predict(X) != y))
        done += size
    return errors / n
