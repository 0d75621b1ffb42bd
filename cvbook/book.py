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
* :func:`check_int_parameter`, :func:`check_float_parameter`, :func:`check_choice`,
  :func:`check_int_list`, :func:`check_float_list` and :func:`check_seed` validate the
  ``parameters`` cell, in the cell right after it, so that a bad value fails at once
  with one line naming the parameter and what is allowed.
* :func:`format_pm` writes a value and its standard error (``0.0123 ± 0.0045``) with
  enough digits that the error is never shown as zero and no zero carries a minus
  sign; every table of the book prints its ``±`` through it.
* One minus sign. What the book shows a *reader* as a number -- the prose's values
  (:func:`publish`, read with ``{eval}``), the tables and result lines written with
  :func:`format_number` and :func:`format_pm` -- carries the true minus ``−`` (U+2212),
  the sign MathJax sets in the formulas beside it and matplotlib on the figures' axes;
  a hyphen ``-`` is shorter, sits lower and breaks a line after it. What a reader would
  type back into Python (a parameter's value in an error message, a repr, a record
  written for a program: ``minus="-"``) keeps the ASCII hyphen-minus.
* :func:`results_path` finds a committed record under ``results/``, wherever the
  notebook runs from.
* :func:`int_seed` draws an integer seed for a sampler or a splitter from a generator.
"""

from __future__ import annotations

import ast
import difflib
import keyword
import math
import numbers
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .validation import ArgumentTypeError, Interval, make_constraint

__all__ = [
    "MINUS",
    "N",
    "ParameterError",
    "ParameterTypeError",
    "Shown",
    "check_choice",
    "check_float_list",
    "check_float_parameter",
    "check_int_list",
    "check_int_parameter",
    "check_parameter",
    "check_parameter_names",
    "check_seed",
    "format_number",
    "format_pm",
    "int_seed",
    "publish",
    "published",
    "results_path",
    "unknown_parameters",
    "without_numpy_reprs",
]


class Shown(str):
    """A formatted number that displays as itself (no quotes), in the prose and in a cell.

    It has a ``text/plain`` representation only: that is the one MIME type which both
    renderers of ``{eval}`` show *inside* the sentence (myst-nb as an inline span,
    jupyterlab-myst as a ``<span>``). With ``text/markdown`` jupyterlab-myst renders a
    block, which breaks the line after every number.

    Examples
    --------
    >>> Shown("0.125")
    0.125
    >>> hasattr(Shown("1"), "_repr_markdown_")
    False
    """

    __slots__ = ()

    def __repr__(self) -> str:
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


#: The true minus sign (U+2212) of the numbers shown to a reader.
MINUS = "\u2212"
#: A hyphen-minus that is a number's sign: not inside a word, a name or an exponent
#: (``K-fold``, ``2012-13``, ``1e-05`` keep theirs), and followed by a digit.
_SIGN = re.compile(r"(?<![\w.)\]])-(?=\.?\d)")


def _true_minus(text: str) -> str:
    """Write the signs of the numbers in ``text`` as the true minus ``−`` (U+2212).

    Examples
    --------
    >>> _true_minus("-0.25, +1.4, -3 (K-fold, 1e-05)")
    '−0.25, +1.4, −3 (K-fold, 1e-05)'
    """
    return _SIGN.sub(MINUS, text)


def _check_minus(minus: Any) -> str:
    if minus not in (MINUS, "-"):
        raise ValueError(
            f"minus must be the true minus {MINUS!r} (text for a reader) or '-' "
            f"(text for a program), got {minus!r}"
        )
    return minus


def _no_negative_zero(text: str) -> str:
    """Drop the minus sign of a number that rounds to zero (``-0.000`` -> ``0.000``); a
    padded field keeps its width (``'   -0.00'`` -> ``'    0.00'``)."""
    core = text.strip()
    if not core.startswith("-") or any(ch in "123456789" for ch in core.split("e")[0]):
        return text
    unsigned = text.replace("-", "", 1)
    if text.startswith(" "):
        return " " + unsigned
    return unsigned + " " if text.endswith(" ") else unsigned


def _not_finite(value: float, minus: str = MINUS) -> str:
    """How the prose shows a number a run could not compute: ``n/a`` for NaN (the SE of
    one data set, a K the run did not include), ``∞`` or ``−∞`` for an infinity; never
    Python's ``nan``."""
    if math.isnan(value):
        return "n/a"
    return "∞" if value > 0 else minus + "∞"


