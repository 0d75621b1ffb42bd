"""The long run behind chapter 10, section 1: Bayle et al.'s test beside chapter 7's tests.

``python -m cvbook.runs.which_is_better --out results/which_is_better`` runs
:func:`cvbook.studies.which_is_better.run_one_dataset` for the two cases (``null`` and
``difference``) and writes ``<out>/<case>_n<n>.records.csv.gz``
(:func:`cvbook.runs.coverage.write_records`; :func:`cvbook.runs.coverage.read_records`
reads them), then ``<out>/provenance.json``
(per part: command, parameters, package versions, commit read before the run, wall
time). Every file is written atomically; a part already written is skipped, so the same
command resumes an interrupted run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..provenance import atomic_write_text, git_commit, git_dirty, package_versions
from ..studies.which_is_better import PAIRS, run_one_dataset
from .coverage import write_records

__all__ = ["main"]


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run the two cases and save them with their provenance.

    Examples
    --------
    >>> main(["--help"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    SystemExit: 0
    """
    parser = argparse.ArgumentParser(
        prog="python -m cvbook.runs.which_is_better",
        description="Size and power of Bayle et al.'s test, the corrected t and 5x2cv t.",
    )
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--cases", nargs="+", choices=list(PAIRS), default=list(PAIRS))
    parser.add_argument("--n", type=_positive_int, default=200)
    parser.add_argument("--n-repeats", type=_positive_int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    if args.n_jobs == 0:
        parser.error("argument --n-jobs: must be a nonzero integer (-1 for every core)")
    if not 0 <= args.seed < 2**32:
        parser.error(f"argument --seed: must be an integer in [0, 2**32), got {args.seed}")
    if args.n < 40:
        parser.error(f"argument --n: must be >= 40, got {args.n}")
    if not args.out.strip():
        parser.error("argument --out: must name a folder, got an empty string")
    out = Path(args.out)
    for folder in (out, *out.parents):
        if folder.exists():
            if not folder.is_dir():
                parser.error(f"argument --out: {str(folder)!r} exists and is not a folder")
            break
    commit, dirty = git_commit(), git_dirty()  # the code that runs: read before the run
    command = "python -m cvbook.runs.which_is_better " + " ".join(
        sys.argv[1:] if argv is None else list(argv)
    )
    for case in args.cases:
        name = f"{case}_n{args.n}"
        target = out / f"{name}.records.csv.gz"
        if target.exists():
            continue
        start = time.time()
        seed = [args.seed, list(PAIRS).index(case)]  # one stream per case
        rec = run_one_dataset(
            case,
            n=args.n,
            n_repeats=args.n_repeats,
            random_state=np.random.SeedSequence(seed),
            n_jobs=args.n_jobs,
            progress=not args.no_progress,
        )
        write_records(out / name, rec)
        path = out / "provenance.json"
        parts = json.loads(path.read_text())["parts"] if path.exists() else {}
        parts[name] = {
            "command": command,
            "parameters": {
                **{k: v for k, v in vars(args).items() if k != "no_progress"},
                "case": case,
                "seed_entropy": seed,
            },
            "versions": package_versions(),
            "commit": commit,
            "uncommitted_package_files": dirty,
            "wall_time_s": round(time.time() - start, 1),
            "cpu_count": os.cpu_count(),
            "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        atomic_write_text(path, json.dumps({"parts": parts}, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
