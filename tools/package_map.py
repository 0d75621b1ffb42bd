"""Write the package map -- which module is on which floor and serves which chapter -- into
the seven places that show it, from one source.

The source:

* a module's **floor** from its path: ``cvbook/studies/`` is floor 4, ``cvbook/runs/``
  floor 5, a subpackage's module its package's floor; a top-level module is on floor 3
  (the methods) unless it is one of the :data:`FOUNDATIONS` or its docstring's first
  paragraph says otherwise ("... (floor 1 of the package plan)"), which is how a new
  module below the methods is placed;
* its **chapters** from its docstring: the chapters its first paragraph names
  ("(chapter 7)", "Chapter 4's studies", "Chapters 2-3's", "chapters 1, 5 and 6"),
  else those of the first later paragraph that names one; none is fine (scaffolding);
* its **summary**, the first paragraph of its docstring;
* the **chapters** from ``_toc.yml`` (the numbered part), each with the title of its
  notebook (its first ``# `` heading).

The places, each between two marker lines (``package map: begin`` / ``package map: end``):
``FLOORS`` in ``tests/test_package_plan.py``; the tables in the docstrings of
``cvbook/__init__.py`` and ``cvbook/studies/__init__.py``; the module sections of
``api/index.md``; the chapter table of ``intro.md``; the floor lists of ``README.md`` and
``CONTRIBUTING.md``.

Usage::

    python tools/package_map.py          # write the seven places
    python tools/package_map.py --check  # exit 1 naming each place that is out of date

A module added to ``cvbook/`` needs nothing but its docstring: run the tool (``make
chapter`` does) and commit what it writes; ``make lint`` runs ``--check``.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]

#: The top-level modules below the methods (floors 1 and 2); every other top-level
#: module of ``cvbook`` is a method (floor 3) unless its docstring names its floor.
FOUNDATIONS: dict[str, int] = {
    "validation": 1,
    "book": 1,
    "stored_values": 1,
    "provenance": 1,
    "claims": 1,
    "risk": 2,
    "bounds": 2,
    "datasets": 2,
    "stats": 2,
    "simulation": 2,
    "plotting": 2,
}

#: Floors by path: the packages whose modules all sit on one floor.
PACKAGE_FLOORS: dict[str, int] = {"studies": 4, "runs": 5}

#: What each floor holds (the headings of the API page and the floor lists).
FLOOR_TITLES: dict[int, str] = {
    1: "checks and scaffolding",
    2: "foundations",
    3: "methods a reader runs on their own data",
    4: "the chapters' experiments",
    5: "the long runs' command lines",
}

#: The API page's sections: floor, heading, the sentence under it (methods first).
API_SECTIONS: list[tuple[int, str, str]] = [
    (3, "Methods", "What a reader runs on their own data (floor 3 of the package plan)."),
    (
        2,
        "Foundations",
        "Losses, bounds, data, statistics, the repeat engine and the figures (floor 2).",
    ),
    (
        1,
        "Checks and scaffolding",
        "Argument checks, the chapters' scaffolding and provenance (floor 1).",
    ),
    (
        4,
        "Studies",
        "The chapters' experiments (floor 4): they call the methods; no method calls them.",
    ),
    (5, "Command lines", "The long runs (floor 5): parse options, call a study, write records."),
]

BEGIN, END = "package map: begin", "package map: end"
WRITTEN_BY = "written by tools/package_map.py; edit the modules' docstrings, not this"

_NUMBER = r"\d+[a-z]?"
_CHAPTERS = re.compile(
    rf"\bchapters?\s+({_NUMBER}(?:(?:\s*,\s*|\s+and\s+|\s*[-–]\s*|\s+to\s+){_NUMBER})*)"
    r"(?:'s)?",
    re.I,
)
_FLOOR = re.compile(r"\bfloor\s+([1-5])\b", re.I)


class MapError(ValueError):
    """The package's modules cannot be mapped (a module without a docstring, say)."""


@dataclass(frozen=True)
class Module:
    """One module of the package, as the map shows it."""

    name: str  # dotted, "cvbook.studies.loo_pitfalls"
    floor: int
    chapters: tuple[str, ...]  # "1", "5b", in reading order
    summary: str  # the docstring's first paragraph, on one line
    is_package: bool

    @property
    def short(self) -> str:
        """The name without ``cvbook.`` (``studies.loo_pitfalls``)."""
        return self.name.removeprefix("cvbook.")

    @property
    def private(self) -> bool:
        return any(part.startswith("_") for part in self.name.split("."))


@dataclass(frozen=True)
class Chapter:
    """One numbered page of ``_toc.yml``."""

    file: str  # "chapters/05b_table1"
    label: str  # "5b"
    title: str


