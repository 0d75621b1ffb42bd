"""Chapter 3's study: bias and variance of the K-fold estimate over many data sets, against
the risk of the model on all m points and of the models on the parts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.base import clone

from ..datasets.synthetic import monte_carlo_risk
from ..holdout import clone_estimator
from ..kfold import check_n_splits, kfold_risks, make_kfold
from ..simulation import repeat
from ..validation import (
    check_bool,
    check_int,
)

__all__ = [
    "BiasVariance",
    "kfold_bias_variance",
]


@dataclass(frozen=True)
class BiasVariance:
    """K-fold estimates against the truth over many data sets.

    Attributes
    ----------
    ks : ndarray of shape (n_k,)
        The values of ``K``.
    estimates : ndarray of shape (n_repeats, n_k)
        The K-fold estimate on each data set, for each ``K``.
    truths : ndarray of shape (n_repeats,)
        True risk of the model trained on all ``m`` points of each data set.
    fold_stds : ndarray of shape (n_repeats, n_k)
        Standard deviation of the ``K`` fold risks (``ddof=1``) behind each
        estimate: the "± std" a report quotes next to it.
    part_truths : ndarray of shape (n_repeats, n_k) or None
        With ``part_truths=True``: true risk of the model trained on the training part
        of the first fold (``m - m_1`` points, about ``m (1 - 1/K)``), on each data set.
    """

    ks: np.ndarray
    estimates: np.ndarray
    truths: np.ndarray
    fold_stds: np.ndarray
    part_truths: np.ndarray | None = None

    @property
    def expected_risk(self) -> float:
        """``Err_m``, the expected risk of the learner at training size ``m``, estimated
        by the mean of :attr:`truths` over data sets."""
        return float(self.truths.mean())

    @property
    def expected_part_risk(self) -> np.ndarray:
        """``Err_{m - m_1}`` for each ``K``: the mean of :attr:`part_truths`, the expected
        risk at the size of a K-fold training part, the target of the K-fold estimate."""
        if self.part_truths is None:
            raise ValueError("run kfold_bias_variance(..., part_truths=True) to measure it")
        return self.part_truths.mean(axis=0)

    @property
    def bias(self) -> np.ndarray:
        """``E[estimate - true risk]`` for each ``K`` (positive: pessimistic)."""
        return (self.estimates - self.truths[:, None]).mean(axis=0)

    @property
    def variance(self) -> np.ndarray:
        """``Var[estimate]`` over data sets, for each ``K`` (``ddof=1``)."""
        return self.estimates.var(axis=0, ddof=1)

    @property
    def error_variance(self) -> np.ndarray:
        """``Var[estimate - true risk]``: how well it tracks *this* data set's model."""
        return (self.estimates - self.truths[:, None]).var(axis=0, ddof=1)

    @property
    def mse(self) -> np.ndarray:
        """``E[(estimate - true risk)^2]`` for each ``K``."""
        return ((self.estimates - self.truths[:, None]) ** 2).mean(axis=0)

    @property
    def naive_standard_error(self) -> np.ndarray:
        """Mean over data sets of ``fold std / sqrt(K)``, for each ``K``.

        The standard error the estimate *would* have if its ``K`` fold risks were
        independent; they are not (the training sets overlap), and Bengio and
        Grandvalet (2004) show that no unbiased estimator of the variance exists.
        Compare with ``sqrt(variance)``.
        """
        return (self.fold_stds / np.sqrt(self.ks)[None, :]).mean(axis=0)


def _seeded(estimator: Any, rng: np.random.Generator) -> Any:
    model = clone(estimator)
    if "random_state" in model.get_params():
        model.set_params(random_state=int(rng.integers(2**31 - 1)))
    return model


