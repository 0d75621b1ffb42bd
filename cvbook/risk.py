"""Losses and empirical risk (chapter 1).

The *risk* of a predictor ``f`` is its expected loss ``L(f) = E[l(y, f(x))]``
under the distribution that generates the data. It cannot be computed, only
estimated; the simplest estimate is the *empirical risk* on points that ``f``
never saw, the test error.
"""

from __future__ import annotations

from typing import Callable, Union

import numpy as np

from ._checks import check_finite, check_same_length

__all__ = [
    "zero_one_loss",
    "squared_loss",
    "absolute_loss",
    "LOSSES",
    "empirical_risk",
    "count_errors",
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
