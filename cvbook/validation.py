"""Argument checks shared by every module.

Each check raises an error whose message names the parameter and says what is
allowed, so that a reader who passes ``delta=1.5`` learns at once which
argument is wrong and why -- never a deep numpy, scipy or libsvm traceback,
and never a silent wrong answer.

Two kinds of error are raised:

* :class:`ValueError` -- the argument has an acceptable type but a bad value
  (``delta=1.5``, ``n_splits=1``, a NaN in ``X``);
* :class:`ArgumentTypeError` -- the argument has the wrong type (``delta="0.05"``,
  ``k=3.7``, complex ``X``). It subclasses both :class:`TypeError` (scikit-learn
  raises ``TypeError`` for a wrong type) and :class:`ValueError` (so that
  ``except ValueError`` still catches every bad argument).

Every message has one form, ``"<name> must <what is allowed>, got <value>"``.

Seeds follow one rule, :func:`check_random_state` (see CONTRIBUTING.md, "Seeds").

A public function declares what it accepts once, with :func:`validate_params`
(modelled on scikit-learn's): constraints such as :class:`Interval`,
:class:`Options` and the named ones of :data:`NAMED_CONSTRAINTS` (``"estimator"``,
``"random_state"``, ``"n_jobs"``, ``"alpha"``, ``"boolean"``...), made of the
``check_*`` functions below. The arguments are checked at the outer public call;
nested calls of decorated functions skip their checks, so each argument is checked
once per public call. Checks that need the data (``n_splits <= m``, a test size
against ``n``) stay in the body, through these functions. The chapters' parameter
checks (:mod:`cvbook.book`) use the same constraints, in the same argument order.

The module is ordered by kind: scalars, arrays and labels, data, splits,
estimators/workers/seeds, paths, then the declared constraints.
"""

from __future__ import annotations

import contextvars
import numbers
import os
import warnings
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

__all__ = [
    "MAX_N_JOBS",
    "NAMED_CONSTRAINTS",
    "ArgumentTypeError",
    "Constraint",
    "Interval",
    "Options",
    "as_random_state",
    "check_1d_labels",
    "check_alpha",
    "check_binary_labels",
    "check_bool",
    "check_broadcast",
    "check_cv",
    "check_data",
    "check_distribution",
    "check_estimator_arg",
    "check_features",
    "check_finite",
    "check_finite_values",
    "check_float",
    "check_halvings",
    "check_index_array",
    "check_input_folder",
    "check_int",
    "check_integer_array",
    "check_keys",
    "check_label_pair",
    "check_label_types",
    "check_model",
    "check_n_jobs",
    "check_n_splits",
    "check_n_splits_bound",
    "check_not_complex",
    "check_open_unit",
    "check_option",
    "check_output_path",
    "check_param",
    "check_predicted_labels",
    "check_random_state",
    "check_rng",
    "check_same_length",
    "check_splitter_seed",
    "check_target_for_loss",
    "check_test_count",
    "check_test_count_bound",
    "check_test_fraction",
    "check_test_size",
    "check_train_test_splits",
    "inside_checked_call",
    "make_constraint",
    "name_options",
    "validate_params",
]


# --------------------------------------------------------------------------- #
# Errors and helpers


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong type (a ``TypeError`` that is also a ``ValueError``)."""


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_string(value: Any) -> bool:
    return isinstance(value, (str, bytes, np.str_, np.bytes_))


def _as_array(value: Any, name: str) -> np.ndarray:
    """``np.asarray`` that refuses sparse matrices and ragged input by name."""
    if hasattr(value, "toarray") and hasattr(value, "nnz"):
        raise ArgumentTypeError(
            f"{name} must be a dense array, got a sparse matrix; convert it with "
            f"{name}.toarray() if it fits in memory"
        )
    try:
        return np.asarray(value)
    except ValueError as err:  # ragged nested sequences
        raise ValueError(f"{name} must be a rectangular array: {err}") from None


def name_options(message: str, options: dict[str, str]) -> str:
    """``message`` with each parameter name (a whole word) replaced by its command-line
    option, so that a driver's error names what the user typed.

    Examples
    --------
    >>> name_options("random_state must be >= 0, got -1", {"random_state": "--seed"})
    '--seed must be >= 0, got -1'
    """
    import re

    for param, option in options.items():
        message = re.sub(rf"(?<![\w-]){re.escape(param)}(?![\w-])", option, message)
    return message


# --------------------------------------------------------------------------- #
# Scalars: numbers, flags, options


def check_int(value: Any, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as an ``int`` in ``[minimum, maximum]`` (bounds optional).

    Only integer types pass (``int``, numpy integers): ``3.7``, ``3.0``,
    ``'35'``, ``inf`` and ``True`` are refused, never truncated or parsed.

    Examples
    --------
    >>> check_int(3, "k", minimum=2)
    3
    >>> check_int(3.7, "k")
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: k must be an integer, got 3.7
    """
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iu":
        value = value.item()  # a 0-d integer array is the integer it holds
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ArgumentTypeError(f"{name} must be an integer, got {_describe(value)}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {_describe(value)}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {_describe(value)}")
    return value


def check_float(
    value: Any,
    name: str,
    minimum: float | None = None,
    maximum: float | None = None,
    *,
    allow_inf: bool = False,
    exclusive: bool = False,
) -> float:
    """Return ``value`` as a Python ``float``: a real scalar in ``[minimum, maximum]``.

    Strings, lists, arrays with more than one entry, booleans, complex numbers
    and NaN are refused (infinity too unless ``allow_inf``). With
    ``exclusive=True`` the bounds themselves are refused.

    Examples
    --------
    >>> check_float(1, "alpha", minimum=0)
    1.0
    >>> check_float("0.05", "delta")
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: delta must be a real number, got '0.05'
    """
    if (
        _is_string(value)
        or isinstance(value, (bool, np.bool_))
        or not isinstance(value, (numbers.Real, np.ndarray))
    ):
        raise ArgumentTypeError(f"{name} must be a real number, got {_describe(value)}")
    if isinstance(value, np.ndarray) and (
        value.ndim != 0
        or not np.issubdtype(value.dtype, np.number)
        or np.iscomplexobj(value)
        or value.dtype == bool
    ):
        raise ArgumentTypeError(f"{name} must be a real number, got {_describe(value)}")
    try:
        value = float(value)
    except OverflowError:  # an int too large for a float (10**400)
        raise ValueError(f"{name} must be a finite number, got {_describe(value)}") from None
    if np.isnan(value) or (np.isinf(value) and not allow_inf):
        raise ValueError(f"{name} must be a finite number, got {value}")
    if minimum is not None and (value < minimum or (exclusive and value == minimum)):
        raise ValueError(f"{name} must be {'>' if exclusive else '>='} {minimum}, got {value}")
    if maximum is not None and (value > maximum or (exclusive and value == maximum)):
        raise ValueError(f"{name} must be {'<' if exclusive else '<='} {maximum}, got {value}")
    return value


def check_open_unit(value: Any, name: str, *, scalar: bool = False) -> Any:
    """Return ``value`` with every entry strictly inside (0, 1).

    A float array (any shape, so that bounds broadcast over several deltas),
    or a Python ``float`` when ``scalar=True``, which refuses lists and arrays.

    Examples
    --------
    >>> check_open_unit(0.05, "delta", scalar=True)
    0.05
    >>> check_open_unit([0.05, 0.1], "delta", scalar=True)
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: delta must be a real number, got [0.05, 0.1]
    """
    if scalar:
        out = check_float(value, name)
        if not 0.0 < out < 1.0:
            raise ValueError(f"{name} must lie strictly between 0 and 1, got {_describe(value)}")
        return out
    if _is_string(value):
        raise ArgumentTypeError(
            f"{name} must be a number strictly between 0 and 1, got {_describe(value)}"
        )
    arr = _numeric_array(value, name).astype(float)
    if not np.all(np.isfinite(arr)) or np.any(arr <= 0) or np.any(arr >= 1):
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {_describe(value)}")
    return arr


def check_alpha(alpha: Any, name: str = "alpha") -> float:
    """A miscoverage level strictly between 0 and 1, as a float.

    Examples
    --------
    >>> check_alpha(0.05)
    0.05
    """
    return float(check_open_unit(alpha, name, scalar=True))


