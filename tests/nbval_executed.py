"""A pytest plugin for nbval: keep the run it checks, so the book is built from it.

``make nbval`` re-executes every chapter once, at its default parameters, and checks that
the outputs reproduce the committed ones. This plugin (``-p tests.nbval_executed``, with
``CVBOOK_EXECUTED=<folder>``) keeps that one execution instead of throwing it away:

* when the run reaches a Markdown cell, the values of its ``{eval}`` expressions are
  asked from nbval's kernel (as jupyterlab-myst, myst-nb's inline mode and
  ``tools/store_values.py`` do) and stored in the cell's ``user_expressions``;
* every stored value must equal the committed notebook's, as every output must for
  nbval: a committed chapter whose prose shows stale numbers fails here, naming them;
* when every cell of a chapter passed, the executed copy is written to
  ``<folder>/<path of the notebook>`` (``_build/executed/chapters/02_holdout.ipynb``),
  with the SHA-256 of the committed notebook it was run from, and the run's wall time and
  the CPU time of its kernel (and of the kernel's worker processes) to
  ``<folder>/times/<chapter>.json``. A chapter with a failing or differing cell gets no
  copy (an older one is removed), so the build cannot show an unchecked run.

``tools/build_book.py`` (``CVBOOK_EXECUTED``) then builds the site from these copies,
without executing anything (``_ext/cvbook_executed.py``). With ``--nbval-lax`` (``make
book``) the outputs are not compared, but a failing cell still leaves no copy.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import platform
import time
from pathlib import Path

import nbformat
import nbval.plugin
import pytest

ROOT = Path(__file__).resolve().parents[1]
KEY = "user_expressions"
#: Notebook metadata key of an executed copy: what it was run from, and how long it took.
META = "cvbook_executed"


def _folder() -> Path | None:
    value = os.environ.get("CVBOOK_EXECUTED", "")
    return (ROOT / value).resolve() if value else None


def _relative(path: Path) -> Path:
    """Where a notebook's copy goes: its path in the book (its name, outside it)."""
    try:
        return path.relative_to(ROOT)
    except ValueError:
        return Path(path.name)


def _is_cell(item) -> bool:
    return type(item).__name__ == "IPyNbCell"


class _Run:
    """The state of one notebook's run: its kernel's values and how long it took."""

    def __init__(self, nb_file) -> None:
        self.path = Path(str(nb_file.fspath)).resolve()
        self.raw = self.path.read_bytes()
        self.nb = nbformat.reads(self.raw.decode("utf-8"), as_version=4)
        self.start = time.perf_counter()
        self.passed = True
        self.code_seen = 0  # code cells reached so far
        self.stale: list[str] = []
        self.failures: list[str] = []

    def markdown_before(self, code_index: int) -> list[int]:
        """Indexes (in ``nb.cells``) of the Markdown cells between the previous code cell
        and code cell ``code_index`` (``None``: after the last code cell)."""
        out, seen = [], -1
        for i, cell in enumerate(self.nb.cells):
            if cell.cell_type == "code":
                seen += 1
                if code_index is not None and seen == code_index:
                    return out
                out = []
            elif cell.cell_type == "markdown":
                out.append(i)
        return out if code_index is None else []


_RUNS: dict[str, _Run] = {}

#: nbval merges all the stream outputs of a cell into one, in front of the figures and
#: tables (``coalesce_streams``), to compare them; the page must show them in the order
#: the cell printed them, so each list is copied before nbval merges it.
_BEFORE_MERGE: dict[int, list] = {}
_merge = nbval.plugin.coalesce_streams


def _recording_merge(outputs):
    _BEFORE_MERGE[id(outputs)] = copy.deepcopy(list(outputs or []))
    return _merge(outputs)


nbval.plugin.coalesce_streams = _recording_merge


def _as_printed(outputs: list) -> list:
    """The outputs in their order, consecutive prints of one stream joined (as nbclient
    and JupyterLab join them)."""
    out: list = []
    for o in outputs:
        last = out[-1] if out else {}
        if o.get("output_type") == last.get("output_type") == "stream" and (
            last.get("name") == o.get("name")
        ):
            last["text"] += o["text"]
            continue
        out.append(o)
    return out


def _run_of(item) -> _Run:
    key = str(item.parent.fspath)
    if key not in _RUNS:
        run = _RUNS[key] = _Run(item.parent)
        # an older copy goes first: if this run fails, no copy is left for the build
        rel = _relative(run.path)
        (_folder() / rel).unlink(missing_ok=True)
        (_folder() / "times" / f"{run.path.stem}.json").unlink(missing_ok=True)
    return _RUNS[key]