def chapter_key(label: str) -> tuple[int, str]:
    """Reading order of a chapter label: ``"5" < "5b" < "10"``.

    Examples
    --------
    >>> sorted(["10", "5b", "5", "2"], key=chapter_key)
    ['2', '5', '5b', '10']
    """
    match = re.fullmatch(r"(\d+)([a-z]?)", label)
    if not match:
        raise MapError(f"not a chapter label: {label!r}")
    return int(match.group(1)), match.group(2)


def chapters_named(text: str) -> list[str]:
    """The chapter labels a text names, in the order named (ranges "2-3" expanded).

    Examples
    --------
    >>> chapters_named("Chapters 2-3's selection studies (and chapter 5b)")
    ['2', '3', '5b']
    >>> chapters_named("Clopper--Pearson bounds (chapters 1, 5, 6 and 7).")
    ['1', '5', '6', '7']
    >>> chapters_named("Argument checks shared by every module.")
    []
    """
    out: list[str] = []
    for match in _CHAPTERS.finditer(text):
        spec = match.group(1)
        for part in re.split(r"\s*,\s*|\s+and\s+", spec):
            bounds = re.split(r"\s*[-–]\s*|\s+to\s+", part)
            if len(bounds) == 2 and all(b.isdigit() for b in bounds):
                labels = [str(c) for c in range(int(bounds[0]), int(bounds[1]) + 1)]
            else:
                labels = bounds
            out += [label.lower() for label in labels if label.lower() not in out]
    return out


def _paragraphs(doc: str) -> list[str]:
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", doc.strip()) if p.strip()]


def _module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def floor_of(name: str, summary: str) -> int:
    """The floor of module ``name`` (see the module's docstring for the rule).

    Examples
    --------
    >>> floor_of("cvbook.studies.loo_pitfalls", "Chapter 4's studies."), floor_of("cvbook.risk", "")
    (4, 2)
    >>> floor_of("cvbook.records", "Records on disk (floor 1 of the package plan).")
    1
    >>> floor_of("cvbook.newmethod", "A method (chapter 10).")
    3
    """
    parts = name.split(".")
    if len(parts) == 1:
        return 0
    top = parts[1]
    if top in PACKAGE_FLOORS:
        return PACKAGE_FLOORS[top]
    stated = _FLOOR.search(summary) if len(parts) == 2 else None
    if stated and top in FOUNDATIONS and int(stated.group(1)) != FOUNDATIONS[top]:
        raise MapError(
            f"{name}: its docstring says floor {stated.group(1)}, FOUNDATIONS in "
            f"tools/package_map.py says {FOUNDATIONS[top]}"
        )
    if stated:
        return int(stated.group(1))
    return FOUNDATIONS.get(top, 3)


def read_modules(root: Path = ROOT) -> list[Module]:
    """Every module of ``cvbook`` with its floor, chapters and summary."""
    out = []
    for path in sorted((root / "cvbook").rglob("*.py")):
        name = _module_name(root, path)
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        # the map it wrote into the docstring is not a source
        doc = re.sub(rf"^[^\n]*{BEGIN}.*?{END}[^\n]*$", "", doc, flags=re.S | re.M)
        paragraphs = _paragraphs(doc)
        if not paragraphs:
            raise MapError(f"{path.relative_to(root)}: no module docstring (the map reads it)")
        chapters: list[str] = []
        for paragraph in paragraphs:
            chapters = chapters_named(paragraph)
            if chapters:
                break
        chapters.sort(key=chapter_key)
        out.append(
            Module(
                name=name,
                floor=floor_of(name, paragraphs[0]),
                chapters=tuple(chapters),
                summary=paragraphs[0],
                is_package=path.name == "__init__.py",
            )
        )
    return out


