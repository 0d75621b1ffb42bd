"""G. Rätsch's 13 binary benchmarks, as Anguita et al. (2012) use them.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Union

import numpy as np
from scipy import io as sio

from .._checks import check_int

__all__ = [
    "RAETSCH_NAMES",
    "RAETSCH_DATASETS",
    "RaetschInfo",
    "BENCHMARKS_URL",
    "BENCHMARKS_SHA256",
    "raetsch_info",
    "fetch_benchmarks",
    "find_raetsch_source",
    "load_raetsch",
]

#: Raw URL of ``benchmarks.mat`` at commit 66aa4e7 of tdiethe/gunnar_raetsch_benchmark_datasets.
BENCHMARKS_URL = (
    "https://github.com/tdiethe/gunnar_raetsch_benchmark_datasets/raw/"
    "66aa4e766b60bf031dfd27b9cbe97307cdf7242e/benchmarks.mat"
)
#: sha256 of the canonical ``benchmarks.mat`` (8,912,086 bytes).
BENCHMARKS_SHA256 = "47c19e4bc4716edc4077cfa5ea61edf4d02af4ec51a0ecfe035626ae8b561c75"
#: Environment variable that plays the role of ``data_home``.
DATA_ENV = "CVBOOK_DATA"
_NPZ_SUBFOLDERS = ("", "partial_first10", "reconstructed")

PathLike = Union[str, os.PathLike]


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
RAETSCH_DATASETS: dict[str, RaetschInfo] = {i.name: i for i in (
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
)}
#: The 13 names, in alphabetical order.
RAETSCH_NAMES: tuple[str, ...] = tuple(RAETSCH_DATASETS)


def _check_name(name) -> str:
    if not isinstance(name, str) or name not in RAETSCH_DATASETS:
        raise ValueError(
            f"name must be one of {', '.join(RAETSCH_NAMES)}; got {name!r}")
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


def fetch_benchmarks(cache_dir: Optional[PathLike] = None, *, url: Optional[str] = None,
                     known_hash: Optional[str] = None,
                     downloader: Optional[Callable] = None) -> Path:
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

    cache_dir = Path(cache_dir) if cache_dir is not None else Path(pooch.os_cache("cvbook"))
    url = BENCHMARKS_URL if url is None else url
    sha = BENCHMARKS_SHA256 if known_hash is None else known_hash.removeprefix("sha256:")
    try:
        path = pooch.retrieve(url, known_hash=f"sha256:{sha}", fname="benchmarks.mat",
                              path=cache_dir, downloader=downloader, progressbar=False)
    except ValueError as err:
        raise ValueError(
            f"the downloaded file benchmarks.mat (from {url}) does not have the expected "
            f"sha256 checksum {sha}; it was deleted and not used ({err})") from err
    return Path(path)


def find_raetsch_source(name: str, data_home: Optional[PathLike] = None) -> Optional[Path]:
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
    if data_home is None:
        data_home = os.environ.get(DATA_ENV) or None
        if data_home is None:
            return None
        setting = f"{DATA_ENV}={data_home!r}"
    else:
        setting = f"data_home={str(data_home)!r}"
    home = Path(data_home).expanduser()
    if home.is_file() and home.suffix in (".mat", ".npz"):
        return home
    candidates = [home / "benchmarks.mat"] + [home / sub / f"{name}.npz"
                                               for sub in _NPZ_SUBFOLDERS]
    for path in candidates:
        if path.is_file():
            return path
    raise FileNotFoundError(
        f"{setting} holds no data for {name!r}: none of "
        + ", ".join(str(p) for p in candidates) + " exists")


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
        raise ValueError(f"struct {name!r} in {path} lacks the field(s) {sorted(missing)}; "
                         "expected x, t, train, test (Cawley & Talbot format)")
    record = struct[0, 0] if struct.ndim == 2 else struct.item()
    x = np.atleast_2d(np.asarray(record["x"], dtype=float))
    t = np.asarray(record["t"]).ravel()
    train = np.atleast_2d(np.asarray(record["train"]))
    test = np.atleast_2d(np.asarray(record["test"]))
    for label, idx in (("train", train), ("test", test)):
        if np.any(idx != np.round(idx)) or idx.min() < 1 or idx.max() > len(x):
            raise ValueError(f"{name}.{label} in {path} must hold 1-based indices "
                             f"into the {len(x)} patterns")
    return {"x": x, "t": t, "train": train.astype(np.int64) - 1,
            "test": test.astype(np.int64) - 1}


@functools.lru_cache(maxsize=16)
def _read_npz(path: str, _stamp: tuple) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        missing = {"x", "t", "train", "test"} - set(data.files)
        if missing:
            raise ValueError(f"{path} lacks the array(s) {sorted(missing)}; "
                             "expected x, t, train, test (0-based indices)")
        return {"x": np.asarray(data["x"], dtype=float),
                "t": np.asarray(data["t"]).ravel(),
                "train": np.asarray(data["train"], dtype=np.int64),
                "test": np.asarray(data["test"], dtype=np.int64)}


def _stamp(path: Path) -> tuple:
    stat = path.stat()
    return (stat.st_size, stat.st_mtime_ns)


def load_raetsch(name: str, realisation: int, data_home: Optional[PathLike] = None
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
        If ``data_home`` (or ``CVBOOK_DATA``) holds no file for ``name``.

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
    >>> load_raetsch("bananas", 1)
    Traceback (most recent call last):
    ...
    ValueError: name must be one of banana, breast_cancer, diabetis, flare_solar, german, heart, image, ringnorm, splice, thyroid, titanic, twonorm, waveform; got 'bananas'
    """
    name = _check_name(name)
    realisation = check_int(realisation, "realisation")
    path = find_raetsch_source(name, data_home)
    if path is None:
        path = fetch_benchmarks()
    if path.suffix == ".npz":
        if path.stem != name:
            raise ValueError(f"data_home points at {path}, which holds {path.stem!r}, "
                             f"not name={name!r}")
        data = _read_npz(str(path), _stamp(path))
    else:
        data = _read_mat(str(path), name, _stamp(path))
    n_real = data["train"].shape[0]
    if not 1 <= realisation <= n_real:
        raise ValueError(f"realisation must be an integer in 1..{n_real} for {name!r} "
                         f"in {path}; got {realisation}")
    labels = set(np.unique(data["t"]).tolist())
    if not labels <= {-1, 1}:
        raise ValueError(f"labels t of {name!r} in {path} must be -1/+1, got {sorted(labels)}")
    x, t = data["x"], data["t"].astype(np.int64)
    train, test = data["train"][realisation - 1], data["test"][realisation - 1]
    return x[train].copy(), t[train], x[test].copy(), t[test]
