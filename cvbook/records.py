"""Records: what a long run leaves on disk, checked on resume (floor 1 of the package plan).

Every driver of :mod:`cvbook.runs` keeps one record of its parts, in one format: the
ledger ``records.json`` of its output folder (:class:`Ledger`). A *part* is what a driver
writes as one unit (a learner and size of the bootstrap study, one Table 1 run, one
coverage run). For each part the ledger holds

* ``state``: ``"started"`` while its repetitions are being saved in a checkpoint folder,
  ``"finished"`` once its files are written;
* ``settings``: every setting that decides its numbers (as JSON);
* ``code``: the code state it was made with (:func:`code_state`: the git commit, the
  uncommitted package files, a SHA-256 of the package's source and the versions of the
  libraries that decide a result);
* ``files``: each file of the part with its SHA-256 and size, so that a part that does
  not read back whole is found.

Before a driver runs a part it asks :meth:`Ledger.status`, which

* skips a finished part whose settings, code and files all match (``"done"``);
* resumes a started part whose settings and code match (``"resume"``);
* redoes a part whose files do not read back whole, or whose files exist without a
  record of being finished (a foreign or half-made file), saying so (``"new"``);
* refuses, with a :class:`PartMismatch` that names the part and each setting or piece of
  code state that differs, a part made with other settings or other code -- and an output
  folder written before records existed (files but no ledger), which it cannot check.

:class:`RecordKeyError` is the error of a record object asked for a quantity it does not
hold: a ``KeyError`` (so ``dict``-like code behaves) and a ``ValueError`` (the package's
error for a bad argument), whose message names the key and the keys the record holds.

A part's numbers are a *table*: named 1-d columns of one length, each of one type.
:func:`write_table` writes one, atomically, as a gzip CSV of the format
:data:`TABLE_FORMAT`, and :func:`read_table` gives it back, every column with its dtype
and every bit of its values. Every record of the package is written and read through
these two (the chapter-facing readers of :mod:`cvbook.runs.coverage`,
:mod:`cvbook.runs.intervals`, :mod:`cvbook.studies.dependent_data` and
:mod:`cvbook.studies.bootstrap_vs_cv` call them). The file, once decompressed, is::

    # cvbook-table/1 {"learner": "lda", "m": 20}
    method:str,n:int64,risk:float64,ok:bool
    kfold,50,0.21276595744680851,True

* line 1: ``# `` and the format, then the table's ``meta`` as one line of JSON (keys
  sorted; ``{}`` when there is none);
* line 2: the CSV header, one ``name:type`` field a column, the type ``str``, ``bool``
  or a numpy integer or float dtype name (``int64``, ``uint8``, ``float64``...);
* then one CSV row per record (Python's :mod:`csv`: a field holding a comma, a quote or
  a line end is quoted). Floats are written by ``repr``, which reads back to the same
  float bit for bit (infinities and negative zero included; a NaN comes back as
  NaN, without its sign bit or payload); bools as ``True``/``False``.

The gzip stream has no time stamp and no file name, so the same table gives the same
bytes.
"""

from __future__ import annotations

import csv
import functools
import gzip
import hashlib
import io
import json
import os
import pickle
import re
import sys
import time
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from .provenance import atomic_write, atomic_write_text, git_commit, git_dirty, package_versions
from .validation import ArgumentTypeError, check_output_path, check_path

__all__ = [
    "LEDGER",
    "TABLE_FORMAT",
    "Ledger",
    "PartMismatch",
    "RecordKeyError",
    "Table",
    "code_state",
    "file_digest",
    "missing_key",
    "note_unrecorded_checkpoint",
    "prune_checkpoint",
    "read_json",
    "read_table",
    "write_table",
]

#: The name of the ledger file in an output folder.
LEDGER = "records.json"
_FORMAT = "cvbook-records/1"
_PACKAGE_DIR = Path(__file__).resolve().parent


