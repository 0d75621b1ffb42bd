"""Chapter 8: cvbook.dependence (splitters, design effects) and cvbook.studies.dependent_data."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import ndtr
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.pipeline import make_pipeline

from cvbook.dependence import (
    BlockedKFold,
    ar1_design_effect,
    design_effect,
    effective_sample_size,
    intraclass_correlation,
    lag1_autocorrelation,
)
from cvbook.studies.dependent_data import (
    AR1Series,
    GroupedGaussians,
    cv_error,
    cv_mse,
    esl_study,
    esl_trial,
    groups_study,
    groups_trial,
    label_correlation,
    leakage_study,
    preprocessing_trial,
    target_encoding_trial,
    time_study,
    time_trial,
)

# --------------------------------------------------------------------------- BlockedKFold


def test_blocked_kfold_matches_a_hand_computation():
    """10 points, 3 folds (sizes 4, 3, 3), gap 2: folds worked out by hand."""
    folds = [(tr.tolist(), te.tolist()) for tr, te in BlockedKFold(3, gap=2).split(np.zeros(10))]
    assert folds == [
        ([6, 7, 8, 9], [0, 1, 2, 3]),
        ([0, 1, 9], [4, 5, 6]),
        ([0, 1, 2, 3, 4], [7, 8, 9]),
    ]


def test_blocked_kfold_without_gap_is_unshuffled_kfold():
    X = np.zeros((23, 2))
    ours = [(tr.tolist(), te.tolist()) for tr, te in BlockedKFold(5).split(X)]
    theirs = [(tr.tolist(), te.tolist()) for tr, te in KFold(5).split(X)]
    assert ours == theirs


@pytest.mark.parametrize("n, k, gap", [(50, 5, 0), (50, 5, 3), (31, 4, 2), (300, 5, 20)])
def test_blocked_kfold_leaves_the_gap_out_and_covers_every_point_once(n, k, gap):
    cv = BlockedKFold(k, gap=gap)
    assert cv.get_n_splits() == k
    tests = []
    index = np.arange(n)
    for train, test in cv.split(np.zeros(n)):
        assert np.all(np.diff(test) == 1)  # one contiguous block
        near = (index >= test[0] - gap) & (index <= test[-1] + gap)
        assert train.tolist() == index[~near].tolist()  # all but the block and its gaps
        tests.append(test)
    assert np.array_equal(np.sort(np.concatenate(tests)), np.arange(n))


def test_blocked_kfold_works_in_cross_val_score():
    X = np.arange(40.0)[:, None]
    y = np.sin(X[:, 0])
    scores = cross_val_score(KNeighborsRegressor(1), X, y, cv=BlockedKFold(4, gap=1))
    assert scores.shape == (4,)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_splits": 1}, "n_splits"),
        ({"n_splits": 2.5}, "n_splits"),
        ({"gap": -1}, "gap"),
        ({"gap": "3"}, "gap"),
    ],
)
def test_blocked_kfold_refuses_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        BlockedKFold(**kwargs)


def test_blocked_kfold_refuses_a_gap_that_leaves_no_training_point():
    with pytest.raises(ValueError, match="gap"):
        list(BlockedKFold(2, gap=10).split(np.zeros(10)))
    with pytest.raises(ValueError, match="n_splits"):
        list(BlockedKFold(5).split(np.zeros(3)))
    with pytest.raises(TypeError, match="X"):
        list(BlockedKFold(5).split(None))


# --------------------------------------------------------------------------- sample sizes


def test_design_effects_and_effective_sample_size():
    assert design_effect(10, 0.0) == 1.0
    assert design_effect(10, 1.0) == 10.0
    assert design_effect(10, 0.5) == pytest.approx(5.5)
    assert ar1_design_effect(0.0) == 1.0
    assert ar1_design_effect(0.9) == pytest.approx(19.0)
    assert effective_sample_size(300, ar1_design_effect(0.5)) == pytest.approx(100.0)


def test_ar1_design_effect_matches_the_variance_of_a_simulated_mean():
    """The variance of the mean of a long AR(1) series is deff / n (Monte Carlo, 2000 series)."""
    rng = np.random.default_rng(1)
    phi, n, reps = 0.8, 400, 2000
    z = rng.standard_normal((reps, n)) * np.sqrt(1 - phi**2)
    z[:, 0] = rng.standard_normal(reps)
    for t in range(1, n):
        z[:, t] += phi * z[:, t - 1]
    ratio = z.mean(axis=1).var() * n
    # finite n: the exact factor is a little below (1+phi)/(1-phi) = 9
    assert ratio == pytest.approx(ar1_design_effect(phi), rel=0.1)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: design_effect(0.5, 0.1), "cluster_size"),
        (lambda: design_effect(10, 1.5), "icc"),
        (lambda: design_effect(10, "0.5"), "icc"),
        (lambda: ar1_design_effect(1.0), "phi"),
        (lambda: effective_sample_size(0, 2.0), "n"),
        (lambda: effective_sample_size(10, 0.0), "deff"),
        (lambda: intraclass_correlation([1.0, 2.0], [0]), "groups"),
        (lambda: intraclass_correlation([1.0, np.nan], [0, 1]), "values"),
        (lambda: intraclass_correlation([1.0, 2.0], [0, 1]), "groups"),
        (lambda: lag1_autocorrelation([1.0, 2.0]), "series"),
        (lambda: lag1_autocorrelation([1.0, 1.0, 1.0]), "series"),
    ],
)
def test_sample_size_helpers_refuse_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_intraclass_correlation_recovers_the_simulated_one():
    rng = np.random.default_rng(2)
    dist = GroupedGaussians(n_groups=400, group_size=5, icc=0.6)
    X, _, groups, *_ = dist.sample(rng)
    est = np.mean([intraclass_correlation(X[:, j], groups) for j in range(X.shape[1])])
    assert est == pytest.approx(0.6, abs=0.05)
    X0, _, g0, *_ = GroupedGaussians(n_groups=400, group_size=5, icc=0.0).sample(rng)
    assert intraclass_correlation(X0[:, 0], g0) == pytest.approx(0.0, abs=0.06)


def test_lag1_autocorrelation_recovers_phi():
    X, _ = AR1Series(n=20_000, phi=0.7).sample(np.random.default_rng(3))
    assert lag1_autocorrelation(X[:, 0]) == pytest.approx(0.7, abs=0.03)


# --------------------------------------------------------------------------- studies


def test_grouped_gaussians_have_the_stated_marginal():
    """Whatever icc, P(y=+1 | x) = Phi(1.5 x_1): checked on a bin of x_1."""
    rng = np.random.default_rng(4)
    dist = GroupedGaussians(n_groups=4000, group_size=5, icc=0.8)
    X, y, *_ = dist.sample(rng)
    assert X.std(axis=0) == pytest.approx(np.ones(5), abs=0.03)
    band = (X[:, 0] > 0.2) & (X[:, 0] < 0.4)
    expected = ndtr(1.5 * X[band, 0]).mean()
    assert np.mean(y[band] == 1) == pytest.approx(expected, abs=0.03)


def test_new_group_risk_of_a_constant_rule_is_exact():
    """A rule that always says +1 has risk P(y = -1) = 1/2 on new groups."""

    class Always:
        def predict(self, X):
            return np.ones(len(X), dtype=int)

    risk, se = GroupedGaussians(icc=0.5).risk_new_groups(Always(), np.random.default_rng(5), 20_000)
    assert risk == pytest.approx(0.5, abs=4 * se + 1e-3)


def test_group_trial_kfold_is_optimistic_for_new_groups_at_high_correlation():
    """A test that can fail: at icc = 0.9, shuffled K-fold is far below the new-group risk."""
    res = groups_study([0.9], 8, random_state=6, n_fresh=2000)[0.9]
    assert np.mean(res["kfold"] - res["risk_new"]) < -0.1
    assert np.mean(res["group"] - res["risk_same"]) > 0.1
    assert abs(np.mean(res["kfold"] - res["risk_same"])) < 0.05


def test_time_trial_shuffled_is_optimistic_for_the_future():
    res = time_study([0.95], 8, random_state=7, n_fresh=2000)[0.95]
    assert np.mean(res["shuffled"] - res["risk_future"]) < -0.05
    assert np.mean(res["shuffled"]) < np.mean(res["blocked_gap"])


def test_esl_trial_wrong_way_far_below_half_right_way_near_half():
    """A test that can fail: ESL's example at a smaller size (2000 predictors, 50 kept)."""
    res = esl_study(12, random_state=8, p=2000, k=50)
    assert res["wrong"].mean() < 0.25  # far below the true 1/2
    assert abs(res["right"].mean() - 0.5) < 0.12  # about 4 SE of a 12-run mean


