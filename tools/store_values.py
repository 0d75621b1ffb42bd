"""Execute a chapter and store the value of every ``{eval}`` number in its Markdown cells.

The command line of :func:`cvbook.stored_values.store_values` (see that module for what
is stored and why), used to commit a chapter: the notebook runs top to bottom in one
kernel, and each Markdown cell's expressions are evaluated when the run reaches that
cell. A re-run with new parameters is ``papermill --engine cvbook`` (the same storing,
with papermill's parameters).

Usage::

    python tools/store_values.py chapters/02_holdout.ipynb             # in place
    python tools/store_values.py chapters/02_holdout.ipynb -o /tmp/ch2.ipynb
    python tools/store_values.py --check chapters/*.ipynb   # every {eval} has a stored value

Then strip the volatile metadata (``python tools/strip_notebooks.py``) before a commit.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cvbook.stored_values import expressions, missing, store_values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("-o", "--output", type=Path, help="write here (one input only)")
    parser.add_argument("--check", action="store_true", help="report, do not execute")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args(argv)
    if args.output and len(args.paths) != 1:
        parser.error("-o/--output takes one notebook")
    status = 0
    for path in args.paths:
        if args.check:
            gaps = missing(json.loads(path.read_text(encoding="utf-8")))
            for gap in gaps:
                print(f"{path}: no stored value for {gap} (python tools/store_values.py)")
            status |= bool(gaps)
            continue
        import nbformat

        nb = nbformat.read(path, as_version=4)
        failed = store_values(nb, cwd=path.resolve().parent, timeout=args.timeout)
        out = args.output or path
        nbformat.write(nb, out)
        for line in failed:
            print(f"{path}: {line}", file=sys.stderr)
        status |= bool(failed)
        print(f"{out}: {sum(len(expressions(c)) for c in nb.cells)} values stored")
    return status


if __name__ == "__main__":
    sys.exit(main())
