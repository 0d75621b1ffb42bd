"""Intervals for the risk and tests comparing learners (chapter 7): formulas, references, input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.base import clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

from cvbook import compare, intervals
from cvbook.bounds import clopper_pearson_interval
from cvbook.datasets import LinearGaussianRegression, TwoGaussians, Twonorm
from cvbook.intervals import (
    RiskInterval,
    conservative_z_from_means,
    conservative_z_interval,
    corrected_t_from_split_means,
    corrected_t_interval,
    cv_wald_interval,
    holdout_interval,
    nested_cv_from_losses,
    nested_cv_interval,
)
from cvbook.validation import check_rng

Z95 = 1.959963984540054


@pytest.fixture(scope="module")
def data():
    return Twonorm().sample(60, random_state=3)


# --------------------------------------------------------------------------- #
# Formulas against hand computations on tiny cases


def test_holdout_matches_hand_computation(data):
    X, y = data
    est = LinearDiscriminantAnalysis()
    cp = holdout_interval(est, X, y, test_size=12, random_state=7)
    wald = holdout_interval(est, X, y, test_size=12, method="wald", random_state=7)
    # the same split, drawn as the function draws it
    ((tr, te),) = intervals.random_splits(y, 1, 12, "zero_one", check_rng(7))
    losses = (clone(est).fit(X[tr], y[tr]).predict(X[te]) != y[te]).astype(float)
    k = int(losses.sum())
    assert cp.estimate == wald.estimate == k / 12
    assert (cp.lower, cp.upper) == clopper_pearson_interval(k, 12, 0.05)
    p = k / 12
    sd = math.sqrt(p * (1 - p) * 12 / 11)  # sample sd of 0/1 losses, ddof=1
    assert wald.upper == pytest.approx(p + Z95 * sd / math.sqrt(12), abs=1e-12)
    assert (cp.target, cp.train_size, cp.n_fits) == ("conditional", 48, 1)


def test_cv_wald_matches_hand_computation(data):
    X, y = data
    est = LinearDiscriminantAnalysis()
    r = cv_wald_interval(est, X, y, n_splits=4, random_state=11)
    a = cv_wald_interval(est, X, y, n_splits=4, variance="all_pairs", random_state=11)
    folds = intervals.kfold_splits(y, 4, "zero_one", check_rng(11))
    parts = [
        (clone(est).fit(X[tr], y[tr]).predict(X[te]) != y[te]).astype(float) for tr, te in folds
    ]
    allv = np.concatenate(parts)
    mean = allv.sum() / 60
    within = sum(((p - p.mean()) ** 2).sum() / (len(p) - 1) for p in parts) / 4
    pooled = ((allv - mean) ** 2).sum() / 60
    assert r.estimate == pytest.approx(mean)
    assert r.upper - r.estimate == pytest.approx(Z95 * math.sqrt(within / 60))
    assert a.upper - a.estimate == pytest.approx(Z95 * math.sqrt(pooled / 60))
    assert r.n_fits == 4 and r.train_size == 45


def test_corrected_t_by_hand():
    # J = 3 means 0.1, 0.2, 0.3: S^2 = 0.01; n2/n1 = 10/90; t_{2, 0.975} = 4.302653
    est, lo, hi = corrected_t_from_split_means([0.1, 0.2, 0.3], 90, 10, alpha=0.05)
    half = 4.302652729911275 * math.sqrt((1 / 3 + 10 / 90) * 0.01)
    assert est == pytest.approx(0.2)
    assert (lo, hi) == pytest.approx((0.2 - half, 0.2 + half))


def test_corrected_t_interval_uses_its_splits(data):
    X, y = data
    est = GaussianNB()
    r = corrected_t_interval(est, X, y, n_splits=4, test_size=6, random_state=5)
    splits = intervals.random_splits(y, 4, 6, "zero_one", check_rng(5))
    mus = [np.mean(clone(est).fit(X[tr], y[tr]).predict(X[te]) != y[te]) for tr, te in splits]
    s2 = np.var(mus, ddof=1)
    half = stats.t.ppf(0.975, 3) * math.sqrt((1 / 4 + 6 / 54) * s2)
    assert r.estimate == pytest.approx(np.mean(mus))
    assert r.upper == pytest.approx(np.mean(mus) + half)
    assert (r.target, r.n_fits, r.train_size) == ("expected", 4, 54)


def test_conservative_z_by_hand():
    # sigma^2 = ((0.1 - 0.3)^2 + (0.2 - 0.2)^2) / (2 * 2) = 0.01
    est, lo, hi = conservative_z_from_means([0.1, 0.2, 0.3], [[0.1, 0.3], [0.2, 0.2]], 0.05)
    assert est == pytest.approx(0.2)
    assert hi - est == pytest.approx(Z95 * 0.1)
    assert est - lo == pytest.approx(Z95 * 0.1)


def test_conservative_z_halves_are_disjoint_and_balanced():
    y = np.r_[np.full(31, -1), np.full(29, 1)]
    perm = intervals._half_permutation(y, "zero_one", np.random.default_rng(0))
    assert sorted(perm.tolist()) == list(range(60))
    first, second = perm[:30], perm[30:60]
    assert not set(first) & set(second)
    assert abs(np.sum(y[first] == 1) - np.sum(y[second] == 1)) <= 1
    r = conservative_z_interval(
        GaussianNB(),
        *Twonorm().sample(60, random_state=0),
        n_splits=3,
        n_pairs=2,
        test_size=6,
        random_state=0,
    )
    assert r.n_fits == 3 * (1 + 2 * 2)


def test_nested_cv_formula_by_hand():
    a, b = [0.5, -0.5], [0.001, 0.001]
    inner, outer = [0.0, 1.0, 0.0, 1.0], [0.0, 1.0, 1.0, 1.0]
    est, _, hi, infl = nested_cv_from_losses(a, b, inner, outer, n=4, n_splits=2, alpha=0.05)
    mse = (0.25 + 0.25) / 2 - 0.001
    sd = np.std(inner, ddof=1)
    n_sub = 2  # floor(4 * 1 / 2)
    assert infl == pytest.approx(math.sqrt(mse) / (sd / math.sqrt(n_sub)))
    bias = (0.5 - 0.75) * (1 + 0.0**1.5)  # K = 2: ((K - 2) / K)^1.5 = 0
    assert est == pytest.approx(0.5 - bias)
    assert hi - est == pytest.approx(Z95 * sd / math.sqrt(4) * infl)
    # the inflation is clipped to [1, sqrt(K)]
    assert nested_cv_from_losses([0.0], [1.0], inner, outer, 4, 2)[3] == 1.0
    assert nested_cv_from_losses([9.0], [0.0], inner, outer, 4, 2)[3] == pytest.approx(math.sqrt(2))
    # K = 5: the bias factor is 1 + (3/5)^1.5
    est5 = nested_cv_from_losses([0.1], [0.0], inner, outer, 5, 5)[0]  # n >= K
    assert est5 == pytest.approx(0.5 - (0.5 - 0.75) * (1 + 0.6**1.5))
    assert nested_cv_from_losses([0.1], [0.0], inner, outer, 5, 5, bias_correction=False)[
        0
    ] == pytest.approx(0.5)


def test_nested_repetition_is_the_authors_algorithm(data):
    """One repetition against a literal transcription of Bates et al.'s helper."""
    X, y = data
    est = LinearDiscriminantAnalysis()
    K = 3
    out = intervals._nested_repetition(np.random.default_rng(4), est, X, y, K, "zero_one")
    folds = [te for _, te in intervals.kfold_splits(y, K, "zero_one", np.random.default_rng(4))]

    def errors(train, test):
        return (clone(est).fit(X[train], y[train]).predict(X[test]) != y[test]).astype(float)

    every = np.arange(len(y))
    for f1 in range(K):
        e_out = errors(np.setdiff1d(every, folds[f1]), folds[f1])
        e_in = []
        for f2 in range(K):
            if f2 != f1:  # model without folds f1 and f2, scored on f2
                e_in.append(errors(np.setdiff1d(every, np.r_[folds[f1], folds[f2]]), folds[f2]))
        e_in = np.concatenate(e_in)
        assert out["a"][f1] == pytest.approx(e_in.mean() - e_out.mean())
        assert out["b"][f1] == pytest.approx(np.var(e_out, ddof=1) / len(folds[f1]))
    assert len(out["inner"]) == (K - 1) * len(y) and len(out["outer"]) == len(y)