def check_bool(value: Any, name: str) -> bool:
    """Return ``value`` as a ``bool``; only ``True``/``False`` (numpy's too) pass.

    Examples
    --------
    >>> check_bool(np.True_, "progress")
    True
    """
    if not isinstance(value, (bool, np.bool_)):
        raise ArgumentTypeError(f"{name} must be True or False, got {_describe(value)}")
    return bool(value)


def check_option(value: Any, name: str, options: Iterable[str]) -> str:
    """``value`` if it is one of the strings ``options``; a named ``ValueError`` otherwise.

    Examples
    --------
    >>> check_option("zero_one", "loss", ("zero_one", "squared"))
    'zero_one'
    """
    options = list(options)
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {options}, got {value!r}")
    return value


# --------------------------------------------------------------------------- #
# Arrays and labels


def check_not_complex(value: Any, name: str) -> np.ndarray:
    """Return ``value`` as an array; refuse complex numbers (never drop the imaginary part).

    Examples
    --------
    >>> check_not_complex([1, 2], "X")
    array([1, 2])
    >>> check_not_complex([1 + 2j], "X")
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: X must be real, got complex values
    """
    arr = _as_array(value, name)
    if np.iscomplexobj(arr) or (
        arr.dtype == object and any(isinstance(v, complex) for v in arr.ravel())
    ):
        raise ArgumentTypeError(f"{name} must be real, got complex values")
    return arr


def _numeric_array(value: Any, name: str, what: str = "numbers") -> np.ndarray:
    """A real, non-boolean numeric array, or a named error."""
    arr = check_not_complex(value, name)
    if arr.dtype == bool:
        raise ArgumentTypeError(f"{name} must hold {what}, got booleans")
    if arr.dtype == object:
        try:
            arr = arr.astype(float)
        except (TypeError, ValueError):
            raise ArgumentTypeError(
                f"{name} must hold {what}, got objects such as {_describe(arr.ravel()[:3])}"
            ) from None
    if not np.issubdtype(arr.dtype, np.number):
        raise ArgumentTypeError(f"{name} must hold {what}, got dtype {arr.dtype}")
    return arr


def check_integer_array(
    value: Any, name: str, *, minimum: int | None = None, ndim: int | None = None
) -> np.ndarray:
    """Return ``value`` as an int64 array of integral values.

    Floats with integral values (``2.0``) are accepted; ``3.7``, NaN, inf,
    strings (``'35'``), booleans and complex numbers are refused.

    Examples
    --------
    >>> check_integer_array([3, 5.0], "k_values")
    array([3, 5])
    >>> check_integer_array(["35"], "k_values")
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: k_values must hold integers, got dtype <U2
    """
    if _is_string(value):
        raise ArgumentTypeError(f"{name} must hold integers, got the string {_describe(value)}")
    arr = _numeric_array(value, name, what="integers")
    if (
        isinstance(value, (list, tuple))
        and arr.size
        and any(isinstance(v, (bool, np.bool_)) for v in np.asarray(value, dtype=object).ravel())
    ):
        raise ArgumentTypeError(f"{name} must hold integers, got booleans in {_describe(value)}")
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must hold finite integers, got NaN or infinity")
        if np.any(arr != np.round(arr)):
            raise ValueError(f"{name} must hold integers, got {_describe(value)}")
        if arr.size and np.max(np.abs(arr)) >= 2**63:
            raise ValueError(f"{name} must hold integers below 2**63, got {_describe(value)}")
    arr = arr.astype(np.int64)
    if minimum is not None and arr.size and arr.min() < minimum:
        raise ValueError(f"{name} must hold integers >= {minimum}, got {int(arr.min())}")
    return arr


def check_finite(value: Any, name: str) -> np.ndarray:
    """Return ``value`` as a float array with no NaN, infinite or complex entry.

    Examples
    --------
    >>> check_finite([1, 2], "X")
    array([1., 2.])
    """
    if _is_string(value):
        raise ArgumentTypeError(f"{name} must hold numbers, got the string {_describe(value)}")
    arr = _numeric_array(value, name).astype(float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite: it holds NaN or infinite values")
    return arr


def check_finite_values(
    value: Any, name: str, *, ndim: int | None = None, min_size: int = 1
) -> np.ndarray:
    """A finite float array (:func:`check_finite`) with ``ndim`` dimensions and at
    least ``min_size`` entries; a ``(n, 1)`` column is flattened with a warning
    when ``ndim=1``.

    Examples
    --------
    >>> check_finite_values([0.1, 0.2], "split_means", ndim=1, min_size=2).tolist()
    [0.1, 0.2]
    >>> check_finite_values([0.1, float("nan")], "split_means", ndim=1)
    Traceback (most recent call last):
    ...
    ValueError: split_means must be finite: it holds NaN or infinite values
    """
    if ndim == 1:
        arr = check_not_complex(value, name)
        if arr.ndim == 2 and arr.shape[1] == 1:
            from sklearn.exceptions import DataConversionWarning

            warnings.warn(
                f"{name} is a column vector of shape {arr.shape}; it was flattened to "
                f"shape ({arr.shape[0]},). Pass a 1-d array.",
                DataConversionWarning,
                stacklevel=3,
            )
            value = arr.ravel()
    arr = check_finite(value, name)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if arr.size < min_size:
        raise ValueError(f"{name} must hold at least {min_size} value(s), got {arr.size}")
    return arr


def check_broadcast(*named_arrays: tuple[str, Any]) -> tuple[int, ...]:
    """The common shape of arrays that must broadcast together, or a named error.

    Examples
    --------
    >>> check_broadcast(("n_errors", [1, 2]), ("n", 10))
    (2,)
    >>> check_broadcast(("n_errors", [1, 2]), ("n", [10, 20, 30]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: n_errors and n must have the same length or one of them be a scalar: ...
    """
    shapes = {name: np.shape(arr) for name, arr in named_arrays}
    try:
        return tuple(np.broadcast_shapes(*shapes.values()))
    except ValueError:
        names = list(shapes)
        joined = " and ".join(names) if len(names) == 2 else ", ".join(names)
        described = ", ".join(f"{n} has shape {s}" for n, s in shapes.items())
        raise ValueError(
            f"{joined} must have the same length or one of them be a scalar: {described}"
        ) from None


def check_same_length(*named_arrays: tuple[str, Any]) -> int:
    """Check that arrays share their first dimension; return that length.

    Examples
    --------
    >>> check_same_length(("X", [[1], [2]]), ("y", [0, 1]))
    2
    """
    lengths = {name: len(arr) for name, arr in named_arrays}
    if len(set(lengths.values())) > 1:
        described = ", ".join(f"{n} has {k}" for n, k in lengths.items())
        raise ValueError(f"arrays must have the same length: {described}")
    return next(iter(lengths.values()))


def check_index_array(
    value: Any,
    name: str,
    n_samples: int | None = None,
    *,
    allow_empty: bool = False,
    unique: bool = True,
) -> np.ndarray:
    """An index array: 1-d, integer dtype (no float, bool or string), ``>= 0``,
    ``< n_samples`` if given, non-empty unless ``allow_empty``, no repeat if ``unique``.

    Examples
    --------
    >>> check_index_array([0, 2], "train", 3).tolist()
    [0, 2]
    >>> check_index_array([0.5], "train", 3)
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: train must hold integer indices, got dtype float64
    """
    if _is_string(value):
        raise ArgumentTypeError(f"{name} must hold integer indices, got a string")
    arr = check_not_complex(value, name)
    if arr.dtype == object and arr.size:
        converted = np.array(arr.tolist(), dtype=object)
        if all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in arr.ravel()):
            converted = np.array(arr.tolist(), dtype=np.int64)
        arr = converted
    if arr.size == 0 and arr.dtype.kind not in "iu":
        arr = arr.astype(np.int64)  # [] is float64 for numpy
    if arr.dtype.kind not in "iu":
        raise ArgumentTypeError(f"{name} must hold integer indices, got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array of indices, got shape {arr.shape}")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name} must hold at least one index, got none")
    if arr.size and arr.min() < 0:
        raise ValueError(f"{name} must hold indices >= 0 (no wrap-around), got {int(arr.min())}")
    if n_samples is not None and arr.size and arr.max() >= n_samples:
        raise ValueError(
            f"{name} holds index {int(arr.max())}, out of range for {n_samples} samples "
            f"(indices run from 0 to {n_samples - 1})"
        )
    if unique and np.unique(arr).size != arr.size:
        raise ValueError(f"{name} must not repeat an index")
    return arr.astype(np.int64)


