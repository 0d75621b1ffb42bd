"""The chapters' scaffolding: numbers for the prose, parameter checks, committed records.

Every chapter of the book is read three ways: as a web page (jupyter-book), run in
JupyterLab, and re-run with new parameters by papermill. This module holds what the
chapters share so that each reads the same in all three:

* :func:`publish` gives a computed number a name. The prose shows it with the
  ``{eval}`` role, ``` {eval}`N.ch1_test_error` ```, which myst-nb evaluates when it
  builds the website and jupyterlab-myst evaluates in JupyterLab after "Run All".
  :func:`published` lists them (the papermill test compares runs with it). Nothing is
  glued: glue roles show as raw text in JupyterLab, and myst-nb's inline execution
  reports every glued key of an executed notebook twice.
* :func:`check_int`, :func:`check_float`, :func:`check_choice`, :func:`check_int_list`,
  :func:`check_float_list` and :func:`check_seed` validate the ``parameters`` cell, in
  the cell right after it, so that a bad value fails at once with one line naming the
  parameter and what is allowed.
* :func:`results_path` finds a committed record under ``results/``, wherever the
  notebook runs from.
* :func:`int_seed` draws an integer seed for a sampler or a splitter from a generator.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "N",
    "ParameterError",
    "Shown",
    "check_choice",
    "check_float",
    "check_float_list",
    "check_int",
    "check_int_list",
    "check_seed",
    "int_seed",
    "publish",
    "published",
    "results_path",
]


class Shown(str):
    """A formatted number that displays as itself (no quotes), in the prose and in a cell.

    Examples
    --------
    >>> Shown("0.125")
    0.125
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)

    def _repr_markdown_(self) -> str:
        return str(self)


class Numbers:
    """The numbers a chapter has published, as attributes (``N.ch1_test_error``).

    Reading a name that was never published raises ``AttributeError`` naming it, so a
    typo in the prose fails the build instead of printing nothing.
    """

    def __init__(self) -> None:
        object.__setattr__(self, "_values", {})

    def __getattr__(self, name: str) -> Shown:
        values = object.__getattribute__(self, "_values")
        try:
            return values[name]
        except KeyError:
            raise AttributeError(
                f"no number named {name!r} was published; call cvbook.book.publish first"
            ) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("publish numbers with cvbook.book.publish(...)")

    def __dir__(self) -> list[str]:
        return sorted(object.__getattribute__(self, "_values"))

    def _set(self, name: str, value: Shown) -> None:
        object.__getattribute__(self, "_values")[name] = value


#: The published numbers of the running notebook (one kernel runs one chapter).
N = Numbers()


def _format(value: Any, fmt: str | None) -> str:
    if isinstance(value, str):
        return value if fmt is None else format(value, fmt)
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return format(int(value), fmt or "d")
    if isinstance(value, numbers.Real):
        if fmt is None:
            raise TypeError(f"give a format for the float {value!r}, e.g. (value, '.3f')")
        return format(float(value), fmt)
    raise TypeError(f"cannot publish a {type(value).__name__}; give a number or a string")


def _plain(value: Any) -> Any:
    """A Python scalar for glue (myst-nb renders numpy scalars with their type name)."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def publish(values: Mapping[str, Any] | None = None, /, **named: Any) -> None:
    """Publish computed numbers for the prose, under chapter-prefixed names.

    Each value is a number, a string, or a pair ``(value, format_spec)``; floats need a
    format. The formatted text becomes ``N.<name>`` (shown in the prose with
    ``{eval}`N.<name>```).

    Parameters
    ----------
    values : mapping, optional
        Names to values (or ``(value, format)`` pairs).
    **named
        More names and values.

    Examples
    --------
    >>> publish({"doc_risk": (0.1234, ".3f")}, doc_m=40)
    >>> N.doc_risk, N.doc_m
    (0.123, 40)
    """
    items = {**(dict(values) if values is not None else {}), **named}
    for name, item in items.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"a published name must be an identifier, got {name!r}")
        value, fmt = item if isinstance(item, tuple) and len(item) == 2 else (item, None)
        if fmt is not None and not isinstance(fmt, str):
            raise TypeError(f"the format of {name!r} must be a str, got {fmt!r}")
        N._set(name, Shown(_format(_plain(value), fmt)))


def published() -> dict[str, str]:
    """Every number published so far, name -> the text the prose shows.

    Examples
    --------
    >>> publish(doc_k=3)
    >>> published()["doc_k"]
    '3'
    """
    values = object.__getattribute__(N, "_values")
    return {name: str(text) for name, text in values.items()}


# --- parameters ------------------------------------------------------------------------


class ParameterError(ValueError):
    """A value of a chapter's ``parameters`` cell that the chapter cannot use."""


