"""G. Rätsch's 13 binary benchmarks, as Anguita et al. (2012) use them (chapters 5 and 5b).

Each benchmark is a set of patterns ``(x, t)`` with ``t`` in {-1, +1} and a list of
*realisations*: random splits of the data into a training and a test part (100
per data set, 20 for ``image`` and ``splice``). Realisations are numbered from 1,
as in the paper.

Where the data come from, in this order:

1. ``data_home`` (argument) or, if it is ``None``, the environment variable
   ``CVBOOK_DATA``: a folder holding the canonical ``benchmarks.mat``, or
   ``<name>.npz`` files in the layout of the book's shared copy (searched in the
   folder and in its subfolders ``partial_first10/`` and ``reconstructed/``). A
   ``benchmarks.mat`` in the folder wins over the ``.npz`` files.
2. Otherwise the canonical ``benchmarks.mat`` (Diethe 2015, in the format of
   Cawley and Talbot) is downloaded once with :mod:`pooch`, checked against its
   sha256, and kept in ``pooch.os_cache("cvbook")``. Pooch writes to a temporary
   file and moves it into place only when the checksum matches, so a broken or
   wrong download never stays on disk.

The shared ``.npz`` copy is *not* the full benchmark: it holds realisations 1--10
only, and for five data sets the splits are reconstructed rather than Rätsch's own.
:func:`raetsch_info` says which, for each data set.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy import io as sio

from ..validation import ArgumentTypeError, check_int

__all__ = [
    "BENCHMARKS_DOI",
    "BENCHMARKS_GIT_BLOB",
    "BENCHMARKS_SHA256",
    "BENCHMARKS_SOURCE",
    "BENCHMARKS_URL",
    "RAETSCH_DATASETS",
    "RAETSCH_NAMES",
    "RaetschDataUnavailable",
    "RaetschInfo",
    "fetch_benchmarks",
    "find_raetsch_source",
    "load_raetsch",
    "raetsch_info",
    "raetsch_missing",
    "requires_raetsch",
]

#: Raw URL of ``benchmarks.mat`` at commit 66aa4e7 of tdiethe/gunnar_raetsch_benchmark_datasets.
BENCHMARKS_URL = (
    "https://github.com/tdiethe/gunnar_raetsch_benchmark_datasets/raw/"
    "66aa4e766b60bf031dfd27b9cbe97307cdf7242e/benchmarks.mat"
)
#: sha256 of the canonical ``benchmarks.mat`` (8,912,086 bytes).
BENCHMARKS_SHA256 = "47c19e4bc4716edc4077cfa5ea61edf4d02af4ec51a0ecfe035626ae8b561c75"
#: Git blob id of ``benchmarks.mat`` at that commit: a plain blob, not a large-file pointer,
#: so the raw URL serves the file itself (``git hash-object benchmarks.mat`` gives this id).
BENCHMARKS_GIT_BLOB = "4b54cae3f99419fba1f27f98f7235a799d6580ce"
#: The canonical citation of the file (Diethe 2015, the repository behind it).
BENCHMARKS_DOI = "10.5281/zenodo.18110"
#: Where :data:`BENCHMARKS_URL` points, in words (the README's Data section says the same).
BENCHMARKS_SOURCE = (
    "benchmarks.mat at commit 66aa4e7 of "
    "github.com/tdiethe/gunnar_raetsch_benchmark_datasets "
    f"(doi:{BENCHMARKS_DOI})"
)
#: Environment variable that plays the role of ``data_home``.
DATA_ENV = "CVBOOK_DATA"
_NPZ_SUBFOLDERS = ("", "partial_first10", "reconstructed")

PathLike = str | os.PathLike


class RaetschDataUnavailable(FileNotFoundError):
    """The benchmarks are neither on disk nor downloadable (offline, blocked, ...)."""


def _unavailable_message(cause: str) -> str:
    return (
        f"the Rätsch benchmarks are not on this machine and cannot be downloaded "
        f"({cause}). Pass data_home=<folder> or set the environment variable {DATA_ENV} "
        f"to a folder holding benchmarks.mat (sha256 {BENCHMARKS_SHA256}, git blob "
        f"{BENCHMARKS_GIT_BLOB}; {BENCHMARKS_SOURCE}) or <name>.npz files"
    )


def _check_path_arg(value: Any, name: str) -> Path | None:
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)) or (isinstance(value, str) and not value):
        raise ArgumentTypeError(
            f"{name} must be a folder or file path (str or os.PathLike) or None, got {value!r}"
        )
    return Path(value).expanduser()


@dataclass(frozen=True)
class RaetschInfo:
    """Sizes of one benchmark, and how faithful the shared ``.npz`` copy of it is.

    Attributes
    ----------
    name : str
        Name of the data set, as in ``benchmarks.mat``.
    n_unique : int
        Number of distinct patterns ``(x, t)``.
    n_train, n_test : int
        Sizes of the training and test part of every realisation.
    d : int
        Number of features.
    n_realisations : int
        Realisations in the canonical ``benchmarks.mat`` (100, or 20).
    shared_folder : str
        Subfolder of the shared copy holding ``<name>.npz``: ``"partial_first10"``
        or ``"reconstructed"``.
    shared_splits : str
        What the 10 realisations of the shared copy are: ``"raetsch"`` (Rätsch's
        realisations 1--10), ``"raetsch_unnumbered"`` (10 genuine Rätsch splits
        whose numbers are unknown), ``"generated"`` (new random splits made the
        way Rätsch made his) or ``"mixed"`` (twonorm: realisation 1 is Rätsch's,
        2--10 are generated).
    """

    name: str
    n_unique: int
    n_train: int
    n_test: int
    d: int
    n_realisations: int
    shared_folder: str
    shared_splits: str

    @property
    def shared_is_faithful(self) -> bool:
        """True when the shared copy holds Rätsch's own realisations 1--10."""
        return self.shared_splits == "raetsch"


