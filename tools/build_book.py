"""``jupyter-book build`` with Sphinx reading pages on several processes.

jupyter-book 1.x builds with one process and has no option for more, although Sphinx
and every extension the book uses (myst-nb, sphinx-book-theme, sphinxcontrib-bibtex,
``_ext/cvbook_site.py``, ``_ext/cvbook_executed.py``) declare themselves parallel-safe.
``jobs=2`` reads two pages at a time (and, when myst-nb executes the chapters, executes
two at a time): on a 2-core machine the build takes about half as long.

Usage (the arguments of ``jupyter-book build``)::

    CVBOOK_BUILD_JOBS=2 python tools/build_book.py . --all -W --keep-going

With ``CVBOOK_EXECUTED=_build/executed`` (``make build``, ``make book``) nothing is
executed: the pages are read from the runs ``make nbval`` kept (``_ext/cvbook_executed.py``).

It wraps the public ``jupyter_book.sphinx.build_sphinx`` (its ``jobs`` argument is
Sphinx's ``parallel``); if a later jupyter-book drops that argument, the build runs
on one process, exactly as ``jupyter-book build`` would.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys

import jupyter_book.cli.main as cli
import jupyter_book.sphinx as jb_sphinx


def jobs_from_env() -> int:
    """Processes to read pages with: ``CVBOOK_BUILD_JOBS`` (default: 2), at least 1."""
    raw = os.environ.get("CVBOOK_BUILD_JOBS", "2")
    try:
        jobs = int(raw)
    except ValueError:
        sys.exit(f"CVBOOK_BUILD_JOBS must be a whole number of processes; got {raw!r}")
    if jobs < 1:
        sys.exit(f"CVBOOK_BUILD_JOBS must be at least 1; got {jobs}")
    return jobs


def main() -> None:
    jobs = jobs_from_env()
    if "jobs" in inspect.signature(jb_sphinx.build_sphinx).parameters:
        # cli.build imports build_sphinx from this module when it runs: replace it here
        jb_sphinx.build_sphinx = functools.partial(jb_sphinx.build_sphinx, jobs=jobs)
    else:  # pragma: no cover - a jupyter-book without the argument: one process
        print("tools/build_book.py: this jupyter-book has no 'jobs'; building on one process")
    cli.main(args=["build", *sys.argv[1:]], prog_name="jupyter-book")


if __name__ == "__main__":
    main()
