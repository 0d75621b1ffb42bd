"""Tests of cvbook.datasets.raetsch: parsing, argument checks, checksummed download.

No test touches the network: downloads go through a pooch downloader that copies
a local ``file://`` URL. The shared copy of the benchmarks is read from
``../shared/data/raetsch`` (relative to the repository root) when it exists.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pooch
import pytest
from scipy import io as sio

from cvbook.datasets import raetsch
from cvbook.datasets.raetsch import (
    RAETSCH_DATASETS,
    RAETSCH_NAMES,
    fetch_benchmarks,
    find_raetsch_source,
    load_raetsch,
    raetsch_info,
)

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "raetsch"
needs_shared = pytest.mark.skipif(
    not SHARED.is_dir(),
    reason=f"shared Rätsch data not found at {SHARED} (the tests read it, never commit it)")


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    """A CVBOOK_DATA set in the caller's shell must not leak into the tests."""
    monkeypatch.delenv("CVBOOK_DATA", raising=False)


# --------------------------------------------------------------------------- helpers

def _toy(seed: int = 0, n: int = 12, d: int = 3, n_train: int = 7, n_real: int = 4):
    """A small benchmark: unique patterns and 0-based splits, Rätsch-style."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    t = np.where(rng.random(n) < 0.5, -1, 1)
    perms = np.array([rng.permutation(n) for _ in range(n_real)])
    return x, t, perms[:, :n_train], perms[:, n_train:]


def _write_mat(path: Path, datasets: dict, **kwargs) -> Path:
    """benchmarks.mat in the Cawley & Talbot layout: one struct per data set,
    ``t`` a column of ±1 doubles, ``train``/``test`` 1-based double matrices."""
    content = {name: {"x": x, "t": t.reshape(-1, 1).astype(float),
                      "train": (train + 1).astype(float), "test": (test + 1).astype(float)}
               for name, (x, t, train, test) in datasets.items()}
    sio.savemat(path, content, **kwargs)
    return path


def _copy_downloader(calls: list | None = None):
    """A pooch downloader for file:// URLs (no network)."""
    def download(url, output_file, pooch_obj):
        if calls is not None:
            calls.append(url)
        shutil.copyfile(urlparse(url).path, output_file)
    return download


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --------------------------------------------------------------------------- the table

def test_table_has_the_13_benchmarks():
    assert RAETSCH_NAMES == ("banana", "breast_cancer", "diabetis", "flare_solar", "german",
                             "heart", "image", "ringnorm", "splice", "thyroid", "titanic",
                             "twonorm", "waveform")
    assert {raetsch_info(n).n_realisations for n in RAETSCH_NAMES} == {20, 100}
    assert [n for n in RAETSCH_NAMES if raetsch_info(n).n_realisations == 20] == ["image", "splice"]
    assert sum(raetsch_info(n).shared_is_faithful for n in RAETSCH_NAMES) == 8


@pytest.mark.parametrize("bad", ["bananas", "Banana", "", None, 3])
def test_unknown_name_is_a_value_error_listing_the_names(bad):
    with pytest.raises(ValueError, match=r"name must be one of banana, .*waveform"):
        raetsch_info(bad)
    with pytest.raises(ValueError, match=r"name must be one of"):
        load_raetsch(bad, 1, data_home=".")


# --------------------------------------------------------------------------- .mat parsing

def test_mat_parsing_rebuilds_every_realisation(tmp_path):
    toy = {"heart": _toy(0), "banana": _toy(1, n=9, d=2, n_train=5, n_real=3)}
    _write_mat(tmp_path / "benchmarks.mat", toy)
    for name, (x, t, train, test) in toy.items():
        for r in range(1, train.shape[0] + 1):
            X_tr, y_tr, X_te, y_te = load_raetsch(name, r, data_home=tmp_path)
            np.testing.assert_array_equal(X_tr, x[train[r - 1]])
            np.testing.assert_array_equal(y_tr, t[train[r - 1]])
            np.testing.assert_array_equal(X_te, x[test[r - 1]])
            np.testing.assert_array_equal(y_te, t[test[r - 1]])
            assert y_tr.dtype.kind == "i" and X_tr.dtype == np.float64


