"""``python -m cvbook.runs.intervals``: the long run of chapter 7's studies.

Parses the options, runs :func:`cvbook.studies.interval_coverage.run_intervals` and
:func:`~cvbook.studies.learner_comparison.run_comparisons`, and writes their records and
provenance atomically under ``--out`` (:func:`write_interval_record`; read back by
:func:`read_interval_record`), resuming an interrupted run from its checkpoints. With
``--learning-curve`` it runs only
:func:`~cvbook.studies.nested_cv_bias.run_nested_learning_curve`
(:data:`LEARNING_CURVE`), the study behind nested CV's bias factor, and writes
``<out>/learning_curve.*``.

The two parts (``long_run``: ``coverage.*`` and ``comparison.*``; ``learning_curve``) are
recorded in ``<out>/records.json`` (:class:`cvbook.records.Ledger`) with their settings and
code state: a re-run with other settings or code is refused, naming what differs; a
finished part is not made again; a part whose files do not read back whole is redone.
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
from threadpoolctl import threadpool_limits

from ..provenance import atomic_write_text, package_versions
from ..records import Ledger, PartMismatch, note_unrecorded_checkpoint, prune_checkpoint, read_json
from ..records import read_table as _read_table
from ..records import write_table as _write_table
from ..simulation import saved_repetitions
from ..studies.interval_coverage import SETTINGS, run_intervals, summarize_intervals
from ..studies.learner_comparison import CASES, run_comparisons, summarize_comparisons
from ..studies.nested_cv_bias import bias_factor, run_nested_learning_curve
from ..validation import (
    check_float,
    check_int,
    check_n_jobs,
    check_output_path,
    check_path,
    check_random_state,
    name_options,
)
from . import cli

__all__ = [
    "LEARNING_CURVE",
    "LONG_RUN",
    "main",
    "read_interval_record",
    "write_interval_record",
]


def write_interval_record(
    path: str | os.PathLike, records: Mapping[str, np.ndarray], meta: Mapping[str, Any]
) -> None:
    """Write ``records`` as ``<path>.csv.gz`` and ``meta`` as ``<path>.json``, atomically.

    The records are a table of the package's one format
    (:func:`cvbook.records.write_table`: every column keeps its dtype and every bit).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     values = {"n": np.array([5]), "x": np.array([0.1])}
    ...     write_interval_record(pathlib.Path(tmp) / "r", values, {"seed": 1})
    ...     rec, meta = read_interval_record(pathlib.Path(tmp) / "r")
    >>> rec["x"].tolist(), rec["n"].dtype.kind, meta
    ([0.1], 'i', {'seed': 1})
    """
    path = Path(path)
    _write_table(path.parent / f"{path.name}.csv.gz", records)
    atomic_write_text(path.parent / f"{path.name}.json", json.dumps(meta, indent=1) + "\n")


def read_interval_record(path: str | os.PathLike) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Read what :func:`write_interval_record` wrote: ``(records, meta)``.

    Examples
    --------
    >>> read_interval_record("no/such/record")
    Traceback (most recent call last):
    ...
    FileNotFoundError: path 'no/such/record.csv.gz' must be a table file, got no such file
    """
    path = check_path(path, "path")
    records = _read_table(path.parent / f"{path.name}.csv.gz").columns
    return records, read_json(path.parent / f"{path.name}.json")


