"""Dependent points: splitters and sample-size arithmetic for grouped and ordered data (chapter 8).

Cross-validation assumes that the test fold is new to the model. When several rows
come from one patient, site or day, or when rows follow each other in time, a shuffled
split puts near-copies of each test point into the training folds, and the estimate
becomes optimistic. scikit-learn already splits by groups (``GroupKFold``,
``StratifiedGroupKFold``, ``GroupShuffleSplit``) and forward in time
(``TimeSeriesSplit(gap=...)``); use those. This module adds what it lacks:

* :class:`BlockedKFold`: contiguous folds in time order, each test block with ``gap``
  points removed from the training set on *both* sides (``TimeSeriesSplit`` trains
  only on the past; ``KFold(shuffle=False)`` has contiguous blocks but no gap);
* :func:`design_effect`, :func:`ar1_design_effect` and :func:`effective_sample_size`:
  how many independent points a grouped or autocorrelated sample is worth, for the
  variance of a mean;
* :func:`intraclass_correlation` and :func:`lag1_autocorrelation`: the two
  correlations that decide whether any of this matters, estimated from data.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from .stats import power_of_two_scale
from .validation import ArgumentTypeError, Interval, check_finite_values, validate_params

__all__ = [
    "BlockedKFold",
    "ar1_design_effect",
    "design_effect",
    "effective_sample_size",
    "intraclass_correlation",
    "lag1_autocorrelation",
]


def _n_samples(X: Any) -> int:
    """The number of samples: ``X.shape[0]`` when ``X`` has a shape (an array, a DataFrame,
    a ``scipy.sparse`` matrix, whose ``len`` is refused), else ``len(X)``."""
    if X is None or isinstance(X, (str, bytes)):
        raise ArgumentTypeError(f"X must be an array-like of samples, got {X!r}")
    shape = getattr(X, "shape", None)
    if isinstance(shape, tuple) and shape:
        return int(shape[0])
    try:
        n = len(X)
    except TypeError:
        raise ArgumentTypeError(
            f"X must be an array-like of samples, got {type(X).__name__}"
        ) from None
    return int(n)


class BlockedKFold:
    """K contiguous folds in time order, with ``gap`` points left out around each test block.

    Fold ``k`` tests on the ``k``-th block of consecutive indices (the blocks of
    ``KFold(n_splits, shuffle=False)``) and trains on every other index except the
    ``gap`` indices just before and just after the block. With ``gap = 0`` it is
    ``KFold(n_splits, shuffle=False)``. Unlike ``TimeSeriesSplit``, it also trains on
    the future of each test block, so every fold trains on about ``(K-1)/K`` of the
    series; the gap keeps the points that are correlated with the test block's edges
    out of the training set. It estimates the risk of a model trained on a stationary
    series and applied to a stretch of it that it has not seen.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, ``>= 2``.
    gap : int, default=0
        Points dropped from the training set on each side of the test block, ``>= 0``.

    Examples
    --------
    >>> cv = BlockedKFold(n_splits=3, gap=1)
    >>> [(tr.tolist(), te.tolist()) for tr, te in cv.split(range(9))]
    [([4, 5, 6, 7, 8], [0, 1, 2]), ([0, 1, 7, 8], [3, 4, 5]), ([0, 1, 2, 3, 4], [6, 7, 8])]
    """

    @validate_params({"n_splits": Interval("int", 2), "gap": Interval("int", 0)})
    def __init__(self, n_splits: int = 5, gap: int = 0) -> None:
        self.n_splits, self.gap = int(n_splits), int(gap)

    def __repr__(self) -> str:
        return f"BlockedKFold(n_splits={self.n_splits}, gap={self.gap})"

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        """The number of folds."""
        return self.n_splits

    def split(
        self, X: Any, y: Any = None, groups: Any = None
    ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield ``(train, test)`` index arrays, one pair per fold, in time order.

        Raises a ``ValueError`` when a fold would leave no training point (too few
        samples for ``n_splits`` and ``gap``). ``X`` may be an array, a list, a DataFrame
        or a ``scipy.sparse`` matrix (only its number of rows is read). ``groups`` is
        ignored, with a ``UserWarning`` as scikit-learn's splitters that do not split by
        group give: use ``GroupKFold`` to keep groups together.
        """
        if groups is not None:
            warnings.warn(
                f"The groups parameter is ignored by {self!r}: it splits by position in "
                "time; use GroupKFold or StratifiedGroupKFold to split by group",
                UserWarning,
                stacklevel=2,
            )
        n = _n_samples(X)
        if n < self.n_splits:
            raise ValueError(f"X must hold at least n_splits={self.n_splits} samples, got {n}")
        sizes = np.full(self.n_splits, n // self.n_splits, dtype=int)
        sizes[: n % self.n_splits] += 1
        stops = np.cumsum(sizes)
        index = np.arange(n)
        for start, stop in zip(stops - sizes, stops, strict=True):
            keep = (index < start - self.gap) | (index >= stop + self.gap)
            train = index[keep]
            if train.size == 0:
                raise ValueError(
                    f"gap={self.gap} leaves no training point around the test block "
                    f"[{start}, {stop}) of {n} samples; use a smaller gap or more samples"
                )
            yield train, index[start:stop]


@validate_params({"cluster_size": Interval("real", 1), "icc": Interval("real", 0, 1)})
def design_effect(cluster_size: Any, icc: Any) -> float:
    """Kish's design effect ``1 + (n_g - 1) rho`` of clusters of ``n_g`` points.

    The variance of the mean of ``n_g`` points of one group whose pairwise correlation
    is ``rho`` is ``(1 + (n_g - 1) rho)`` times that of ``n_g`` independent points: a
    grouped sample of ``n`` points is worth ``n / deff`` independent ones.

    Parameters
    ----------
    cluster_size : float
        Points per group (an average for unequal groups), ``>= 1``.
    icc : float
        Intra-group correlation, in ``[0, 1]``.

    Examples
    --------
    >>> design_effect(10, 0.5)
    5.5
    """
    n_g, rho = float(cluster_size), float(icc)
    return 1.0 + (n_g - 1.0) * rho


@validate_params({"phi": Interval("real", -1, 1, closed="neither")})
def ar1_design_effect(phi: Any) -> float:
    """The large-sample design effect ``(1 + phi) / (1 - phi)`` of an AR(1) series.

    The variance of the mean of ``n`` consecutive values of a stationary AR(1) series
    with lag-one autocorrelation ``phi`` is, for large ``n``, ``(1 + phi)/(1 - phi)``
    times that of ``n`` independent values.

    Parameters
    ----------
    phi : float
        Lag-one autocorrelation, in ``(-1, 1)``.

    Examples
    --------
    >>> round(ar1_design_effect(0.9), 6)
    19.0
    """
    phi = float(phi)
    return (1.0 + phi) / (1.0 - phi)


@validate_params({"n": Interval("int", 1), "deff": Interval("real", 0, None, closed="right")})
def effective_sample_size(n: Any, deff: Any) -> float:
    """The number of independent points a sample of ``n`` dependent points is worth: ``n / deff``.

    Parameters
    ----------
    n : int
        Number of points, ``>= 1``.
    deff : float
        Design effect, ``> 0`` (from :func:`design_effect` or :func:`ar1_design_effect`).

    Examples
    --------
    >>> effective_sample_size(200, design_effect(10, 0.5))
    36.36363636363637
    """
    return int(n) / float(deff)


def intraclass_correlation(values: Any, groups: Any) -> float:
    """The one-way ANOVA estimate of the intra-group correlation of ``values``.

    ``(MSB - MSW) / (MSB + (n0 - 1) MSW)``, with ``MSB`` and ``MSW`` the mean squares
    between and within groups and ``n0`` the usual average group size for unequal
    groups; it can be slightly negative when the true correlation is zero.

    Parameters
    ----------
    values : array_like of float, shape (n,)
        One measurement per point (a feature, a label, a residual).
    groups : array_like, shape (n,)
        The group of each point; at least two groups, and at least one group with
        two points.

    Examples
    --------
    >>> round(intraclass_correlation([1.0, 1.2, 3.0, 3.1, 5.0, 5.3], [0, 0, 1, 1, 2, 2]), 3)
    0.994
    """
    x = check_finite_values(values, "values", ndim=1)
    if isinstance(groups, (list, tuple)):  # numpy would make [1, "1"] two equal strings
        _check_one_kind(groups)
    g = np.asarray(groups)
    if g.dtype.kind == "f" and not np.all(np.isfinite(g)):
        raise ValueError("groups must not hold NaN or infinite values")
    if g.dtype == object and any(v is None for v in g.ravel().tolist()):
        raise ValueError("groups must not hold None")
    if g.ndim != 1 or g.shape != x.shape:
        raise ValueError(
            f"groups must be one-dimensional with one entry per value ({x.size}), "
            f"got shape {g.shape}"
        )
    if g.dtype == object:
        _check_one_kind(g.tolist())
        try:
            labels, codes, sizes = np.unique(g, return_inverse=True, return_counts=True)
        except TypeError:
            raise ArgumentTypeError(
                "groups must hold labels that sort (numbers or strings)"
            ) from None
    else:
        labels, codes, sizes = np.unique(g, return_inverse=True, return_counts=True)
    k, n = labels.size, x.size
    if k < 2 or n - k < 1:
        raise ValueError(
            f"groups must hold at least two groups and one group with two points, "
            f"got {k} groups for {n} values"
        )
    if not np.max(x) > np.min(x):
        raise ValueError("values must not be constant: the correlation is undefined (0 / 0)")
    # exact scaling by a power of two: the squares neither overflow nor underflow
    x = x / power_of_two_scale(x)
    codes = codes.ravel()
    means = np.bincount(codes, weights=x) / sizes
    msb = np.sum(sizes * (means - x.mean()) ** 2) / (k - 1)
    msw = np.sum((x - means[codes]) ** 2) / (n - k)
    n0 = (n - np.sum(sizes.astype(float) ** 2) / n) / (k - 1)
    denom = msb + (n0 - 1.0) * msw
    if not denom > 0:
        raise ValueError("values must not be constant: the correlation is undefined (0 / 0)")
    return float((msb - msw) / denom)


def _check_one_kind(groups: Any) -> None:
    """Refuse group labels that mix strings and numbers: 1 and "1" are two groups."""
    strings = [isinstance(v, (str, bytes)) for v in groups]
    if any(strings) and not all(strings):
        raise ArgumentTypeError(
            "groups must hold labels of one kind, got both numbers and strings: the group 1 "
            "and the group '1' would be merged"
        )


def lag1_autocorrelation(series: Any) -> float:
    """The lag-one sample autocorrelation of a series (as ``statsmodels``' ``acf`` at lag 1).

    Parameters
    ----------
    series : array_like of float, shape (n,)
        At least three finite values, not all equal.

    Examples
    --------
    >>> round(lag1_autocorrelation([1.0, 2.0, 3.0, 4.0, 5.0]), 3)
    0.4
    """
    x = check_finite_values(series, "series", ndim=1, min_size=3)
    if not np.max(x) > np.min(x):
        raise ValueError("series must not be constant")
    x = x / power_of_two_scale(x)  # exact: the squares neither overflow nor underflow
    d = x - x.mean()
    denom = float(d @ d)
    if denom == 0:
        raise ValueError("series must not be constant")
    return float(d[1:] @ d[:-1]) / denom