def check_1d_labels(y: Any, name: str = "y", *, allow_empty: bool = False) -> np.ndarray:
    """Return labels as a 1-d array, following scikit-learn's ``column_or_1d``.

    A column vector of shape ``(n, 1)`` is flattened with a
    :class:`sklearn.exceptions.DataConversionWarning` (it would otherwise
    broadcast against a 1-d array into an ``(n, n)`` matrix); any other 2-d
    shape, a scalar, complex values and NaN/inf in float labels are refused.
    The dtype is kept (labels may be strings).

    Examples
    --------
    >>> check_1d_labels([1, -1, 1])
    array([ 1, -1,  1])
    >>> check_1d_labels([[1, 2], [3, 4]], "y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true must be one-dimensional (shape (n,)), got shape (2, 2)
    """
    from sklearn.exceptions import DataConversionWarning

    arr = check_not_complex(y, name)
    if arr.ndim == 2 and arr.shape[1] == 1:
        warnings.warn(
            f"{name} is a column vector of shape {arr.shape}; it was flattened to shape "
            f"({arr.shape[0]},). Pass a 1-d array, for example with {name}.ravel().",
            DataConversionWarning,
            stacklevel=3,
        )
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional (shape (n,)), got shape {arr.shape}")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name} must hold at least one label, got an empty array")
    if np.issubdtype(arr.dtype, np.floating) and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite: it holds NaN or infinite values")
    if arr.dtype == object:
        flat = [v for v in arr if isinstance(v, float)]
        if flat and not np.all(np.isfinite(flat)):
            raise ValueError(f"{name} must be finite: it holds NaN or infinite values")
    return arr


def check_binary_labels(y: Any, name: str = "y") -> np.ndarray:
    """Return ``y`` as a 1-d array that holds at most two distinct labels.

    A 0-1 loss bound counts errors of a binary classifier; a third label means
    the caller has a multi-class problem, for which the bound does not apply.
    The shape rules are those of :func:`check_1d_labels`.

    Examples
    --------
    >>> check_binary_labels([-1, 1, 1])
    array([-1,  1,  1])
    """
    arr = check_1d_labels(y, name, allow_empty=True)
    labels = np.unique(arr)
    if labels.size > 2:
        raise ValueError(
            f"{name} must be binary (two classes, e.g. -1/+1 or 0/1), "
            f"got {labels.size} distinct labels: {labels[:5].tolist()}"
            + ("..." if labels.size > 5 else "")
        )
    return arr


def check_label_types(y: np.ndarray, name: str = "y") -> np.ndarray:
    """Refuse labels that mix types (``[1, "a"]``): they cannot be sorted or compared.

    Examples
    --------
    >>> check_label_types(np.array([1, "a"], dtype=object), "y")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: y must hold labels of one type (...), got int and str
    """
    arr = np.asarray(y)
    if arr.dtype == object and arr.size:
        kinds = {
            "str" if isinstance(v, (str, np.str_)) else type(v).__name__
            for v in arr.ravel().tolist()
        }
        numeric = {k for k in kinds if k in ("int", "float", "bool")}
        if len(kinds - numeric) + (1 if numeric else 0) > 1:
            raise ArgumentTypeError(
                f"{name} must hold labels of one type (all numbers or all strings), "
                f"got {' and '.join(sorted(kinds))}"
            )
    return arr


def _target_kind(y: np.ndarray) -> str:
    from sklearn.utils.multiclass import type_of_target

    try:
        return type_of_target(y)
    except ValueError:
        return "unknown"


def _fast_target_kind(y: np.ndarray) -> str:
    """``type_of_target``'s answer to "labels or continuous?" for a 1-d array, without its
    cost (about 0.5 ms a call, which the 0-1 loss of every fold would pay): integers and
    booleans are labels, floats are labels when every value is a whole number, NaN or
    infinity make the target ``unknown``; other dtypes ask scikit-learn."""
    if y.dtype.kind in "iub":
        return "multiclass"
    if y.dtype.kind == "f":
        if not np.all(np.isfinite(y)):
            return "unknown"
        return "multiclass" if np.all(y == np.round(y)) else "continuous"
    return _target_kind(y)


def check_target_for_loss(y: Any, loss: str, name: str = "y") -> np.ndarray:
    """1-d labels or responses that fit ``loss``, judged by scikit-learn's ``type_of_target``.

    ``loss="zero_one"`` needs class labels (``binary`` or ``multiclass``): a
    continuous target would count nearly every point as an error.
    ``loss="squared"`` needs numbers. Column vectors are flattened with a
    ``DataConversionWarning`` (:func:`check_1d_labels`).

    Examples
    --------
    >>> check_target_for_loss([0, 1, 1], "zero_one").tolist()
    [0, 1, 1]
    >>> check_target_for_loss([0.5, 1.7, 2.2], "zero_one")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: y must hold class labels for loss='zero_one', got a continuous target ...
    """
    arr = check_1d_labels(y, name)
    check_label_types(arr, name)
    kind = _fast_target_kind(arr) if loss == "zero_one" else _target_kind(arr)
    if loss == "zero_one":
        if kind not in ("binary", "multiclass"):
            what = "a continuous target" if kind.startswith("continuous") else f"a {kind} target"
            raise ValueError(
                f"{name} must hold class labels for loss='zero_one', got {what} "
                f"(type_of_target: {kind!r}); use loss='squared' for a regression target"
            )
    elif loss == "squared" and (arr.dtype.kind not in "iuf" or arr.dtype == bool):
        raise ValueError(
            f"{name} must hold numbers for loss='squared', got dtype {arr.dtype}; "
            "use loss='zero_one' for class labels"
        )
    return arr


def check_predicted_labels(
    pred: Any, name: str, n: int | None = None, *, like: np.ndarray | None = None
) -> np.ndarray:
    """Predicted class labels: 1-d, finite, of one type and, if ``like`` is given,
    comparable with it (no probabilities, scores or (n, 2) arrays).

    A float array whose values are not all integers is refused (it looks like
    probabilities or scores, not labels), unless ``like`` (the true labels) is
    itself such a float array.

    Examples
    --------
    >>> check_predicted_labels([0, 1], "pred_a").tolist()
    [0, 1]
    >>> check_predicted_labels([0.2, 0.9], "pred_a")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: pred_a must hold predicted class labels, got non-integer numbers ...
    """
    arr = check_1d_labels(pred, name, allow_empty=True)
    check_label_types(arr, name)
    if n is not None and arr.shape[0] != n:
        raise ValueError(f"{name} must hold one label per point ({n}), got {arr.shape[0]}")
    if arr.dtype.kind == "f" and np.any(arr != np.round(arr)):
        like_arr = None if like is None else np.asarray(like)
        if not (
            like_arr is not None
            and like_arr.dtype.kind == "f"
            and set(np.unique(arr).tolist()) <= set(np.unique(like_arr).tolist())
        ):
            raise ValueError(
                f"{name} must hold predicted class labels, got non-integer numbers such "
                f"as {_describe(arr[arr != np.round(arr)][:3].tolist())} "
                "(probabilities or scores?)"
            )
    if like is not None:
        like_arr = np.asarray(like)
        num = {"i", "u", "f", "b"}
        if (arr.dtype.kind in num) != (like_arr.dtype.kind in num) and arr.size and like_arr.size:
            raise ArgumentTypeError(
                f"{name} must hold labels of the same kind as the true labels "
                f"(numbers vs strings), got dtype {arr.dtype} against {like_arr.dtype}"
            )
    return arr


