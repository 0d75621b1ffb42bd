"""What the drivers' command lines share: the parser, its common options and their checks.

Each driver of :mod:`cvbook.runs` builds its parser with :func:`command_parser`, which
names the program after the module and adds ``--out``; :func:`add_seed_and_jobs` adds
``--seed`` and ``--n-jobs``; :func:`check_seed_jobs_out` refuses the values every driver
refuses, in one wording; :func:`command` is the command line recorded in a provenance,
:func:`part_provenance` the provenance of one part of a run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..provenance import atomic_write_text, package_versions

__all__ = [
    "add_seed_and_jobs",
    "check_seed_jobs_out",
    "command",
    "command_parser",
    "output_folder",
    "part_provenance",
    "positive_int",
    "record_part",
]


def positive_int(text: str) -> int:
    """An ``argparse`` type: a whole number of at least 1.

    Examples
    --------
    >>> positive_int("3")
    3
    >>> positive_int("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a positive integer, got '0'
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def command_parser(
    module: str,
    description: str,
    *,
    out_default: str | None = None,
    out_help: str = "output folder",
) -> argparse.ArgumentParser:
    """The parser of ``python -m <module>``, with its ``--out`` option.

    Parameters
    ----------
    module : str
        The driver's module name (``__name__`` of ``cvbook.runs.<x>``).
    description : str
        One line for ``--help``.
    out_default : str, optional
        The default output; without one, ``--out`` is required.
    out_help : str, default="output folder"
        The help text of ``--out``.

    Returns
    -------
    argparse.ArgumentParser

    Examples
    --------
    >>> p = command_parser("cvbook.runs.demo", "A demo.")
    >>> p.prog
    'python -m cvbook.runs.demo'
    >>> p.parse_args(["--out", "x"]).out
    'x'
    """
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=description)
    if out_default is None:
        parser.add_argument("--out", required=True, help=out_help)
    else:
        parser.add_argument("--out", default=out_default, help=out_help)
    return parser


def add_seed_and_jobs(
    parser: argparse.ArgumentParser, *, seed: int = 0, n_jobs: int | None = 1
) -> None:
    """Add ``--seed`` (an integer) and ``--n-jobs`` (an integer) with these defaults.

    Examples
    --------
    >>> p = command_parser("cvbook.runs.demo", "A demo.")
    >>> add_seed_and_jobs(p, seed=7)
    >>> vars(p.parse_args(["--out", "x"]))
    {'out': 'x', 'seed': 7, 'n_jobs': 1}
    """
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--n-jobs", type=int, default=n_jobs)


def check_seed_jobs_out(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Stop with the parser's usage error on a bad ``--n-jobs``, ``--seed`` or empty ``--out``.

    ``--n-jobs`` must be nonzero, ``--seed`` in ``[0, 2**32)``, ``--out`` a non-empty name.

    Examples
    --------
    >>> p = command_parser("cvbook.runs.demo", "A demo.")
    >>> add_seed_and_jobs(p)
    >>> check_seed_jobs_out(p, p.parse_args(["--out", "x", "--seed", "5"]))
    """
    if args.n_jobs == 0:
        parser.error("argument --n-jobs: must be a nonzero integer (-1 for every core)")
    if not 0 <= args.seed < 2**32:
        parser.error(f"argument --seed: must be an integer in [0, 2**32), got {args.seed}")
    if not args.out.strip():
        parser.error("argument --out: must name a folder, got an empty string")


def output_folder(parser: argparse.ArgumentParser, out: str) -> Path:
    """``out`` as a path, after checking that nothing on it or above it is a file.

    Examples
    --------
    >>> p = command_parser("cvbook.runs.demo", "A demo.")
    >>> output_folder(p, "no/such/folder")
    PosixPath('no/such/folder')
    """
    path = Path(out)
    for folder in (path, *path.parents):
        if folder.exists():
            if not folder.is_dir():
                parser.error(f"argument --out: {str(folder)!r} exists and is not a folder")
            break
    return path


def command(module: str, argv: Sequence[str] | None) -> str:
    """The command line as typed, for a provenance record.

    Examples
    --------
    >>> command("cvbook.runs.demo", ["--out", "x"])
    'python -m cvbook.runs.demo --out x'
    """
    return f"python -m {module} " + " ".join(sys.argv[1:] if argv is None else list(argv))


def part_provenance(
    command: str, parameters: Any, code: Mapping[str, Any], start: float, **extra: Any
) -> dict[str, Any]:
    """The provenance of one part of a run, finished now.

    Parameters
    ----------
    command : str
        The command line (:func:`command`).
    parameters : object
        The part's settings, as they are to be recorded.
    code : mapping
        The code state read before the run (the ``code`` of a :class:`cvbook.records.Ledger`): its
        ``commit`` and ``uncommitted_package_files`` are recorded.
    start : float
        ``time.time()`` when the part started; the wall time is counted from it.
    **extra
        Further entries, recorded after ``parameters``.

    Returns
    -------
    dict
        ``command``, ``parameters``, the ``extra`` entries, ``versions``, ``commit``,
        ``uncommitted_package_files``, ``wall_time_s``, ``cpu_count`` and ``finished``.

    Examples
    --------
    >>> p = part_provenance("python -m x", {"seed": 0}, {"commit": None,
    ...                     "uncommitted_package_files": None}, time.time(), sizes=[10])
    >>> list(p)[:3], p["wall_time_s"] >= 0
    (['command', 'parameters', 'sizes'], True)
    """
    return {
        "command": command,
        "parameters": parameters,
        **extra,
        "versions": package_versions(),
        "commit": code["commit"],
        "uncommitted_package_files": code["uncommitted_package_files"],
        "wall_time_s": round(time.time() - start, 1),
        "cpu_count": os.cpu_count(),
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def record_part(path: str | Path, name: str, provenance: dict) -> None:
    """Add one part's provenance to ``path`` (``{"parts": {name: ...}}``), atomically.

    Examples
    --------
    >>> import json, tempfile
    >>> target = Path(tempfile.mkdtemp()) / "provenance.json"
    >>> record_part(target, "a", {"seed": 0})
    >>> record_part(target, "b", {"seed": 1})
    >>> sorted(json.loads(target.read_text())["parts"])
    ['a', 'b']
    """
    path = Path(path)
    parts = json.loads(path.read_text())["parts"] if path.exists() else {}
    parts[name] = provenance
    atomic_write_text(path, json.dumps({"parts": parts}, indent=1, sort_keys=True) + "\n")
