"""The long run behind chapter 10, section 1: Bayle et al.'s test beside chapter 7's tests.

``python -m cvbook.runs.which_is_better --out results/which_is_better`` runs
:func:`cvbook.studies.which_is_better.run_one_dataset` for the two cases (``null`` and
``difference``) and writes ``<out>/<case>_n<n>.records.csv.gz``
(:func:`cvbook.runs.coverage.write_records`; :func:`cvbook.runs.coverage.read_records`
reads them), then ``<out>/provenance.json``
(per part: command, parameters, package versions, commit read before the run, wall
time). Every file is written atomically; a part already finished is skipped, so the same
command resumes an interrupted run.

Every part is recorded in ``<out>/records.json`` (:class:`cvbook.records.Ledger`) with the
settings and the code state it was made with: a re-run with other settings (more
repetitions, another seed) or other code is refused with a message naming the part and
what differs (exit status 2), and a part file that does not read back whole, or that has
no record of being finished, is made again.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from ..records import Ledger, PartMismatch
from ..studies.which_is_better import PAIRS, run_one_dataset
from . import cli
from .coverage import write_records

__all__ = ["main"]

#: The folds of each cross-validation (:func:`run_one_dataset`'s default; recorded).
N_SPLITS = 10


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run the two cases and save them with their provenance.

    Examples
    --------
    A bad option stops the run before anything is written (n must be at least 40):

    >>> main(["--out", "x", "--n", "20"])
    Traceback (most recent call last):
    SystemExit: 2
    """
    parser = cli.command_parser(
        "cvbook.runs.which_is_better",
        "Size and power of Bayle et al.'s test, the corrected t and 5x2cv t.",
    )
    parser.add_argument("--cases", nargs="+", choices=list(PAIRS), default=list(PAIRS))
    parser.add_argument("--n", type=cli.positive_int, default=200)
    parser.add_argument("--n-repeats", type=cli.positive_int, default=1000)
    cli.add_seed_and_jobs(parser)
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    cli.check_seed_jobs_out(parser, args)
    if args.n < 40:
        parser.error(f"argument --n: must be >= 40, got {args.n}")
    out = cli.output_folder(parser, args.out)
    ledger = Ledger(out)  # the code that runs: read before the run
    command = cli.command("cvbook.runs.which_is_better", argv)
    for case in args.cases:
        name = f"{case}_n{args.n}"
        target = f"{name}.records.csv.gz"
        seed = [args.seed, list(PAIRS).index(case)]  # one stream per case
        settings = {
            "case": case,
            "n": args.n,
            "n_repeats": args.n_repeats,
            "n_splits": N_SPLITS,
            "seed": args.seed,
            "seed_entropy": seed,
        }
        try:
            state = ledger.status(name, settings, [target])
            if state == "done":
                continue
            ledger.start(name, settings)  # nothing is saved before the part ends: run it whole
        except PartMismatch as err:
            parser.error(f"argument --out: {err}")
        start = time.time()
        try:
            rec = run_one_dataset(
                case,
                n=args.n,
                n_repeats=args.n_repeats,
                n_splits=N_SPLITS,
                random_state=np.random.SeedSequence(seed),
                n_jobs=args.n_jobs,
                progress=not args.no_progress,
            )
        except ValueError as err:  # a bad value: nothing made, so the part binds no later run
            ledger.forget(name)
            parser.error(str(err))
        write_records(out / name, rec)
        parameters = {
            **{k: v for k, v in vars(args).items() if k != "no_progress"},
            "case": case,
            "seed_entropy": seed,
        }
        provenance = cli.part_provenance(command, parameters, ledger.code, start)
        ledger.finish(name, settings, [target], provenance)
        cli.record_part(out / "provenance.json", name, provenance)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