@pytest.mark.parametrize("compress", [False, True])   # True: MATLAB v7's compressed v5 file
def test_mat_parsing_compressed_and_one_realisation(tmp_path, compress):
    x, t, train, test = _toy(2, n_real=1)
    _write_mat(tmp_path / "benchmarks.mat", {"thyroid": (x, t, train, test)},
               do_compression=compress)
    X_tr, y_tr, X_te, y_te = load_raetsch("thyroid", 1, data_home=tmp_path)
    np.testing.assert_array_equal(X_tr, x[train[0]])
    np.testing.assert_array_equal(y_te, t[test[0]])
    with pytest.raises(ValueError, match=r"realisation must be an integer in 1\.\.1"):
        load_raetsch("thyroid", 2, data_home=tmp_path)


def test_mat_and_npz_layouts_agree(tmp_path):
    x, t, train, test = _toy(3)
    (tmp_path / "mat").mkdir()
    (tmp_path / "npz").mkdir()
    _write_mat(tmp_path / "mat" / "benchmarks.mat", {"german": (x, t, train, test)})
    np.savez_compressed(tmp_path / "npz" / "german.npz", x=x, t=t.astype(np.int8),
                        train=train.astype(np.int32), test=test.astype(np.int32))
    for r in range(1, 5):
        a = load_raetsch("german", r, data_home=tmp_path / "mat")
        b = load_raetsch("german", r, data_home=tmp_path / "npz")
        for u, v in zip(a, b):
            np.testing.assert_array_equal(u, v)


def test_mat_with_zero_based_indices_is_rejected(tmp_path):
    x, t, train, test = _toy(4)
    sio.savemat(tmp_path / "benchmarks.mat",
                {"heart": {"x": x, "t": t.reshape(-1, 1), "train": train, "test": test}})
    assert min(train.min(), test.min()) == 0   # a 0-based split uses index 0
    with pytest.raises(ValueError, match="1-based indices"):
        load_raetsch("heart", 1, data_home=tmp_path)


def test_mat_without_the_data_set_or_a_field_is_rejected(tmp_path):
    x, t, train, test = _toy(5)
    _write_mat(tmp_path / "benchmarks.mat", {"heart": (x, t, train, test)})
    with pytest.raises(ValueError, match="no struct named 'banana'"):
        load_raetsch("banana", 1, data_home=tmp_path)
    sio.savemat(tmp_path / "benchmarks.mat", {"heart": {"x": x, "t": t.reshape(-1, 1)}})
    with pytest.raises(ValueError, match=r"lacks the field\(s\) \['test', 'train'\]"):
        load_raetsch("heart", 1, data_home=tmp_path)


