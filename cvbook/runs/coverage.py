"""The long coverage runs behind chapter 6: command line, records on disk, resume.

``python -m cvbook.runs.coverage --help`` runs one study of
:func:`cvbook.studies.bound_coverage.run_coverage` and writes

* ``<out>.records.csv.gz``: one record per (repetition, estimate, n, k, delta), a
  table of the package's one format (:func:`write_records`, through
  :func:`cvbook.records.write_table`), so that :func:`read_records` returns the same
  arrays, bit for bit;
* ``<out>.json``: the provenance of the run (command, parameters, package versions,
  commit, wall time) and the summary of :func:`cvbook.studies.bound_coverage.summarize`.

Both are written atomically. Each finished repetition is saved at once in
``<out>.parts/``; the same command, re-run after an interruption, resumes from there. The
run is recorded in ``records.json`` of OUT's folder (:class:`cvbook.records.Ledger`) with its
settings and code state: re-run with other settings or other code it is refused, naming
what differs; a finished run is not made again; a record file that does not read back
whole is made again.
``coverage_large.sh`` beside this module runs the committed studies.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..learners import LEGACY_NAMES, get_learner
from ..provenance import atomic_write_text, package_versions
from ..records import (
    Ledger,
    PartMismatch,
    note_unrecorded_checkpoint,
    prune_checkpoint,
    read_json,
    read_table,
    write_table,
)
from ..simulation import saved_repetitions
from ..studies.bound_coverage import (
    COVERAGE_LEARNERS,
    DISTRIBUTIONS,
    default_learner,
    run_coverage,
    summarize,
)
from ..validation import (
    ArgumentTypeError,
    check_float,
    check_int,
    check_n_jobs,
    check_output_path,
    check_random_state,
    name_options,
)
from . import cli

__all__ = ["main", "read_records", "read_results", "write_records", "write_results"]


def _records_path(path: Path) -> Path:
    return path.parent / f"{path.name}.records.csv.gz"


def _check_out(path: Any, name: str = "path") -> Path:
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"{name} must be a path (str or os.PathLike), got {path!r}")
    return Path(path)


def write_records(path: str | os.PathLike, records: Mapping[str, Any]) -> Path:
    """Write ``records`` (columns of equal length) to ``<path>.records.csv.gz``, atomically.

    The file is a table of the package's one format (:func:`cvbook.records.write_table`):
    each column keeps its dtype (str, bool, integers, floats) and every bit of its values.

    Parameters
    ----------
    path : str or path-like
        The run's path, without extension.
    records : dict of 1-d arrays
        str, bool, integer (signed, unsigned) and float columns.

    Returns
    -------
    pathlib.Path
        The file written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = write_records(pathlib.Path(tmp) / "run", {"name": ["a,b"], "ok": [True]})
    ...     back = read_records(pathlib.Path(tmp) / "run")
    >>> back["name"].tolist(), back["ok"].dtype
    (['a,b'], dtype('bool'))
    """
    return write_table(_records_path(_check_out(path)), records)


def read_records(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """Read what :func:`write_records` wrote: the columns, with their dtypes
    (:func:`cvbook.records.read_table`).

    Examples
    --------
    >>> read_records("no/such/run")
    Traceback (most recent call last):
    ...
    FileNotFoundError: path 'no/such/run.records.csv.gz' must be a table file, got no such file
    """
    return read_table(_records_path(_check_out(path))).columns


def write_results(
    path: str | os.PathLike, records: Mapping[str, np.ndarray], provenance: Mapping[str, Any]
) -> None:
    """Write a run: records (:func:`write_records`) and ``<path>.json`` (provenance, summary).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> rec = {"method": np.array(["kfold"]), "n": np.array([50]), "k": np.array([5]),
    ...        "delta": np.array([0.05]), "estimate": np.array([0.2]), "risk": np.array([0.1])}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_results(pathlib.Path(tmp) / "run", rec, {"seed": 0})
    ...     records, provenance = read_results(pathlib.Path(tmp) / "run")
    >>> records["estimate"].tolist(), records["n"].dtype.kind, provenance
    ([0.2], 'i', {'seed': 0})
    """
    path = _check_out(path)
    if not isinstance(provenance, Mapping):
        raise ArgumentTypeError(f"provenance must be a dict, got {type(provenance).__name__}")
    summary = summarize(records)  # checks the columns a coverage run has
    write_records(path, records)
    payload = {"provenance": dict(provenance), "summary": summary}
    # <path>.json, the exact path plus ".json" (not with_suffix: run.a and run.b differ)
    atomic_write_text(path.parent / f"{path.name}.json", json.dumps(payload, indent=1) + "\n")


def _legacy_path(path: Path) -> Path:
    """``path``, or the run written under its learner's old name when only that exists.

    A run ``<distribution>_<learner>`` made before the learner registry carries the old
    learner name (:data:`cvbook.learners.LEGACY_NAMES` ``["coverage"]``): ``twonorm_svm``
    is read from ``twonorm_svc`` when no ``twonorm_svm`` was written.
    """
    if _records_path(path).exists():
        return path
    for old, new in LEGACY_NAMES["coverage"].items():
        if path.name.endswith(f"_{new}"):
            legacy = path.with_name(f"{path.name.removesuffix(new)}{old}")
            if _records_path(legacy).exists():
                return legacy
    return path


def read_results(path: str | os.PathLike) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Read what :func:`write_results` wrote: ``(records, provenance)``.

    A run named by the learner registry's name (``twonorm_svm``) that was written under
    the learner's old name (``twonorm_svc``) is read from there; its provenance says what
    was run, under the old name.

    Examples
    --------
    >>> read_results("no/such/run")
    Traceback (most recent call last):
    ...
    FileNotFoundError: path 'no/such/run.records.csv.gz' must be a table file, got no such file
    """
    path = _legacy_path(_check_out(path))
    records = read_records(path)
    payload = read_json(path.parent / f"{path.name}.json", ["provenance"])
    return records, payload["provenance"]