def _info(name, n_unique, n_train, n_test, d, n_real, folder, splits) -> RaetschInfo:
    return RaetschInfo(name, n_unique, n_train, n_test, d, n_real, folder, splits)


#: Every benchmark, from the reference table of the shared data's README.
RAETSCH_DATASETS: dict[str, RaetschInfo] = {
    i.name: i
    for i in (
        _info("banana", 5300, 400, 4900, 2, 100, "partial_first10", "raetsch"),
        _info("breast_cancer", 263, 200, 77, 9, 100, "partial_first10", "raetsch"),
        _info("diabetis", 768, 468, 300, 8, 100, "reconstructed", "raetsch_unnumbered"),
        _info("flare_solar", 144, 666, 400, 9, 100, "reconstructed", "generated"),
        _info("german", 1000, 700, 300, 20, 100, "partial_first10", "raetsch"),
        _info("heart", 270, 170, 100, 13, 100, "partial_first10", "raetsch"),
        _info("image", 2086, 1300, 1010, 18, 20, "partial_first10", "raetsch"),
        _info("ringnorm", 7400, 400, 7000, 20, 100, "partial_first10", "raetsch"),
        _info("splice", 2991, 1000, 2175, 60, 20, "reconstructed", "generated"),
        _info("thyroid", 215, 140, 75, 5, 100, "reconstructed", "raetsch_unnumbered"),
        _info("titanic", 24, 150, 2051, 3, 100, "partial_first10", "raetsch"),
        _info("twonorm", 7400, 400, 7000, 20, 100, "reconstructed", "mixed"),
        _info("waveform", 5000, 400, 4600, 21, 100, "partial_first10", "raetsch"),
    )
}
#: The 13 names, in alphabetical order.
RAETSCH_NAMES: tuple[str, ...] = tuple(RAETSCH_DATASETS)


def _check_name(name) -> str:
    if not isinstance(name, str) or name not in RAETSCH_DATASETS:
        raise ValueError(f"name must be one of {', '.join(RAETSCH_NAMES)}; got {name!r}")
    return name


def raetsch_info(name: str) -> RaetschInfo:
    """Sizes of benchmark ``name`` and the provenance of its shared copy.

    Parameters
    ----------
    name : str
        One of :data:`RAETSCH_NAMES`.

    Returns
    -------
    RaetschInfo

    Examples
    --------
    >>> info = raetsch_info("heart")
    >>> info.n_train, info.n_test, info.d, info.n_realisations
    (170, 100, 13, 100)
    >>> info.shared_is_faithful, raetsch_info("splice").shared_splits
    (True, 'generated')
    """
    return RAETSCH_DATASETS[_check_name(name)]


