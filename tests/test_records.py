"""One record format for every driver, checked on resume (issue 35, item 1), and one table
format for their numbers (issue 32: :func:`cvbook.records.write_table`).

A resumed run never reports stale or foreign results as its own: each finished part is
recorded in ``<out>/records.json`` with its settings, its code state and a digest of its
files; a part made with other settings or code is refused with a message naming the part
and what differs; a part that does not read back whole, or whose file exists without a
record, is made again; a folder written before records is refused. The drivers are tested
by killing a run and resuming it with changed settings, and with a truncated or foreign
file in ``--out``.
"""

from __future__ import annotations

import functools
import gzip
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from cvbook import records
from cvbook.records import (
    LEDGER,
    TABLE_FORMAT,
    Ledger,
    PartMismatch,
    code_state,
    file_digest,
    read_table,
    write_table,
)
from cvbook.runs import bootstrap as run_bootstrap
from cvbook.runs import coverage as run_coverage
from cvbook.runs import dependence as run_dependence
from cvbook.runs import intervals as run_intervals
from cvbook.runs import which_is_better as run_which_is_better
from cvbook.studies.bootstrap_vs_cv import read_study
from cvbook.studies.dependent_data import LAGGED_CASES, read_record

ROOT = Path(__file__).resolve().parents[1]
CODE = {"package_sha256": "abc", "versions": {"numpy": "2"}, "commit": "c1"}


def _ledger(folder, code=CODE, notes=None):
    return Ledger(folder, code=code, notify=(notes.append if notes is not None else None))


# --------------------------------------------------------------------------- the ledger


def test_a_new_part_is_run_then_skipped(tmp_path):
    ledger = _ledger(tmp_path)
    assert ledger.status("p", {"n": 5}, ["p.csv"]) == "new"
    ledger.start("p", {"n": 5})
    assert ledger.status("p", {"n": 5}, ["p.csv"]) == "resume"
    (tmp_path / "p.csv").write_text("1,2\n")
    ledger.finish("p", {"n": 5}, ["p.csv"], {"wall_time_s": 1.0})
    assert ledger.status("p", {"n": 5}, ["p.csv"]) == "done"
    entry = json.loads((tmp_path / LEDGER).read_text())["parts"]["p"]
    assert entry["state"] == "finished" and entry["code"] == CODE
    assert entry["files"]["p.csv"] == file_digest(tmp_path / "p.csv")


@pytest.mark.parametrize("state", ["started", "finished"])
def test_other_settings_are_refused_naming_the_part_and_each_difference(tmp_path, state):
    ledger = _ledger(tmp_path)
    ledger.start("lda_m20", {"n_repeats": 5, "seed": 0, "sizes": [10, 20]})
    if state == "finished":
        (tmp_path / "a").write_text("x")
        ledger.finish("lda_m20", {"n_repeats": 5, "seed": 0, "sizes": [10, 20]}, ["a"])
    with pytest.raises(PartMismatch) as err:
        ledger.status("lda_m20", {"n_repeats": 10, "seed": 0, "sizes": (10, 21)}, ["a"])
    message = str(err.value)
    assert "part 'lda_m20'" in message
    assert "n_repeats: 5 -> 10" in message and "sizes: [10, 20] -> [10, 21]" in message
    assert "seed" not in message  # what matches is not listed
    with pytest.raises(PartMismatch, match=r"extra: \(not recorded\) -> 1"):
        ledger.status("lda_m20", {"n_repeats": 5, "seed": 0, "sizes": [10, 20], "extra": 1}, [])


def test_other_code_is_refused_naming_both_commits(tmp_path):
    _ledger(tmp_path).start("p", {"n": 1})
    other = {**CODE, "package_sha256": "def", "commit": "c2"}
    with pytest.raises(PartMismatch, match=r"part 'p'.*other code.*c1.*c2.*package_sha256"):
        _ledger(tmp_path, code=other).status("p", {"n": 1}, [])
    newer = {**CODE, "versions": {"numpy": "3"}}
    with pytest.raises(PartMismatch, match=r"versions.numpy: '2' -> '3'"):
        _ledger(tmp_path, code=newer).status("p", {"n": 1}, [])


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.write_bytes(p.read_bytes()[:3]),  # truncated
        lambda p: p.write_text("something else entirely"),  # replaced
        lambda p: p.unlink(),  # missing
    ],
    ids=["truncated", "replaced", "missing"],
)
def test_a_part_that_does_not_read_back_whole_is_redone(tmp_path, damage):
    notes = []
    ledger = _ledger(tmp_path, notes=notes)
    (tmp_path / "p.csv").write_text("1,2,3\n4,5,6\n")
    ledger.finish("p", {"n": 1}, ["p.csv"])
    damage(tmp_path / "p.csv")
    assert ledger.status("p", {"n": 1}, ["p.csv"]) == "new"
    assert len(notes) == 1 and "'p' does not read back whole" in notes[0]
    assert "p.csv" in notes[0]


def test_a_file_with_a_parts_name_but_no_record_is_not_taken_as_finished(tmp_path):
    notes = []
    ledger = _ledger(tmp_path, notes=notes)
    (tmp_path / "q").write_text("x")
    ledger.finish("q", {"n": 1}, ["q"])  # the ledger exists
    (tmp_path / "p.csv").write_text("a file nobody recorded")
    assert ledger.status("p", {"n": 1}, ["p.csv"]) == "new"
    assert "does not record the part as finished" in notes[0]


def test_a_folder_written_before_records_is_refused(tmp_path):
    (tmp_path / "lda_m20.csv.gz").write_bytes(b"legacy")
    with pytest.raises(PartMismatch, match=r"part 'lda_m20'.*holds no records.json"):
        _ledger(tmp_path).status("lda_m20", {"n": 1}, ["lda_m20.csv.gz"])