def test_label_correlation_is_pearson_and_f_classif_ranks_by_its_absolute_value():
    rng = np.random.default_rng(9)
    X = rng.standard_normal((30, 40))
    y = rng.permutation(np.repeat([1, -1], 15))
    r = label_correlation(X, y)
    assert np.allclose(r, [np.corrcoef(X[:, j], y)[0, 1] for j in range(40)])
    top_abs = set(np.argsort(-np.abs(r))[:10])
    assert set(np.flatnonzero(SelectKBest(f_classif, k=10).fit(X, y).get_support())) == top_abs


def test_cv_error_and_cv_mse_agree_with_cross_val_score():
    rng = np.random.default_rng(10)
    X = rng.standard_normal((60, 30))
    y = rng.permutation(np.repeat([1, -1], 30))
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    pipe = make_pipeline(SelectKBest(label_correlation, k=5), KNeighborsClassifier(1))
    assert cv_error(pipe, X, y, cv) == pytest.approx(1 - cross_val_score(pipe, X, y, cv=cv).mean())
    t = rng.standard_normal(60)
    mse = -cross_val_score(
        KNeighborsRegressor(3), X, t, cv=KFold(4), scoring="neg_mean_squared_error"
    )
    assert cv_mse(KNeighborsRegressor(3), X, t, KFold(4)) == pytest.approx(mse.mean())


