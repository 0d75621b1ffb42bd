"""The book's structure: every chapter is in the table of contents and committed executed."""

from __future__ import annotations

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
