"""The book's structure: every chapter is in the table of contents and committed executed."""

from __future__ import annotations

import json
import re

import nbformat
import pytest
from booktoc import ROOT, chapter_notebooks, toc_files


def test_every_toc_entry_exists():
    for entry in toc_files():
        assert any((ROOT / f"{entry}{ext}").exists() for ext in (".md", ".ipynb")), entry


def test_every_chapter_notebook_is_in_the_toc():
    listed = {p.resolve() for p in chapter_notebooks()}
    on_disk = {p.resolve() for p in (ROOT / "chapters").glob("*.ipynb")}
    assert on_disk - listed == set(), f"not in _toc.yml: {sorted(p.name for p in on_disk - listed)}"


@pytest.mark.parametrize("nb_path", chapter_notebooks(), ids=lambda p: p.stem)
def test_chapter_is_committed_executed_top_to_bottom(nb_path):
    nb = nbformat.read(nb_path, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{nb_path.name}: re-run it top to bottom"
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, f"{nb_path.name}: committed with an error output"
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"


@pytest.mark.parametrize("nb_path", chapter_notebooks(), ids=lambda p: p.stem)
def test_chapter_ends_with_a_moral(nb_path):
    nb = nbformat.read(nb_path, as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown").lower()
    assert "moral" in text, f"{nb_path.name}: no moral"


def test_api_page_lists_every_module():
    """api/index.md has an automodule section for every public module of the package."""
    text = (ROOT / "api" / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\.\. automodule:: (cvbook[\w.]*)", text, re.M))
    modules = {
        "cvbook." + ".".join(p.relative_to(ROOT / "cvbook").with_suffix("").parts)
        for p in (ROOT / "cvbook").rglob("*.py")
        if not any(part.startswith("_") for part in p.relative_to(ROOT / "cvbook").parts)
    }
    modules |= {"cvbook.datasets", "cvbook.runs"}
    assert modules <= listed, f"api/index.md does not document {sorted(modules - listed)}"


def test_chapters_use_no_glue_and_carry_no_execution_metadata():
    """Numbers reach the prose through {eval} (cvbook.book.publish), which JupyterLab
    renders too; glue roles would show as raw text there."""
    problems = []
    for nb_path in chapter_notebooks():
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
        for i, cell in enumerate(nb["cells"]):
            src = "".join(cell["source"])
            if re.search(r"\{glue(:\w+)?\}|from myst_nb import glue|\bglue\(", src):
                problems.append(f"{nb_path.name} cell {i}: uses glue")
            if "execution" in cell.get("metadata", {}):
                problems.append(
                    f"{nb_path.name} cell {i}: execution timestamps "
                    "(python tools/strip_notebooks.py)"
                )
    assert not problems, "\n".join(problems)
