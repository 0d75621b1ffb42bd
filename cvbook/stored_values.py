"""The prose's numbers stored in the notebook, so that it shows them before any kernel runs.

jupyterlab-myst shows an ``{eval}`` role of a Markdown cell from the cell's metadata key
``user_expressions`` (``src/userExpressions.ts`` of jupyterlab-myst: a list of
``{"expression": ..., "result": {"status": "ok", "data": {...}, "metadata": {...}}}``,
the kernel's own ``execute_reply.user_expressions`` entries). JupyterLab fills it after
*Run All*; a notebook that carries it shows every number as soon as it is opened (a
downloaded ``.ipynb``, a re-run's output; GitHub's preview does not read it).

Both routes below run the notebook top to bottom in one kernel and evaluate each Markdown
cell's expressions when the run reaches that cell, as jupyterlab-myst and myst-nb do:

* :func:`store_values` executes a notebook in place (``tools/store_values.py`` is its
  command line, run on every chapter before a commit);
* the papermill engine ``cvbook`` (:class:`PapermillEngine`, registered in the entry-point
  group ``papermill.engine``) is papermill's own engine with that one addition::

      papermill --engine cvbook chapters/02_holdout.ipynb /tmp/ch2.ipynb -p seed 7

  writes a re-run whose prose carries the re-run's numbers. papermill's default engine
  copies the Markdown cells as they are: its output shows the *committed* run's numbers
  in the prose until the notebook is run again.

An expression that fails is stored with its error (jupyterlab-myst shows the error in
place of the number) and reported: :func:`store_values` returns it, the engine logs it
as a warning through papermill's logger.
"""

from __future__ import annotations

import functools
import logging
import queue
import re
from pathlib import Path
from typing import Any

from .validation import check_float

__all__ = ["KEY", "PapermillEngine", "expressions", "missing", "store_values"]

#: The cell metadata key jupyterlab-myst reads.
KEY = "user_expressions"
EVAL_ROLE = re.compile(r"\{eval\}`([^`]+)`")
_LOG = logging.getLogger("papermill")


def expressions(cell: dict) -> list[str]:
    """The ``{eval}`` expressions of a Markdown cell, in order, each once.

    Examples
    --------
    >>> expressions({"cell_type": "markdown", "source": "a {eval}`N.x` b {eval}`N.y` {eval}`N.x`"})
    ['N.x', 'N.y']
    >>> expressions({"cell_type": "code", "source": "{eval}`N.x`"})
    []
    """
    if cell.get("cell_type") != "markdown":
        return []
    source = cell.get("source", "")
    source = "".join(source) if isinstance(source, list) else source
    return list(dict.fromkeys(EVAL_ROLE.findall(source)))


def missing(nb: dict) -> list[str]:
    """Expressions of the notebook without a stored value (``ok`` status), as ``cell i: expr``.

    Examples
    --------
    >>> cell = {"cell_type": "markdown", "source": "{eval}`N.x` and {eval}`N.y`",
    ...         "metadata": {KEY: [{"expression": "N.x", "result": {"status": "ok"}}]}}
    >>> missing({"cells": [cell]})
    ['cell 0: N.y']
    """
    out = []
    for i, cell in enumerate(nb.get("cells", [])):
        stored = {
            e.get("expression"): e.get("result", {}).get("status")
            for e in cell.get("metadata", {}).get(KEY, [])
        }
        out += [f"cell {i}: {e}" for e in expressions(cell) if stored.get(e) != "ok"]
    return out


def _failures(index: int, stored: list[dict]) -> list[str]:
    return [
        f"cell {index}: {entry['expression']}: "
        f"{entry['result'].get('ename')}: {entry['result'].get('evalue')}"
        for entry in stored
        if entry["result"].get("status") != "ok"
    ]