def test_labels_other_than_plus_minus_one_are_rejected(tmp_path):
    x, t, train, test = _toy(6)
    _write_mat(tmp_path / "benchmarks.mat", {"heart": (x, (t + 1) // 2, train, test)})
    with pytest.raises(ValueError, match="must be -1/\\+1"):
        load_raetsch("heart", 1, data_home=tmp_path)


def test_a_file_that_is_not_matlab_is_a_value_error(tmp_path):
    (tmp_path / "benchmarks.mat").write_bytes(b"<html>rate limited</html>")
    with pytest.raises(ValueError, match="cannot read .* as a MATLAB file"):
        load_raetsch("heart", 1, data_home=tmp_path)


@pytest.mark.parametrize("bad", [0, -1, 5, 1.0, "1", True, None])
def test_realisation_out_of_range_or_not_an_int(tmp_path, bad):
    _write_mat(tmp_path / "benchmarks.mat", {"heart": _toy(7)})
    with pytest.raises(ValueError, match="realisation must be"):
        load_raetsch("heart", bad, data_home=tmp_path)


def test_returned_arrays_do_not_alias_the_cache(tmp_path):
    x, t, train, test = _toy(8)
    _write_mat(tmp_path / "benchmarks.mat", {"heart": (x, t, train, test)})
    X_tr, y_tr, _, _ = load_raetsch("heart", 1, data_home=tmp_path)
    X_tr[:] = 99.0
    y_tr[:] = 0
    X_again, y_again, _, _ = load_raetsch("heart", 1, data_home=tmp_path)
    np.testing.assert_array_equal(X_again, x[train[0]])
    np.testing.assert_array_equal(y_again, t[train[0]])


def test_a_rewritten_file_is_read_again(tmp_path):
    _write_mat(tmp_path / "benchmarks.mat", {"heart": _toy(9)})
    first = load_raetsch("heart", 1, data_home=tmp_path)[0]
    x, t, train, test = _toy(10)
    _write_mat(tmp_path / "benchmarks.mat", {"heart": (x, t, train, test)})
    second = load_raetsch("heart", 1, data_home=tmp_path)[0]
    np.testing.assert_array_equal(second, x[train[0]])
    assert not np.array_equal(first, second)


# --------------------------------------------------------------------------- where the data come from

def test_search_order_in_data_home(tmp_path):
    home = tmp_path
    (home / "reconstructed").mkdir()
    np.savez(home / "reconstructed" / "thyroid.npz", x=np.eye(2), t=[1, -1],
             train=[[0]], test=[[1]])
    assert find_raetsch_source("thyroid", home) == home / "reconstructed" / "thyroid.npz"
    np.savez(home / "thyroid.npz", x=np.eye(2), t=[1, -1], train=[[1]], test=[[0]])
    assert find_raetsch_source("thyroid", home) == home / "thyroid.npz"
    _write_mat(home / "benchmarks.mat", {"thyroid": _toy(11)})
    assert find_raetsch_source("thyroid", home) == home / "benchmarks.mat"   # canonical wins
    assert find_raetsch_source("thyroid", home / "thyroid.npz") == home / "thyroid.npz"
    with pytest.raises(ValueError, match="holds 'thyroid', not name='heart'"):
        load_raetsch("heart", 1, data_home=home / "thyroid.npz")


def test_environment_variable_points_at_a_folder(tmp_path, monkeypatch):
    x, t, train, test = _toy(12)
    _write_mat(tmp_path / "benchmarks.mat", {"heart": (x, t, train, test)})
    monkeypatch.setenv("CVBOOK_DATA", str(tmp_path))
    np.testing.assert_array_equal(load_raetsch("heart", 2)[2], x[test[1]])


def test_a_folder_without_the_data_set_names_the_setting(tmp_path, monkeypatch):
    with pytest.raises(FileNotFoundError, match=r"data_home=.* holds no data for 'heart'"):
        load_raetsch("heart", 1, data_home=tmp_path)
    monkeypatch.setenv("CVBOOK_DATA", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=r"CVBOOK_DATA=.* holds no data for 'heart'"):
        load_raetsch("heart", 1)


# --------------------------------------------------------------------------- download (no network)

@pytest.fixture
def served(tmp_path):
    """A small benchmarks.mat 'on the server' (a file:// URL) and its sha256."""
    toy = _toy(13)
    (tmp_path / "server").mkdir()
    source = _write_mat(tmp_path / "server" / "benchmarks.mat", {"heart": toy})
    return source.as_uri(), _sha256(source), toy


def test_download_with_the_right_checksum_is_cached(tmp_path, served):
    url, sha, _ = served
    calls: list = []
    cache = tmp_path / "cache"
    path = fetch_benchmarks(cache, url=url, known_hash=sha, downloader=_copy_downloader(calls))
    assert path == cache / "benchmarks.mat" and _sha256(path) == sha
    fetch_benchmarks(cache, url=url, known_hash=f"sha256:{sha}", downloader=_copy_downloader(calls))
    assert len(calls) == 1            # the second call used the cache


def test_download_with_a_wrong_checksum_leaves_no_file(tmp_path, served):
    url, sha, _ = served
    wrong = "0" * 64
    cache = tmp_path / "cache"
    with pytest.raises(ValueError, match=rf"benchmarks\.mat .*expected sha256 checksum {wrong}"):
        fetch_benchmarks(cache, url=url, known_hash=wrong, downloader=_copy_downloader())
    assert list(cache.iterdir()) == []


def test_an_interrupted_download_leaves_no_file(tmp_path, served):
    url, _, _ = served

    def broken(url, output_file, pooch_obj):
        Path(output_file).write_bytes(b"half a fi")
        raise OSError("connection reset")

    cache = tmp_path / "cache"
    with pytest.raises(OSError, match="connection reset"):
        fetch_benchmarks(cache, url=url, downloader=broken)
    assert list(cache.iterdir()) == []


def test_a_corrupted_cached_file_is_fetched_again(tmp_path, served):
    url, sha, _ = served
    calls: list = []
    cache = tmp_path / "cache"
    path = fetch_benchmarks(cache, url=url, known_hash=sha, downloader=_copy_downloader(calls))
    path.write_bytes(b"corrupted")
    path = fetch_benchmarks(cache, url=url, known_hash=sha, downloader=_copy_downloader(calls))
    assert len(calls) == 2 and _sha256(path) == sha


def test_load_without_data_home_downloads_the_canonical_file(tmp_path, served, monkeypatch):
    url, sha, (x, t, train, test) = served
    calls: list = []
    monkeypatch.setattr(raetsch, "BENCHMARKS_URL", url)
    monkeypatch.setattr(raetsch, "BENCHMARKS_SHA256", sha)
    monkeypatch.setattr(pooch, "os_cache", lambda project: tmp_path / "oscache" / project)
    monkeypatch.setattr(pooch.core, "choose_downloader",
                        lambda url, progressbar=False: _copy_downloader(calls))
    X_tr, y_tr, X_te, y_te = load_raetsch("heart", 3)
    np.testing.assert_array_equal(X_te, x[test[2]])
    assert (tmp_path / "oscache" / "cvbook" / "benchmarks.mat").is_file() and calls == [url]
    # the real constants: the pinned commit and the README's checksum
    monkeypatch.undo()
    assert raetsch.BENCHMARKS_SHA256 == (
        "47c19e4bc4716edc4077cfa5ea61edf4d02af4ec51a0ecfe035626ae8b561c75")
    assert raetsch.BENCHMARKS_URL.endswith("/benchmarks.mat")


def test_load_without_data_home_refuses_a_wrong_download(tmp_path, served, monkeypatch):
    url, _, _ = served
    monkeypatch.setattr(raetsch, "BENCHMARKS_URL", url)   # the real checksum will not match
    monkeypatch.setattr(pooch, "os_cache", lambda project: tmp_path / "oscache" / project)
    monkeypatch.setattr(pooch.core, "choose_downloader",
                        lambda url, progressbar=False: _copy_downloader())
    with pytest.raises(ValueError, match=raetsch.BENCHMARKS_SHA256):
        load_raetsch("heart", 1)
    assert list((tmp_path / "oscache" / "cvbook").iterdir()) == []


# --------------------------------------------------------------------------- the shared copy

@needs_shared
@pytest.mark.parametrize("name", RAETSCH_NAMES)
def test_shared_copy_matches_the_table(name):
    info = raetsch_info(name)
    path = find_raetsch_source(name, SHARED)
    assert path.parent.name == info.shared_folder
    with np.load(path, allow_pickle=False) as data:
        stored = data["realisations"]
        assert data["x"].shape == (info.n_unique, info.d)
    n_stored = len(stored)
    if info.shared_splits == "raetsch":
        assert stored.tolist() == list(range(1, n_stored + 1))
    elif info.shared_splits == "mixed":
        assert 0 < np.count_nonzero(stored) < n_stored
    else:
        assert not np.any(stored)
    for r in (1, n_stored):
        X_tr, y_tr, X_te, y_te = load_raetsch(name, r, data_home=SHARED)
        assert X_tr.shape == (info.n_train, info.d) and X_te.shape == (info.n_test, info.d)
        assert set(np.unique(np.concatenate([y_tr, y_te]))) == {-1, 1}
    with pytest.raises(ValueError, match=rf"realisation must be an integer in 1\.\.{n_stored}"):
        load_raetsch(name, n_stored + 1, data_home=SHARED)


@needs_shared
def test_shared_realisations_differ():
    a = load_raetsch("heart", 1, data_home=SHARED)
    b = load_raetsch("heart", 2, data_home=SHARED)
    assert not np.array_equal(a[0], b[0])