#: The long run's plan: per design ``"distribution/learner"``, the sizes and the number of data
#: sets; and the comparison study's. The claims of chapter 7 rest on the main design (LDA on the
#: two Gaussians, exact risks) and on the comparisons, which get most of the data sets; the
#: other designs show the pattern with wider Clopper-Pearson intervals. The committed run, with
#: each method's own target, took 72 minutes of wall time with two workers on a shared two-core
#: machine (the RBF SVM, whose fits and fresh-sample risks cost the most, stops at n = 500).
LONG_RUN: dict[str, Any] = {
    "coverage": {
        "twogaussians/lda": {"n_values": [50, 100, 250, 500, 1000], "n_repeats": 200},
        "twogaussians/logreg": {"n_values": [50, 250, 1000], "n_repeats": 20},
        "twonorm/lda": {"n_values": [50, 250, 1000], "n_repeats": 20},
        "twonorm/logreg": {"n_values": [50, 250, 1000], "n_repeats": 20},
        "twonorm/svm": {"n_values": [50, 250, 500], "n_repeats": 12},
        "ringnorm/lda": {"n_values": [50, 250, 1000], "n_repeats": 20},
        "ringnorm/svm": {"n_values": [50, 250, 500], "n_repeats": 12},
    },
    "comparison": {"n_values": [100, 300], "n_repeats": 400},
}


#: The learning-curve study behind nested CV's bias factor: the main design's learner and
#: distribution, K = 5 as in :data:`cvbook.studies.interval_coverage.SETTINGS`, 1000 data
#: sets at each of three sizes.
LEARNING_CURVE: dict[str, Any] = {
    "distribution": "twogaussians",
    "learner": "lda",
    "n_values": [50, 100, 250],
    "n_repeats": 1000,
    "n_splits": 5,
}

#: What ``cpu_time_s`` counts, written next to it in every provenance.
_CPU_NOTE = "this process only: with n_jobs > 1 the workers' time is not counted"


