"""Chapter 5's study: the rate of the Monte Carlo average over splits."""

from __future__ import annotations

import numpy as np
import pytest


def test_averaging_rate_is_minus_one_half_for_independent_draws():
    from cvbook.studies.ckcv_averaging import averaging_rate

    rate = averaging_rate(np.random.default_rng(5).exponential(size=640), n_boot=300)
    assert abs(rate.slope + 0.5) < 4 * rate.se and rate.slope / rate.se < -4
    assert rate.sds.shape == (6,) and np.all(np.diff(rate.sds) < 0)


def test_averaging_rate_sees_dependent_draws():
    from cvbook.studies.ckcv_averaging import averaging_rate

    # a random walk's increments summed in blocks: strongly dependent draws, no 1/sqrt(l) rate
    walk = np.cumsum(np.random.default_rng(6).normal(size=640))
    rate = averaging_rate(walk, n_boot=50)
    assert rate.slope > -0.2


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"sizes": [4]}, "two distinct"),
        ({"sizes": [1, 400]}, "at least 2"),
        ({"sizes": "12"}, "sizes"),
        ({"n_boot": 1}, "n_boot"),
    ],
)
def test_averaging_rate_refuses_by_name(kwargs, match):
    from cvbook.studies.ckcv_averaging import averaging_rate

    with pytest.raises(ValueError, match=match):
        averaging_rate(np.arange(100.0), **kwargs)