def read_chapters(root: Path = ROOT) -> list[Chapter]:
    """The numbered pages of ``_toc.yml``, in reading order, each with its title."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    files = []
    for part in toc.get("parts", []):
        if part.get("numbered"):
            for chapter in part.get("chapters", []):
                files.append(chapter["file"])
                files += [section["file"] for section in chapter.get("sections", [])]
    out = []
    for file in files:
        match = re.match(r"(\d+)([a-z]?)_", Path(file).name)
        if not match:
            raise MapError(f"_toc.yml: {file} is not named NN_name or NNb_name")
        nb = json.loads((root / f"{file}.ipynb").read_text(encoding="utf-8"))
        titles = [
            line[2:].strip()
            for cell in nb["cells"]
            if cell["cell_type"] == "markdown"
            for line in "".join(cell["source"]).splitlines()
            if line.startswith("# ")
        ]
        if not titles:
            raise MapError(f"{file}.ipynb: no title (a Markdown line '# Title')")
        label = f"{int(match.group(1))}{match.group(2)}"
        twin = [c.file for c in out if c.label == label]
        if twin:
            raise MapError(f"_toc.yml: {twin[0]} and {file} are both chapter {label}")
        out.append(Chapter(file, label, titles[0]))
    return out


def check_consistent(modules: list[Module], chapters: list[Chapter]) -> None:
    """A module names only chapters that exist."""
    labels = {c.label for c in chapters}
    for m in modules:
        unknown = [c for c in m.chapters if c not in labels]
        if unknown:
            raise MapError(
                f"{m.name}: its docstring names chapter(s) {', '.join(unknown)}, which _toc.yml "
                f"does not number (it numbers {', '.join(sorted(labels, key=chapter_key))})"
            )


# --------------------------------------------------------------------------- renderers
def _order(modules: list[Module]) -> list[Module]:
    """Floor by floor; within a floor by chapter of the top-level unit, a package before
    its modules, then by chapter and name."""

    def first(chapters: tuple[str, ...]) -> tuple[int, str]:
        return chapter_key(chapters[0]) if chapters else (999, "")

    units = {m.name: m for m in modules}

    def key(m: Module):
        unit = units.get(".".join(m.name.split(".")[:2]), m)
        return (
            m.floor,
            first(unit.chapters),
            unit.private,
            unit.name,
            not m.is_package,
            first(m.chapters),
            m.private,
            m.name,
        )

    return sorted(modules, key=key)


def _plain(summary: str) -> str:
    """A summary for Markdown: RST's ``--`` as an en dash, roles as code."""
    text = summary.replace("--", "–")
    return re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text)


def _without_chapter(summary: str) -> str:
    """The summary without a closing "(chapter N)", which a table shows in its own column."""
    return re.sub(r"\s*\((?:chapters?)\s+[^)]*\)(?=\.?$)", "", summary, flags=re.I)


def _chapters_text(chapters: tuple[str, ...]) -> str:
    return ", ".join(chapters) if chapters else "–"


def _rst_table(headers: list[str], rows: list[list[str]], width: int = 96) -> list[str]:
    """An RST simple table; the last column wraps onto continuation lines."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers[:-1])]
    indent = sum(w + 2 for w in widths)
    last = max(20, width - indent)
    rule = "  ".join("=" * w for w in widths) + "  " + "=" * last
    out = [
        rule,
        "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=False)) + "  " + headers[-1],
        rule,
    ]
    for row in rows:
        lines = textwrap.wrap(row[-1], last) or [""]
        head = "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=False))
        out.append((head + "  " + lines[0]).rstrip())
        out += [" " * indent + line for line in lines[1:]]
    out.append(rule)
    return out


def render_floors(modules: list[Module]) -> list[str]:
    """``FLOORS`` of tests/test_package_plan.py."""
    lines = ["#: The floor of every module (tools/package_map.py).", "FLOORS: dict[str, int] = {"]
    lines += [f'    "{m.name}": {m.floor},' for m in _order(modules)]
    return [*lines, "}"]


def render_package_table(modules: list[Module]) -> list[str]:
    """The floor table of cvbook/__init__.py's docstring."""
    rows = [
        [str(m.floor), f":mod:`{m.name}`", _chapters_text(m.chapters), _without_chapter(m.summary)]
        for m in _order(modules)
        if m.floor > 0
    ]
    return _rst_table(["floor", "module", "chapter", "what it holds"], rows)


def render_studies_table(modules: list[Module]) -> list[str]:
    """The table of cvbook/studies/__init__.py's docstring."""
    rows = [
        [f":mod:`{m.name}`", _chapters_text(m.chapters), _without_chapter(m.summary)]
        for m in _order(modules)
        if m.floor == 4 and not m.is_package
    ]
    return _rst_table(["module", "chapter", "question"], rows)


def _used_in(m: Module) -> str:
    summary = _plain(m.summary)
    if m.chapters and not chapters_named(m.summary):
        many = len(m.chapters) > 1
        listed = ", ".join(m.chapters[:-1]) + " and " + m.chapters[-1] if many else m.chapters[0]
        summary += f" Used in chapter{'s' if many else ''} {listed}."
    return summary


