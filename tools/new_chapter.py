"""Lay out a new chapter: its notebook with the required cells, its ``_toc.yml`` entry, the
stub of its study and of their tests, and the package map that names them.

The notebook gets what every chapter has, in order: the Lab numbering front matter
(``tools/lab_captions.py``'s cell), the title, the imports, the one cell tagged
``parameters`` (typed), the check cell (every parameter checked, ``checked`` for the
default sizes and ``claims = Claims("chN", strict=checked)``), a section whose experiment
calls the study and states one claim, a Moral whose bullet cites that claim, and
``claims.show()`` last; its metadata holds the papermill test's ``smoke``,
``changes_result``, ``keeps_result`` and ``bad_values`` for those parameters.

Every place a person must write is marked ``TODO``, and the stub test fails until none
is left in the chapter and the study, and until the study's own tests are written: a
scaffold cannot pass for a chapter.

Usage::

    python tools/new_chapter.py 10 paired_tests --title "Is learner A better than B?"
    python tools/new_chapter.py 10 paired_tests --title "..." --method paired_cv

``--study`` names the study module (default: the chapter's name); ``--method`` adds a
stub method module on floor 3 with its test file. Then write the TODOs and run
``make chapter NB=chapters/10_paired_tests.ipynb`` (CONTRIBUTING.md, "Adding a chapter").
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

_NAME = re.compile(r"[a-z][a-z0-9_]*")

STUDY = '''"""Chapter {n}'s study: TODO the question its experiment answers.

TODO: what one repetition draws, runs and reports
(:func:`{study}_trial`),
and against which target each estimate is scored.
The chapter repeats it with :func:`cvbook.simulation.repeat`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["{study}_trial"]


def {study}_trial(rng: np.random.Generator) -> dict[str, float]:
    """One repetition of chapter {n}'s experiment.

    Parameters
    ----------
    rng : numpy.random.Generator
        The repetition's own generator (:func:`cvbook.simulation.repeat` spawns it).

    Returns
    -------
    dict
        The repetition's numbers, one key per column (``difference``: the chapter's
        claim reads its mean and standard error).
    """
    raise NotImplementedError(
        "TODO: write chapter {n}'s experiment in "
        "cvbook/studies/{study}.py"
    )
'''

METHOD = '''"""TODO what the method estimates (chapter {n}).

TODO: the method a reader runs on their own data; its arguments are checked through
:mod:`cvbook.validation` at the public door.
"""

from __future__ import annotations

__all__: list[str] = []
'''

TEST = '''"""Tests of {module} (chapter {n})."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_{slug}_is_tested():
    pytest.fail(
        "TODO: write the tests of {module}: "
        "what each public function returns on a case worked by hand, a bad argument "
        "refused with a message naming it, and the hostile cases of "
        "tests/test_hostile_api.py and tests/test_hostile_studies.py"
    )
'''

TODO_TEST = """

def test_chapter_{n}_and_its_study_have_no_todo_left():
    chapter = ROOT / "{notebook}"
    study = ROOT / "cvbook" / "studies" / "{study}.py"
    for path in [chapter, study]:
        assert "TODO" not in path.read_text(encoding="utf-8"), f"{{path.name}}: TODO left"
"""


def notebook(n: str, title: str, study: str):
    """The chapter's notebook, without its front matter (``lab_captions`` adds it)."""
    new_code, new_md = nbformat.v4.new_code_cell, nbformat.v4.new_markdown_cell
    p = f"ch{n}"
    parameters = new_code(
        "seed: int = 0         # root seed of every random draw in the chapter\n"
        "n_repeats: int = 200  # data sets of the experiment (TODO: size it so every claim\n"
        "                      # holds by |z| >= 4 under any seed)\n"
        "n_jobs: int = 1       # joblib workers; the results do not depend on it"
    )
    parameters.metadata["tags"] = ["parameters"]
    cells = [
        new_md(
            f"# {title}\n\nTODO: the question this chapter answers, why a reader cares, and "
            "which target each estimate aims at (see the notation page)."
        ),
        new_code(
            "import numpy as np\n\n"
            "from cvbook.book import N, check_int_parameter, check_seed, publish\n"
            "from cvbook.claims import Claims\n"
            "from cvbook.plotting import use_book_style\n"
            "from cvbook.simulation import repeat\n"
            "from cvbook.stats import mean_se\n"
            f"from cvbook.studies.{study} import {study}_trial\n\n"
            "use_book_style()"
        ),
        parameters,
        new_code(
            'seed = check_seed(seed, "seed")\n'
            'n_repeats = check_int_parameter(n_repeats, "n_repeats", low=10)\n'
            'n_jobs = check_int_parameter(n_jobs, "n_jobs", low=1, high=64)\n'
            "# The claims are sized for the default run (|z| >= 4 under any seed); at other\n"
            "# sizes the chapter runs to the end and the claim table says what holds.\n"
            "checked = n_repeats >= 200\n"
            f'claims = Claims("{p}", strict=checked)\n'
            f"publish({p}_n_repeats=n_repeats)"
        ),
        new_md(
            "## 1. TODO the first question\n\nTODO: what the experiment draws and runs, "
            f"over {{eval}}`N.{p}_n_repeats` data sets."
        ),
        new_code(
            f"rows = repeat({study}_trial, n_repeats, random_state=seed, n_jobs=n_jobs)\n"
            'difference = np.array([row["difference"] for row in rows])\n'
            f'claims.greater("{p}_todo", "TODO: the sentence the prose states",\n'
            '               target="TODO: what the estimate is scored against",\n'
            "               estimate=mean_se(difference), value=0.0)"
        ),
        new_md(
            f"TODO: the sentence, with its number: {{eval}}`N.{p}_todo` "
            f"(z = {{eval}}`N.{p}_todo_z`)."
        ),
        new_md(f"## Moral\n\n- TODO: the lesson, citing its claim ({{eval}}`N.{p}_todo`)."),
        new_code("claims.show()"),
    ]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata.update(
        # as JupyterLab writes it (tools/strip_notebooks.py KERNELSPEC): opening leaves it clean
        kernelspec={
            "display_name": "Python 3 (ipykernel)",
            "language": "python",
            "name": "python3",
        },
        language_info={"name": "python"},
        mystnb={"render_markdown_format": "myst"},
        cvbook={
            "smoke": {"n_repeats": 20, "n_jobs": 1},
            "changes_result": {"seed": 1, "n_repeats": 30},
            "keeps_result": {"n_jobs": 2},
            "bad_values": {"n_repeats": [0], "seed": [-1], "n_jobs": [0]},
        },
    )
    return nb


