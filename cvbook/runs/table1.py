"""The Table 1 sweep on disk: command line, one record per run, resume, summary files.

The methods are :mod:`cvbook.studies.table1_replication`; this module runs them over
Rätsch's 13 benchmarks x 10 realisations and keeps the results. Each (data set,
realisation) record is written, as soon as it is finished, to
``<out>/runs/<name>_r<rr>.json`` through a temporary file in the same folder and
:func:`os.replace`, so a file is either complete or absent; a re-run skips the finished
ones, and killing the sweep loses only the fits in flight. At the end,
``<out>/table1.csv`` (means and standard deviations over realisations, in percent, as in
the paper) and ``<out>/provenance.json`` (grid, versions, commit, wall time, cores, peak
memory) are written the same way.

Run it from the repository root ::

    .venv/bin/python -m cvbook.runs.table1 --out results/table1 --n-jobs 2

Each run is recorded in ``<out>/records.json`` (:class:`cvbook.records.Ledger`) with its
settings (data set, realisation, grid) and the code state it was made with: a re-run with
another grid or other code is refused, naming what differs; a run file with no record of
being finished (a foreign file, or one whose record the kill prevented) or that does not read
back whole is made again; a folder of run files without a ledger (made before records) is
refused.

``--enrich`` adds to finished records the fields that newer code records (see
:func:`enrich_runs`), after checking that the refit reproduces the recorded bounds.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from joblib import Parallel, delayed
from tqdm import tqdm

from ..datasets.raetsch import RAETSCH_NAMES, load_raetsch, raetsch_info
from ..provenance import atomic_write_text, package_versions
from ..records import Ledger
from ..studies.table1_replication import (
    TABLE1_GRID,
    TIE_KEYS,
    Table1Grid,
    bound_at_level,
    data_fields,
    fit_and_score,
    refit_selected,
    run_one,
    summarise,
)
from ..validation import (
    ArgumentTypeError,
    check_input_folder,
    check_int,
    check_n_jobs,
    check_output_path,
    name_options,
)
from . import cli

__all__ = ["enrich_runs", "main", "read_runs", "run_sweep", "table_csv"]

COMMAND = "python -m cvbook.runs.table1 --out results/table1 --n-jobs 2"


def _run_path(out: Path, name: str, realisation: int) -> Path:
    return out / "runs" / f"{name}_r{realisation:02d}.json"


def _write(path: Path, record: dict[str, Any]) -> None:
    atomic_write_text(path, json.dumps(record, indent=1) + "\n")


def _run_and_write(
    out: Path, name: str, realisation: int, grid: Table1Grid, data_home, commit: str | None
) -> dict[str, Any]:
    record = run_one(name, realisation, grid, data_home, n_jobs=1)
    record["grid"] = grid.to_dict()
    record["commit"] = commit
    _write(_run_path(out, name, realisation), record)
    return record


def _check_out(out: Any) -> Path:
    if not isinstance(out, (str, os.PathLike)) or out == "":
        raise ArgumentTypeError(f"out must be a folder path (str or os.PathLike), got {out!r}")
    return Path(out)


def read_runs(out: str | os.PathLike) -> list[dict[str, Any]]:
    """Every finished run under ``<out>/runs``, sorted by (data set, realisation).

    Examples
    --------
    >>> import tempfile
    >>> read_runs(tempfile.mkdtemp())
    []
    """
    runs = []
    for path in sorted((_check_out(out) / "runs").glob("*.json")):
        try:
            run = json.loads(path.read_text())
            if not isinstance(run, dict) or not {"dataset", "realisation"} <= set(run):
                raise ValueError("it names no dataset and realisation")
        except (ValueError, UnicodeDecodeError) as err:
            raise ValueError(
                f"{path} is not a run record ({type(err).__name__}: {err}); a truncated or "
                "foreign file: run_sweep redoes a recorded run that does not read back whole"
            ) from None
        runs.append(run)
    return sorted(runs, key=lambda r: (r["dataset"], r["realisation"]))


def table_csv(rows: Sequence[dict[str, Any]]) -> str:
    """The text of ``table1.csv``: a header line, then one line per data set.

    Examples
    --------
    >>> print(table_csv([{"dataset": "heart", "k_star_mean": 4.0}]), end="")
    dataset,k_star_mean
    heart,4.0
    """
    header = list(rows[0]) if rows else ["dataset"]
    lines = [",".join(header)] + [",".join(str(r[h]) for h in header) for r in rows]
    return "\n".join(lines) + "\n"


def _check_todo(names: Any, realisations: Any) -> tuple[list[str], list[int]]:
    if isinstance(names, str) or not all(n in RAETSCH_NAMES for n in names):
        raise ValueError(f"names must be a list of {', '.join(RAETSCH_NAMES)}; got {names!r}")
    if isinstance(realisations, (str, bytes)):
        raise ArgumentTypeError(f"realisations must be a list of integers, got {realisations!r}")
    return list(names), [check_int(r, "realisations", minimum=1) for r in realisations]


def run_sweep(
    out: str | os.PathLike,
    names: Sequence[str] = RAETSCH_NAMES,
    realisations: Sequence[int] = tuple(range(1, 11)),
    grid: Table1Grid = TABLE1_GRID,
    n_jobs: int | None = 2,
    data_home: str | os.PathLike | None = None,
    progress: bool = True,
) -> list[dict[str, Any]]:
    """Run (or resume) the sweep and write ``runs/``, ``table1.csv``, ``provenance.json``.

    Parameters
    ----------
    out : path-like
        Output folder.
    names, realisations : sequences
        What to run; finished runs (their JSON exists) are skipped.
    grid : Table1Grid
        Must equal the grid of the runs already in ``out``.
    n_jobs : int or None, default=2
        Parallel (data set, realisation) fits.
    data_home : path-like, optional
        Where the benchmark files are (see :func:`cvbook.datasets.load_raetsch`).
    progress : bool, default=True
        Show a tqdm progress bar.

    Returns
    -------
    list of dict
        The rows of ``table1.csv``.
    """
    out = _check_out(out)
    names, realisations = _check_todo(names, realisations)
    if not isinstance(grid, Table1Grid):
        raise ArgumentTypeError(f"grid must be a Table1Grid, got {type(grid).__name__}")
    ledger = Ledger(out)  # the code that runs: read before the run

    def settings(n: str, r: int) -> dict[str, Any]:
        return {"dataset": n, "realisation": r, "grid": grid.to_dict()}

    def files(n: str, r: int) -> list[str]:
        return [str(_run_path(out, n, r).relative_to(out))]

    todo = [
        (n, r)
        for n in names
        for r in realisations
        if ledger.status(f"{n}_r{r:02d}", settings(n, r), files(n, r)) != "done"
    ]
    for n, r in todo:  # a run to redo: its file is not a finished run of this sweep
        _run_path(out, n, r).unlink(missing_ok=True)
    (out / "runs").mkdir(parents=True, exist_ok=True)
    for r in read_runs(out):
        if Table1Grid.from_dict(r["grid"]) != grid:
            raise ValueError(
                f"grid differs from the one of the finished runs in {out}; use another out folder"
            )
    # Biggest first, so the last tasks are short and both cores stay busy.
    todo.sort(key=lambda t: -(raetsch_info(t[0]).n_train ** 2) * (1 + raetsch_info(t[0]).d / 20))
    t0 = time.time()
    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    commit = ledger.code["commit"]  # the code that runs is the code at the start
    if commit and ledger.code["uncommitted_package_files"]:
        commit += "+dirty"
    tasks = (delayed(_run_and_write)(out, n, r, grid, data_home, commit) for n, r in todo)
    peak = 0.0
    for rec in tqdm(
        Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks),
        total=len(todo),
        desc="Table 1",
        disable=not progress,
    ):
        peak = max(peak, rec["peak_rss_mb"])
        n, r = rec["dataset"], rec["realisation"]
        ledger.finish(f"{n}_r{r:02d}", settings(n, r), files(n, r), {"wall_s": rec["wall_s"]})
    wall = time.time() - t0

    return _write_table_and_provenance(out, grid, n_jobs, len(todo), started, wall, peak, commit)


def _write_table_and_provenance(
    out: Path,
    grid: Table1Grid,
    n_jobs: int | None,
    n_runs: int,
    started: str,
    wall: float,
    peak: float,
    commit: str | None,
) -> list[dict[str, Any]]:
    """Write ``table1.csv`` from every finished run, and add this session to ``provenance.json``."""
    runs = read_runs(out)
    rows = summarise(runs)
    if rows:
        atomic_write_text(out / "table1.csv", table_csv(rows))
    prov_path = out / "provenance.json"
    prov = json.loads(prov_path.read_text()) if prov_path.exists() else {"sessions": []}
    prov["sessions"].append(
        {
            "started": started,
            "wall_s": round(wall, 1),
            "n_runs": n_runs,
            "n_jobs": n_jobs,
            "cpu_count": os.cpu_count(),
            "peak_rss_mb_per_worker": peak,
            "peak_rss_mb_main": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "commit": commit,
            "versions": package_versions(),
            "machine": platform.machine(),
        }
    )
    expected = len(RAETSCH_NAMES) * 10
    prov.update(
        {
            "description": "Anguita et al. (2012) Table 1 reproduced with cvbook.ckcv.CompleteKCV",
            "grid": grid.to_dict(),
            "gamma": (
                "gamma_factors times 1 / (d * var(X_train)) of each realisation's training pool"
            ),
            "data": "shared Rätsch copy: partial_first10 (faithful) and reconstructed (5 sets)",
            "n_runs_finished": len(runs),
            "n_runs_expected": expected,
            "partial": len(runs) < expected,
            "sum_run_wall_s": round(sum(r["wall_s"] for r in runs), 1),
            "sum_run_cpu_s": round(sum(r.get("cpu_s", 0.0) for r in runs), 1),
            "total_session_wall_s": round(sum(s["wall_s"] for s in prov["sessions"]), 1),
            "command": COMMAND,
        }
    )
    atomic_write_text(prov_path, json.dumps(prov, indent=1) + "\n")
    return rows


#: Keys that :func:`enrich_runs` adds; a record with all of them is left alone.
_ADDED = (
    "n_pos_train",
    "n_pos_test",
    "x_var",
    "gamma_factor",
    "gamma_factor_k5",
    "gamma_factor_k10",
    "var_ratio_no_ee",
    "n_ee",
    "ee_errors",
    "n_ee_k5",
    "ee_errors_k5",
    "n_ee_k10",
    "ee_errors_k10",
)


#: What a full refit must give back, bit for bit, before :func:`enrich_runs` adds the
#: tie keys; the L values may move in their last bits (``_BOUND_RTOL``).
_SAME = (
    "random_state",
    *(
        f"{key}{label}"
        for label in ("", "_k5", "_k10")
        for key in ("C", "gamma", "n_ee", "ee_errors")
    ),
    *("k_star", "k_k5", "k_k10", "test_err_F", "test_err_k5", "test_err_k10"),
)
_BOUND_RTOL = 4 * 2.0**-52


def _check_refit(old: dict[str, Any], new: dict[str, Any]) -> None:
    for key in _SAME:
        if key in old and old[key] != new[key]:
            raise ValueError(
                f"{old['dataset']} r{old['realisation']}: the refit gives {key} = "
                f"{new[key]!r}, the record {old[key]!r}"
            )
    for key in ("L_MS", "L_EE", "L_MS_k5", "L_EE_k5", "L_MS_k10", "L_EE_k10"):
        if abs(new[key] - old[key]) > _BOUND_RTOL * abs(old[key]):
            raise ValueError(
                f"{old['dataset']} r{old['realisation']}: the refit gives {key} = "
                f"{new[key]!r}, the record {old[key]!r}"
            )


def enrich_runs(
    out: str | os.PathLike,
    data_home: str | os.PathLike | None = None,
    names: Sequence[str] | None = None,
    progress: bool = True,
) -> int:
    """Add to finished runs the fields the current code records (a one-off migration).

    For each record missing them: the class counts, the scale of gamma
    (:func:`cvbook.studies.table1_replication.data_fields`) and the per-split EE error
    counts of the three selected rows, refit alone
    (:func:`cvbook.studies.table1_replication.refit_selected`). The counts must give back
    the record's ``L_EE``, ``L_EE_k5`` and ``L_EE_k10`` to 1e-12, or nothing is written.
    The ties of the three selections (:data:`cvbook.studies.table1_replication.TIE_KEYS`) need
    the whole fit: it is re-run, and must give back every selection, error count and
    test error of the record bit for bit and its bounds to 4 ulp, or nothing is written
    (the first entry of each ``L_EE_tied``, the selected row's, is the record's bound).
    Every value already in the record is kept as it is; a record that has every added
    key is skipped, so the migration resumes.

    Parameters
    ----------
    out : path-like
        Folder of the sweep.
    data_home : path-like, optional
        Where the benchmark files are.
    names : sequence of str, optional
        Restrict to these data sets.
    progress : bool, default=True
        Show a tqdm progress bar.

    Returns
    -------
    int
        Number of records rewritten.

    Raises
    ------
    ValueError
        If the refit counts do not reproduce a recorded bound.
    """
    out = _check_out(out)
    runs = [
        r
        for r in read_runs(out)
        if (names is None or r["dataset"] in names) and not {*_ADDED, *TIE_KEYS} <= set(r)
    ]
    ledger = Ledger(out)  # a recorded run gets the new digest of its rewritten file
    done = 0
    for old in tqdm(runs, desc="enrich", disable=not progress):
        grid = Table1Grid.from_dict(old["grid"])
        X, y, X_test, y_test = load_raetsch(old["dataset"], old["realisation"], data_home=data_home)
        new = {**data_fields(X, y, y_test, old, grid), **refit_selected(X, y, old, grid)}
        if not set(TIE_KEYS) <= set(old):
            full = fit_and_score(X, y, X_test, y_test, grid, old["random_state"])
            _check_refit({**new, **old}, full)
            new.update({key: full[key] for key in TIE_KEYS})
            for label in ("", "_k5", "_k10"):  # the selected row's bound as the record has it
                new[f"L_EE_tied{label}"][0] = old[f"L_EE{label}"]
        for label in ("", "_k5", "_k10"):
            bound = bound_at_level(new, label, grid.delta)
            if abs(bound - old[f"L_EE{label}"]) > 1e-12:
                raise ValueError(
                    f"{old['dataset']} r{old['realisation']}: the refit EE "
                    f"counts give L_EE{label} = {bound!r}, the record "
                    f"{old[f'L_EE{label}']!r}"
                )
        path = _run_path(out, old["dataset"], old["realisation"])
        _write(path, {**old, **{key: v for key, v in new.items() if key not in old}})
        ledger.amend(
            f"{old['dataset']}_r{old['realisation']:02d}",
            [str(path.relative_to(out))],
            "enrich_runs added " + ", ".join(k for k in new if k not in old),
        )
        done += 1
    return done


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m cvbook.runs.table1 --out results/table1 --n-jobs 2``."""
    p = cli.command_parser(
        "cvbook.runs.table1", __doc__.splitlines()[0], out_default="results/table1"
    )
    p.add_argument("--n-jobs", type=int, default=2)
    p.add_argument(
        "--datasets",
        nargs="+",
        default=list(RAETSCH_NAMES),
        choices=RAETSCH_NAMES,
        metavar="NAME",
        help=f"data sets to run, one or more of {', '.join(RAETSCH_NAMES)} (default: all)",
    )
    p.add_argument(
        "--realisations",
        type=int,
        nargs="+",
        default=list(range(1, 11)),
        help="realisations to run, numbered from 1 (default: 1 to 10)",
    )
    p.add_argument(
        "--data-home",
        default=None,
        help="folder of the benchmark files (default: $CVBOOK_DATA, then download)",
    )
    p.add_argument(
        "--enrich",
        action="store_true",
        help="add to the finished runs the fields newer code records",
    )
    p.add_argument("--no-progress", action="store_true")
    a = p.parse_args(argv)
    options = {
        "names": "--datasets",
        "realisations": "--realisations",
        "realisation": "--realisations",
        "n_jobs": "--n-jobs",
        "data_home": "--data-home",
    }
    try:  # every option checked by the name the user typed, before any fit
        check_output_path(a.out, "--out", folder=True)
        check_n_jobs(a.n_jobs, "--n-jobs")
        check_input_folder(a.data_home, "--data-home")
        for r in a.realisations:
            check_int(r, "--realisations", minimum=1)
        if not a.enrich:
            for name in dict.fromkeys(a.datasets):  # reads each file once (cached)
                load_raetsch(name, max(a.realisations), a.data_home)
    except (ValueError, OSError) as err:
        p.error(name_options(str(err), options))
    try:
        if a.enrich:
            print(
                enrich_runs(a.out, a.data_home, a.datasets, progress=not a.no_progress),
                "records enriched",
            )
            return 0
        rows = run_sweep(
            a.out,
            a.datasets,
            a.realisations,
            n_jobs=a.n_jobs,
            data_home=a.data_home,
            progress=not a.no_progress,
        )
    except (ValueError, OSError) as err:  # one line naming the option, exit 2
        p.error(name_options(str(err), options))
    print(table_csv(rows), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
