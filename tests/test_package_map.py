"""tools/package_map.py: one source for the package map, written into its seven places.

The tool runs on a copy of the repository's map-bearing files in a temporary folder, so
that a module or a chapter can be added there and the tool seen to pick it up.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("yaml")  # the minimum-versions environment has no pyyaml

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    spec = importlib.util.spec_from_file_location("package_map", ROOT / "tools" / "package_map.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


pm = _tool()
CHAPTERS = pm.read_chapters(ROOT)  # titles read once (the notebooks are large)
NEXT = str(max(int(pm.chapter_key(c.label)[0]) for c in CHAPTERS) + 1)  # a chapter to add


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The package's sources, _toc.yml, a title-only notebook per chapter and the places."""
    shutil.copytree(ROOT / "cvbook", tmp_path / "cvbook", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "_toc.yml", tmp_path / "_toc.yml")
    for place in pm.PLACES:
        (tmp_path / place.path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / place.path, tmp_path / place.path)
    for chapter in CHAPTERS:
        _notebook(tmp_path / f"{chapter.file}.ipynb", chapter.title)
    return tmp_path


def _notebook(path: Path, title: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    cell = {"cell_type": "markdown", "metadata": {}, "source": [f"# {title}\n", "\n", "Text."]}
    nb = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb), encoding="utf-8")


def _text(repo: Path, place: str) -> str:
    return (repo / place).read_text(encoding="utf-8")


def test_the_committed_map_is_current():
    assert pm.main(["--check"]) == 0


def test_new_modules_need_only_their_docstrings(repo, capsys):
    """A floor-1 module placed by its docstring, a method, a study and a chapter."""
    (repo / "cvbook" / "records.py").write_text(
        '"""Records on disk, one format for every run (floor 1 of the package plan)."""\n'
    )
    (repo / "cvbook" / "pairs.py").write_text(f'"""A test for two learners (chapter {NEXT})."""')
    (repo / "cvbook" / "studies" / "pairs.py").write_text(
        f'"""Chapter {NEXT}\'s study: does the test hold its level?"""\n'
    )
    last = CHAPTERS[-1].file
    toc = _text(repo, "_toc.yml").replace(
        f"      - file: {last}\n", f"      - file: {last}\n      - file: chapters/{NEXT}_pairs\n"
    )
    (repo / "_toc.yml").write_text(toc)
    _notebook(repo / "chapters" / f"{NEXT}_pairs.ipynb", "Is learner A better than B?")

    assert pm.main(["--check", "--root", str(repo)]) == 1
    stale = capsys.readouterr().out
    assert all(place.path in stale for place in pm.PLACES), stale
    assert pm.main(["--root", str(repo)]) == 0
    assert pm.main(["--check", "--root", str(repo)]) == 0

    floors = _text(repo, "tests/test_package_plan.py")
    assert '"cvbook.records": 1,' in floors and '"cvbook.pairs": 3,' in floors
    assert '"cvbook.studies.pairs": 4,' in floors
    assert ":mod:`cvbook.records`" in _text(repo, "cvbook/__init__.py")
    assert ":mod:`cvbook.studies.pairs`" in _text(repo, "cvbook/studies/__init__.py")
    api = _text(repo, "api/index.md")
    assert ".. automodule:: cvbook.pairs\n" in api and "(api-cvbook-studies-pairs)=" in api
    intro = _text(repo, "intro.md").splitlines()
    row = next(line for line in intro if f"{NEXT}_pairs" in line)
    assert row == (
        f"| {{doc}}`{NEXT} <chapters/{NEXT}_pairs>` | Is learner A better than B? | "
        "`pairs`, `studies.pairs` |"
    )
    for place in ("README.md", "CONTRIBUTING.md"):
        assert "`records`" in _text(repo, place) and f"`pairs` ({NEXT})" in _text(repo, place)


