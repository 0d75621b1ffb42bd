"""Losses, empirical risk and the true risk of a fitted model (chapter 1).

The *risk* of a predictor ``f`` is its expected loss ``L(f) = E[l(y, f(x))]``
under the distribution that generates the data. It cannot be computed, only
estimated; the simplest estimate is the *empirical risk* on points that ``f``
never saw, the test error. On the book's synthetic distributions the risk of a
fitted model is known (:func:`model_risk`), so every estimate can be shown next
to the truth.

The per-point losses are named in the plural (:func:`zero_one_losses`): they
return one loss per point, unlike :func:`sklearn.metrics.zero_one_loss`, which
returns their mean.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from sklearn.base import clone

from .validation import (
    Constraint,
    Interval,
    as_random_state,
    check_1d_labels,
    check_finite,
    check_int,
    check_label_pair,
    check_same_length,
    check_target_for_loss,
    validate_params,
)

__all__ = [
    "LOSS",
    "LOSSES",
    "Loss",
    "LossFunction",
    "absolute_losses",
    "check_target",
    "count_errors",
    "draw_sample",
    "empirical_risk",
    "fit_predict",
    "model_risk",
    "resolve_loss",
    "score_splits",
    "squared_losses",
    "zero_one_losses",
]

#: A loss: one per-point loss function ``(y_true, y_pred) -> losses``, or the name of one
#: in :data:`LOSSES`. :func:`resolve_loss` turns either into the function.
LossFunction = Callable[[np.ndarray, np.ndarray], np.ndarray]
Loss = str | LossFunction


def _labels(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    """Both label arrays 1-d (a column is flattened with a warning) and of one length."""
    y_true = check_1d_labels(y_true, "y_true", allow_empty=True)
    y_pred = check_1d_labels(y_pred, "y_pred", allow_empty=True)
    check_same_length(("y_true", y_true), ("y_pred", y_pred))
    return y_true, y_pred


def _numbers(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    """As :func:`_labels`, and both finite real numbers (for the regression losses)."""
    y_true, y_pred = _labels(y_true, y_pred)
    return check_finite(y_true, "y_true"), check_finite(y_pred, "y_pred")


def zero_one_losses(y_true: Any, y_pred: Any) -> np.ndarray:
    """Per-point 0-1 losses: 1.0 where the prediction is wrong, 0.0 where it is right.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n,)
        Class labels of any kind (numbers or strings), both of one kind. A column of
        shape ``(n, 1)`` is flattened with a
        :class:`~sklearn.exceptions.DataConversionWarning`; any other 2-d shape, complex
        values, a continuous ``y_true`` (a regression target: use ``"squared"``) and
        predictions that are probabilities or scores are refused
        (:func:`cvbook.validation.check_label_pair`).

    Returns
    -------
    numpy.ndarray of float, shape (n,)
        One loss per point (their mean is :func:`sklearn.metrics.zero_one_loss`).

    Examples
    --------
    >>> zero_one_losses([1, -1, 1], [1, 1, 1])
    array([0., 1., 0.])
    """
    y_true, y_pred = check_label_pair(y_true, y_pred)
    return (y_true != y_pred).astype(float)


def squared_losses(y_true: Any, y_pred: Any) -> np.ndarray:
    """Per-point squared losses ``(y - f(x))**2``.

    Examples
    --------
    >>> squared_losses([0.0, 1.0], [0.5, 3.0])
    array([0.25, 4.  ])
    """
    y_true, y_pred = _numbers(y_true, y_pred)
    return (y_true - y_pred) ** 2


def absolute_losses(y_true: Any, y_pred: Any) -> np.ndarray:
    """Per-point absolute losses ``|y - f(x)|``.

    Examples
    --------
    >>> absolute_losses([0.0, 1.0], [0.5, 3.0])
    array([0.5, 2. ])
    """
    y_true, y_pred = _numbers(y_true, y_pred)
    return np.abs(y_true - y_pred)


LOSSES: dict[str, LossFunction] = {
    "zero_one": zero_one_losses,
    "squared": squared_losses,
    "absolute": absolute_losses,
}


class _LossConstraint(Constraint):
    """The declared constraint of a ``loss`` argument: a name in :data:`LOSSES` or a callable."""

    description = f"one of {sorted(LOSSES)} or a callable returning per-point losses"

    def check(self, value: Any, name: str) -> None:
        if not callable(value) and (not isinstance(value, str) or value not in LOSSES):
            raise ValueError(f"{name} must be {self.description}, got {value!r}")


#: The one rule for a ``loss`` argument (``validate_params({"loss": LOSS})``).
LOSS = _LossConstraint()


def resolve_loss(loss: Loss) -> LossFunction:
    """The per-point loss function named or given by ``loss`` (the one resolver of the package).

    Examples
    --------
    >>> resolve_loss("squared") is squared_losses
    True
    """
    if callable(loss):
        return loss
    LOSS.check(loss, "loss")
    return LOSSES[loss]


def check_target(y: Any, loss: Loss, name: str = "y") -> np.ndarray:
    """``y`` checked against ``loss`` before any model is fitted, and returned 1-d.

    The 0-1 loss needs class labels (a continuous ``y`` would make nearly every point an
    error), the squared and absolute losses need numbers; a custom loss takes any 1-d
    ``y``. A column vector is flattened with a ``DataConversionWarning``.

    Examples
    --------
    >>> check_target([1, -1, 1], "zero_one").tolist()
    [1, -1, 1]
    >>> check_target([0.3, 1.7], "zero_one")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: y must hold class labels for loss='zero_one', got a continuous target ...
    """
    fn = resolve_loss(loss)
    if fn is zero_one_losses:
        return check_target_for_loss(y, "zero_one", name)
    if fn is squared_losses or fn is absolute_losses:
        return check_target_for_loss(y, "squared", name)
    return check_1d_labels(y, name)


@validate_params({"loss": LOSS})
def empirical_risk(y_true: Any, y_pred: Any, loss: Loss = "zero_one") -> float:
    """Mean loss over a sample: the empirical risk.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n,)
        Targets and predictions; ``n >= 1``. A column of shape ``(n, 1)`` is
        flattened with a :class:`~sklearn.exceptions.DataConversionWarning`;
        other 2-d shapes, complex values and NaN are refused.
    loss : {"zero_one", "squared", "absolute"} or callable, default="zero_one"
        A name from :data:`LOSSES`, or a function returning one finite loss per point.

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
    fn = resolve_loss(loss)
    y_true, y_pred = _labels(y_true, y_pred)
    if y_true.size == 0:
        raise ValueError("y_true must hold at least one point, got an empty array")
    try:
        raw = fn(y_true, y_pred)
    except TypeError as err:
        if fn in LOSSES.values():
            raise
        raise TypeError(
            f"loss must be a function loss(y_true, y_pred) returning one loss per point; "
            f"calling it failed: {err}"
        ) from None
    losses = check_finite(raw, "loss(y_true, y_pred)")
    if np.any(losses < 0):
        raise ValueError("loss must return losses >= 0, got a negative one")
    if losses.shape != y_true.shape:
        raise ValueError(
            f"loss must return one loss per point: got shape {losses.shape} "
            f"for {y_true.size} points"
        )
    return float(losses.mean())


