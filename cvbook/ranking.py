"""Which learner is better across data sets? Rank tests and a Bayesian signed-rank test (ch. 10).

``scores`` is an ``(N, k)`` array: the error (lower is better) of each of ``k`` learners
on each of ``N`` data sets.

* :func:`average_ranks` -- ranks within each data set (1 = lowest error, ties averaged).
* :func:`friedman_test` -- Friedman's chi-square on the ranks, with scipy's tie
  correction, and Iman and Davenport's F (Demšar 2006).
* :func:`nemenyi_test`, :func:`nemenyi_cd` -- Nemenyi's critical difference and
  pairwise p-values.
* :func:`wilcoxon_test` -- the Wilcoxon signed-rank test of two learners, exact over
  the ``2**m`` sign flips of the ranks (ties and zeros handled as scipy does).
* :func:`bayesian_signed_rank` -- Benavoli et al.'s (2017) Bayesian signed-rank test
  with a region of practical equivalence (ROPE).
* :func:`critical_difference_diagram` -- Demšar's diagram on a matplotlib axis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np
from scipy import stats

from .validation import (
    Interval,
    as_random_state,
    check_finite_values,
    check_same_length,
    validate_params,
)

__all__ = [
    "FriedmanResult",
    "average_ranks",
    "bayesian_signed_rank",
    "critical_difference_diagram",
    "friedman_test",
    "nemenyi_cd",
    "nemenyi_test",
    "wilcoxon_test",
]


def _check_scores(scores: Any, min_learners: int = 2) -> np.ndarray:
    s = check_finite_values(scores, "scores")
    if s.ndim != 2 or s.shape[0] < 2 or s.shape[1] < min_learners:
        raise ValueError(
            f"scores must be an (N data sets, k learners) array with N >= 2 and "
            f"k >= {min_learners}, got shape {s.shape}"
        )
    return s


def average_ranks(scores: Any) -> np.ndarray:
    """Rank of each learner on each data set: 1 for the lowest error, ties averaged.

    Examples
    --------
    >>> average_ranks([[0.1, 0.2, 0.2], [0.3, 0.1, 0.2]]).tolist()
    [[1.0, 2.5, 2.5], [3.0, 1.0, 2.0]]
    """
    return stats.rankdata(_check_scores(scores), axis=1, method="average")


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman's test of ``k`` learners on ``N`` data sets.

    Attributes
    ----------
    mean_ranks : numpy.ndarray of shape (k,)
    statistic : float
        Friedman's chi-square (with the tie correction), ``k - 1`` degrees of freedom.
    p_value : float
    iman_davenport : float
        ``(N - 1) chi2 / (N (k - 1) - chi2)``, F with ``(k - 1, (k - 1)(N - 1))`` degrees.
    p_iman_davenport : float
    n_datasets, n_learners : int
    """

    mean_ranks: np.ndarray
    statistic: float
    p_value: float
    iman_davenport: float
    p_iman_davenport: float
    n_datasets: int
    n_learners: int


def friedman_test(scores: Any) -> FriedmanResult:
    """Friedman's test that the ``k`` learners' ranks are exchangeable on every data set.

    ``chi2 = 12 N / (k (k + 1)) * (sum_j R_j**2 - k (k + 1)**2 / 4) / c``, with ``R_j``
    the mean ranks and ``c = 1 - sum(t**3 - t) / (N k (k**2 - 1))`` the correction for
    ties (``t`` the sizes of the groups of tied scores), as scipy's
    ``friedmanchisquare``; Iman and Davenport's F as in Demšar (2006).

    Parameters
    ----------
    scores : array_like of shape (N, k)
        Errors, ``N >= 2`` data sets, ``k >= 3`` learners (for two, use
        :func:`wilcoxon_test`).

    Examples
    --------
    >>> r = friedman_test([[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3]])
    >>> r.mean_ranks.tolist(), round(r.statistic, 3)
    ([1.25, 2.0, 2.75], 4.5)
    """
    s = _check_scores(scores, min_learners=3)
    N, k = s.shape
    ranks = stats.rankdata(s, axis=1, method="average")
    R = ranks.mean(axis=0)
    ties = 0.0
    for row in s:
        _, counts = np.unique(row, return_counts=True)
        ties += float(np.sum(counts**3 - counts))
    c = 1 - ties / (N * k * (k * k - 1))
    if c == 0:  # every data set ties every learner: no evidence
        chi2 = 0.0
    else:
        chi2 = 12 * N / (k * (k + 1)) * (float(np.sum(R**2)) - k * (k + 1) ** 2 / 4) / c
    chi2 = max(chi2, 0.0)
    p = float(stats.chi2.sf(chi2, k - 1))
    denom = N * (k - 1) - chi2
    ff = math.inf if denom <= 0 else (N - 1) * chi2 / denom
    pf = 0.0 if math.isinf(ff) else float(stats.f.sf(ff, k - 1, (k - 1) * (N - 1)))
    return FriedmanResult(R, chi2, p, ff, pf, N, k)


