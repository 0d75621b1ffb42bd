"""How large a bias correction does nested CV need? Chapter 7's learning curve at its sizes.

Nested CV's inner fits train on ``n (K-2)/K`` points and its outer fits on
``n (K-1)/K``; its bias correction extrapolates from the two to ``n``.
:func:`run_nested_learning_curve` measures the learner's risks at these three training
sizes on the same points; :func:`bias_factor` reads off the factor the correction needs.

Every repetition goes through :func:`cvbook.simulation.repeat`, seeded per
task, so results are the same for any ``n_jobs``. The long run's command line is
:mod:`cvbook.runs.intervals`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from sklearn.base import clone

from ..datasets.synthetic import make_distribution
from ..learners import get_learner
from ..simulation import repeat
from ..validation import check_int, check_rng
from .interval_coverage import INTERVAL_LEARNERS, check_n_values, risk_function

__all__ = [
    "bias_factor",
    "nested_learning_curve_trial",
    "run_nested_learning_curve",
]


def nested_learning_curve_trial(
    rng: np.random.Generator,
    distribution: str,
    learner: str,
    n_values: Sequence[int],
    n_splits: int = 5,
    n_fresh: int = 50_000,
) -> np.ndarray:
    """One data set per ``n``: risks of models fitted on its first n (K-2)/K, n (K-1)/K, n points.

    Nested CV's inner fits train on ``n (K-2)/K`` points and its outer fits on
    ``n (K-1)/K``; its bias correction extrapolates from the two to ``n``. The
    points are i.i.d., so the first ``s`` of a data set are a training set of size ``s``,
    and the three models share their points (a paired design: the differences are
    precise).

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness.
    distribution, learner : str
        Names (:data:`cvbook.datasets.synthetic.DISTRIBUTIONS`,
        :data:`cvbook.studies.interval_coverage.INTERVAL_LEARNERS`).
    n_values : sequence of int
        Full sizes ``n``, each at least 20; one data set each.
    n_splits : int, default=5
        Nested CV's ``K``, at least 3.
    n_fresh : int, default=50_000
        Fresh points for a risk that is not exact, >= 100 (so that they hold both classes).

    Returns
    -------
    numpy.ndarray of shape (len(n_values), 4)
        Columns ``n, risk at n (K-2)/K, risk at n (K-1)/K, risk at n``.

    Examples
    --------
    >>> nested_learning_curve_trial(np.random.default_rng(0), "twogaussians", "lda", [50]).shape
    (1, 4)
    """
    rng = check_rng(rng, "rng")
    dist, est = (
        make_distribution(distribution),
        get_learner(learner, INTERVAL_LEARNERS, "learner").make(),
    )
    K = check_int(n_splits, "n_splits", minimum=3)
    n_values = check_n_values(n_values)
    risk = risk_function(dist, rng, n_fresh)
    rows = []
    for n in n_values:
        X, y = dist.sample(int(n), random_state=int(rng.integers(0, 2**31 - 1)))
        sizes = (round(n * (K - 2) / K), round(n * (K - 1) / K), int(n))
        rows.append((n, *(risk(clone(est).fit(X[:s], y[:s]))[0] for s in sizes)))
    return np.array(rows, dtype=float)


def run_nested_learning_curve(
    distribution: str = "twogaussians",
    learner: str = "lda",
    n_values: Sequence[int] = (50, 100, 250),
    n_repeats: int = 1000,
    n_splits: int = 5,
    random_state: int | None = 0,
    n_jobs: int | None = None,
    progress: bool = False,
    checkpoint: str | os.PathLike | None = None,
) -> dict[str, np.ndarray]:
    """Run :func:`nested_learning_curve_trial` on ``n_repeats`` data sets.

    Parameters
    ----------
    distribution, learner : str
        As in :func:`nested_learning_curve_trial`.
    n_values : sequence of int, default=(50, 100, 250)
    n_repeats : int, default=1000
        Data sets per size, at least 2.
    n_splits : int, default=5
        Nested CV's ``K``.
    random_state : int or None, default=0
    n_jobs : int or None
        Workers of :func:`cvbook.simulation.repeat`; the records do not depend on it.
    progress : bool, default=False
    checkpoint : path or None
        Folder of :func:`cvbook.simulation.repeat`'s checkpoints (resume).

    Returns
    -------
    dict of numpy.ndarray
        Columns ``repeat, n, risk_inner`` (risk at ``n (K-2)/K``), ``risk_outer`` (at
        ``n (K-1)/K``) and ``risk_full`` (at ``n``).

    Examples
    --------
    >>> rec = run_nested_learning_curve(n_values=[50], n_repeats=3)
    >>> sorted(rec), rec["risk_inner"].shape
    (['n', 'repeat', 'risk_full', 'risk_inner', 'risk_outer'], (3,))
    """
    make_distribution(distribution)
    get_learner(learner, INTERVAL_LEARNERS, "learner")
    n_values = check_n_values(n_values)
    n_repeats = check_int(n_repeats, "n_repeats", minimum=2)
    n_splits = check_int(n_splits, "n_splits", minimum=3)
    results = repeat(
        nested_learning_curve_trial,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        progress=progress,
        desc=f"learning curve {distribution}/{learner}",
        checkpoint=checkpoint,
        distribution=distribution,
        learner=learner,
        n_values=n_values,
        n_splits=n_splits,
    )
    table = np.concatenate(results)
    reps = np.concatenate([np.full(len(r), i) for i, r in enumerate(results)])
    return {
        "repeat": reps.astype(int),
        "n": table[:, 0].astype(int),
        "risk_inner": table[:, 1],
        "risk_outer": table[:, 2],
        "risk_full": table[:, 3],
    }


def bias_factor(records: Mapping[str, np.ndarray], **where: Any) -> dict[str, float]:
    """The factor nested CV's bias correction needs, read off a learning curve, with its SE.

    Nested CV estimates ``Err`` at ``n`` as ``Err_NCV - c (Err_NCV - Err_CV)``, where
    ``Err_NCV`` is the mean risk at ``n (K-2)/K`` and ``Err_CV`` at ``n (K-1)/K``. The
    correction is exact in expectation when ``c = (E L_inner - E L_full) / (E L_inner -
    E L_outer)``; this is the ratio of the two paired means, with a delta-method standard
    error. A learning curve ``a + b / n`` gives ``c = 1 + (K-2)/K`` exactly.

    Parameters
    ----------
    records : dict of numpy.ndarray
        As returned by :func:`run_nested_learning_curve`.
    **where
        Equality filters on columns, e.g. ``n=50``.

    Returns
    -------
    dict
        ``factor`` and its ``se``; ``inner_minus_full`` and ``inner_minus_outer`` (the
        two mean differences) and ``n_repeats`` (records used).

    Examples
    --------
    >>> rec = {"n": np.array([50] * 4), "risk_inner": np.array([0.30, 0.32, 0.31, 0.33]),
    ...        "risk_outer": np.array([0.29, 0.30, 0.30, 0.32]),
    ...        "risk_full": np.array([0.28, 0.30, 0.29, 0.31])}
    >>> round(bias_factor(rec)["factor"], 3)
    1.6
    """
    cols = {k: np.asarray(v) for k, v in records.items()}
    missing = sorted({"n", "risk_inner", "risk_outer", "risk_full"} - set(cols))
    if missing:
        raise ValueError(f"records lack the columns {missing}")
    sel = np.ones(len(cols["n"]), dtype=bool)
    for key, value in where.items():
        if key not in cols:
            raise ValueError(f"unknown column {key!r}; columns are {sorted(cols)}")
        sel &= cols[key] == value
    if sel.sum() < 2:
        raise ValueError(f"need at least 2 records with {where}, got {int(sel.sum())}")
    a = cols["risk_inner"][sel] - cols["risk_full"][sel]
    b = cols["risk_inner"][sel] - cols["risk_outer"][sel]
    factor = float(a.mean() / b.mean())
    grad = np.array([1 / b.mean(), -a.mean() / b.mean() ** 2])
    se = float(np.sqrt(grad @ np.cov(a, b) @ grad / a.size))
    return {
        "factor": factor,
        "se": se,
        "inner_minus_full": float(a.mean()),
        "inner_minus_outer": float(b.mean()),
        "n_repeats": int(a.size),
    }