class RecordKeyError(KeyError, ValueError):
    """A record has no such key; the message names it and the keys it has.

    Examples
    --------
    >>> err = missing_key("oob", ["risk", "train"], "values")
    >>> isinstance(err, KeyError) and isinstance(err, ValueError)
    True
    >>> print(err)
    values has no key 'oob'; it holds ['risk', 'train']
    """

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0]) if self.args else ""


def missing_key(key: Any, keys: Iterable[Any], what: str) -> RecordKeyError:
    """The :class:`RecordKeyError` for ``key`` missing from ``what``, which holds ``keys``."""
    return RecordKeyError(f"{what} has no key {key!r}; it holds {sorted(map(str, keys))}")


class PartMismatch(ValueError):
    """A part on disk that the run must not take as its own; the message names the part
    and what differs."""


def _package_sha256() -> str:
    """SHA-256 over the package's Python source (relative path and bytes of each file)."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE_DIR.rglob("*.py")):
        digest.update(str(path.relative_to(_PACKAGE_DIR)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def code_state() -> dict[str, Any]:
    """The state of the code that runs: read it *before* a long run.

    ``commit`` and ``uncommitted_package_files`` (None outside git) say where it came
    from; ``package_sha256`` identifies the package's source whatever git says, and
    ``versions`` the libraries. Two runs have the same code when the last two agree.

    Examples
    --------
    >>> sorted(code_state())
    ['commit', 'package_sha256', 'uncommitted_package_files', 'versions']
    """
    return {
        "commit": git_commit(),
        "uncommitted_package_files": git_dirty(),
        "package_sha256": _package_sha256(),
        "versions": package_versions(),
    }


def file_digest(path: str | os.PathLike) -> dict[str, Any]:
    """``{"sha256": ..., "bytes": ...}`` of a file.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = p.write_text("abc")
    >>> file_digest(p)["bytes"]
    3
    """
    data = Path(path).read_bytes()
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def _plain(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples become lists, numpy numbers plain ones)."""
    return json.loads(json.dumps(value, sort_keys=True, default=_json_default))


