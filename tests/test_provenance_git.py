"""``cvbook.provenance.git_dirty`` and ``git_commit`` on a real git tree (issue 34, item 20).

``git status --porcelain`` starts a line with a space for a file changed in the work tree
only; stripping git's output cut the first character off the first file name
(``results/intervals/learning_curve.json`` recorded ``vbook/coverage.py``).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from cvbook.provenance import git_commit, git_dirty

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _git(folder, *args):
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=folder,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tmp_path):
    _git(tmp_path, "init", "-q")
    pkg = tmp_path / "cvbook"
    pkg.mkdir()
    for name in ("coverage.py", "stats.py", "old name.py", "z.py"):
        (pkg / name).write_text("x = 1\n")
    (tmp_path / "README.md").write_text("outside the package\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "first")
    return tmp_path


def test_a_clean_tree_has_no_dirty_file_and_a_commit(repo):
    assert git_dirty(repo / "cvbook") == []
    commit = git_commit(repo / "cvbook")
    assert commit is not None and len(commit) == 40


def test_every_kind_of_change_keeps_the_whole_name(repo):
    pkg = repo / "cvbook"
    (pkg / "coverage.py").write_text("x = 2\n")  # " M": work tree only, leading space
    (pkg / "stats.py").write_text("x = 3\n")
    _git(repo, "add", "cvbook/stats.py")  # "M ": staged
    (pkg / "new file.py").write_text("y = 1\n")  # "??": untracked, a space in the name
    _git(repo, "mv", "cvbook/old name.py", "cvbook/renamed.py")  # "R ": rename
    (pkg / "z.py").unlink()  # " D": deleted
    (repo / "README.md").write_text("changed, but not in the package\n")
    assert sorted(git_dirty(pkg)) == [
        "cvbook/coverage.py",
        "cvbook/new file.py",
        "cvbook/renamed.py",
        "cvbook/stats.py",
        "cvbook/z.py",
    ]


def test_the_first_file_keeps_its_first_character(repo):
    (repo / "cvbook" / "coverage.py").write_text("x = 2\n")
    assert git_dirty(repo / "cvbook") == ["cvbook/coverage.py"]


def test_outside_git_gives_none(tmp_path):
    assert git_dirty(tmp_path) is None
    assert git_commit(tmp_path) is None


@pytest.mark.parametrize("folder", [42, b"/tmp"])
def test_a_bad_folder_is_named(folder):
    with pytest.raises(TypeError, match="folder"):
        git_dirty(folder)


def test_a_missing_folder_is_named(tmp_path):
    with pytest.raises(ValueError, match="folder"):
        git_commit(tmp_path / "missing")
