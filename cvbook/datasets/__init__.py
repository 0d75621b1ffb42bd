"""Data for the book.

* :mod:`cvbook.datasets.synthetic` -- seeded distributions whose true risk is
  known, so that every estimate can be shown next to the truth.
* :mod:`cvbook.datasets.raetsch` -- G. Rätsch's 13 binary benchmarks, as used
  by Anguita et al. (2012), fetched and checksummed with pooch.
"""

from .raetsch import RAETSCH_NAMES, fetch_benchmarks, load_raetsch, raetsch_info
from .synthetic import (
    DISTRIBUTIONS,
    LinearGaussianRegression,
    Ringnorm,
    TwoGaussians,
    Twonorm,
    linear_rule,
    make_distribution,
    monte_carlo_risk,
    true_risk,
)

__all__ = [
    "DISTRIBUTIONS",
    "RAETSCH_NAMES",
    "LinearGaussianRegression",
    "Ringnorm",
    "TwoGaussians",
    "Twonorm",
    "fetch_benchmarks",
    "linear_rule",
    "load_raetsch",
    "make_distribution",
    "monte_carlo_risk",
    "raetsch_info",
    "true_risk",
]