@pytest.mark.parametrize(
    "text", ["{not json", '{"parts": {}}', '{"format": "cvbook-records/1", "parts": []}', ""]
)
def test_a_ledger_that_does_not_read_back_is_refused_by_name(tmp_path, text):
    (tmp_path / LEDGER).write_text(text)
    with pytest.raises(PartMismatch, match=r"records\.json is not a record this package wrote"):
        _ledger(tmp_path).status("p", {}, [])


def test_forget_frees_a_part_that_made_nothing(tmp_path):
    ledger = _ledger(tmp_path)
    ledger.start("p", {"n": 1})
    ledger.forget("p")
    assert ledger.status("p", {"n": 2}, []) == "new"


def test_settings_must_be_json_values(tmp_path):
    with pytest.raises(TypeError, match="settings must be JSON values"):
        _ledger(tmp_path).start("p", {"f": object()})


def test_the_code_state_changes_with_the_package_source():
    a = code_state()
    assert len(a["package_sha256"]) == 64 and a == code_state()
    assert set(a["versions"]) >= {"numpy", "scipy", "scikit-learn"}


def test_the_ledger_checks_its_folder(tmp_path):
    with pytest.raises(TypeError, match="folder"):
        Ledger(42)
    (tmp_path / "f").write_text("x")
    with pytest.raises(ValueError, match="not a folder"):
        Ledger(tmp_path / "f")


# --------------------------------------------------------------------------- the drivers

BOOT = ["--learners", "lda", "--m", "20", "--n-bootstraps", "2", "--no-progress"]


def _boot(out, n_repeats, *extra):
    return run_bootstrap.main(["--out", str(out), "--n-repeats", str(n_repeats), *BOOT, *extra])


