"""Coverage study: honest records, valid hold-out bounds, seeded and checked."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from cvbook.bounds import clopper_pearson_interval, clopper_pearson_upper
from cvbook.ckcv import CompleteKCV
from cvbook.datasets import TwoGaussians, Twonorm, monte_carlo_risk
from cvbook.datasets.synthetic import linear_rule, make_distribution
from cvbook.learners import current_name
from cvbook.runs import coverage as runs
from cvbook.runs.coverage import read_records, read_results, write_records, write_results
from cvbook.studies import bound_coverage as coverage
from cvbook.studies.bound_coverage import (
    METHODS,
    binomial_se,
    coverage_interval,
    coverage_trial,
    fold_spread_rule,
    format_table,
    run_coverage,
    select_records,
    summarize,
)

#: The committed runs' files. The SVM runs were written as ``*_svc`` when chapter 6 called
#: the learner "svc" (now "svm", cvbook.learners.LEGACY_NAMES); chapter 6 reads them as
#: ``*_svm`` (tests/test_learners.py).
COMMITTED = ["twogaussians", "twonorm", "ringnorm", "twonorm_svc", "ringnorm_svc"]


def true_risk(model, dist):
    """The exact risk of a fitted linear rule (the tests' own oracle)."""
    return dist.linear_rule_risk(model.coef_.ravel(), float(model.intercept_[0]))


@pytest.fixture(scope="module")
def small_run():
    return run_coverage(
        n_values=[60],
        k_values=[3, 5],
        delta_values=[0.05, 0.3],
        n_repeats=6,
        tune_k=True,
        random_state=1,
        n_jobs=1,
    )


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
    s = {
        (r["method"], r["k"], r["delta"]): r
        for r in summarize(
            run_coverage(
                n_values=[100], k_values=[5], delta_values=[0.3], n_repeats=40, random_state=2
            )
        )
    }
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
        search = CompleteKCV(
            est,
            grid,
            k_values=[5],
            n_splits=3,
            delta=delta,
            random_state=int(seeds[0, 3]),
            n_jobs=1,
        ).fit(X, y)
        mine = rows[(rows[:, 0] == list(METHODS).index("ckcv")) & (rows[:, 3] == delta)]
        assert mine.shape[0] == 1
        assert mine[0, 4] == pytest.approx(search.bound_)
        risks = [true_risk(m, dist) for m in search.estimators_]
        assert mine[0, 5] == pytest.approx(np.mean(risks))


def test_risks_are_those_of_cvbook_datasets():
    """Exact for a linear rule; otherwise monte_carlo_risk on the repetition's fresh seed."""
    dist = Twonorm()
    model = LinearDiscriminantAnalysis().fit(*dist.sample(200, random_state=0))
    exact = coverage._risk(model, dist, 100_000, 7)
    assert exact == true_risk(model, dist)
    mc = monte_carlo_risk(model, dist, n=200_000, random_state=1)
    assert abs(exact - mc) < 4 * np.sqrt(exact * (1 - exact) / 200_000)
    # a model that is no linear rule (a stub predicting +1): the canonical Monte Carlo risk
    stub = type("Stub", (), {"predict": lambda self, X: np.ones(len(X), dtype=int)})()
    assert coverage._risk(stub, dist, 5000, 3) == monte_carlo_risk(
        stub, dist, n=5000, random_state=3
    )
    # labels other than -1/+1: no exact shortcut, the Monte Carlo route (with its checks)
    X, y = dist.sample(200, random_state=4)
    lda01 = LinearDiscriminantAnalysis().fit(X, (y + 1) // 2)
    assert linear_rule(lda01) is None
    # its literal 0-1 risk (a prediction 0 is never the label -1) would be a silent wrong
    # answer: refused by name (issue 20)
    with pytest.raises(ValueError, match="model's classes"):
        coverage._risk(lda01, dist, 5000, 3)
    with pytest.raises(ValueError, match="model's classes"):
        monte_carlo_risk(lda01, dist, n=5000, random_state=3)


def test_summary_and_table():
    rec = {
        "method": np.array(["holdout"] * 3 + ["kfold"] * 3),
        "n": np.full(6, 100),
        "k": np.full(6, 5),
        "delta": np.full(6, 0.1),
        "estimate": np.array([0.3, 0.1, 0.2, 0.1, 0.1, 0.1]),
        "risk": np.full(6, 0.15),
    }
    s = summarize(rec)
    assert [r["method"] for r in s] == ["holdout", "kfold"]
    assert s[0]["coverage"] == pytest.approx(2 / 3) and s[1]["coverage"] == 0.0
    assert s[0]["n_held"] == 2 and s[1]["n_held"] == 0
    assert s[0]["se"] == pytest.approx(np.sqrt(2 / 9 / 3))
    # the CP interval is the one of the failure count, turned around
    lo, hi = clopper_pearson_interval(1, 3)
    assert (s[0]["cp_low"], s[0]["cp_high"]) == pytest.approx((1 - hi, 1 - lo))
    assert s[0]["slack_mean"] == pytest.approx(0.05)
    table = format_table(s)
    assert f"0.667 [{1 - hi:.3f}, {1 - lo:.3f}]" in table and "| 2/3 |" in table
    assert "| — |" in table and "| 0.90 |" in table and "±  0" not in table


def test_coverage_interval_is_informative_at_one():
    """Issue 11: 0 failures in 100 is a coverage >= 0.97 (one-sided 95%), not 1 ± 0."""
    assert binomial_se(1.0, 100) == 0.0
    lo, hi = coverage_interval(100, 100, alpha=0.1)  # each end at 95%
    assert hi == 1.0 and lo == pytest.approx(0.05 ** (1 / 100)) and 0.97 < lo < 0.971
    assert lo == pytest.approx(1 - clopper_pearson_upper(0, 100, 0.05))
    lo, hi = coverage_interval(0, 100)
    assert lo == 0.0 and hi == pytest.approx(1 - 0.025 ** (1 / 100))
    lo, hi = coverage_interval(np.array([50, 90]), 100)
    assert np.all(lo < [0.5, 0.9]) and np.all(hi > [0.5, 0.9])


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 500).flatmap(lambda r: st.tuples(st.integers(0, r), st.just(r))),
    st.floats(1e-6, 0.5),
)
def test_coverage_interval_holds_the_estimate(counts, alpha):
    held, r = counts
    lo, hi = coverage_interval(held, r, alpha)
    assert 0.0 <= lo <= held / r <= hi <= 1.0
    # a wider level gives a wider interval
    lo2, hi2 = coverage_interval(held, r, alpha / 10)
    assert lo2 <= lo and hi <= hi2


