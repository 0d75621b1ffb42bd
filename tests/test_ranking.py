"""cvbook.ranking against the field's libraries, on the Table 1 numbers and on random data.

scipy (Friedman, Wilcoxon), scikit-posthocs (Nemenyi) and baycomp (the Bayesian
signed-rank test) are test dependencies (pyproject.toml's ``test`` extra).
"""

import numpy as np
import pytest
from scipy import stats

from cvbook.book import results_path
from cvbook.ranking import (
    average_ranks,
    bayesian_signed_rank,
    friedman_test,
    nemenyi_cd,
    nemenyi_test,
    wilcoxon_test,
)
from cvbook.runs.table1 import read_runs
from cvbook.studies.across_datasets import TABLE1_LEARNERS, scores_by_dataset

sp = pytest.importorskip("scikit_posthocs")
baycomp = pytest.importorskip("baycomp")


@pytest.fixture(scope="module")
def table1():
    return scores_by_dataset(read_runs(results_path("table1")), list(TABLE1_LEARNERS))[1]


def _random_scores(seed, ties):
    rng = np.random.default_rng(seed)
    s = rng.uniform(0.05, 0.3, (13, 3))
    return s.round(2) if ties else s


def _cases():
    return [("table1", None)] + [("random", (seed, ties)) for seed in range(4) for ties in (0, 1)]


def _scores(kind, arg, table1):
    return table1 if kind == "table1" else _random_scores(*arg)


@pytest.mark.parametrize(("kind", "arg"), _cases())
def test_friedman_agrees_with_scipy(kind, arg, table1):
    s = _scores(kind, arg, table1)
    ours = friedman_test(s)
    theirs = stats.friedmanchisquare(*s.T)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-10, abs=1e-12)
    assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-10)
    assert ours.mean_ranks == pytest.approx(average_ranks(s).mean(axis=0))


@pytest.mark.parametrize(("kind", "arg"), _cases())
def test_nemenyi_agrees_with_scikit_posthocs(kind, arg, table1):
    s = _scores(kind, arg, table1)
    _, p = nemenyi_test(s)
    theirs = sp.posthoc_nemenyi_friedman(s).to_numpy()
    assert p == pytest.approx(theirs, rel=1e-8, abs=1e-12)


def test_critical_difference_is_demsars():
    # Demsar (2006), Table 5(a): q_0.05 = 2.343 (k = 3), 2.569 (k = 4), 2.728 (k = 5)
    for k, q in ((3, 2.343), (4, 2.569), (5, 2.728)):
        assert nemenyi_cd(10, k) == pytest.approx(q * np.sqrt(k * (k + 1) / 60), abs=1e-3)


@pytest.mark.parametrize("seed", range(4))
def test_wilcoxon_agrees_with_scipys_exact_distribution(seed):
    s = _random_scores(seed, ties=False)
    for i, j in ((0, 1), (0, 2), (1, 2)):
        ours = wilcoxon_test(s[:, i], s[:, j])
        theirs = stats.wilcoxon(s[:, i], s[:, j], method="exact")
        assert ours == pytest.approx((theirs.statistic, theirs.pvalue), rel=1e-10)


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "arg"), [("table1", None), ("random", (0, 1))])
def test_wilcoxon_agrees_with_scipys_permutation_method(kind, arg, table1):
    # with ties, scipy's permutation method enumerates all 2**13 sign flips (exact)
    s = _scores(kind, arg, table1)
    for i, j in ((0, 1), (0, 2), (1, 2)):
        ours = wilcoxon_test(s[:, i], s[:, j])
        theirs = stats.wilcoxon(s[:, i], s[:, j], method=stats.PermutationMethod())
        assert ours == pytest.approx((theirs.statistic, theirs.pvalue), rel=1e-10)


def test_wilcoxon_normal_approximation_beyond_20():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=40), rng.normal(size=40) + 0.3
    ours = wilcoxon_test(a, b)
    theirs = stats.wilcoxon(a, b, method="approx", correction=False)
    assert ours[1] == pytest.approx(theirs.pvalue, rel=1e-10)


@pytest.mark.parametrize(("rope", "shift"), [(0.002, 0.0), (0.0, 0.0), (0.005, -0.004)])
def test_bayesian_signed_rank_agrees_with_baycomp(rope, shift, table1):
    a, b = table1[:, 0] + shift, table1[:, 2]
    ours = bayesian_signed_rank(a, b, rope=rope, n_samples=50_000, random_state=0)
    # baycomp's x and y are scores where higher is better: errors enter with a minus sign
    theirs = baycomp.SignedRankTest.probs(-a, -b, rope=rope, nsamples=50_000, random_state=1)
    if rope == 0:  # baycomp then returns (p_left, p_right)
        theirs = (theirs[0], 0.0, theirs[1])
    # two Monte Carlo estimates of the same probabilities: 4 SE of a difference at 50,000
    for o, t in zip(ours, theirs, strict=True):
        assert o == pytest.approx(t, abs=4 * np.sqrt(2 * 0.25 / 50_000) + 1e-12)


def test_bayesian_signed_rank_names_the_better_learner():
    a = np.linspace(0.1, 0.3, 12)
    p = bayesian_signed_rank(a, a + 0.05, rope=0.01, n_samples=5000, random_state=0)
    assert p[0] > 0.99
    p = bayesian_signed_rank(a, a + 0.001, rope=0.01, n_samples=5000, random_state=0)
    assert p[1] > 0.99


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: friedman_test(np.ones((5, 2))), "k >= 3"),
        (lambda: friedman_test([1.0, 2.0, 3.0]), "scores"),
        (lambda: wilcoxon_test([0.1, 0.2, 0.3], [0.1, 0.2]), "a and b|same length"),
        (lambda: bayesian_signed_rank([0.1, 0.2], [0.1, 0.3], rope=-1), "rope"),
        (lambda: bayesian_signed_rank([0.1, 0.2], [0.1, 0.3], prior_strength=0), "prior"),
        (lambda: nemenyi_test(np.ones((4, 3)), alpha=2), "alpha"),
    ],
)
def test_bad_arguments_are_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()