def render_api(modules: list[Module]) -> list[str]:
    """The module sections of api/index.md."""
    shown = [m for m in _order(modules) if not m.private and m.floor > 0]
    lines: list[str] = []
    for floor, heading, sentence in API_SECTIONS:
        lines += [f"## {heading}", "", sentence, ""]
        for m in (m for m in shown if m.floor == floor):
            anchor = "api-" + m.name.replace(".", "-")
            lines += [f"({anchor})=", f"### `{m.name}`", ""]
            lines += [f"*{_used_in(m)}*", ""]  # one line: a wrapped "- " would start a list
            lines += ["```{eval-rst}", f".. automodule:: {m.name}"]
            lines += [] if m.is_package else ["   :members:"]
            lines += ["```", ""]
    return lines[:-1]


def render_intro(modules: list[Module], chapters: list[Chapter]) -> list[str]:
    """The chapter table of intro.md: each chapter, its title and its modules."""
    lines = ["| chapter | idea | `cvbook` modules |", "|---|---|---|"]
    for c in chapters:
        names = [
            f"`{m.short}`"
            for m in _order(modules)
            if c.label in m.chapters and 2 <= m.floor <= 4 and not m.private
        ]
        title = c.title.replace("|", "\\|")
        lines.append(f"| {{doc}}`{c.label} <{c.file}>` | {title} | {', '.join(names)} |")
    return lines


def render_floor_list(modules: list[Module]) -> list[str]:
    """The floor list of README.md and CONTRIBUTING.md: each floor, its modules."""
    lines = []
    for floor, title in FLOOR_TITLES.items():
        names = []
        for m in _order(modules):
            if m.floor != floor or m.private or m.name.count(".") != (1 if floor < 4 else 2):
                continue
            name = m.name.split(".")[-1]
            item = f"`{name}` ({', '.join(m.chapters)})" if m.chapters else f"`{name}`"
            names.append(item.replace(" ", "\0"))  # an item is not broken across lines
        where = {4: " (`cvbook.studies`)", 5: " (`cvbook.runs`)"}.get(floor, "")
        text = f"{floor}. {title.capitalize()}{where}: {', '.join(names)}."
        wrapped = textwrap.wrap(text, 90, subsequent_indent="   ", break_on_hyphens=False)
        lines += [line.replace("\0", " ") for line in wrapped]
    return lines


# --------------------------------------------------------------------------- the places
@dataclass(frozen=True)
class Place:
    path: str
    render: str  # the name of a render_* function
    prefix: str  # what the marker lines start with
    indent: str = ""


PLACES = [
    Place("tests/test_package_plan.py", "render_floors", "# "),
    Place("cvbook/__init__.py", "render_package_table", ".. "),
    Place("cvbook/studies/__init__.py", "render_studies_table", ".. "),
    Place("api/index.md", "render_api", "<!-- "),
    Place("intro.md", "render_intro", "<!-- "),
    Place("README.md", "render_floor_list", "<!-- "),
    Place("CONTRIBUTING.md", "render_floor_list", "<!-- "),
]


def _marker(place: Place, word: str) -> str:
    text = f"{place.prefix}{word} ({WRITTEN_BY})" if word == BEGIN else f"{place.prefix}{word}"
    return text + (" -->" if place.prefix == "<!-- " else "")


def rewrite(text: str, place: Place, body: list[str]) -> str:
    """``text`` with the lines between the place's markers replaced by ``body``."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if BEGIN in line]
    ends = [i for i, line in enumerate(lines) if END in line]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise MapError(f"{place.path}: needs one '{BEGIN}' line and one '{END}' line after it")
    a, b = starts[0], ends[0]
    pad = [] if place.prefix == "# " else [""]  # RST and Markdown: blocks apart
    new = [_marker(place, BEGIN), *pad, *body, *pad, _marker(place, END)]
    return "\n".join(lines[:a] + new + lines[b + 1 :])


def render_all(root: Path = ROOT) -> dict[Path, str]:
    """Every place's text as the map writes it."""
    modules, chapters = read_modules(root), read_chapters(root)
    check_consistent(modules, chapters)
    out = {}
    for place in PLACES:
        path = root / place.path
        render = globals()[place.render]
        body = render(modules, chapters) if place.render == "render_intro" else render(modules)
        out[path] = rewrite(path.read_text(encoding="utf-8"), place, body)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report, do not write")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        texts = render_all(args.root)
    except MapError as err:
        print(f"package map: {err}", file=sys.stderr)
        return 1
    stale = [p for p, text in texts.items() if p.read_text(encoding="utf-8") != text]
    for path in stale:
        rel = path.relative_to(args.root)
        if args.check:
            print(f"package map out of date: {rel} (python tools/package_map.py)")
        else:
            path.write_text(texts[path], encoding="utf-8")
            print(f"wrote the package map into {rel}")
    return int(bool(stale) and args.check)


if __name__ == "__main__":
    sys.exit(main())
