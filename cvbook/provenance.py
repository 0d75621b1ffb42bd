"""Results of long runs: written atomically, and stamped with where they came from.

The Table 1 sweep (:mod:`cvbook.studies.table1_replication`) and the coverage study
(:mod:`cvbook.studies.bound_coverage`) commit their results to the repository. Each file is
written through :func:`atomic_write`, so that a run killed at any moment leaves
every file either complete or absent, and carries the commit and package
versions of the code that produced it.
"""

from __future__ import annotations

import os
import platform
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["atomic_write", "atomic_write_text", "git_commit", "git_dirty", "package_versions"]

_PACKAGE_DIR = Path(__file__).resolve().parent


def atomic_write(path: str | os.PathLike, write: Callable[[str], None]) -> None:
    """Create ``path`` through ``write(tmp)``, so the file is complete or absent.

    ``write`` writes to a temporary path in the same folder, which is then
    renamed over ``path`` (:func:`os.replace` is atomic on POSIX); on any error
    the temporary file is removed and ``path`` is left as it was. The file gets
    the usual permissions for the user's umask (readable by all by default).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> atomic_write(folder / "a.txt", lambda tmp: pathlib.Path(tmp).write_text("done"))
    >>> (folder / "a.txt").read_text(), sorted(p.name for p in folder.iterdir())
    ('done', ['a.txt'])
    """
    path = _check_path(path, "path")
    if not callable(write):
        raise TypeError(f"write must be a function of the temporary path, got {write!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; results are for everyone to read
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` atomically (see :func:`atomic_write`).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "b.txt"
    >>> atomic_write_text(target, "ok")
    >>> target.read_text()
    'ok'
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    atomic_write(path, lambda tmp: Path(tmp).write_text(text))


def _check_path(path: object, name: str) -> Path:
    """A file path: str or path-like, not empty, not an existing folder."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{name} must be a str or path-like, got {type(path).__name__}")
    if str(path) == "":
        raise ValueError(f"{name} must not be empty")
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{name} {str(path)!r} is a folder; give the path of a file")
    if path.exists() and not path.is_file():  # os.replace would put a file in its place
        raise ValueError(f"{name} {str(path)!r} is a special file (a device, FIFO or socket)")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ValueError(f"{name} {str(path)!r} lies under {str(parent)!r}, a file")
            break
    return path


def _git(*args: str, cwd: Path = _PACKAGE_DIR) -> str | None:
    """git's standard output, unstripped (a porcelain line starts with a space), or None."""
    try:
        out = subprocess.run(["git", *args], capture_output=True, text=True, cwd=cwd, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout if out.returncode == 0 else None


def _folder(folder: str | os.PathLike | None) -> Path:
    if folder is None:
        return _PACKAGE_DIR
    if isinstance(folder, bytes) or not isinstance(folder, (str, os.PathLike)):
        raise TypeError(f"folder must be a str or path-like, got {type(folder).__name__}")
    if not Path(folder).is_dir():
        raise ValueError(f"folder must be an existing folder, got {str(folder)!r}")
    return Path(folder).resolve()


def git_commit(folder: str | os.PathLike | None = None) -> str | None:
    """HEAD of the repository that holds ``folder`` (the package by default), or None
    outside git.

    Read it *before* a long run: the code that runs is the code at the start.
    """
    out = _git("rev-parse", "HEAD", cwd=_folder(folder))
    return out.strip() or None if out is not None else None


def git_dirty(folder: str | os.PathLike | None = None) -> list[str] | None:
    """Files under ``folder`` (the package by default) that differ from HEAD, so the code
    that ran is not HEAD's: paths relative to the repository's top, as ``git status``
    gives them (untracked files included).

    None outside git, an empty list for a clean package.

    Examples
    --------
    >>> isinstance(git_dirty(), (list, type(None)))
    True
    """
    folder = _folder(folder)
    # -z: NUL-separated entries "XY path", names verbatim (no quoting, no stripping); a
    # rename or copy is followed by an entry holding the original path.
    out = _git("status", "--porcelain", "-z", "--untracked-files=all", "--", ".", cwd=folder)
    if out is None:
        return None
    entries = out.split("\0")
    files, i = [], 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        files.append(entry[3:])
        if entry[0] in "RC":
            i += 1  # skip the original path of a rename or copy
    return files


def package_versions() -> dict[str, str]:
    """Versions of Python and of the packages that decide a result.

    Examples
    --------
    >>> sorted(package_versions())
    ['cvbook', 'joblib', 'numpy', 'python', 'scikit-learn', 'scipy']
    """
    import joblib
    import numpy
    import scipy
    import sklearn

    from . import __version__

    return {
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "scikit-learn": sklearn.__version__,
        "joblib": joblib.__version__,
        "cvbook": __version__,
    }