def _kill_when(module, argv, ready, timeout=300):
    """Run ``python -m module *argv`` and SIGKILL it once ``ready()`` holds (it must not
    have finished by then)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", module, *argv]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    deadline = time.time() + timeout
    while time.time() < deadline and not ready() and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL, "the run finished before it could be killed"


def _redone_when_truncated(run, out, name, part, capsys):
    """Truncate the finished file ``name`` of ``part`` and ``run(out)`` again: the part is
    made again, bit for bit. Returns its bytes."""
    good = (out / name).read_bytes()
    (out / name).write_bytes(good[:40])  # truncated
    assert run(out) == 0
    assert f"'{part}' does not read back whole" in capsys.readouterr().err
    assert (out / name).read_bytes() == good  # made again, bit for bit
    return good


def _refused_without_records(run, folder, name, part, data, capsys):
    """A folder holding ``name`` (a part's name) but no ledger: ``run(folder)`` is refused
    with exit status 2, naming ``part``, and leaves the file alone."""
    folder.mkdir()
    (folder / name).write_bytes(data)
    with pytest.raises(SystemExit) as exit_:
        run(folder)
    assert exit_.value.code == 2
    assert f"part '{part}'" in capsys.readouterr().err
    assert (folder / name).read_bytes() == data  # left alone


def test_bootstrap_driver_killed_and_resumed_with_other_settings_is_refused(tmp_path, capsys):
    """Kill a real run once some repetitions are saved; resume it with more repetitions."""
    out = tmp_path / "out"
    parts = out / "parts" / "lda_m20"
    argv = ["--out", str(out), "--n-repeats", "400", *BOOT]
    _kill_when("cvbook.runs.bootstrap", argv, lambda: len(list(parts.glob("rep*.pkl"))) >= 2)
    saved = len(list(parts.glob("rep*.pkl")))
    assert saved >= 2 and not (out / "lda_m20.csv.gz").exists()
    assert json.loads((out / LEDGER).read_text())["parts"]["lda_m20"]["state"] == "started"

    with pytest.raises(SystemExit) as exit_:  # other settings: refused, naming the part
        _boot(out, 401)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "part 'lda_m20'" in err and "n_repeats: 400 -> 401" in err
    with pytest.raises(SystemExit):
        _boot(out, 400, "--seed", "1")
    assert "seed: 0 -> 1" in capsys.readouterr().err
    assert len(list(parts.glob("rep*.pkl"))) == saved  # the refusals touched nothing

    # the same settings and code resume the saved repetitions (running all 400 is too long
    # here: test_coverage_driver_resumes_a_killed_run checks a resumed run's numbers)
    ledger = Ledger(out)
    settings = json.loads((out / LEDGER).read_text())["parts"]["lda_m20"]["settings"]
    assert ledger.status("lda_m20", settings, ["lda_m20.csv.gz"]) == "resume"


def test_bootstrap_driver_resumes_finished_parts_and_refuses_changed_ones(tmp_path, capsys):
    out = tmp_path / "out"
    assert _boot(out, 3) == 0
    first = read_study(out / "lda_m20.csv.gz")
    assert _boot(out, 3) == 0  # finished with the same settings: skipped
    np.testing.assert_array_equal(read_study(out / "lda_m20.csv.gz")["risk"], first["risk"])
    # the issue's case: more repetitions used to exit 0 and keep the old part
    with pytest.raises(SystemExit) as exit_:
        _boot(out, 4)
    assert exit_.value.code == 2
    assert "n_repeats: 3 -> 4" in capsys.readouterr().err
    assert read_study(out / "lda_m20.csv.gz").n_repeats == 3


def test_bootstrap_driver_redoes_a_truncated_part_and_refuses_a_foreign_folder(tmp_path, capsys):
    out = tmp_path / "out"
    assert _boot(out, 3) == 0
    run = functools.partial(_boot, n_repeats=3)
    good = _redone_when_truncated(run, out, "lda_m20.csv.gz", "lda_m20", capsys)
    _refused_without_records(run, tmp_path / "foreign", "lda_m20.csv.gz", "lda_m20", good, capsys)


def test_bootstrap_driver_a_bad_value_does_not_bind_the_next_run(tmp_path, capsys):
    out = tmp_path / "out"
    with pytest.raises(SystemExit):
        _boot(out, 3, "--distribution", "nope")
    capsys.readouterr()
    assert _boot(out, 3) == 0


COV = ["--n", "40", "--k", "4", "--n-repeats", "2", "--n-splits", "2", "--no-progress"]


def test_coverage_driver_checks_settings_and_files_on_resume(tmp_path, capsys):
    out = tmp_path / "run"
    assert run_coverage.main(["--out", str(out), *COV]) == 0
    records = (tmp_path / "run.records.csv.gz").read_bytes()
    assert run_coverage.main(["--out", str(out), *COV]) == 0  # finished: not made again
    assert "finished with these settings" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        run_coverage.main(["--out", str(out), *COV[:-1], "--seed", "3", "--no-progress"])
    assert exit_.value.code == 2
    assert "part 'run'" in capsys.readouterr().err
    (tmp_path / "run.records.csv.gz").write_bytes(records[:50])  # truncated
    assert run_coverage.main(["--out", str(out), *COV]) == 0
    assert "does not read back whole" in capsys.readouterr().err
    assert (tmp_path / "run.records.csv.gz").read_bytes() == records


def test_coverage_driver_resumes_a_killed_run(tmp_path, capsys):
    """Kill a real run after its first repetition: other settings are refused; the same
    settings finish it, with the numbers of an uninterrupted run."""
    out = tmp_path / "killed"
    argv = ["--out", str(out), *COV[:5], "12", *COV[6:]]  # 12 repetitions
    parts = tmp_path / "killed.parts"
    _kill_when("cvbook.runs.coverage", argv, lambda: bool(list(parts.glob("rep*.pkl"))))
    assert list(parts.glob("rep*.pkl")) and not (tmp_path / "killed.json").exists()
    with pytest.raises(SystemExit):
        run_coverage.main([*argv[:7], "13", *argv[8:]])
    assert "n_repeats: 12 -> 13" in capsys.readouterr().err
    assert run_coverage.main(argv) == 0
    _, prov = run_coverage.read_results(out)
    assert prov["repetitions_resumed"] >= 1
    fresh = tmp_path / "fresh"
    assert run_coverage.main(["--out", str(fresh), *argv[2:]]) == 0
    a, b = run_coverage.read_results(out)[0], run_coverage.read_results(fresh)[0]
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])


def test_intervals_driver_refuses_a_folder_written_before_records(tmp_path, capsys):
    (tmp_path / "learning_curve.json").write_text("{}")
    argv = ["--out", str(tmp_path), "--learning-curve", "--scale", "0.002", "--no-progress"]
    with pytest.raises(SystemExit) as exit_:
        run_intervals.main(argv)
    assert exit_.value.code == 2
    assert "part 'learning_curve'" in capsys.readouterr().err


def test_intervals_driver_learning_curve_is_recorded_and_checked(tmp_path, capsys):
    argv = ["--out", str(tmp_path), "--learning-curve", "--scale", "0.002", "--no-progress"]
    assert run_intervals.main(argv) == 0
    entry = json.loads((tmp_path / LEDGER).read_text())["parts"]["learning_curve"]
    assert entry["state"] == "finished" and entry["settings"]["plan"]["n_repeats"] == 2
    assert run_intervals.main(argv) == 0
    assert "finished with these settings" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run_intervals.main([*argv, "--seed", "5"])
    assert "part 'learning_curve'" in capsys.readouterr().err


def test_the_committed_records_still_read():
    """The records under results/ were written before records.json: they still load."""
    from cvbook.book import results_path
    from cvbook.runs.coverage import read_results
    from cvbook.runs.intervals import read_interval_record
    from cvbook.runs.table1 import read_runs

    for path in sorted(results_path("bootstrap").glob("*.csv.gz")):
        assert read_study(path).n_repeats >= 2
    assert json.loads(results_path("bootstrap", "provenance.json").read_text())["parts"]
    for name in ("ringnorm", "twonorm"):
        records, provenance = read_results(results_path("coverage", f"{name}.json").with_suffix(""))
        assert len(records["method"]) > 0 and "commit" in provenance
    for name in ("coverage", "comparison", "learning_curve"):
        records, meta = read_interval_record(
            results_path("intervals", f"{name}.json").with_suffix("")
        )
        assert len(next(iter(records.values()))) > 0 and "provenance" in meta
    assert len(read_runs(results_path("table1"))) > 0
    # chapter 8's and chapter 10's, as the chapters read them
    prov = json.loads(results_path("dependence", "provenance.json").read_text())
    phi = prov["parameters"]["phi"]
    assert (
        read_record(results_path("dependence", f"time_phi{phi:g}.csv.gz"))["risk_future"].size
        == prov["parameters"]["n_repeats"]
    )
    for case in LAGGED_CASES:
        assert len(read_record(results_path("dependence", f"lagged_phi{phi:g}_{case}.csv.gz")))
    parts = json.loads(results_path("which_is_better", "provenance.json").read_text())["parts"]
    for name, part in parts.items():
        records = run_coverage.read_records(results_path("which_is_better") / name)
        assert len(next(iter(records.values()))) > 0 and part["parameters"]["n_repeats"] > 0


def test_an_amended_part_reads_back_whole_and_keeps_both_code_states(tmp_path):
    ledger = _ledger(tmp_path)
    (tmp_path / "r.json").write_text('{"a": 1}')
    ledger.finish("r", {"n": 1}, ["r.json"])
    (tmp_path / "r.json").write_text('{"a": 1, "b": 2}')  # a migration adds a field
    newer = _ledger(tmp_path, code={**CODE, "commit": "c9"})
    newer.amend("r", ["r.json"], "added b")
    assert newer.status("r", {"n": 1}, ["r.json"]) == "done"
    entry = json.loads((tmp_path / LEDGER).read_text())["parts"]["r"]
    assert entry["code"]["commit"] == "c1" and entry["amended"][0]["code"]["commit"] == "c9"
    newer.amend("unknown", ["r.json"], "nothing")  # not recorded: nothing happens
    assert "unknown" not in json.loads((tmp_path / LEDGER).read_text())["parts"]


def test_table1_sweep_redoes_a_truncated_run_and_refuses_a_folder_without_records(
    tmp_path, monkeypatch, capsys
):
    from cvbook.datasets.raetsch import requires_raetsch
    from cvbook.runs.table1 import run_sweep
    from cvbook.studies.table1_replication import Table1Grid

    shared = Path(
        os.environ.get("CVBOOK_SHARED_RAETSCH", ROOT.parent / "shared" / "data" / "raetsch")
    )
    monkeypatch.delenv("CVBOOK_DATA", raising=False)
    home = requires_raetsch(shared)
    tiny = Table1Grid(C_values=(1.0,), gamma_factors=(1.0,), k_values=(5, 10), n_splits=2)
    kwargs = dict(grid=tiny, n_jobs=1, data_home=home, progress=False)
    out = tmp_path / "sweep"
    run_sweep(out, ["titanic"], [1], **kwargs)
    path = out / "runs" / "titanic_r01.json"
    first = json.loads(path.read_text())
    entry = json.loads((out / LEDGER).read_text())["parts"]["titanic_r01"]
    assert entry["settings"]["grid"] == tiny.to_dict() and entry["state"] == "finished"
    path.write_text(path.read_text()[:100])  # truncated
    run_sweep(out, ["titanic"], [1], **kwargs)
    assert "'titanic_r01' does not read back whole" in capsys.readouterr().err
    again = json.loads(path.read_text())
    assert again["L_EE"] == first["L_EE"] and again["k_star"] == first["k_star"]

    legacy = tmp_path / "legacy"
    (legacy / "runs").mkdir(parents=True)
    (legacy / "runs" / "titanic_r01.json").write_text(path.read_text())
    with pytest.raises(PartMismatch, match=r"part 'titanic_r01'.*holds no records\.json"):
        run_sweep(legacy, ["titanic"], [1], **kwargs)


def test_bootstrap_driver_remakes_a_truncated_or_foreign_repetition(tmp_path, capsys):
    """A checkpoint's repetition that does not read back is made again, not unpickled into
    a crash; the part then equals an uninterrupted run."""
    out, clean = tmp_path / "out", tmp_path / "clean"
    assert _boot(clean, 3) == 0
    ledger = Ledger(out)
    settings = json.loads((clean / LEDGER).read_text())["parts"]["lda_m20"]["settings"]
    ledger.start("lda_m20", settings)  # as a killed run leaves it
    parts = out / "parts" / "lda_m20"
    parts.mkdir(parents=True)
    (parts / "rep000000.pkl").write_bytes(b"\\x80\\x04truncated")
    (parts / "rep000001.pkl").write_text("a foreign file")
    assert _boot(out, 3) == 0
    assert "did not read back whole" in capsys.readouterr().err
    assert (out / "lda_m20.csv.gz").read_bytes() == (clean / "lda_m20.csv.gz").read_bytes()


# ------------------------------------------------- chapter 8's and chapter 10's drivers

WIB = ["--cases", "null", "--n", "40", "--no-progress"]


def _wib(out, n_repeats, *extra):
    return run_which_is_better.main(
        ["--out", str(out), "--n-repeats", str(n_repeats), *WIB, *extra]
    )


def test_which_is_better_driver_skips_a_finished_part_and_refuses_changed_settings(
    tmp_path, capsys
):
    out = tmp_path / "out"
    assert _wib(out, 2) == 0
    entry = json.loads((out / LEDGER).read_text())["parts"]["null_n40"]
    assert entry["state"] == "finished" and entry["settings"]["n_repeats"] == 2
    first = (out / "null_n40.records.csv.gz").read_bytes()
    assert _wib(out, 2) == 0  # finished with the same settings: skipped
    assert (out / "null_n40.records.csv.gz").read_bytes() == first
    with pytest.raises(SystemExit) as exit_:  # more repetitions: refused, naming the part
        _wib(out, 3)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "part 'null_n40'" in err and "n_repeats: 2 -> 3" in err
    with pytest.raises(SystemExit) as exit_:
        _wib(out, 2, "--seed", "1")
    assert exit_.value.code == 2
    assert "seed: 0 -> 1" in capsys.readouterr().err
    assert (out / "null_n40.records.csv.gz").read_bytes() == first  # refusals touched nothing


def test_which_is_better_driver_killed_and_resumed_with_other_settings_is_refused(tmp_path, capsys):
    """Kill a real run once its part is recorded as started; resume it changed."""
    killed = tmp_path / "killed"
    argv = ["--out", str(killed), "--n-repeats", "500", *WIB]
    _kill_when("cvbook.runs.which_is_better", argv, (killed / LEDGER).exists)
    assert json.loads((killed / LEDGER).read_text())["parts"]["null_n40"]["state"] == "started"
    assert not (killed / "null_n40.records.csv.gz").exists()
    with pytest.raises(SystemExit) as exit_:
        _wib(killed, 501)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "part 'null_n40'" in err and "n_repeats: 500 -> 501" in err

    out, clean = tmp_path / "out", tmp_path / "clean"
    assert _wib(clean, 2) == 0
    settings = json.loads((clean / LEDGER).read_text())["parts"]["null_n40"]["settings"]
    Ledger(out).start("null_n40", settings)  # as a run killed before it wrote its part
    with pytest.raises(SystemExit) as exit_:
        _wib(out, 3)
    assert exit_.value.code == 2
    assert "part 'null_n40'" in capsys.readouterr().err
    assert _wib(out, 2) == 0  # the same settings: the part is made, as an uninterrupted run
    got = (out / "null_n40.records.csv.gz").read_bytes()
    assert got == (clean / "null_n40.records.csv.gz").read_bytes()


def test_which_is_better_driver_redoes_a_truncated_part_and_refuses_a_foreign_folder(
    tmp_path, capsys
):
    out, name = tmp_path / "out", "null_n40.records.csv.gz"
    assert _wib(out, 2) == 0
    run = functools.partial(_wib, n_repeats=2)
    good = _redone_when_truncated(run, out, name, "null_n40", capsys)
    # a file with a part's name that the ledger does not record as finished: made again
    (out / "difference_n40.records.csv.gz").write_bytes(good)
    assert _wib(out, 2, "--cases", "difference") == 0
    assert "'difference_n40'" in capsys.readouterr().err
    assert (out / "difference_n40.records.csv.gz").read_bytes() != good

    _refused_without_records(run, tmp_path / "foreign", name, "null_n40", good, capsys)


DEP = ["--n-repeats", "3", "--phi", "0.5"]
DEP_FILES = ["time_phi0.5.csv.gz", *(f"lagged_phi0.5_{c}.csv.gz" for c in LAGGED_CASES)]


def test_dependence_driver_checks_settings_and_files_on_resume(tmp_path, capsys):
    out = tmp_path / "out"
    assert run_dependence.main(["--out", str(out), *DEP]) == 0
    entry = json.loads((out / LEDGER).read_text())["parts"]["phi0.5"]
    assert entry["state"] == "finished" and sorted(entry["files"]) == sorted(DEP_FILES)
    good = {name: (out / name).read_bytes() for name in DEP_FILES}
    assert run_dependence.main(["--out", str(out), *DEP]) == 0  # finished: not made again
    assert "finished with these settings" in capsys.readouterr().err
    for option, change in (("--n-repeats", "n_repeats: 3 -> 4"), ("--seed", "seed: 0 -> 4")):
        with pytest.raises(SystemExit) as exit_:
            run_dependence.main(["--out", str(out), *DEP, option, "4"])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "part 'phi0.5'" in err and change in err
    (out / DEP_FILES[2]).write_bytes(good[DEP_FILES[2]][:30])  # truncated
    assert run_dependence.main(["--out", str(out), *DEP]) == 0
    assert f"'phi0.5' does not read back whole ({DEP_FILES[2]}" in capsys.readouterr().err
    assert {name: (out / name).read_bytes() for name in DEP_FILES} == good  # bit for bit
    assert read_record(out / DEP_FILES[0])["risk_future"].size == 3


def test_dependence_driver_refuses_a_folder_without_records_and_a_killed_part_changed(
    tmp_path, capsys
):

    def run(out):
        return run_dependence.main(["--out", str(out), *DEP])

    _refused_without_records(run, tmp_path / "legacy", DEP_FILES[0], "phi0.5", b"foreign", capsys)

    killed = tmp_path / "killed"
    settings = {
        "phi": 0.5,
        "n_repeats": 3,
        "seed": 0,
        "lagged_cases": list(LAGGED_CASES),
        "defaults": run_dependence._DEFAULTS,
    }
    Ledger(killed).start("phi0.5", settings)  # as a run killed before it wrote its part
    with pytest.raises(SystemExit) as exit_:
        run_dependence.main(["--out", str(killed), "--n-repeats", "4", "--phi", "0.5"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "part 'phi0.5'" in err and "n_repeats: 3 -> 4" in err
    assert not any((killed / name).exists() for name in DEP_FILES)


def test_bootstrap_driver_class_mix_study_finishes(tmp_path):
    # class_mix keeps no checkpoint: the driver must not stop after writing its study
    assert _boot(tmp_path / "out", 2, "--study", "class_mix") == 0
    assert list((tmp_path / "out").glob("class_mix_lda_m20.*"))
    assert not (tmp_path / "out" / "parts").exists()


# --------------------------------------------------------------------------- tables (issue 32)

_DTYPES = [
    np.dtype(t)
    for t in (
        *(bool, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32),
        *(np.uint64, np.float16, np.float32, np.float64),
    )
]
_TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=8
)


@st.composite
def _columns(draw):
    length = draw(st.integers(0, 6))
    names = draw(
        st.lists(
            st.text(min_size=1, max_size=6).filter(
                lambda t: "\x00" not in t and not any(0xD800 <= ord(c) <= 0xDFFF for c in t)
            ),
            min_size=1,
            max_size=4,
            unique=True,
        )
    )
    out = {}
    for name in names:
        if draw(st.booleans()):
            out[name] = np.array(draw(st.lists(_TEXT, min_size=length, max_size=length)), dtype=str)
        else:
            out[name] = draw(hnp.arrays(draw(st.sampled_from(_DTYPES)), length))
    return out


_META = st.dictionaries(
    st.text(max_size=5),
    st.one_of(
        st.integers(-(2**53), 2**53),
        st.floats(allow_nan=False, allow_infinity=False),
        _TEXT,
        st.booleans(),
    ),
    max_size=3,
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(columns=_columns(), meta=_META)
def test_every_dtype_round_trips(tmp_path, columns, meta):
    """Each column comes back in its order, with its dtype and every bit (NaN, -0.0, inf
    included); the meta comes back equal."""
    write_table(tmp_path / "h.csv.gz", columns, meta)
    back, back_meta = read_table(tmp_path / "h.csv.gz")
    assert list(back) == list(columns) and back_meta == meta
    for key, values in columns.items():
        got = back[key]
        if values.dtype.kind == "U":  # a str column comes back at its longest value's width
            assert got.dtype.kind == "U" and got.tolist() == values.tolist(), key
        else:
            assert got.dtype == values.dtype, key
            assert got.tobytes() == values.tobytes() or (
                values.dtype.kind == "f"
                and np.array_equal(got, values, equal_nan=True)
                # a NaN's sign and payload carry no value and CSV text does not keep them
                and np.array_equal(
                    np.signbit(got[~np.isnan(values)]), np.signbit(values[~np.isnan(values)])
                )
            ), key
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_table_is_the_same_bytes_each_time_and_reads_by_hand(tmp_path):
    columns = {"method": ["a,b", "c"], "n": [5, 6], "risk": [0.1, 1 / 3], "ok": [True, False]}
    first = write_table(tmp_path / "a.csv.gz", columns, {"m": 20}).read_bytes()
    assert write_table(tmp_path / "b.csv.gz", columns, {"m": 20}).read_bytes() == first
    assert gzip.decompress(first).decode().splitlines() == [
        f"# {TABLE_FORMAT} " + '{"m": 20}',
        "method:str,n:int64,risk:float64,ok:bool",
        '"a,b",5,0.1,True',
        f"c,6,{1 / 3!r},False",
    ]


@pytest.mark.parametrize(
    "columns, meta, error, match",
    [
        ([1, 2], None, TypeError, "columns must be a dict"),
        ({}, None, ValueError, "at least one column"),
        ({"a": [1, 2], "b": [1]}, None, ValueError, "one length"),
        ({"a": [[1, 2]]}, None, ValueError, "must be 1-d"),
        ({"a": [1 + 2j]}, None, TypeError, "dtype complex"),
        ({"a": np.array([object()], dtype=object)}, None, TypeError, "dtype object"),
        ({"": [1]}, None, ValueError, "non-empty strings"),
        ({"a": [1]}, [("m", 1)], TypeError, "meta must be a dict"),
        ({"a": [1]}, {"x": float("nan")}, ValueError, "meta must hold JSON values"),
        ({"a": [1]}, {"x": object()}, ValueError, "meta must hold JSON values"),
        ({"a": ["\ud800"]}, None, ValueError, "valid Unicode"),
    ],
)
def test_write_table_refuses_and_writes_nothing(tmp_path, columns, meta, error, match):
    with pytest.raises(error, match=match):
        write_table(tmp_path / "bad.csv.gz", columns, meta)
    assert list(tmp_path.iterdir()) == []


def test_write_table_refuses_a_bad_path(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(TypeError, match="path must be a non-empty path"):
        write_table(3, {"a": [1]})
    with pytest.raises(ValueError, match="path must be a file path"):
        write_table(tmp_path, {"a": [1]})
    with pytest.raises(ValueError, match="path must be below a folder"):
        write_table(tmp_path / "f" / "t.csv.gz", {"a": [1]})


_FORMAT_LINE = f"# {TABLE_FORMAT} {{}}\n"


def _gz(body: str) -> bytes:
    """A gzip table file: the format line with no meta, then ``body``."""
    return gzip.compress((_FORMAT_LINE + body).encode(), mtime=0)  # ids stable across workers


@pytest.mark.parametrize(
    "data, match",
    [
        (
            _gz("a:int64,b\n1,2\n"),
            "field 'b' must be name:type",
        ),
        (_gz("a:int64,b:float64\n1\n"), "row 1 must have 2"),
        (_gz("a:int64\n1,2\n"), "row 1 must have 1"),
        (_gz("a:zz\n1\n"), "column 'a' has type 'zz'"),
        (_gz("a:i\n1\n"), "column 'a' has type 'i'"),
        (_gz("a:int64\n1\nx\n"), "'a' must hold int64.*row 2"),
        (_gz("a:uint8\n256\n"), "'a' must hold uint8"),
        (_gz("a:bool\nyes\n"), "'a' must hold True or False"),
        (_gz("a:int64,a:int64\n1,2\n"), "each column once"),
        (gzip.compress(_FORMAT_LINE.encode(), mtime=0), "must have a header line"),
        (
            gzip.compress(f"# {TABLE_FORMAT} [1]\na:int64\n".encode(), mtime=0),
            "meta must be a JSON",
        ),
        (gzip.compress(f"# {TABLE_FORMAT} {{\na:int64\n".encode(), mtime=0), "meta must be a JSON"),
        (gzip.compress(b"a:i,b:f\n1,0.5\n", mtime=0), "must start with '# cvbook-table/1'"),
        (gzip.compress(b"", mtime=0), "must start with"),
        (b"not gzip", "must be a whole gzip file"),
        (gzip.compress(b"\xff\xfe", mtime=0), "must be a whole gzip file of UTF-8 text"),
    ],
)
def test_a_malformed_table_is_refused_naming_the_file(tmp_path, data, match):
    path = tmp_path / "bad.csv.gz"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=match) as info:
        read_table(path)
    assert str(path) in str(info.value)


def test_a_truncated_table_is_refused_naming_the_file(tmp_path):
    path = write_table(tmp_path / "t.csv.gz", {"x": np.arange(5000) / 7})
    whole = path.read_bytes()
    for cut in (len(whole) // 2, len(whole) - 4):  # mid-stream; the trailer cut short
        path.write_bytes(whole[:cut])
        with pytest.raises(ValueError, match=f"'{path}' must be a whole gzip file"):
            read_table(path)
    with pytest.raises(FileNotFoundError, match="must be a table file, got no such file"):
        read_table(tmp_path / "missing.csv.gz")
    with pytest.raises(TypeError, match="path must be a non-empty path"):
        read_table(None)


class _DiskFull(OSError):
    pass


def test_a_write_that_fails_midway_leaves_no_file_and_no_temporary(tmp_path, monkeypatch):
    """The gzip stream breaks after half its bytes: no table, no temporary file, and a
    table already there is left as it was."""
    real = gzip.GzipFile

    class Breaks(real):
        def write(self, data):
            super().write(data[: len(data) // 2])
            raise _DiskFull("no space left on device")

    columns = {"x": np.arange(1000) / 3}
    monkeypatch.setattr(records.gzip, "GzipFile", Breaks)
    with pytest.raises(_DiskFull):
        write_table(tmp_path / "t.csv.gz", columns)
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(records.gzip, "GzipFile", real)
    before = write_table(tmp_path / "t.csv.gz", {"x": [1.0]}).read_bytes()
    monkeypatch.setattr(records.gzip, "GzipFile", Breaks)
    with pytest.raises(_DiskFull):
        write_table(tmp_path / "t.csv.gz", columns)
    assert [p.name for p in tmp_path.iterdir()] == ["t.csv.gz"]
    assert (tmp_path / "t.csv.gz").read_bytes() == before


# --------------------------------------------------------------------------- the migration


def _migrate_tool():
    spec = importlib.util.spec_from_file_location(
        "migrate_records", ROOT / "tools/migrate_records.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_committed_record_is_in_the_one_format():
    """``tools/migrate_records.py --check`` (run by ``make lint``) passes on the repository."""
    tool = _migrate_tool()
    files = tool.record_files()
    assert len(files) >= 21 and all(tool.in_format(p) for p in files)
    assert tool.main(["--check"]) == 0


def test_the_migration_keeps_every_bit_and_runs_once(tmp_path):
    """An old typed file and an old keyed file become tables whose columns are the old
    reader's to the bit; their provenance is amended once; a second run changes nothing."""
    tool = _migrate_tool()
    typed = tmp_path / "run.records.csv.gz"
    typed.write_bytes(gzip.compress(b"method:U,n:i,risk:f\nkfold,50,0.1\nloo,7,-0.0\n"))
    (tmp_path / "run.json").write_text(json.dumps({"provenance": {"seed": 1}}, indent=1) + "\n")
    keyed = tmp_path / "lda_m20.csv.gz"
    keyed.write_bytes(gzip.compress(b"# learner=lda m=20 phi=0.95\nrisk,oob\n0.25,nan\n1e-300,3\n"))
    (tmp_path / "provenance.json").write_text(json.dumps({"parts": {}}, indent=1) + "\n")
    old = {p: tool.parse_old(p) for p in (typed, keyed)}
    assert [tool.migrate(p) for p in (typed, keyed)] == ["typed", "keyed"]
    for path, (_, columns, meta) in old.items():
        back, back_meta = read_table(path)
        assert back_meta == meta and list(back) == list(columns)
        assert all(tool.same(back[k], columns[k]) for k in columns)
    assert read_table(keyed).meta == {"learner": "lda", "m": 20, "phi": 0.95}
    assert tool._keyed_value("true") == "true" and tool._keyed_value("NaN") == "NaN"
    assert read_table(typed).columns["n"].dtype == np.int64
    tool.amend(tmp_path / "run.json", {typed.name: "typed"}, "abc")
    entry = json.loads((tmp_path / "run.json").read_text())["amended"][0]
    assert entry["files"][typed.name] == file_digest(typed)
    assert "numbers unchanged" in entry["what"] and "commit abc" in entry["what"]
    assert tool.provenance_file(typed) == tmp_path / "run.json"
    assert tool.provenance_file(keyed) == tmp_path / "provenance.json"
    assert tool.in_format(typed) and tool.in_format(keyed)


#: Per committed record: the first 16 hex digits of the SHA-256 of the file as migrated, and
#: of what main's chapter-facing readers returned from the file before the migration (at
#: 020ea1b; each column's name, dtype and bytes in order, then a study's m, learner and
#: distribution as JSON).
_BEFORE_MIGRATION = {
    "bootstrap/1nn_m20.csv.gz": ("9d45a2fb43b49d08", "a6999c11adfe862c"),
    "bootstrap/1nn_m40.csv.gz": ("762875f2c1173fdf", "04bbb8fbf6467cfc"),
    "bootstrap/lda_m20.csv.gz": ("c42842609cb084f7", "22201ae18d112eb9"),
    "bootstrap/lda_m40.csv.gz": ("ff7b07b883f432bc", "e001869d6f772378"),
    "bootstrap/svc_m40.csv.gz": ("40a0b915863639d1", "5c8e5513d2db44a0"),
    "bootstrap_class_mix/class_mix_lda_m20.csv.gz": ("eecb5822f69d4c2e", "be7d8fbe2538e8d7"),
    "bootstrap_class_mix/class_mix_lda_m40.csv.gz": ("6be186d4c2bfaae0", "75a25a328bbc7eb3"),
    "coverage/ringnorm.records.csv.gz": ("2025509103fa6cb9", "6a0946a13ddaf2ab"),
    "coverage/ringnorm_svc.records.csv.gz": ("07d52c9c341c3ac4", "0acd957c48303ac9"),
    "coverage/twogaussians.records.csv.gz": ("0b200aab8e62f74c", "a62466f4672134a9"),
    "coverage/twonorm.records.csv.gz": ("bf14ac2a93b425d0", "5a681fd0659be368"),
    "coverage/twonorm_svc.records.csv.gz": ("491386108a72f509", "60df122efc73f83c"),
    "dependence/lagged_phi0.95_ar1_5nn.csv.gz": ("e4cdf9908fb78c35", "7514aefed8b5b6fd"),
    "dependence/lagged_phi0.95_ar1_ols.csv.gz": ("b78db891b7407eb2", "38bfefd45fbecae9"),
    "dependence/lagged_phi0.95_series_5nn.csv.gz": ("7b7a9382a085730c", "80a8de1f82eba872"),
    "dependence/time_phi0.95.csv.gz": ("1b33f75a1530973c", "27aa2e60c29cd770"),
    "intervals/comparison.csv.gz": ("4f626c514f48172c", "9ac40836f434c51f"),
    "intervals/coverage.csv.gz": ("70dfdd04544e59d4", "c5e7cf5bed168568"),
    "intervals/learning_curve.csv.gz": ("eb25f4880d356c9d", "766ab33da9fbab49"),
    "which_is_better/difference_n200.records.csv.gz": ("d9e800cd537459c6", "f22f05f7907ddb85"),
    "which_is_better/null_n200.records.csv.gz": ("b23cb22829fadc64", "d9cad6ac80ac1f0b"),
}


def _chapter_read(path: Path) -> tuple[dict[str, np.ndarray], dict]:
    """``path`` read as its chapter reads it: the columns, and a study's own fields."""
    from cvbook.runs.intervals import read_interval_record

    folder = path.parent.name
    if folder in ("coverage", "which_is_better"):
        return run_coverage.read_records(
            path.parent / path.name.removesuffix(".records.csv.gz")
        ), {}
    if folder == "intervals":
        return read_interval_record(path.parent / path.name.removesuffix(".csv.gz"))[0], {}
    if folder == "dependence":
        return read_record(path), {}
    from cvbook.learners import LEGACY_NAMES

    study = read_study(path)
    # main's reader gave the learner's name as the file says it; since the registry
    # (cvbook.learners) the reader gives its current name, so map it back to compare
    old_name = {new: old for old, new in LEGACY_NAMES["bootstrap"].items()}
    return study.values, {
        "m": study.m,
        "learner": old_name.get(study.learner, study.learner),
        "distribution": study.distribution,
    }


@pytest.mark.parametrize("name", sorted(_BEFORE_MIGRATION))
def test_the_chapters_readers_give_what_they_gave_before_the_migration(name):
    """On each committed record, the chapter's reader returns, to the bit, what main's
    reader returned from the file in its old dialect (issue 32's migration)."""
    import hashlib

    path = ROOT / "results" / name
    file_sha, before = _BEFORE_MIGRATION[name]
    if hashlib.sha256(path.read_bytes()).hexdigest()[:16] != file_sha:
        pytest.skip(f"{name} was made again after the migration: its numbers are new")
    columns, fields = _chapter_read(path)
    digest = hashlib.sha256()
    for key, values in columns.items():
        digest.update(f"{key}\0{values.dtype.str}\0".encode())
        digest.update(values.tobytes())
    digest.update(json.dumps(fields, sort_keys=True).encode())
    assert digest.hexdigest()[:16] == before


def test_a_special_file_is_never_written_over(tmp_path):
    """A FIFO (like /dev/null, a device) at the path is refused at the door and stays what
    it was: os.replace would have put a regular file in its place (a referee's run as root
    turned /dev/null into a file)."""
    from cvbook.provenance import atomic_write_text

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"must be a regular file path, but .* is a special"):
        records.write_table(fifo, {"a": np.array([1.0])})
    with pytest.raises(ValueError, match="is a special file"):
        atomic_write_text(fifo, "x")
    assert not fifo.is_file() and fifo.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