def check_label_pair(
    y_true: Any, y_pred: Any, names: tuple[str, str] = ("y_true", "y_pred")
) -> tuple[np.ndarray, np.ndarray]:
    """True and predicted class labels for the 0-1 loss: 1-d, one per point, comparable.

    ``y_true`` must be class labels (:func:`check_target_for_loss`: a continuous target
    would make nearly every point an error), ``y_pred`` labels of the same kind
    (:func:`check_predicted_labels`: no probabilities or scores). Empty pairs are allowed
    (the caller decides); column vectors are flattened with a ``DataConversionWarning``.
    ``names`` are the two arguments' names in the messages.

    Examples
    --------
    >>> [a.tolist() for a in check_label_pair([1, -1], [1, 1])]
    [[1, -1], [1, 1]]
    >>> check_label_pair([1, 0, 1], [0.9, 0.2, 0.7])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: y_pred must hold predicted class labels, got non-integer numbers ...
    """
    true_name, pred_name = names
    y_true = check_1d_labels(y_true, true_name, allow_empty=True)
    y_pred = check_1d_labels(y_pred, pred_name, allow_empty=True)
    check_same_length((true_name, y_true), (pred_name, y_pred))
    if y_true.size:
        check_target_for_loss(y_true, "zero_one", true_name)
        check_predicted_labels(y_pred, pred_name, like=y_true)
    return y_true, y_pred


def check_keys(value: Any, name: str, keys: Iterable[str], what: str) -> Mapping:
    """``value`` as a mapping that holds ``keys``: a record, a row or a dict of columns.

    ``what`` says what was expected, in the messages (``"a dict of columns (run_coverage's
    result)"``).

    Examples
    --------
    >>> check_keys({"n": 1}, "row", ["n"], "a summary row")
    {'n': 1}
    >>> check_keys({"n": 1}, "row", ["n", "k"], "a summary row")
    Traceback (most recent call last):
    ...
    ValueError: row lacks the keys ['k'] of a summary row
    """
    if not isinstance(value, Mapping):
        raise ArgumentTypeError(f"{name} must be {what}, got {type(value).__name__}")
    missing = [k for k in keys if k not in value]
    if missing:
        raise ValueError(f"{name} lacks the keys {missing} of {what}")
    return value


# --------------------------------------------------------------------------- #
# Data: features, samples, distributions


