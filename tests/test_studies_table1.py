"""Tests of cvbook.studies.table1_replication and its driver cvbook.runs.table1: the record of
one fit, the generated data sets, atomic writes, resuming, the one-off enrichment, the summary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cvbook.datasets.raetsch import requires_raetsch
from cvbook.provenance import atomic_write, atomic_write_text
from cvbook.runs import table1 as driver
from cvbook.runs.table1 import enrich_runs, run_sweep
from cvbook.studies import table1_replication as table1
from cvbook.studies.table1_replication import (
    Table1Grid,
    binomial_floor,
    bound_at_level,
    compare_with_paper,
    data_fields,
    fit_and_score,
    min_sd_of_integers,
    paired_by_dataset,
    read_paper_table,
    refit_selected,
    run_generated,
    summarise,
)

TINY = Table1Grid(C_values=(1.0,), gamma_factors=(1.0,), k_values=(5, 10), n_splits=2)
SMALL = Table1Grid(C_values=(1.0, 10.0), gamma_factors=(0.1, 1.0), k_values=(3, 5, 10), n_splits=3)
ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CVBOOK_SHARED_RAETSCH", ROOT.parent / "shared" / "data" / "raetsch"))


@pytest.fixture
def raetsch_home(monkeypatch):
    """The shared Rätsch copy: skip without it, fail without it under CI=true."""
    monkeypatch.delenv("CVBOOK_DATA", raising=False)
    return requires_raetsch(SHARED)


def test_atomic_write_never_leaves_half_a_file(tmp_path):
    target = tmp_path / "a.json"
    atomic_write_text(target, "old\n")

    with pytest.raises(TypeError):
        atomic_write_text(target, 12345)  # fails while writing
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]

    def killed(tmp):
        Path(tmp).write_text("half of a new file")
        raise RuntimeError("killed while writing")

    with pytest.raises(RuntimeError):
        atomic_write(target, killed)
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_grid_in_one_place():
    g = table1.TABLE1_GRID
    assert 5 in g.k_values and 10 in g.k_values
    assert Table1Grid.from_dict(json.loads(json.dumps(g.to_dict()))) == g
    X = np.arange(12.0).reshape(6, 2)
    assert g.gammas(X)[g.gamma_factors.index(1.0)] == pytest.approx(1 / (2 * X.var()))
    assert g.random_state("heart", 1) != g.random_state("heart", 2)


def test_sweep_resumes_and_loses_only_work_in_flight(tmp_path, raetsch_home, monkeypatch):
    raetsch_dir = raetsch_home
    calls = []
    real = driver.run_one

    def flaky(name, realisation, *args, **kwargs):
        calls.append((name, realisation))
        if realisation == 2:
            raise KeyboardInterrupt  # the sweep is killed while this run is in flight
        return real(name, realisation, *args, **kwargs)

    monkeypatch.setattr(driver, "run_one", flaky)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(
            tmp_path,
            ["titanic"],
            [1, 2],
            grid=TINY,
            n_jobs=1,
            data_home=raetsch_dir,
            progress=False,
        )
    files = sorted(p.name for p in (tmp_path / "runs").iterdir())
    assert files == ["titanic_r01.json"]  # finished run kept, nothing half-written
    assert not (tmp_path / "provenance.json").exists()

    monkeypatch.setattr(driver, "run_one", real)
    calls.clear()
    monkeypatch.setattr(driver, "run_one", lambda *a, **k: calls.append(a[:2]) or real(*a, **k))
    rows = run_sweep(
        tmp_path, ["titanic"], [1, 2], grid=TINY, n_jobs=1, data_home=raetsch_dir, progress=False
    )
    assert calls == [("titanic", 2)]  # the finished run was skipped
    assert rows[0]["n_realisations"] == 2
    prov = json.loads((tmp_path / "provenance.json").read_text())
    assert prov["grid"] == TINY.to_dict() and prov["partial"] is True
    assert (tmp_path / "table1.csv").read_text().startswith("dataset,n_realisations,splits,k_star")

    with pytest.raises(ValueError, match="grid differs"):
        run_sweep(
            tmp_path,
            ["titanic"],
            [3],
            grid=table1.TABLE1_GRID,
            n_jobs=1,
            data_home=raetsch_dir,
            progress=False,
        )


def test_summarise_percent_and_sample_std():
    runs = [
        {
            "dataset": "x",
            "splits": "raetsch",
            "k_star": k,
            "L_EE": e,
            "test_err_F": e,
            "L_EE_k5": e,
            "test_err_k5": e,
            "L_EE_k10": e,
            "test_err_k10": e,
        }
        for k, e in ((3, 0.1), (5, 0.3))
    ]
    row = summarise(runs)[0]
    assert row["k_star_mean"] == 4 and row["k_star_std"] == pytest.approx(np.sqrt(2), abs=1e-4)
    assert row["L_EE_mean"] == pytest.approx(20.0) and row["test_err_k10_std"] == pytest.approx(
        np.std([10, 30], ddof=1), abs=1e-4
    )


# ------------------------------------------------------------------ the record of one fit


def test_record_holds_what_the_chapter_needs_and_it_is_consistent():
    rec = run_generated("ringnorm", seed=5, grid=SMALL, n_train=90, n_test=300)
    assert rec["n_train"] == 90 and rec["n_test"] == 300 and rec["d"] == 20
    assert 0 < rec["n_pos_train"] < 90 and 0 < rec["n_pos_test"] < 300
    for label in ("", "_k5", "_k10"):
        # gamma in units of 1/(d var X) is a grid factor
        assert min(abs(rec[f"gamma_factor{label}"] - f) for f in SMALL.gamma_factors) < 1e-9
        # the stored EE counts give back the stored bound, at delta and only at delta
        k = rec[f"k{label}" if label else "k_star"]
        assert rec[f"n_ee{label}"] == 90 // k and len(rec[f"ee_errors{label}"]) == 3
        assert bound_at_level(rec, label, SMALL.delta) == pytest.approx(
            rec[f"L_EE{label}"], abs=1e-12
        )
        assert bound_at_level(rec, label, SMALL.delta / 10) > rec[f"L_EE{label}"]
    assert rec["L_MS"] <= min(rec["L_MS_k5"], rec["L_MS_k10"])
    assert 0.5 < rec["var_ratio_no_ee"][0] <= rec["var_ratio_no_ee"][1] < 2


def test_refitting_the_selected_rows_alone_gives_the_fits_counts():
    dist = table1.GENERATED["twonorm"]()
    X, y = dist.sample(150, random_state=8)
    rec = fit_and_score(X[:100], y[:100], X[100:], y[100:], SMALL, random_state=4)
    again = refit_selected(X[:100], y[:100], rec, SMALL)
    assert again == {key: rec[key] for key in again}
    fields = data_fields(X[:100], y[:100], y[100:], rec, SMALL)
    assert fields == {key: rec[key] for key in fields}


@pytest.mark.parametrize("name", ["twonorm", "ringnorm"])
def test_generated_runs_need_no_data_and_repeat_exactly(name, monkeypatch, tmp_path):
    monkeypatch.setenv("CVBOOK_DATA", str(tmp_path / "nowhere"))  # must not be looked at
    a = run_generated(name, seed=11, grid=TINY, n_train=60, n_test=200)
    b = run_generated(name, seed=11, grid=TINY, n_train=60, n_test=200, n_jobs=2)
    c = run_generated(name, seed=12, grid=TINY, n_train=60, n_test=200)
    assert a == b  # same seed, any n_jobs: the same record
    assert (a["test_err_F"], a["L_EE"]) != (c["test_err_F"], c["L_EE"])


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"name": "banana"}, "name must be 'twonorm' or 'ringnorm'"),
        ({"seed": -1}, "seed must be >= 0"),
        ({"seed": 1.5}, "seed must be an integer"),
        ({"grid": {"C_values": (1,)}}, "grid must be a Table1Grid"),
        ({"n_train": 10}, "n_train must be >= 20"),
        ({"n_test": 0}, "n_test must be >= 1"),
        ({"n_jobs": 0}, "n_jobs must be None or a non-zero integer"),
        ({"n_jobs": 10**9}, "n_jobs must be None or a non-zero integer"),
        ({"n_jobs": "2"}, "n_jobs must be an integer"),
    ],
)
def test_bad_arguments_are_named(kwargs, match):
    args = {"name": "twonorm", "seed": 1, "grid": TINY, "n_train": 60, "n_test": 50, **kwargs}
    with pytest.raises(ValueError, match=match):
        run_generated(**args)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"names": "titanic"}, "names must be a list of banana"),
        ({"names": ["titanik"]}, "names must be a list of banana"),
        ({"realisations": [0]}, "realisations must be >= 1"),
        ({"realisations": "12"}, "realisations must be a list of integers"),
        ({"out": 3}, "out must be a folder path"),
        ({"grid": "tiny"}, "grid must be a Table1Grid"),
    ],
)
def test_sweep_arguments_are_named(tmp_path, kwargs, match):
    args = {
        "out": tmp_path,
        "names": ["titanic"],
        "realisations": [1],
        "grid": TINY,
        "progress": False,
        **kwargs,
    }
    with pytest.raises(ValueError, match=match):
        run_sweep(**args)


def test_run_one_checks_its_arguments():
    with pytest.raises(ValueError, match="realisation must be >= 1"):
        table1.run_one("heart", 0)
    with pytest.raises(ValueError, match="grid must be a Table1Grid"):
        table1.run_one("heart", 1, grid=None)


def test_enrich_adds_fields_checks_bounds_and_resumes(tmp_path, monkeypatch):
    dist = table1.GENERATED["twonorm"]()
    X, y = dist.sample(150, random_state=9)
    full = fit_and_score(X[:100], y[:100], X[100:], y[100:], SMALL, random_state=6)
    added = set(driver._ADDED)
    old = {key: v for key, v in full.items() if key not in added}
    old.update(dataset="heart", realisation=1, grid=SMALL.to_dict(), commit="abc")
    (tmp_path / "runs").mkdir()
    path = tmp_path / "runs" / "heart_r01.json"
    path.write_text(json.dumps(old))
    monkeypatch.setattr(
        driver, "load_raetsch", lambda *a, **k: (X[:100], y[:100], X[100:], y[100:])
    )
    assert enrich_runs(tmp_path, progress=False) == 1
    rec = json.loads(path.read_text())
    assert {key: rec[key] for key in old} == old  # every old value kept
    assert {key: rec[key] for key in added} == {key: full[key] for key in added}
    assert enrich_runs(tmp_path, progress=False) == 0  # nothing left: resumes
    path.write_text(json.dumps({**old, "L_EE_k5": old["L_EE_k5"] + 1e-6}))
    with pytest.raises(ValueError, match=r"give L_EE_k5 = .*the record"):
        enrich_runs(tmp_path, progress=False)
    assert "ee_errors" not in json.loads(path.read_text())  # nothing written


def test_comparisons_with_the_paper_and_paired_differences(tmp_path):
    paper = read_paper_table(ROOT / "results" / "table1" / "paper_table1.csv")
    runs = [{"dataset": "image", "test_err_F": e, "L_EE": e + 0.04} for e in (0.026, 0.028, 0.030)]
    cmp = compare_with_paper(runs, paper, ["test_err_F", "L_EE"])["image"]["test_err_F"]
    assert cmp["paper"] == 2.7 and cmp["ours"] == pytest.approx(2.8)
    assert cmp["se"] == pytest.approx(np.sqrt((0.2**2 + 0.3**2) / 3))
    assert cmp["z"] == pytest.approx(0.1 / cmp["se"])
    d = paired_by_dataset(runs, "L_EE", "test_err_F")["image"]
    assert d.mean == pytest.approx(4.0) and d.se == pytest.approx(0.0, abs=1e-12) and d.n == 3
    with pytest.raises(ValueError, match=r"at least 2 runs of each data set.*'image' has 1"):
        paired_by_dataset(runs[:1], "L_EE", "test_err_F")
    (tmp_path / "bad.csv").write_text("name,L_EE_mean\nimage,5.7\n")
    with pytest.raises(ValueError, match="must start with a 'dataset' column"):
        read_paper_table(tmp_path / "bad.csv")


def test_both_command_lines_answer():
    for module in ("cvbook.runs.table1",):
        out = subprocess.run(
            [sys.executable, "-m", module, "--help"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        ).stdout
        assert "--enrich" in out and "--data-home" in out, module
    assert not hasattr(table1, "run_sweep"), "the study re-exports its command line"


def test_committed_records_hold_the_fields_the_chapter_reads():
    runs = driver.read_runs(ROOT / "results" / "table1")
    assert len(runs) == 130
    for r in runs:
        for key in ("n_test", *driver._ADDED, *table1.TIE_KEYS):
            assert key in r, (r["dataset"], r["realisation"], key)
        g = Table1Grid.from_dict(r["grid"])
        for label in ("", "_k5", "_k10"):
            f = r[f"gamma_factor{label}"]
            assert min(abs(f - c) / c for c in g.gamma_factors) < 1e-9
            assert bound_at_level(r, label, g.delta) == pytest.approx(r[f"L_EE{label}"], abs=1e-12)
            assert r[f"L_EE_tied{label}"][0] == r[f"L_EE{label}"]  # the selected row first
            assert r[f"n_tied{label}"] == len(r[f"L_EE_tied{label}"]) >= 1


def test_min_sd_of_integers_is_the_smallest_over_every_set():
    from itertools import combinations_with_replacement

    for n in (1, 2, 4, 5):
        best: dict[int, float] = {}
        for values in combinations_with_replacement(range(3, 9), n):
            s = sum(values)
            best[s] = min(best.get(s, np.inf), float(np.std(values)))
        for s, sd in best.items():
            assert min_sd_of_integers(s / n, n) == pytest.approx(sd, abs=1e-12), (n, s)
    with pytest.raises(ValueError, match="at least lower = 3"):
        min_sd_of_integers(2.9, 10)
    with pytest.raises(ValueError, match="must be an integer"):
        min_sd_of_integers(3.15, 10)
    with pytest.raises(ValueError, match="n"):
        min_sd_of_integers(3.0, 0)


def test_binomial_floor_is_the_hypergeometric_sd_of_a_test_set_from_a_pool():
    from scipy.stats import hypergeom

    for N, K, n in ((2201, 500, 2051), (277, 70, 77), (7400, 120, 7000)):
        sd = np.sqrt(hypergeom(N, K, n).var()) / n
        assert binomial_floor(K / N, n, n_pool=N) == pytest.approx(sd, rel=1e-12)
    assert binomial_floor(0.2, 100) == pytest.approx(0.04)
    assert binomial_floor(0.2, 100, n_pool=100) == 0.0  # the whole pool: no spread
    for kwargs, match in (
        (dict(p=1.5, n_test=10), "p must"),
        (dict(p=0.1, n_test=0), "n_test must"),
        (dict(p=0.1, n_test=10, n_pool=5), "n_pool must"),
        (dict(p=0.1, n_test=10.0), "n_test must"),
    ):
        with pytest.raises(ValueError, match=match):
            binomial_floor(**kwargs)


def test_grid_edges_count_every_edge_once_per_run():
    runs = [
        {"dataset": "a", "C": 0.1, "gamma_factor": 0.01 * (1 + 1e-12), "k_star": 10},
        {"dataset": "a", "C": 10.0, "gamma_factor": 1.0, "k_star": 3},
        {"dataset": "b", "C": 1000.0, "gamma_factor": 10.0, "k_star": 5},
    ]
    e = table1.grid_edges(runs, table1.TABLE1_GRID)
    assert e["a"] == {
        "n": 2,
        "gamma_low": 1,
        "gamma_high": 0,
        "C_low": 1,
        "C_high": 0,
        "k_high": 1,
        "any": 1,
    }
    assert e["b"]["any"] == 1 and e["b"]["C_high"] == 1 and e["b"]["gamma_high"] == 1


def test_z_wide_puts_our_sd_where_the_papers_is_smaller():
    runs = [{"dataset": "x", "L_EE": v} for v in (0.10, 0.12, 0.14)]  # sd 2 (percent)
    row = compare_with_paper(runs, {"x": {"L_EE_mean": 10.0, "L_EE_std": 0.5}}, ["L_EE"])["x"][
        "L_EE"
    ]
    assert row["se"] == pytest.approx(np.sqrt((4 + 0.25) / 3))
    assert row["se_wide"] == pytest.approx(np.sqrt(8 / 3)) and 0 < row["z_wide"] < row["z"]
    row = compare_with_paper(runs, {"x": {"L_EE_mean": 10.0, "L_EE_std": 3.0}}, ["L_EE"])["x"][
        "L_EE"
    ]
    assert row["se_wide"] == row["se"]  # the paper's sd larger: kept


def test_tie_fields_count_ties_and_refit_each_tied_row():
    X, y = table1.GENERATED["twonorm"](dim=2).sample(120, random_state=4)
    dup = Table1Grid(C_values=(1.0, 1.0), gamma_factors=(1.0,), k_values=(3, 5, 10), n_splits=3)
    rec = fit_and_score(X[:90], y[:90], X[90:], y[90:], dup, random_state=2)
    for label in ("", "_k5", "_k10"):  # the duplicated C ties with itself, and refits alike
        assert rec[f"n_tied{label}"] >= 2
        assert rec[f"L_EE_tied{label}"] == [rec[f"L_EE{label}"]] * rec[f"n_tied{label}"]
    one = fit_and_score(X[:90], y[:90], X[90:], y[90:], SMALL, random_state=2)
    assert set(table1.TIE_KEYS) <= set(one)
    for label in ("", "_k5", "_k10"):
        assert one[f"n_tied{label}"] == len(one[f"L_EE_tied{label}"]) >= 1
        assert one[f"L_EE_tied{label}"][0] == one[f"L_EE{label}"]


def test_enrich_adds_the_ties_by_a_verified_full_refit(tmp_path, monkeypatch):
    X, y = table1.GENERATED["twonorm"]().sample(150, random_state=9)
    full = fit_and_score(X[:100], y[:100], X[100:], y[100:], SMALL, random_state=6)
    old = {key: v for key, v in full.items() if key not in table1.TIE_KEYS}
    old.update(dataset="heart", realisation=1, grid=SMALL.to_dict(), commit="abc")
    (tmp_path / "runs").mkdir()
    path = tmp_path / "runs" / "heart_r01.json"
    path.write_text(json.dumps(old))
    monkeypatch.setattr(
        driver, "load_raetsch", lambda *a, **k: (X[:100], y[:100], X[100:], y[100:])
    )
    assert enrich_runs(tmp_path, progress=False) == 1
    rec = json.loads(path.read_text())
    assert {key: rec[key] for key in old} == old
    assert {key: rec[key] for key in table1.TIE_KEYS} == {key: full[key] for key in table1.TIE_KEYS}
    assert enrich_runs(tmp_path, progress=False) == 0
    path.write_text(json.dumps({**old, "test_err_k10": old["test_err_k10"] + 1e-3}))
    with pytest.raises(ValueError, match="the refit gives test_err_k10"):
        enrich_runs(tmp_path, progress=False)
    assert "n_tied" not in json.loads(path.read_text())  # nothing written