def _main_learning_curve(args: argparse.Namespace, out: Path, argv: Sequence[str] | None) -> int:
    """``--learning-curve``: run :data:`LEARNING_CURVE`, write ``<out>/learning_curve.*``."""
    plan = dict(LEARNING_CURVE)
    plan["n_repeats"] = max(2, round(plan["n_repeats"] * args.scale))
    ledger = Ledger(out)  # the code that runs: read before the run
    commit, dirty = ledger.code["commit"], ledger.code["uncommitted_package_files"]
    settings = {"seed": args.seed + 200, "plan": plan, "scale": args.scale}
    files = ["learning_curve.csv.gz", "learning_curve.json"]
    ck = out / "parts" / "learning_curve"
    state = ledger.status("learning_curve", settings, files)  # PartMismatch: a ValueError
    if state == "done":
        print(f"{out}/learning_curve.*: finished with these settings and code", file=sys.stderr)
        return 0
    if state == "new":
        note_unrecorded_checkpoint(ck)
        ledger.start("learning_curve", settings)
    prune_checkpoint(ck)
    start, cpu_start = time.time(), time.process_time()
    resumed = len(saved_repetitions(ck))
    try:
        with threadpool_limits(1):
            rec = run_nested_learning_curve(
                random_state=args.seed + 200,
                n_jobs=args.n_jobs,
                progress=not args.no_progress,
                checkpoint=ck,
                **plan,
            )
    except ValueError:
        if not saved_repetitions(ck):
            ledger.forget("learning_curve")  # nothing made: it does not bind the next run
        raise
    provenance = {
        "command": cli.command("cvbook.runs.intervals", argv),
        "parameters": {"seed": args.seed + 200, "plan": plan, "scale": args.scale},
        "versions": package_versions(),
        "commit": commit,
        "uncommitted_package_files": dirty,
        "wall_time_s": round(time.time() - start, 1),
        "cpu_time_s": round(time.process_time() - cpu_start, 1),
        "cpu_time_note": _CPU_NOTE,
        "cpu_count": os.cpu_count(),
        "n_jobs": args.n_jobs,
        "repetitions_resumed": resumed,
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    summary = [{"n": n, **bias_factor(rec, n=n)} for n in plan["n_values"]]
    write_interval_record(
        out / "learning_curve", rec, {"provenance": provenance, "summary": summary}
    )
    ledger.finish("learning_curve", settings, files, {"wall_time_s": provenance["wall_time_s"]})
    shutil.rmtree(ck)
    print(f"wrote {out}/learning_curve.* in {provenance['wall_time_s']} s", file=sys.stderr)
    return 0


def _concat(parts: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _parser() -> argparse.ArgumentParser:
    """The command line's options."""
    parser = cli.command_parser(
        "cvbook.runs.intervals",
        "Coverage of the risk intervals and error rates of the learner "
        "comparisons of chapter 7, on distributions with known risk.",
        out_default="results/intervals",
    )
    cli.add_seed_and_jobs(parser, seed=2028)
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="multiply every number of data sets of the plan (at least 2 each)",
    )
    parser.add_argument(
        "--designs",
        nargs="+",
        default=None,
        help="distribution/learner pairs of the plan to run (default: all)",
    )
    parser.add_argument(
        "--n-fresh", type=int, default=20_000, help="fresh points for a risk that is not exact"
    )
    parser.add_argument(
        "--learning-curve",
        action="store_true",
        help="run only the learning-curve study of nested CV's bias factor "
        "(LEARNING_CURVE) and write <out>/learning_curve.*",
    )
    parser.add_argument("--no-progress", action="store_true")
    return parser


def _check_options(args: argparse.Namespace) -> None:
    """Every option checked by the name the user typed, before any work (ValueError)."""
    check_output_path(args.out, "--out", folder=True)
    check_float(args.scale, "--scale", minimum=0.0, exclusive=True)
    check_random_state(args.seed, "--seed")
    # the parts use the seeds --seed to --seed + 100 + (number of cases); --learning-curve
    # uses --seed + 200
    check_int(args.seed, "--seed", maximum=2**32 - 1 - 200)
    check_int(args.n_fresh, "--n-fresh", minimum=1)
    check_n_jobs(args.n_jobs, "--n-jobs")


def _plan(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict:
    """:data:`LONG_RUN` restricted to ``--designs`` and scaled by ``--scale``."""
    plan = json.loads(json.dumps(LONG_RUN))
    if args.designs is not None:
        unknown = sorted(set(args.designs) - set(plan["coverage"]))
        if unknown:
            parser.error(f"--designs: unknown {unknown}; choose from {list(plan['coverage'])}")
        plan["coverage"] = {k: v for k, v in plan["coverage"].items() if k in args.designs}
    for block in [*plan["coverage"].values(), plan["comparison"]]:
        block["n_repeats"] = max(2, round(block["n_repeats"] * args.scale))
    return plan


def _run_part(part: str, kind: str, what: str, plan: dict, args: argparse.Namespace, ck: Path):
    """One part ``kind/what`` of the plan (a coverage design or a comparison), saved in ``ck``."""
    with threadpool_limits(1):  # one BLAS thread per worker: no oversubscription
        if kind == "comparison":
            block = plan["comparison"]
            return run_comparisons(
                what,
                block["n_values"],
                block["n_repeats"],
                random_state=args.seed + 100 + list(CASES).index(what),
                n_jobs=args.n_jobs,
                progress=not args.no_progress,
                checkpoint=ck,
            )
        block = plan["coverage"][part]
        seed = args.seed + list(LONG_RUN["coverage"]).index(part)
        return run_intervals(
            kind,
            what,
            block["n_values"],
            block["n_repeats"],
            n_fresh=args.n_fresh,
            random_state=seed,
            n_jobs=args.n_jobs,
            progress=not args.no_progress,
            checkpoint=ck,
        )


def _provenance(
    args: argparse.Namespace,
    argv: Sequence[str] | None,
    plan: dict,
    ledger: Ledger,
    start: float,
    cpu_start: float,
    timings: dict,
    resumed: dict,
) -> dict:
    """The records' provenance: command, parameters, versions, code, times."""
    return {
        "command": cli.command("cvbook.runs.intervals", argv),
        "parameters": {
            "seed": args.seed,
            "plan": plan,
            "scale": args.scale,
            "settings": SETTINGS,
            "alpha": 0.05,
            "n_fresh": args.n_fresh,
            "comparison_cases": {k: [list(v[0]), list(v[1])] for k, v in CASES.items()},
        },
        "versions": package_versions(),
        "commit": ledger.code["commit"],
        "uncommitted_package_files": ledger.code["uncommitted_package_files"],
        "wall_time_s": round(time.time() - start, 1),
        "wall_time_by_part_s": timings,
        "cpu_time_s": round(time.process_time() - cpu_start, 1),
        "cpu_time_note": _CPU_NOTE,
        "cpu_count": os.cpu_count(),
        "n_jobs": args.n_jobs,
        "repetitions_resumed": resumed,  # done by an earlier, interrupted run (not timed here)
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: the long coverage and comparison studies, with provenance; resumable.

    Examples
    --------
    A bad option stops the run before anything is written (a seed is a non-negative integer):

    >>> main(["--seed", "-1"])
    Traceback (most recent call last):
    SystemExit: 2
    """
    parser = _parser()
    args = parser.parse_args(argv)
    options = {
        "n_fresh": "--n-fresh",
        "random_state": "--seed",
        "n_jobs": "--n-jobs",
        "n_repeats": "--scale",
    }
    try:  # every option checked by the name the user typed, before any work
        _check_options(args)
    except ValueError as err:
        parser.error(str(err))
    out = Path(args.out)
    if args.learning_curve:
        try:
            return _main_learning_curve(args, out, argv)
        except (ValueError, OSError) as err:  # one line naming the option, exit 2
            parser.error(name_options(str(err), options))
    plan = _plan(parser, args)
    ledger = Ledger(out)  # the code that runs: read before the run
    settings = {"seed": args.seed, "plan": plan, "scale": args.scale, "n_fresh": args.n_fresh}
    files = ["coverage.csv.gz", "coverage.json", "comparison.csv.gz", "comparison.json"]
    try:
        state = ledger.status("long_run", settings, files)
    except PartMismatch as err:
        parser.error(f"argument --out: {err}")
    if state == "done":
        print(f"{out}: finished with these settings and this code", file=sys.stderr)
        return 0
    if state == "new":
        for ck in (out / "parts").glob("*"):
            note_unrecorded_checkpoint(ck)
        ledger.start("long_run", settings)
    for ck in (out / "parts").glob("*"):
        prune_checkpoint(ck)
    start, cpu_start = time.time(), time.process_time()
    parts_dir = out / "parts"
    resumed: dict[str, int] = {}
    pieces, comps, timings = [], [], {}
    designs = list(plan["coverage"])
    # the main design, then the comparisons, then the other designs (cheapest first): a run
    # cut short and resumed at a smaller --scale keeps what matters most
    order = [*designs[:1], "comparison/null", "comparison/difference", *designs[1:]]
    try:
        for part in order:
            kind, what = part.split("/")
            name = f"{kind}_{what}"
            ck = parts_dir / name
            resumed[name] = len(saved_repetitions(ck))
            t0 = time.time()
            (comps if kind == "comparison" else pieces).append(
                _run_part(part, kind, what, plan, args, ck)
            )
            timings[name] = round(time.time() - t0, 1)
    except (ValueError, OSError) as err:  # one line naming the option, exit 2
        if not any(saved_repetitions(ck) for ck in parts_dir.glob("*")):
            ledger.forget("long_run")  # nothing made: it does not bind the next run
        parser.error(name_options(str(err), options))
    coverage, comparison = _concat(pieces), _concat(comps)
    provenance = _provenance(args, argv, plan, ledger, start, cpu_start, timings, resumed)
    write_interval_record(
        out / "coverage",
        coverage,
        {"provenance": provenance, "summary": summarize_intervals(coverage)},
    )
    write_interval_record(
        out / "comparison",
        comparison,
        {"provenance": provenance, "summary": summarize_comparisons(comparison)},
    )
    ledger.finish("long_run", settings, files, {"wall_time_s": provenance["wall_time_s"]})
    shutil.rmtree(parts_dir)  # the records are on disk: the checkpoints are not needed
    print(
        f"wrote {out}/coverage.* and {out}/comparison.* in {provenance['wall_time_s']} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