def format_number(value: Any, fmt: str, *, minus: str = MINUS) -> str:
    """Format a real number with a format spec, never showing a negative zero.

    A negative number carries the true minus ``−`` (U+2212), as in the prose and the
    formulas, unless ``minus="-"`` asks for text a program reads back.

    Parameters
    ----------
    value : float or int
        The number (a NumPy scalar too); NaN is shown ``n/a``, an infinity ``∞``/``−∞``.
    fmt : str
        A format spec (``".3f"``, ``"+.1f"``, ``">8.2f"``, ``",d"``).
    minus : {"−", "-"}, default="−"
        The sign of a negative number: the true minus (for a reader) or the ASCII
        hyphen-minus (for a program).

    Examples
    --------
    >>> format_number(-0.00001, ".3f")
    '0.000'
    >>> format_number(-0.0123, ".3f")
    '−0.012'
    >>> format_number(-0.0123, ".3f", minus="-")
    '-0.012'
    >>> format_number(-0.0001, ">8.2f")
    '    0.00'
    >>> format_number(float("nan"), ".3f")  # a run that could not compute it
    'n/a'
    """
    minus = _check_minus(minus)
    if not isinstance(fmt, str):
        raise TypeError(f"fmt must be a format spec (str), got {type(fmt).__name__}")
    value = _plain(value)
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"value must be a real number, got {type(value).__name__}")
    if not math.isfinite(float(value)):
        return _not_finite(float(value), minus)
    try:
        text = format(value if isinstance(value, numbers.Integral) else float(value), fmt)
    except (ValueError, OverflowError) as err:
        raise ValueError(f"cannot format {value!r} with {fmt!r}: {err}") from None
    text = _no_negative_zero(text)
    return _true_minus(text) if minus == MINUS else text


def format_pm(
    value: Any, se: Any, *, digits: int = 3, sig: int = 2, scale: float = 1.0, minus: str = MINUS
) -> str:
    """Write ``value ± se`` with enough decimals that the standard error is not shown as 0.

    Both numbers get the same number of decimals: ``digits``, or more when the standard
    error is below ``10**-digits``, so that it shows ``sig`` significant digits. A zero
    never carries a minus sign. A standard error of exactly zero (identical results) is
    written ``± 0``. A negative value carries the true minus ``−`` (U+2212) unless
    ``minus="-"``. This is the one place the book formats a ``±``: every table goes
    through it.

    Parameters
    ----------
    value, se : float
        The estimate and its standard error (finite, ``se >= 0``).
    digits : int, default=3
        The fewest decimals shown.
    sig : int, default=2
        Significant digits of a standard error smaller than ``10**-digits``.
    scale : float, default=1.0
        Multiply both before formatting (100 for percentages).
    minus : {"−", "-"}, default="−"
        The sign of a negative value: the true minus (for a reader) or the ASCII
        hyphen-minus (for a program).

    Examples
    --------
    >>> format_pm(0.1234, 0.0150)
    '0.123 ± 0.015'
    >>> format_pm(-0.00002, 0.000013)
    '−0.000020 ± 0.000013'
    >>> format_pm(-0.0000001, 0.0002)
    '0.00000 ± 0.00020'
    >>> format_pm(0.0, 0.0)
    '0.000 ± 0'
    """
    minus = _check_minus(minus)
    value, se, scale = _plain(value), _plain(se), _plain(scale)
    for name, x in (("value", value), ("se", se), ("scale", scale)):
        if not isinstance(x, numbers.Real) or isinstance(x, bool):
            raise TypeError(f"{name} must be a real number, got {type(x).__name__}")
        if not math.isfinite(float(x)):
            raise ValueError(f"{name} must be finite, got {x!r}")
    if se < 0:
        raise ValueError(f"se must be >= 0, got {se!r}")
    if scale <= 0:
        raise ValueError(f"scale must be > 0 (100 for percentages), got {scale!r}")
    for name, x, lo in (("digits", digits, 0), ("sig", sig, 1)):
        if not _is_int(x) or not lo <= x <= 15:
            raise ValueError(f"{name} must be an integer in [{lo}, 15], got {x!r}")
    value, se = float(value) * float(scale), float(se) * float(scale)
    if not (math.isfinite(value) and math.isfinite(se)):
        raise ValueError(f"value and se times scale must be finite, got {value!r} ± {se!r}")
    decimals = int(digits)
    if se > 0:
        if se < 10.0**-digits:  # show `sig` significant digits of se
            decimals = min(15, max(decimals, sig - 1 - math.floor(math.log10(se))))
        se_text = f"{se:.{decimals}f}"
    else:
        se_text = "0"
    text = _no_negative_zero(f"{value:.{decimals}f}")
    return f"{_true_minus(text) if minus == MINUS else text} ± {se_text}"


