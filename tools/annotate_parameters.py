"""Give every parameter of a chapter's ``parameters`` cell a type, for papermill's help.

``papermill --help-notebook chapters/NN.ipynb`` lists a chapter's parameters with their
type, read from an annotation (``m: int = 40``) or a type comment (``# type: int``);
without either it prints "Unknown type". This tool adds the annotation inferred from the
literal default (``int``, ``float``, ``str``, ``bool``, ``list[int]``, ``list[float]``,
``list[str]``, ``list`` for a mixed list) and keeps the comment column. A default of
``None`` gets a type comment instead (``# type: Optional[str]``, never executed), with
the type given by ``--none-type NAME=TYPE`` (default ``str``). Only the ``parameters``
cell changes; outputs and execution counts stay, so nbval's comparison is unaffected.

Usage::

    python tools/annotate_parameters.py chapters/*.ipynb          # annotate in place
    python tools/annotate_parameters.py --check chapters/*.ipynb  # exit 1 if one lacks a type
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

_LINE = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?P<gap>\s*)=(?P<rest>.*)$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*\s*(:[^=]*)?=")


def literal_type(value: object) -> str | None:
    """The annotation of a literal default, or None when it has none to give.

    Examples
    --------
    >>> literal_type([1, 2]), literal_type([0.5, 1]), literal_type([2, "m"]), literal_type(3)
    ('list[int]', 'list[float]', 'list', 'int')
    """
    if isinstance(value, bool):
        return "bool"
    for kind in (int, float, str):
        if isinstance(value, kind):
            return kind.__name__
    if isinstance(value, (list, tuple)):
        kinds = {literal_type(v) for v in value}
        if len(kinds) == 1 and None not in kinds:
            return f"list[{kinds.pop()}]"
        if kinds <= {"int", "float"} and kinds:
            return "list[float]"
        return "list"
    return None


def annotate_source(source: str, none_types: dict[str, str] | None = None) -> str:
    """Annotate the simple assignments ``name = literal`` of a parameters cell.

    Examples
    --------
    >>> print(annotate_source("m = 40        # sample size\\nhome = None   # a folder"))
    m: int = 40  # sample size
    home = None  # type: Optional[str] a folder
    """
    none_types = none_types or {}
    lines = source.split("\n")
    tree = ast.parse(source)
    for node in tree.body:
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.lineno == node.end_lineno
        ):
            continue
        i = node.lineno - 1
        match = _LINE.match(lines[i])
        if match is None:
            continue
        name = match["name"]
        try:
            value = ast.literal_eval(node.value)
        except ValueError:
            continue
        code, hash_, comment = match["rest"].partition("#")
        if value is None:
            if "type:" in comment:
                continue
            kind = none_types.get(name, "str")
            help_text = comment.strip()
            lines[i] = f"{name} ={code.rstrip()}  # type: Optional[{kind}] {help_text}".rstrip()
            continue
        kind = literal_type(value)
        if kind is None:
            continue
        head = f"{name}: {kind} ="
        lines[i] = f"{head}{code}{hash_}{comment}"
    return "\n".join(_align_comments(lines))


def _align_comments(lines: list[str]) -> list[str]:
    """Start every end-of-line comment of the assignments in one column."""
    split = []
    for line in lines:
        assignment = _ASSIGNMENT.match(line)
        code, hash_, comment = line.partition("  #") if assignment else (line, "", "")
        split.append((code.rstrip(), hash_, comment))
    width = max((len(code) for code, hash_, _ in split if hash_), default=0) + 2
    return [f"{code.ljust(width)}#{comment}" if hash_ else code for code, hash_, comment in split]


def _parameters_cell(nb: dict) -> dict | None:
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code" and "parameters" in cell.get("metadata", {}).get(
            "tags", []
        ):
            return cell
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="report, do not write")
    parser.add_argument(
        "--none-type",
        action="append",
        default=[],
        metavar="NAME=TYPE",
        help="the type of a parameter whose default is None (default str)",
    )
    args = parser.parse_args(argv)
    none_types = dict(item.split("=", 1) for item in args.none_type)
    bad = 0
    for path in args.paths:
        nb = json.loads(path.read_text(encoding="utf-8"))
        cell = _parameters_cell(nb)
        if cell is None:
            print(f"{path}: no cell tagged 'parameters'")
            bad += 1
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        new = annotate_source(source, none_types)
        if new == source:
            continue
        if args.check:
            print(f"{path}: parameters without a type (python tools/annotate_parameters.py)")
            bad += 1
            continue
        cell["source"] = new.splitlines(keepends=True)
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