def count_errors(y_true: Any, y_pred: Any) -> int:
    """Number of misclassified points: the count a Clopper--Pearson bound takes.

    Examples
    --------
    >>> count_errors([1, -1, 1], [1, 1, -1])
    2
    """
    return int(zero_one_losses(y_true, y_pred).sum())


@validate_params(
    {
        "model": "model",
        "distribution": "distribution",
        "n_mc": Interval("int", 1),
        "random_state": "random_state",
    }
)
def model_risk(
    model: Any, distribution: Any, n_mc: int = 100_000, random_state: Any = None
) -> float:
    """The true 0-1 risk ``L(f)`` of a fitted classifier on a known distribution.

    Exact when the model is a linear rule ``sign(w @ x + b)`` with classes
    ``[-1, 1]`` (scikit-learn's ``coef_``/``intercept_``) and the distribution
    has ``linear_rule_risk``; otherwise its error on ``n_mc`` fresh points
    (:func:`cvbook.datasets.monte_carlo_risk`, standard error at most
    ``0.5 / sqrt(n_mc)``).

    Parameters
    ----------
    model : fitted classifier
    distribution : object with ``sample(m, random_state)``
    n_mc : int, default=100_000
        Fresh points when the risk is not exact, >= 1.
    random_state : None, int, Generator, RandomState or SeedSequence
        Seed of the fresh points (unused when the risk is exact).

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> dist = TwoGaussians()
    >>> lda = LinearDiscriminantAnalysis().fit(*dist.sample(500, random_state=0))
    >>> model_risk(lda, dist) == dist.linear_rule_risk(lda.coef_, lda.intercept_[0])
    True
    """
    from .datasets.synthetic import true_risk

    rng = as_random_state(random_state)
    return true_risk(model, distribution, n=n_mc, random_state=rng)


