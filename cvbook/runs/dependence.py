"""``python -m cvbook.runs.dependence``: the long run behind chapter 8's time section.

Runs :func:`cvbook.studies.dependent_data.time_study` at one autocorrelation ``--phi`` over
``--n-repeats`` series, and :func:`~cvbook.studies.dependent_data.lagged_study` (the
lagged-input controls) over as many, and writes ``<out>/time_phi<phi>.csv.gz`` and
``<out>/lagged_phi<phi>_<case>.csv.gz`` (:func:`~cvbook.studies.dependent_data.write_record`),
then ``<out>/provenance.json`` (command, parameters, package versions, commit read before
the run, wall and CPU time). Every file is written atomically.

The files of one ``--phi`` are one part, ``phi<phi>``, recorded in ``<out>/records.json``
(:class:`cvbook.records.Ledger`) with the settings and the code state it was made with: a
re-run with other settings (more series, another seed) or other code is refused with a
message naming the part and what differs (exit status 2); a finished part is not made
again; a part file that does not read back whole, or that has no record of being
finished, is made again.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence

from ..provenance import atomic_write_text, package_versions
from ..records import Ledger, PartMismatch
from ..studies.dependent_data import LAGGED_CASES, lagged_study, time_study, write_record
from ..validation import check_output_path
from . import cli

__all__ = ["main"]

#: The trial settings the studies use by default (recorded with each part).
_DEFAULTS = {
    "time_trial": "n=300, n_neighbors=5, n_splits=5, gap=20, n_fresh=10000",
    "lagged_trial": "n=300, n_neighbors=5, n_splits=5, n_fresh=10000",
}


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run the time studies at one ``phi`` and save them with provenance.

    Examples
    --------
    A bad option stops the run before anything is written (phi must lie in (-1, 1)):

    >>> main(["--out", "x", "--phi", "1"])
    Traceback (most recent call last):
    SystemExit: 2
    """
    parser = cli.command_parser(
        "cvbook.runs.dependence",
        "Chapter 8's time section at a size that resolves its paired differences.",
    )
    parser.add_argument("--phi", type=float, default=0.95)
    parser.add_argument("--n-repeats", type=int, default=400)
    cli.add_seed_and_jobs(parser)
    args = parser.parse_args(argv)
    if not -1 < args.phi < 1:
        parser.error(f"argument --phi: must be in (-1, 1), got {args.phi}")
    if args.n_repeats < 3:
        parser.error(f"argument --n-repeats: must be >= 3, got {args.n_repeats}")
    cli.check_seed_jobs_out(parser, args)
    try:  # a folder, with no file among its parents
        out = check_output_path(args.out, "--out", folder=True)
    except (TypeError, ValueError) as err:
        parser.error(str(err))
    tag = f"phi{args.phi:g}"
    files = [f"time_{tag}.csv.gz", *(f"lagged_{tag}_{case}.csv.gz" for case in LAGGED_CASES)]
    settings = {
        "phi": args.phi,
        "n_repeats": args.n_repeats,
        "seed": args.seed,
        "lagged_cases": list(LAGGED_CASES),
        "defaults": _DEFAULTS,
    }
    ledger = Ledger(out)  # the code that runs: read before the run
    commit, dirty = ledger.code["commit"], ledger.code["uncommitted_package_files"]
    try:
        state = ledger.status(tag, settings, files)
        if state == "done":
            print(f"{out}/*_{tag}*: finished with these settings and this code", file=sys.stderr)
            return 0
        ledger.start(tag, settings)  # nothing is saved before the part ends: run it whole
    except PartMismatch as err:
        parser.error(f"argument --out: {err}")
    start, cpu = time.time(), time.process_time()
    try:
        res = time_study([args.phi], args.n_repeats, random_state=args.seed, n_jobs=args.n_jobs)
        lagged = lagged_study(
            LAGGED_CASES, args.n_repeats, random_state=args.seed, n_jobs=args.n_jobs, phi=args.phi
        )
    except ValueError as err:  # a bad value: nothing made, so the part binds no later run
        ledger.forget(tag)
        parser.error(str(err))
    write_record(out / files[0], res[args.phi], {"study": "time", "phi": args.phi})
    for case, values in lagged.items():
        write_record(
            out / f"lagged_{tag}_{case}.csv.gz",
            values,
            {"study": "lagged", "case": case, "phi": args.phi},
        )
    command = cli.command("cvbook.runs.dependence", argv)
    provenance = {
        "command": command,
        "parameters": vars(args),
        "defaults": _DEFAULTS,
        "versions": package_versions(),
        "commit": commit,
        "uncommitted_package_files": dirty,
        "wall_time_s": round(time.time() - start, 1),
        "cpu_time_s": round(time.process_time() - cpu, 1),
        "cpu_count": os.cpu_count(),
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    ledger.finish(tag, settings, files, provenance)
    atomic_write_text(out / "provenance.json", json.dumps(provenance, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