def test_select_records_aligns_repetitions(small_run):
    a = select_records(small_run, method="holdout", k=3, delta=0.05)
    b = select_records(small_run, method="kfold", k=3, delta=0.05)
    assert a["repeat"].tolist() == b["repeat"].tolist() == list(range(6))
    with pytest.raises(ValueError, match="lacks the keys"):
        select_records(small_run, flavour="x")


def test_fold_spread_rule_takes_mean_plus_two_std_apart(small_run):
    for k in (3, 5):
        out = fold_spread_rule(small_run, k=k, delta=0.05)
        two_std = select_records(small_run, method="kfold_2std", k=k, delta=0.05)
        assert np.allclose(out["mean"] + out["margin"], two_std["estimate"])
        assert (out["margin"] >= 0).all()
        # the 2-SE margin is sqrt(k) times narrower: where it holds, the rule holds
        assert not (out["held_2se"] & ~out["held_2std"]).any()
        assert np.median(out["rel_margin"]) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="needs k"):
        fold_spread_rule(small_run, delta=0.05)
    with pytest.raises(ValueError, match="one kfold and one kfold_2std"):
        fold_spread_rule(small_run, k=3)  # two deltas: two records per repetition


@pytest.mark.parametrize(
    "args, error, match",
    [
        ((1.5, 10), ValueError, "coverage must lie in"),
        ((-0.1, 10), ValueError, "coverage must lie in"),
        ((np.nan, 10), ValueError, "coverage must be finite"),
        (("0.9", 10), TypeError, "coverage must hold numbers"),
        ((0.9, 0), ValueError, "n_repeats must be >= 1"),
        ((0.9, 2.5), ValueError, "n_repeats must hold integers"),
        ((0.9, True), TypeError, "n_repeats"),
        (([0.9, 0.8], [10, 20, 30]), ValueError, "broadcast"),
    ],
)
def test_binomial_se_refuses(args, error, match):
    """Issue 13: binomial_se(1.5, 10) was NaN and binomial_se(0.9, 0) inf."""
    with pytest.raises(error, match=match):
        binomial_se(*args)