def test_the_check_fails_on_a_hand_edit(repo, capsys):
    path = repo / "intro.md"
    path.write_text(path.read_text().replace("| Risk and the test error |", "| Risk |"))
    assert pm.main(["--check", "--root", str(repo)]) == 1
    assert "package map out of date: intro.md" in capsys.readouterr().out


@pytest.mark.parametrize(
    "source, message",
    [
        ('"""A method (chapter 12)."""\n', "names chapter(s) 12, which _toc.yml does not number"),
        ("x = 1\n", "no module docstring"),
    ],
    ids=["unknown-chapter", "no-docstring"],
)
def test_a_module_the_map_cannot_place_is_named(repo, capsys, source, message):
    (repo / "cvbook" / "broken.py").write_text(source)
    assert pm.main(["--check", "--root", str(repo)]) == 1
    err = capsys.readouterr().err
    assert message in err and "broken" in err


def test_a_floor_stated_against_the_foundations_table_is_refused(repo, capsys):
    path = repo / "cvbook" / "stats.py"
    text = path.read_text()
    first = text.index("\n")
    path.write_text(text[:first].rstrip('"') + " (floor 1 of the package plan)" + text[first:])
    assert pm.main(["--root", str(repo)]) == 1
    assert "cvbook.stats: its docstring says floor 1" in capsys.readouterr().err


def test_two_chapters_with_one_number_are_refused(repo):
    first = CHAPTERS[0].file
    toc = _text(repo, "_toc.yml").replace(
        f"      - file: {first}\n", f"      - file: {first}\n      - file: {first}_again\n"
    )
    (repo / "_toc.yml").write_text(toc)
    _notebook(repo / f"{first}_again.ipynb", "Again")
    with pytest.raises(pm.MapError, match="are both chapter 1"):
        pm.render_all(repo)


def test_markers_must_be_there(repo):
    path = repo / "README.md"
    path.write_text(path.read_text().replace("package map: end", "map ends"))
    with pytest.raises(pm.MapError, match=r"README\.md: needs one"):
        pm.render_all(repo)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Chapter 4's studies: leave-one-out", ["4"]),
        ("Chapters 2-3's selection studies", ["2", "3"]),
        ("bounds (chapters 1, 5, 6 and 7).", ["1", "5", "6", "7"]),
        ("the comparisons of chapter 5b, each", ["5b"]),
        ("The long run behind chapter 9: the bootstrap", ["9"]),
        ("Argument checks shared by every module.", []),
        ("the chapters' scaffolding", []),
    ],
)
def test_chapters_named(text, expected):
    assert pm.chapters_named(text) == expected


def test_floors_follow_the_path_the_table_and_the_docstring():
    assert pm.floor_of("cvbook", "") == 0
    assert pm.floor_of("cvbook.runs.table1", "") == 5
    assert pm.floor_of("cvbook.datasets.raetsch", "") == 2  # its package's floor
    assert pm.floor_of("cvbook.claims", "Claims: every comparison") == 1
    assert pm.floor_of("cvbook.anything_new", "A method.") == 3


@pytest.mark.parametrize("place", ["cvbook/__init__.py", "cvbook/studies/__init__.py"])
def test_the_docstring_tables_are_valid_restructuredtext(place):
    """Each table parses, one row per module, without a docutils warning."""
    docutils_core = pytest.importorskip("docutils.core")
    doc = ast.get_docstring(ast.parse((ROOT / place).read_text(encoding="utf-8")))
    doc = re.sub(r":mod:`([^`]*)`", r"``\1``   ", doc)  # Sphinx's role, same width
    warnings = io.StringIO()
    tree = docutils_core.publish_doctree(
        doc, settings_overrides={"warning_stream": warnings, "report_level": 1}
    )
    assert warnings.getvalue() == ""
    rows = [n for n in tree.findall() if n.tagname == "row"]
    modules = pm.read_modules(ROOT)
    expected = (
        [m for m in modules if m.floor > 0]
        if place == "cvbook/__init__.py"
        else [m for m in modules if m.floor == 4 and not m.is_package]
    )
    assert len(rows) == len(expected) + 1  # and the header
