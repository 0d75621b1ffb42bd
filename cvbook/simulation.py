"""Repeated experiments: the same procedure on many fresh data sets.

Every chapter asks how an estimate behaves *over data sets*: its mean, its
spread, how often a bound covers the truth. :func:`repeat` runs a function
``n_repeats`` times in parallel with joblib, each call with its own random
generator spawned from one seed, so that the results are identical for any
``n_jobs`` -- and any joblib backend, including dask's. Given a
``checkpoint`` folder, it saves every repetition as soon as it is done, so a
long run that is interrupted resumes where it stopped.

A repetition usually returns a dict of numbers; :func:`columns` turns the list of them
into one array per key (a column, one entry per repetition), as scikit-learn's
``cross_validate`` hands back its scores, and :func:`repeat_columns` is :func:`repeat`
followed by it.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import joblib
import numpy as np
from joblib import Parallel, delayed
from tqdm import tqdm

from .provenance import atomic_write, atomic_write_text
from .validation import (
    ArgumentTypeError,
    Interval,
    as_random_state,
    validate_params,
)

__all__ = ["columns", "repeat", "repeat_columns", "saved_repetitions", "spawn_generators"]

T = TypeVar("T")


@validate_params({"random_state": "random_state", "n": Interval("int", 0)})
def spawn_generators(random_state: Any, n: int) -> list[np.random.Generator]:
    """``n`` independent generators spawned from one seed.

    Generator ``i`` depends only on ``random_state`` and ``i``, never on how
    the work is scheduled. ``random_state`` follows the package's seed rule
    (``cvbook.validation.check_random_state``): ``None``, an int in
    ``[0, 2**32)``, a ``SeedSequence`` (spawned from, as numpy does), or a
    ``Generator``/``RandomState`` (one draw from it seeds the root).

    Examples
    --------
    >>> a = spawn_generators(0, 3)
    >>> b = spawn_generators(0, 3)
    >>> [g.integers(100) for g in a] == [g.integers(100) for g in b]
    True
    """
    if isinstance(random_state, np.random.SeedSequence):
        root = random_state
    else:
        root = np.random.SeedSequence(as_random_state(random_state, to="seed"))
    return [np.random.default_rng(s) for s in root.spawn(n)]


@validate_params(
    {
        "func": "callable",
        "n_repeats": Interval("int", 1),
        "random_state": "random_state",
        "n_jobs": "n_jobs",
        "progress": "boolean",
    },
    callbacks=("func",),
)
def repeat(
    func: Callable[..., T],
    n_repeats: int,
    random_state: Any = None,
    n_jobs: int | None = None,
    progress: bool = False,
    desc: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    **kwargs: Any,
) -> list[T]:
    """Call ``func(rng, **kwargs)`` once per repetition, in parallel.

    Parameters
    ----------
    func : callable
        Called as ``func(rng, **kwargs)`` with a fresh ``numpy.random.Generator``.
        It must draw all of its randomness from ``rng``.
    n_repeats : int
        Number of repetitions, >= 1.
    random_state : None, int, SeedSequence, Generator or RandomState
        Root seed (see :func:`spawn_generators`); repetition ``i`` gets the
        ``i``-th spawned generator.
    n_jobs : int or None
        joblib's ``n_jobs`` (a nonzero int: ``-1`` for every core); the
        results do not depend on it.
    progress : bool, default=False
        Show a tqdm progress bar.
    desc : str, optional
        Label of the progress bar.
    checkpoint : str or path-like, optional
        Folder where each repetition's result is saved (pickled, written
        atomically) as soon as it is done. A later call with the same
        ``func``, ``random_state`` and ``kwargs`` loads the saved ones and runs
        only the others, so an interrupted run loses at most the work in
        flight and repeats none; the results are those of an uninterrupted run,
        since repetition ``i`` depends on ``(random_state, i)`` only (a larger
        ``n_repeats`` extends a finished run). The folder holds a fingerprint of
        the call, and a call with other arguments refuses it. Needs an int
        ``random_state``. The caller removes the folder once the results are
        stored for good.
    **kwargs
        Passed to ``func`` unchanged.

    Returns
    -------
    list
        ``func``'s results, in repetition order.

    Examples
    --------
    >>> def mean_of_ten(rng):
    ...     return float(rng.normal(size=10).mean())
    >>> repeat(mean_of_ten, 4, random_state=0) == repeat(mean_of_ten, 4, random_state=0, n_jobs=2)
    True
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     first = repeat(mean_of_ten, 2, random_state=0, checkpoint=folder)  # saves 2
    ...     resumed = repeat(mean_of_ten, 4, random_state=0, checkpoint=folder)  # runs 2 more
    >>> resumed == repeat(mean_of_ten, 4, random_state=0)
    True
    """
    if desc is not None and not isinstance(desc, str):
        raise ArgumentTypeError(f"desc must be a str or None, got {desc!r}")
    if checkpoint is not None:
        _check_folder(checkpoint, "checkpoint")
    rngs = spawn_generators(random_state, n_repeats)
    done: dict[int, T] = {}
    if checkpoint is not None:
        folder = _open_checkpoint(checkpoint, func, random_state, kwargs)
        done = {i: _load(folder, i) for i in saved_repetitions(folder) if i < n_repeats}
    todo = [i for i in range(n_repeats) if i not in done]
    tasks = (delayed(func)(rngs[i], **kwargs) for i in todo)
    results = Parallel(n_jobs=n_jobs, return_as="generator")(tasks)
    bar = tqdm(total=n_repeats, initial=len(done), desc=desc, disable=not progress)
    with bar:
        for i, result in zip(todo, results, strict=True):
            if checkpoint is not None:
                atomic_write(
                    _rep_path(folder, i),
                    lambda tmp, r=result: Path(tmp).write_bytes(pickle.dumps(r)),
                )
            done[i] = result
            bar.update()
    return [done[i] for i in range(n_repeats)]


def columns(rows: Sequence[Any], dtype: Any = None) -> Any:
    """The repetitions' results as columns: one array per key, one entry per repetition.

    Parameters
    ----------
    rows : sequence
        :func:`repeat`'s results, at least one. Dicts (each holding exactly the first
        one's keys: a key missing from a row, or one only a later row has, is refused
        naming the row and the key) become a dict of arrays, key by key and recursively
        for a dict inside a dict; anything else becomes ``numpy.array(rows)``, so a
        repetition that returns an array of shape ``s`` gives an array of shape
        ``(n_repeats, *s)`` (values of unequal shapes are refused).
    dtype : data-type, optional
        The arrays' dtype (default: numpy's choice, as ``numpy.array`` makes it: a column
        of objects, fitted models say, is an object array). A numeric dtype takes only
        numbers it keeps exactly: ``None``, text, and a cast that changes a value
        (``1.5`` to ``int``, ``0.3`` to ``bool``) are refused, naming the column.

    Returns
    -------
    dict of numpy.ndarray, or numpy.ndarray

    Examples
    --------
    >>> cols = columns([{"a": 1.0, "b": {"x": 2}}, {"a": 3.0, "b": {"x": 4}}])
    >>> cols["a"], cols["b"]["x"]
    (array([1., 3.]), array([2, 4]))
    >>> columns([(1, 2), (3, 4)]).shape
    (2, 2)
    >>> columns([{"a": 1.0, "f": len}, {"a": 2.0, "f": len}], dtype=float)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: rows['f'] must hold values numpy can make float64, got ...
    """
    if (
        isinstance(rows, (str, bytes, Mapping))
        or not isinstance(rows, (Sequence, np.ndarray))
        or (isinstance(rows, np.ndarray) and rows.ndim == 0)
    ):
        raise ArgumentTypeError(f"rows must be a sequence of repetitions' results, got {rows!r}")
    if len(rows) == 0:
        raise ValueError("rows must hold at least one repetition's result, got none")
    if dtype is not None:
        try:
            dtype = np.dtype(dtype)
        except TypeError:
            raise ArgumentTypeError(f"dtype must be a numpy data type, got {dtype!r}") from None
    return _columns(rows, dtype, "rows")


def _shape(value: Any) -> str:
    """``value``'s shape as text; ``'ragged'`` for nested lists of unequal lengths."""
    try:
        return str(np.shape(value))
    except ValueError:  # numpy: "inhomogeneous shape"
        return "ragged"