def test_nested_cv_cost_and_target(data):
    r = nested_cv_interval(
        LinearDiscriminantAnalysis(), *data, n_splits=4, n_repeats=3, random_state=0
    )
    assert r.n_fits == 3 * (4 * 3 // 2 + 4)
    assert (r.method, r.target, r.train_size) == ("nested_cv", "conditional", 60)
    assert r.lower < r.estimate < r.upper


def test_squared_loss_regression():
    dist = LinearGaussianRegression()
    X, y = dist.sample(120, random_state=0)
    for fn in (cv_wald_interval, corrected_t_interval, nested_cv_interval):
        r = fn(LinearRegression(), X, y, loss="squared", random_state=0)
        assert r.lower < r.estimate < r.upper and r.estimate > 0
    r = holdout_interval(LinearRegression(), X, y, loss="squared", method="wald", random_state=0)
    assert r.method == "holdout_wald"


# --------------------------------------------------------------------------- #
# Comparing two learners: against statsmodels, scipy and mlxtend


def test_mcnemar_against_statsmodels_and_scipy():
    contingency = pytest.importorskip("statsmodels.stats.contingency_tables")
    rng = np.random.default_rng(0)
    for _ in range(20):
        y = rng.integers(0, 2, 40)
        pa = np.where(rng.random(40) < 0.3, 1 - y, y)
        pb = np.where(rng.random(40) < 0.2, 1 - y, y)
        r = compare.mcnemar_test(y, pa, pb)
        ra, rb = pa == y, pb == y
        table = [[np.sum(ra & rb), np.sum(ra & ~rb)], [np.sum(~ra & rb), np.sum(~ra & ~rb)]]
        assert r.p_value == pytest.approx(contingency.mcnemar(table, exact=True).pvalue)
        b, c = int(np.sum(~ra & rb)), int(np.sum(ra & ~rb))
        if b + c:
            assert r.p_value == pytest.approx(stats.binomtest(b, b + c, 0.5).pvalue)
    assert compare.mcnemar_test([1, 0], [1, 0], [1, 0]).p_value == 1.0


def _mlxtend_halves(n, seed):
    """The halvings mlxtend's 5x2cv functions draw for ``random_seed=seed``."""
    rng = np.random.RandomState(seed)
    out = []
    for _ in range(5):
        idx1, idx2 = train_test_split(
            np.arange(n), test_size=0.5, random_state=rng.randint(low=0, high=32767)
        )
        out.append((idx1, idx2))
    return out


def test_5x2cv_against_mlxtend():
    evaluate = pytest.importorskip("mlxtend.evaluate")
    X, y = TwoGaussians(dim=3).sample(80, random_state=1)
    a, b = LinearDiscriminantAnalysis(), GaussianNB()
    halves = _mlxtend_halves(len(y), 9)
    t = compare.paired_ttest_5x2cv(a, b, X, y, splits=halves)
    f = compare.combined_ftest_5x2cv(a, b, X, y, splits=halves)
    t_ref, p_ref = evaluate.paired_ttest_5x2cv(clone(a), clone(b), X, y, random_seed=9)
    f_ref, pf_ref = evaluate.combined_ftest_5x2cv(clone(a), clone(b), X, y, random_seed=9)
    # mlxtend scores accuracy, we score the 0-1 loss: the differences change sign
    assert t.statistic == pytest.approx(-t_ref) and t.p_value == pytest.approx(p_ref)
    assert f.statistic == pytest.approx(f_ref) and f.p_value == pytest.approx(pf_ref)


def test_5x2cv_formulas_by_hand():
    p = np.array([[0.10, 0.00], [0.05, 0.05], [0.02, -0.02], [0.0, 0.1], [0.03, 0.01]])
    pbar = p.mean(axis=1)
    s2 = (p[:, 0] - pbar) ** 2 + (p[:, 1] - pbar) ** 2
    t_hand = 0.10 / math.sqrt(s2.sum() / 5)
    f_hand = (p**2).sum() / (2 * s2.sum())
    t, pt = compare.ttest_5x2cv_from_differences(p)
    f, pf = compare.ftest_5x2cv_from_differences(p)
    assert t == pytest.approx(t_hand) and pt == pytest.approx(2 * stats.t.sf(t_hand, 5))
    assert f == pytest.approx(f_hand) and pf == pytest.approx(stats.f.sf(f_hand, 10, 5))


def test_corrected_paired_ttest_by_hand(data):
    X, y = data
    a, b = LinearDiscriminantAnalysis(), GaussianNB()
    r = compare.corrected_paired_ttest(a, b, X, y, n_splits=5, test_size=6, random_state=2)
    splits = intervals.random_splits(y, 5, 6, "zero_one", check_rng(2))
    d = [
        np.mean(clone(a).fit(X[tr], y[tr]).predict(X[te]) != y[te])
        - np.mean(clone(b).fit(X[tr], y[tr]).predict(X[te]) != y[te])
        for tr, te in splits
    ]
    se = math.sqrt((1 / 5 + 6 / 54) * np.var(d, ddof=1))
    assert r.difference == pytest.approx(np.mean(d))
    if se > 0:
        assert r.statistic == pytest.approx(np.mean(d) / se)
    assert (r.df, r.n_fits, r.null) == ((4.0,), 10, "expected")


# --------------------------------------------------------------------------- #
# Bad input: a named ValueError


@pytest.mark.parametrize("alpha", [0, 1, 1.5, -0.1, float("nan")])
def test_alpha_outside_unit_interval(data, alpha):
    for fn in (
        holdout_interval,
        cv_wald_interval,
        corrected_t_interval,
        conservative_z_interval,
        nested_cv_interval,
    ):
        with pytest.raises(ValueError, match="alpha"):
            fn(LinearDiscriminantAnalysis(), *data, alpha=alpha)


def test_too_few_splits(data):
    est = LinearDiscriminantAnalysis()
    with pytest.raises(ValueError, match="n_splits"):
        cv_wald_interval(est, *data, n_splits=1)
    with pytest.raises(ValueError, match="n_splits"):
        corrected_t_interval(est, *data, n_splits=1)
    with pytest.raises(ValueError, match="n_splits"):
        nested_cv_interval(est, *data, n_splits=2)
    with pytest.raises(ValueError, match="n_pairs"):
        conservative_z_interval(est, *data, n_pairs=0)
    with pytest.raises(ValueError, match="splits"):
        compare.paired_ttest_5x2cv(est, est, *data, splits=_mlxtend_halves(60, 0)[:4])
    with pytest.raises(ValueError, match="split_means"):
        corrected_t_from_split_means([0.1], 90, 10)


def test_mismatched_predictions_and_regression_loss_for_mcnemar(data):
    with pytest.raises(ValueError, match="same length"):
        compare.mcnemar_test([0, 1, 1], [0, 1], [0, 1, 1])
    with pytest.raises(ValueError, match=r"loss must be one of \['zero_one'\]"):
        compare.mcnemar_test([0.5, 1.0], [0.4, 1.0], [0.5, 0.9], loss="squared")
    with pytest.raises(ValueError, match=r"loss must be one of \['zero_one'\]"):
        compare.mcnemar_holdout(LinearRegression(), LinearRegression(), *data, loss="squared")


def test_other_bad_input(data):
    X, y = data
    est = LinearDiscriminantAnalysis()
    with pytest.raises(ValueError, match="loss"):
        cv_wald_interval(est, X, y, loss="hinge")
    with pytest.raises(ValueError, match="clopper_pearson"):
        holdout_interval(LinearRegression(), X, y.astype(float), loss="squared")
    with pytest.raises(ValueError, match="test_size"):
        holdout_interval(est, X, y, test_size=1.5)
    with pytest.raises(ValueError, match="same length"):
        cv_wald_interval(est, X, y[:-1])
    with pytest.raises(ValueError, match="X"):
        cv_wald_interval(est, X[:, 0], y)
    with pytest.raises(ValueError, match="variance"):
        cv_wald_interval(est, X, y, variance="pooled")
    with pytest.raises(ValueError, match="target"):
        RiskInterval(0.1, 0.0, 0.2, "x", "marginal", 10, 1, 0.05)


# --------------------------------------------------------------------------- #
# Seeding: identical for any n_jobs, different for another seed


def test_identical_for_any_n_jobs(data):
    est = LinearDiscriminantAnalysis()
    for fn in (cv_wald_interval, corrected_t_interval, nested_cv_interval):
        assert fn(est, *data, random_state=3, n_jobs=1) == fn(est, *data, random_state=3, n_jobs=2)
    from cvbook.studies.interval_coverage import run_intervals

    kw = dict(
        n_values=[40],
        n_repeats=2,
        random_state=1,
        settings={
            "nested_cv": {"n_splits": 3, "n_repeats": 1},
            "conservative_z": {"n_splits": 2, "n_pairs": 2},
        },
    )
    one, two = run_intervals(n_jobs=1, **kw), run_intervals(n_jobs=2, **kw)
    for key in one:
        assert np.array_equal(one[key], two[key]), key


def test_seed_changes_the_splits(data):
    est = LinearDiscriminantAnalysis()
    a = [nested_cv_interval(est, *data, n_repeats=2, random_state=s).estimate for s in range(4)]
    assert len(set(a)) > 1


def test_holdout_cp_covers_its_conditional_target():
    """Exact CP on a linear rule with exact risk: coverage >= 1 - alpha - 3 SE."""
    from cvbook.datasets import true_risk

    dist = TwoGaussians(separation=2.0, dim=3)
    alpha, reps = 0.2, 300
    rng = np.random.default_rng(0)
    hits = 0
    for _ in range(reps):
        X, y = dist.sample(60, random_state=int(rng.integers(2**31 - 1)))
        seed = int(rng.integers(2**31 - 1))
        r = holdout_interval(
            LinearDiscriminantAnalysis(), X, y, test_size=30, alpha=alpha, random_state=seed
        )
        ((tr, _),) = intervals.random_splits(y, 1, 30, "zero_one", check_rng(seed))
        hits += r.covers(true_risk(LinearDiscriminantAnalysis().fit(X[tr], y[tr]), dist))
    assert hits / reps >= 1 - alpha - 3 * math.sqrt(alpha * (1 - alpha) / reps)


def test_dummy_learner_difference_is_detected():
    X, y = Twonorm().sample(100, random_state=0)
    r = compare.corrected_paired_ttest(
        LinearDiscriminantAnalysis(), DummyClassifier(), X, y, random_state=0
    )
    assert r.difference < -0.3 and r.rejects(0.01)


# --------------------------------------------------------------------------- #
# The committed long run: present, stamped, and still saying what chapter 7 says


@pytest.fixture(scope="module")
def committed():
    from cvbook.book import results_path
    from cvbook.runs.intervals import read_interval_record

    cov, cov_meta = read_interval_record(results_path("intervals", "coverage.json").with_suffix(""))
    cmp_, cmp_meta = read_interval_record(
        results_path("intervals", "comparison.json").with_suffix("")
    )
    return cov, cov_meta, cmp_, cmp_meta


def test_committed_run_is_stamped(committed):
    from cvbook.runs.intervals import LONG_RUN

    cov, meta, cmp_, _ = committed
    prov = meta["provenance"]
    assert len(prov["commit"]) == 40 and prov["versions"]["scikit-learn"]
    assert prov["wall_time_s"] > 0 and prov["cpu_count"] >= 1
    plan = prov["parameters"]["plan"]
    assert set(plan["coverage"]) == set(LONG_RUN["coverage"])
    for design, block in plan["coverage"].items():
        dist, learner = design.split("/")
        sel = (cov["distribution"] == dist) & (cov["learner"] == learner)
        assert sorted(set(cov["n"][sel].tolist())) == sorted(block["n_values"])
        assert sel.sum() == block["n_repeats"] * len(block["n_values"]) * 6
    assert {50, 1000} <= set(cov["n"].tolist())
    assert set(cov["learner"].tolist()) == {"lda", "logreg", "svm"}
    assert len(cmp_["n"]) == 2 * 4 * plan["comparison"]["n_repeats"] * len(
        plan["comparison"]["n_values"]
    )


def _cp_lower(hits):
    return clopper_pearson_interval(int(np.sum(hits)), len(hits), 0.05)[0]


def test_committed_run_backs_the_chapter_claims(committed):
    from cvbook.stats import paired_difference, paired_variance_test
    from cvbook.studies.interval_coverage import coverage_hits
    from cvbook.studies.learner_comparison import rejections

    cov, _, cmp_, _ = committed
    main = {"distribution": "twogaussians", "learner": "lda"}
    # the hold-out CP interval covers its model's risk; nested CV, the corrected t and the
    # conservative Z cover L(f_S) at about their level
    for method in ("holdout_cp", "nested_cv", "corrected_t", "conservative_z"):
        assert _cp_lower(coverage_hits(cov, method, "conditional", **main)) >= 0.90, method
    # nested CV covers L(f_S) more often than the naive K-fold Wald interval, paired
    d, se, _ = paired_difference(
        coverage_hits(cov, "nested_cv", "conditional", **main),
        coverage_hits(cov, "cv_wald", "conditional", **main),
    )
    assert d / se >= 4
    # at every size, the CV estimate varies more over data sets than L(f_S) (paired test)
    for m in sorted(set(cov["n"][cov["distribution"] == "twogaussians"].tolist())):
        sel = (
            (cov["method"] == "cv_wald")
            & (cov["distribution"] == "twogaussians")
            & (cov["learner"] == "lda")
            & (cov["n"] == m)
        )
        assert paired_variance_test(cov["estimate"][sel], cov["risk_full"][sel])[1] >= 4, m
    # the conservative Z is wider than the corrected t, on the same data sets
    width = {
        m: cov["upper"][cov["method"] == m] - cov["lower"][cov["method"] == m]
        for m in ("conservative_z", "corrected_t")
    }
    d, se, _ = paired_difference(width["conservative_z"], width["corrected_t"])
    assert d / se >= 4
    # each method against its own target: the corrected t and the conservative Z cover Err at
    # their training size (0.9 m) at about their level; every record carries the new targets
    for method in ("corrected_t", "conservative_z"):
        assert _cp_lower(coverage_hits(cov, method, "own", **main)) >= 0.90, method
    assert np.isfinite(cov["risk_kfold"]).all() and np.isfinite(cov["risk_sub"]).all()
    assert (cov["n_sub"] == cov["n"] - np.round(0.1 * cov["n"]).astype(int)).all()
    # comparisons: the three tests of the learners keep their level under the null (McNemar's
    # rejection rate there, not a type-I error, also stays below 12 %); the corrected t has
    # more power
    assert (
        cmp_["n_train"][cmp_["test"] == "ttest_5x2cv"]
        == cmp_["n"][cmp_["test"] == "ttest_5x2cv"] // 2
    ).all()
    for test in ("ttest_5x2cv", "ftest_5x2cv", "mcnemar", "corrected_paired_t"):
        for m in set(cmp_["n"].tolist()):
            hits = rejections(cmp_, test, case="null", n=m)
            assert clopper_pearson_interval(int(hits.sum()), hits.size, 0.05)[1] < 0.12
    m = max(cmp_["n"].tolist())
    ct = rejections(cmp_, "corrected_paired_t", case="difference", n=m)
    for other in ("ttest_5x2cv", "mcnemar"):
        d, se, _ = paired_difference(ct, rejections(cmp_, other, case="difference", n=m))
        assert d / se >= 4, other


def test_committed_learning_curve_backs_the_bias_factor_paragraph():
    from cvbook.book import results_path
    from cvbook.runs.intervals import LEARNING_CURVE, read_interval_record
    from cvbook.studies.nested_cv_bias import bias_factor

    rec, meta = read_interval_record(
        results_path("intervals", "learning_curve.json").with_suffix("")
    )
    prov = meta["provenance"]
    assert len(prov["commit"]) == 40 and prov["parameters"]["plan"] == LEARNING_CURVE
    assert sorted(set(rec["n"].tolist())) == LEARNING_CURVE["n_values"]
    # at one size a larger training set never hurts on average: the curve falls
    for n in LEARNING_CURVE["n_values"]:
        sel = rec["n"] == n
        assert rec["risk_inner"][sel].mean() > rec["risk_outer"][sel].mean()
        assert rec["risk_outer"][sel].mean() > rec["risk_full"][sel].mean()
    K = LEARNING_CURVE["n_splits"]
    need = bias_factor(rec)
    assert (need["factor"] - (1 + ((K - 2) / K) ** 1.5)) / need["se"] >= 4


def test_own_target_and_bias_factor_by_hand():
    from cvbook.studies.interval_coverage import own_target
    from cvbook.studies.nested_cv_bias import bias_factor

    rec = {
        "distribution": np.array(["d"] * 4),
        "learner": np.array(["l"] * 4),
        "n": np.array([50] * 4),
        "method": np.array(["cv_wald", "corrected_t", "corrected_t", "nested_cv"]),
        "risk": np.array([0.1, 0.2, 0.3, 0.4]),
        "risk_kfold": np.array([0.15, 0.25, 0.35, 0.45]),
        "risk_sub": np.array([0.5, 0.6, 0.8, 0.9]),
    }
    assert own_target(rec).tolist() == [0.15, 0.7, 0.7, 0.4]
    with pytest.raises(ValueError, match="risk_kfold"):
        own_target({k: v for k, v in rec.items() if k != "risk_kfold"})
    with pytest.raises(ValueError, match="lack the columns"):
        own_target({k: v for k, v in rec.items() if k != "method"})
    # a 1/n learning curve gives 1 + (K - 2) / K exactly: K = 5, sizes 30, 40, 50
    curve = {
        "n": np.array([50, 50]),
        "risk_inner": 0.1 + np.array([1.0, 2.0]) / 30,
        "risk_outer": 0.1 + np.array([1.0, 2.0]) / 40,
        "risk_full": 0.1 + np.array([1.0, 2.0]) / 50,
    }
    assert bias_factor(curve)["factor"] == pytest.approx(1.6)
    with pytest.raises(ValueError, match="at least 2 records"):
        bias_factor(curve, n=60)
    with pytest.raises(ValueError, match="unknown column 'm'"):
        bias_factor(curve, m=50)


def test_kfold_splits_are_the_naive_intervals_folds(data):
    """The study refits the naive interval's fold models from kfold_splits and its seed."""
    X, y = data
    est = LinearDiscriminantAnalysis()
    r = cv_wald_interval(est, X, y, n_splits=4, random_state=11)
    folds = intervals.kfold_splits(y, 4, "zero_one", 11)
    losses = np.concatenate(
        [(clone(est).fit(X[tr], y[tr]).predict(X[te]) != y[te]) for tr, te in folds]
    )
    assert r.estimate == pytest.approx(losses.mean())
    for bad, match in (
        ({"n_splits": 1}, "n_splits must be >= 2"),
        ({"loss": "hinge"}, "loss"),
        ({"y": np.zeros((3, 2))}, "y must be one-dimensional"),
        ({"y": [0.5, 1.5, 2.5, 3.5]}, "class labels"),
        ({"y": [0, 1, np.nan, 1]}, "finite"),
    ):
        kw = {"y": y, "n_splits": 3, **bad}
        with pytest.raises(ValueError, match=match):
            intervals.kfold_splits(**kw)