def fetch_benchmarks(
    cache_dir: PathLike | None = None,
    *,
    url: str | None = None,
    known_hash: str | None = None,
    downloader: Callable | None = None,
) -> Path:
    """Download the canonical ``benchmarks.mat`` once and return its path.

    The file is checked against :data:`BENCHMARKS_SHA256`. A file whose checksum
    is wrong is deleted by pooch before it ever reaches its final name, and this
    function raises a :class:`ValueError` that names the file and the expected
    checksum. A file already in the cache is re-hashed, and fetched again if it
    does not match.

    Parameters
    ----------
    cache_dir : path-like, optional
        Folder of the cached file; default ``pooch.os_cache("cvbook")``.
    url : str, optional
        Where to download from; default :data:`BENCHMARKS_URL`.
    known_hash : str, optional
        Expected sha256 (hex); default :data:`BENCHMARKS_SHA256`.
    downloader : callable, optional
        A pooch downloader ``downloader(url, output_file, pooch)``; default: the
        one pooch picks for the URL. Tests pass one that copies a local file.

    Returns
    -------
    pathlib.Path
        Path of the verified ``benchmarks.mat``.

    Examples
    --------
    >>> import hashlib, pathlib, shutil, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (tmp / "source.mat").write_bytes(b"not really a mat file")
    >>> sha = hashlib.sha256(b"not really a mat file").hexdigest()
    >>> def copy(url, output_file, pooch):
    ...     shutil.copyfile(url.removeprefix("file://"), output_file)
    >>> path = fetch_benchmarks(tmp / "cache", url=(tmp / "source.mat").as_uri(),
    ...                         known_hash=sha, downloader=copy)
    >>> path.name, path.read_bytes() == b"not really a mat file"
    ('benchmarks.mat', True)
    >>> shutil.rmtree(tmp)
    """
    # pooch is imported here, not at module level: it imports tqdm.auto, which warns in
    # every notebook kernel without ipywidgets, and only a download needs it.
    import pooch

    cache_dir = _check_path_arg(cache_dir, "cache_dir")
    for arg, value in (("url", url), ("known_hash", known_hash)):
        if value is not None and not isinstance(value, str):
            raise ArgumentTypeError(f"{arg} must be a str or None, got {value!r}")
    if downloader is not None and not callable(downloader):
        raise ArgumentTypeError(f"downloader must be callable or None, got {downloader!r}")
    cache_dir = cache_dir if cache_dir is not None else Path(pooch.os_cache("cvbook"))
    url = BENCHMARKS_URL if url is None else url
    sha = BENCHMARKS_SHA256 if known_hash is None else known_hash.removeprefix("sha256:")
    try:
        path = pooch.retrieve(
            url,
            known_hash=f"sha256:{sha}",
            fname="benchmarks.mat",
            path=cache_dir,
            downloader=downloader,
            progressbar=False,
        )
    except ValueError as err:
        raise ValueError(
            f"the downloaded file benchmarks.mat (from {url}) does not have the expected "
            f"sha256 checksum {sha}; it was deleted and not used ({err})"
        ) from err
    except Exception as err:  # no network, DNS, proxy, HTTP error, read-only cache...
        cause = f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"
        raise RaetschDataUnavailable(_unavailable_message(cause[:100])) from None
    return Path(path)