def _columns(rows: Sequence[Any], dtype: Any, where: str) -> Any:
    """:func:`columns` of checked ``rows``; ``where`` names them in an error (``rows['a']``)."""
    first = rows[0]
    if not isinstance(first, Mapping):
        return _column(rows, dtype, where)
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise ValueError(
                f"{where} must all be dicts holding the keys of the first, {list(first)}; "
                f"repetition {i} is {row!r}"
            )
        missing, extra = first.keys() - row.keys(), row.keys() - first.keys()
        if missing or extra:
            what = (
                f"lacks the key {sorted(missing, key=str)[0]!r}"
                if missing
                else f"has the key {sorted(extra, key=str)[0]!r}, which repetition 0 lacks"
            )
            raise ValueError(
                f"{where} must all be dicts holding exactly the keys of the first, "
                f"{list(first)}; repetition {i} {what}"
            )
    return {key: _columns([row[key] for row in rows], dtype, f"{where}[{key!r}]") for key in first}


def _same(a: Any, b: Any) -> bool:
    """Whether ``a`` holds exactly the numbers of ``b`` (NaN equal to NaN)."""
    try:
        return bool(np.array_equal(a, b, equal_nan=True))
    except (TypeError, ValueError):
        return bool(np.array_equal(a, b))


def _column(rows: Sequence[Any], dtype: Any, where: str) -> np.ndarray:
    """One column as an array; with a numeric ``dtype``, only a cast that keeps every value."""
    try:
        natural = np.array(rows)
    except (TypeError, ValueError):  # a ragged column
        natural = None
    if natural is None:
        shapes = [_shape(r) for r in rows]
        if "ragged" in shapes:
            raise ArgumentTypeError(
                f"{where} must hold values of one shape in every repetition; repetition "
                f"{shapes.index('ragged')} is ragged (nested lists of unequal lengths)"
            )
        raise ArgumentTypeError(
            f"{where} must hold values of one shape in every repetition, "
            f"got shapes {', '.join(sorted(set(shapes)))}"
        )
    if dtype is None:
        return natural
    try:
        with np.errstate(over="ignore", invalid="ignore"):  # a lossy cast is refused below
            out = np.array(rows, dtype=dtype)
    except (TypeError, ValueError):  # values the dtype cannot hold
        kinds = sorted({type(r).__name__ for r in rows})
        raise ArgumentTypeError(
            f"{where} must hold values numpy can make {dtype}, got {', '.join(kinds)}"
        ) from None
    if dtype.kind not in "biufc":
        return out
    if natural.dtype.kind not in "biufcO":  # text, dates: not numbers
        raise ArgumentTypeError(
            f"{where} must hold numbers for dtype {dtype}, got {natural.dtype} values"
        )
    if natural.dtype == object:
        nones = [i for i, r in enumerate(rows) if any(v is None for v in np.ravel(r))]
        if nones:
            raise ArgumentTypeError(
                f"{where} must hold numbers for dtype {dtype}, got None in repetition {nones[0]}"
            )
        back = out
    else:  # the round trip: a value the cast changed does not come back
        with np.errstate(over="ignore", invalid="ignore"):
            back = out.astype(natural.dtype)
    if not _same(back, natural):
        i = next((i for i, r in enumerate(rows) if not _same(back[i], natural[i])), 0)
        raise ArgumentTypeError(
            f"{where} must hold values that {dtype} keeps exactly; repetition {i}, "
            f"{rows[i]!r}, would become {out[i].tolist()!r}"
        )
    return out