def _json_default(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    raise TypeError(f"settings must be JSON values, got {type(value).__name__}: {value!r}")


def _differences(old: Any, new: Any, prefix: str = "") -> list[str]:
    """Each leaf where ``old`` and ``new`` differ, as ``key: recorded -> now``."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in sorted(set(old) | set(new), key=str):
            where = f"{prefix}{key}"
            if key not in old:
                out.append(f"{where}: (not recorded) -> {new[key]!r}")
            elif key not in new:
                out.append(f"{where}: {old[key]!r} -> (not set now)")
            else:
                out += _differences(old[key], new[key], f"{where}.")
        return out
    return [] if old == new else [f"{prefix.rstrip('.')}: {old!r} -> {new!r}"]


class Ledger:
    """The record of the parts of one output folder (``<folder>/records.json``).

    Parameters
    ----------
    folder : path-like
        The output folder (created on the first write).
    code : dict, optional
        The code state of this run; :func:`code_state` by default (read at construction,
        that is, before the run).
    notify : callable, optional
        Called with a message when a part is redone (default: print to ``stderr``).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> ledger = Ledger(folder, code={"package_sha256": "a", "versions": {}})
    >>> ledger.status("p", {"n": 5}, ["p.txt"])
    'new'
    >>> _ = (folder / "p.txt").write_text("done")
    >>> ledger.finish("p", {"n": 5}, ["p.txt"])
    >>> ledger.status("p", {"n": 5}, ["p.txt"])
    'done'
    >>> ledger.status("p", {"n": 6}, ["p.txt"])
    Traceback (most recent call last):
    ...
    cvbook.records.PartMismatch: part 'p' in ... was made with other settings (n: 5 -> 6); ...
    """

    def __init__(
        self,
        folder: str | os.PathLike,
        code: Mapping[str, Any] | None = None,
        notify: Any = None,
    ) -> None:
        if isinstance(folder, bytes) or not isinstance(folder, (str, os.PathLike)):
            raise TypeError(f"folder must be a str or path-like, got {type(folder).__name__}")
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise ValueError(f"folder {str(self.folder)!r} exists and is not a folder")
        self.path = self.folder / LEDGER
        self.code = _plain(dict(code) if code is not None else code_state())
        self.notify = notify or (lambda message: print(message, file=sys.stderr))

    # ------------------------------------------------------------------ reading

    def parts(self) -> dict[str, dict[str, Any]]:
        """The parts recorded so far (empty without a ledger); a ledger that does not
        read back whole is refused by name."""
        if not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text())
            if data.get("format") != _FORMAT or not isinstance(data.get("parts"), dict):
                raise ValueError(f"not a ledger of format {_FORMAT!r}")
        except (OSError, UnicodeDecodeError, ValueError, AttributeError) as err:
            raise PartMismatch(
                f"{self.path} is not a record this package wrote ({type(err).__name__}: "
                f"{err}); move it away or choose another output folder"
            ) from None
        return data["parts"]

    def _files_whole(self, entry: Mapping[str, Any]) -> list[str]:
        """The recorded files that are missing or differ from what was written."""
        bad = []
        for name, digest in entry.get("files", {}).items():
            path = self.folder / name
            if not path.is_file():
                bad.append(f"{name} is missing")
            elif file_digest(path) != digest:
                bad.append(f"{name} differs from what was written (truncated or replaced)")
        return bad

    def status(
        self, part: str, settings: Mapping[str, Any], files: Iterable[str | os.PathLike]
    ) -> str:
        """What to do with ``part``: ``"done"`` (skip it), ``"resume"`` (continue its
        checkpoint) or ``"new"`` (run it from the start); a :class:`PartMismatch` when
        it must not be taken as this run's.

        ``files`` are the part's files, relative to the folder.
        """
        settings = _plain(dict(settings))
        files = [str(f) for f in files]
        parts = self.parts()
        present = [f for f in files if (self.folder / f).exists()]
        entry = parts.get(part)
        if entry is None:
            if present and not self.path.exists():
                raise PartMismatch(
                    f"part {part!r} in {self.folder}: {present} exist but the folder holds no "
                    f"{LEDGER}, so nothing says which settings and code made them (a folder "
                    "written before records, or by something else); choose another output "
                    "folder, or remove them to run the part again"
                )
            if present:
                self.notify(
                    f"part {part!r}: {present} exist but {self.path} does not record the "
                    "part as finished (not a part this run can trust): running it again"
                )
            return "new"
        differ = _differences(entry.get("settings"), settings)
        if differ:
            raise PartMismatch(
                f"part {part!r} in {self.folder} was made with other settings "
                f"({'; '.join(differ)}); choose another output folder, or remove the part "
                f"({present or 'its checkpoint'} and its entry in {LEDGER}) to make it again"
            )
        old = entry.get("code", {})
        differ = _differences(
            {k: old.get(k) for k in ("package_sha256", "versions")},
            {k: self.code.get(k) for k in ("package_sha256", "versions")},
        )
        if differ:
            raise PartMismatch(
                f"part {part!r} in {self.folder} was made by other code (commit "
                f"{old.get('commit')}, uncommitted {old.get('uncommitted_package_files')}; "
                f"now commit {self.code.get('commit')}, uncommitted "
                f"{self.code.get('uncommitted_package_files')}; differs in "
                f"{'; '.join(differ)}); choose another output folder, or remove the part to "
                "make it again with this code"
            )
        if entry.get("state") == "started":
            return "resume"
        bad = self._files_whole(entry)
        if bad:
            self.notify(f"part {part!r} does not read back whole ({'; '.join(bad)}): redoing it")
            return "new"
        return "done"

    # ------------------------------------------------------------------ writing

    def _write(self, parts: dict[str, Any]) -> None:
        text = json.dumps({"format": _FORMAT, "parts": parts}, indent=1, sort_keys=True)
        atomic_write_text(self.path, text + "\n")

    def start(self, part: str, settings: Mapping[str, Any]) -> None:
        """Record that ``part`` is under way with ``settings`` and this code (before its
        first repetition is saved), so that a resumed run can check them."""
        parts = self.parts()
        parts[part] = {
            "state": "started",
            "settings": _plain(dict(settings)),
            "code": self.code,
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        self._write(parts)

    def amend(self, part: str, files: Iterable[str | os.PathLike], what: str) -> None:
        """Record that a finished ``part``'s ``files`` were rewritten on purpose (``what``,
        e.g. fields added by a migration): their new digests, and the code that rewrote
        them beside the code that made the part. Nothing happens to a part not recorded."""
        parts = self.parts()
        entry = parts.get(part)
        if entry is None or entry.get("state") != "finished":
            return
        entry["files"].update({str(f): file_digest(self.folder / f) for f in files})
        entry.setdefault("amended", []).append(
            {"what": what, "code": self.code, "when": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        )
        self._write(parts)

    def forget(self, part: str) -> None:
        """Drop the entry of ``part`` (a part that was started but saved nothing, such as a
        run refused for a bad value), so that it does not bind the next run."""
        parts = self.parts()
        if parts.pop(part, None) is None:
            return
        if parts:
            self._write(parts)
        else:  # the ledger held only this part: leave the folder as it was
            self.path.unlink()

    def finish(
        self,
        part: str,
        settings: Mapping[str, Any],
        files: Iterable[str | os.PathLike],
        provenance: Mapping[str, Any] | None = None,
    ) -> None:
        """Record ``part`` as finished: its settings, this code, and a digest of each of its
        ``files`` (already written, relative to the folder); ``provenance`` (wall time,
        command, ...) is kept beside them."""
        parts = self.parts()
        started = parts.get(part, {}).get("started")
        entry: dict[str, Any] = {
            "state": "finished",
            "settings": _plain(dict(settings)),
            "code": self.code,
            "files": {str(f): file_digest(self.folder / f) for f in files},
            "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        if started:
            entry["started"] = started
        if provenance:
            entry["provenance"] = _plain(dict(provenance))
        parts[part] = entry
        self._write(parts)


def note_unrecorded_checkpoint(checkpoint: str | os.PathLike, notify: Any = None) -> int:
    """Say so when a part with no record starts on a checkpoint folder that already holds
    repetitions (left by a run made before records): they are resumed, their function,
    seed and arguments checked by the checkpoint's own fingerprint
    (:func:`cvbook.simulation.repeat`), but nothing records the code that made them.
    Returns their number.

    Examples
    --------
    >>> note_unrecorded_checkpoint("no/such/folder")
    0
    """
    folder = Path(checkpoint)
    n = len(list(folder.glob("rep*.pkl"))) if folder.is_dir() else 0
    if n:
        (notify or (lambda m: print(m, file=sys.stderr)))(
            f"{folder}: resuming {n} saved repetition(s) that no record vouches for (made "
            "before records); their arguments are checked by the checkpoint's fingerprint, "
            "but not the code that made them"
        )
    return n


def prune_checkpoint(checkpoint: str | os.PathLike, notify: Any = None) -> list[str]:
    """Remove, and name, the saved repetitions of a checkpoint folder that do not read back
    whole (a truncated or foreign ``rep*.pkl``): :func:`cvbook.simulation.repeat` then makes
    them again (a repetition depends only on its seed and index). Returns their names.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "rep000000.pkl").write_bytes(b"not a pickle")
    >>> prune_checkpoint(folder, notify=lambda m: None)
    ['rep000000.pkl']
    """
    folder = Path(checkpoint)
    bad = []
    for path in sorted(folder.glob("rep*.pkl")) if folder.is_dir() else []:
        try:
            pickle.loads(path.read_bytes())
        except Exception:
            bad.append(path.name)
            path.unlink()
    if bad:
        (notify or (lambda m: print(m, file=sys.stderr)))(
            f"{folder}: {bad} did not read back whole (truncated or foreign): made again"
        )
    return bad


# --------------------------------------------------------------------------- #
# Tables: a part's numbers on disk

#: The first line of every table file names this format (see the module's docstring).
TABLE_FORMAT = "cvbook-table/1"
_MARK = f"# {TABLE_FORMAT} "
#: The column types a table holds, by the name its header gives them.
_TYPES: dict[str, np.dtype] = {
    "str": np.dtype(str),
    **{
        np.dtype(t).name: np.dtype(t)
        for t in (
            *(bool, np.int8, np.int16, np.int32, np.int64),
            *(np.uint8, np.uint16, np.uint32, np.uint64, np.float16, np.float32, np.float64),
        )
    },
}


class Table(NamedTuple):
    """What :func:`read_table` gives back: the ``columns`` (name to 1-d array, in the
    file's order) and the ``meta`` written with them."""

    columns: dict[str, np.ndarray]
    meta: dict[str, Any]


def _type_name(values: np.ndarray, key: str) -> str:
    """The header's name of a column's type; an ArgumentTypeError for one a table cannot hold."""
    if values.dtype.kind == "U":
        return "str"
    if values.dtype.name in _TYPES:
        return values.dtype.name
    raise ArgumentTypeError(
        f"columns[{key!r}] must hold str, bool, integers or floats, got dtype {values.dtype}"
    )


def _check_columns(columns: Any) -> dict[str, np.ndarray]:
    """``columns`` as 1-d arrays of one length, with str keys and types a table holds."""
    if not isinstance(columns, Mapping):
        raise ArgumentTypeError(
            f"columns must be a dict of 1-d arrays, got {type(columns).__name__}"
        )
    if not columns:
        raise ValueError("columns must hold at least one column, got an empty dict")
    out = {}
    for key, values in columns.items():
        if not isinstance(key, str) or not key:
            raise ValueError(f"columns' keys must be non-empty strings, got {key!r}")
        arr = np.asarray(values)
        if arr.ndim != 1:
            raise ValueError(f"columns[{key!r}] must be 1-d, got shape {arr.shape}")
        _type_name(arr, key)
        out[key] = arr
    if len({len(v) for v in out.values()}) > 1:
        lengths = {k: len(v) for k, v in out.items()}
        raise ValueError(f"columns must have one length, got {lengths}")
    return out


def _meta_line(meta: Any) -> str:
    """``meta`` as one line of JSON (keys sorted); a ValueError naming what JSON cannot hold."""
    if meta is None:
        meta = {}
    if not isinstance(meta, Mapping):
        raise ArgumentTypeError(f"meta must be a dict or None, got {type(meta).__name__}")
    try:
        return json.dumps(dict(meta), sort_keys=True, allow_nan=False, default=_json_default)
    except (TypeError, ValueError) as err:
        raise ValueError(f"meta must hold JSON values (finite numbers): {err}") from None


def _text(values: np.ndarray) -> list[str]:
    if values.dtype.kind == "f":
        return [repr(float(v)) for v in values.tolist()]
    return [str(v) for v in values.tolist()]


def write_table(
    path: str | os.PathLike, columns: Mapping[str, Any], meta: Mapping[str, Any] | None = None
) -> Path:
    """Write ``columns`` (and ``meta``) to the table file ``path``, atomically.

    The format is :data:`TABLE_FORMAT` (see the module's docstring); :func:`read_table`
    gives back every column with its dtype and every bit of its values. The file is
    complete or absent whatever happens (:func:`cvbook.provenance.atomic_write`).

    Parameters
    ----------
    path : str or path-like
        The file to write (by the package's habit ``<name>.csv.gz``).
    columns : dict of 1-d arrays
        Columns of one length: str, bool, (unsigned) integer or float.
    meta : dict, optional
        JSON values kept with the table (what the numbers are of: a learner, a size...).

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    ValueError
        For columns of different lengths, a column that is not 1-d, an empty dict, or
        ``meta`` that JSON cannot hold; an :class:`~cvbook.validation.ArgumentTypeError`
        (also a ``TypeError``) for a column of another dtype or a ``columns`` that is
        not a dict. Nothing is written.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_table(folder / "t.csv.gz", {"name": ["a,b"], "n": [5], "risk": [0.1]},
    ...                 {"m": 20})
    >>> columns, meta = read_table(folder / "t.csv.gz")
    >>> columns["name"].tolist(), columns["n"].dtype, columns["risk"].tolist(), meta
    (['a,b'], dtype('int64'), [0.1], {'m': 20})
    >>> write_table(folder / "u.csv.gz", {"a": [1, 2], "b": [1.0]})
    Traceback (most recent call last):
    ...
    ValueError: columns must have one length, got {'a': 2, 'b': 1}
    """
    path = check_output_path(path, "path", folder=False)
    cols = _check_columns(columns)
    line = _meta_line(meta)
    buffer = io.StringIO(newline="")
    buffer.write(f"{_MARK}{line}\n")
    writer = csv.writer(buffer, lineterminator="\n")
    # csv quotes a field holding "\n" but not one holding a lone "\r", which a reader
    # takes for a line end: such rows are written with every field quoted.
    quoted = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)
    header = [f"{key}:{_type_name(values, key)}" for key, values in cols.items()]
    for row in [header, *zip(*(_text(v) for v in cols.values()), strict=True)]:
        (quoted if any("\r" in field for field in row) else writer).writerow(row)
    try:
        data = buffer.getvalue().encode("utf-8")
    except UnicodeEncodeError as err:
        raise ValueError(f"columns must hold valid Unicode text: {err}") from None

    def write_gz(tmp: str) -> None:
        with (
            open(tmp, "wb") as raw,
            gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as fh,
        ):
            fh.write(data)

    atomic_write(path, write_gz)
    return path