@pytest.mark.parametrize(
    "body, column",
    [
        ("a:int64\n 60 \n", "a"),
        ("a:int64\n6_0\n", "a"),
        ("a:int64\n+6\n", "a"),
        ("a:float64\n0.2_5\n", "a"),
        ("a:float64\n 0.25\n", "a"),
        ("a:float64\nInfinity\n", "a"),
        ("a:uint8\n0x1f\n", "a"),
    ],
    ids=[
        "int-spaces",
        "int-underscore",
        "int-plus",
        "float-underscore",
        "float-space",
        "float-word",
        "uint-hex",
    ],
)
def test_a_number_write_table_never_writes_is_refused(tmp_path, body, column):
    """int() and float() take ' 60 ', '6_0' and '0.2_5'; a table holds only what
    str(int) and repr(float) write, so a corrupted field is named, not read as 60."""
    path = tmp_path / "t.csv.gz"
    path.write_bytes(_gz(body))
    with pytest.raises(ValueError, match=rf"column '{column}' must hold .* in row 1"):
        records.read_table(path)


def test_every_float_repr_reads_back(tmp_path):
    values = np.array(
        [0.1, -0.0, 1e-300, 5e-324, 1e16, -2.5e-7, np.inf, -np.inf, 1.7976931348623157e308]
    )
    half = np.array([0.1, -0.0, 6e-8, 65504.0, -np.inf], dtype=np.float16)
    path = records.write_table(tmp_path / "f.csv.gz", {"x": values})
    got = records.read_table(path).columns
    assert got["x"].tobytes() == values.tobytes()
    small = records.read_table(records.write_table(tmp_path / "h.csv.gz", {"h": half})).columns
    assert small["h"].tobytes() == half.tobytes()
    nan = records.read_table(records.write_table(tmp_path / "n.csv.gz", {"x": [np.nan]})).columns
    assert np.isnan(nan["x"][0])