def check_features(X: Any, name: str = "X", *, min_samples: int = 1) -> np.ndarray:
    """Return a feature matrix as a finite float array of shape ``(n, d)``, ``d >= 1``.

    Refuses, by name: strings, complex numbers, sparse matrices, NaN/inf,
    1-d or 3-d input, fewer than ``min_samples`` rows, and zero columns (which
    would otherwise reach the learner and fail there, e.g. "gamma ... Got nan").

    Examples
    --------
    >>> check_features([[0.0, 1.0], [1.0, 0.0]]).shape
    (2, 2)
    >>> check_features(np.empty((3, 0)))
    Traceback (most recent call last):
    ...
    ValueError: X must have at least one feature (column), got shape (3, 0)
    """
    if _is_string(X):
        raise ArgumentTypeError(f"{name} must be a 2-d array of numbers, got a string")
    arr = _numeric_array(X, name)
    if arr.ndim != 2:
        hint = f" (reshape with {name}.reshape(-1, 1) for one feature)" if arr.ndim == 1 else ""
        raise ValueError(
            f"{name} must be 2-dimensional (n_samples, n_features), got shape {arr.shape}{hint}"
        )
    if arr.shape[1] == 0:
        raise ValueError(f"{name} must have at least one feature (column), got shape {arr.shape}")
    if arr.shape[0] < min_samples:
        raise ValueError(
            f"{name} must have at least {min_samples} sample(s) (rows), got shape {arr.shape}"
        )
    arr = arr.astype(float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite: it holds NaN or infinite values")
    return arr


def check_xy(
    X: Any, y: Any, *, X_name: str = "X", y_name: str = "y"
) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(X, y)`` checked for a learner: features by :func:`check_features`,
    labels by :func:`check_1d_labels` (a ``(n, 1)`` column is flattened with a
    ``DataConversionWarning``), and one label per row of ``X``.

    Shared by :mod:`cvbook.holdout` and :mod:`cvbook.kfold` (formerly the private
    ``holdout._check_xy``).

    Examples
    --------
    >>> X, y = check_xy([[0.0], [1.0]], [-1, 1])
    >>> X.shape, y.tolist()
    ((2, 1), [-1, 1])
    >>> check_xy([[0.0], [1.0]], [-1, 1, 1])
    Traceback (most recent call last):
    ...
    ValueError: arrays must have the same length: X has 2, y has 3
    """
    X = check_features(X, X_name)
    y = check_1d_labels(y, y_name)
    check_same_length((X_name, X), (y_name, y))
    return X, y


def check_data(X: Any, y: Any, *, min_samples: int = 4) -> tuple[np.ndarray, np.ndarray, int]:
    """Features and 1-d labels of the same length: ``(X, y, n)``.

    Examples
    --------
    >>> X, y, n = check_data(np.zeros((4, 2)), [0, 1, 0, 1])
    >>> n
    4
    """
    X = check_features(X, "X", min_samples=min_samples)
    y = check_1d_labels(y, "y")
    n = check_same_length(("X", X), ("y", y))
    return X, y, n


def check_distribution(distribution: Any, name: str = "distribution") -> Any:
    """``distribution`` itself, if it can draw samples: a ``sample(m, random_state)`` method.

    Examples
    --------
    >>> from cvbook.datasets import TwoGaussians
    >>> check_distribution(TwoGaussians()) is not None
    True
    >>> check_distribution("twonorm")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: distribution must have a sample(...) method, got str
    """
    if not callable(getattr(distribution, "sample", None)):
        raise ArgumentTypeError(
            f"{name} must have a sample(m, random_state) method, got {type(distribution).__name__}"
        )
    return distribution


# --------------------------------------------------------------------------- #
# Splits: folds, test sizes, (train, test) pairs


def check_cv(cv: Any, name: str = "cv", *, n_samples: int | None = None, minimum: int = 2) -> Any:
    """Check a cross-validation argument, as scikit-learn's ``cv`` accepts it.

    Returns

    * an ``int`` (the number of folds, ``>= minimum``) as is;
    * a splitter (an object with ``split`` and ``get_n_splits``) as is;
    * any other iterable of ``(train, test)`` index pairs as a list of
      ``(train, test)`` int64 arrays, each 1-d, the test part non-empty, and,
      if ``n_samples`` is given, every index in ``[0, n_samples)``.

    An empty iterable, booleans, floats, strings and ``None`` are refused.

    Examples
    --------
    >>> check_cv(5)
    5
    >>> check_cv([([0, 1], [2]), ([1, 2], [0])], n_samples=3)[0]
    (array([0, 1]), array([2]))
    >>> check_cv([])
    Traceback (most recent call last):
    ...
    ValueError: cv must hold at least one (train, test) split, got an empty iterable
    """
    allowed = (
        f"an int >= {minimum}, a splitter with split/get_n_splits, or an iterable of "
        "(train, test) index pairs"
    )
    if isinstance(cv, (bool, np.bool_)) or cv is None or _is_string(cv):
        raise ArgumentTypeError(f"{name} must be {allowed}, got {_describe(cv)}")
    if isinstance(cv, numbers.Integral):
        return check_int(cv, name, minimum=minimum)
    if hasattr(cv, "split") and hasattr(cv, "get_n_splits"):
        return cv
    if isinstance(cv, numbers.Number) or not isinstance(cv, Iterable):
        raise ArgumentTypeError(f"{name} must be {allowed}, got {_describe(cv)}")
    splits = []
    for i, pair in enumerate(cv):
        try:
            train, test = pair
        except (TypeError, ValueError):
            raise ValueError(
                f"{name}[{i}] must be a (train, test) pair of index arrays, got {_describe(pair)}"
            ) from None
        train = check_integer_array(train, f"{name}[{i}] train indices", ndim=1, minimum=0)
        test = check_integer_array(test, f"{name}[{i}] test indices", ndim=1, minimum=0)
        if test.size == 0:
            raise ValueError(f"{name}[{i}] has an empty test part")
        if n_samples is not None:
            top = max(train.max(initial=-1), test.max(initial=-1))
            if top >= n_samples:
                raise ValueError(
                    f"{name}[{i}] holds index {top}, but there are only {n_samples} samples"
                )
        splits.append((train, test))
    if not splits:
        raise ValueError(
            f"{name} must hold at least one (train, test) split, got an empty iterable"
        )
    return splits


def check_n_splits(n_splits: Any, m: int, name: str = "n_splits") -> int:
    """Return ``n_splits`` as an int ``K`` with ``2 <= K <= m``: its type and range, then
    :func:`check_n_splits_bound`. For a caller that does not declare ``n_splits``; a
    function that declares it (``Interval("int", 2)``) checks only the bound in its body.

    Examples
    --------
    >>> check_n_splits(5, 20)
    5
    >>> check_n_splits(1, 20)
    Traceback (most recent call last):
    ...
    ValueError: n_splits must be >= 2 (one fold to test, at least one to train), got 1
    """
    m = check_int(m, "m", minimum=1)
    if isinstance(n_splits, (bool, np.bool_)) or not isinstance(n_splits, (int, np.integer)):
        raise ArgumentTypeError(
            f"{name} must be an integer >= 2 (the number of folds K), got {n_splits!r}"
        )
    n_splits = int(n_splits)
    if n_splits < 2:
        raise ValueError(
            f"{name} must be >= 2 (one fold to test, at least one to train), got {n_splits}"
        )
    return check_n_splits_bound(n_splits, m, name)


def check_n_splits_bound(n_splits: int, m: int, name: str = "n_splits") -> int:
    """The bound of ``n_splits`` that needs the data: ``K <= m``, the number of points.

    Only the bound: the type and ``K >= 2`` are the declaration's
    (``validate_params({"n_splits": Interval("int", 2)})``), checked once at the door,
    so a declared ``n_splits`` is not checked twice. Undeclared callers use
    :func:`check_n_splits`, which checks all of it.

    Examples
    --------
    >>> check_n_splits_bound(5, 20)
    5
    >>> check_n_splits_bound(21, 20)
    Traceback (most recent call last):
    ...
    ValueError: n_splits must be <= m=20, the number of points (K = m is leave-one-out), got 21
    """
    n_splits = int(n_splits)
    if n_splits > m:
        raise ValueError(
            f"{name} must be <= m={m}, the number of points (K = m is leave-one-out), "
            f"got {n_splits}"
        )
    return n_splits


def check_test_size(test_size: Any, name: str = "test_size") -> float | int:
    """A test size's type and range, without the data: a fraction strictly between 0 and 1
    (a float that is not a whole number) or an integer count >= 1.

    The named constraint ``"test_size"`` of :func:`validate_params`; the bound against the
    number of points is :func:`check_test_count_bound`.

    Examples
    --------
    >>> check_test_size(0.25), check_test_size(3)
    (0.25, 3)
    >>> check_test_size(3.0)
    Traceback (most recent call last):
    ...
    ValueError: test_size must be a fraction in (0, 1) or an integer count, got 3.0
    >>> check_test_size("0.2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: test_size must be a fraction in (0, 1) or an ...
    """
    if isinstance(test_size, (float, np.floating)) and not float(test_size).is_integer():
        return float(check_open_unit(test_size, name, scalar=True))
    if isinstance(test_size, (float, np.floating)):
        raise ValueError(
            f"{name} must be a fraction in (0, 1) or an integer count, got {test_size!r}"
        )
    if isinstance(test_size, (bool, np.bool_)) or not isinstance(
        test_size, (numbers.Integral, np.ndarray)
    ):
        raise ArgumentTypeError(
            f"{name} must be a fraction in (0, 1) or an integer count >= 1, "
            f"got {_describe(test_size)}"
        )
    return check_int(test_size, name, minimum=1)


def check_test_count(test_size: Any, n: int, name: str = "test_size") -> int:
    """Number of test points from a fraction in (0, 1) or a count in [1, n - 2]:
    :func:`check_test_size`, then :func:`check_test_count_bound`. For a caller that does
    not declare ``test_size``; one that declares it (``"test_size"``) checks only the bound.

    Examples
    --------
    >>> check_test_count(0.25, 20), check_test_count(3, 20)
    (5, 3)
    """
    return check_test_count_bound(check_test_size(test_size, name), n, name)


def check_test_count_bound(test_size: float | int, n: int, name: str = "test_size") -> int:
    """The number of test points of a checked ``test_size`` (a fraction in (0, 1) or a
    count >= 1, as :func:`check_test_size` returns it), and its bound that needs the data:
    at least 1 test point and 2 training points out of ``n``.

    Only the bound: the type and range are the declaration's, checked once at the door.

    Examples
    --------
    >>> check_test_count_bound(0.25, 20), check_test_count_bound(3, 20)
    (5, 3)
    >>> check_test_count_bound(0.95, 20)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: test_size leaves 19 test points out of 20: it must leave at least 1 test ...
    """
    if isinstance(test_size, (float, np.floating)):
        n_test = round(float(test_size) * n)
    else:
        n_test = int(test_size)
    if not 1 <= n_test <= n - 2:
        raise ValueError(
            f"{name} leaves {n_test} test points out of {n}: it must leave at "
            f"least 1 test point and 2 training points"
        )
    return n_test


def check_test_fraction(test_size: Any, name: str = "test_size") -> float:
    """A test fraction strictly between 0 and 1, as a float.

    Examples
    --------
    >>> check_test_fraction(0.3)
    0.3
    """
    if isinstance(test_size, bool) or np.ndim(test_size) != 0:
        raise ValueError(f"{name} must be a number strictly between 0 and 1, got {test_size!r}")
    return float(check_open_unit(test_size, name))


def check_train_test_splits(
    splits: Any,
    n_samples: int,
    name: str = "splits",
    *,
    min_train: int = 1,
    unique_train: bool = True,
    allow_empty_test: bool = False,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """User-given ``(train, test)`` index pairs: integer dtype, in ``[0, n_samples)``,
    no repeat, the test part non-empty, the training part at least ``min_train``
    points, and the two parts disjoint (a point scored by a model that saw it
    gives an optimistic loss). A bootstrap sample repeats its points
    (``unique_train=False``) and may leave none out (``allow_empty_test=True``).

    Examples
    --------
    >>> check_train_test_splits([([0, 1], [2])], 3)[0][1].tolist()
    [2]
    >>> check_train_test_splits([([0, 1], [1])], 3)
    Traceback (most recent call last):
    ...
    ValueError: splits[0]: train and test parts must be disjoint, both hold [1]
    """
    if (
        _is_string(splits)
        or hasattr(splits, "split")
        or not isinstance(splits, Iterable)
        or (isinstance(splits, np.ndarray) and splits.dtype != object and splits.ndim != 3)
    ):
        raise ArgumentTypeError(
            f"{name} must be a sequence of (train, test) pairs of index arrays, "
            f"got {_describe(splits)}"
        )
    out = []
    for i, pair in enumerate(splits):
        try:
            train, test = pair
        except (TypeError, ValueError):
            raise ValueError(
                f"{name}[{i}] must be a (train, test) pair of index arrays, got {_describe(pair)}"
            ) from None
        train = check_index_array(
            train, f"{name}[{i}] train", n_samples, allow_empty=True, unique=unique_train
        )
        test = check_index_array(test, f"{name}[{i}] test", n_samples, allow_empty=allow_empty_test)
        if train.size < min_train:
            raise ValueError(
                f"{name}[{i}] train must hold at least {min_train} index(es), got {train.size}"
            )
        common = np.intersect1d(train, test)
        if common.size:
            raise ValueError(
                f"{name}[{i}]: train and test parts must be disjoint, both hold "
                f"{common[:5].tolist()}"
            )
        out.append((train, test))
    if not out:
        raise ValueError(f"{name} must hold at least one (train, test) pair, got none")
    return out


def check_halvings(splits: Any, n_samples: int, name: str = "splits") -> list:
    """Five halvings ``(half_1, half_2)`` of ``range(n_samples)`` for a 5x2cv test.

    Each half: integer indices in range, non-empty, no repeat; the two halves
    disjoint and together covering every point (each learner is trained on one
    half and tested on the other, then the other way round).

    Examples
    --------
    >>> h = [([0, 1], [2, 3])] * 5
    >>> len(check_halvings(h, 4))
    5
    >>> check_halvings([([0], [2, 3])] * 5, 4)
    Traceback (most recent call last):
    ...
    ValueError: splits[0] must cover the 4 points: index 1 is in neither half
    """
    pairs = check_train_test_splits(splits, n_samples, name)
    if len(pairs) != 5:
        raise ValueError(f"{name} must hold 5 halvings for a 5x2cv test, got {len(pairs)}")
    for i, (h1, h2) in enumerate(pairs):
        if h1.size == 0:
            raise ValueError(f"{name}[{i}] has an empty first half")
        missing = np.setdiff1d(np.arange(n_samples), np.concatenate([h1, h2]))
        if missing.size:
            raise ValueError(
                f"{name}[{i}] must cover the {n_samples} points: index {int(missing[0])} is "
                "in neither half"
            )
    return pairs


# --------------------------------------------------------------------------- #
# Estimators, workers and seeds


def check_estimator_arg(estimator: Any, name: str = "estimator") -> Any:
    """``estimator`` itself if ``sklearn.base.clone`` copies it and it has ``fit`` and
    ``predict``; otherwise a named error (not scikit-learn's "Cannot clone object").

    This is the one check of an estimator argument: every method of the package that
    takes an estimator answers a bad one with this error and this message.

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> check_estimator_arg(DummyClassifier()).__class__.__name__
    'DummyClassifier'
    >>> check_estimator_arg("lda", "estimator_a")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: estimator_a must be a scikit-learn estimator ...
    >>> check_estimator_arg(DummyClassifier)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: estimator must be ... pass DummyClassifier() instead
    """
    from sklearn.base import clone

    if isinstance(estimator, type):
        raise ArgumentTypeError(
            f"{name} must be a scikit-learn estimator with fit and predict that "
            f"sklearn.base.clone can copy, got the class {estimator.__name__}; "
            f"pass {estimator.__name__}() instead"
        )
    ok = callable(getattr(estimator, "fit", None)) and callable(getattr(estimator, "predict", None))
    if ok:
        try:
            clone(estimator)
        except (TypeError, RuntimeError, AttributeError, ValueError):
            ok = False
    if not ok:
        raise ArgumentTypeError(
            f"{name} must be a scikit-learn estimator with fit and predict that "
            f"sklearn.base.clone can copy, got {_describe(estimator)}"
        )
    return estimator


def check_candidates(candidates: Any, name: str = "candidates") -> list:
    """Return ``candidates`` as a non-empty list of estimators that ``sklearn.base.clone`` copies.

    A single estimator (instead of a list of them), a string, an empty list and
    any entry that cannot be cloned are refused, naming the entry
    (``candidates[1]``). Shared by :mod:`cvbook.holdout` and :mod:`cvbook.kfold`
    (formerly the private ``holdout._check_candidates``).

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> len(check_candidates([SVC(C=1.0), SVC(C=10.0)]))
    2
    >>> check_candidates([])
    Traceback (most recent call last):
    ...
    ValueError: candidates must hold at least one estimator, got none
    """
    from sklearn.base import clone

    if (
        _is_string(candidates)
        or hasattr(candidates, "get_params")
        or not isinstance(candidates, Iterable)
    ):
        raise ArgumentTypeError(f"{name} must be a list of estimators, got {_describe(candidates)}")
    candidates = list(candidates)
    if not candidates:
        raise ValueError(f"{name} must hold at least one estimator, got none")
    for i, est in enumerate(candidates):
        try:
            clone(est)
        except (TypeError, RuntimeError, AttributeError, ValueError):
            raise ArgumentTypeError(
                f"{name}[{i}] must be a scikit-learn estimator that sklearn.base.clone can "
                f"copy, got {_describe(est)}"
            ) from None
    return candidates


def check_model(model: Any, name: str = "model") -> Any:
    """A fitted classifier: anything with a ``predict`` method.

    Examples
    --------
    >>> class Model:
    ...     def predict(self, X):
    ...         return X
    >>> isinstance(check_model(Model()), Model)
    True
    """
    if not callable(getattr(model, "predict", None)):
        raise ArgumentTypeError(
            f"{name} must be a fitted classifier with a predict method, got {type(model).__name__}"
        )
    return model


#: The most workers :func:`check_n_jobs` accepts (joblib starts one process per worker).
MAX_N_JOBS = 1024


def check_n_jobs(n_jobs: Any, name: str = "n_jobs") -> int | None:
    """``None`` or a non-zero integer, as joblib takes it (``-1``: every core).

    Examples
    --------
    >>> check_n_jobs(-1)
    -1
    >>> check_n_jobs(0)
    Traceback (most recent call last):
    ...
    ValueError: n_jobs must be None or a non-zero integer (-1 for every core), got 0
    """
    if n_jobs is None:
        return None
    n_jobs = check_int(n_jobs, name)
    what = "a non-zero integer" if name.startswith("--") else "None or a non-zero integer"
    if n_jobs == 0:
        raise ValueError(f"{name} must be {what} (-1 for every core), got 0")
    cores = os.cpu_count() or 1
    if n_jobs > MAX_N_JOBS or n_jobs < -cores:
        # joblib would try to start that many processes (and hang), or refuse with its
        # own words; -k means all cores but k - 1, so -k needs k <= the number of cores
        raise ValueError(
            f"{name} must be {what} from -{cores} (-1: every core of this machine, -k: all "
            f"but k - 1) to {MAX_N_JOBS} (one worker process each), got {n_jobs}"
        )
    return n_jobs


_SEED_TYPES = "None, an int in [0, 2**32), a numpy Generator, RandomState or SeedSequence"


def check_random_state(
    random_state: Any, name: str = "random_state", *, to: str = "generator"
) -> Any:
    """The one seed rule of cvbook: accept the same five kinds of seed everywhere.

    ``random_state`` may be ``None`` (fresh entropy), an ``int`` in
    ``[0, 2**32)`` (numpy integers too), a ``numpy.random.Generator``, a legacy
    ``numpy.random.RandomState`` or a ``numpy.random.SeedSequence``. Anything
    else -- ``True``, ``-1``, ``1.5``, ``"0"``, ``2**32`` -- is refused with an
    error naming ``name``. The seed is converted to what the caller needs:

    ``to="generator"``
        a ``numpy.random.Generator``. A Generator is returned as is (its state
        advances, as in numpy); a RandomState seeds a new Generator from one
        draw (its state advances).
    ``to="randomstate"``
        a ``numpy.random.RandomState``, for code that must reproduce
        scikit-learn's own use of a seed (an int gives exactly the numbers
        ``sklearn.utils.check_random_state`` would). A RandomState is returned
        as is; a Generator or SeedSequence seeds a new one from one draw.
    ``to="seed"``
        an ``int`` (or ``None`` kept as ``None``), for code that derives
        reproducible streams from an integer entropy with
        ``SeedSequence(seed, spawn_key=...)``. A Generator or RandomState gives
        one draw; a SeedSequence its entropy if that is an int.

    Examples
    --------
    >>> int(check_random_state(0).integers(10)) == int(check_random_state(0).integers(10))
    True
    >>> type(check_random_state(0, to="randomstate")).__name__
    'RandomState'
    >>> check_random_state(-1)
    Traceback (most recent call last):
    ...
    ValueError: random_state must be >= 0 (an int in [0, 2**32)), got -1
    """
    if to not in ("generator", "randomstate", "seed"):
        raise ValueError(f"to must be 'generator', 'randomstate' or 'seed', got {to!r}")
    _check_seed(random_state, name)
    return as_random_state(random_state, to=to)


def _check_seed(rs: Any, name: str) -> None:
    """The check of :func:`check_random_state`, without the conversion."""
    if isinstance(rs, (bool, np.bool_)) or not (
        rs is None
        or isinstance(
            rs,
            (numbers.Integral, np.random.Generator, np.random.RandomState, np.random.SeedSequence),
        )
    ):
        raise ArgumentTypeError(f"{name} must be {_SEED_TYPES}, got {_describe(rs)}")
    if isinstance(rs, numbers.Integral):
        if int(rs) < 0:
            raise ValueError(f"{name} must be >= 0 (an int in [0, 2**32)), got {int(rs)}")
        if int(rs) >= 2**32:
            raise ValueError(f"{name} must be < 2**32 (an int in [0, 2**32)), got {int(rs)}")


def as_random_state(random_state: Any, to: str = "generator") -> Any:
    """The conversion of :func:`check_random_state`, for a seed already checked at the
    door (a ``"random_state"`` constraint of :func:`validate_params`).

    Examples
    --------
    >>> type(as_random_state(0)).__name__
    'Generator'
    """
    rs = int(random_state) if isinstance(random_state, numbers.Integral) else random_state
    if to == "generator":
        if isinstance(rs, np.random.Generator):
            return rs
        if isinstance(rs, np.random.RandomState):
            return np.random.default_rng(int(rs.randint(0, 2**63 - 1, dtype=np.int64)))
        return np.random.default_rng(rs)
    if to == "randomstate":
        if isinstance(rs, np.random.RandomState):
            return rs
        if isinstance(rs, np.random.Generator):
            return np.random.RandomState(int(rs.integers(2**32)))
        if isinstance(rs, np.random.SeedSequence):
            return np.random.RandomState(int(rs.generate_state(1)[0]))
        return np.random.RandomState(rs)
    # to == "seed"
    if isinstance(rs, np.random.Generator):
        return int(rs.integers(2**32))
    if isinstance(rs, np.random.RandomState):
        return int(rs.randint(0, 2**32, dtype=np.int64))
    if isinstance(rs, np.random.SeedSequence):
        ent = rs.entropy
        return (
            int(ent)
            if isinstance(ent, numbers.Integral) and not rs.spawn_key
            else int(rs.generate_state(1)[0])
        )
    return rs


def check_rng(random_state: Any, name: str = "random_state") -> np.random.Generator:
    """``check_random_state(random_state, name, to="generator")`` (kept for old callers).

    Examples
    --------
    >>> isinstance(check_rng(None), np.random.Generator)
    True
    """
    return check_random_state(random_state, name, to="generator")


def check_splitter_seed(random_state: Any) -> Any:
    """``random_state`` checked by the one seed rule, in a form scikit-learn's splitters take.

    None, an int and a RandomState pass unchanged (so an int gives scikit-learn's folds);
    a Generator or SeedSequence becomes a RandomState seeded from one draw.

    Examples
    --------
    >>> check_splitter_seed(3)
    3
    """
    rs = check_random_state(
        random_state,
        to="seed"
        if random_state is None or isinstance(random_state, (int, np.integer))
        else "randomstate",
    )
    return rs


# --------------------------------------------------------------------------- #
# Paths


def check_output_path(value: Any, name: str, *, folder: bool) -> Any:
    """A path results can be written to: not empty, no regular file among its parents,
    and not a folder where a file is wanted (or a file where a folder is wanted); an
    existing file must be a regular file (never a device, FIFO or socket).

    Returns a :class:`pathlib.Path`; nothing is created.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.NamedTemporaryFile() as f:
    ...     check_output_path(os.path.join(f.name, "run"), "--out", folder=False)
    Traceback (most recent call last):
    ...
    ValueError: --out must be below a folder, but ... is a regular file
    """
    from pathlib import Path

    if not isinstance(value, (str, os.PathLike)) or not str(value):
        raise ArgumentTypeError(f"{name} must be a non-empty path, got {_describe(value)}")
    path = Path(value)
    if path.exists():
        if folder and not path.is_dir():
            raise ValueError(f"{name} must be a folder, but {path} is a file")
        if not folder and path.is_dir():
            raise ValueError(f"{name} must be a file path, but {path} is a folder")
        if not folder and not path.is_file():
            # a device, FIFO or socket: writing over it would replace it (as root,
            # /dev/null became a regular file) or fail deep in tempfile
            raise ValueError(f"{name} must be a regular file path, but {path} is a special file")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ValueError(f"{name} must be below a folder, but {parent} is a regular file")
            break
    return path


def check_path(value: Any, name: str) -> Any:
    """A non-empty str or path-like, as a :class:`pathlib.Path` (nothing is looked up).

    Examples
    --------
    >>> check_path("runs/a.csv.gz", "path").name
    'a.csv.gz'
    >>> check_path(5, "path")
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: path must be a non-empty path, got 5
    """
    from pathlib import Path

    if isinstance(value, bytes) or not isinstance(value, (str, os.PathLike)) or not str(value):
        raise ArgumentTypeError(f"{name} must be a non-empty path, got {value!r}")
    return Path(value)


def check_input_folder(value: Any, name: str) -> Any:
    """An existing folder to read from (``None`` passes as ``None``).

    Examples
    --------
    >>> check_input_folder("/no/such/folder", "--data-home")
    Traceback (most recent call last):
    ...
    ValueError: --data-home must be an existing folder, got /no/such/folder (no such folder)
    """
    from pathlib import Path

    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)) or not str(value):
        raise ArgumentTypeError(f"{name} must be a non-empty path, got {_describe(value)}")
    path = Path(value)
    if not path.exists():
        raise ValueError(f"{name} must be an existing folder, got {path} (no such folder)")
    if not path.is_dir():
        raise ValueError(f"{name} must be an existing folder, got {path} (a file)")
    return path


# --------------------------------------------------------------------------- #
# Declared constraints: what a public function accepts, checked once at its door


class Constraint:
    """One rule an argument may satisfy; ``check(value, name)`` raises if it does not.

    Every constraint raises the one error family of this module --
    :class:`ArgumentTypeError` for a value of the wrong type, :class:`ValueError`
    for a bad value of the right type -- with the one message form
    ``"<name> must <what is allowed>, got <value>"``.
    """

    description = "a valid value"

    def check(self, value: Any, name: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.description}>"


class _Check(Constraint):
    """A constraint made of one of this module's ``check_*`` functions."""

    def __init__(self, func: Any, description: str, **kwargs: Any) -> None:
        self.func, self.description, self.kwargs = func, description, kwargs

    def check(self, value: Any, name: str) -> None:
        self.func(value, name, **self.kwargs)


class Interval(Constraint):
    """A number in a range, as ``Interval("int", 2, None)`` or ``Interval("real", 0, 1)``.

    Parameters
    ----------
    kind : {"int", "real"}
        ``"int"``: only integer types pass (``3.0``, ``True`` and ``'3'`` are refused,
        :func:`check_int`); ``"real"``: a real scalar, not NaN (:func:`check_float`).
    low, high : number or None
        The bounds (``None``: unbounded on that side).
    closed : {"both", "left", "right", "neither"}, default="both"
        Which bounds belong to the interval (integers: always both).

    Examples
    --------
    >>> Interval("int", 2, 10_000).check(1, "n_bootstraps")
    Traceback (most recent call last):
    ...
    ValueError: n_bootstraps must be >= 2, got 1
    >>> Interval("real", 0, 1, closed="neither").description
    'a number strictly between 0 and 1'
    """

    def __init__(
        self,
        kind: str,
        low: float | None = None,
        high: float | None = None,
        *,
        closed: str = "both",
    ) -> None:
        if kind not in ("int", "real"):
            raise ValueError(f"kind must be 'int' or 'real', got {kind!r}")
        if closed not in ("both", "left", "right", "neither"):
            raise ValueError(f"closed must be 'both', 'left', 'right' or 'neither', got {closed!r}")
        self.kind, self.low, self.high, self.closed = kind, low, high, closed
        self.open_low = closed in ("right", "neither") and kind == "real"
        self.open_high = closed in ("left", "neither") and kind == "real"
        self.description = self._describe_range()

    def _describe_range(self) -> str:
        what = "an integer" if self.kind == "int" else "a number"
        low, high = self.low, self.high
        if (low, high, self.open_low, self.open_high) == (0, 1, True, True):
            return f"{what} strictly between 0 and 1"
        if low is not None and high is not None:
            left = "(" if self.open_low else "["
            right = ")" if self.open_high else "]"
            return f"{what} in {left}{low}, {high}{right}"
        if low is not None:
            return f"{what} {'>' if self.open_low else '>='} {low}"
        if high is not None:
            return f"{what} {'<' if self.open_high else '<='} {high}"
        return what

    def check(self, value: Any, name: str) -> None:
        if self.kind == "int":
            check_int(value, name, self.low, self.high)
            return
        if (self.low, self.high, self.open_low, self.open_high) == (0, 1, True, True):
            check_open_unit(value, name, scalar=True)
            return
        out = check_float(value, name)
        if self.low is not None and (out < self.low or (self.open_low and out == self.low)):
            raise ValueError(
                f"{name} must be {'>' if self.open_low else '>='} {self.low}, got {out}"
            )
        if self.high is not None and (out > self.high or (self.open_high and out == self.high)):
            raise ValueError(
                f"{name} must be {'<' if self.open_high else '<='} {self.high}, got {out}"
            )


class Options(Constraint):
    """One of a few strings: ``Options("zero_one", "squared")``, as :func:`check_option`;
    ``why`` says why only these (``"the losses .632+ defines gamma for"``).

    Examples
    --------
    >>> Options("normal", "t").check("z", "method")
    Traceback (most recent call last):
    ...
    ValueError: method must be one of ['normal', 't'], got 'z'
    """

    def __init__(self, *options: str, why: str | None = None) -> None:
        self.options = tuple(options)
        self.description = f"one of {list(self.options)}" + (f" ({why})" if why else "")

    def check(self, value: Any, name: str) -> None:
        if not isinstance(value, str):
            raise ArgumentTypeError(f"{name} must be {self.description}, got {value!r}")
        if value not in self.options:
            raise ValueError(f"{name} must be {self.description}, got {value!r}")


def _check_callable(value: Any, name: str) -> None:
    if not callable(value):
        raise ArgumentTypeError(f"{name} must be callable, got {_describe(value)}")


def _check_array_like(value: Any, name: str) -> None:
    check_not_complex(value, name)


#: The named constraints a declaration may use as a string, as scikit-learn's
#: ``"random_state"``, ``"boolean"``, ``"array-like"``...
NAMED_CONSTRAINTS: dict[str, Constraint] = {
    "boolean": _Check(check_bool, "True or False"),
    "random_state": _Check(_check_seed, _SEED_TYPES),
    "estimator": _Check(
        check_estimator_arg,
        "a scikit-learn estimator with fit and predict that sklearn.base.clone can copy",
    ),
    "n_jobs": _Check(check_n_jobs, "None or a non-zero integer (-1 for every core)"),
    "alpha": _Check(check_alpha, "a number strictly between 0 and 1"),
    "open-unit": _Check(check_open_unit, "numbers strictly between 0 and 1"),
    "array-like": _Check(_check_array_like, "an array of real values"),
    "callable": _Check(_check_callable, "callable"),
    "distribution": _Check(check_distribution, "an object with a sample(m, random_state) method"),
    "model": _Check(check_model, "a fitted classifier with a predict method"),
    "test_size": _Check(check_test_size, "a fraction in (0, 1) or an integer count >= 1"),
}


class _AnyOf(Constraint):
    """Passes when one of ``constraints`` passes; ``None`` in the list lets ``None`` through."""

    def __init__(self, constraints: list[Constraint], allow_none: bool) -> None:
        self.constraints, self.allow_none = constraints, allow_none
        parts = [c.description for c in constraints] + (["None"] if allow_none else [])
        self.description = " or ".join(parts)

    def check(self, value: Any, name: str) -> None:
        if value is None and self.allow_none:
            return
        if len(self.constraints) == 1:
            self.constraints[0].check(value, name)
            return
        errors = []
        for constraint in self.constraints:
            try:
                constraint.check(value, name)
                return
            except ValueError as err:  # ArgumentTypeError is a ValueError too
                errors.append(err)
        cls = ArgumentTypeError if all(isinstance(e, TypeError) for e in errors) else ValueError
        raise cls(f"{name} must be {self.description}, got {_describe(value)}")


def make_constraint(spec: Any) -> Constraint:
    """A :class:`Constraint` from a declaration: a constraint, a name of
    :data:`NAMED_CONSTRAINTS`, a callable ``check(value, name)``, ``None`` (the value
    ``None``), or a list of these (any one of them passes).

    Examples
    --------
    >>> make_constraint([Interval("int", 1), None]).description
    'an integer >= 1 or None'
    """
    specs = list(spec) if isinstance(spec, (list, tuple)) else [spec]
    allow_none = any(s is None for s in specs)
    made: list[Constraint] = []
    for s in specs:
        if s is None:
            continue
        if isinstance(s, Constraint):
            made.append(s)
        elif isinstance(s, str):
            if s not in NAMED_CONSTRAINTS:
                raise ValueError(
                    f"unknown named constraint {s!r}; use one of {list(NAMED_CONSTRAINTS)}"
                )
            made.append(NAMED_CONSTRAINTS[s])
        elif callable(s):
            made.append(_Check(s, getattr(s, "__name__", "valid")))
        else:
            raise TypeError(f"a constraint must be a Constraint, a name or a callable, got {s!r}")
    if not made and not allow_none:
        raise ValueError("a declaration needs at least one constraint")
    return _AnyOf(made, allow_none)


_SKIP_NESTED: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "cvbook_skip_nested_validation", default=False
)


def inside_checked_call() -> bool:
    """Whether a decorated public function is running (its arguments were checked at its
    door): a result record it builds need not check them again.

    Examples
    --------
    >>> inside_checked_call()
    False
    """
    return _SKIP_NESTED.get()


def check_param(constraint: Constraint, value: Any, name: str) -> None:
    """Check one declared argument (the one place :func:`validate_params` checks a value)."""
    constraint.check(value, name)


class _CheckedCallback:
    """A user's function called back by a decorated one (the trial of
    :func:`cvbook.simulation.repeat`): its own calls are checked again, as at a door."""

    def __init__(self, func: Any) -> None:
        self.func = func
        self.__module__ = getattr(func, "__module__", None)
        self.__qualname__ = getattr(func, "__qualname__", type(func).__qualname__)
        self.__name__ = getattr(func, "__name__", self.__qualname__)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        token = _SKIP_NESTED.set(False)
        try:
            return self.func(*args, **kwargs)
        finally:
            _SKIP_NESTED.reset(token)


def validate_params(
    constraints: dict[str, Any], *, skip_nested: bool = True, callbacks: tuple[str, ...] = ()
) -> Any:
    """Declare what a public function accepts; check it once, at the outer call.

    Modelled on scikit-learn's ``validate_params``. ``constraints`` maps a parameter
    name to its constraint(s) (see :func:`make_constraint`). When the decorated function
    is called, each declared argument is checked (a default value is the function's own
    and is not checked), then the body runs. While it runs, every *nested* call of a
    decorated function skips its declared checks: the value was checked at the door,
    once. ``skip_nested=False`` turns this off. A parameter named in ``callbacks`` is a
    user's function the decorated one calls (the trial of :func:`cvbook.simulation.repeat`):
    called from the outer call, it is the user's code, and its own calls are checked
    again; called from a nested call (a study's own trial), they are not.

    The declaration is kept as ``func._parameter_constraints``; the signature and the
    docstring are the function's own.

    Examples
    --------
    >>> @validate_params({"k": [Interval("int", 2)]})
    ... def folds(k=5):
    ...     return k
    >>> folds(3)
    3
    >>> folds(1)
    Traceback (most recent call last):
    ...
    ValueError: k must be >= 2, got 1
    """
    import functools
    import inspect

    def decorate(func: Any) -> Any:
        signature = inspect.signature(func)
        params = list(signature.parameters.values())
        unknown = set(constraints) - {p.name for p in params}
        if unknown:
            raise ValueError(f"{func.__qualname__} has no parameter(s) {sorted(unknown)}")
        declared = []
        callback_at = {
            p.name: (i if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) else None)
            for i, p in enumerate(params)
            if p.name in callbacks
        }
        for position, p in enumerate(params):
            if p.name in constraints:
                positional = p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                declared.append(
                    (
                        p.name,
                        position if positional else None,
                        p.default,
                        make_constraint(constraints[p.name]),
                    )
                )

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if _SKIP_NESTED.get():
                return func(*args, **kwargs)
            for name, position, default, constraint in declared:
                if position is not None and position < len(args):
                    value = args[position]
                elif name in kwargs:
                    value = kwargs[name]
                else:
                    continue  # the default: the function's own value
                if value is default and default is not inspect.Parameter.empty:
                    continue
                check_param(constraint, value, name)
            for name, position in callback_at.items():
                if position is not None and position < len(args):
                    args = (
                        *args[:position],
                        _CheckedCallback(args[position]),
                        *args[position + 1 :],
                    )
                elif name in kwargs:
                    kwargs[name] = _CheckedCallback(kwargs[name])
            if not skip_nested:
                return func(*args, **kwargs)
            token = _SKIP_NESTED.set(True)
            try:
                return func(*args, **kwargs)
            finally:
                _SKIP_NESTED.reset(token)

        wrapper._parameter_constraints = dict(constraints)
        return wrapper

    return decorate