def _column(texts: list[str], dtype: np.dtype, key: str, where: str) -> np.ndarray:
    """One column parsed from its fields; a ValueError naming the file, column and row."""
    if dtype.kind == "U":
        return np.array(texts, dtype=str) if texts else np.array([], dtype="<U1")
    if dtype.kind == "b":
        bad = [i for i, t in enumerate(texts) if t not in ("True", "False")]
        if bad:
            raise ValueError(
                f"{where}: column {key!r} must hold True or False, got {texts[bad[0]]!r} "
                f"in row {bad[0] + 1}"
            )
        return np.array([t == "True" for t in texts], dtype=bool)
    # int() and float() also take " 60 ", "6_0" and "0.2_5", which write_table never
    # writes: a field must have the form str(int) or repr(float) gives
    parse = _strict_int if dtype.kind in "iu" else _strict_float
    if dtype.kind in "iu":
        # an int outside the dtype's range: older numpy wraps it with a DeprecationWarning
        # instead of raising, so the range is checked here
        info = np.iinfo(dtype)
        parse = functools.partial(_int_in_range, low=int(info.min), high=int(info.max))
    try:
        return np.array([parse(t) for t in texts], dtype=dtype)
    except (ValueError, OverflowError):
        for i, t in enumerate(texts):
            try:
                np.array(parse(t), dtype=dtype)
            except (ValueError, OverflowError):
                raise ValueError(
                    f"{where}: column {key!r} must hold {dtype.name} values, got {t!r} in "
                    f"row {i + 1}"
                ) from None
        raise