def test_the_chapters_readers_name_a_broken_file(tmp_path):
    """Referee A: a broken JSON beside a record gave json's or pathlib's own error, and a
    study of an unknown learner failed deep in chapter 9."""
    from cvbook.runs.intervals import read_interval_record
    from cvbook.studies.bootstrap_vs_cv import read_study

    run = tmp_path / "run"
    records.write_table(tmp_path / "run.csv.gz", {"a": [1.0, 2.0]})
    (tmp_path / "run.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match=r"JSON file '.*run\.json' must hold a JSON object"):
        read_interval_record(run)
    with pytest.raises(TypeError, match="path must be a non-empty path, got 5"):
        read_interval_record(5)
    (tmp_path / "cov.records.csv.gz").write_bytes((tmp_path / "run.csv.gz").read_bytes())
    (tmp_path / "cov.json").write_text('{"records": 1}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"cov\.json' must hold the key 'provenance'"):
        run_coverage.read_results(tmp_path / "cov")
    study = tmp_path / "s.csv.gz"
    records.write_table(
        study, {"risk": [0.1, 0.2]}, {"m": 20, "learner": "bogus", "distribution": "twonorm"}
    )
    with pytest.raises(ValueError, match=r"s\.csv\.gz' must be a study .*got 'bogus'"):
        read_study(study)
    old = tmp_path / "old.csv.gz"
    old.write_bytes(gzip.compress(b"a:i\n1\n", mtime=0))
    with pytest.raises(ValueError, match=r"migrate_records\.py rewrites it"):
        records.read_table(old)
