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

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .validation import (
    ArgumentTypeError,
    check_1d_labels,
    check_distribution,
    check_finite,
    check_int,
    check_integer_array,
    check_open_unit,
    check_random_state,
    check_same_length,
)

__all__ = [
    "LOSSES",
    "Loss",
    "LossFunction",
    "absolute_losses",
    "count_errors",
    "draw_sample",
    "empirical_risk",
    "mean_se",
    "model_risk",
    "resolve_loss",
    "sample_test_errors",
    "single_split",
    "split_sizes_trial",
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
        Labels of any kind (numbers or strings). A column of shape ``(n, 1)`` is
        flattened with a :class:`~sklearn.exceptions.DataConversionWarning`; any
        other 2-d shape and complex values are refused.

    Returns
    -------
    numpy.ndarray of float, shape (n,)
        One loss per point (their mean is :func:`sklearn.metrics.zero_one_loss`).

    Examples
    --------
    >>> zero_one_losses([1, -1, 1], [1, 1, 1])
    array([0., 1., 0.])
    """
    y_true, y_pred = _labels(y_true, y_pred)
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


def resolve_loss(loss: Loss) -> LossFunction:
    """The per-point loss function named or given by ``loss`` (the one resolver of the package).

    Examples
    --------
    >>> resolve_loss("squared") is squared_losses
    True
    """
    if callable(loss):
        return loss
    if not isinstance(loss, str) or loss not in LOSSES:
        raise ValueError(
            f"loss must be one of {sorted(LOSSES)} or a callable returning "
            f"per-point losses, got {loss!r}"
        )
    return LOSSES[loss]


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
    losses = check_finite(fn(y_true, y_pred), "loss(y_true, y_pred)")
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


def _check_model(model: Any, name: str = "model") -> Any:
    if not callable(getattr(model, "predict", None)):
        raise ArgumentTypeError(
            f"{name} must be a fitted classifier with a predict method, got {type(model).__name__}"
        )
    return model


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

    _check_model(model)
    check_distribution(distribution)
    n_mc = check_int(n_mc, "n_mc", minimum=1)
    rng = check_random_state(random_state)
    return true_risk(model, distribution, n=n_mc, random_state=rng)


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
    check_distribution(distribution)
    min_per_class = check_int(min_per_class, "min_per_class", minimum=0)
    classes = list(classes)
    if not classes:
        raise ValueError("classes must name at least one label, got none")
    m = check_int(m, "m", minimum=max(1, min_per_class * len(classes)))
    max_draws = check_int(max_draws, "max_draws", minimum=1)
    rng = check_random_state(random_state)
    for _ in range(max_draws):
        X, y = distribution.sample(m, random_state=rng)
        if all(np.sum(y == c) >= min_per_class for c in classes):
            return X, y
    raise RuntimeError(
        f"no sample of m={m} points held {min_per_class} points of every "
        f"class {classes} in {max_draws} draws"
    )


def sample_test_errors(
    model: Any, distribution: Any, test_size: int, n_test_sets: int, random_state: Any = None
) -> np.ndarray:
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
    random_state : None, int, Generator, RandomState or SeedSequence

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
    _check_model(model)
    check_distribution(distribution)
    test_size = check_int(test_size, "test_size", minimum=1)
    n_test_sets = check_int(n_test_sets, "n_test_sets", minimum=1)
    rng = check_random_state(random_state)
    X, y = distribution.sample(test_size * n_test_sets, random_state=rng)
    predicted = check_1d_labels(model.predict(X), "model.predict(X)")
    if predicted.shape != np.shape(y):
        raise ValueError(
            f"model.predict(X) must return one label per point: got shape "
            f"{predicted.shape} for {len(y)} points"
        )
    wrong = (predicted != y).reshape(n_test_sets, test_size)
    return wrong.sum(axis=1).astype(np.int64)


def split_sizes_trial(
    rng: Any,
    distribution: Any,
    estimator: Any,
    m: int,
    train_sizes: Sequence[int],
    delta: float = 0.05,
    n_mc: int = 100_000,
) -> dict[str, np.ndarray]:
    """One data set of ``m`` points, split once for each training size: the trade-off.

    Draws ``m`` points (:func:`draw_sample`: every class holds 2 points or more),
    then, for each ``n_train`` in ``train_sizes``, splits them at random into
    ``n_train`` training and ``m - n_train`` test points, keeping every class in
    both parts (:func:`cvbook.holdout.stratified_indices`); trains
    ``clone(estimator)`` on the first part and records the true risk
    :func:`model_risk` of the model (the target is ``L(f)`` of *this* fitted
    model), its number of test errors, and the one-sided Clopper--Pearson bound
    at ``1 - delta`` those errors give. The splits share one data set, so that
    the training sizes can be compared paired.

    Parameters
    ----------
    rng : None, int, Generator, RandomState or SeedSequence
        All the randomness of the trial.
    distribution : object with ``sample(m, random_state)``, labels in {-1, +1}
    estimator : scikit-learn classifier
        Cloned before each fit.
    m : int
        Points in the data set, >= 4.
    train_sizes : sequence of int
        Training sizes, each in ``[2, m - 2]``.
    delta : float, default=0.05
        The bound fails with probability at most ``delta``, in (0, 1).
    n_mc : int, default=100_000
        Fresh points for a risk that is not exact.

    Returns
    -------
    dict of numpy.ndarray, one entry per training size
        ``n_train``, ``n_test``, ``n_errors``, ``test_error``, ``true_risk``,
        ``upper_bound``.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> out = split_sizes_trial(0, TwoGaussians(), LinearDiscriminantAnalysis(), 40, [10, 30])
    >>> out["n_test"].tolist(), bool(np.all(out["true_risk"] >= TwoGaussians().bayes_risk))
    ([30, 10], True)
    """
    from .bounds import clopper_pearson_upper
    from .holdout import clone_estimator, stratified_indices

    rng = check_random_state(rng, "rng")
    check_distribution(distribution)
    clone_estimator(estimator)
    m = check_int(m, "m", minimum=4)
    if isinstance(train_sizes, (str, bytes)) or np.ndim(train_sizes) != 1 or len(train_sizes) == 0:
        raise ValueError(f"train_sizes must be a non-empty list of integers, got {train_sizes!r}")
    sizes = check_integer_array(train_sizes, "train_sizes", ndim=1)
    if sizes.min() < 2 or sizes.max() > m - 2:
        raise ValueError(
            f"train_sizes must lie in [2, m - 2] = [2, {m - 2}] so that both "
            f"parts hold both classes, got {sizes.tolist()}"
        )
    delta = check_open_unit(delta, "delta", scalar=True)
    n_mc = check_int(n_mc, "n_mc", minimum=1)
    X, y = draw_sample(distribution, m, rng)
    out: dict[str, list] = {k: [] for k in ("n_errors", "true_risk")}
    for n_train in sizes:
        train, test = stratified_indices(y, test_size=int(m - n_train), random_state=rng)
        model = clone_estimator(estimator).fit(X[train], y[train])
        out["n_errors"].append(count_errors(y[test], model.predict(X[test])))
        out["true_risk"].append(model_risk(model, distribution, n_mc=n_mc, random_state=rng))
    n_test = m - sizes
    n_errors = np.asarray(out["n_errors"], dtype=np.int64)
    return {
        "n_train": sizes,
        "n_test": n_test,
        "n_errors": n_errors,
        "test_error": n_errors / n_test,
        "true_risk": np.asarray(out["true_risk"]),
        "upper_bound": np.asarray(clopper_pearson_upper(n_errors, n_test, delta), dtype=float),
    }


def single_split(
    rng: Any, distribution: Any, estimator: Any, m: int, train_fraction: float, delta: float = 0.05
) -> dict[str, float]:
    """Split ``m`` points once into training and test parts; report what each gives.

    :func:`split_sizes_trial` for one training size, ``round(train_fraction * m)``
    (clipped to ``[2, m - 2]``): the model's true risk, its test error and the
    one-sided Clopper--Pearson bound at ``1 - delta``. Both parts always hold
    both classes (stratified split of a sample with 2 points of each class at
    least), so no draw leaves a learner with one class.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> out = single_split(np.random.default_rng(0), TwoGaussians(),
    ...                    LinearDiscriminantAnalysis(), m=40, train_fraction=0.5)
    >>> sorted(out)
    ['n_test', 'n_train', 'test_error', 'true_risk', 'upper_bound']
    """
    m = check_int(m, "m", minimum=4)
    train_fraction = check_open_unit(train_fraction, "train_fraction", scalar=True)
    n_train = min(max(round(train_fraction * m), 2), m - 2)
    out = split_sizes_trial(rng, distribution, estimator, m, [n_train], delta=delta)
    return {
        "n_train": n_train,
        "n_test": m - n_train,
        "true_risk": float(out["true_risk"][0]),
        "test_error": float(out["test_error"][0]),
        "upper_bound": float(out["upper_bound"][0]),
    }


def mean_se(values: Any, name: str = "values") -> tuple[float, float, float]:
    """Mean of independent repetitions, its standard error and ``z = mean / se``.

    The summary behind every comparing sentence of the book: pass the paired
    differences ``a - b`` over repetitions and read how many standard errors
    their mean lies from zero (``z`` is ``inf`` or ``nan`` when the SE is 0).

    Parameters
    ----------
    values : array_like of shape (n,)
        At least 2 finite numbers.
    name : str
        Named in the error message.

    Returns
    -------
    mean, se, z : float

    Examples
    --------
    >>> [round(v, 4) for v in mean_se([0.1, 0.3, 0.2, 0.4])]
    [0.25, 0.0645, 3.873]
    """
    arr = check_finite(values, name)
    if arr.ndim != 1 or arr.size < 2:
        raise ValueError(f"{name} must be a 1-d array of at least 2 numbers, got shape {arr.shape}")
    mean, se = float(arr.mean()), float(arr.std(ddof=1) / np.sqrt(arr.size))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = float(np.divide(mean, se))
    return mean, se, z