_INT = re.compile(r"-?[0-9]+")
_FLOAT = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?|-?inf|nan")


def _strict_int(text: str) -> int:
    if not _INT.fullmatch(text):
        raise ValueError(f"not an integer as write_table writes one: {text!r}")
    return int(text)


def _int_in_range(text: str, low: int, high: int) -> int:
    value = _strict_int(text)
    if not low <= value <= high:
        raise OverflowError(f"{value} is outside [{low}, {high}]")
    return value


def _strict_float(text: str) -> float:
    if not _FLOAT.fullmatch(text):
        raise ValueError(f"not a float as write_table writes one: {text!r}")
    return float(text)


def _header(fields: list[str], where: str) -> list[tuple[str, np.dtype]]:
    header = []
    for field in fields:
        key, sep, token = field.rpartition(":")
        if not sep or not key:
            raise ValueError(f"{where}: header field {field!r} must be name:type")
        if token not in _TYPES:
            raise ValueError(
                f"{where}: column {key!r} has type {token!r}; the types are {sorted(_TYPES)}"
            )
        header.append((key, _TYPES[token]))
    if len({key for key, _ in header}) < len(header):
        raise ValueError(f"{where}: the header must name each column once, got {fields}")
    return header


def _input_file(path: Any, kind: str) -> Path:
    """``path`` checked (:func:`~cvbook.validation.check_path`) and an existing file."""
    path = check_path(path, "path")
    if not path.is_file():
        raise FileNotFoundError(f"path {str(path)!r} must be a {kind} file, got no such file")
    return path


