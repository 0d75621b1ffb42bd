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