@pytest.mark.parametrize(
    "args, match",
    [
        ((101, 100), "n_held must be <= n_repeats"),
        ((-1, 100), "n_held must hold integers >= 0"),
        ((5, 0), "n_repeats must hold integers >= 1"),
        ((5.5, 10), "n_held must hold integers"),
        ((5, 10, 0.0), "alpha"),
        ((5, 10, [0.1, 0.2]), "alpha must be a real number"),
    ],
)
def test_coverage_interval_refuses(args, match):
    with pytest.raises(ValueError, match=match):
        coverage_interval(*args)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: summarize([1, 2]), "records must be a dict"),
        (lambda: summarize({"method": ["kfold"]}), "lacks the keys"),
        (
            lambda: summarize(
                {
                    "method": ["kfold"],
                    "n": [1, 2],
                    "k": [5],
                    "delta": [0.1],
                    "estimate": [0.1],
                    "risk": [0.1],
                }
            ),
            "one length",
        ),
        (
            lambda: summarize(
                {
                    "method": ["kfold"],
                    "n": [10],
                    "k": [5],
                    "delta": [0.1],
                    "estimate": [np.nan],
                    "risk": [0.1],
                }
            ),
            "estimate must be finite",
        ),
        (
            lambda: summarize(
                {
                    "method": ["kfold"],
                    "n": [10],
                    "k": [5],
                    "delta": [0.1],
                    "estimate": [0.2],
                    "risk": [0.1],
                },
                alpha=1.0,
            ),
            "alpha",
        ),
        (lambda: format_table({"method": "kfold"}), "summary must be a list"),
        (lambda: format_table([{"method": "kfold"}]), r"summary\[0\] must be a row"),
        (lambda: format_table([], digits=2.5), "digits must be an integer"),
        (lambda: make_distribution(3), "distribution must be one of"),
        (lambda: coverage.default_learner("twonorm", learner="forest"), "learner must be one of"),
        (
            lambda: coverage_trial(
                np.random.default_rng(0),
                "twonorm",
                [40],
                [4],
                [0.1],
                LinearDiscriminantAnalysis(),
                {},
            ),
            "distribution must have",
        ),
        (
            lambda: coverage_trial(
                -1, TwoGaussians(), [40], [4], [0.1], LinearDiscriminantAnalysis(), {}
            ),
            "rng must be",
        ),
        (
            lambda: coverage_trial(
                np.random.default_rng(0), TwoGaussians(), [40], [4], [0.1], "lda", {}
            ),
            "estimator must be",
        ),
        (
            lambda: coverage_trial(
                np.random.default_rng(0),
                TwoGaussians(),
                [40],
                [4],
                [0.1],
                LinearDiscriminantAnalysis(),
                [1],
            ),
            "param_grid must be",
        ),
        (
            lambda: coverage_trial(
                np.random.default_rng(0),
                TwoGaussians(),
                [40],
                [4],
                [0.1],
                LinearDiscriminantAnalysis(),
                {},
                tune_k=1,
            ),
            "tune_k must be",
        ),
    ],
)
def test_public_functions_name_the_bad_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --------------------------------------------------------------------------- records on disk


def test_save_and_load_roundtrip(tmp_path, small_run):
    write_results(tmp_path / "run", small_run, {"seed": 1})
    records, prov = read_results(tmp_path / "run")
    assert prov == {"seed": 1}
    for key in small_run:
        assert np.array_equal(records[key], small_run[key])
        assert records[key].dtype == small_run[key].dtype
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))


def test_strings_with_commas_quotes_and_line_ends_come_back(tmp_path):
    """Issue 13: a string holding a comma broke read_results."""
    names = np.array(["a,b", 'say "hi"', "two\nlines", "cr\ronly", "", " pad ", "ünï", "x:U"])
    write_records(tmp_path / "s", {"name:odd,key": names, "i": np.arange(8)})
    back = read_records(tmp_path / "s")
    assert back["name:odd,key"].tolist() == names.tolist() and back["i"].tolist() == list(range(8))