def repeat_columns(func: Callable[..., Any], n_repeats: int, **kwargs: Any) -> Any:
    """:func:`repeat`, with its results handed back as :func:`columns`.

    The arguments are :func:`repeat`'s (``random_state``, ``n_jobs``, ``progress``,
    ``desc``, ``checkpoint``, then ``func``'s own keywords); the result is
    ``columns(repeat(...))``: for a ``func`` that returns a dict, a dict of arrays with
    one entry per repetition.

    Examples
    --------
    >>> def draw(rng):
    ...     x = rng.normal(size=10)
    ...     return {"mean": float(x.mean()), "max": float(x.max())}
    >>> cols = repeat_columns(draw, 4, random_state=0)
    >>> sorted(cols), cols["mean"].shape
    (['max', 'mean'], (4,))
    >>> bool(cols["mean"][2] == repeat(draw, 4, random_state=0)[2]["mean"])
    True
    """
    return columns(repeat(func, n_repeats, **kwargs))


def saved_repetitions(checkpoint: str | os.PathLike) -> list[int]:
    """The repetitions a :func:`repeat` call has saved in ``checkpoint`` (none if absent).

    Examples
    --------
    >>> saved_repetitions("no/such/folder")
    []
    """
    folder = _check_folder(checkpoint, "checkpoint")
    return sorted(int(p.stem[3:]) for p in folder.glob("rep*.pkl")) if folder.is_dir() else []


def _check_folder(folder: Any, name: str) -> Path:
    if isinstance(folder, bytes) or not isinstance(folder, (str, os.PathLike)):
        raise ArgumentTypeError(f"{name} must be a folder path (str or path-like), got {folder!r}")
    path = Path(folder)
    if str(folder) == "" or path.is_file():
        raise ValueError(f"{name} must be a folder, got {str(folder)!r}")
    return path


def _rep_path(folder: Path, i: int) -> Path:
    return folder / f"rep{i:06d}.pkl"


def _load(folder: Path, i: int) -> Any:
    return pickle.loads(_rep_path(folder, i).read_bytes())


def _open_checkpoint(
    checkpoint: str | os.PathLike, func: Callable, random_state: Any, kwargs: dict
) -> Path:
    """Create or check the checkpoint folder of a :func:`repeat` call."""
    if isinstance(random_state, bool) or not isinstance(random_state, (int, np.integer)):
        raise ValueError(
            f"random_state must be an int when checkpoint is given (a run is "
            f"resumable only if it is reproducible), got {random_state!r}"
        )
    fingerprint = joblib.hash((func.__module__, func.__qualname__, int(random_state), kwargs))
    folder = Path(checkpoint)
    stamp = folder / "fingerprint.txt"
    if stamp.exists():
        if stamp.read_text().strip() != fingerprint:
            raise ValueError(
                f"checkpoint {str(folder)!r} holds repetitions of another call (other function, "
                f"random_state or arguments); delete it or choose another folder"
            )
    else:
        atomic_write_text(stamp, fingerprint + "\n")
    return folder
