"""What does a ranking over data sets control? Suites with known differences (chapter 10).

**The Table 1 sweep** (:func:`scores_by_dataset`): the three tuned SVMs of chapter 5b
(C-KCV's ``k*``, 5-fold, 10-fold), their test error averaged over the realisations of
each of the 13 Rätsch benchmarks, read from the committed runs.

**A synthetic suite** (:func:`suite_trial`, :func:`run_suites`). Each repetition draws a
suite of ``n_datasets`` data sets. On data set ``j`` the true risk of B is
``b_j ~ U(0.05, 0.30)``, that of A is ``b_j + delta_j`` and that of a third learner C is
``b_j + 0.03`` (worse than B everywhere, and than A wherever ``delta_j < 0.03``, so that
Friedman's test has something to find);
the three learners are scored on one test set of ``n_test_j`` points (log-uniform
between 200 and 5000): each observed error is its risk plus a normal noise with the
variance of a binomial proportion on ``n_test_j`` points, a share :data:`SHARED` (0.9)
of that variance common to the three learners and the rest their own -- learners of
similar risk err mostly on the same points, so a difference of errors is less noisy than
either error. The
scenarios (:data:`SCENARIOS`) set the family the ``delta_j`` are drawn from; the
*truth* is the family's mean difference ``E delta`` (0 unless stated) -- what a
reader who asks "is A better than B on data sets like these?" wants to know. Each
procedure names a winner between A and B or none:

* ``nemenyi``: Friedman's test at 5 % rejects and ``|R_A - R_B| > CD`` (Demšar's protocol);
* ``wilcoxon``: Wilcoxon's signed-rank test of A against B at 5 %;
* ``bayes``: the Bayesian signed-rank test with a ROPE of 0.01 gives "A better" (or
  "B better") a probability above 0.95 of being the most probable outcome (baycomp's
  definition: the share of posterior draws in which that region holds more mass than
  the other two, not the posterior probability of the region itself);
* ``ttest``: the paired t test of the mean difference over the data sets at 5 % (the
  mean difference with its uncertainty across data sets, the book's recommendation).

**The pool** (:func:`pool_trial`, :func:`run_pool`): the same suite scored with C fixed
at ``b_j + 0.03`` and with C placed at random relative to A and B (:data:`C_PLACEMENTS`), A and B
unchanged -- the switch-off showing that Nemenyi's verdict on A against B depends on the
other learners ranked with them, beside Wilcoxon's on the same suites -- and, for long
runs of the paired t alone, the number of data sets on which A is truly worse.

Wilcoxon's test and the Bayesian signed-rank test do not aim at ``E delta``: Wilcoxon
tests whether the differences are symmetric about zero (its estimate is their
pseudo-median, the Hodges--Lehmann median of the pairwise averages), and the Bayesian
test weighs the pairwise averages; when the family of ``delta_j`` is skewed these
targets and ``E delta`` part.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats

from ..bounds import clopper_pearson_interval
from ..ranking import bayesian_signed_rank, friedman_test, nemenyi_cd, wilcoxon_test
from ..simulation import columns, repeat
from ..validation import check_int, check_option, check_rng

__all__ = [
    "C_PLACEMENTS",
    "PROCEDURES",
    "SCENARIOS",
    "SHARED",
    "TABLE1_LEARNERS",
    "pool_trial",
    "run_pool",
    "run_suites",
    "scores_by_dataset",
    "suite_trial",
    "summarize_suites",
]

#: The three tuned SVMs of the Table 1 sweep: the column of their test error, and a label.
TABLE1_LEARNERS: dict[str, str] = {
    "test_err_F": "SVM tuned by C-KCV (k*)",
    "test_err_k5": "SVM tuned by 5-fold CV",
    "test_err_k10": "SVM tuned by 10-fold CV",
}

#: The scenarios: how ``delta_j`` (A's risk minus B's on data set j) is drawn, and the
#: family's mean difference (the truth a winner is scored against).
SCENARIOS: dict[str, str] = {
    "equal": "delta_j = 0 on every data set",
    "mixed": "delta_j ~ N(0, 0.02^2): equal on average, each data set differs",
    "skewed": "delta_j = -0.015 (prob. 0.8) or +0.06 (prob. 0.2): equal on average, "
    "A better on most data sets",
    "better": "delta_j ~ N(-0.02, 0.01^2): A better by 0.02 on average",
}

_MEAN_DELTA = {"equal": 0.0, "mixed": 0.0, "skewed": 0.0, "better": -0.02}

#: The procedures that name a winner between A and B, with a label.
PROCEDURES: dict[str, str] = {
    "nemenyi": "Friedman + Nemenyi (CD diagram)",
    "wilcoxon": "Wilcoxon signed-rank",
    "bayes": "Bayesian signed-rank, ROPE 0.01",
    "ttest": "paired t on the mean difference",
}

_ROPE = 0.01
#: Most suites of one call of :func:`run_suites` or :func:`run_pool`: the rows are held in
#: memory while they run, about 2 KB per suite (about 2 GB at the cap).
_MAX_SUITES = 1_000_000

#: Share of the test-set noise's variance common to the three learners of a data set.
SHARED = 0.9


def scores_by_dataset(
    runs: Iterable[Mapping[str, Any]], columns: Sequence[str] = tuple(TABLE1_LEARNERS)
) -> tuple[list[str], np.ndarray]:
    """Mean of each column over each data set's runs: ``(names, scores)``.

    Parameters
    ----------
    runs : iterable of dict
        The Table 1 records (``cvbook.runs.table1.read_runs``), each with ``"dataset"``
        and every column.
    columns : sequence of str
        The keys to average (default: the three tuned SVMs' test errors).

    Returns
    -------
    (list of str, numpy.ndarray of shape (n_datasets, len(columns)))
        Data sets sorted by name.

    Examples
    --------
    >>> runs = [{"dataset": "b", "e": 0.2}, {"dataset": "a", "e": 0.1},
    ...         {"dataset": "a", "e": 0.3}]
    >>> scores_by_dataset(runs, ["e"])
    (['a', 'b'], array([[0.2],
           [0.2]]))
    """
    runs = list(runs)
    columns = list(columns)
    if not runs or not columns:
        raise ValueError("runs and columns must both be non-empty")
    for i, r in enumerate(runs):
        missing = [c for c in ["dataset", *columns] if c not in r]
        if missing:
            raise ValueError(f"runs[{i}] lacks {missing}: expected a Table 1 record")
    names = sorted({str(r["dataset"]) for r in runs})
    scores = np.array(
        [
            [np.mean([float(r[c]) for r in runs if r["dataset"] == name]) for c in columns]
            for name in names
        ]
    )
    return names, scores


def _draw_delta(rng: np.random.Generator, scenario: str, n: int) -> np.ndarray:
    if scenario == "equal":
        return np.zeros(n)
    if scenario == "mixed":
        return rng.normal(0.0, 0.02, n)
    if scenario == "skewed":
        return np.where(rng.random(n) < 0.8, -0.015, 0.06)
    return rng.normal(-0.02, 0.01, n)


def suite_trial(
    rng: np.random.Generator, scenario: str, n_datasets: int = 13, n_samples: int = 2000
) -> dict[str, float]:
    """One synthetic suite: the winner each procedure names between A and B.

    Parameters
    ----------
    rng : numpy.random.Generator
    scenario : str
        A key of :data:`SCENARIOS`.
    n_datasets : int, default=13
        Data sets in the suite, in ``[5, 20]`` (Wilcoxon is exact up to 20).
    n_samples : int, default=2000
        Posterior draws of the Bayesian test.

    Returns
    -------
    dict
        For each procedure, ``<procedure>`` = -1 (A named better), +1 (B named better)
        or 0 (no winner); ``bayes_rope``: 1 if the Bayesian test's probability that
        equivalence (the ROPE) is the most probable outcome exceeds 0.95;
        ``mean_delta`` and ``median_delta``, the suite's own mean and median true
        differences; ``family_delta``, the family's mean; ``a_wins_all`` and
        ``b_wins_all``: 1 if A's observed error is below B's (B's below A's) on every data
        set; ``c_last_all``: 1 if C's observed error is the worst of the three on every
        data set (C's risk is B's + 0.03, so C falls between B and A wherever A's observed
        error is above C's).

    Examples
    --------
    >>> r = suite_trial(np.random.default_rng(0), "better")
    >>> sorted(r)[:5]
    ['a_wins_all', 'b_wins_all', 'bayes', 'bayes_rope', 'c_last_all']
    """
    rng = check_rng(rng, "rng")
    check_option(scenario, "scenario", SCENARIOS)
    n_datasets = check_int(n_datasets, "n_datasets", minimum=5, maximum=20)
    n_samples = check_int(n_samples, "n_samples", minimum=100)
    base = rng.uniform(0.05, 0.30, n_datasets)
    delta = _draw_delta(rng, scenario, n_datasets)
    risks = np.column_stack([base + delta, base, base + 0.03]).clip(0.0, 1.0)
    n_test = np.exp(rng.uniform(np.log(200), np.log(5000), n_datasets)).round().astype(int)
    # the errors on one shared test set: a binomial proportion's spread, a share SHARED of
    # its variance common to the three learners (they err mostly on the same points)
    sd = np.sqrt(risks * (1 - risks) / n_test[:, None])
    common = rng.standard_normal((n_datasets, 1))
    own = rng.standard_normal((n_datasets, 3))
    scores = risks + sd * (np.sqrt(SHARED) * common + np.sqrt(1 - SHARED) * own)
    out: dict[str, float] = {
        "mean_delta": float(delta.mean()),
        "median_delta": float(np.median(delta)),
        "family_delta": _MEAN_DELTA[scenario],
        "a_wins_all": float(np.all(scores[:, 0] < scores[:, 1])),
        "b_wins_all": float(np.all(scores[:, 1] < scores[:, 0])),
        "c_last_all": float(np.all(scores[:, 2] > scores[:, :2].max(axis=1))),
    }
    fr = friedman_test(scores)
    cd = nemenyi_cd(n_datasets, 3)
    gap = fr.mean_ranks[0] - fr.mean_ranks[1]
    out["nemenyi"] = float(np.sign(gap)) if fr.p_value < 0.05 and abs(gap) > cd else 0.0
    _, p = wilcoxon_test(scores[:, 0], scores[:, 1])
    d = np.median(scores[:, 0] - scores[:, 1])
    out["wilcoxon"] = float(np.sign(d) or 1.0) if p < 0.05 else 0.0
    pa, p_rope, pb = bayesian_signed_rank(
        scores[:, 0], scores[:, 1], rope=_ROPE, n_samples=n_samples, random_state=rng
    )
    out["bayes"] = -1.0 if pa > 0.95 else (1.0 if pb > 0.95 else 0.0)
    out["bayes_rope"] = float(p_rope > 0.95)  # the ROPE holds the most mass in > 95 % of draws
    diff = scores[:, 0] - scores[:, 1]
    t_p = float(stats.ttest_1samp(diff, 0.0).pvalue)
    out["ttest"] = float(np.sign(diff.mean()) or 1.0) if t_p < 0.05 else 0.0
    return out


def _repeat_suites(
    trial: Any, scenario: Any, n_repeats: Any, random_state: Any, n_jobs: Any, **kwargs: Any
) -> dict[str, np.ndarray]:
    """``trial`` on ``n_repeats`` independent suites of ``scenario``, as float columns."""
    check_option(scenario, "scenario", SCENARIOS)
    n_repeats = check_int(n_repeats, "n_repeats", minimum=2, maximum=_MAX_SUITES)
    rows = repeat(
        trial, n_repeats, random_state=random_state, n_jobs=n_jobs, scenario=scenario, **kwargs
    )
    return columns(rows, dtype=float)


def run_suites(
    scenario: str,
    n_repeats: int = 1000,
    n_datasets: int = 13,
    random_state: Any = 0,
    n_jobs: int | None = None,
) -> dict[str, np.ndarray]:
    """:func:`suite_trial` on ``n_repeats`` independent suites (2 to 1,000,000).

    Examples
    --------
    >>> run_suites("equal", n_repeats=3)["wilcoxon"].shape
    (3,)
    """
    return _repeat_suites(
        suite_trial, scenario, n_repeats, random_state, n_jobs, n_datasets=n_datasets
    )


def summarize_suites(records: Mapping[str, np.ndarray], level: float = 0.95) -> dict[str, Any]:
    """How often each procedure names A, names B, or names a winner at all.

    Returns
    -------
    dict
        ``{procedure: {"A": rate, "B": rate, "any": rate}}``, each rate a dict
        ``rate, lo, hi, k, n`` with its Clopper--Pearson interval at ``level``.

    Examples
    --------
    >>> s = summarize_suites(run_suites("equal", n_repeats=4))
    >>> sorted(s), sorted(s["wilcoxon"])
    (['bayes', 'nemenyi', 'ttest', 'wilcoxon'], ['A', 'B', 'any'])
    """
    out: dict[str, Any] = {}
    for proc in PROCEDURES:
        if proc not in records:
            raise ValueError(f"records must come from run_suites; {proc!r} is missing")
        v = np.asarray(records[proc])
        out[proc] = {}
        for key, hits in (("A", v < 0), ("B", v > 0), ("any", v != 0)):
            k, n = int(hits.sum()), int(hits.size)
            lo, hi = clopper_pearson_interval(k, n, 1 - level)
            out[proc][key] = {"rate": k / n, "lo": float(lo), "hi": float(hi), "k": k, "n": n}
    return out


#: Where the third learner C stands in :func:`pool_trial` (its true risk on data set j).
C_PLACEMENTS: dict[str, str] = {
    "fixed": "b_j + 0.03 (the suites of suite_trial): worse than B by 0.03 on every data set; "
    "above A where delta_j < 0.03, between B and A where delta_j > 0.03 (up to the noise)",
    "random": "b_j - 0.01 + N(0, 0.03^2): above, between or below A and B, data set by data set",
}


@functools.lru_cache(maxsize=32)
def _t_crit(n_datasets: int) -> float:
    return float(stats.t.isf(0.025, n_datasets - 1))


def pool_trial(
    rng: np.random.Generator,
    scenario: str = "better",
    n_datasets: int = 13,
    nemenyi: bool = True,
) -> dict[str, float]:
    """One suite, its third learner C placed two ways: does Nemenyi's verdict on A vs B move?

    The suite is drawn as in :func:`suite_trial` (under the same ``rng``, the same
    ``b_j``, ``delta_j``, test sets and noise: with C fixed, the same scores). A and B
    are scored once; C is scored twice from the same noise, with its true risk placed as
    in :data:`C_PLACEMENTS`: fixed at ``b_j + 0.03`` (the suites of :func:`suite_trial`;
    worse than B everywhere, and than A wherever ``delta_j < 0.03``) or at random
    relative to A and B. Only C moves, so
    any change in Friedman + Nemenyi's verdict on A against B comes from the pool --
    the objection of Benavoli, Corani and Mangili to mean-rank post-hoc tests.

    Parameters
    ----------
    rng : numpy.random.Generator
    scenario : str, default="better"
        A key of :data:`SCENARIOS`.
    n_datasets : int, default=13
        Data sets in the suite, in ``[5, 20]``.
    nemenyi : bool, default=True
        Run the rank tests: Friedman + Nemenyi with C placed both ways, and Wilcoxon's
        signed-rank test of A against B (which C does not touch), about 1 ms each;
        ``False`` leaves the ``nemenyi_*`` and ``wilcoxon`` entries NaN, for long runs
        of the paired t alone.

    Returns
    -------
    dict
        ``nemenyi_fixed`` and ``nemenyi_random``: -1 (A named better), +1 (B) or 0, with
        C fixed and with C at random; ``ttest``: the paired t's verdict on A vs B at 5 %
        (as in :func:`suite_trial`); ``wilcoxon``: Wilcoxon's verdict on A vs B at 5 %
        (as in :func:`suite_trial`; the same with C anywhere); ``a_wins``: the data sets
        on which A's observed error is below B's; ``a_wins_all``: 1 if that is all of
        them; ``c_last_all``: 1 if, C fixed, C's observed error is the worst on every data
        set; ``c_between_wins`` and ``c_between_losses``: C fixed, the data sets on which
        C's observed error lies strictly between A's and B's where A wins, and where A
        loses; ``rank_gap``: C fixed, ``R_B - R_A``, B's mean rank minus A's in Friedman's
        test (NaN when ``nemenyi=False``); ``n_losses``: the data sets with ``delta_j > 0``
        (A truly worse). With C fixed and no ties, ``rank_gap = (2 a_wins - n_datasets +
        c_between_wins - c_between_losses) / n_datasets`` (an identity of the ranks).

    Examples
    --------
    >>> r = pool_trial(np.random.default_rng(0))
    >>> sorted(r)[:6]
    ['a_wins', 'a_wins_all', 'c_between_losses', 'c_between_wins', 'c_last_all', 'n_losses']
    >>> sorted(r)[6:]
    ['nemenyi_fixed', 'nemenyi_random', 'rank_gap', 'ttest', 'wilcoxon']
    >>> w, l_w, l_l = r["a_wins"], r["c_between_wins"], r["c_between_losses"]
    >>> bool(np.isclose(r["rank_gap"], (2 * w - 13 + l_w - l_l) / 13))
    True
    >>> pool_trial(np.random.default_rng(0), "equal")["n_losses"]
    0.0
    """
    rng = check_rng(rng, "rng")
    check_option(scenario, "scenario", SCENARIOS)
    n_datasets = check_int(n_datasets, "n_datasets", minimum=5, maximum=20)
    if not isinstance(nemenyi, (bool, np.bool_)):
        raise TypeError(f"nemenyi must be True or False, got {nemenyi!r}")
    base = rng.uniform(0.05, 0.30, n_datasets)
    delta = _draw_delta(rng, scenario, n_datasets)
    n_test = np.exp(rng.uniform(np.log(200), np.log(5000), n_datasets)).round().astype(int)
    common = rng.standard_normal((n_datasets, 1))
    own = rng.standard_normal((n_datasets, 3))
    # drawn last, so that with C fixed the suite is suite_trial's under the same rng
    c_random = base - 0.01 + rng.normal(0.0, 0.03, n_datasets)
    noise = np.sqrt(SHARED) * common + np.sqrt(1 - SHARED) * own
    out: dict[str, float] = {
        "n_losses": float(np.sum(delta > 0)),
        "wilcoxon": np.nan,
        "rank_gap": np.nan,
    }
    for place, c_risk in (("fixed", base + 0.03), ("random", c_random)):
        risks = np.column_stack([base + delta, base, c_risk]).clip(0.0, 1.0)
        scores = risks + np.sqrt(risks * (1 - risks) / n_test[:, None]) * noise
        if place == "fixed":
            out["c_last_all"] = float(np.all(scores[:, 2] > scores[:, :2].max(axis=1)))
            diff = scores[:, 0] - scores[:, 1]
            out["a_wins"] = float(np.sum(diff < 0))
            out["a_wins_all"] = float(np.all(diff < 0))
            lo, hi = scores[:, :2].min(axis=1), scores[:, :2].max(axis=1)
            between = (scores[:, 2] > lo) & (scores[:, 2] < hi)
            out["c_between_wins"] = float(np.sum(between & (diff < 0)))
            out["c_between_losses"] = float(np.sum(between & (diff > 0)))
            # the paired t at 5 % of suite_trial, as |t| > t_{0.975, m - 1} (scipy's
            # ttest_1samp costs more than the rest of the trial)
            t_stat = diff.mean() / (diff.std(ddof=1) / np.sqrt(n_datasets))
            out["ttest"] = float(np.sign(t_stat)) if abs(t_stat) > _t_crit(n_datasets) else 0.0
            if nemenyi:  # Wilcoxon on A vs B, as in suite_trial (C plays no part in it)
                _, p = wilcoxon_test(scores[:, 0], scores[:, 1])
                w = float(np.sign(np.median(diff)) or 1.0)
                out["wilcoxon"] = w if p < 0.05 else 0.0
        verdict = np.nan
        if nemenyi:
            fr = friedman_test(scores)
            gap = fr.mean_ranks[0] - fr.mean_ranks[1]
            big = fr.p_value < 0.05 and abs(gap) > nemenyi_cd(n_datasets, 3)
            verdict = float(np.sign(gap)) if big else 0.0
            if place == "fixed":
                out["rank_gap"] = float(-gap)  # R_B - R_A
        out[f"nemenyi_{place}"] = verdict
    return out


def run_pool(
    scenario: str = "better",
    n_repeats: int = 1000,
    n_datasets: int = 13,
    nemenyi: bool = True,
    random_state: Any = 0,
    n_jobs: int | None = None,
) -> dict[str, np.ndarray]:
    """:func:`pool_trial` on ``n_repeats`` independent suites (2 to 1,000,000).

    Examples
    --------
    >>> r = run_pool(n_repeats=3)
    >>> r["nemenyi_fixed"].shape, r["nemenyi_random"].shape
    ((3,), (3,))
    """
    return _repeat_suites(
        pool_trial,
        scenario,
        n_repeats,
        random_state,
        n_jobs,
        n_datasets=n_datasets,
        nemenyi=nemenyi,
    )