def _bias_variance_one(
    rng: np.random.Generator,
    estimator: Any,
    distribution: Any,
    m: int,
    ks: Sequence[int],
    n_test: int,
    stratify: bool,
    part_truths: bool = False,
) -> tuple:
    """One data set: the K-fold estimate (and fold std) for every K, the true risk on all m,
    and (with ``part_truths``) the true risk of the model trained on fold 1's training part."""
    X, y = distribution.sample(m, random_state=int(rng.integers(2**31 - 1)))
    model = _seeded(estimator, rng)
    fold_seeds = [int(rng.integers(2**31 - 1)) for _ in ks]
    folds = [
        kfold_risks(model, X, y, n_splits=k, stratify=stratify, random_state=s)
        for k, s in zip(ks, fold_seeds, strict=True)
    ]
    truth = monte_carlo_risk(
        clone(model).fit(X, y), distribution, n=n_test, random_state=int(rng.integers(2**31 - 1))
    )
    out = (np.array([f.mean for f in folds]), np.array([f.std for f in folds]), truth)
    if not part_truths:
        return out
    parts = []
    for k, s in zip(ks, fold_seeds, strict=True):
        train, _ = next(make_kfold(k, y=y, stratify=stratify, random_state=s).split(X, y))
        parts.append(
            monte_carlo_risk(
                clone(model).fit(X[train], y[train]),
                distribution,
                n=n_test,
                random_state=int(rng.integers(2**31 - 1)),
            )
        )
    return (*out, np.array(parts))


def kfold_bias_variance(
    estimator: Any,
    distribution: Any,
    m: int,
    ks: Sequence[int],
    n_repeats: int = 100,
    random_state: Any = None,
    n_jobs: int | None = None,
    n_test: int = 20_000,
    stratify: bool = False,
    progress: bool = False,
    part_truths: bool = False,
) -> BiasVariance:
    """Bias and variance of the K-fold estimate, over ``n_repeats`` fresh data sets.

    Each repetition draws ``S`` (``m`` points) from ``distribution``, computes
    the K-fold estimate for every ``K`` in ``ks``, and the true risk of the model
    trained on all of ``S`` (by :func:`~cvbook.datasets.synthetic.monte_carlo_risk`
    on ``n_test`` fresh points). Repetitions run in parallel through
    :func:`cvbook.simulation.repeat`, seeded per task: the result does not
    depend on ``n_jobs``.

    Parameters
    ----------
    estimator : scikit-learn estimator
        The learner; a ``random_state`` parameter, if any, is seeded per repetition.
    distribution : object with ``sample(m, random_state)``
        E.g. :class:`~cvbook.datasets.synthetic.TwoGaussians`.
    m : int
        Size of each data set, >= 2.
    ks : sequence of int
        Values of ``K``, each in ``[2, m]`` (``m`` is leave-one-out).
    n_repeats : int, default=100
        Number of data sets.
    random_state : int or None
        Root seed.
    n_jobs : int or None
        joblib's ``n_jobs``.
    n_test : int, default=20_000
        Size of the fresh sample that measures each true risk.
    stratify : bool, default=False
        Stratified folds.
    progress : bool, default=False
        Show a progress bar.
    part_truths : bool, default=False
        Also measure the true risk of the model trained on the first fold's training part
        (``m - m_1`` points) for every ``K``: its mean over data sets estimates the expected
        risk at that size, which is what the K-fold estimate aims at.

    Returns
    -------
    BiasVariance

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from cvbook.datasets import TwoGaussians
    >>> bv = kfold_bias_variance(LinearDiscriminantAnalysis(), TwoGaussians(), m=30,
    ...                          ks=[2, 5], n_repeats=3, random_state=0, n_test=2000)
    >>> bv.estimates.shape, bv.bias.shape
    ((3, 2), (2,))
    """
    clone_estimator(estimator)
    m = check_int(m, "m", minimum=2)
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Sequence):
        raise ValueError(f"ks must be a list of integers K in [2, m], got {ks!r}")
    ks = [check_n_splits(k, m, name="ks") for k in ks]
    if not ks:
        raise ValueError("ks must hold at least one value of K, got none")
    n_test = check_int(n_test, "n_test", minimum=1)
    stratify = check_bool(stratify, "stratify")
    part_truths = check_bool(part_truths, "part_truths")
    out = repeat(
        _bias_variance_one,
        n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        progress=progress,
        desc="K-fold bias/variance",
        estimator=estimator,
        distribution=distribution,
        m=m,
        ks=ks,
        n_test=n_test,
        stratify=stratify,
        part_truths=part_truths,
    )
    return BiasVariance(
        ks=np.asarray(ks),
        estimates=np.array([o[0] for o in out]),
        truths=np.array([o[2] for o in out]),
        fold_stds=np.array([o[1] for o in out]),
        part_truths=np.array([o[3] for o in out]) if part_truths else None,
    )
