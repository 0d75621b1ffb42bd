"""Execute a chapter and store the value of every ``{eval}`` number in its Markdown cells.

jupyterlab-myst shows an ``{eval}`` role from the cell metadata key ``user_expressions``
(``src/userExpressions.ts`` of jupyterlab-myst: a list of ``{"expression": ...,
"result": {"status": "ok", "data": {...}, "metadata": {...}}}``, the kernel's own
``execute_reply.user_expressions`` entries). JupyterLab fills it after *Run All*; a
notebook that carries it shows every number as soon as it is opened, before any kernel
runs (a downloaded ``.ipynb``, a papermill output, GitHub's preview does not read it).

This tool runs the notebook top to bottom in one kernel, as ``jupyter nbconvert
--execute`` does, and evaluates each Markdown cell's expressions when the run reaches
that cell (as jupyterlab-myst and myst-nb do), storing the results. With ``-p`` it first
injects parameters exactly as papermill does (papermill's own ``parameterize_notebook``),
so a re-run with new parameters carries its new numbers.

Usage::

    python tools/store_values.py chapters/02_holdout.ipynb             # in place
    python tools/store_values.py chapters/02_holdout.ipynb -o /tmp/ch2.ipynb -p seed 7 -p m 300
    python tools/store_values.py --check chapters/*.ipynb   # every {eval} has a stored value

Then strip the volatile metadata (``python tools/strip_notebooks.py``) before a commit.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from pathlib import Path

EVAL_ROLE = re.compile(r"\{eval\}`([^`]+)`")
KEY = "user_expressions"


def expressions(cell: dict) -> list[str]:
    """The ``{eval}`` expressions of a Markdown cell, in order, each once.

    Examples
    --------
    >>> expressions({"cell_type": "markdown", "source": "a {eval}`N.x` b {eval}`N.y` {eval}`N.x`"})
    ['N.x', 'N.y']
    """
    if cell.get("cell_type") != "markdown":
        return []
    source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    return list(dict.fromkeys(EVAL_ROLE.findall(source)))


def missing(nb: dict) -> list[str]:
    """Expressions of the notebook without a stored value (``ok`` status)."""
    out = []
    for i, cell in enumerate(nb.get("cells", [])):
        stored = {
            e.get("expression"): e.get("result", {}).get("status")
            for e in cell.get("metadata", {}).get(KEY, [])
        }
        out += [f"cell {i}: {e}" for e in expressions(cell) if stored.get(e) != "ok"]
    return out


async def _evaluate(kc, exprs: list[str], timeout: float) -> list[dict]:
    named = {str(i): expr for i, expr in enumerate(exprs)}
    msg_id = kc.execute("", silent=False, store_history=False, user_expressions=named)
    while True:
        reply = kc.get_shell_msg(timeout=timeout)
        if asyncio.iscoroutine(reply):
            reply = await reply
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    results = reply["content"].get(KEY, {})
    return [{"expression": expr, "result": results.get(str(i), {})} for i, expr in enumerate(exprs)]


def run(nb, *, cwd: Path, timeout: float = 600) -> list[str]:
    """Execute ``nb`` (an ``nbformat`` notebook) in place and store its values.

    Returns the expressions that failed to evaluate (``cell i: expr: error``).
    """
    from nbclient import NotebookClient
    from nbclient.util import run_sync

    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name=nb.metadata.get("kernelspec", {}).get("name", "python3"),
        resources={"metadata": {"path": str(cwd)}},
    )
    failed: list[str] = []
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
                continue
            exprs = expressions(cell)
            if not exprs:
                cell.metadata.pop(KEY, None)
                continue
            stored = run_sync(_evaluate)(client.kc, exprs, timeout)
            cell.metadata[KEY] = stored
            for entry in stored:
                result = entry["result"]
                if result.get("status") != "ok":
                    failed.append(
                        f"cell {index}: {entry['expression']}: "
                        f"{result.get('ename')}: {result.get('evalue')}"
                    )
    return failed


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
        failed = run(nb, cwd=path.resolve().parent, timeout=args.timeout)
        out = args.output or path
        nbformat.write(nb, out)
        for line in failed:
            print(f"{path}: {line}", file=sys.stderr)
        status |= bool(failed)
        print(f"{out}: {sum(len(expressions(c)) for c in nb.cells)} values stored")
    return status


if __name__ == "__main__":
    sys.exit(main())