_NUMPY_REPR = re.compile(r"\bnp\.(?:[a-z]+[0-9]*|str_|bool_)\(([^()]*)\)")


def without_numpy_reprs(text: str) -> str:
    """Write NumPy scalar reprs in a message as their values (``np.int64(-1)`` -> ``-1``).

    NumPy 2 prints scalars as ``np.int64(-1)``; a library's message quoted in a chapter
    (scikit-learn's ``only one class: np.int64(-1)``) reads better as the value.

    Examples
    --------
    >>> without_numpy_reprs("the data contains only one class: np.int64(-1)")
    'the data contains only one class: -1'
    >>> without_numpy_reprs("labels [np.str_('a'), np.float64(0.5)]")
    "labels ['a', 0.5]"
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return _NUMPY_REPR.sub(r"\1", text)


def _format(name: str, value: Any, fmt: str | None) -> str:
    if fmt is not None and not isinstance(fmt, str):
        raise TypeError(
            f"cannot publish {name!r}: its format must be a str such as '.3f', got {fmt!r}"
        )
    if isinstance(value, str):
        return value if fmt is None else _format_with(name, value, fmt)
    if isinstance(value, (bool, np.bool_)):
        if fmt is not None:
            raise TypeError(f"cannot publish {name!r}: a bool takes no format, got {fmt!r}")
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return _format_with(name, int(value), fmt or "d")
    if isinstance(value, numbers.Real):
        if fmt is None:
            raise TypeError(
                f"cannot publish {name!r}: the float {value!r} needs a format, "
                f"e.g. {name}=({value!r}, '.3f')"
            )
        if not math.isfinite(float(value)):
            return _not_finite(float(value))
        return _no_negative_zero(_format_with(name, float(value), fmt))
    raise TypeError(
        f"cannot publish {name!r}: a {type(value).__name__} is not a number or a string"
    )


def _format_with(name: str, value: Any, fmt: str) -> str:
    try:
        return format(value, fmt)
    except (ValueError, TypeError, OverflowError) as err:
        raise ValueError(
            f"cannot publish {name!r}: the format {fmt!r} fails on {value!r} ({err})"
        ) from None


def _plain(value: Any) -> Any:
    """A Python scalar for a NumPy scalar or 0-d array (``np.float64(0.5)`` -> ``0.5``)."""
    if isinstance(value, np.generic) or (isinstance(value, np.ndarray) and value.ndim == 0):
        return value.item()
    return value


def publish(values: Mapping[str, Any] | None = None, /, **named: Any) -> None:
    """Publish computed numbers for the prose, under chapter-prefixed names.

    Each value is a number, a string, or a pair ``(value, format_spec)``; floats need a
    format. The formatted text becomes ``N.<name>`` (shown in the prose with
    ``{eval}`N.<name>```). A negative number reads with the true minus ``−`` (U+2212),
    as MathJax writes it in the formulas around it; in a published string (a list of
    numbers a chapter wrote itself, ``"-3.0, +1.4"``) every number's sign does too,
    while the hyphens of words (``K-fold``) and exponents (``1e-05``) stay.

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
    >>> publish(doc_gap=(-0.0052, ".4f"), doc_zs="-3.0, +1.4")
    >>> N.doc_gap, N.doc_zs
    (−0.0052, −3.0, +1.4)
    """
    if values is not None and not isinstance(values, Mapping):
        raise TypeError(
            f"values must be a mapping of names to numbers, got {type(values).__name__}; "
            "nothing was published"
        )
    twice = sorted(set(values or {}) & set(named))
    if twice:
        raise ValueError(
            f"{', '.join(map(repr, twice))} given twice (in values and as a keyword); "
            "nothing was published"
        )
    items = {**(dict(values) if values is not None else {}), **named}
    # Check every item before publishing any: a failing call publishes nothing and says
    # so, naming the item at fault and the others it held back.
    shown: dict[str, Shown] = {}
    for name, item in items.items():
        try:
            if (
                not isinstance(name, str)
                or not name.isidentifier()
                or keyword.iskeyword(name)
                or name.startswith("_")
            ):
                raise ValueError(
                    "a published name must be an identifier that N.<name> can read "
                    f"(no keyword, no leading underscore), got {name!r}"
                )
            value, fmt = item if isinstance(item, tuple) and len(item) == 2 else (item, None)
            shown[name] = Shown(_true_minus(_format(name, _plain(value), fmt)))
        except (TypeError, ValueError) as err:
            others = [repr(n) for n in items if n != name]
            note = "nothing was published"
            if others:
                note = f"nothing of this call was published ({', '.join(others)} neither)"
            raise type(err)(f"{err}; {note}") from None
    for name, text in shown.items():
        N._set(name, text)


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


def clear_published() -> None:
    """Forget every published number (a kernel that runs a chapter again from the top).

    Examples
    --------
    >>> publish(doc_gone=1)
    >>> clear_published()
    >>> "doc_gone" in published()
    False
    """
    object.__getattribute__(N, "_values").clear()


# --- parameters ------------------------------------------------------------------------


class ParameterError(ValueError):
    """A value of a chapter's ``parameters`` cell that the chapter cannot use."""


