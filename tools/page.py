"""Turn a chapter re-run by papermill into a page that can be read offline.

A papermill output holds the chapter with new parameters, but its prose still carries
bare ``{eval}``, ``{numref}`` and ``{cite}`` roles, which ``jupyter nbconvert --to html``
shows as raw text (and its math needs a CDN). This tool builds a one-chapter website of
it with the book's own configuration (style, bibliography, the site's bundled MathJax,
``make mathjax``), and says at the top what made it:

* **no second run.** The page shows the executed copy as it is: its outputs, and the
  prose's numbers that ``papermill --engine cvbook`` stored as the run reached each
  paragraph (``cvbook.stored_values``). When the copy carries no such values, or the
  values are exactly those of the committed chapter although its parameters differ (the
  mark of papermill's default engine, which copies the paragraphs as they are), the
  chapter is executed again instead, as the website build does, and the tool says why;
* **what made it.** A box at the top lists the parameters that differ from the chapter's
  defaults (the ``parameters`` cell), with the run's date and duration;
* **the book's numbers.** Figures and equations are numbered as on the website (9.1,
  not 1): the chapter's ``lab-numbering`` cell (``tools/lab_captions.py``) gives the
  chapter's number and its first figure, and the site extension
  (``cvbook_page_numbering``, ``_ext/cvbook_site.py``) applies them.

Usage::

    .venv/bin/papermill --engine cvbook chapters/02_holdout.ipynb /tmp/ch2.ipynb -p seed 7
    make page NB=/tmp/ch2.ipynb        # = .venv/bin/python tools/page.py /tmp/ch2.ipynb

The page is ``_build/page/<name>/_build/html/index.html`` (``--out`` changes the folder).
References to the *other* chapters stay plain text (they are not part of this site).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MATHJAX_SITE = ROOT / "_build" / "mathjax-site"
EVAL_ROLE = re.compile(r"\{eval\}`([^`]+)`")
#: Characters that would start Markdown syntax inside a stored value.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>{}|])")


def defaults(nb: dict) -> dict[str, Any]:
    """The chapter's default parameters: the literal assignments of its cell tagged
    ``parameters`` (the first one: papermill adds ``injected-parameters`` after it).

    Examples
    --------
    >>> cell = {"cell_type": "code", "metadata": {"tags": ["parameters"]},
    ...         "source": "seed = 0  # a seed\\nsizes: list = [1, 2]\\nn_jobs = 1"}
    >>> defaults({"cells": [cell]})
    {'seed': 0, 'sizes': [1, 2], 'n_jobs': 1}
    """
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code" and "parameters" in cell.get("metadata", {}).get(
            "tags", []
        ):
            source = cell["source"]
            tree = ast.parse("".join(source) if isinstance(source, list) else source)
            out: dict[str, Any] = {}
            for node in tree.body:
                target = node.targets[0] if isinstance(node, ast.Assign) else None
                if isinstance(node, ast.AnnAssign):
                    target = node.target
                if isinstance(target, ast.Name) and node.value is not None:
                    try:
                        out[target.id] = ast.literal_eval(node.value)
                    except ValueError:
                        out[target.id] = ast.unparse(node.value)
            return out
    return {}


def changed_parameters(nb: dict) -> dict[str, tuple[Any, Any]]:
    """The parameters papermill injected that differ from the defaults: name -> (run,
    default); a name the chapter does not have gets the default ``None``.

    Examples
    --------
    >>> cell = {"cell_type": "code", "metadata": {"tags": ["parameters"]},
    ...         "source": "seed = 0\\nn_jobs = 1"}
    >>> nb = {"cells": [cell], "metadata": {"papermill": {"parameters": {"seed": 3, "n_jobs": 1}}}}
    >>> changed_parameters(nb)
    {'seed': (3, 0)}
    """
    given = nb.get("metadata", {}).get("papermill", {}).get("parameters", {}) or {}
    default = defaults(nb)
    return {
        name: (value, default.get(name))
        for name, value in given.items()
        if name not in default or default[name] != value
    }


def cell_values(cell: dict) -> dict[str, str]:
    """The values stored in a Markdown cell for its ``{eval}`` expressions (status ``ok``),
    as ``papermill --engine cvbook`` and ``tools/store_values.py`` store them.

    Examples
    --------
    >>> cell = {"cell_type": "markdown", "source": "{eval}`N.x`", "metadata": {
    ...     "user_expressions": [{"expression": "N.x", "result": {
    ...         "status": "ok", "data": {"text/plain": "0.25"}}}]}}
    >>> cell_values(cell)
    {'N.x': '0.25'}
    """
    out = {}
    for entry in cell.get("metadata", {}).get("user_expressions", []):
        result = entry.get("result", {})
        text = result.get("data", {}).get("text/plain")
        if result.get("status") == "ok" and isinstance(text, str):
            out[entry.get("expression")] = text
    return out


def prose_values(nb: dict) -> list[tuple[str, str | None]]:
    """Every ``{eval}`` of the prose, in reading order, with the value its own cell
    stores (None when it stores none)."""
    out = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        values = cell_values(cell)
        for expr in dict.fromkeys(EVAL_ROLE.findall(_text(cell))):
            out.append((expr, values.get(expr)))
    return out


def _committed_chapter(nb: dict, notebook: Path) -> Path | None:
    """The committed chapter the run started from (papermill's ``input_path``)."""
    given = nb.get("metadata", {}).get("papermill", {}).get("input_path") or ""
    for name in (Path(given).name, notebook.name):
        path = ROOT / "chapters" / name
        if name and path.is_file():
            return path
    return None


def why_execute(nb: dict, notebook: Path) -> str | None:
    """Why the copy's stored numbers cannot be shown as they are; None when they can."""
    values = prose_values(nb)
    absent = [expr for expr, value in values if value is None]
    if absent:
        return (
            f"{len(absent)} number(s) of the prose have no stored value ({', '.join(absent[:3])}"
            f"{', ...' if len(absent) > 3 else ''}); run papermill with --engine cvbook"
        )
    committed = _committed_chapter(nb, notebook)
    if values and committed and changed_parameters(nb):
        before = prose_values(json.loads(committed.read_text(encoding="utf-8")))
        if before == values:
            return (
                "the prose's stored numbers are exactly the committed chapter's although "
                "parameters differ, as when papermill's default engine ran it (it copies "
                "the paragraphs); run papermill with --engine cvbook to skip this second run"
            )
    return None


def _text(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def fill_values(nb: dict) -> None:
    """Write each ``{eval}`` role of the prose as the value its cell stores (in place)."""
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown" and EVAL_ROLE.search(_text(cell)):
            values = cell_values(cell)
            cell["source"] = EVAL_ROLE.sub(
                lambda m, v=values: _MARKDOWN_SPECIAL.sub(r"\\\1", v[m.group(1)]), _text(cell)
            )


def numbering(nb: dict) -> dict[str, list[int]]:
    """The website's numbering of this chapter, from its ``lab-numbering`` cell:
    ``{"figure": [chapter, first], "displaymath": [chapter, first]}``.

    Examples
    --------
    >>> cell = {"cell_type": "markdown", "metadata": {"tags": ["lab-numbering"]},
    ...         "source": "---\\nnumbering:\\n  equation:\\n    enumerator: 5.%s\\n"
    ...                   "  figure:\\n    enumerator: 5.%s\\n    start: 4\\n---"}
    >>> numbering({"cells": [cell]})
    {'displaymath': [5, 1], 'figure': [5, 4]}
    """
    for cell in nb.get("cells", []):
        if "lab-numbering" in cell.get("metadata", {}).get("tags", []):
            out = {}
            text = _text(cell)
            for kind, key in (("equation", "displaymath"), ("figure", "figure")):
                block = re.search(rf"{kind}:\s*\n((?:\s{{4,}}.*\n?)*)", text)
                if not block:
                    continue
                chapter = re.search(r"enumerator:\s*(\d+)\.%s", block.group(1))
                start = re.search(r"start:\s*(\d+)", block.group(1))
                if chapter:
                    out[key] = [int(chapter.group(1)), int(start.group(1)) if start else 1]
            return out
    return {}


def _shown(value: Any) -> str:
    """A value as the code cell writes it, in a table cell (``|`` escaped)."""
    return "`" + repr(value).replace("|", "\\|") + "`"


def provenance_cell(nb: dict) -> dict:
    """The box at the top of the page: what made this run."""
    meta = nb.get("metadata", {}).get("papermill", {})
    changed = changed_parameters(nb)
    lines = [":::{admonition} This page is a re-run", ":class: note", ""]
    if changed:
        lines += [
            "Executed by papermill with parameters that differ from the chapter's defaults:",
            "",
            "| parameter | this run | the chapter's default |",
            "|---|---|---|",
        ]
        for name, (run, default) in changed.items():
            lines.append(f"| `{name}` | {_shown(run)} | {_shown(default)} |")
    else:
        lines.append("Executed by papermill with the chapter's default parameters.")
    when = meta.get("end_time") or meta.get("start_time")
    duration = meta.get("duration")
    if when or duration is not None:
        lines += [""]
        lines.append(
            "Run"
            + (f" on {str(when)[:16].replace('T', ' ')} UTC" if when else "")
            + (f", {float(duration):.0f} s" if duration is not None else "")
            + ". Every number, figure and table below is that run's."
        )
    lines.append(":::")
    return {
        "cell_type": "markdown",
        "id": "cvbook-page-provenance",
        "metadata": {},
        "source": "\n".join(lines),
    }


def _insert_provenance(nb: dict) -> None:
    """After the title (the first Markdown cell with a ``# `` heading), else first."""
    cells = nb["cells"]
    at = 0
    for i, cell in enumerate(cells):
        if cell.get("cell_type") == "markdown" and re.search(r"(^|\n)# ", _text(cell)):
            at = i + 1
            break
    cells.insert(at, provenance_cell(nb))


def prepare(notebook: Path, work: Path, *, execute: bool) -> Path:
    """Write a one-chapter book around ``notebook`` into ``work``; return ``work``."""
    if work.exists():
        shutil.rmtree(work)
    (work / "chapters").mkdir(parents=True)
    name = re.sub(r"[^A-Za-z0-9_-]+", "_", notebook.stem)
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    if not execute:
        fill_values(nb)
    _insert_provenance(nb)
    (work / "chapters" / f"{name}.ipynb").write_text(json.dumps(nb, indent=1), encoding="utf-8")
    for item in ("references.bib", "references.md", "notation.md"):
        shutil.copy(ROOT / item, work / item)
    shutil.copytree(ROOT / "_ext", work / "_ext")
    shutil.copytree(ROOT / "_assets", work / "_assets")
    config = (ROOT / "_config.yml").read_text(encoding="utf-8")
    # the bundled MathJax of the book's build, by absolute path; warnings do not stop it
    config = config.replace('"_build/mathjax-site"', f'"{MATHJAX_SITE}"')
    if not execute:  # the outputs and stored numbers of the papermill run, shown as they are
        config = re.sub(r"(?m)^(\s*execute_notebooks:).*$", r'\1 "off"', config)
    number = numbering(nb)
    if number:  # figures and equations numbered as on the website (9.1, not 1)
        config = config.replace(
            "  config:\n",
            f"  config:\n    cvbook_page_numbering: {json.dumps(number)}\n",
            1,
        )
    (work / "_config.yml").write_text(config, encoding="utf-8")
    (work / "_toc.yml").write_text(
        "format: jb-book\n"
        f"root: chapters/{name}\n"
        "parts:\n"
        "  - caption: Appendix\n"
        "    chapters:\n"
        "      - file: notation\n"
        "      - file: references\n",
        encoding="utf-8",
    )
    return work


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path, help="a chapter notebook (e.g. papermill's output)")
    parser.add_argument("--out", type=Path, help="default: _build/page/<name>")
    parser.add_argument(
        "--execute",
        action="store_true",
        help="execute the chapter again even when its stored numbers can be shown as they are",
    )
    args = parser.parse_args(argv)
    if not args.notebook.is_file():
        parser.error(f"no notebook at {args.notebook}")
    if not (MATHJAX_SITE / "mathjax" / "tex-mml-chtml.js").is_file():
        parser.error("the bundled MathJax is missing: run `make mathjax` first")
    try:
        nb = json.loads(args.notebook.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        parser.error(f"{args.notebook} is not a notebook (JSON): {err}")
    if nb.get("metadata", {}).get("papermill", {}).get("exception"):
        parser.error(f"the papermill run of {args.notebook} stopped with an error: fix it first")
    reason = "--execute was given" if args.execute else why_execute(nb, args.notebook)
    if reason:
        print(f"Executing the chapter again: {reason}.", file=sys.stderr)
    else:
        print("Showing the executed copy as it is (no second run).", file=sys.stderr)
    out = (args.out or ROOT / "_build" / "page" / args.notebook.stem).resolve()
    work = prepare(args.notebook.resolve(), out / "src", execute=bool(reason))
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    cmd = [str(jupyter_book), "build", str(work), "--path-output", str(out), "--keep-going"]
    done = subprocess.run(cmd, check=False)
    page = out / "_build" / "html" / "index.html"
    if done.returncode or not page.is_file():
        print(f"the build failed (exit {done.returncode}); see the log above", file=sys.stderr)
        return done.returncode or 1
    print(f"The re-run chapter is in {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