def find_raetsch_source(name: str, data_home: PathLike | None = None) -> Path | None:
    """The local file :func:`load_raetsch` would read ``name`` from, or ``None``.

    ``data_home`` defaults to the environment variable ``CVBOOK_DATA``. In that
    folder, ``benchmarks.mat`` is preferred; then ``<name>.npz`` in the folder, in
    ``partial_first10/`` and in ``reconstructed/``. ``data_home`` may also be the
    path of a ``.mat`` or ``.npz`` file itself.

    Parameters
    ----------
    name : str
        One of :data:`RAETSCH_NAMES`.
    data_home : path-like, optional
        Folder to search.

    Returns
    -------
    pathlib.Path or None
        ``None`` when neither ``data_home`` nor ``CVBOOK_DATA`` is set, that is
        when :func:`load_raetsch` would download.

    Raises
    ------
    FileNotFoundError
        If the folder is set but holds no file for ``name``.
    TypeError
        If ``data_home`` is not a path (an ``ArgumentTypeError``, also a ``ValueError``).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> home = pathlib.Path(tempfile.mkdtemp())
    >>> (home / "reconstructed").mkdir()
    >>> np.savez(home / "reconstructed" / "thyroid.npz", x=np.eye(3), t=[1, -1, 1],
    ...          train=[[0, 1]], test=[[2]])
    >>> find_raetsch_source("thyroid", home).relative_to(home).as_posix()
    'reconstructed/thyroid.npz'
    """
    name = _check_name(name)
    home = _check_path_arg(data_home, "data_home")
    if home is None:
        data_home = os.environ.get(DATA_ENV) or None
        if data_home is None:
            return None
        setting = f"{DATA_ENV}={data_home!r}"
        home = Path(data_home).expanduser()
    else:
        setting = f"data_home={str(data_home)!r}"
    if home.is_file() and home.suffix in (".mat", ".npz"):
        return home
    candidates = [home / "benchmarks.mat"] + [home / sub / f"{name}.npz" for sub in _NPZ_SUBFOLDERS]
    for path in candidates:
        if path.is_file():
            return path
    raise FileNotFoundError(
        f"{setting} holds no data for {name!r}: none of "
        + ", ".join(str(p) for p in candidates)
        + " exists"
    )


@functools.lru_cache(maxsize=16)
def _read_mat(path: str, name: str, _stamp: tuple) -> dict[str, np.ndarray]:
    """Read one struct of a benchmarks.mat file (indices turned 0-based)."""
    try:
        mat = sio.loadmat(path, variable_names=[name])
    except Exception as err:  # scipy raises several types for a bad file
        raise ValueError(f"cannot read {path} as a MATLAB file: {err}") from err
    if name not in mat:
        raise ValueError(f"{path} holds no struct named {name!r}")
    struct = mat[name]
    fields = struct.dtype.names or ()
    missing = {"x", "t", "train", "test"} - set(fields)
    if missing:
        raise ValueError(
            f"struct {name!r} in {path} lacks the field(s) {sorted(missing)}; "
            "expected x, t, train, test (Cawley & Talbot format)"
        )
    record = struct[0, 0] if struct.ndim == 2 else struct.item()
    x = np.atleast_2d(np.asarray(record["x"], dtype=float))
    t = np.asarray(record["t"]).ravel()
    train = np.atleast_2d(np.asarray(record["train"]))
    test = np.atleast_2d(np.asarray(record["test"]))
    for label, idx in (("train", train), ("test", test)):
        if (
            idx.size == 0
            or not np.all(np.isfinite(idx))
            or np.any(idx != np.round(idx))
            or idx.min() < 1
            or idx.max() > len(x)
        ):
            raise ValueError(
                f"{name}.{label} in {path} must hold 1-based indices into the {len(x)} patterns"
            )
    raw = {"x": x, "t": t, "train": train.astype(np.int64) - 1, "test": test.astype(np.int64) - 1}
    return _check_layout(raw, path, name)