def _parser() -> argparse.ArgumentParser:
    """The command line's options."""
    parser = cli.command_parser(
        "cvbook.runs.coverage",
        "Coverage and tightness of risk estimates on a known distribution.",
        out_help="output path: OUT.records.csv.gz and OUT.json are written (OUT kept as given)",
    )
    parser.add_argument("--distribution", default="twogaussians", choices=DISTRIBUTIONS)
    parser.add_argument(
        "--learner",
        default="default",
        help=f"one of {list(COVERAGE_LEARNERS)} (default: the study's learner per distribution)",
    )
    parser.add_argument("--n", type=int, nargs="+", default=[200])
    parser.add_argument("--k", type=int, nargs="+", default=[5])
    parser.add_argument("--delta", type=float, nargs="+", default=[0.05])
    parser.add_argument("--n-repeats", type=int, default=200)
    parser.add_argument("--n-splits", type=int, default=5)
    parser.add_argument("--n-fresh", type=int, default=100_000)
    parser.add_argument("--tune-k", action="store_true")
    cli.add_seed_and_jobs(parser, n_jobs=None)
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument(
        "--checkpoint",
        default=None,
        help="folder for finished repetitions (default: OUT.parts); re-running "
        "the same command resumes from it, and it is removed once the "
        "results are written",
    )
    return parser


def _check_options(args: argparse.Namespace) -> None:
    """Every option checked by the name the user typed, before any work (ValueError)."""
    check_output_path(args.out, "--out", folder=False)
    if args.learner != "default":  # the study's rule; any other name is the registry's
        get_learner(args.learner, COVERAGE_LEARNERS, "--learner", legacy="coverage")
    if args.checkpoint is not None:
        check_output_path(args.checkpoint, "--checkpoint", folder=True)
    check_output_path(f"{args.out}.parts", "--out (its OUT.parts folder)", folder=True)
    for v in args.n:
        check_int(v, "--n", minimum=2)
    for v in args.k:
        check_int(v, "--k", minimum=3)
    for v in args.delta:
        check_float(v, "--delta", 0.0, 1.0, exclusive=True)
    check_int(args.n_repeats, "--n-repeats", minimum=1)
    check_int(args.n_splits, "--n-splits", minimum=1)
    check_int(args.n_fresh, "--n-fresh", minimum=1000)
    check_random_state(args.seed, "--seed")
    check_n_jobs(args.n_jobs, "--n-jobs")


