"""Coverage study: honest records, valid hold-out bounds, seeded and checked."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from cvbook import coverage
from cvbook.bounds import clopper_pearson_upper
from cvbook.ckcv import CompleteKCV
from cvbook.coverage import (METHODS, binomial_se, coverage_trial, format_table, load_results,
                             make_distribution, run_coverage, save_results, summarize, true_risk)
from cvbook.datasets import TwoGaussians, Twonorm, monte_carlo_risk


@pytest.fixture(scope="module")
def small_run():
    return run_coverage(n_values=[60], k_values=[3, 5], delta_values=[0.05, 0.3],
                        n_repeats=6, tune_k=True, random_state=1, n_jobs=1)


def test_records_cover_every_method_and_setting(small_run):
    assert set(small_run["method"]) == set(METHODS)
    s = summarize(small_run)
    groups = {(r["method"], r["k"], r["delta"]) for r in s}
    # C-KCV also at k* (recorded as k = 0); the others at each k
    assert ("ckcv", 0, 0.05) in groups and ("ckcv_refit", 0, 0.3) in groups
    assert ("holdout", 3, 0.05) in groups and ("kfold_2std", 5, 0.3) in groups
    assert all(r["n_repeats"] == 6 for r in s)
    assert np.all((small_run["risk"] > 0) & (small_run["risk"] < 1))


def test_identical_for_any_n_jobs():
    kw = dict(n_values=[50], k_values=[5], delta_values=[0.1], n_repeats=4, random_state=3)
    a, b = run_coverage(n_jobs=1, **kw), run_coverage(n_jobs=2, **kw)
    for key in a:
        assert np.array_equal(a[key], b[key]), key


def test_seed_changes_results():
    kw = dict(n_values=[50], k_values=[5], delta_values=[0.1], n_repeats=3)
    a, b = run_coverage(random_state=0, **kw), run_coverage(random_state=1, **kw)
    assert not np.array_equal(a["estimate"], b["estimate"])


def test_holdout_bound_covers_at_nominal_level():
    # the exact CP bound on a linear rule with exact risk: coverage >= 1 - delta - 3 SE
    delta, reps = 0.2, 300
    dist = TwoGaussians(separation=2.0, dim=2)

    def trial(rng):
        X, y = dist.sample(100, random_state=int(rng.integers(2**31 - 1)))
        model = LinearDiscriminantAnalysis().fit(X[:50], y[:50])
        errors = int(np.sum(model.predict(X[50:]) != y[50:]))
        return clopper_pearson_upper(errors, 50, delta) >= true_risk(model, dist)

    from cvbook.simulation import repeat
    cov = float(np.mean(repeat(trial, reps, random_state=0)))
    assert cov >= 1 - delta - 3 * binomial_se(1 - delta, reps)


def test_mean_kfold_error_is_not_a_bound(small_run):
    # a point estimate falls below the truth often; a 70% bound should not
    s = {(r["method"], r["k"], r["delta"]): r for r in summarize(
        run_coverage(n_values=[100], k_values=[5], delta_values=[0.3], n_repeats=40,
                     random_state=2))}
    assert s[("kfold", 5, 0.3)]["coverage"] < 0.9
    assert s[("holdout", 5, 0.3)]["coverage"] > s[("kfold", 5, 0.3)]["coverage"]


def test_ckcv_records_match_a_direct_fit():
    dist = make_distribution("twogaussians")
    est, grid = coverage.default_learner("twogaussians")
    rng = np.random.default_rng(5)
    rows = coverage_trial(rng, dist, [60], [5], [0.05, 0.2], est, grid, n_splits=3)
    # replay the trial's seeds to refit C-KCV by hand
    rng = np.random.default_rng(5)
    seeds = rng.integers(0, 2**31 - 1, size=(1, 4))
    X, y = dist.sample(60, random_state=int(seeds[0, 0]))
    for delta in (0.05, 0.2):
        search = CompleteKCV(est, grid, k_values=[5], n_splits=3, delta=delta,
                             random_state=int(seeds[0, 3]), n_jobs=1).fit(X, y)
        mine = rows[(rows[:, 0] == list(METHODS).index("ckcv")) & (rows[:, 3] == delta)]
        assert mine.shape[0] == 1
        assert mine[0, 4] == pytest.approx(search.bound_)
        risks = [dist.linear_rule_risk(m.coef_.ravel(), m.intercept_[0]) for m in search.estimators_]
        assert mine[0, 5] == pytest.approx(np.mean(risks))


def test_true_risk_exact_and_monte_carlo_agree():
    dist = Twonorm()
    model = LinearDiscriminantAnalysis().fit(*dist.sample(200, random_state=0))
    exact = true_risk(model, dist)
    mc = monte_carlo_risk(model, dist, n=200_000, random_state=1)
    assert abs(exact - mc) < 4 * np.sqrt(exact * (1 - exact) / 200_000)
    X, y = dist.sample(1000, random_state=2)
    with pytest.raises(ValueError, match="X_fresh"):
        true_risk(type("Stub", (), {"predict": lambda self, X: np.ones(len(X))})(), dist)
    stub = type("Stub", (), {"predict": lambda self, X: np.ones(len(X), dtype=int)})()
    assert true_risk(stub, dist, X, y) == pytest.approx(np.mean(y != 1))


def test_summary_and_table():
    rec = {"method": np.array(["holdout"] * 3 + ["kfold"] * 3), "n": np.full(6, 100),
           "k": np.full(6, 5), "delta": np.full(6, 0.1),
           "estimate": np.array([0.3, 0.1, 0.2, 0.1, 0.1, 0.1]), "risk": np.full(6, 0.15)}
    s = summarize(rec)
    assert [r["method"] for r in s] == ["holdout", "kfold"]
    assert s[0]["coverage"] == pytest.approx(2 / 3) and s[1]["coverage"] == 0.0
    assert s[0]["se"] == pytest.approx(np.sqrt(2 / 9 / 3))
    assert s[0]["slack_mean"] == pytest.approx(0.05)
    table = format_table(s)
    assert "0.667 ± 0.272" in table and "| — |" in table and "| 0.90 |" in table


def test_save_and_load_roundtrip(tmp_path, small_run):
    save_results(tmp_path / "run", small_run, {"seed": 1})
    records, prov = load_results(tmp_path / "run")
    assert prov == {"seed": 1}
    for key in small_run:
        assert np.array_equal(records[key], small_run[key])
    assert not list(tmp_path.glob("*.tmp"))


def test_command_line_writes_provenance(tmp_path):
    out = tmp_path / "cli"
    coverage.main(["--out", str(out), "--n", "40", "--k", "4", "--n-repeats", "2",
                   "--n-splits", "2", "--no-progress"])
    records, prov = load_results(out)
    assert prov["parameters"]["n_repeats"] == 2 and "wall_time_s" in prov
    assert set(prov["versions"]) >= {"numpy", "scikit-learn", "cvbook"}
    assert len(records["method"]) == 2 * len(METHODS)


def test_command_line_resumes_from_its_checkpoint(tmp_path):
    """An interrupted run left one repetition in OUT.parts: the re-run uses it, then removes it."""
    args = ["--n", "40", "--k", "4", "--n-repeats", "2", "--n-splits", "2", "--no-progress"]
    coverage.main(["--out", str(tmp_path / "fresh"), *args])
    estimator, grid = coverage.default_learner("twogaussians")
    run_coverage("twogaussians", [40], [4], [0.05], 1, estimator=estimator, param_grid=grid,
                 n_splits=2, random_state=0, checkpoint=tmp_path / "resumed.parts")
    coverage.main(["--out", str(tmp_path / "resumed"), *args])
    fresh, _ = load_results(tmp_path / "fresh")
    resumed, prov = load_results(tmp_path / "resumed")
    assert prov["repetitions_resumed"] == 1
    for key in fresh:
        assert np.array_equal(fresh[key], resumed[key])
    assert not (tmp_path / "resumed.parts").exists() and not (tmp_path / "fresh.parts").exists()


@pytest.mark.parametrize("kwargs, name", [
    ({"n_repeats": 0}, "n_repeats"),
    ({"delta_values": [0.0]}, "delta_values"),
    ({"delta_values": [1.5]}, "delta_values"),
    ({"k_values": [2]}, "k_values"),
    ({"k_values": []}, "k_values"),
    ({"n_values": [7]}, "n_values"),
    ({"distribution": "spiral"}, "distribution"),
    ({"n_splits": 0}, "n_splits"),
])
def test_bad_input_names_the_parameter(kwargs, name):
    args = dict(n_values=[40], k_values=[4], n_repeats=1)
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        run_coverage(**args)


@pytest.mark.parametrize("name", ["twogaussians", "twonorm", "ringnorm", "twonorm_svc",
                                  "ringnorm_svc"])
def test_committed_large_run_reproduces(repo_root, name):
    """The committed records: their first repetitions are recomputed exactly."""
    path = repo_root / "results" / "coverage" / name
    assert (path.parent / f"{name}.records.csv.gz").exists(), f"committed run {name} is missing"
    records, prov = load_results(path)
    p = prov["parameters"]
    assert p["distribution"] == name.split("_")[0]
    assert len(set(records["repeat"])) == p["n_repeats"]
    estimator, grid = coverage.default_learner(p["distribution"], p.get("learner", "default"))
    assert prov["estimator"] == repr(estimator) and prov["param_grid"] == grid
    again = run_coverage(p["distribution"], p["n"], p["k"], p["delta"], n_repeats=2,
                         estimator=estimator, param_grid=grid,
                         n_splits=p["n_splits"], n_fresh=p["n_fresh"], tune_k=p["tune_k"],
                         random_state=p["seed"], n_jobs=1)
    first = records["repeat"] < 2
    for key in again:
        assert np.array_equal(records[key][first], again[key]), key
    # the stored summary is the summary of the stored records
    import json
    stored = json.loads(path.with_suffix(".json").read_text())["summary"]
    assert stored == json.loads(json.dumps(summarize(records)))