def _store_markdown(item, run: _Run, indexes: list[int]) -> None:
    """Evaluate the ``{eval}`` expressions of these Markdown cells in nbval's kernel, store
    them, and note those that differ from the committed values."""
    from cvbook.stored_values import expressions

    kc = item.parent.kernel.kc
    for index in indexes:
        cell = run.nb.cells[index]
        exprs = expressions(cell)
        if not exprs:
            cell.metadata.pop(KEY, None)
            continue
        committed = {e.get("expression"): e.get("result", {}) for e in cell.metadata.get(KEY, [])}
        named = {str(i): expr for i, expr in enumerate(exprs)}
        msg_id = kc.execute("", silent=False, store_history=False, user_expressions=named)
        while True:
            reply = kc.get_shell_msg(timeout=600)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        results = reply["content"].get(KEY, {})
        stored = [{"expression": expr, "result": results.get(i, {})} for i, expr in named.items()]
        cell.metadata[KEY] = stored
        for entry in stored:
            result, expr = entry["result"], entry["expression"]
            if result.get("status") != "ok":
                run.failures.append(
                    f"Markdown cell {index}: {{eval}}`{expr}` failed: "
                    f"{result.get('ename')}: {result.get('evalue')}"
                )
                continue
            new = item.sanitize(result.get("data", {}).get("text/plain", ""))
            old = committed.get(expr, {})
            old_text = item.sanitize(old.get("data", {}).get("text/plain", ""))
            if old.get("status") != "ok" or new != old_text:
                run.stale.append(
                    f"Markdown cell {index}: {{eval}}`{expr}` is {new} in this run, "
                    f"{old_text or 'missing'} in the committed notebook"
                )


def _cpu_seconds(item) -> float | None:
    """CPU seconds used so far by the kernel process, its live workers, and the workers
    it has reaped (joblib's), or None when psutil or the process is not reachable."""
    try:
        import psutil

        pid = item.parent.kernel.km.provisioner.pid
        proc = psutil.Process(pid)
        total = 0.0
        for p in [proc, *proc.children(recursive=True)]:
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except psutil.Error:
                pass
        t = proc.cpu_times()
        return total + t.children_user + t.children_system
    except Exception:
        return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    if _is_cell(item) and _folder() is not None:
        _run_of(item)  # the wall clock starts before nbval starts the kernel
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    if not _is_cell(item) or _folder() is None:
        return (yield)
    run = _run_of(item)
    if run.passed:
        _store_markdown(item, run, run.markdown_before(item.cell_num))
    try:
        result = yield
    except BaseException:
        run.passed = False
        raise
    code = [c for c in run.nb.cells if c.cell_type == "code"]
    if item.test_outputs is not None:
        raw = _BEFORE_MERGE.get(id(item.test_outputs), item.test_outputs)
        code[item.cell_num].outputs = [nbformat.from_dict(o) for o in _as_printed(raw)]
    _BEFORE_MERGE.clear()
    run.code_seen = item.cell_num + 1
    if run.code_seen == len(code):  # the last code cell: the Markdown cells after it
        _store_markdown(item, run, run.markdown_before(None))
        lax = item.config.getoption("nbval_lax", False)
        problems = run.failures + ([] if lax else run.stale)
        if problems:
            run.passed = False
            raise AssertionError(
                "the prose's numbers of this run differ from the committed notebook's "
                "(python tools/store_values.py re-stores them):\n" + "\n".join(problems)
            )
        if run.passed:
            _finish(item, run)
    return result


def _finish(item, run: _Run) -> None:
    """Write the executed copy and the chapter's times."""
    folder = _folder()
    wall = time.perf_counter() - run.start
    cpu = _cpu_seconds(item)
    rel = _relative(run.path)
    times = {
        "chapter": run.path.stem,
        "path": str(rel),
        "wall_s": round(wall, 1),
        "cpu_s": None if cpu is None else round(cpu, 1),
        "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{os.cpu_count()} cores, {platform.machine()}",
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "compared": not item.config.getoption("nbval_lax", False),
    }
    run.nb.metadata[META] = {
        "source_sha256": hashlib.sha256(run.raw).hexdigest(),
        **times,
    }
    out = folder / rel
    out.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(run.nb, out)
    (folder / "times").mkdir(parents=True, exist_ok=True)
    (folder / "times" / f"{run.path.stem}.json").write_text(json.dumps(times, indent=1) + "\n")