async def _evaluate(kc: Any, exprs: list[str], timeout: float | None) -> list[dict]:
    """Ask the kernel behind the client ``kc`` for ``exprs``; the entries to store."""
    named = {str(i): expr for i, expr in enumerate(exprs)}
    msg_id = kc.execute("", silent=False, store_history=False, user_expressions=named)
    while True:
        try:
            reply = kc.get_shell_msg(timeout=timeout)
            if hasattr(reply, "__await__"):  # an asynchronous client
                reply = await reply
        except queue.Empty:
            raise TimeoutError(
                f"the {{eval}} expression(s) {exprs} did not return within timeout={timeout} s; "
                "make them cheaper (publish the value from a code cell) or raise the timeout"
            ) from None
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    results = reply["content"].get(KEY, {})
    return [{"expression": expr, "result": results.get(str(i), {})} for i, expr in enumerate(exprs)]


async def _store_cell(kc: Any, cell: Any, index: int, timeout: float | None) -> list[str]:
    """Store the values of a Markdown cell's expressions (drop a stale entry when it has
    none); return its failures."""
    exprs = expressions(cell)
    if not exprs:
        cell.metadata.pop(KEY, None)
        return []
    try:
        stored = await _evaluate(kc, exprs, timeout)
    except TimeoutError as err:
        raise TimeoutError(f"cell {index}: {err}") from None
    cell.metadata[KEY] = stored
    return _failures(index, stored)


