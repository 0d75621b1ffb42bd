"""The long run behind chapter 9: the bootstrap family against cross-validation.

``python -m cvbook.runs.bootstrap --out results/bootstrap`` runs
:func:`cvbook.studies.bootstrap_vs_cv.bootstrap_study` for every learner and size asked for and
writes, per (learner, m), ``<out>/<learner>_m<m>.csv.gz`` (:func:`write_study`), then
``<out>/provenance.json`` (per part: command, parameters, package versions, commit,
wall time). ``--study class_mix`` runs :func:`cvbook.studies.bootstrap_vs_cv.class_mix_study`
instead and writes ``<out>/class_mix_<learner>_m<m>.csv.gz``. Every file is written
atomically. Each finished data set is saved at once under
``<out>/parts/``; the same command, re-run after an interruption, resumes from there and
skips the parts already written.

Every part is recorded in ``<out>/records.json`` (:class:`cvbook.records.Ledger`) with the
settings and the code state it was made with: a re-run with other settings (more
repetitions, another seed) or other code is refused with a message naming the part and
what differs (exit status 2), and a part file that does not read back whole, or that has
no record of being finished, is made again.
"""

from __future__ import annotations

import argparse
import shutil
import time
from collections.abc import Sequence

from ..learners import get_learner
from ..records import Ledger, PartMismatch, note_unrecorded_checkpoint, prune_checkpoint
from ..simulation import saved_repetitions
from ..studies.bootstrap_vs_cv import (
    BOOTSTRAP_LEARNERS,
    MIN_M,
    bootstrap_distribution,
    bootstrap_study,
    class_mix_study,
    write_study,
)
from . import cli

__all__ = ["main"]


#: The study's argument names and the options that set them (an error names the option).
_OPTIONS = {
    "name": "--distribution",
    "distribution": "--distribution",
    "m": "--m",
    "n_repeats": "--n-repeats",
    "n_bootstraps": "--n-bootstraps",
    "random_state": "--seed",
    "n_jobs": "--n-jobs",
    "learner": "--learners",
}


def _option_message(message: str) -> str:
    """``argument --m: m must be ...`` for a study's ``m must be ...``."""
    first = message.split(" ", 1)[0]
    return f"argument {_OPTIONS[first]}: {message}" if first in _OPTIONS else message


def _parser() -> argparse.ArgumentParser:
    """The command line's options."""
    parser = cli.command_parser(
        "cvbook.runs.bootstrap", "Bootstrap estimates and cross-validation against the known risk."
    )
    parser.add_argument("--distribution", default="twogaussians")
    parser.add_argument(
        "--learners",
        nargs="+",
        default=["lda", "1nn"],
        help=f"any of {list(BOOTSTRAP_LEARNERS)} (names of cvbook.learners)",
    )
    parser.add_argument("--m", type=cli.positive_int, nargs="+", default=[20, 40])
    parser.add_argument("--n-repeats", type=cli.positive_int, default=1000)
    parser.add_argument("--n-bootstraps", type=cli.positive_int, default=50)
    cli.add_seed_and_jobs(parser)
    parser.add_argument(
        "--n-fresh",
        type=cli.positive_int,
        default=20_000,
        help="fresh points that score a non-linear model's risk (compare study)",
    )
    parser.add_argument(
        "--study",
        choices=("compare", "class_mix"),
        default="compare",
        help="compare: every estimate against CV (bootstrap_study, <learner>_m<m>.csv.gz); "
        "class_mix: Err^(1) by the stratified and the plain bootstrap and 10-fold, scored "
        "as usual and class-balanced (class_mix_study, class_mix_<learner>_m<m>.csv.gz)",
    )
    parser.add_argument("--no-progress", action="store_true")
    return parser


def _run_study(args: argparse.Namespace, learner: str, m: int, sizes: list[int], checkpoint):
    """One part: ``--study`` for one learner and one m (compare: checkpointed in ``checkpoint``)."""
    if args.study == "compare":
        return bootstrap_study(
            args.distribution,
            learner,
            m,
            args.n_repeats,
            n_bootstraps=args.n_bootstraps,
            target_sizes=sizes,
            random_state=args.seed,
            n_jobs=args.n_jobs,
            n_fresh=args.n_fresh,
            progress=not args.no_progress,
            checkpoint=checkpoint,
        )
    return class_mix_study(
        m,
        args.n_repeats,
        learner=learner,
        n_bootstraps=args.n_bootstraps,
        target_sizes=sizes,
        random_state=args.seed,
        n_jobs=args.n_jobs,
        progress=not args.no_progress,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run the studies and save them with their provenance.

    Examples
    --------
    A bad option stops the run before anything is written (every m is at least MIN_M):

    >>> main(["--out", "x", "--m", "3"])
    Traceback (most recent call last):
    SystemExit: 2
    """
    parser = _parser()
    args = parser.parse_args(argv)
    cli.check_seed_jobs_out(parser, args)
    try:
        bootstrap_distribution(args.distribution)
    except ValueError as err:
        parser.error(_option_message(str(err).replace("name must", "distribution must", 1)))
    try:  # an unknown or old learner name stops the run before any work
        for learner in args.learners:
            get_learner(learner, BOOTSTRAP_LEARNERS, "--learners", legacy="bootstrap")
    except ValueError as err:
        parser.error(str(err))
    small = [m for m in args.m if m < MIN_M]
    if small:
        parser.error(f"argument --m: every m must be >= {MIN_M}, got {small}")
    out = cli.output_folder(parser, args.out)
    ledger = Ledger(out)  # the code that runs: read before the run
    command = cli.command("cvbook.runs.bootstrap", argv)
    parameters = {k: v for k, v in vars(args).items() if k != "no_progress"}
    for learner in args.learners:
        for m in args.m:
            name = f"{learner}_m{m}" if args.study == "compare" else f"class_mix_{learner}_m{m}"
            target = out / f"{name}.csv.gz"
            sizes = sorted({m // 2, round(0.632 * m), m - m // 5, m - m // 10, m})
            settings = {
                "distribution": args.distribution,
                "learner": learner,
                "m": m,
                "n_repeats": args.n_repeats,
                "n_bootstraps": args.n_bootstraps,
                "seed": args.seed,
                "target_sizes": sizes,
                "study": args.study,
                "n_fresh": args.n_fresh,
            }
            checkpoint = out / "parts" / name
            try:
                state = ledger.status(name, settings, [target.name])
                if state == "done":
                    continue
                if state == "new":
                    note_unrecorded_checkpoint(checkpoint)
                    ledger.start(name, settings)
            except PartMismatch as err:
                parser.error(f"argument --out: {err}")
            prune_checkpoint(checkpoint)
            start = time.time()
            try:
                study = _run_study(args, learner, m, sizes, checkpoint)
            except ValueError as err:  # a bad value: one line naming its option
                if not saved_repetitions(checkpoint):
                    ledger.forget(name)  # nothing made: the part does not bind the next run
                parser.error(_option_message(str(err)))
            write_study(target, study)
            provenance = cli.part_provenance(
                command, parameters, ledger.code, start, target_sizes=sizes
            )
            ledger.finish(name, settings, [target.name], provenance)
            cli.record_part(out / "provenance.json", name, provenance)  # what chapter 9 reads
            shutil.rmtree(checkpoint, ignore_errors=True)  # class_mix keeps no checkpoint
    if (out / "parts").exists() and not any((out / "parts").iterdir()):
        (out / "parts").rmdir()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
