"""Argument checks name the parameter and what is allowed."""

from __future__ import annotations

import numpy as np
import pytest

from cvbook._checks import (check_binary_labels, check_finite, check_int,
                            check_integer_array, check_open_unit, check_same_length)


def test_open_unit():
    assert check_open_unit(0.5, "delta") == 0.5
    for bad in (0, 1, -0.1, 1.1, np.nan, np.inf):
        with pytest.raises(ValueError, match="delta must lie strictly between 0 and 1"):
            check_open_unit(bad, "delta")


def test_int():
    assert check_int(np.int64(3), "k", minimum=2) == 3
    with pytest.raises(ValueError, match="k must be >= 2, got 1"):
        check_int(1, "k", minimum=2)
    with pytest.raises(ValueError, match="k must be <= 5, got 6"):
        check_int(6, "k", maximum=5)
    for bad in (2.0, True, "3", None):
        with pytest.raises(ValueError, match="k must be an integer"):
            check_int(bad, "k")


def test_integer_array():
    np.testing.assert_array_equal(check_integer_array([1.0, 2.0], "n"), [1, 2])
    with pytest.raises(ValueError, match="n must hold integers"):
        check_integer_array([1.5], "n")
    with pytest.raises(ValueError, match="n must hold integers, got booleans"):
        check_integer_array([True], "n")


def test_finite_and_lengths():
    with pytest.raises(ValueError, match="X must be finite"):
        check_finite([1.0, np.nan], "X")
    assert check_same_length(("X", [1, 2]), ("y", [3, 4])) == 2
    with pytest.raises(ValueError, match="X has 2, y has 3"):
        check_same_length(("X", [1, 2]), ("y", [1, 2, 3]))


def test_binary_labels():
    check_binary_labels([-1, 1, 1])
    check_binary_labels(np.array(["a", "b"]))
    with pytest.raises(ValueError, match="y must be binary .* got 3 distinct labels"):
        check_binary_labels([0, 1, 2])
    with pytest.raises(ValueError, match="y must be one-dimensional"):
        check_binary_labels([[0, 1]])
    with pytest.raises(ValueError, match="y must be finite"):
        check_binary_labels([0.0, np.nan])