def _provenance(
    args: argparse.Namespace,
    argv: Sequence[str] | None,
    estimator,
    grid,
    ledger: Ledger,
    start: float,
    resumed: int,
) -> dict:
    """The results' provenance: command, parameters, learner, versions, code, time."""
    return {
        "command": cli.command("cvbook.runs.coverage", argv),
        "parameters": {
            key: value
            for key, value in vars(args).items()
            if key not in ("no_progress", "checkpoint")
        },
        "estimator": repr(estimator),
        "param_grid": grid,
        "versions": package_versions(),
        "commit": ledger.code["commit"],
        "uncommitted_package_files": ledger.code["uncommitted_package_files"],
        "wall_time_s": round(time.time() - start, 1),
        "cpu_count": os.cpu_count(),
        "repetitions_resumed": resumed,  # done by an earlier, interrupted run (not timed here)
        "n_jobs": args.n_jobs,
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run one study and save it with its provenance.

    Examples
    --------
    A bad option stops the run before anything is written (K-fold needs k of at least 3):

    >>> main(["--out", "x", "--k", "2"])
    Traceback (most recent call last):
    SystemExit: 2
    """
    parser = _parser()
    args = parser.parse_args(argv)
    options = {
        "n_values": "--n",
        "k_values": "--k",
        "delta_values": "--delta",
        "n_repeats": "--n-repeats",
        "n_splits": "--n-splits",
        "n_fresh": "--n-fresh",
        "random_state": "--seed",
        "n_jobs": "--n-jobs",
        "checkpoint": "--checkpoint",
    }
    try:  # every option checked by the name the user typed, before any work
        _check_options(args)
    except ValueError as err:
        parser.error(str(err))
    checkpoint = Path(args.checkpoint or f"{args.out}.parts")
    out = Path(args.out)
    # one part per OUT, recorded in the ledger of OUT's folder with its settings and code
    ledger = Ledger(out.parent)  # the code that runs: read before the run
    settings = {
        key: value
        for key, value in vars(args).items()
        if key not in ("no_progress", "checkpoint", "out", "n_jobs")
    }
    files = [_records_path(out).name, f"{out.name}.json"]
    try:
        state = ledger.status(out.name, settings, files)
        if state == "done":
            print(f"{args.out}: finished with these settings and this code", file=sys.stderr)
            return 0
        if state == "new":
            note_unrecorded_checkpoint(checkpoint)
            ledger.start(out.name, settings)
    except PartMismatch as err:
        parser.error(f"argument --out: {err}")
    prune_checkpoint(checkpoint)
    resumed = len(saved_repetitions(checkpoint))
    start = time.time()
    estimator, grid = default_learner(args.distribution, args.learner)
    try:
        records = run_coverage(
            args.distribution,
            args.n,
            args.k,
            args.delta,
            args.n_repeats,
            estimator=estimator,
            param_grid=grid,
            n_splits=args.n_splits,
            n_fresh=args.n_fresh,
            tune_k=args.tune_k,
            random_state=args.seed,
            n_jobs=args.n_jobs,
            progress=not args.no_progress,
            checkpoint=checkpoint,
        )
    except (ValueError, OSError) as err:  # a bad value: one line naming the option
        if not saved_repetitions(checkpoint):
            ledger.forget(out.name)  # nothing made: the part does not bind the next run
        parser.error(name_options(str(err), options))
    provenance = _provenance(args, argv, estimator, grid, ledger, start, resumed)
    write_results(args.out, records, provenance)
    ledger.finish(out.name, settings, files, {"wall_time_s": provenance["wall_time_s"]})
    shutil.rmtree(checkpoint)  # the results are on disk: the partial ones are not needed
    print(
        f"wrote {_records_path(Path(args.out))} and {args.out}.json in "
        f"{provenance['wall_time_s']} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
