"""Execute a chapter and store the value of every ``{eval}`` number in its Markdown cells.

The command line of :func:`cvbook.stored_values.store_values` (see that module for what
is stored and why): the notebook runs top to bottom in one kernel, and each Markdown
cell's expressions are evaluated when the run reaches that cell. With ``-p`` it first
injects parameters exactly as papermill does (papermill's own ``parameterize_notebook``),
so a re-run with new parameters carries its new numbers; ``papermill --engine cvbook``
does the same from papermill.

Usage::

    python tools/store_values.py chapters/02_holdout.ipynb             # in place
    python tools/store_values.py chapters/02_holdout.ipynb -o /tmp/ch2.ipynb -p seed 7 -p m 300
    python tools/store_values.py --check chapters/*.ipynb   # every {eval} has a stored value

Then strip the volatile metadata (``python tools/strip_notebooks.py``) before a commit.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cvbook.stored_values import expressions, missing, store_values


def _parse_value(text: str):
    """A ``-p`` value as papermill's CLI reads it (YAML: ``3`` -> 3, ``[1, 2]`` -> list)."""
    import yaml

    return yaml.safe_load(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("-o", "--output", type=Path, help="write here (one input only)")
    parser.add_argument(
        "-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE")
    )
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
        if args.parameter:
            from papermill.parameterize import parameterize_notebook

            params = {name: _parse_value(value) for name, value in args.parameter}
            nb = parameterize_notebook(nb, params)
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