@validate_params({"alpha": "alpha"})
def nemenyi_test(scores: Any, alpha: float = 0.05) -> tuple[float, np.ndarray]:
    """Nemenyi's critical difference and pairwise p-values on the mean ranks.

    Two learners differ at level ``alpha`` when their mean ranks differ by more than
    ``CD = q_alpha sqrt(k (k + 1) / (6 N))``, with ``q_alpha`` the upper ``alpha``
    quantile of the studentized range of ``k`` means (infinite degrees of freedom)
    divided by ``sqrt(2)`` (Demšar 2006). The p-value of a pair is the studentized
    range's tail at ``sqrt(2) |R_i - R_j| / sqrt(k (k + 1) / (6 N))``.

    Returns
    -------
    (cd, p_values)
        ``p_values`` a symmetric ``(k, k)`` array with ones on the diagonal.

    Examples
    --------
    >>> cd, p = nemenyi_test(np.tile([[0.1, 0.2, 0.3]], (13, 1)))
    >>> round(cd, 3), bool(p[0, 2] < 0.05)              # Demsar's q_0.05 = 2.343 for k = 3
    (0.919, True)
    """
    s = _check_scores(scores, min_learners=2)
    alpha = float(alpha)
    N, k = s.shape
    scale = math.sqrt(k * (k + 1) / (6 * N))
    R = stats.rankdata(s, axis=1, method="average").mean(axis=0)
    p = np.ones((k, k))
    for i, j in combinations(range(k), 2):
        q_ij = abs(R[i] - R[j]) / scale * math.sqrt(2)
        p[i, j] = p[j, i] = float(stats.studentized_range.sf(q_ij, k, np.inf))
    return nemenyi_cd(N, k, alpha), p


@lru_cache(maxsize=64)
def _q_alpha(k: int, alpha: float) -> float:
    return float(stats.studentized_range.isf(alpha, k, np.inf)) / math.sqrt(2)