def _check_layout(data: dict, path: str, where: str) -> dict[str, np.ndarray]:
    """The arrays of one benchmark, checked: finite 2-d ``x``, one label ``t`` per row,
    and ``train``/``test`` integer index matrices (one row per realisation) in
    ``[0, len(x))`` and non-empty. Repeated indices are kept: Rätsch's own splits of
    breast_cancer, image and titanic hold some."""
    x, t = data["x"], np.asarray(data["t"]).ravel()
    if x.ndim != 2 or x.shape[0] == 0 or x.shape[1] == 0:
        raise ValueError(f"{where}: x in {path} must be a 2-d array of patterns, got {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{where}: x in {path} must be finite: it holds NaN or infinite values")
    if t.shape[0] != x.shape[0]:
        raise ValueError(
            f"{where}: t in {path} must hold one label per pattern: {t.shape[0]} labels "
            f"for {x.shape[0]} patterns"
        )
    n = x.shape[0]
    out = {"x": x, "t": t}
    for label in ("train", "test"):
        idx = np.asarray(data[label])
        if idx.ndim == 1:
            idx = idx[None, :]
        if idx.dtype.kind == "f" and np.all(np.isfinite(idx)) and np.all(idx == np.round(idx)):
            idx = idx.astype(np.int64)
        if idx.dtype.kind not in "iu" or idx.ndim != 2:
            raise ValueError(
                f"{where}: {label} in {path} must be a 2-d array of integer indices "
                f"(one row per realisation), got dtype {idx.dtype} and shape {idx.shape}"
            )
        if idx.shape[0] == 0 or idx.shape[1] == 0:
            raise ValueError(f"{where}: {label} in {path} is empty (shape {idx.shape})")
        if idx.min() < 0 or idx.max() >= n:
            raise ValueError(
                f"{where}: {label} in {path} must hold indices in [0, {n}) (0-based, no "
                f"wrap-around), got values from {int(idx.min())} to {int(idx.max())}"
            )
        out[label] = idx.astype(np.int64)
    if out["train"].shape[0] != out["test"].shape[0]:
        raise ValueError(
            f"{where}: train and test in {path} must hold as many realisations, got "
            f"{out['train'].shape[0]} and {out['test'].shape[0]}"
        )
    return out


@functools.lru_cache(maxsize=16)
def _read_npz(path: str, _stamp: tuple) -> dict[str, np.ndarray]:
    import zipfile

    try:
        with np.load(path, allow_pickle=False) as data:
            if not hasattr(data, "files"):
                raise ValueError("it holds one array, not the arrays x, t, train, test")
            missing = {"x", "t", "train", "test"} - set(data.files)
            if missing:
                raise ValueError(
                    f"{path} lacks the array(s) {sorted(missing)}; "
                    "expected x, t, train, test (0-based indices)"
                )
            raw = {key: np.asarray(data[key]) for key in ("x", "t", "train", "test")}
    except (OSError, EOFError, zipfile.BadZipFile, ValueError) as err:
        if "lacks the array" in str(err):
            raise
        why = "not a zip archive of .npy arrays" if "pickle" in str(err) else str(err)
        raise ValueError(
            f"cannot read {path} as a .npz file holding x, t, train, test "
            f"(is it truncated or not an .npz file?): {why}"
        ) from None
    try:
        raw["x"] = raw["x"].astype(float)
    except (TypeError, ValueError):
        raise ValueError(f"x in {path} must hold numbers, got dtype {raw['x'].dtype}") from None
    return _check_layout(raw, path, Path(path).stem)


def _stamp(path: Path) -> tuple:
    stat = path.stat()
    return (stat.st_size, stat.st_mtime_ns)