@validate_params(
    {
        "distribution": "distribution",
        "min_per_class": Interval("int", 0),
        "max_draws": Interval("int", 1),
        "random_state": "random_state",
    }
)
def draw_sample(
    distribution: Any,
    m: int,
    random_state: Any = None,
    *,
    min_per_class: int = 2,
    classes: Sequence[Any] = (-1, 1),
    max_draws: int = 1000,
) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``m`` points, redrawn until every class holds ``min_per_class`` points.

    A sample in which a class is missing or nearly so cannot be split into a
    training and a test part that both hold every class, and most learners
    refuse a training part with one class. The book therefore *conditions* on
    each class having at least ``min_per_class`` points: such a sample is
    redrawn. For balanced classes and ``m >= 40`` this happens with probability
    below ``1e-9``, so the condition changes nothing measurable; for tiny ``m``
    it is the definition of the experiment.

    Parameters
    ----------
    distribution : object with ``sample(m, random_state)``
    m : int
        Points, ``>= min_per_class * len(classes)``.
    random_state : None, int, Generator, RandomState or SeedSequence
    min_per_class : int, default=2
    classes : sequence, default=(-1, 1)
        The labels the distribution draws.
    max_draws : int, default=1000
        Give up (``RuntimeError``) after this many draws: the distribution
        then almost never draws some class.

    Returns
    -------
    X, y : numpy.ndarray

    Examples
    --------
    >>> from cvbook.datasets import TwoGaussians
    >>> X, y = draw_sample(TwoGaussians(prior=0.9), 10, random_state=0)
    >>> X.shape, int(min(np.sum(y == -1), np.sum(y == 1))) >= 2
    ((10, 2), True)
    """
    if isinstance(classes, (str, bytes)) or not isinstance(classes, Sequence):
        raise TypeError(f"classes must be a sequence of labels such as (-1, 1), got {classes!r}")
    classes = list(classes)
    if not classes:
        raise ValueError("classes must name at least one label, got none")
    m = check_int(m, "m", minimum=max(1, min_per_class * len(classes)))
    rng = as_random_state(random_state)
    for draw in range(max_draws):
        X, y = distribution.sample(m, random_state=rng)
        foreign = [c for c in classes if min_per_class and not np.any(y == c)]
        if draw == 0 and foreign and len(np.unique(y)) >= len(classes):
            raise ValueError(
                f"classes must be labels the distribution draws: {foreign} never occurs "
                f"among its labels {np.unique(y).tolist()}"
            )
        if all(np.sum(y == c) >= min_per_class for c in classes):
            return X, y
    raise RuntimeError(
        f"no sample of m={m} points held {min_per_class} points of every "
        f"class {classes} in {max_draws} draws"
    )


def fit_predict(estimator: Any, X: np.ndarray, y: np.ndarray, train: Any, test: Any) -> np.ndarray:
    """Fit a clone of ``estimator`` on ``X[train], y[train]``; its predictions on ``X[test]``.

    The one fit-and-predict step of the package: the methods and the studies that score
    a model on held-out points call it (through :func:`score_splits` when they loop
    over splits). It checks nothing: its callers check their arguments at their door.

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> X, y = np.zeros((5, 1)), np.array([0, 0, 0, 1, 1])
    >>> fit_predict(DummyClassifier(), X, y, [0, 1, 2, 3], [4])
    array([0])
    """
    return clone(estimator).fit(X[train], y[train]).predict(X[test])


def score_splits(
    estimator: Any,
    X: np.ndarray,
    y: np.ndarray,
    splits: Iterable[tuple[Any, Any]],
    score: Callable[[np.ndarray, np.ndarray], Any],
) -> list:
    """The fit-and-score loop: ``score(y[test], predictions)`` for each ``(train, test)``.

    Each split gets a fresh clone of ``estimator`` fitted on its training part
    (:func:`fit_predict`); ``score(y_true, y_pred)`` turns its predictions on the test
    part into what the caller needs (a risk, per-point losses, an error rate). A plain
    loop, without ``cross_validate``'s per-split overhead; it checks nothing.

    Returns
    -------
    list
        One score per split, in order.

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> X, y = np.zeros((6, 1)), np.array([0, 0, 0, 0, 1, 1])
    >>> splits = [([0, 1, 2, 3], [4, 5]), ([2, 3, 4, 5], [0, 1])]
    >>> score_splits(DummyClassifier(), X, y, splits, lambda t, p: float(np.mean(p != t)))
    [1.0, 0.0]
    """
    return [score(y[test], fit_predict(estimator, X, y, train, test)) for train, test in splits]
