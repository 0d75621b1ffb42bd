"""tools/new_chapter.py: a new chapter's cells, metadata, table-of-contents entry and stubs.

The tool was tried end to end on a scratch chapter (CONTRIBUTING.md, "Adding a chapter");
these tests keep what it lays out in the shape the book's other tests expect.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")  # the minimum-versions environment has no pyyaml
pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


new_chapter, package_map = _tool("new_chapter"), _tool("package_map")
annotate = _tool("annotate_parameters")


@pytest.fixture(scope="module")
def nb():
    return new_chapter.notebook("12", "Is learner A better than B?", "paired")


def test_the_cells_every_chapter_has_in_their_order(nb):
    sources = [c.source for c in nb.cells]
    assert sources[0].startswith("# Is learner A better than B?\n")
    assert "from cvbook.claims import Claims" in sources[1]
    assert "from cvbook.studies.paired import paired_trial" in sources[1]
    tagged = [i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])]
    assert tagged == [2]
    assert annotate.annotate_source(sources[2]) == sources[2], "every parameter typed"
    names = [line.split(":")[0] for line in sources[2].splitlines() if not line.startswith(" ")]
    assert names == ["seed", "n_repeats", "n_jobs"]
    check = sources[3]
    kind = {n: "seed" if n == "seed" else "int_parameter" for n in names}
    assert all(f'check_{kind[n]}({n}, "{n}"' in check for n in names)
    assert 'claims = Claims("ch12", strict=checked)' in check
    moral = next(s for s in sources if s.startswith("## Moral"))
    assert "- " in moral and "{eval}`N.ch12_todo`" in moral
    assert sources[-1] == "claims.show()"
    for cell in nb.cells:
        if cell.cell_type == "code":
            ast.parse(cell.source)


def test_the_metadata_covers_every_parameter(nb):
    meta = nb.metadata["cvbook"]
    assert set(meta) == {"smoke", "changes_result", "keeps_result", "bad_values"}
    covered = set(meta["changes_result"]) | set(meta["keeps_result"])
    assert covered == {"seed", "n_repeats", "n_jobs"}
    assert nb.metadata["kernelspec"]["name"] == "python3"


def test_the_toc_entry_is_the_last_numbered_chapter():
    text = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    toc = yaml.safe_load(new_chapter.add_to_toc(text, "chapters/99_new"))
    before = yaml.safe_load(text)
    numbered = next(p for p in toc["parts"] if p.get("numbered"))
    assert numbered["chapters"][-1] == {"file": "chapters/99_new"}
    assert (
        numbered["chapters"][:-1]
        == next(p for p in before["parts"] if p.get("numbered"))["chapters"]
    )
    assert [p for p in toc["parts"] if not p.get("numbered")] == [
        p for p in before["parts"] if not p.get("numbered")
    ]


def test_the_stubs_are_placed_by_the_package_map_and_compile():
    study = new_chapter.STUDY.format(n="12", study="paired")
    doc = ast.get_docstring(ast.parse(study))
    assert package_map.chapters_named(doc.split("\n\n")[0]) == ["12"]
    assert package_map.floor_of("cvbook.studies.paired", doc) == 4
    method = ast.get_docstring(ast.parse(new_chapter.METHOD.format(n="12")))
    assert package_map.chapters_named(method) == ["12"]
    assert package_map.floor_of("cvbook.paired_cv", method) == 3
    test = new_chapter.TEST.format(module="cvbook.studies.paired", n="12", slug="paired")
    test += new_chapter.TODO_TEST.format(n="12", notebook="chapters/12_x.ipynb", study="paired")
    tree = ast.parse(test)
    names = [f.name for f in tree.body if isinstance(f, ast.FunctionDef)]
    assert names == ["test_paired_is_tested", "test_chapter_12_and_its_study_have_no_todo_left"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["x", "name", "--title", "T"], "number must be like 10 or 10b"),
        (["12", "Bad-Name", "--title", "T"], "name must be snake_case"),
        (["1", "again", "--title", "T"], "chapter 1 is in _toc.yml already"),
    ],
    ids=["number", "name", "taken"],
)
def test_bad_arguments_are_refused_before_anything_is_written(argv, message, capsys):
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    with pytest.raises(SystemExit):
        new_chapter.main(argv)
    assert message in capsys.readouterr().err
    assert (ROOT / "_toc.yml").read_text(encoding="utf-8") == toc


def test_the_stubs_are_ruff_clean_with_a_long_name(tmp_path):
    """What the tool writes passes `make lint` as written, whatever the name's length."""
    ruff = Path(sys.executable).parent / "ruff"
    if not ruff.exists():
        pytest.skip("ruff is not installed in this environment")
    slug = "a_rather_long_scratch_chapter_name"
    study = new_chapter.STUDY.format(n="12", study=slug)
    test = new_chapter.TEST.format(module=f"cvbook.studies.{slug}", n="12", slug=slug)
    test += new_chapter.TODO_TEST.format(n="12", notebook=f"chapters/12_{slug}.ipynb", study=slug)
    (tmp_path / f"{slug}.py").write_text(study, encoding="utf-8")
    (tmp_path / f"test_studies_{slug}.py").write_text(test, encoding="utf-8")
    import subprocess

    config = ["--config", str(ROOT / "pyproject.toml")]
    for command in (["check"], ["format", "--check", "--diff"]):
        done = subprocess.run(
            [str(ruff), *command, *config, str(tmp_path)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