def add_to_toc(text: str, page: str) -> str:
    """``_toc.yml``'s text with ``page`` as the last chapter of the numbered part."""
    lines = text.split("\n")
    numbered = next((i for i, line in enumerate(lines) if "numbered:" in line), None)
    if numbered is None:
        raise SystemExit("_toc.yml has no numbered part")
    end = next(
        (i for i in range(numbered + 1, len(lines)) if lines[i].startswith("  - caption:")),
        len(lines),
    )
    while not lines[end - 1].strip():
        end -= 1
    return "\n".join([*lines[:end], f"      - file: {page}", *lines[end:]])


def _write_new(path: Path, text: str) -> None:
    if path.exists():
        raise SystemExit(f"{path.relative_to(ROOT)} exists already; nothing written after it")
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("number", help="the chapter's number, e.g. 10 (or 10b for a section)")
    parser.add_argument("name", help="snake_case name: chapters/NN_<name>.ipynb")
    parser.add_argument("--title", required=True)
    parser.add_argument("--study", help="the study module (default: the chapter's name)")
    parser.add_argument("--method", help="also a stub method module cvbook/<method>.py")
    args = parser.parse_args(argv)
    match = re.fullmatch(r"(\d+)([a-z]?)", args.number)
    if not match:
        parser.error(f"number must be like 10 or 10b, got {args.number!r}")
    for what, value in (("name", args.name), ("study", args.study), ("method", args.method)):
        if value is not None and not _NAME.fullmatch(value):
            parser.error(f"{what} must be snake_case (a-z, 0-9, _), got {value!r}")
    n = f"{int(match.group(1))}{match.group(2)}"
    stem = f"{int(match.group(1)):02d}{match.group(2)}_{args.name}"
    study = args.study or args.name
    page, nb_path = f"chapters/{stem}", ROOT / "chapters" / f"{stem}.ipynb"
    toc_path = ROOT / "_toc.yml"
    toc = toc_path.read_text(encoding="utf-8")
    taken = re.findall(rf"chapters/0*{match.group(1)}{match.group(2)}_\w+", toc)
    if taken:
        parser.error(f"chapter {n} is in _toc.yml already: {taken[0]}")
    new = [nb_path, ROOT / "cvbook" / "studies" / f"{study}.py"]
    new += [ROOT / "tests" / f"test_studies_{study}.py"]
    if args.method:
        new += [ROOT / "cvbook" / f"{args.method}.py", ROOT / "tests" / f"test_{args.method}.py"]
    existing = [str(p.relative_to(ROOT)) for p in new if p.exists()]
    if existing:
        parser.error(f"exists already: {', '.join(existing)}")

    toc_path.write_text(add_to_toc(toc, page), encoding="utf-8")
    print(f"added {page} to _toc.yml")
    from lab_captions import with_captions  # reads _toc.yml: after the entry is in

    nb = notebook(n, args.title, study)
    nb.cells = with_captions({page: nb})[page]  # the numbering front matter
    _write_new(nb_path, nbformat.writes(nb) + "\n")
    _write_new(new[1], STUDY.format(n=n, study=study))
    test = TEST.format(module=f"cvbook.studies.{study}", n=n, slug=study)
    _write_new(new[2], test + TODO_TEST.format(n=n, notebook=f"{page}.ipynb", study=study))
    if args.method:
        _write_new(new[3], METHOD.format(n=n))
        _write_new(new[4], TEST.format(module=f"cvbook.{args.method}", n=n, slug=args.method))
    subprocess.run([sys.executable, str(ROOT / "tools" / "package_map.py")], check=True)
    print(
        f"\nNext: write every TODO (the study, its tests, the chapter's prose and claims), "
        f"then `make chapter NB={page}.ipynb`."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