def test_bool_and_small_integer_columns_keep_their_dtype(tmp_path):
    """Issue 13: uint8 and bool columns came back as strings."""
    rec = {
        "flag": np.array([True, False]),
        "u8": np.array([0, 255], dtype=np.uint8),
        "f32": np.array([0.1, -np.inf], dtype=np.float32),
    }
    write_records(tmp_path / "d", rec)
    back = read_records(tmp_path / "d")
    for key, values in rec.items():
        assert back[key].dtype == values.dtype and np.array_equal(back[key], values), key


@pytest.mark.parametrize("name", COMMITTED)
def test_committed_records_load_bit_for_bit(repo_root, tmp_path, name):
    """The committed files read as a reader by hand reads them, and write back to the same
    bytes."""
    path = repo_root / "results" / "coverage" / name
    committed = (path.parent / f"{name}.records.csv.gz").read_bytes()
    # a reader by hand: split on commas (the committed files hold no quoted field)
    lines = gzip.decompress(committed).decode().splitlines()[1:]  # after the format line
    kinds = {"str": str, "int64": np.int64, "float64": np.float64}
    header = [h.split(":") for h in lines[0].split(",")]
    rows = [line.split(",") for line in lines[1:]]
    records = read_records(path)
    for j, (key, kind) in enumerate(header):
        expected = np.array([row[j] for row in rows]).astype(kinds[kind])
        assert records[key].dtype.kind == np.dtype(kinds[kind]).kind
        assert np.array_equal(records[key], expected), key
        if kind == "f":
            assert records[key].tobytes() == expected.tobytes(), key
    written = write_records(tmp_path / name, records)
    assert written.read_bytes() == committed


def test_command_line_writes_provenance(tmp_path):
    out = tmp_path / "cli"
    runs.main(
        [
            "--out",
            str(out),
            "--n",
            "40",
            "--k",
            "4",
            "--n-repeats",
            "2",
            "--n-splits",
            "2",
            "--no-progress",
        ]
    )
    records, prov = read_results(out)
    assert prov["parameters"]["n_repeats"] == 2 and "wall_time_s" in prov
    assert set(prov["versions"]) >= {"numpy", "scikit-learn", "cvbook"}
    assert len(records["method"]) == 2 * len(METHODS)


def test_command_line_resumes_from_its_checkpoint(tmp_path):
    """An interrupted run left one repetition in OUT.parts: the re-run uses it, then removes it."""
    args = ["--n", "40", "--k", "4", "--n-repeats", "2", "--n-splits", "2", "--no-progress"]
    runs.main(["--out", str(tmp_path / "fresh"), *args])
    estimator, grid = coverage.default_learner("twogaussians")
    run_coverage(
        "twogaussians",
        [40],
        [4],
        [0.05],
        1,
        estimator=estimator,
        param_grid=grid,
        n_splits=2,
        random_state=0,
        checkpoint=tmp_path / "resumed.parts",
    )
    runs.main(["--out", str(tmp_path / "resumed"), *args])
    fresh, _ = read_results(tmp_path / "fresh")
    resumed, prov = read_results(tmp_path / "resumed")
    assert prov["repetitions_resumed"] == 1
    for key in fresh:
        assert np.array_equal(fresh[key], resumed[key])
    assert not (tmp_path / "resumed.parts").exists() and not (tmp_path / "fresh.parts").exists()


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"n_repeats": 0}, "n_repeats"),
        ({"delta_values": [0.0]}, "delta_values"),
        ({"delta_values": [1.5]}, "delta_values"),
        ({"k_values": [2]}, "k_values"),
        ({"k_values": []}, "k_values"),
        ({"n_values": [7]}, "n_values"),
        ({"distribution": "spiral"}, "distribution"),
        ({"n_splits": 0}, "n_splits"),
        ({"n_splits": 2.0}, "n_splits"),
        ({"k_values": "35"}, "k_values"),
        ({"k_values": [3.7]}, "k_values"),
        ({"delta_values": ["0.1"]}, "delta_values"),
        ({"delta_values": 0.1}, "delta_values"),
        ({"n_fresh": 10}, "n_fresh"),
        ({"tune_k": "yes"}, "tune_k"),
        ({"random_state": -1}, "random_state"),
        ({"random_state": 1.5}, "random_state"),
        ({"n_jobs": 0}, "n_jobs"),
        ({"progress": None}, "progress"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, name):
    args = dict(n_values=[40], k_values=[4], n_repeats=1)
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        run_coverage(**args)


