"""The repeated-experiment driver: seeded per task, identical for any n_jobs."""

from __future__ import annotations

import numpy as np
import pytest

from cvbook.simulation import columns, repeat, repeat_columns, saved_repetitions, spawn_generators
from cvbook.validation import ArgumentTypeError


def _draw(rng, size=3):
    return rng.normal(size=size).tolist()


def test_results_do_not_depend_on_n_jobs():
    serial = repeat(_draw, 12, random_state=7, n_jobs=1)
    parallel = repeat(_draw, 12, random_state=7, n_jobs=2)
    assert serial == parallel


def test_seed_matters_and_repetitions_differ():
    a = repeat(_draw, 5, random_state=1)
    b = repeat(_draw, 5, random_state=2)
    assert a != b
    assert len({tuple(x) for x in a}) == 5


def test_kwargs_are_passed_and_order_is_kept():
    out = repeat(_draw, 4, random_state=0, size=2)
    assert [len(x) for x in out] == [2, 2, 2, 2]
    first = spawn_generators(0, 4)[3].normal(size=2).tolist()
    assert out[3] == first


def test_progress_bar_writes_to_stderr(capsys):
    repeat(_draw, 3, random_state=0, progress=True, desc="demo")
    assert "demo" in capsys.readouterr().err


@pytest.mark.parametrize("n", [0, -1, 2.5])
def test_bad_n_repeats(n):
    with pytest.raises(ValueError, match="n_repeats"):
        repeat(_draw, n)


def test_a_repetition_does_not_depend_on_how_many_are_run():
    # repetition i depends on the root seed and i only: a test that recomputes the first
    # repetitions of a committed run (tests/test_studies_coverage.py) checks them all
    assert repeat(_draw, 2, random_state=5) == repeat(_draw, 7, random_state=5)[:2]
    assert repeat(_draw, 1, random_state=5) != repeat(_draw, 2, random_state=5)[1:]


def test_spawned_generators_are_independent_streams():
    g = spawn_generators(0, 2)
    a, b = g[0].normal(size=1000), g[1].normal(size=1000)
    assert abs(np.corrcoef(a, b)[0, 1]) < 0.1


# --------------------------------------------------------------------------- checkpoints

CALLS: list[float] = []  # first draw of every repetition that ran
STOP_AT: list[float] = []  # first draws at which the run is "killed"


class Interrupted(Exception):
    pass


def _draw_or_stop(rng):
    x = float(rng.normal())
    CALLS.append(x)
    if x in STOP_AT:
        raise Interrupted
    return x


@pytest.mark.filterwarnings("ignore:.*still being processed:UserWarning")  # the interruption
def test_checkpoint_resumes_without_losing_or_repeating_work(tmp_path):
    full = repeat(_draw_or_stop, 8, random_state=3)
    CALLS.clear()
    STOP_AT[:] = [full[5]]
    with pytest.raises(Interrupted):  # killed while running repetition 5
        repeat(_draw_or_stop, 8, random_state=3, checkpoint=tmp_path)
    STOP_AT.clear()
    assert full[:6] == CALLS
    assert saved_repetitions(tmp_path) == [0, 1, 2, 3, 4]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # nothing half-written
    CALLS.clear()
    assert repeat(_draw_or_stop, 8, random_state=3, checkpoint=tmp_path) == full
    assert full[5:] == CALLS  # only the unfinished repetitions ran
    CALLS.clear()
    assert repeat(_draw_or_stop, 8, random_state=3, checkpoint=tmp_path, n_jobs=2) == full
    assert CALLS == []  # all done: nothing runs again
    more = repeat(_draw_or_stop, 10, random_state=3, checkpoint=tmp_path)
    assert more[:8] == full and more[8:] == CALLS  # a larger n_repeats extends the run


def test_checkpoint_refuses_another_call_and_unseeded_runs(tmp_path):
    repeat(_draw, 2, random_state=0, checkpoint=tmp_path, size=2)
    with pytest.raises(ValueError, match=r"checkpoint .* another call"):
        repeat(_draw, 2, random_state=1, checkpoint=tmp_path, size=2)
    with pytest.raises(ValueError, match=r"checkpoint .* another call"):
        repeat(_draw, 2, random_state=0, checkpoint=tmp_path, size=3)
    with pytest.raises(ValueError, match="random_state must be an int when checkpoint"):
        repeat(_draw, 2, random_state=None, checkpoint=tmp_path / "other")


def _two_numbers(rng, shift=0.0):
    x = rng.normal(size=5)
    return {"mean": float(x.mean()) + shift, "n": 5, "inner": {"max": float(x.max())}}


def test_columns_stack_rows_key_by_key_as_the_hand_loop_did():
    rows = repeat(_two_numbers, 6, random_state=3, shift=1.0)
    cols = columns(rows)
    for key in ("mean", "n"):
        expected = np.array([r[key] for r in rows])
        assert cols[key].dtype == expected.dtype
        np.testing.assert_array_equal(cols[key], expected)
    np.testing.assert_array_equal(cols["inner"]["max"], [r["inner"]["max"] for r in rows])
    assert columns(rows, dtype=float)["n"].dtype == np.float64
    assert columns([np.arange(3), np.arange(3)]).shape == (2, 3)


