"""Build the site from the chapters ``make nbval`` has just executed and checked.

``make nbval`` executes every chapter once at its default parameters and compares its
outputs and its prose's numbers with the committed ones; its plugin
(``tests/nbval_executed.py``) writes each checked run, with the values of the prose's
``{eval}`` roles stored in its Markdown cells (``user_expressions``), to
``_build/executed/``. With ``CVBOOK_EXECUTED=_build/executed`` (``tools/build_book.py``
sets it for ``make build`` and ``make book``) this extension makes the build use that run
instead of executing every chapter a second time:

* myst-nb executes nothing (``nb_execution_mode = "off"``);
* each chapter's page is read from its executed copy (Sphinx's ``source-read`` event).
  A copy must exist and must have been run from the notebook as it is now (the SHA-256
  it records): a missing copy, or a chapter edited since ``make nbval``, stops the build;
* each ``{eval}`` role is answered from the values the run stored for that Markdown cell
  (myst-nb 1.x evaluates ``{eval}`` only against a live kernel, in its ``inline`` mode;
  it has no reader for stored ``user_expressions``). An expression without a stored
  value, or whose evaluation failed, is a warning, hence an error under ``-W``, exactly
  as it is in ``inline`` mode;
* the ``{cvbook-exec-times}`` directive (``exec_times.md``) prints the wall and CPU time
  of each chapter's run, as that run measured them.

Without ``CVBOOK_EXECUTED`` nothing changes: ``jupyter-book build .`` executes every
chapter inline, as ``_config.yml`` says.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

#: Notebook metadata key written by tests/nbval_executed.py.
META = "cvbook_executed"


def executed_folder(app) -> Path | None:
    """The folder of executed copies (``CVBOOK_EXECUTED``, relative to the book), or None."""
    value = os.environ.get("CVBOOK_EXECUTED", "")
    return (Path(app.srcdir) / value).resolve() if value else None


def _no_execution(app, config) -> None:
    if executed_folder(app) is not None:
        config.nb_execution_mode = "off"


def _read_executed(app, docname: str, source: list[str]) -> None:
    """Hand Sphinx the executed copy of a chapter in place of the committed notebook."""
    folder = executed_folder(app)
    path = Path(app.env.doc2path(docname))
    if folder is None or path.suffix != ".ipynb":
        return
    rel = path.resolve().relative_to(Path(app.srcdir).resolve())
    copy = folder / rel
    if not copy.is_file():
        raise ExtensionError(
            f"{rel}: no executed copy in {folder} (make nbval writes it when the chapter "
            "passes; a chapter that failed there has none)"
        )
    executed = json.loads(copy.read_text(encoding="utf-8"))
    recorded = executed.get("metadata", {}).get(META, {}).get("source_sha256")
    now = hashlib.sha256(path.read_bytes()).hexdigest()
    if recorded != now:
        raise ExtensionError(
            f"{rel} changed since make nbval executed it (its executed copy was run from "
            "another version): run make nbval again"
        )
    source[0] = json.dumps(executed)


def _stored_values_client():
    """myst-nb's client for an unexecuted notebook, answering ``{eval}`` from the values
    stored in the Markdown cells (the cell the role is in, found by the render order)."""
    from myst_nb.core.execute.base import EvalNameError, NotebookClientBase
    from nbformat import from_dict

    class StoredValuesClient(NotebookClientBase):
        def start_client(self):
            self._position = -1  # index of the last code cell rendered
            self._stored: list[tuple[int, dict]] = []
            for index, cell in enumerate(self.notebook.cells):
                entries = cell.get("metadata", {}).get("user_expressions", [])
                if cell.get("cell_type") == "markdown" and entries:
                    values = {e["expression"]: e.get("result", {}) for e in entries}
                    self._stored.append((index, values))

        def code_cell_outputs(self, cell_index: int):
            self._position = max(self._position, cell_index)
            return super().code_cell_outputs(cell_index)

        def eval_variable(self, name: str) -> list:
            if not re.match(self.nb_config.eval_name_regex, name):
                raise EvalNameError(name)
            candidates = [v for i, v in self._stored if i > self._position and name in v]
            candidates += [v for i, v in self._stored if name in v]
            if not candidates:
                raise KeyError(f"{name!r} has no value stored by the run (make nbval)")
            result = candidates[0][name]
            if result.get("status") != "ok":
                return [
                    from_dict(
                        {
                            "output_type": "error",
                            "ename": result.get("ename", "Error"),
                            "evalue": result.get("evalue", ""),
                            "traceback": [],
                        }
                    )
                ]
            return [
                from_dict(
                    {
                        "output_type": "execute_result",
                        "execution_count": None,
                        "data": result.get("data", {}),
                        "metadata": result.get("metadata", {}),
                    }
                )
            ]

    return StoredValuesClient


def _patch_myst_nb() -> None:
    """myst-nb's parser creates its client with ``create_client``; for an executed copy
    (execution off, the copy's metadata present) it gets :func:`_stored_values_client`."""
    import myst_nb.sphinx_ as parser

    original = parser.create_client
    if getattr(original, "_cvbook", False):
        return
    client_class = _stored_values_client()

    def create_client(notebook, source, nb_config, logger, read_fmt=None):
        if nb_config.execution_mode == "off" and META in notebook.get("metadata", {}):
            path = Path(source) if Path(source).is_file() else None
            return client_class(notebook, path, nb_config, logger)
        return original(notebook, source, nb_config, logger, read_fmt)

    create_client._cvbook = True
    parser.create_client = create_client


def _times(app) -> list[dict]:
    folder = executed_folder(app)
    if folder is None or not (folder / "times").is_dir():
        return []
    rows = [json.loads(p.read_text()) for p in sorted((folder / "times").glob("*.json"))]
    return sorted(rows, key=lambda r: r["chapter"])


def _doc_link(parent: str, docname: str):
    """A link to a page, as myst-nb's execution table writes it."""
    import posixpath

    from sphinx.addnodes import pending_xref

    link = pending_xref(
        refdoc=parent,
        reftarget=posixpath.relpath(docname, posixpath.dirname(parent)),
        reftype="doc",
        refdomain="std",
        refexplicit=True,
        refwarn=True,
        classes=["xref", "doc"],
    )
    link += nodes.inline(text=docname)
    return link


def _table(header: list[str], rows: list[list]) -> nodes.table:
    table = nodes.table(classes=["colwidths-auto", "cvbook-exec-times"])
    group = nodes.tgroup(cols=len(header))
    table += group
    group += [nodes.colspec(colwidth=round(100 / len(header), 2)) for _ in header]
    head = nodes.thead()
    body = nodes.tbody()
    group += [head, body]
    for part, lines in ((head, [header]), (body, rows)):
        for line in lines:
            row = nodes.row()
            for cell in line:
                paragraph = nodes.paragraph()
                paragraph += nodes.Text(cell) if isinstance(cell, str) else cell
                row += nodes.entry("", paragraph)
            part += row
    return table


class ExecTimes(SphinxDirective):
    """``{cvbook-exec-times}``: each chapter's run, its wall and CPU seconds.

    In a build from the runs ``make nbval`` kept, a table of what those runs measured
    (myst-nb's columns, and the CPU time and the load); in a build that executes the
    chapters itself, myst-nb's own execution table (``{nb-exec-table}``).
    """

    def run(self) -> list[nodes.Node]:
        rows = _times(self.env.app)
        if not rows:
            from myst_nb.ext.execution_tables import METADATA_KEY, ExecutionStatsNode
            from myst_nb.sphinx_ import NbMetadataCollector

            NbMetadataCollector.set_doc_data(self.env, self.env.docname, METADATA_KEY, True)
            return [ExecutionStatsNode()]
        folder = executed_folder(self.env.app)
        body = []
        for r in rows:
            docname = str(Path(r.get("path", f"chapters/{r['chapter']}")).with_suffix(""))
            body.append(
                [
                    _doc_link(self.env.docname, docname),
                    r["measured"],
                    "nbval" if r.get("compared", True) else "nbval --nbval-lax",
                    f"{r['wall_s']:.0f}",
                    "–" if r.get("cpu_s") is None else f"{r['cpu_s']:.0f}",
                    f"{r['load_average'][0]:.1f}",
                    "✅",
                ]
            )
        wall = sum(r["wall_s"] for r in rows)
        cpu = sum(r["cpu_s"] or 0 for r in rows)
        header = ["Document", "Measured", "Method", "Wall (s)", "CPU (s)", "Load", "Status"]
        machine = rows[0].get("machine", "")
        note = nodes.paragraph(
            text=f"All chapters: {wall:.0f} s of wall time, {cpu:.0f} s of CPU time, as "
            f"measured by the run this site was built from ({machine}; two chapters at a "
            "time), kept in " + folder.name + "/. Wall time runs from starting the "
            "kernel to the end of the last cell; CPU time is the kernel's and its worker "
            "processes'. Load is the machine's load average (1 min) when the chapter "
            "finished: above 2, other work shared the two cores, and the wall time is "
            "longer than on a quiet machine. Only chapters whose run passed are listed."
        )
        return [_table(header, body), note]


def setup(app) -> dict[str, Any]:
    _patch_myst_nb()
    app.connect("config-inited", _no_execution)
    app.connect("source-read", _read_executed)
    app.add_directive("cvbook-exec-times", ExecTimes)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
