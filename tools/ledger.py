"""The claim ledger: every claim of the book, read from the committed chapters.

Each chapter ends with ``claims.show()`` (:mod:`cvbook.claims`), whose output carries a
machine-readable copy of the chapter's claims (MIME type ``CLAIMS_MIME``). This tool reads
that output from every chapter listed in ``_toc.yml``, in reading order, and writes the
appendix page ``ledger.md``: per chapter, each claim's id, statement, target, estimate
(± SE or its interval), what it asks and its verdict in the committed run. The page is a
list, not a wide table, so that it reads on a phone.

Usage::

    python tools/ledger.py           # write ledger.md
    python tools/ledger.py --check   # exit 1 if ledger.md is not what the chapters say
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from booktoc import chapter_notebooks  # noqa: E402

from cvbook.book import format_number  # noqa: E402
from cvbook.claims import CLAIMS_MIME  # noqa: E402

PAGE = ROOT / "ledger.md"

HEAD = """# Ledger of claims

Every sentence of the book that compares two numbers rests on a *claim*
({{py:mod}}`cvbook.claims`): the quantity its estimate is scored against (the **target**),
the estimate with its standard error or its interval, what it asks (greater or less
than a value at z standard errors, within a stated margin, or an interval that covers
or excludes a level) and a verdict: **shown**, **not resolved** (the interval straddles
the line) or **contradicted**. At a chapter's default sizes every claim must be shown,
under any seed, or the chapter stops; a re-run with other parameters prints the same
table with its own verdicts.

This page lists the claims of the committed run of each chapter, written by
`tools/ledger.py` from the chapters' last cell. {total}
"""


def chapter_claims(nb_path: Path) -> dict | None:
    """The machine-readable claims of a chapter's committed run (``None`` if it has none)."""
    nb = nbformat.read(nb_path, as_version=4)
    found = None
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            data = output.get("data", {})
            if CLAIMS_MIME in data:
                found = data[CLAIMS_MIME]
    return found


def _title(nb_path: Path) -> str:
    nb = nbformat.read(nb_path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith("# "):
            return cell.source.lstrip().splitlines()[0][2:].strip()
    return nb_path.stem


def _minus(text: str) -> str:
    """A minus before a digit in running text as the true minus, as the book prints it."""
    return re.sub(r"(?<![\w.])-(?=\d)", "\u2212", text)


def render() -> str:
    """The text of ``ledger.md``."""
    parts: list[str] = []
    total = shown = 0
    for nb_path in chapter_notebooks():
        found = chapter_claims(nb_path)
        if not found:
            continue
        doc = f"chapters/{nb_path.stem}"
        claims = found["claims"]
        n_shown = sum(c["verdict"] == "shown" for c in claims)
        total, shown = total + len(claims), shown + n_shown
        parts.append(f"\n## {_title(nb_path)}\n")
        parts.append(f"{{doc}}`The chapter <{doc}>`: {n_shown} of {len(claims)} claims shown.\n")
        for c in claims:
            z = f", z = {format_number(c['z'], '+.1f')}" if c.get("z") is not None else ""
            parts.append(
                f"- **{_minus(c['sentence'])}** — *{c['verdict']}*. "
                f"Target: {_minus(c['target'])}. Estimate: {c['numbers']}{z}; asks {c['test']}. "
                f"(`{c['id']}`)"
            )
    summary = f"In all, {shown} of {total} claims are shown." if total else "No claims yet."
    return HEAD.format(total=summary) + "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if ledger.md is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if current != text:
            print("ledger.md is not what the chapters' claims say: run python tools/ledger.py")
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