def read_json(path: str | os.PathLike, keys: Iterable[str] = ()) -> dict[str, Any]:
    """The JSON object a run wrote beside its table (its provenance), with ``keys`` in it.

    Raises
    ------
    FileNotFoundError
        If ``path`` is not a file.
    ValueError
        If the file is not a JSON object or lacks one of ``keys``; the message names the
        file (and the key).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "run.json"
    >>> _ = path.write_text('{"provenance": {"seed": 0}}')
    >>> read_json(path, ["provenance"])
    {'provenance': {'seed': 0}}
    >>> read_json(path, ["parameters"])
    Traceback (most recent call last):
    ...
    ValueError: JSON file '...run.json' must hold the key 'parameters', got ['provenance']
    """
    path = _input_file(path, "JSON")
    where = f"JSON file {str(path)!r}"
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise ValueError(f"{where} must hold a JSON object ({type(err).__name__}: {err})") from None
    if not isinstance(value, dict):
        raise ValueError(f"{where} must hold a JSON object, got {type(value).__name__}")
    for key in keys:
        if key not in value:
            raise ValueError(f"{where} must hold the key {key!r}, got {sorted(value)}")
    return value


def read_table(path: str | os.PathLike) -> Table:
    """Read what :func:`write_table` wrote: ``(columns, meta)``, a :class:`Table`.

    Raises
    ------
    FileNotFoundError
        If ``path`` is not a file (the message names it).
    ValueError
        If ``path`` is not a whole table of :data:`TABLE_FORMAT`: not gzip or cut short,
        another format, a header field without a known type, a row with more or fewer
        fields than the header, or a value its column's type cannot hold. The message
        names the file (and the column, and the row).

    Examples
    --------
    >>> read_table("no/such/table.csv.gz")
    Traceback (most recent call last):
    ...
    FileNotFoundError: path 'no/such/table.csv.gz' must be a table file, got no such file
    """
    path = _input_file(path, "table")
    where = f"table {str(path)!r}"
    try:
        text = gzip.decompress(path.read_bytes()).decode("utf-8")
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as err:
        raise ValueError(
            f"{where} must be a whole gzip file of UTF-8 text ({type(err).__name__}: {err})"
        ) from None
    first, _, rest = text.partition("\n")
    if not first.startswith(_MARK):
        raise ValueError(
            f"{where} must start with {_MARK.strip()!r}, got {first[:60]!r} (a record of the "
            "formats before it: python tools/migrate_records.py rewrites it)"
        )
    try:
        meta = json.loads(first[len(_MARK) :])
        if not isinstance(meta, dict):
            raise ValueError("not a JSON object")
    except ValueError as err:
        raise ValueError(f"{where}: its meta must be a JSON object ({err})") from None
    rows = list(csv.reader(io.StringIO(rest, newline="")))
    if not rows:
        raise ValueError(f"{where} must have a header line of name:type fields, got none")
    header = _header(rows[0], where)
    for i, row in enumerate(rows[1:], start=1):
        if len(row) != len(header):
            raise ValueError(
                f"{where}: row {i} must have {len(header)} fields as the header, got {len(row)}"
            )
    columns = {
        key: _column([row[j] for row in rows[1:]], dtype, key, where)
        for j, (key, dtype) in enumerate(header)
    }
    return Table(columns, meta)