def test_leakage_trials_show_small_and_large_leaks():
    pre = leakage_study(preprocessing_trial, 6, random_state=11, n_fresh=500)
    assert abs(np.mean(pre["wrong"] - pre["right"])) < 0.05
    enc = leakage_study(target_encoding_trial, 6, random_state=12)
    assert np.mean(enc["wrong"]) < 0.4 < np.mean(enc["right"])


def test_studies_do_not_depend_on_n_jobs():
    a = groups_study([0.0, 0.5], 2, random_state=13, n_jobs=1, n_fresh=300)
    b = groups_study([0.0, 0.5], 2, random_state=13, n_jobs=2, n_fresh=300)
    assert all(np.array_equal(a[r][k], b[r][k]) for r in a for k in a[r])
    assert not np.array_equal(a[0.0]["kfold"], a[0.5]["kfold"])  # each icc its own draws


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: GroupedGaussians(icc=1.0), "icc"),
        (lambda: GroupedGaussians(icc=-0.1), "icc"),
        (lambda: GroupedGaussians(n_groups=1), "n_groups"),
        (lambda: AR1Series(phi=1.0), "phi"),
        (lambda: AR1Series(n=1), "n"),
        (lambda: groups_trial(np.random.default_rng(0), n_splits=1), "n_splits"),
        (lambda: groups_trial(np.random.default_rng(0), n_fresh=0), "n_fresh"),
        (lambda: time_trial(np.random.default_rng(0), gap=-1), "gap"),
        (lambda: esl_trial(np.random.default_rng(0), k=0), "k"),
        (lambda: esl_trial(np.random.default_rng(0), selection="best"), "selection"),
        (lambda: esl_trial("rng"), "rng"),
        (lambda: preprocessing_trial(np.random.default_rng(0), missing=1.0), "missing"),
        (lambda: target_encoding_trial(np.random.default_rng(0), n_levels=1), "n_levels"),
        (lambda: groups_study([], 2, random_state=0), "icc"),
        (lambda: leakage_study(print, 2), "trial"),
    ],
)
def test_studies_refuse_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_lagged_trial_risk_is_the_innovation_variance_for_a_near_best_forecast():
    """The far-future risk of lagged_trial is exact given the input: least squares on 2,000
    points of a pure AR(1) (unit variance) is near phi * y_{t-1}, whose risk is 1 - phi**2."""
    from cvbook.studies.dependent_data import lagged_trial

    out = lagged_trial(np.random.default_rng(0), "ar1_ols", phi=0.9, n=2000, n_fresh=5000)
    assert 1 - 0.9**2 <= out["risk_future"] < 1 - 0.9**2 + 0.005
    with pytest.raises(ValueError, match="case must be one of"):
        lagged_trial(np.random.default_rng(0), "nope")


def test_lagged_5nn_shuffled_is_optimistic_where_ols_is_not():
    from cvbook.studies.dependent_data import lagged_study

    res = lagged_study(["ar1_5nn", "ar1_ols"], 30, random_state=1, n_fresh=2000)
    knn = res["ar1_5nn"]["shuffled"] - res["ar1_5nn"]["risk_future"]
    ols = res["ar1_ols"]["shuffled"] - res["ar1_ols"]["risk_future"]
    assert knn.mean() + 3 * knn.std(ddof=1) / np.sqrt(30) < 0
    assert abs(ols.mean()) < 0.01


