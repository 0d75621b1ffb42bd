"""Repeated experiments: the same procedure on many fresh data sets.

Every chapter asks how an estimate behaves *over data sets*: its mean, its
spread, how often a bound covers the truth. :func:`repeat` runs a function
``n_repeats`` times in parallel with joblib, each call with its own random
generator spawned from one seed, so that the results are identical for any
``n_jobs`` -- and any joblib backend, including dask's.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

import numpy as np
from joblib import Parallel, delayed
from tqdm import tqdm

from ._checks import check_int

__all__ = ["spawn_generators", "repeat"]

T = TypeVar("T")


def spawn_generators(random_state: int | None, n: int) -> list[np.random.Generator]:
    """``n`` independent generators spawned from one seed.

    Generator ``i`` depends only on ``random_state`` and ``i``, never on how
    the work is scheduled.

    Examples
    --------
    >>> a = spawn_generators(0, 3)
    >>> b = spawn_generators(0, 3)
    >>> [g.integers(100) for g in a] == [g.integers(100) for g in b]
    True
    """
    n = check_int(n, "n", minimum=0)
    root = np.random.SeedSequence(random_state)
    return [np.random.default_rng(s) for s in root.spawn(n)]


def repeat(func: Callable[..., T], n_repeats: int, random_state: int | None = None,
           n_jobs: int | None = None, progress: bool = False,
           desc: str | None = None, **kwargs: Any) -> list[T]:
    """Call ``func(rng, **kwargs)`` once per repetition, in parallel.

    Parameters
    ----------
    func : callable
        Called as ``func(rng, **kwargs)`` with a fresh ``numpy.random.Generator``.
        It must draw all of its randomness from ``rng``.
    n_repeats : int
        Number of repetitions, >= 1.
    random_state : int or None
        Root seed; repetition ``i`` gets the ``i``-th spawned generator.
    n_jobs : int or None
        joblib's ``n_jobs``; the results do not depend on it.
    progress : bool, default=False
        Show a tqdm progress bar.
    desc : str, optional
        Label of the progress bar.
    **kwargs
        Passed to ``func`` unchanged.

    Returns
    -------
    list
        ``func``'s results, in repetition order.

    Examples
    --------
    >>> def mean_of_ten(rng):
    ...     return float(rng.normal(size=10).mean())
    >>> repeat(mean_of_ten, 4, random_state=0) == repeat(mean_of_ten, 4, random_state=0, n_jobs=2)
    True
    """
    n_repeats = check_int(n_repeats, "n_repeats", minimum=1)
    rngs = spawn_generators(random_state, n_repeats)
    tasks = (delayed(func)(rng, **kwargs) for rng in rngs)
    results = Parallel(n_jobs=n_jobs, return_as="generator")(tasks)
    return list(tqdm(results, total=n_repeats, desc=desc, disable=not progress))
