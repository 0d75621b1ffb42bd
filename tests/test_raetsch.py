"""Tests of cvbook.datasets.raetsch: parsing, argument checks, checksummed download.

No test touches the network: downloads go through a pooch downloader that copies
a local ``file://`` URL. The shared copy of the benchmarks is read from
``../shared/data/raetsch`` (relative to the repository root; the environment variable
``CVBOOK_SHARED_RAETSCH`` overrides it). Tests that need it skip with the reason when it
is missing, except under ``CI=true``, where they fail (:func:`requires_raetsch`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pooch
import pytest
from scipy import io as sio

from cvbook.datasets import raetsch
from cvbook.datasets.raetsch import (
    RAETSCH_NAMES,
    RaetschDataUnavailable,
    fetch_benchmarks,
    find_raetsch_source,
    load_raetsch,
    raetsch_info,
    raetsch_missing,
    requires_raetsch,
)

SHARED = Path(
    os.environ.get(
        "CVBOOK_SHARED_RAETSCH", Path(__file__).resolve().parents[2] / "shared" / "data" / "raetsch"
    )
)


@pytest.fixture
def shared(monkeypatch):
    """The shared copy: skip without it, fail without it under CI=true."""
    monkeypatch.delenv("CVBOOK_DATA", raising=False)
    return requires_raetsch(SHARED)


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
    content = {
        name: {
            "x": x,
            "t": t.reshape(-1, 1).astype(float),
            "train": (train + 1).astype(float),
            "test": (test + 1).astype(float),
        }
        for name, (x, t, train, test) in datasets.items()
    }
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
    assert RAETSCH_NAMES == (
        "banana",
        "breast_cancer",
        "diabetis",
        "flare_solar",
        "german",
        "heart",
        "image",
        "ringnorm",
        "splice",
        "thyroid",
        "titanic",
        "twonorm",
        "waveform",
    )
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


@pytest.mark.parametrize("compress", [False, True])  # True: MATLAB v7's compressed v5 file
def test_mat_parsing_compressed_and_one_realisation(tmp_path, compress):
    x, t, train, test = _toy(2, n_real=1)
    _write_mat(
        tmp_path / "benchmarks.mat", {"thyroid": (x, t, train, test)}, do_compression=compress
    )
    X_tr, _y_tr, _X_te, y_te = load_raetsch("thyroid", 1, data_home=tmp_path)
    np.testing.assert_array_equal(X_tr, x[train[0]])
    np.testing.assert_array_equal(y_te, t[test[0]])
    with pytest.raises(ValueError, match=r"realisation must be an integer in 1\.\.1"):
        load_raetsch("thyroid", 2, data_home=tmp_path)


def test_mat_and_npz_layouts_agree(tmp_path):
    x, t, train, test = _toy(3)
    (tmp_path / "mat").mkdir()
    (tmp_path / "npz").mkdir()
    _write_mat(tmp_path / "mat" / "benchmarks.mat", {"german": (x, t, train, test)})
    np.savez_compressed(
        tmp_path / "npz" / "german.npz",
        x=x,
        t=t.astype(np.int8),
        train=train.astype(np.int32),
        test=test.astype(np.int32),
    )
    for r in range(1, 5):
        a = load_raetsch("german", r, data_home=tmp_path / "mat")
        b = load_raetsch("german", r, data_home=tmp_path / "npz")
        for u, v in zip(a, b, strict=False):
            np.testing.assert_array_equal(u, v)


def test_mat_with_zero_based_indices_is_rejected(tmp_path):
    x, t, train, test = _toy(4)
    sio.savemat(
        tmp_path / "benchmarks.mat",
        {"heart": {"x": x, "t": t.reshape(-1, 1), "train": train, "test": test}},
    )
    assert min(train.min(), test.min()) == 0  # a 0-based split uses index 0
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
    with pytest.raises(ValueError, match=r"must be -1/\+1"):
        load_raetsch("heart", 1, data_home=tmp_path)


def test_a_file_that_is_not_matlab_is_a_value_error(tmp_path):
    (tmp_path / "benchmarks.mat").write_bytes(b"<html>rate limited</html>")
    with pytest.raises(ValueError, match=r"cannot read .* as a MATLAB file"):
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


# ------------------------------------------------------------------- where the data come from


def test_search_order_in_data_home(tmp_path):
    home = tmp_path
    (home / "reconstructed").mkdir()
    np.savez(
        home / "reconstructed" / "thyroid.npz", x=np.eye(2), t=[1, -1], train=[[0]], test=[[1]]
    )
    assert find_raetsch_source("thyroid", home) == home / "reconstructed" / "thyroid.npz"
    np.savez(home / "thyroid.npz", x=np.eye(2), t=[1, -1], train=[[1]], test=[[0]])
    assert find_raetsch_source("thyroid", home) == home / "thyroid.npz"
    _write_mat(home / "benchmarks.mat", {"thyroid": _toy(11)})
    assert find_raetsch_source("thyroid", home) == home / "benchmarks.mat"  # canonical wins
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
    assert len(calls) == 1  # the second call used the cache


def test_download_with_a_wrong_checksum_leaves_no_file(tmp_path, served):
    url, _sha, _ = served
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
    url, sha, (x, _t, _train, test) = served
    calls: list = []
    monkeypatch.setattr(raetsch, "BENCHMARKS_URL", url)
    monkeypatch.setattr(raetsch, "BENCHMARKS_SHA256", sha)
    monkeypatch.setattr(pooch, "os_cache", lambda project: tmp_path / "oscache" / project)
    monkeypatch.setattr(
        pooch.core, "choose_downloader", lambda url, progressbar=False: _copy_downloader(calls)
    )
    _X_tr, _y_tr, X_te, _y_te = load_raetsch("heart", 3)
    np.testing.assert_array_equal(X_te, x[test[2]])
    assert (tmp_path / "oscache" / "cvbook" / "benchmarks.mat").is_file() and calls == [url]
    # the real constants: the pinned commit and the README's checksum
    monkeypatch.undo()
    assert raetsch.BENCHMARKS_SHA256 == (
        "47c19e4bc4716edc4077cfa5ea61edf4d02af4ec51a0ecfe035626ae8b561c75"
    )
    assert raetsch.BENCHMARKS_URL.endswith("/benchmarks.mat")


def test_load_without_data_home_refuses_a_wrong_download(tmp_path, served, monkeypatch):
    url, _, _ = served
    monkeypatch.setattr(raetsch, "BENCHMARKS_URL", url)  # the real checksum will not match
    monkeypatch.setattr(pooch, "os_cache", lambda project: tmp_path / "oscache" / project)
    monkeypatch.setattr(
        pooch.core, "choose_downloader", lambda url, progressbar=False: _copy_downloader()
    )
    with pytest.raises(ValueError, match=raetsch.BENCHMARKS_SHA256):
        load_raetsch("heart", 1)
    assert list((tmp_path / "oscache" / "cvbook").iterdir()) == []


# --------------------------------------------------------------------------- the shared copy


@pytest.mark.parametrize("name", RAETSCH_NAMES)
def test_shared_copy_matches_the_table(name, shared):
    info = raetsch_info(name)
    path = find_raetsch_source(name, shared)
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
        X_tr, y_tr, X_te, y_te = load_raetsch(name, r, data_home=shared)
        assert X_tr.shape == (info.n_train, info.d) and X_te.shape == (info.n_test, info.d)
        assert set(np.unique(np.concatenate([y_tr, y_te]))) == {-1, 1}
    with pytest.raises(ValueError, match=rf"realisation must be an integer in 1\.\.{n_stored}"):
        load_raetsch(name, n_stored + 1, data_home=shared)


def test_shared_realisations_differ(shared):
    a = load_raetsch("heart", 1, data_home=shared)
    b = load_raetsch("heart", 2, data_home=shared)
    assert not np.array_equal(a[0], b[0])


# --------------------------------------------------------------------------- offline, bad arguments


def _offline(monkeypatch, tmp_path, error=None):
    """No data_home, no CVBOOK_DATA, an empty cache and a network that refuses."""

    def refuse(url, output_file, pooch_obj):
        raise error or ConnectionError("Failed to resolve 'github.com' (DNS)")

    monkeypatch.setattr(pooch, "os_cache", lambda project: tmp_path / "oscache" / project)
    monkeypatch.setattr(pooch.core, "choose_downloader", lambda url, progressbar=False: refuse)


@pytest.mark.parametrize(
    "error", [ConnectionError("DNS"), OSError("proxy refused"), RuntimeError("HTTP 503")]
)
def test_offline_load_is_one_short_error_naming_the_settings(tmp_path, monkeypatch, error):
    _offline(monkeypatch, tmp_path, error)
    with pytest.raises(RaetschDataUnavailable) as info:
        load_raetsch("heart", 1)
    err = info.value
    msg = str(err)
    assert isinstance(err, FileNotFoundError) and "\n" not in msg and len(msg) < 600
    for needed in (
        "CVBOOK_DATA",
        "data_home",
        "benchmarks.mat",
        "<name>.npz",
        raetsch.BENCHMARKS_SHA256,
        raetsch.BENCHMARKS_GIT_BLOB,
        "doi:10.5281/zenodo.18110",
        "66aa4e7",
        type(error).__name__,
    ):
        assert needed in msg, needed
    assert err.__cause__ is None and err.__suppress_context__  # no 300-line chained trace
    assert not (tmp_path / "oscache" / "cvbook" / "benchmarks.mat").exists()


def test_the_download_address_is_the_recorded_blob_and_commit():
    assert raetsch.BENCHMARKS_GIT_BLOB == "4b54cae3f99419fba1f27f98f7235a799d6580ce"
    assert "/66aa4e7" in raetsch.BENCHMARKS_URL and "66aa4e7" in raetsch.BENCHMARKS_SOURCE
    assert raetsch.BENCHMARKS_DOI in raetsch.BENCHMARKS_SOURCE


def test_the_readme_cites_the_same_source_as_the_error():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    data = readme.split("## Data", 1)[1].split("\n## ", 1)[0]
    for needed in (
        "66aa4e7",
        raetsch.BENCHMARKS_GIT_BLOB,
        raetsch.BENCHMARKS_SHA256,
        raetsch.BENCHMARKS_DOI,
        "tdiethe/gunnar_raetsch_benchmark_datasets",
    ):
        assert needed in data, needed


@pytest.mark.parametrize("bad", [3, 2.5, b"folder", ["a"], ""])
def test_data_home_of_the_wrong_type_is_named(bad):
    with pytest.raises(TypeError, match="data_home must be a folder or file path"):
        load_raetsch("heart", 1, data_home=bad)
    with pytest.raises(ValueError, match="data_home must be"):  # also a ValueError
        find_raetsch_source("heart", bad)


@pytest.mark.parametrize(
    "arg, bad", [("cache_dir", 3), ("url", 5), ("known_hash", b"ab"), ("downloader", "curl")]
)
def test_fetch_arguments_of_the_wrong_type_are_named(arg, bad):
    with pytest.raises(TypeError, match=rf"^{arg} must be"):
        fetch_benchmarks(**{arg: bad})


def test_raetsch_missing_and_requires_raetsch(tmp_path, monkeypatch):
    _offline(monkeypatch, tmp_path)
    nowhere = tmp_path / "nowhere"
    assert "holds no data for 'banana'" in raetsch_missing(nowhere)
    assert "neither data_home nor CVBOOK_DATA is set" in raetsch_missing()
    _write_mat(tmp_path / "benchmarks.mat", {"heart": _toy(14)})
    assert raetsch_missing(tmp_path) is None  # one file serves every name
    assert requires_raetsch(tmp_path) == tmp_path
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception, match="Rätsch benchmarks not found"):
        requires_raetsch(nowhere)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true but the Rätsch benchmarks"):
        requires_raetsch(nowhere)
