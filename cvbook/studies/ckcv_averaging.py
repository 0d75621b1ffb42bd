"""Chapter 5's study: how fast the Monte Carlo average over three-way splits settles.

C-KCV averages the bounds of ``l_MC`` random three-way splits. For a triple fixed in
advance the splits are independent draws, so the standard error of the average should fall
as ``1/sqrt(l_MC)``; :func:`averaging_rate` measures the exponent from many splits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..validation import check_finite, check_int, check_random_state

__all__ = ["Rate", "averaging_rate"]


@dataclass(frozen=True)
class Rate:
    """How the spread of an average of ``l`` draws falls with ``l``: ``sd ∝ l ** slope``.

    Attributes
    ----------
    slope : float
        Least-squares slope of ``log sd`` on ``log l`` (``-1/2`` for independent draws).
    se : float
        Bootstrap standard error of the slope (the draws resampled with replacement).
    sizes : numpy.ndarray
        The block sizes ``l``.
    sds : numpy.ndarray
        Standard deviation of the means of disjoint blocks of ``l`` draws, for each ``l``.
    """

    slope: float
    se: float
    sizes: np.ndarray
    sds: np.ndarray


def averaging_rate(
    values: Any,
    sizes: Sequence[int] = (1, 2, 4, 8, 16, 32),
    n_boot: int = 1000,
    random_state: Any = 0,
) -> Rate:
    """Measure how the standard deviation of a mean of ``l`` draws falls with ``l``.

    The draws are cut into disjoint blocks of ``l``; the standard deviation of the block
    means is computed for each ``l`` in ``sizes``, and ``log sd`` is regressed on
    ``log l``. For independent draws of finite variance the slope is ``-1/2`` (the
    ``1/sqrt(l)`` rate of a Monte Carlo average). The standard error of the slope comes
    from a bootstrap over the draws.

    Parameters
    ----------
    values : array_like of float, shape (n,)
        The draws, in the order they were made; ``n >= 2 * max(sizes)``. They must vary:
        constant draws have no spread to measure (a ``ValueError``).
    sizes : sequence of int, default=(1, 2, 4, 8, 16, 32)
        Block sizes, at least two distinct, each ``>= 1``.
    n_boot : int, default=1000
        Bootstrap resamples.
    random_state : seed, default=0
        Seeds the bootstrap.

    Returns
    -------
    Rate

    Examples
    --------
    >>> draws = np.random.default_rng(0).normal(size=640)
    >>> rate = averaging_rate(draws, n_boot=200)
    >>> abs(rate.slope + 0.5) < 4 * rate.se, rate.se < 0.15
    (True, True)
    """
    values = check_finite(values, "values")
    if values.ndim != 1:
        raise ValueError(f"values must be one-dimensional, got shape {values.shape}")
    if isinstance(sizes, (str, bytes)) or not isinstance(sizes, Sequence):
        raise ValueError(f"sizes must be a list of block sizes >= 1, got {sizes!r}")
    sizes = np.array([check_int(s, "sizes", minimum=1) for s in sizes])
    if np.unique(sizes).size < 2:
        raise ValueError(f"sizes must hold at least two distinct block sizes, got {sizes.tolist()}")
    if values.size < 2 * sizes.max():
        raise ValueError(
            f"values must hold at least 2 * max(sizes) = {2 * sizes.max()} draws, got {values.size}"
        )
    if np.ptp(values) == 0:
        raise ValueError(
            f"values must vary: all {values.size} draws equal {values[0]!r} (zero variance), so "
            "the spread of their block means is 0 at every size and has no rate"
        )
    n_boot = check_int(n_boot, "n_boot", minimum=2)
    rng = check_random_state(random_state, "random_state")
    x = np.log(sizes)

    def fit(v: np.ndarray) -> tuple[float, np.ndarray]:
        sds = np.array(
            [v[: v.size // s * s].reshape(-1, s).mean(axis=1).std(ddof=1) for s in sizes]
        )
        if np.any(sds <= 0):
            return float("nan"), sds
        return float(np.polyfit(x, np.log(sds), 1)[0]), sds

    slope, sds = fit(values)
    if not np.isfinite(slope):
        flat = sizes[sds <= 0].tolist()
        raise ValueError(
            f"values give block means of zero spread at the block sizes {flat} (sizes), so "
            "no rate can be fitted; the draws must vary from block to block"
        )
    boot = np.array([fit(rng.choice(values, values.size))[0] for _ in range(n_boot)])
    boot = boot[np.isfinite(boot)]
    se = float(boot.std(ddof=1)) if boot.size > 1 else float("nan")
    return Rate(slope=slope, se=se, sizes=sizes, sds=sds)
