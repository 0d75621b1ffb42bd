"""Argument checks shared by every module.

Each check raises a :class:`ValueError` whose message names the parameter and
says what is allowed, so that a reader who passes ``delta=1.5`` learns at once
which argument is wrong and why.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np


def check_open_unit(value: Any, name: str) -> np.ndarray:
    """Return ``value`` as a float array, every entry strictly inside (0, 1)."""
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr)) or np.any(arr <= 0) or np.any(arr >= 1):
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {value!r}")
    return arr


def check_int(value: Any, name: str, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """Return ``value`` as an ``int`` in ``[minimum, maximum]`` (bounds optional)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}")
    return value


def check_integer_array(value: Any, name: str) -> np.ndarray:
    """Return ``value`` as an int64 array; reject NaN, inf and non-integers."""
    arr = np.asarray(value)
    if arr.dtype == bool:
        raise ValueError(f"{name} must hold integers, got booleans")
    if not np.issubdtype(arr.dtype, np.number):
        raise ValueError(f"{name} must hold integers, got dtype {arr.dtype}")
    if np.issubdtype(arr.dtype, np.integer):
        return arr.astype(np.int64)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must hold finite integers, got NaN or infinity")
    if np.any(arr != np.round(arr)):
        raise ValueError(f"{name} must hold integers, got {value!r}")
    return arr.astype(np.int64)


def check_finite(value: Any, name: str) -> np.ndarray:
    """Return ``value`` as a float array with no NaN or infinite entry."""
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite: it holds NaN or infinite values")
    return arr


def check_same_length(*named_arrays: tuple[str, Any]) -> int:
    """Check that arrays share their first dimension; return that length."""
    lengths = {name: len(arr) for name, arr in named_arrays}
    if len(set(lengths.values())) > 1:
        described = ", ".join(f"{n} has {k}" for n, k in lengths.items())
        raise ValueError(f"arrays must have the same length: {described}")
    return next(iter(lengths.values()))


def check_binary_labels(y: Any, name: str = "y") -> np.ndarray:
    """Return ``y`` as a 1-d array that holds at most two distinct labels.

    A 0-1 loss bound counts errors of a binary classifier; a third label means
    the caller has a multi-class problem, for which the bound does not apply.
    """
    arr = np.asarray(y)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if np.issubdtype(arr.dtype, np.floating) and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite: it holds NaN or infinite values")
    labels = np.unique(arr)
    if labels.size > 2:
        raise ValueError(
            f"{name} must be binary (two classes, e.g. -1/+1 or 0/1), "
            f"got {labels.size} distinct labels: {labels[:5].tolist()}"
            + ("..." if labels.size > 5 else "")
        )
    return arr


def check_rng(random_state: Any) -> np.random.Generator:
    """Return a ``numpy.random.Generator`` from a seed, a Generator or a RandomState.

    ``None`` gives fresh entropy; an int or a ``SeedSequence`` a seeded
    generator; a Generator is returned as is (so its state advances); a legacy
    ``RandomState`` seeds a new generator from one draw.
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**63 - 1, dtype=np.int64))
    if random_state is None or isinstance(random_state, (numbers.Integral, np.random.SeedSequence)):
        if isinstance(random_state, bool):
            raise ValueError(f"random_state must be None, an int or a Generator, got {random_state!r}")
        return np.random.default_rng(random_state)
    raise ValueError(f"random_state must be None, an int, a numpy Generator or RandomState, "
                     f"got {random_state!r}")
