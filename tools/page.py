"""Turn a chapter re-run by papermill into a page that can be read offline.

A papermill output holds the chapter with new parameters, but its prose still carries
bare ``{eval}``, ``{numref}`` and ``{cite}`` roles, which ``jupyter nbconvert --to html``
shows as raw text (and its math needs a CDN). This tool builds a one-chapter website of
it with the book's own configuration: jupyter-book executes the notebook again, cell by
cell, with the parameters papermill injected (so every number, figure and figure or
equation reference is that run's), the bibliography page resolves the citations, and
MathJax is the site's bundled copy (``make mathjax``).

Usage::

    .venv/bin/papermill chapters/02_holdout.ipynb /tmp/ch2.ipynb -p seed 7 -p m 300
    make page NB=/tmp/ch2.ipynb        # = .venv/bin/python tools/page.py /tmp/ch2.ipynb

The page is ``_build/page/<name>/_build/html/index.html`` (``--out`` changes the folder).
References to the *other* chapters stay plain text (they are not part of this site).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MATHJAX_SITE = ROOT / "_build" / "mathjax-site"


def prepare(notebook: Path, work: Path) -> Path:
    """Write a one-chapter book around ``notebook`` into ``work``; return ``work``."""
    if work.exists():
        shutil.rmtree(work)
    (work / "chapters").mkdir(parents=True)
    name = re.sub(r"[^A-Za-z0-9_-]+", "_", notebook.stem)
    shutil.copy(notebook, work / "chapters" / f"{name}.ipynb")
    for item in ("references.bib", "references.md", "notation.md"):
        shutil.copy(ROOT / item, work / item)
    shutil.copytree(ROOT / "_ext", work / "_ext")
    shutil.copytree(ROOT / "_assets", work / "_assets")
    config = (ROOT / "_config.yml").read_text(encoding="utf-8")
    # the bundled MathJax of the book's build, by absolute path; warnings do not stop it
    config = config.replace('"_build/mathjax-site"', f'"{MATHJAX_SITE}"')
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
    args = parser.parse_args(argv)
    if not args.notebook.is_file():
        parser.error(f"no notebook at {args.notebook}")
    if not (MATHJAX_SITE / "mathjax" / "tex-mml-chtml.js").is_file():
        parser.error("the bundled MathJax is missing: run `make mathjax` first")
    out = (args.out or ROOT / "_build" / "page" / args.notebook.stem).resolve()
    work = prepare(args.notebook.resolve(), out / "src")
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
