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
