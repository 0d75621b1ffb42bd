"""cvbook.studies.learning_curve: the chapter's experiments."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from cvbook.datasets import TwoGaussians
from cvbook.studies.learning_curve import learning_curve_trial


def test_learning_curve_trial():
    dist = TwoGaussians()
    r = learning_curve_trial(0, dist, LinearDiscriminantAnalysis(), 40, [6, 20, 39, 40], n_mc=2000)
    assert r.shape == (4,) and np.all(r >= 0) and np.all(r <= 1)
    np.testing.assert_array_equal(
        r,
        learning_curve_trial(0, dist, LinearDiscriminantAnalysis(), 40, [6, 20, 39, 40], n_mc=2000),
    )
    with pytest.raises(ValueError, match=r"train_sizes must lie in \[4, m\]"):
        learning_curve_trial(0, dist, LinearDiscriminantAnalysis(), 40, [41])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        learning_curve_trial(1, TwoGaussians(prior=0.8), LinearDiscriminantAnalysis(), 12, [4])
