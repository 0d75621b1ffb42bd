"""Figure captions a JupyterLab reader can see: one Markdown cell under each figure.

A chapter's figure caption lives in its code cell's ``mystnb.figure`` metadata, which only
myst-nb reads: the website numbers and captions the figure, JupyterLab shows a bare plot.
This tool writes the caption, with the website's number (``Fig. 3.2``), into a Markdown
cell right after the figure's code cell (with the dashes and quotes as characters, as
``tools/typography.py`` writes the prose), tagged ``remove-cell`` (myst-nb leaves it out of
the website, which has its own caption) and ``lab-caption`` (so the tool finds its own
cells again). The metadata stays the one source: ``--check`` fails when a caption cell is
missing, stale or orphaned, and ``tests/test_site.py`` checks the numbers against the
built site.

The same tool puts a first Markdown cell of front matter in each chapter (tagged
``remove-cell`` and ``lab-numbering``): ``numbering: equation: enumerator: 3.%s``, which
jupyterlab-myst reads from a notebook's first cell, so that its equations are numbered
(3.1), (3.2) as on the website instead of (1), (2).

Numbers follow the table of contents as Sphinx's ``numfig`` does with the book's
settings: the numbered chapters count 1, 2, ...; a chapter's sections (``05b_table1``
under ``05_ckcv``) share its number, and figures count on across them in order.

Usage::

    python tools/lab_captions.py chapters/*.ipynb          # write the caption cells
    python tools/lab_captions.py --check chapters/*.ipynb  # exit 1 if one is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from typography import smarten  # the chapters' dashes and quotes

ROOT = Path(__file__).resolve().parents[1]
TAGS = ["remove-cell", "lab-caption"]
FRONT_TAGS = ["remove-cell", "lab-numbering"]


def chapter_numbers(toc_path: Path = ROOT / "_toc.yml") -> dict[str, int]:
    """The chapter number of every numbered page (``chapters/05b_table1`` -> 5)."""
    toc = yaml.safe_load(toc_path.read_text(encoding="utf-8"))
    numbers: dict[str, int] = {}
    for part in toc.get("parts", []):
        if not part.get("numbered"):
            continue
        for number, chapter in enumerate(part.get("chapters", []), start=1):
            numbers[chapter["file"]] = number
            for section in chapter.get("sections", []):
                numbers[section["file"]] = number
    return numbers


def _is_caption_cell(cell) -> bool:
    """A cell this tool writes (a caption, or the numbering front matter)."""
    tags = cell.metadata.get("tags", [])
    return cell.cell_type == "markdown" and ("lab-caption" in tags or "lab-numbering" in tags)


def _figure(cell) -> dict | None:
    if cell.cell_type != "code":
        return None
    figure = cell.metadata.get("mystnb", {}).get("figure")
    return figure if figure and "caption" in figure else None


def with_captions(notebooks: dict[str, object]) -> dict[str, list]:
    """Each notebook's cells with one caption cell after every figure (and no other).

    ``notebooks`` maps a page (``chapters/03_kfold``) to its notebook; pages are numbered
    in table-of-contents order, so all pages of a chapter must be given together.
    """
    numbers = chapter_numbers()
    order = [page for page in numbers if page in notebooks]
    order += sorted(set(notebooks) - set(order))
    counters: dict[int, int] = {}
    out = {}
    for page in order:
        nb = notebooks[page]
        previous = {c.source: c.get("id") for c in nb.cells if _is_caption_cell(c)}
        chapter = numbers.get(page)
        cells = []
        first = counters.get(chapter, 0) + 1 if chapter is not None else 1
        if chapter is not None:
            front = nbformat.v4.new_markdown_cell(
                "---\nnumbering:\n"
                f"  equation:\n    enumerator: {chapter}.%s\n"
                f"  figure:\n    enumerator: {chapter}.%s\n    start: {first}\n---"
            )
            front.metadata["tags"] = list(FRONT_TAGS)
            if previous.get(front.source):
                front["id"] = previous[front.source]
            cells.append(front)
        for cell in nb.cells:
            if _is_caption_cell(cell):
                continue  # rebuilt right after its figure
            cells.append(cell)
            figure = _figure(cell)
            if figure is None:
                continue
            if chapter is not None:
                counters[chapter] = counters.get(chapter, 0) + 1
            label = f"\n:label: {figure['name']}" if figure.get("name") else ""
            caption = nbformat.v4.new_markdown_cell(
                f":::{{figure}}{label}\n\n{smarten(figure['caption'])}\n:::"
            )
            caption.metadata["tags"] = list(TAGS)
            if previous.get(caption.source):
                caption["id"] = previous[caption.source]  # small diffs
            cells.append(caption)
        out[page] = cells
    return out


def _key(cells: list) -> list:
    return [(c.cell_type, c.source, c.metadata.get("tags")) for c in cells]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="report, do not write")
    args = parser.parse_args(argv)
    paths = {f"chapters/{p.stem}": p for p in args.notebooks}
    notebooks = {page: nbformat.read(p, as_version=4) for page, p in paths.items()}
    stale = []
    for page, cells in with_captions(notebooks).items():
        nb = notebooks[page]
        if _key(cells) == _key(nb.cells):
            continue
        stale.append(str(paths[page]))
        if not args.check:
            nb.cells = cells
            tmp = paths[page].with_suffix(".tmp")
            nbformat.write(nb, tmp)
            tmp.replace(paths[page])
    if stale:
        print(
            ("lab captions out of date: " if args.check else "lab captions updated: ")
            + ", ".join(stale)
        )
        return 1 if args.check else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
