"""Losses and empirical risk (chapter 1).

The *risk* of a predictor ``f`` is its expected loss ``L(f) = E[l(y, f(x))]``
under the distribution that generates the data. It cannot be computed, only
estimated; the simplest estimate is the *empirical risk* on points that ``f``
never saw, the test error.
"""

from __future__ import annotations

from typing import Callable, Union

import numpy as np

from sklearn.base import clone

from ._checks import check_finite, check_int, check_open_unit, check_rng, check_same_length

__all__ = [
    "zero_one_loss",
    "squared_loss",
    "absolute_loss",
    "LOSSES",
    "empirical_risk",
    "count_errors",
    "sample_test_errors",
    "single_split",
]

Loss = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _pair(y_true, y_pred) -> tuple[np.ndarray, np.ndarray]:
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    check_same_length(("y_true", y_true), ("y_pred", y_pred))
    for name, arr in (("y_true", y_true), ("y_pred", y_pred)):
        if np.issubdtype(arr.dtype, np.number):
            check_finite(arr, name)
    return y_true, y_pred


def zero_one_loss(y_true, y_pred) -> np.ndarray:
    """Per-point 0-1 loss: 1 where the prediction is wrong, 0 where it is right.

    Examples
    --------
    >>> zero_one_loss([1, -1, 1], [1, 1, 1])
    array([0., 1., 0.])
    """
    y_true, y_pred = _pair(y_true, y_pred)
    return (y_true != y_pred).astype(float)


def squared_loss(y_true, y_pred) -> np.ndarray:
    """Per-point squared loss ``(y - f(x))**2``.

    Examples
    --------
    >>> squared_loss([0.0, 1.0], [0.5, 3.0])
    array([0.25, 4.  ])
    """
    y_true, y_pred = _pair(y_true, y_pred)
    return (y_true.astype(float) - y_pred.astype(float)) ** 2


def absolute_loss(y_true, y_pred) -> np.ndarray:
    """Per-point absolute loss ``|y - f(x)|``.

    Examples
    --------
    >>> absolute_loss([0.0, 1.0], [0.5, 3.0])
    array([0.5, 2. ])
    """
    y_true, y_pred = _pair(y_true, y_pred)
    return np.abs(y_true.astype(float) - y_pred.astype(float))


LOSSES: dict[str, Loss] = {
    "zero_one": zero_one_loss,
    "squared": squared_loss,
    "absolute": absolute_loss,
}


def _resolve(loss: Union[str, Loss]) -> Loss:
    if callable(loss):
        return loss
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {sorted(LOSSES)} or a callable, got {loss!r}")
    return LOSSES[loss]


def empirical_risk(y_true, y_pred, loss: Union[str, Loss] = "zero_one") -> float:
    """Mean loss over a sample: the empirical risk.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n,)
        Targets and predictions; ``n >= 1``.
    loss : {"zero_one", "squared", "absolute"} or callable, default="zero_one"
        A name from :data:`LOSSES`, or a function returning per-point losses.

    Returns
    -------
    float

    Examples
    --------
    >>> empirical_risk([1, -1, 1, 1], [1, 1, 1, -1])
    0.5
    >>> empirical_risk([0.0, 1.0], [0.5, 3.0], loss="squared")
    2.125
    """
    fn = _resolve(loss)
    y_true, y_pred = _pair(y_true, y_pred)
    losses = np.asarray(fn(y_true, y_pred), dtype=float)
    if losses.size == 0:
        raise ValueError("y_true must hold at least one point, got an empty array")
    return float(losses.mean())


def count_errors(y_true, y_pred) -> int:
    """Number of misclassified points: the count a Clopper--Pearson bound takes.

    Examples
    --------
    >>> count_errors([1, -1, 1], [1, 1, -1])
    2
    """
    return int(zero_one_loss(y_true, y_pred).sum())


def sample_test_errors(model, distribution, test_size: int, n_test_sets: int,
                       random_state=None) -> np.ndarray:
    """Error counts of one fixed ``model`` on many independent test sets.

    Each test set holds ``test_size`` fresh points from ``distribution``. The
    counts are Binomial(test_size, L) draws, where L is the model's risk: their
    spread is the uncertainty of a test error.

    Parameters
    ----------
    model : object with ``predict``
        A fitted classifier.
    distribution : object with ``sample(m, random_state)``
        Where the test points come from.
    test_size : int
        Points per test set, >= 1.
    n_test_sets : int
        Number of test sets, >= 1.
    random_state : int, Generator, RandomState or None

    Returns
    -------
    numpy.ndarray of int, shape (n_test_sets,)

    Examples
    --------
    >>> from cvbook.datasets import TwoGaussians
    >>> class Sign:
    ...     def predict(self, X):
    ...         return np.where(X[:, 0] > 0, 1, -1)
    >>> counts = sample_test_errors(Sign(), TwoGaussians(), 50, 4, random_state=0)
    >>> counts.shape, counts.dtype.kind
    ((4,), 'i')
    """
    test_size = check_int(test_size, "test_size", minimum=1)
    n_test_sets = check_int(n_test_sets, "n_test_sets", minimum=1)
    rng = check_rng(random_state)
    X, y = distribution.sample(test_size * n_test_sets, random_state=rng)
    wrong = (model.predict(X) != y).reshape(n_test_sets, test_size)
    return wrong.sum(axis=1).astype(np.int64)


def single_split(rng, distribution, estimator, m: int, train_fraction: float,
                 delta: float = 0.05) -> dict[str, float]:
    """Split ``m`` points once into training and test parts; report what each gives.

    Draws ``m`` points, trains ``clone(estimator)`` on the first
    ``round(train_fraction * m)`` and tests it on the rest. Returns the model's
    true risk (exact if ``distribution`` has ``linear_rule_risk`` and the model
    exposes ``coef_``/``intercept_``, else on 100,000 fresh points), its test
    error and the one-sided Clopper--Pearson bound at ``1 - delta``.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> out = single_split(np.random.default_rng(0), TwoGaussians(),
    ...                    LinearDiscriminantAnalysis(), m=40, train_fraction=0.5)
    >>> sorted(out)
    ['n_test', 'n_train', 'test_error', 'true_risk', 'upper_bound']
    """
    from .bounds import clopper_pearson_upper
    from .datasets.synthetic import monte_carlo_risk

    m = check_int(m, "m", minimum=2)
    train_fraction = float(check_open_unit(train_fraction, "train_fraction"))
    n_train = int(round(train_fraction * m))
    if not 1 <= n_train <= m - 1:
        raise ValueError(f"train_fraction={train_fraction} leaves an empty part of m={m} points")
    X, y = distribution.sample(m, random_state=rng)
    model = clone(estimator).fit(X[:n_train], y[:n_train])
    y_hat = model.predict(X[n_train:])
    errors = count_errors(y[n_train:], y_hat)
    n_test = m - n_train
    if hasattr(distribution, "linear_rule_risk") and hasattr(model, "coef_"):
        sign = 1.0 if model.classes_[1] == 1 else -1.0
        true_risk = distribution.linear_rule_risk(sign * model.coef_.ravel(),
                                                  sign * float(model.intercept_[0]))
    else:
        true_risk = monte_carlo_risk(model, distribution, n=100_000, random_state=rng)
    return {"n_train": n_train, "n_test": n_test, "true_risk": true_risk,
            "test_error": errors / n_test,
            "upper_bound": clopper_pearson_upper(errors, n_test, delta)}
