"""Strip the volatile metadata of executed notebooks, so that a prose change diffs small.

Removes what changes at every execution and says nothing about the result: each cell's
``execution`` timestamps, papermill's run info (``metadata.papermill`` and per-cell
``papermill``), and widget state. Outputs and execution counts stay (nbval checks them),
but consecutive stream outputs of the same stream are joined into one, as nbconvert's
``coalesce_streams`` does: how a kernel flushes a print (one piece or two) depends on the
machine's load, and would otherwise show as a change of a re-stored chapter.

It also writes the notebook's ``kernelspec`` as JupyterLab writes it (:data:`KERNELSPEC`):
JupyterLab puts the running kernel's own spec into the notebook as soon as the kernel
starts, so a chapter committed with another display name ("Python 3") was marked
modified on opening, untouched, and closing it asked "Save changes?".

Usage::

    python tools/strip_notebooks.py chapters/*.ipynb      # strip in place
    python tools/strip_notebooks.py --check chapters/*.ipynb  # exit 1 if any carries them
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

CELL_KEYS = ("execution", "papermill", "ExecuteTime", "collapsed", "scrolled")
NOTEBOOK_KEYS = ("papermill", "widgets")
#: The kernel spec JupyterLab writes into a notebook when ipykernel's ``python3`` kernel
#: starts (its ``kernel.json``; tests/test_lab.py checks it against the installed one).
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def volatile(nb: dict) -> list[str]:
    """The volatile keys a notebook carries, as readable locations."""
    found = [f"metadata.{k}" for k in NOTEBOOK_KEYS if k in nb.get("metadata", {})]
    if nb.get("metadata", {}).get("kernelspec") != KERNELSPEC:
        found.append("metadata.kernelspec (not as JupyterLab writes it: opening marks it modified)")
    for i, cell in enumerate(nb.get("cells", [])):
        found += [f"cell {i}: metadata.{k}" for k in CELL_KEYS if k in cell.get("metadata", {})]
        if _split_streams(cell.get("outputs", [])):
            found.append(f"cell {i}: a stream output in pieces")
    return found


def _split_streams(outputs: list[dict]) -> int:
    """How many outputs continue the stream output before them."""
    return sum(_same_stream(a, b) for a, b in itertools.pairwise(outputs))


def _same_stream(a: dict, b: dict) -> bool:
    return a.get("output_type") == b.get("output_type") == "stream" and a["name"] == b["name"]


def _text(source: str | list[str]) -> str:
    return source if isinstance(source, str) else "".join(source)


def coalesce(outputs: list[dict]) -> list[dict]:
    """``outputs`` with each run of one stream's outputs joined into one output.

    >>> out = [{"output_type": "stream", "name": "stdout", "text": ["a\\n"]},
    ...        {"output_type": "stream", "name": "stdout", "text": "b\\n"}]
    >>> coalesce(out)
    [{'output_type': 'stream', 'name': 'stdout', 'text': ['a\\n', 'b\\n']}]
    """
    joined: list[dict] = []
    for out in outputs:
        last = joined[-1] if joined else None
        if last is not None and _same_stream(last, out):
            text = _text(last["text"]) + _text(out["text"])
            last["text"] = text.splitlines(keepends=True)
        else:
            joined.append(out)
    return joined


def strip(nb: dict) -> dict:
    """Remove the volatile keys (in place) and return the notebook."""
    for k in NOTEBOOK_KEYS:
        nb.get("metadata", {}).pop(k, None)
    nb.setdefault("metadata", {})["kernelspec"] = dict(KERNELSPEC)
    for cell in nb.get("cells", []):
        for k in CELL_KEYS:
            cell.get("metadata", {}).pop(k, None)
        if "outputs" in cell:
            cell["outputs"] = coalesce(cell["outputs"])
    return nb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="report, do not write")
    args = parser.parse_args(argv)
    bad = 0
    for path in args.paths:
        nb = json.loads(path.read_text(encoding="utf-8"))
        found = volatile(nb)
        if args.check:
            for where in found:
                print(f"{path}: {where}")
            bad += bool(found)
        elif found:
            text = json.dumps(strip(nb), indent=1, ensure_ascii=False) + "\n"
            path.write_text(text, encoding="utf-8")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