def test_time_trial_scores_time_series_split_against_its_own_fold_models():
    out = time_trial(np.random.default_rng(0), phi=0.0, n_fresh=2000)
    # fold models train on 50 to 250 points: worse on the far future than the 300-point model
    assert out["forward_target"] > out["risk_future"]
    assert out["forward_gap_target"] > out["risk_future"]


def test_groups_trial_interval_coverage_and_loss_icc():
    outs = [groups_trial(np.random.default_rng(i), icc=0.9, n_fresh=2000) for i in range(6)]
    for o in outs:
        assert o["covers_naive"] in (0.0, 1.0) and o["covers_group"] in (0.0, 1.0)
        assert 0 < o["width_naive"] < 1 and o["width_group"] > 0
    # the losses cluster far less than the features (icc 0.9)
    assert np.mean([o["loss_icc"] for o in outs]) < 0.6


def test_label_icc_sets_the_noise_apart_and_keeps_the_marginal():
    from cvbook.studies.dependent_data import GroupedGaussians

    dist = GroupedGaussians(n_groups=400, group_size=5, icc=0.9, label_icc=0.0)
    assert dist.noise_icc == 0.0 and GroupedGaussians(icc=0.3).noise_icc == 0.3
    X, y, *_ = dist.sample(np.random.default_rng(0))
    assert abs(X.std() - 1) < 0.1 and abs(np.mean(y == 1) - 0.5) < 0.05
    with pytest.raises(ValueError, match="label_icc"):
        GroupedGaussians(label_icc=1.0)


def test_oversampling_before_the_split_leaks():
    from cvbook.studies.dependent_data import leakage_study, oversampling_trial

    res = leakage_study(oversampling_trial, 12, random_state=0)
    assert res["wrong"].mean() < 0.4 < res["right"].mean()


def test_records_round_trip_and_name_a_bad_file(tmp_path):
    from cvbook.studies.dependent_data import read_record, write_record

    values = {"a": np.array([0.1, 1 / 3]), "b": np.array([2.0, -1.0])}
    write_record(tmp_path / "r.csv.gz", values, {"study": "x"})
    back = read_record(tmp_path / "r.csv.gz")
    assert all(np.array_equal(back[k], values[k]) for k in values)
    (tmp_path / "bad.csv.gz").write_text("no")
    with pytest.raises(ValueError, match=r"bad\.csv\.gz' must be a whole gzip file"):
        read_record(tmp_path / "bad.csv.gz")
    with pytest.raises(FileNotFoundError, match="missing"):
        read_record(tmp_path / "missing.csv.gz")


@pytest.mark.parametrize(
    "argv, option",
    [
        (["--out", "{dir}/d", "--phi", "1"], "--phi"),
        (["--out", "{dir}/d", "--n-repeats", "2"], "--n-repeats"),
        (["--out", "{dir}/d", "--seed", "-1"], "--seed"),
        (["--out", "{dir}/d", "--n-jobs", "0"], "--n-jobs"),
        (["--out", " "], "--out"),
        (["--out", "{file}"], "--out"),
        (["--out", "{file}/d"], "--out"),
    ],
)
def test_dependence_runner_names_a_bad_option(tmp_path, capsys, argv, option):
    from cvbook.runs.dependence import main

    (tmp_path / "f").write_text("x")
    argv = [a.format(dir=tmp_path, file=tmp_path / "f") for a in argv]
    with pytest.raises(SystemExit) as err:
        main(argv)
    assert err.value.code == 2 and option in capsys.readouterr().err


def test_dependence_runner_writes_records_with_provenance(tmp_path):
    import json

    from cvbook.records import read_table
    from cvbook.runs.dependence import main
    from cvbook.studies.dependent_data import read_record

    assert main(["--out", str(tmp_path), "--phi", "0.5", "--n-repeats", "3"]) == 0
    assert read_record(tmp_path / "time_phi0.5.csv.gz")["forward_target"].shape == (3,)
    assert read_table(tmp_path / "time_phi0.5.csv.gz").meta == {"study": "time", "phi": 0.5}
    assert read_table(tmp_path / "lagged_phi0.5_ar1_ols.csv.gz").meta["case"] == "ar1_ols"
    prov = json.loads((tmp_path / "provenance.json").read_text())
    assert prov["parameters"]["n_repeats"] == 3 and "commit" in prov
