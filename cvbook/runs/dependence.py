"""``python -m cvbook.runs.dependence``: the long run behind chapter 8's time section.

Runs :func:`cvbook.studies.dependence.time_study` at one autocorrelation ``--phi`` over
``--n-repeats`` series, and :func:`~cvbook.studies.dependence.lagged_study` (the
lagged-input controls) over as many, and writes ``<out>/time_phi<phi>.csv.gz`` and
``<out>/lagged_phi<phi>_<case>.csv.gz`` (:func:`~cvbook.studies.dependence.write_record`),
then ``<out>/provenance.json`` (command, parameters, package versions, commit read before
the run, wall and CPU time). Every file is written atomically.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ..provenance import atomic_write_text, git_commit, git_dirty, package_versions
from ..studies.dependence import LAGGED_CASES, lagged_study, time_study, write_record

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run the time studies at one ``phi`` and save them with provenance.

    Examples
    --------
    >>> main(["--help"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    SystemExit: 0
    """
    parser = argparse.ArgumentParser(
        prog="python -m cvbook.runs.dependence",
        description="Chapter 8's time section at a size that resolves its paired differences.",
    )
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--phi", type=float, default=0.95)
    parser.add_argument("--n-repeats", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args(argv)
    if not -1 < args.phi < 1:
        parser.error(f"argument --phi: must be in (-1, 1), got {args.phi}")
    if args.n_repeats < 3:
        parser.error(f"argument --n-repeats: must be >= 3, got {args.n_repeats}")
    if not 0 <= args.seed < 2**32:
        parser.error(f"argument --seed: must be an integer in [0, 2**32), got {args.seed}")
    if args.n_jobs == 0:
        parser.error("argument --n-jobs: must be a nonzero integer (-1 for every core)")
    if not args.out.strip():
        parser.error("argument --out: must name a folder, got an empty string")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        parser.error(f"argument --out: {str(out)!r} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    commit, dirty = git_commit(), git_dirty()
    start, cpu = time.time(), time.process_time()
    tag = f"phi{args.phi:g}"
    res = time_study([args.phi], args.n_repeats, random_state=args.seed, n_jobs=args.n_jobs)
    write_record(out / f"time_{tag}.csv.gz", res[args.phi], f"study=time phi={args.phi:g}")
    lagged = lagged_study(
        LAGGED_CASES, args.n_repeats, random_state=args.seed, n_jobs=args.n_jobs, phi=args.phi
    )
    for case, values in lagged.items():
        write_record(
            out / f"lagged_{tag}_{case}.csv.gz",
            values,
            f"study=lagged case={case} phi={args.phi:g}",
        )
    command = "python -m cvbook.runs.dependence " + " ".join(
        sys.argv[1:] if argv is None else list(argv)
    )
    provenance = {
        "command": command,
        "parameters": vars(args),
        "defaults": {
            "time_trial": "n=300, n_neighbors=5, n_splits=5, gap=20, n_fresh=10000",
            "lagged_trial": "n=300, n_neighbors=5, n_splits=5, n_fresh=10000",
        },
        "versions": package_versions(),
        "commit": commit,
        "uncommitted_package_files": dirty,
        "wall_time_s": round(time.time() - start, 1),
        "cpu_time_s": round(time.process_time() - cpu, 1),
        "cpu_count": os.cpu_count(),
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    atomic_write_text(out / "provenance.json", json.dumps(provenance, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