@validate_params(
    {"n_datasets": Interval("int", 2), "n_learners": Interval("int", 2), "alpha": "alpha"}
)
def nemenyi_cd(n_datasets: int, n_learners: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical difference ``q_alpha sqrt(k (k + 1) / (6 N))`` (Demšar 2006).

    Examples
    --------
    >>> round(nemenyi_cd(13, 3), 3)                      # q_0.05 = 2.343
    0.919
    """
    N, k, alpha = int(n_datasets), int(n_learners), float(alpha)
    return _q_alpha(k, alpha) * math.sqrt(k * (k + 1) / (6 * N))


@lru_cache(maxsize=24)
def _sign_flips(m: int) -> np.ndarray:
    """The ``2**m`` sign assignments of ``m`` ranks, as 0/1 rows."""
    return ((np.arange(2**m)[:, None] >> np.arange(m)) & 1).astype(float)


def wilcoxon_test(a: Any, b: Any) -> tuple[float, float]:
    """Wilcoxon's signed-rank test of ``a - b`` (two-sided), exact over the sign flips.

    Zero differences are dropped (scipy's ``zero_method="wilcox"``); the absolute
    differences are ranked with ties averaged; the statistic is the smaller of the sums
    of the positive and of the negative ranks; the p-value is the share of the ``2**m``
    equally likely sign assignments whose statistic is as small or smaller (at most
    ``m = 20`` non-zero differences; beyond, the normal approximation with scipy's tie
    correction, without continuity correction).

    Returns
    -------
    (statistic, p_value)

    Examples
    --------
    >>> stat, p = wilcoxon_test([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [0.0] * 6)
    >>> stat, round(p, 4)                                # 2 / 2**6
    (0.0, 0.0312)
    """
    a = check_finite_values(a, "a", ndim=1, min_size=2)
    b = check_finite_values(b, "b", ndim=1, min_size=2)
    check_same_length(("a", a), ("b", b))
    d = a - b
    d = d[d != 0]
    m = d.size
    if m == 0:
        return 0.0, 1.0
    r = stats.rankdata(np.abs(d))
    r_plus = float(r[d > 0].sum())
    total = float(r.sum())
    stat = min(r_plus, total - r_plus)
    if m <= 20:
        plus = _sign_flips(m) @ r
        t = np.minimum(plus, total - plus)
        p = float(np.mean(t <= stat + 1e-9))
        return stat, min(p, 1.0)
    _, counts = np.unique(r, return_counts=True)
    var = m * (m + 1) * (2 * m + 1) / 24 - float(np.sum(counts**3 - counts)) / 48
    z = (stat - m * (m + 1) / 4) / math.sqrt(var)
    return stat, min(1.0, float(2 * stats.norm.cdf(z)))


@validate_params(
    {
        "rope": Interval("real", 0.0),
        "prior_strength": Interval("real", 0.0, None, closed="right"),
        "n_samples": Interval("int", 1),
        "random_state": "random_state",
    }
)
def bayesian_signed_rank(
    a: Any,
    b: Any,
    rope: float = 0.01,
    *,
    prior_strength: float = 0.5,
    n_samples: int = 50_000,
    random_state: Any = None,
) -> tuple[float, float, float]:
    """Benavoli et al.'s Bayesian signed-rank test of errors ``a`` against ``b``.

    The differences ``z_i = a_i - b_i`` and a pseudo-observation ``z_0 = 0`` of weight
    ``prior_strength`` get Dirichlet weights ``w ~ Dir(prior_strength, 1, ..., 1)``.
    For each draw, ``theta_A = sum_ij w_i w_j [z_i + z_j < -2 rope]`` (A's error lower
    by more than the ROPE), ``theta_B`` likewise above ``2 rope``, and
    ``theta_rope = 1 - theta_A - theta_B`` (a sum exactly on a boundary counts one half
    to each side). The three probabilities are the shares of draws in which each
    ``theta`` is the largest.

    Parameters
    ----------
    a, b : array_like of shape (N,)
        Errors of A and of B on the same N data sets.
    rope : float, default=0.01
        Half-width of the region of practical equivalence, ``>= 0``, in the errors' units.
    prior_strength : float, default=0.5
        Weight of the pseudo-observation at 0 (baycomp's ``prior``), ``> 0``.
    n_samples : int, default=50000
    random_state : None, int, Generator, RandomState or SeedSequence

    Returns
    -------
    (p_a_better, p_rope, p_b_better)

    Examples
    --------
    >>> p = bayesian_signed_rank([0.10, 0.12, 0.20, 0.31], [0.15, 0.18, 0.26, 0.35],
    ...                          rope=0.01, n_samples=20_000, random_state=0)
    >>> p[0] > 0.9, round(sum(p), 6)
    (True, 1.0)
    """
    a = check_finite_values(a, "a", ndim=1, min_size=2)
    b = check_finite_values(b, "b", ndim=1, min_size=2)
    check_same_length(("a", a), ("b", b))
    rope, prior_strength = float(rope), float(prior_strength)
    rng = as_random_state(random_state)
    z = np.concatenate([[0.0], a - b])
    sums = z[:, None] + z[None, :]
    below = (sums < -2 * rope) + 0.5 * (sums == -2 * rope)
    above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    alpha = np.ones(z.size)
    alpha[0] = prior_strength
    wins = np.zeros(3)
    for start in range(0, n_samples, 10_000):
        w = rng.dirichlet(alpha, min(10_000, n_samples - start))
        t_a = np.sum((w @ below) * w, axis=1)
        t_b = np.sum((w @ above) * w, axis=1)
        theta = np.stack([t_a, 1 - t_a - t_b, t_b], axis=1)
        wins += np.bincount(np.argmax(theta, axis=1), minlength=3)
    p = wins / n_samples
    return float(p[0]), float(p[1]), float(p[2])


@validate_params({"cd": Interval("real", 0.0)})
def critical_difference_diagram(ax, mean_ranks: Any, names: Any, cd: float) -> None:
    """Demšar's critical-difference diagram of the mean ranks on ``ax``.

    Each learner is marked at its mean rank (1, the best, on the left); a bar above
    the axis shows the critical difference; a thick line joins learners whose mean ranks
    lie within ``cd`` of each other (no significant difference by Nemenyi's test).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> critical_difference_diagram(ax, [1.2, 2.1, 2.7], ["A", "B", "C"], 0.92)
    >>> plt.close(fig)
    """
    R = check_finite_values(mean_ranks, "mean_ranks", ndim=1, min_size=2)
    names = [str(n) for n in names]
    if len(names) != R.size:
        raise ValueError(f"names must name the {R.size} learners, got {len(names)}")
    cd = float(cd)
    k = R.size
    order = np.argsort(R)
    ax.set_xlim(0.8, k + 0.2)
    ax.set_ylim(-1.6, 1.0)
    ax.hlines(0, 1, k, color="black", linewidth=1)
    for r in range(1, k + 1):
        ax.vlines(r, -0.05, 0.05, color="black", linewidth=1)
        ax.text(r, 0.12, str(r), ha="center", va="bottom", fontsize="small")
    ax.hlines(0.7, 1, 1 + cd, color="black", linewidth=2)
    ax.text(1 + cd / 2, 0.78, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize="small")
    for pos, j in enumerate(order):
        y = -0.35 - 0.3 * pos
        ax.plot([R[j], R[j]], [0, y], color="black", linewidth=0.8)
        ax.text(R[j] + 0.03, y, f"{names[j]} ({R[j]:.2f})", va="center", fontsize="small")
    # groups not separated by Nemenyi: maximal runs of the sorted ranks within cd
    sorted_r = R[order]
    level = 0
    last_end = -1
    for i in range(k):
        j = i
        while j + 1 < k and sorted_r[j + 1] - sorted_r[i] <= cd:
            j += 1
        if j > i and j > last_end:
            y = -0.18 - 0.08 * level
            ax.hlines(y, sorted_r[i] - 0.03, sorted_r[j] + 0.03, color="black", linewidth=4)
            level += 1
            last_end = j
    ax.axis("off")