class ParameterTypeError(ParameterError, ArgumentTypeError):
    """A parameter of the wrong kind (a string for a number...): also a ``TypeError``, and
    the package's :class:`~cvbook.validation.ArgumentTypeError`."""


def _short_repr(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:40] + "..." + text[-12:]


def _subject(name: str) -> str:
    """How a chapter's message names a parameter: ``parameter 'm'``."""
    return f"parameter {name!r}"


def _fail(name: str, allowed: str, value: Any, *, kind: bool = False) -> None:
    cls = ParameterTypeError if kind else ParameterError
    raise cls(f"{_subject(name)} must be {allowed}, got {_short_repr(value)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def check_parameter(value: Any, name: str, constraint: Any) -> Any:
    """Check a chapter parameter against a constraint of :mod:`cvbook.validation`.

    The constraint is the one the package declares for its own arguments
    (:class:`~cvbook.validation.Interval`, :class:`~cvbook.validation.Options`, a named
    constraint such as ``"random_state"``), checked by the same code, so that a chapter
    and the package say the same thing about the same value: the message is the
    package's, naming ``parameter 'name'``. A value of the wrong kind raises
    :class:`ParameterTypeError`, a bad value :class:`ParameterError`.

    Examples
    --------
    >>> from cvbook.validation import Interval
    >>> check_parameter(40, "m", Interval("int", 10))
    40
    >>> check_parameter(5, "m", Interval("int", 10))
    Traceback (most recent call last):
    ...
    cvbook.book.ParameterError: parameter 'm' must be >= 10, got 5
    """
    check_parameter_names()
    try:
        make_constraint(constraint).check(value, _subject(name))
    except ArgumentTypeError as err:
        raise ParameterTypeError(str(err)) from None
    except ValueError as err:
        raise ParameterError(str(err)) from None
    return value


def check_int_parameter(
    value: Any, name: str, low: int | None = None, high: int | None = None
) -> int:
    """Check that a parameter is an integer in ``[low, high]`` and return it.

    The arguments come in :func:`cvbook.validation.check_int`'s order (value, name,
    bounds), and the check is its :class:`~cvbook.validation.Interval`. A value of
    another kind (a float, a string, a bool) raises :class:`ParameterTypeError` (a
    ``TypeError`` too), an integer out of range :class:`ParameterError`.

    Examples
    --------
    >>> check_int_parameter(40, "m", low=10)
    40
    >>> check_int_parameter(-5, "m", low=10)
    Traceback (most recent call last):
    ...
    cvbook.book.ParameterError: parameter 'm' must be >= 10, got -5
    >>> check_int_parameter(4.0, "m", low=10)
    Traceback (most recent call last):
    ...
    cvbook.book.ParameterTypeError: parameter 'm' must be an integer, got 4.0
    """
    _check_range(low, high)
    return int(check_parameter(value, name, Interval("int", low, high)))


def _check_range(low: Any, high: Any) -> None:
    """The bounds a chapter gives a check: numbers (or None), not NaN, ``low <= high``."""
    for arg, bound in (("low", low), ("high", high)):
        if bound is not None and (not _is_real(bound) or math.isnan(float(bound))):
            raise TypeError(f"{arg} must be a number or None, got {bound!r}")
    if low is not None and high is not None and low > high:
        raise ValueError(f"low must be <= high, got low={low!r}, high={high!r}")


def _closed(open_low: bool, open_high: bool) -> str:
    return {(False, False): "both", (True, False): "right", (False, True): "left"}.get(
        (bool(open_low), bool(open_high)), "neither"
    )


def check_float_parameter(
    value: Any,
    name: str,
    low: float | None = None,
    high: float | None = None,
    *,
    open_low: bool = False,
    open_high: bool = False,
) -> float:
    """Check that a parameter is a finite real number in a range and return it.

    In :func:`cvbook.validation.check_float`'s order (value, name, bounds), checked by
    its :class:`~cvbook.validation.Interval`. Integers are numbers too; one too large
    for a float (``10**400``) is out of range.

    Examples
    --------
    >>> check_float_parameter(0.05, "delta", 0, 1, open_low=True, open_high=True)
    0.05
    >>> check_float_parameter("0.05", "delta", 0, 1, open_low=True, open_high=True)
    Traceback (most recent call last):
    ...
    cvbook.book.ParameterTypeError: parameter 'delta' must be a real number, got '0.05'
    >>> check_float_parameter(10**400, "scale")
    Traceback (most recent call last):
    ...
    cvbook.book.ParameterError: parameter 'scale' must be a finite number, got 1000...
    """
    _check_range(low, high)
    constraint = Interval("real", low, high, closed=_closed(open_low, open_high))
    return float(check_parameter(value, name, constraint))


def check_choice(value: Any, name: str, choices: Iterable[Any]) -> Any:
    """Check that a parameter is one of ``choices`` and return it (as a Python value).

    NumPy scalars count as the Python value they hold (``np.str_("svm")`` is ``"svm"``);
    a value of a kind none of the choices has raises :class:`ParameterTypeError`.

    Examples
    --------
    >>> check_choice("svm", "model", ["svm", "knn"])
    'svm'
    >>> check_choice(np.str_("knn"), "model", ["svm", "knn"])
    'knn'
    >>> check_choice("forest", "model", ["svm", "knn"])
    Traceback (most recent call last):
    ...
    cvbook.book.ParameterError: parameter 'model' must be one of ['svm', 'knn'], got 'forest'
    """
    check_parameter_names()
    if isinstance(choices, (str, bytes)) or not isinstance(choices, Iterable):
        raise TypeError(f"choices must be a list of allowed values, got {choices!r}")
    choices = [_plain(c) for c in choices]
    if not choices:
        raise ValueError("choices must hold at least one allowed value, got none")
    plain = _plain(value)
    if any(plain == c and type(plain) is type(c) for c in choices):
        return plain
    _fail(
        name,
        f"one of {choices!r}",
        value,
        kind=not any(type(plain) is type(c) for c in choices),
    )


def check_int_list(
    value: Any, name: str, low: int | None = None, high: int | None = None, *, min_len: int = 1
) -> list[int]:
    """Check that a parameter is a list of at least ``min_len`` integers in a range.

    Examples
    --------
    >>> check_int_list([20, 100], "test_sizes", low=1)
    [20, 100]
    >>> check_int_list([20, 0.5], "sizes", low=1)
    Traceback (most recent call last):
    ...
    cvbook.book.ParameterTypeError: parameter 'sizes' must be a list ..., got [20, 0.5]
    """
    check_parameter_names()
    allowed = f"a list of at least {min_len} " + _plural(Interval("int", low, high).description)
    _check_min_len(min_len)
    if not isinstance(value, (list, tuple)) or not all(_is_int(v) for v in value):
        _fail(name, allowed, value, kind=True)
    if len(value) < min_len or not all(
        (low is None or v >= low) and (high is None or v <= high) for v in value
    ):
        _fail(name, allowed, value)
    return [int(v) for v in value]


def _plural(description: str) -> str:
    """``"an integer in [2, 10]"`` -> ``"integers in [2, 10]"``: an Interval's words for a list."""
    for one, many in (("an integer", "integers"), ("a number", "numbers")):
        if description.startswith(one):
            return many + description[len(one) :]
    return description


def check_float_list(
    value: Any,
    name: str,
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
    >>> check_float_list([0.05, 0.2], "delta_values", 0, 1, open_low=True, open_high=True)
    [0.05, 0.2]
    """
    check_parameter_names()
    _check_min_len(min_len)
    _check_range(low, high)
    one = Interval("real", low, high, closed=_closed(open_low, open_high)).description
    allowed = f"a list of at least {min_len} " + _plural(one)
    if not isinstance(value, (list, tuple)) or not all(_is_real(v) for v in value):
        _fail(name, allowed, value, kind=True)
    if len(value) < min_len:
        _fail(name, allowed, value)
    out = []
    for v in value:
        try:
            out.append(
                check_float_parameter(v, name, low, high, open_low=open_low, open_high=open_high)
            )
        except ParameterError:
            _fail(name, allowed, value)
    return out


def _check_min_len(min_len: Any) -> None:
    if not _is_int(min_len) or min_len < 0:
        raise ValueError(f"min_len must be an integer >= 0, got {min_len!r}")


def check_seed(value: Any, name: str) -> int:
    """Check that a seed parameter is an integer in ``[0, 2**32)`` (any such value works).

    The range is the one every ``random_state`` of the package (and of scikit-learn)
    accepts as an int.

    Examples
    --------
    >>> check_seed(20261122, "seed")
    20261122
    """
    return check_int_parameter(value, name, low=0, high=2**32 - 1)


#: The comment papermill writes at the top of the cell it injects (its Python translator).
_INJECTED_HEADER = "# Parameters\n"


def _assigned_names(source: str) -> list[str]:
    """The names a cell assigns at top level, in order (``a = 1``, ``a: int = 1``)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    names: list[str] = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        names += [t.id for t in targets if isinstance(t, ast.Name) and t.id not in names]
    return names


def unknown_parameters(parameters_source: str, injected_source: str) -> tuple[list, list]:
    """The names papermill injected that the ``parameters`` cell does not define.

    Returns ``(unknown, known)``: the injected names the chapter does not have, and the
    chapter's parameters.

    Examples
    --------
    >>> unknown_parameters("m = 40\\nseed = 1\\n", "# Parameters\\nn_sample = 500\\n")
    (['n_sample'], ['m', 'seed'])
    """
    for arg, source in (
        ("parameters_source", parameters_source),
        ("injected_source", injected_source),
    ):
        if not isinstance(source, str):
            raise TypeError(f"{arg} must be a cell's source (str), got {type(source).__name__}")
        try:
            ast.parse(source)
        except SyntaxError as err:
            raise ValueError(f"{arg} is not valid Python: {err.msg} (line {err.lineno})") from None
    known = _assigned_names(parameters_source)
    return [n for n in _assigned_names(injected_source) if n not in known], known


def check_parameter_names() -> None:
    """Fail when papermill injected a parameter the chapter does not have (a misspelt name).

    Papermill injects its ``-p name value`` pairs in a cell tagged ``injected-parameters``
    right after the ``parameters`` cell, and only warns about a name the chapter does not
    define: a misspelt ``-p n_sample 500`` would run the whole default chapter. Every
    ``check_*`` function of this module calls this first, so the check cell right after
    the parameters fails at once, naming the unknown parameter and listing the
    chapter's. It reads the two cells from IPython's input history (``In``) and does
    nothing outside a kernel, or when the current cell does not follow an injected one.

    Examples
    --------
    >>> check_parameter_names()  # outside a papermill run: nothing to check
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with every kernel
        return
    shell = get_ipython()
    history = getattr(shell, "user_ns", {}).get("In") if shell is not None else None
    if not isinstance(history, list) or len(history) < 3:
        return
    injected, parameters = history[-2], history[-3]
    if not isinstance(injected, str) or not injected.startswith(_INJECTED_HEADER):
        return
    unknown, known = unknown_parameters(str(parameters), injected)
    if unknown:
        raise ParameterError(_unknown_message(unknown, known))


def _unknown_message(unknown: list[str], known: list[str]) -> str:
    parts = []
    for name in unknown:
        close = difflib.get_close_matches(name, known, n=1)
        parts.append(f"{name!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    plural = "s" if len(unknown) > 1 else ""
    return (
        f"unknown parameter{plural} {', '.join(parts)}: this chapter's parameters are "
        + ", ".join(known)
    )


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
    if not parts:
        raise ValueError("parts must name a record inside results/, got none")
    for part in parts:
        if not isinstance(part, str) or not part:
            raise TypeError(f"parts must be non-empty strings, got {part!r}")
        if Path(part).is_absolute() or ".." in Path(part).parts:
            raise ValueError(
                f"parts must stay inside results/ (no absolute path, no '..'), got {part!r}"
            )
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
