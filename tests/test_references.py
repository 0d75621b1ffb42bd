"""The bibliography parses, and every key the book cites is in it.

A merge once dropped two closing braces from ``references.bib``; only the
website build, at the very end of ``make test``, noticed.  This test fails in
the first minute instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CITE = re.compile(r"\{cite(?::[a-z]+)?\}`([^`]+)`")


def _cited_keys() -> set[str]:
    keys: set[str] = set()
    sources = [*sorted((ROOT / "chapters").glob("*.ipynb"))]
    sources += [
        p for p in sorted(ROOT.glob("*.md")) if p.name not in {"README.md", "CONTRIBUTING.md"}
    ]
    for path in sources:
        if path.suffix == ".ipynb":
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        else:
            text = path.read_text(encoding="utf-8")
        for match in CITE.finditer(text):
            keys.update(k.strip() for k in match.group(1).split(","))
    return keys


def test_bibliography_parses_and_has_no_duplicate_keys() -> None:
    pybtex = pytest.importorskip("pybtex.database")
    text = (ROOT / "references.bib").read_text(encoding="utf-8")
    heads = re.findall(r"^@\w+\{([^,]+),", text, flags=re.M)
    assert len(heads) == len(set(heads)), "duplicate keys in references.bib"
    data = pybtex.parse_string(text, "bibtex")
    assert set(data.entries) == set(heads)


def test_every_cited_key_is_in_the_bibliography() -> None:
    text = (ROOT / "references.bib").read_text(encoding="utf-8")
    known = set(re.findall(r"^@\w+\{([^,]+),", text, flags=re.M))
    missing = _cited_keys() - known
    assert not missing, f"cited but not in references.bib: {sorted(missing)}"


def test_every_entry_is_named_as_a_reader_cites_it() -> None:
    """Each entry's label is its authors and year (``Lauer, n.d.``, ``Ma, 2021``), as a
    reader would cite it: no entry without author or editor (its label would be its whole
    title), and no internal name ("Seed document 003") in what the page prints."""
    pybtex = pytest.importorskip("pybtex.database")
    data = pybtex.parse_file(str(ROOT / "references.bib"), "bibtex")
    problems = []
    for key, entry in data.entries.items():
        if not (entry.persons.get("author") or entry.persons.get("editor")):
            problems.append(f"{key}: no author or editor (labelled by its whole title)")
        printed = " ".join(str(v) for v in entry.fields.values())
        if re.search(r"seed\s+doc", printed, flags=re.I):
            problems.append(f"{key}: prints an internal name ({printed[:60]}...)")
    assert not problems, "\n".join(problems)


def test_entries_render_without_raw_latex() -> None:
    """What the References page prints of each entry (the book's pybtex style) holds no
    raw LaTeX command (a ``\\emph`` inside a free-text field is printed as is; ``\\url``
    is the one sphinxcontrib-bibtex turns into a link)."""
    import importlib.util

    pytest.importorskip("pybtex")
    from pybtex.database import parse_file
    from pybtex.plugin import find_plugin

    spec = importlib.util.spec_from_file_location("cvbook_site", ROOT / "_ext" / "cvbook_site.py")
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    ext._register_bibliography_style()
    data = parse_file(str(ROOT / "references.bib"), "bibtex")
    style = find_plugin("pybtex.style.formatting", "cvbook")()
    raw = [
        f"{entry.key}: {entry.text.render_as('text')[:80]}"
        for entry in style.format_entries(data.entries.values())
        if "\\" in re.sub(r"\\url\s", "", entry.text.render_as("text"))
    ]
    assert not raw, "\n".join(raw)
