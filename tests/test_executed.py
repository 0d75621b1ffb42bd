"""The one execution of a chapter, shared by nbval and the build.

``tests/nbval_executed.py`` keeps nbval's run (with the prose's numbers, which must match
the committed ones) and ``_ext/cvbook_executed.py`` builds the site from it. These tests
check what makes that safe: a stale stored number fails nbval, a number without a value
fails the build, and the build refuses a copy that is missing or was run from another
version of the chapter.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))
import cvbook_executed  # noqa: E402  (_ext/ is not a package)

pytest_plugins = ["pytester"]


def _notebook(stored: str) -> nbformat.NotebookNode:
    entry = {"expression": "x", "result": {"status": "ok", "data": {"text/plain": stored}}}
    new = nbformat.v4.new_output
    printed = [
        new("stream", name="stdout", text="a\n"),
        new("display_data", data={"text/plain": "'b'"}),
        new("stream", name="stdout", text="c\n"),
    ]
    return nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                'x = 6 * 7\nprint("a")\ndisplay("b")\nprint("c")',
                execution_count=1,
                outputs=printed,
            ),
            nbformat.v4.new_markdown_cell(
                "The answer is {eval}`x`.", metadata={"user_expressions": [entry]}
            ),
        ],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}},
    )


@pytest.mark.slow
@pytest.mark.parametrize("stored, passes", [("42", True), ("41", False)])
def test_nbval_keeps_a_checked_run_and_fails_on_a_stale_number(
    pytester, monkeypatch, stored, passes
):
    """A run whose stored prose number differs from the committed one fails, names the
    number, and leaves no copy; a run that passes is kept, with the source's SHA-256 and
    its outputs in the order the cell printed them (nbval merges the prints to compare)."""
    nb_path = pytester.path / "ch.ipynb"
    nbformat.write(_notebook(stored), nb_path)
    folder = pytester.path / "executed"
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("CVBOOK_EXECUTED", str(folder))
    result = pytester.runpytest_subprocess(
        "-p", "tests.nbval_executed", "--nbval", "--nbval-current-env", str(nb_path)
    )
    copy = folder / "ch.ipynb"
    if passes:
        result.assert_outcomes(passed=1)
        kept = nbformat.read(copy, as_version=4)
        meta = kept.metadata["cvbook_executed"]
        assert meta["source_sha256"] == hashlib.sha256(nb_path.read_bytes()).hexdigest()
        assert meta["wall_s"] > 0 and json.loads((folder / "times" / "ch.json").read_text())
        assert kept.cells[1].metadata["user_expressions"][0]["result"]["data"] == {
            "text/plain": "42"
        }
        kinds = [(o.output_type, o.get("text")) for o in kept.cells[0].outputs]
        assert kinds == [("stream", "a\n"), ("display_data", None), ("stream", "c\n")]
    else:
        result.assert_outcomes(failed=1)
        result.stdout.fnmatch_lines(["*{eval}`x` is 42 in this run, 41 in the committed*"])
        assert not copy.exists()


def _client(nb: nbformat.NotebookNode):
    config = SimpleNamespace(eval_name_regex=r"^[a-z]+$")
    client = cvbook_executed._stored_values_client()(nb, None, config, None)
    client.start_client()
    return client


def test_the_build_answers_eval_from_the_stored_value():
    outputs = _client(_notebook("42")).eval_variable("x")
    assert outputs[0]["output_type"] == "execute_result"
    assert outputs[0]["data"] == {"text/plain": "42"}


def test_the_build_has_no_value_for_a_number_the_run_did_not_store():
    """myst-nb turns this error into a warning, which ``-W`` makes a build error."""
    with pytest.raises(KeyError, match="'y' has no value stored by the run"):
        _client(_notebook("42")).eval_variable("y")


def test_the_build_shows_a_failed_evaluation_as_an_error():
    nb = _notebook("42")
    nb.cells[1].metadata["user_expressions"][0]["result"] = {
        "status": "error",
        "ename": "NameError",
        "evalue": "name 'x' is not defined",
    }
    (out,) = _client(nb).eval_variable("x")
    assert out["output_type"] == "error" and out["ename"] == "NameError"


def _app(srcdir: Path, monkeypatch, folder: Path):
    monkeypatch.setenv("CVBOOK_EXECUTED", str(folder))
    env = SimpleNamespace(doc2path=lambda docname: srcdir / f"{docname}.ipynb")
    return SimpleNamespace(srcdir=str(srcdir), env=env)


def test_the_build_reads_the_executed_copy(tmp_path, monkeypatch):
    source = tmp_path / "ch.ipynb"
    nbformat.write(_notebook("41"), source)
    executed = _notebook("42")
    executed.metadata["cvbook_executed"] = {
        "source_sha256": hashlib.sha256(source.read_bytes()).hexdigest()
    }
    (tmp_path / "run").mkdir()
    nbformat.write(executed, tmp_path / "run" / "ch.ipynb")
    text = [source.read_text()]
    cvbook_executed._read_executed(_app(tmp_path, monkeypatch, tmp_path / "run"), "ch", text)
    assert '"text/plain": "42"' in text[0]


def test_the_build_refuses_a_missing_or_outdated_copy(tmp_path, monkeypatch):
    source = tmp_path / "ch.ipynb"
    nbformat.write(_notebook("42"), source)
    app = _app(tmp_path, monkeypatch, tmp_path / "run")
    with pytest.raises(Exception, match="no executed copy"):
        cvbook_executed._read_executed(app, "ch", [source.read_text()])
    (tmp_path / "run").mkdir()
    executed = _notebook("42")
    executed.metadata["cvbook_executed"] = {"source_sha256": "0" * 64}
    nbformat.write(executed, tmp_path / "run" / "ch.ipynb")
    with pytest.raises(Exception, match="changed since make nbval executed it"):
        cvbook_executed._read_executed(app, "ch", [source.read_text()])