def _fail(name: str, allowed: str, value: Any) -> None:
    raise ParameterError(f"parameter {name!r} must be {allowed}; got {value!r}")


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def check_int(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """Check that a parameter is an integer in ``[low, high]`` and return it.

    Examples
    --------
    >>> check_int("m", 40, low=10)
    40
    >>> check_int("m", -5, low=10)
    Traceback (most recent call last):
    ...
    cvbook.book.ParameterError: parameter 'm' must be an integer >= 10; got -5
    """
    allowed = "an integer" + _range_text(low, high)
    if (
        not _is_int(value)
        or (low is not None and value < low)
        or (high is not None and value > high)
    ):
        _fail(name, allowed, value)
    return int(value)


def check_float(
    name: str,
    value: Any,
    low: float | None = None,
    high: float | None = None,
    *,
    open_low: bool = False,
    open_high: bool = False,
) -> float:
    """Check that a parameter is a finite real number in a range and return it.

    Examples
    --------
    >>> check_float("delta", 0.05, 0, 1, open_low=True, open_high=True)
    0.05
    >>> check_float("delta", "0.05", 0, 1, open_low=True, open_high=True)
    Traceback (most recent call last):
    ...
    cvbook.book.ParameterError: parameter 'delta' must be a number in (0, 1); got '0.05'
    """
    lo = "" if low is None else ("(" if open_low else "[") + f"{low:g}"
    hi = "" if high is None else f"{high:g}" + (")" if open_high else "]")
    if low is not None and high is not None:
        allowed = f"a number in {lo}, {hi}"
    elif low is not None:
        allowed = f"a number {'>' if open_low else '>='} {low:g}"
    elif high is not None:
        allowed = f"a number {'<' if open_high else '<='} {high:g}"
    else:
        allowed = "a finite number"
    ok = isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
    ok = ok and math.isfinite(float(value))
    if ok and low is not None:
        ok = value > low if open_low else value >= low
    if ok and high is not None:
        ok = value < high if open_high else value <= high
    if not ok:
        _fail(name, allowed, value)
    return float(value)


def check_choice(name: str, value: Any, choices: Iterable[Any]) -> Any:
    """Check that a parameter is one of ``choices`` and return it.

    Examples
    --------
    >>> check_choice("model", "svm", ["svm", "knn"])
    'svm'
    >>> check_choice("model", "forest", ["svm", "knn"])
    Traceback (most recent call last):
    ...
    cvbook.book.ParameterError: parameter 'model' must be one of ['svm', 'knn']; got 'forest'
    """
    choices = list(choices)
    if not any(value == c and type(value) is type(c) for c in choices):
        _fail(name, f"one of {choices!r}", value)
    return value


def check_int_list(
    name: str, value: Any, low: int | None = None, high: int | None = None, *, min_len: int = 1
) -> list[int]:
    """Check that a parameter is a list of at least ``min_len`` integers in a range.

    Examples
    --------
    >>> check_int_list("test_sizes", [20, 100], low=1)
    [20, 100]
    >>> check_int_list("sizes", [20, 0.5], low=1)
    Traceback (most recent call last):
    ...
    cvbook.book.ParameterError: parameter 'sizes' must be a list of at least 1 integers >= 1; ...
    """
    allowed = f"a list of at least {min_len} integers" + _range_text(low, high)
    if (
        not isinstance(value, (list, tuple))
        or len(value) < min_len
        or not all(
            _is_int(v) and (low is None or v >= low) and (high is None or v <= high) for v in value
        )
    ):
        _fail(name, allowed, value)
    return [int(v) for v in value]


def check_float_list(
    name: str,
    value: Any,
    low: float | None = None,
    high: float | None = None,
    *,
    open_low: bool = False,
    open_high: bool = False,
    min_len: int = 1,
) -> list[float]:
    """Check that a parameter is a list of at least ``min_len`` numbers in a range.

    Examples
    --------
    >>> check_float_list("delta_values", [0.05, 0.2], 0, 1, open_low=True, open_high=True)
    [0.05, 0.2]
    """
    if not isinstance(value, (list, tuple)) or len(value) < min_len:
        _fail(name, f"a list of at least {min_len} numbers", value)
    out = []
    for v in value:
        try:
            out.append(check_float(name, v, low, high, open_low=open_low, open_high=open_high))
        except ParameterError as err:
            _fail(
                name,
                "a list of "
                + str(err).split(" must be ", 1)[1].split(";")[0].replace("a number", "numbers"),
                value,
            )
    return out


def check_seed(name: str, value: Any) -> int:
    """Check that a seed parameter is a non-negative integer (any such value works).

    Examples
    --------
    >>> check_seed("seed", 20261122)
    20261122
    """
    return check_int(name, value, low=0, high=2**63 - 1)


def _range_text(low: Any, high: Any) -> str:
    if low is not None and high is not None:
        return f" in [{low}, {high}]"
    if low is not None:
        return f" >= {low}"
    if high is not None:
        return f" <= {high}"
    return ""


# --- records and seeds ------------------------------------------------------------------


def results_path(*parts: str) -> Path:
    """The path of a committed record under the repository's ``results/`` folder.

    The folder is looked for above the working directory (a notebook runs in
    ``chapters/``), then beside the installed package (an editable install).

    Parameters
    ----------
    *parts : str
        The path inside ``results/``, e.g. ``"benchmarks", "loo_timings.json"``.

    Examples
    --------
    >>> results_path("table1", "table1.csv").name
    'table1.csv'
    """
    starts = [Path.cwd(), *Path.cwd().parents, Path(__file__).resolve().parents[1]]
    for base in starts:
        candidate = base / "results"
        if (candidate / "README.md").is_file() or (candidate / "table1").is_dir():
            path = candidate.joinpath(*parts)
            if not path.exists():
                raise FileNotFoundError(f"no committed record at {path}")
            return path
    raise FileNotFoundError("cannot find the repository's results/ folder")


def int_seed(rng: np.random.Generator) -> int:
    """Draw an integer seed (for a sampler or a scikit-learn splitter) from a generator.

    Examples
    --------
    >>> int_seed(np.random.default_rng(0)) == int_seed(np.random.default_rng(0))
    True
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return int(rng.integers(2**31 - 1))
