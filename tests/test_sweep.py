"""Tests of cvbook.sweep: atomic writes, resuming, grid consistency, the summary."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cvbook import sweep
from cvbook.provenance import atomic_write, atomic_write_text
from cvbook.sweep import Table1Grid, run_sweep, summarise

TINY = Table1Grid(C_values=(1.0,), gamma_factors=(1.0,), k_values=(5, 10), n_splits=2)


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
    g = sweep.TABLE1_GRID
    assert 5 in g.k_values and 10 in g.k_values
    assert Table1Grid.from_dict(json.loads(json.dumps(g.to_dict()))) == g
    X = np.arange(12.0).reshape(6, 2)
    assert g.gammas(X)[g.gamma_factors.index(1.0)] == pytest.approx(1 / (2 * X.var()))
    assert g.random_state("heart", 1) != g.random_state("heart", 2)


def test_sweep_resumes_and_loses_only_work_in_flight(tmp_path, raetsch_dir, monkeypatch):
    calls = []
    real = sweep.run_one

    def flaky(name, realisation, *args, **kwargs):
        calls.append((name, realisation))
        if realisation == 2:
            raise KeyboardInterrupt  # the sweep is killed while this run is in flight
        return real(name, realisation, *args, **kwargs)

    monkeypatch.setattr(sweep, "run_one", flaky)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(tmp_path, ["titanic"], [1, 2], grid=TINY, n_jobs=1, data_home=raetsch_dir,
                  progress=False)
    files = sorted(p.name for p in (tmp_path / "runs").iterdir())
    assert files == ["titanic_r01.json"]  # finished run kept, nothing half-written
    assert not (tmp_path / "provenance.json").exists()

    monkeypatch.setattr(sweep, "run_one", real)
    calls.clear()
    monkeypatch.setattr(sweep, "run_one", lambda *a, **k: calls.append(a[:2]) or real(*a, **k))
    rows = run_sweep(tmp_path, ["titanic"], [1, 2], grid=TINY, n_jobs=1, data_home=raetsch_dir,
                     progress=False)
    assert calls == [("titanic", 2)]  # the finished run was skipped
    assert rows[0]["n_realisations"] == 2
    prov = json.loads((tmp_path / "provenance.json").read_text())
    assert prov["grid"] == TINY.to_dict() and prov["partial"] is True
    assert (tmp_path / "table1.csv").read_text().startswith("dataset,n_realisations,splits,k_star")

    with pytest.raises(ValueError, match="grid differs"):
        run_sweep(tmp_path, ["titanic"], [3], grid=sweep.TABLE1_GRID, n_jobs=1,
                  data_home=raetsch_dir, progress=False)


def test_summarise_percent_and_sample_std():
    runs = [{"dataset": "x", "splits": "raetsch", "k_star": k, "L_EE": e, "test_err_F": e,
             "L_EE_k5": e, "test_err_k5": e, "L_EE_k10": e, "test_err_k10": e}
            for k, e in ((3, 0.1), (5, 0.3))]
    row = summarise(runs)[0]
    assert row["k_star_mean"] == 4 and row["k_star_std"] == pytest.approx(np.sqrt(2), abs=1e-4)
    assert row["L_EE_mean"] == pytest.approx(20.0) and row["test_err_k10_std"] == pytest.approx(
        np.std([10, 30], ddof=1), abs=1e-4)
