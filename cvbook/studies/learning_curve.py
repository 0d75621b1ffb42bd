"""Chapter 2's learning curve: what the points held out for testing cost the model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.base import clone

from ..holdout import clone_estimator, stratified_indices
from ..risk import draw_sample, model_risk
from ..validation import (
    check_distribution,
    check_int,
    check_random_state,
)
from .split_sizes import check_train_sizes

__all__ = [
    "learning_curve_trial",
]


def learning_curve_trial(
    rng: Any,
    distribution: Any,
    estimator: Any,
    m: int,
    train_sizes: Sequence[int],
    n_mc: int = 10_000,
) -> np.ndarray:
    """True risk of ``estimator`` trained on ``n`` points of one sample, for each ``n``.

    Draws ``m`` points (:func:`cvbook.risk.draw_sample`), and for each ``n`` in
    ``train_sizes`` trains on ``n`` of them drawn at random with both classes
    kept (:func:`stratified_indices`; ``n = m`` uses them all). The true risks
    are measured on one common fresh sample of ``n_mc`` points, so that two
    sizes compare paired.

    Parameters
    ----------
    rng : None, int, Generator, RandomState or SeedSequence
    distribution : object with ``sample(m, random_state)``, labels in {-1, +1}
    estimator : scikit-learn classifier
    m : int
        Points in the sample, >= 8.
    train_sizes : sequence of int
        Each in ``[4, m]``.
    n_mc : int, default=10_000

    Returns
    -------
    numpy.ndarray of float, shape (len(train_sizes),)

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> learning_curve_trial(0, TwoGaussians(), LinearDiscriminantAnalysis(), 40, [10, 40]).shape
    (2,)
    """

    rng = check_random_state(rng, "rng")
    check_distribution(distribution)
    clone_estimator(estimator)
    m = check_int(m, "m", minimum=8)
    sizes = check_train_sizes(train_sizes, 4, m, "m")
    n_mc = check_int(n_mc, "n_mc", minimum=1)
    X, y = draw_sample(distribution, m, rng)
    mc_seed = int(rng.integers(2**32))
    risks = []
    for n in sizes:
        if n >= m - 1:  # all the points, or all but one at random
            train = rng.permutation(m)[:n]
        else:
            train = stratified_indices(y, test_size=int(m - n), random_state=rng)[0]
        model = clone(estimator).fit(X[train], y[train])
        risks.append(model_risk(model, distribution, n_mc, mc_seed))
    return np.asarray(risks)