def test_command_line_names_a_bad_option(tmp_path, capsys):
    with pytest.raises(SystemExit):
        runs.main(["--out", str(tmp_path / "x"), "--n", "40", "--k", "2", "--no-progress"])
    assert "--k must be >= 3" in capsys.readouterr().err


@pytest.mark.slow  # about 20 s in all: make unit-fast skips it, make test runs it
@pytest.mark.parametrize("name", COMMITTED)
def test_committed_large_run_reproduces(repo_root, name):
    """The committed records: their first repetition is recomputed, to the last bits.

    One repetition (every ``n``, ``k`` and ``delta`` of the run): the seeds of the later
    ones are spawned children of the same root (``tests/test_simulation.py`` checks that
    a repetition does not depend on how many are run), so a second one checks little
    more, at the cost of the most expensive fits of the unit tests (SVM grids at n = 1000).

    Integers and labels agree exactly. Floats agree to 1e-12: since the runs, the
    Clopper--Pearson bound moved from ``beta.ppf`` to ``beta.isf`` (exact at tiny delta)
    and the exact risk of a linear rule rescales ``(w, b)`` by ``max |w|`` (no overflow);
    both move some results by one or two units in the last place (about 1e-16).
    """
    path = repo_root / "results" / "coverage" / name
    assert (path.parent / f"{name}.records.csv.gz").exists(), f"committed run {name} is missing"
    records, prov = read_results(path)
    p = prov["parameters"]
    assert p["distribution"] == name.split("_")[0]
    assert len(set(records["repeat"])) == p["n_repeats"]
    learner = current_name(p.get("learner", "default"), "coverage")  # "svc": the old name
    estimator, grid = coverage.default_learner(p["distribution"], learner)
    assert prov["estimator"] == repr(estimator) and prov["param_grid"] == grid
    # the stored summary is the summary of the stored records
    stored = json.loads(path.with_suffix(".json").read_text())["summary"]
    _assert_close_tree(stored, json.loads(json.dumps(summarize(records))))
    # Recomputing a repetition needs the library versions the run was made with
    # (scikit-learn's learners change between releases); `make unit` has them pinned,
    # `make unit-min` (the oldest supported versions) does not.
    made_with = prov["versions"]
    import sklearn

    if (made_with["scikit-learn"], made_with["numpy"]) != (sklearn.__version__, np.__version__):
        pytest.skip(
            f"{name} was made with scikit-learn {made_with['scikit-learn']} and numpy "
            f"{made_with['numpy']}; here {sklearn.__version__} and {np.__version__}"
        )
    again = run_coverage(
        p["distribution"],
        p["n"],
        p["k"],
        p["delta"],
        n_repeats=1,
        estimator=estimator,
        param_grid=grid,
        n_splits=p["n_splits"],
        n_fresh=p["n_fresh"],
        tune_k=p["tune_k"],
        random_state=p["seed"],
        n_jobs=1,
    )
    first = records["repeat"] == 0
    for key in again:
        if again[key].dtype.kind == "f":
            np.testing.assert_allclose(
                records[key][first], again[key], rtol=1e-12, atol=1e-15, err_msg=key
            )
        else:
            assert np.array_equal(records[key][first], again[key]), key


def _assert_close_tree(a, b, where="summary"):
    """Equal structure, equal text and integers, floats equal to 1e-12 (relative): NumPy
    releases differ in the last bits of quantiles and sums."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), where
        for key in a:
            _assert_close_tree(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _assert_close_tree(x, y, f"{where}[{i}]")
    elif isinstance(a, float) or isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-15, nan_ok=True), where
    else:
        assert a == b, where