def test_repeat_columns_is_columns_of_repeat():
    a = repeat_columns(_two_numbers, 4, random_state=0, n_jobs=2, shift=2.0)
    b = columns(repeat(_two_numbers, 4, random_state=0, shift=2.0))
    np.testing.assert_array_equal(a["mean"], b["mean"])


@pytest.mark.parametrize(
    "rows, error",
    [
        ([], ValueError),
        ("abc", ArgumentTypeError),
        ({"a": [1]}, ArgumentTypeError),
        ([{"a": 1}, {"b": 2}], ValueError),
        ([{"a": 1}, 3], ValueError),
    ],
)
def test_columns_refuse_what_is_not_rows(rows, error):
    with pytest.raises(error, match="rows"):
        columns(rows)


@pytest.mark.parametrize(
    "rows, dtype, message",
    [
        (
            [{"a": 1.0, "model": len}, {"a": 2.0, "model": len}],
            float,
            "rows['model'] must hold values numpy can make float64, got builtin_function_or_method",
        ),
        (
            [{"p": {"x": np.zeros(2)}}, {"p": {"x": np.zeros(3)}}],
            None,
            "rows['p']['x'] must hold values of one shape in every repetition, "
            "got shapes (2,), (3,)",
        ),
        ([1.0, 2.0], "no such type", "dtype must be a numpy data type, got 'no such type'"),
    ],
)
def test_columns_name_the_column_that_cannot_be_made(rows, dtype, message):
    """A column numpy cannot make (models asked as floats, ragged arrays) is named, not a
    numpy traceback; without a dtype, models stay in an object array (chapter 5)."""
    with pytest.raises(ArgumentTypeError) as info:
        columns(rows, dtype=dtype)
    assert str(info.value) == message
    models = columns([{"model": len}, {"model": abs}])["model"]
    assert models.dtype == object and list(models) == [len, abs]


@pytest.mark.parametrize(
    "rows, message",
    [
        (
            [{"a": 1}, {"a": 2, "b": 3}],
            "rows must all be dicts holding exactly the keys of the first, ['a']; "
            "repetition 1 has the key 'b', which repetition 0 lacks",
        ),
        (
            [{"a": 1, "b": 2}, {"a": 2}],
            "rows must all be dicts holding exactly the keys of the first, ['a', 'b']; "
            "repetition 1 lacks the key 'b'",
        ),
        (
            [{"p": {"x": 1}}, {"p": {"x": 2, "y": 3}}],
            "rows['p'] must all be dicts holding exactly the keys of the first, ['x']; "
            "repetition 1 has the key 'y', which repetition 0 lacks",
        ),
    ],
)
def test_columns_refuse_a_key_that_not_every_row_has(rows, message):
    """A key only a later row holds was dropped silently; now every row has the first's keys."""
    with pytest.raises(ValueError) as info:
        columns(rows)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "rows, dtype, message",
    [
        (
            [[[1, 2], [3]], [[4, 5], [6]]],
            None,
            "rows must hold values of one shape in every repetition; "
            "repetition 0 is ragged (nested lists of unequal lengths)",
        ),
        (np.array(3.0), None, "rows must be a sequence of repetitions' results, got array(3.)"),
        (
            [1.5, 2.7],
            int,
            "rows must hold values that int64 keeps exactly; repetition 0, 1.5, would become 1",
        ),
        (
            [{"a": 1.0}, {"a": None}],
            float,
            "rows['a'] must hold numbers for dtype float64, got None in repetition 1",
        ),
        (
            [1.0, 0.3],
            bool,
            "rows must hold values that bool keeps exactly; repetition 1, 0.3, would become True",
        ),
        (["1.5", "2"], float, "rows must hold numbers for dtype float64, got <U3 values"),
        (
            [1e300],
            np.float32,
            "rows must hold values that float32 keeps exactly; repetition 0, 1e+300, "
            "would become inf",
        ),
    ],
)
def test_columns_refuse_hostile_rows_and_lossy_casts_by_name(rows, dtype, message):
    with pytest.raises(ArgumentTypeError) as info:
        columns(rows, dtype=dtype)
    assert str(info.value) == message


def test_columns_keep_casts_that_keep_every_value():
    assert columns([1, 2], dtype=float).tolist() == [1.0, 2.0]
    assert columns([True, False], dtype=float).tolist() == [1.0, 0.0]
    assert columns([0, 1], dtype=bool).tolist() == [False, True]
    assert columns([np.float64(2.0), 3], dtype=int).tolist() == [2, 3]
    out = columns([{"a": 1.0, "b": {"x": np.nan}}, {"a": 2.0, "b": {"x": 0.5}}], dtype=float)
    assert out["a"].tolist() == [1.0, 2.0] and np.isnan(out["b"]["x"][0])