def load_raetsch(
    name: str, realisation: int, data_home: PathLike | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One realisation of one of Rätsch's benchmarks.

    Parameters
    ----------
    name : str
        One of :data:`RAETSCH_NAMES` (``"banana"``, ``"breast_cancer"``,
        ``"diabetis"``...).
    realisation : int
        Number of the train/test split, from 1 (as in the paper) to the number of
        realisations in the source: 100 (20 for image and splice) in
        ``benchmarks.mat``, 10 in the shared ``.npz`` copy. For the
        reconstructed ``.npz`` files, ``realisation=r`` is the r-th stored split,
        which is not Rätsch's realisation r (see :func:`raetsch_info`).
    data_home : path-like, optional
        Folder holding ``benchmarks.mat`` or ``<name>.npz`` files (see
        :func:`find_raetsch_source`); default the environment variable
        ``CVBOOK_DATA``, and if that is unset, the canonical file downloaded by
        :func:`fetch_benchmarks`.

    Returns
    -------
    X_train : ndarray of shape (n_train, d), float
    y_train : ndarray of shape (n_train,), int, values in {-1, +1}
    X_test : ndarray of shape (n_test, d), float
    y_test : ndarray of shape (n_test,), int, values in {-1, +1}

    Raises
    ------
    ValueError
        For an unknown ``name``, a ``realisation`` out of range, a file that is
        not in the expected layout, or a download with the wrong checksum.
    FileNotFoundError
        If ``data_home`` (or ``CVBOOK_DATA``) holds no file for ``name``;
        :class:`RaetschDataUnavailable` (a ``FileNotFoundError``) when neither is set
        and the download cannot happen. Its one-line message names ``data_home``,
        ``CVBOOK_DATA``, the expected files, their checksum and source.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> home = pathlib.Path(tempfile.mkdtemp())
    >>> np.savez(home / "heart.npz", x=[[0.0], [1.0], [2.0]], t=[1, -1, 1],
    ...          train=[[0, 1], [1, 2]], test=[[2], [0]])
    >>> X_train, y_train, X_test, y_test = load_raetsch("heart", 2, data_home=home)
    >>> X_train.ravel().tolist(), y_train.tolist(), y_test.tolist()
    ([1.0, 2.0], [-1, 1], [1])
    >>> load_raetsch("heart", 3, data_home=home)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: realisation must be an integer in 1..2 for 'heart' in ...; got 3
    >>> load_raetsch("bananas", 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: name must be one of banana, breast_cancer, ..., waveform; got 'bananas'
    """
    name = _check_name(name)
    realisation = check_int(realisation, "realisation", minimum=1)
    path = find_raetsch_source(name, data_home)
    if path is None:
        path = fetch_benchmarks()
    if path.suffix == ".npz":
        if path.stem != name:
            raise ValueError(
                f"data_home points at {path}, which holds {path.stem!r}, not name={name!r}"
            )
        data = _read_npz(str(path), _stamp(path))
    else:
        data = _read_mat(str(path), name, _stamp(path))
    n_real = data["train"].shape[0]
    if not 1 <= realisation <= n_real:
        raise ValueError(
            f"realisation must be an integer in 1..{n_real} for {name!r} "
            f"in {path}; got {realisation}"
        )
    labels = set(np.unique(data["t"]).tolist())
    if not labels <= {-1, 1}:
        raise ValueError(f"labels t of {name!r} in {path} must be -1/+1, got {sorted(labels)}")
    x, t = data["x"], data["t"].astype(np.int64)
    train, test = data["train"][realisation - 1], data["test"][realisation - 1]
    return x[train].copy(), t[train], x[test].copy(), t[test]


def raetsch_missing(data_home: PathLike | None = None) -> str | None:
    """Why the Rätsch benchmarks cannot be read without a download, or ``None`` if they can.

    Looks at ``data_home`` (default ``CVBOOK_DATA``) and at the download cache; it
    never downloads. The data count as present when every one of the 13 data sets has
    a file.

    Parameters
    ----------
    data_home : path-like, optional
        Folder to look in, as for :func:`load_raetsch`.

    Returns
    -------
    str or None
        A one-line reason naming what is missing, or ``None``.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> raetsch_missing(pathlib.Path(tempfile.mkdtemp()) / "nowhere")  # doctest: +ELLIPSIS
    "data_home='...nowhere' holds no data for 'banana'"
    """
    try:
        paths = [find_raetsch_source(name, data_home) for name in RAETSCH_NAMES]
    except FileNotFoundError as err:
        return str(err).split(": none of")[0]
    if paths[0] is not None:
        return None
    import pooch

    cached = Path(pooch.os_cache("cvbook")) / "benchmarks.mat"
    if cached.is_file():
        return None
    return (
        f"neither data_home nor {DATA_ENV} is set, and no downloaded benchmarks.mat "
        f"is cached at {cached}"
    )


def requires_raetsch(data_home: PathLike | None = None) -> Path | None:
    """For tests: the data folder, or skip the test -- or fail it under ``CI=true``.

    A test that needs the Rätsch files calls this first. When the files are missing
    it is skipped with the reason, except when the environment variable ``CI`` is
    ``true``, where a missing data folder is an error of the CI set-up and fails the
    test. Imports pytest, so call it from tests only.

    Parameters
    ----------
    data_home : path-like, optional
        Folder to look in, as for :func:`load_raetsch`.

    Returns
    -------
    pathlib.Path or None
        ``data_home`` as a path (``None`` when it was ``None`` and the data are found
        through ``CVBOOK_DATA`` or the cache).
    """
    import pytest

    reason = raetsch_missing(data_home)
    if reason is None:
        return None if data_home is None else Path(data_home)
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but the Rätsch benchmarks are missing: {reason}", pytrace=False)
    pytest.skip(f"Rätsch benchmarks not found: {reason}")