def store_values(nb: Any, *, cwd: str | Path, timeout: float = 600) -> list[str]:
    """Execute ``nb`` (an ``nbformat`` notebook) in place and store its values.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        The notebook; its code cells get their outputs and its Markdown cells the values
        of their ``{eval}`` expressions (metadata key :data:`KEY`).
    cwd : str or Path
        The folder the kernel runs in (the notebook's own, for its relative paths).
    timeout : float, default 600
        Seconds a cell, or one evaluation, may take.

    Returns
    -------
    list of str
        The expressions that failed, ``cell i: expr: error: message``; empty when every
        value was stored.

    Raises
    ------
    TypeError
        ``nb`` is not a notebook (read it with ``nbformat.read(path, as_version=4)``).
    ValueError
        ``cwd`` is not an existing folder, or ``timeout`` is not a positive number.

    Examples
    --------
    >>> import nbformat  # doctest: +SKIP
    >>> nb = nbformat.v4.new_notebook(cells=[  # doctest: +SKIP
    ...     nbformat.v4.new_code_cell("x = 6 * 7"),
    ...     nbformat.v4.new_markdown_cell("The answer is {eval}`x`."),
    ... ])
    >>> store_values(nb, cwd=".")  # doctest: +SKIP
    []
    >>> nb.cells[1].metadata["user_expressions"][0]["result"]["data"]  # doctest: +SKIP
    {'text/plain': '42'}
    """
    if not isinstance(nb, dict) or not isinstance(getattr(nb, "cells", None), list):
        raise TypeError(
            "nb must be a notebook as nbformat reads it (nbformat.read(path, as_version=4)), "
            f"got {type(nb).__name__}"
        )
    if not isinstance(cwd, (str, Path)) or not Path(cwd).is_dir():
        raise ValueError(f"cwd must be an existing folder, got {cwd!r}")
    timeout = check_float(timeout, "timeout", minimum=0, exclusive=True)
    from nbclient import NotebookClient

    client = _storing(NotebookClient)(
        nb,
        timeout=timeout,
        kernel_name=nb.metadata.get("kernelspec", {}).get("name", "python3"),
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute()
    return client.failures


class PapermillEngine:
    """papermill's ``nbclient`` engine that also stores each Markdown cell's values.

    Registered as papermill's engine ``cvbook`` (entry-point group ``papermill.engine``
    in ``pyproject.toml``), so ``papermill --engine cvbook in.ipynb out.ipynb -p ...``
    or ``papermill.execute_notebook(..., engine_name="cvbook")`` runs the notebook as
    papermill's default engine does (same outputs, timings, error handling) and, when
    the run reaches a Markdown cell, stores the values of its ``{eval}`` expressions.

    papermill loads its engines while it is imported, so this class imports nothing from
    papermill: it answers papermill's engine calls (``execute_notebook``,
    ``nb_kernel_name``, ``nb_language``) with a subclass of papermill's
    ``NBClientEngine`` made on first use.

    Examples
    --------
    >>> import papermill as pm  # doctest: +SKIP
    >>> pm.execute_notebook(  # doctest: +SKIP
    ...     "chapters/02_holdout.ipynb", "/tmp/ch2.ipynb", parameters={"seed": 7},
    ...     engine_name="cvbook", cwd="chapters")
    """

    @classmethod
    def execute_notebook(cls, nb: Any, kernel_name: str | None, **kwargs: Any) -> Any:
        """Execute ``nb`` as papermill's ``NBClientEngine`` does, storing the values."""
        return _nbclient_engine().execute_notebook(nb, kernel_name, **kwargs)

    @classmethod
    def nb_kernel_name(cls, nb: Any, name: str | None = None) -> str:
        """The kernel papermill runs ``nb`` with (``NBClientEngine``'s answer)."""
        return _nbclient_engine().nb_kernel_name(nb, name)

    @classmethod
    def nb_language(cls, nb: Any, language: str | None = None) -> str:
        """The language of ``nb`` (``NBClientEngine``'s answer)."""
        return _nbclient_engine().nb_language(nb, language)


@functools.cache
def _nbclient_engine() -> type:
    """papermill's ``NBClientEngine`` whose client stores each Markdown cell's values.

    Only papermill's public engine API is used: ``NBClientEngine``, whose
    ``execute_managed_notebook`` is where an engine runs the notebook (papermill's
    "Extending papermill" documentation), and ``PapermillNotebookClient``, the
    ``nbclient.NotebookClient`` it runs it with.
    """
    from papermill.clientwrap import PapermillNotebookClient
    from papermill.engines import NBClientEngine

    class StoringEngine(NBClientEngine):
        @classmethod
        def execute_managed_notebook(
            cls,
            nb_man,
            kernel_name,
            log_output=False,
            stdout_file=None,
            stderr_file=None,
            start_timeout=60,
            execution_timeout=None,
            **kwargs,
        ):
            # the arguments as NBClientEngine passes them on, under the client's names
            given_timeout = kwargs.pop("timeout", None)
            kwargs.pop("startup_timeout", None)
            kwargs.pop("input_path", None)
            client = _storing(PapermillNotebookClient)(
                nb_man,
                timeout=execution_timeout or given_timeout,
                startup_timeout=start_timeout,
                kernel_name=kernel_name,
                log=_LOG,
                log_output=log_output,
                stdout_file=stdout_file,
                stderr_file=stderr_file,
                **kwargs,
            )
            try:
                return client.execute()
            finally:
                for line in client.failures:
                    _LOG.warning("cvbook engine: no value for %s", line)

    return StoringEngine


@functools.cache
def _storing(client_class: type) -> type:
    """``client_class`` (``nbclient.NotebookClient`` or a subclass) whose run, on reaching
    a Markdown cell, stores the values of its expressions; its ``failures`` lists those
    that failed (``cell i: expr: error: message``). One mechanism for both routes:
    :func:`store_values` and the papermill engine."""
    from nbclient.util import run_sync

    class StoringClient(client_class):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.failures: list[str] = []

        async def async_execute_cell(self, cell, cell_index, *args, **kwargs):
            if cell.cell_type != "markdown":
                return await super().async_execute_cell(cell, cell_index, *args, **kwargs)
            self.failures += await _store_cell(self.kc, cell, cell_index, self.timeout)
            return cell

        # nbclient binds its synchronous execute_cell to its own async_execute_cell
        execute_cell = run_sync(async_execute_cell)

    return StoringClient
