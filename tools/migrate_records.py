"""Bring the committed records under ``results/`` into the package's one table format.

Until issue 32 the long runs wrote their numbers in three dialects of one idea (a table of
typed columns in a gzip CSV):

* ``typed``: a header of ``name:U|i|f`` fields, then the rows (the coverage runs of
  chapter 6 and 10, the interval runs of chapter 7);
* ``keyed``: a first line ``# key=value ...``, a header of names, then rows of floats
  written with ``%.17g`` (the dependence runs of chapter 8, the bootstrap runs of
  chapter 9).

Every record is now a table of :data:`cvbook.records.TABLE_FORMAT`, written and read by
:func:`cvbook.records.write_table` and :func:`cvbook.records.read_table`. This tool
rewrites each committed file still in an old dialect into that format, in place (same
name), and proves as it goes that nothing but the format changed: each file's columns as
the new reader gives them back must equal, dtype and bytes, those parsed from the old
file; otherwise the old bytes are put back and the tool stops. The ``# key=value`` line
becomes the table's meta (a value JSON reads as a number is kept as that number, as the
writers now give it).

The migration is recorded in the provenance of the records it rewrote: the JSON beside a
record (``<name>.json``) or the folder's ``provenance.json`` gets an ``"amended"`` entry
(what was done, the new files' SHA-256 and size, the code's commit, the time), as
:meth:`cvbook.records.Ledger.amend` records a rewrite in a ledger. What the provenance
says was run is left as it was.

Usage::

    python tools/migrate_records.py           # rewrite what is left in an old dialect
    python tools/migrate_records.py --check   # exit 1, naming them, if any is left

It is idempotent: a file already in the format is left alone, and a second run changes
nothing. ``--check`` reads only the first line of each file (fast, no ``../shared``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cvbook.provenance import atomic_write, atomic_write_text, git_commit  # noqa: E402
from cvbook.records import TABLE_FORMAT, file_digest, read_table, write_table  # noqa: E402

_MARK = f"# {TABLE_FORMAT} "
_TYPED = {"U": np.dtype(str), "i": np.dtype(np.int64), "f": np.dtype(np.float64)}


def record_files(root: Path = ROOT) -> list[Path]:
    """The record files under ``results/`` (every ``*.csv.gz``)."""
    return sorted((root / "results").rglob("*.csv.gz"))


def in_format(path: Path) -> bool:
    """Whether ``path`` starts as a table of the one format does."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return fh.readline().startswith(_MARK)


def _keyed_value(text: str):
    """A ``key=value`` value as the writers now put it in meta: a number stays a number."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return value if number and np.isfinite(value) else text


def parse_old(path: Path) -> tuple[str, dict[str, np.ndarray], dict]:
    """``(dialect, columns, meta)`` of a file in an old dialect, as its old reader read it."""
    lines = gzip.decompress(path.read_bytes()).decode("utf-8").splitlines()
    if lines[0].startswith("# "):
        meta = {k: _keyed_value(v) for k, v in (i.split("=", 1) for i in lines[0][2:].split())}
        names = lines[1].split(",")
        rows = np.array([[float(v) for v in line.split(",")] for line in lines[2:]])
        return "keyed", {k: rows[:, j].copy() for j, k in enumerate(names)}, meta
    # the committed typed files hold no quoted field (no comma, quote or line end in a
    # string), which is checked: each row has as many fields as the header
    header = [field.rsplit(":", 1) for field in lines[0].split(",")]
    rows = [line.split(",") for line in lines[1:]]
    if any(len(row) != len(header) for row in rows):
        raise ValueError(f"{path}: a row does not have {len(header)} fields")
    columns = {}
    for j, (key, kind) in enumerate(header):
        parse = {"U": str, "i": int, "f": float}[kind]
        columns[key] = np.array([parse(row[j]) for row in rows], dtype=_TYPED[kind])
    return "typed", columns, {}


def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal to the bit: dtype, shape and bytes."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def migrate(path: Path) -> str:
    """Rewrite ``path`` in the one format; checked bit for bit, else the old bytes return."""
    old_bytes = path.read_bytes()
    dialect, columns, meta = parse_old(path)
    write_table(path, columns, meta)
    back, back_meta = read_table(path)
    if (
        list(back) != list(columns)
        or back_meta != meta
        or not all(same(back[k], columns[k]) for k in columns)
    ):
        atomic_write(path, lambda tmp: Path(tmp).write_bytes(old_bytes))
        raise SystemExit(f"{path}: the table read back differs from the old file; left as it was")
    return dialect


def provenance_file(path: Path) -> Path:
    """The JSON that holds the provenance of the record ``path``."""
    stem = path.name.removesuffix(".csv.gz").removesuffix(".records")
    beside = path.parent / f"{stem}.json"
    return beside if beside.is_file() else path.parent / "provenance.json"


def amend(prov: Path, files: dict[str, str], commit: str | None) -> None:
    """Add to ``prov`` the entry that says its records' format was migrated."""
    text = prov.read_text()
    data = json.loads(text)
    if json.dumps(data, indent=1) + "\n" != text:
        raise SystemExit(f"{prov}: not written as json.dumps(indent=1); amend it by hand")
    dialects = sorted(set(files.values()))
    data.setdefault("amended", []).append(
        {
            "what": f"format migrated ({', '.join(dialects)} dialect to {TABLE_FORMAT}) by "
            "tools/migrate_records.py, numbers unchanged (every column read back equal to "
            f"the old file's, dtype and bytes), commit {commit}",
            "files": {name: file_digest(prov.parent / name) for name in sorted(files)},
            "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
    )
    atomic_write_text(prov, json.dumps(data, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say what is left (exit 1)")
    args = parser.parse_args(argv)
    old = [p for p in record_files() if not in_format(p)]
    if args.check:
        for p in old:
            print(f"{p.relative_to(ROOT)}: not in {TABLE_FORMAT} (run tools/migrate_records.py)")
        return 1 if old else 0
    commit = git_commit(ROOT)
    done: dict[Path, dict[str, str]] = {}
    for path in old:
        done.setdefault(provenance_file(path), {})[path.name] = migrate(path)
        print(f"{path.relative_to(ROOT)}: migrated", file=sys.stderr)
    for prov, files in done.items():
        amend(prov, files, commit)
    print(f"{len(old)} file(s) migrated to {TABLE_FORMAT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
