"""Chapter 1's studies: the test error over many test sets, and how the split of m points
into training and test parts moves the risk and its bound."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..bounds import clopper_pearson_upper
from ..holdout import clone_estimator, stratified_indices
from ..risk import count_errors, draw_sample, model_risk
from ..validation import (
    check_1d_labels,
    check_distribution,
    check_int,
    check_integer_array,
    check_model,
    check_open_unit,
    check_random_state,
)

__all__ = [
    "sample_test_errors",
    "single_split",
    "split_sizes_trial",
]


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
    check_model(model)
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
