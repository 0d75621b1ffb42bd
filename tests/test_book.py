"""The book's structure: every chapter is in the table of contents and committed executed."""

from __future__ import annotations

import json
import re

import nbformat
import pytest
from booktoc import ROOT, chapter_notebooks, toc_files


def test_every_toc_entry_exists():
    for entry in toc_files():
        assert any((ROOT / f"{entry}{ext}").exists() for ext in (".md", ".ipynb")), entry


def test_every_chapter_notebook_is_in_the_toc():
    listed = {p.resolve() for p in chapter_notebooks()}
    on_disk = {p.resolve() for p in (ROOT / "chapters").glob("*.ipynb")}
    assert on_disk - listed == set(), f"not in _toc.yml: {sorted(p.name for p in on_disk - listed)}"


@pytest.mark.parametrize("nb_path", chapter_notebooks(), ids=lambda p: p.stem)
def test_chapter_is_committed_executed_top_to_bottom(nb_path):
    nb = nbformat.read(nb_path, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{nb_path.name}: re-run it top to bottom"
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, f"{nb_path.name}: committed with an error output"
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"


@pytest.mark.parametrize("nb_path", chapter_notebooks(), ids=lambda p: p.stem)
def test_chapter_ends_with_a_moral(nb_path):
    nb = nbformat.read(nb_path, as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown").lower()
    assert "moral" in text, f"{nb_path.name}: no moral"


def test_api_page_lists_every_module():
    """api/index.md has an automodule section for every public module of the package."""
    text = (ROOT / "api" / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\.\. automodule:: (cvbook[\w.]*)", text, re.M))
    modules = {
        "cvbook." + ".".join(p.relative_to(ROOT / "cvbook").with_suffix("").parts)
        for p in (ROOT / "cvbook").rglob("*.py")
        if not any(part.startswith("_") for part in p.relative_to(ROOT / "cvbook").parts)
    }
    modules |= {"cvbook.datasets", "cvbook.runs"}
    assert modules <= listed, f"api/index.md does not document {sorted(modules - listed)}"


def test_chapters_use_no_glue_and_carry_no_execution_metadata():
    """Numbers reach the prose through {eval} (cvbook.book.publish), which JupyterLab
    renders too; glue roles would show as raw text there."""
    problems = []
    for nb_path in chapter_notebooks():
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
        for i, cell in enumerate(nb["cells"]):
            src = "".join(cell["source"])
            if re.search(r"\{glue(:\w+)?\}|from myst_nb import glue|\bglue\(", src):
                problems.append(f"{nb_path.name} cell {i}: uses glue")
            if "execution" in cell.get("metadata", {}):
                problems.append(
                    f"{nb_path.name} cell {i}: execution timestamps "
                    "(python tools/strip_notebooks.py)"
                )
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------- cvbook.book
# The chapters' parameter checks and published numbers under hostile input (issue 20).

import numpy as np  # noqa: E402

from cvbook import book, stored_values  # noqa: E402
from cvbook.book import (  # noqa: E402
    ParameterError,
    ParameterTypeError,
    check_choice,
    check_float_list,
    check_float_parameter,
    check_int_list,
    check_int_parameter,
    check_seed,
    format_number,
    format_pm,
    publish,
    published,
    unknown_parameters,
)

_CHECKS = [
    ("int", lambda v: check_int_parameter(v, "m", low=1)),
    ("float", lambda v: check_float_parameter(v, "delta", 0, 1, open_low=True, open_high=True)),
    ("seed", lambda v: check_seed(v, "seed")),
    ("choice", lambda v: check_choice(v, "model", ["svm", "knn"])),
    ("int_list", lambda v: check_int_list(v, "sizes", low=1)),
    ("float_list", lambda v: check_float_list(v, "deltas", 0, 1, open_low=True)),
]


@pytest.mark.parametrize("kind, check", _CHECKS, ids=[k for k, _ in _CHECKS])
@pytest.mark.parametrize(
    "bad",
    ["abc", None, True, np.bool_(False), object(), b"1", {"a": 1}],
    # ids stable across processes (pytest-xdist collects in each worker)
    ids=lambda v: "object" if type(v) is object else repr(v),
)
def test_a_wrong_kind_is_a_parameter_error_and_a_type_error(kind, check, bad):
    if kind == "choice" and bad == "abc":
        bad = 3  # a string is the right kind for string choices
    with pytest.raises(ParameterTypeError) as info:
        check(bad)
    assert isinstance(info.value, ParameterError)
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)
    assert "parameter '" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda: check_int_parameter(10**400, "m", low=1, high=100),
        lambda: check_float_parameter(10**400, "delta"),
        lambda: check_float_parameter(-(10**400), "delta"),
        lambda: check_float_parameter(float("nan"), "delta"),
        lambda: check_float_parameter(float("inf"), "delta"),
        lambda: check_float_list([0.1, 10**400], "deltas"),
        lambda: check_seed(10**400, "seed"),
        lambda: check_seed(-1, "seed"),
        lambda: check_int_list([], "sizes", low=1),
        lambda: check_choice("forest", "model", ["svm", "knn"]),
    ],
)
def test_an_out_of_range_value_is_a_value_error_naming_it(call):
    with pytest.raises(ParameterError) as info:
        call()
    assert not isinstance(info.value, TypeError)
    assert "parameter '" in str(info.value)
    assert len(str(info.value)) < 200  # 10**400 is not printed in full


def test_numpy_scalars_are_the_values_they_hold():
    assert check_choice(np.str_("svm"), "model", ["svm", "knn"]) == "svm"
    assert type(check_choice(np.str_("svm"), "model", ["svm", "knn"])) is str
    assert check_choice(np.int64(3), "k", [3, 5]) == 3
    assert check_int_parameter(np.int32(40), "m", low=1) == 40
    assert check_float_parameter(np.float32(0.25), "delta", 0, 1) == 0.25
    with pytest.raises(ParameterTypeError):
        check_choice(3.0, "k", [3, 5])  # a float is not one of the integer choices
    with pytest.raises(ParameterTypeError):
        check_choice(1, "flag", [True, False])


def test_publish_checks_every_item_before_publishing_any():
    with pytest.raises(TypeError) as info:
        publish(doc_a=(0.5, ".3f"), doc_b=0.5)
    message = str(info.value)
    assert "'doc_b'" in message and "format" in message
    assert "'doc_a'" in message and "nothing of this call was published" in message
    assert "doc_a" not in published()
    with pytest.raises(ValueError, match=r"'doc_c'.*format '\.3q'"):
        publish(doc_c=(0.5, ".3q"))
    with pytest.raises(TypeError, match=r"'doc_d'.*list"):
        publish(doc_d=[1, 2])


def test_published_numbers_show_inline_and_never_as_negative_zero():
    publish(doc_neg=(-0.00001, ".3f"), doc_np=np.int64(-1), doc_f=(np.float64(-0.25), ".2f"))
    assert published()["doc_neg"] == "0.000"
    assert published()["doc_np"] == "−1"  # the true minus (U+2212) of the prose
    assert published()["doc_f"] == "−0.25"
    shown = book.N.doc_np
    # text/plain only: the MIME type both myst-nb and jupyterlab-myst render in the line
    assert not hasattr(shown, "_repr_markdown_") and not hasattr(shown, "_repr_html_")
    assert repr(shown) == "−1"


@pytest.mark.parametrize(
    "value, se, expected",
    [
        (0.1234, 0.015, "0.123 ± 0.015"),
        (0.0, 0.0, "0.000 ± 0"),
        (-0.0000001, 0.0002, "0.00000 ± 0.00020"),
        (-0.00002, 0.000013, "−0.000020 ± 0.000013"),
        (0.5, 0.00049, "0.50000 ± 0.00049"),
        (12.3456, 1.5, "12.346 ± 1.500"),
        (np.float64(-1e-9), np.float64(3e-10), "−0.00000000100 ± 0.00000000030"),
    ],
)
def test_format_pm_never_shows_a_zero_se_nor_a_negative_zero(value, se, expected):
    text = format_pm(value, se)
    assert text == expected
    assert "0.000 ± 0.000" not in text and not text.startswith(("-0.000 ", "−0.000 "))
    assert "-" not in text  # a reader's minus is U+2212


def test_a_reader_sees_the_true_minus_and_a_program_the_hyphen():
    """One minus for the whole book: the prose (publish), the tables and result lines
    (format_number, format_pm) write U+2212; minus="-" gives text a program reads."""
    assert format_number(-0.0123, ".3f") == "\u22120.012"
    assert format_number(-3, "d") == "\u22123" and format_number(-0.5, "+.1f") == "\u22120.5"
    assert format_number(0.5, "+.1f") == "+0.5" and format_number(-1e-5, ".1e") == "\u22121.0e-05"
    assert format_number(-0.0123, ".3f", minus="-") == "-0.012"
    assert float(format_number(-0.0123, ".3f", minus="-")) == -0.012
    assert format_number(float("-inf"), ".3f") == "\u2212∞"
    assert format_pm(-0.25, 0.01) == "\u22120.250 ± 0.010"
    assert format_pm(-0.25, 0.01, minus="-") == "-0.250 ± 0.010"
    assert format_pm(-0.0001, 0.01) == "0.000 ± 0.010"  # no negative zero either way
    for bad in ("–", "minus", None):
        with pytest.raises(ValueError, match="minus"):
            format_number(-1, "d", minus=bad)
        with pytest.raises(ValueError, match="minus"):
            format_pm(-1.0, 0.1, minus=bad)
    publish(doc_zs="-3.0, +1.4 (K-fold, 1e-05, [-1, 1])", doc_i=-2, doc_inf=(float("-inf"), ".2f"))
    assert published()["doc_zs"] == "\u22123.0, +1.4 (K-fold, 1e-05, [\u22121, 1])"
    assert published()["doc_i"] == "\u22122" and published()["doc_inf"] == "\u2212∞"


def test_format_pm_and_format_number_refuse_bad_input():
    for bad in [(float("nan"), 0.1), (0.1, -0.1), (0.1, float("inf")), ("0.1", 0.1)]:
        with pytest.raises((TypeError, ValueError)):
            format_pm(*bad)
    with pytest.raises(ValueError, match="digits"):
        format_pm(0.1, 0.1, digits=-1)
    assert format_number(-0.0004, ".3f") == "0.000"
    assert format_number(-0.0, "g") == "0"


def test_unknown_parameters_are_named_with_a_suggestion():
    unknown, known = unknown_parameters(
        "n_samples: int = 100  # size\nseed = 3\n", "# Parameters\nn_sample = 500\nseed = 4\n"
    )
    assert unknown == ["n_sample"] and known == ["n_samples", "seed"]
    message = book._unknown_message(unknown, known)
    assert "'n_sample'" in message and "did you mean 'n_samples'" in message
    assert message.endswith("n_samples, seed")


def test_landing_page_lists_every_chapter():
    """intro.md's chapter table links every chapter of _toc.yml ({doc}`N <chapters/...>`),
    so a chapter added to the book is announced on its first page."""
    text = (ROOT / "intro.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\{doc\}`[^`<]*<(chapters/[\w.-]+)>`", text))
    missing = [f for f in toc_files() if f.startswith("chapters/") and f not in linked]
    assert not missing, f"intro.md's chapter table does not list {missing}"


def test_readme_python_floor_matches_the_pins():
    """The Python the README promises is the one pyproject.toml declares, and the pinned
    install (constraints.txt) needs no newer one (numpy >= 2.3 needs Python 3.11)."""
    import tomllib

    floor = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    version = re.fullmatch(r">=\s*3\.(\d+)", floor)
    assert version, floor
    minor = int(version.group(1))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    promised = set(re.findall(r"Python ≥ 3\.(\d+)", readme))
    assert promised == {str(minor)}, f"README promises Python ≥ 3.{promised}, pyproject {floor}"
    pins = dict(
        line.split("==", 1)
        for line in (ROOT / "constraints.txt").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    )
    numpy_minor = tuple(int(x) for x in pins["numpy"].split(".")[:2])
    assert minor >= 11 or numpy_minor < (2, 3), "numpy >= 2.3 needs Python 3.11"


# --------------------------------------------------------------------------- tools/

import importlib.util  # noqa: E402


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: Chapters committed before tools/store_values.py existed: they carry no stored values
#: until the lead re-executes them with it. A listed chapter that has them fails too.
VALUES_PENDING: set[str] = set()


@pytest.mark.parametrize("nb_path", chapter_notebooks(), ids=lambda p: p.stem)
def test_chapter_carries_the_values_of_its_numbers(nb_path):
    """Every {eval} of a committed chapter has its value stored in the cell metadata
    (``user_expressions``, read by jupyterlab-myst), so a downloaded notebook shows its
    numbers before any kernel runs (python tools/store_values.py chapters/NN.ipynb)."""
    gaps = stored_values.missing(json.loads(nb_path.read_text(encoding="utf-8")))
    if nb_path.stem in VALUES_PENDING:
        assert gaps, f"{nb_path.name} has its values now: remove it from VALUES_PENDING"
    else:
        assert not gaps, f"{nb_path.name}: {len(gaps)} numbers without a value: {gaps[:5]}"


def test_store_values_stores_what_the_kernel_computed(tmp_path):
    """A code cell, then prose with a number and an expression that fails: the value is
    stored as the kernel gives it, the failure is stored with its error and reported,
    and a Markdown cell without a role loses a stale entry."""
    stale = [{"expression": "y", "result": {"status": "ok", "data": {"text/plain": "9"}}}]
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell("x = 6 * 7"),
            nbformat.v4.new_markdown_cell("The answer is {eval}`x`, not {eval}`nope`."),
            nbformat.v4.new_markdown_cell("No number here.", metadata={"user_expressions": stale}),
        ]
    )
    failed = stored_values.store_values(nb, cwd=tmp_path, timeout=60)
    assert failed == ["cell 1: nope: NameError: name 'nope' is not defined"]
    entries = nb.cells[1].metadata["user_expressions"]
    assert entries[0] == {
        "expression": "x",
        "result": {"status": "ok", "data": {"text/plain": "42"}, "metadata": {}},
    }
    assert entries[1]["result"]["status"] == "error"
    assert "user_expressions" not in nb.cells[2].metadata
    assert nb.cells[0].outputs == []  # an assignment shows nothing


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"nb": {"cells": []}}, TypeError, "nb must be a notebook"),
        ({"nb": "chapters/01_risk_and_test_error.ipynb"}, TypeError, "nb must be a notebook"),
        ({"cwd": "/no/such/folder"}, ValueError, "cwd must be an existing folder"),
        ({"timeout": 0}, ValueError, "timeout"),
        ({"timeout": "60"}, TypeError, "timeout"),
    ],
)
def test_store_values_names_a_bad_argument(tmp_path, kwargs, error, words):
    args = {"nb": nbformat.v4.new_notebook(), "cwd": tmp_path, "timeout": 60, **kwargs}
    with pytest.raises(error, match=words):
        stored_values.store_values(args.pop("nb"), **args)


def test_papermill_finds_the_cvbook_engine():
    from papermill.engines import papermill_engines

    assert papermill_engines.get_engine("cvbook") is stored_values.PapermillEngine


def test_store_values_reads_the_roles_of_a_markdown_cell():
    cell = {"cell_type": "markdown", "source": ["a {eval}`N.x` and ", "{eval}`N.y`, {eval}`N.x`"]}
    assert stored_values.expressions(cell) == ["N.x", "N.y"]
    cell["metadata"] = {
        "user_expressions": [
            {"expression": "N.x", "result": {"status": "ok", "data": {"text/plain": "1"}}}
        ]
    }
    assert stored_values.missing({"cells": [cell]}) == ["cell 0: N.y"]


def test_annotate_parameters_gives_every_literal_a_type(tmp_path):
    import papermill as pm

    tool = _tool("annotate_parameters")
    source = 'seed = 0  # the seed\nks = [2, "m"]  # folds\nx = [0.5, 1]\nhome = None  # a folder\n'
    new = tool.annotate_source(source)
    assert "seed: int = 0" in new and "ks: list = " in new and "x: list[float] = " in new
    assert re.search(r"home = None +# type: Optional\[str\] a folder", new)
    exec(compile(new, "parameters", "exec"), {})  # still valid Python, annotations included
    assert tool.annotate_source(new) == new  # idempotent
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(new, metadata={"tags": ["parameters"]})]
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "P"}
    nbformat.write(nb, tmp_path / "p.ipynb")
    types = {
        k: v["inferred_type_name"] for k, v in pm.inspect_notebook(tmp_path / "p.ipynb").items()
    }
    assert types == {"seed": "int", "ks": "list", "x": "list[float]", "home": "Optional[str]"}


def test_typography_leaves_code_math_and_markup_alone():
    smarten = _tool("typography").smarten
    text = (
        'Clopper--Pearson -- it\'s "exact"\n\n| a | b |\n|---|---|\n`x--y` $a--b$ {cite}`k`\n---\n'
    )
    assert smarten(text) == (
        "Clopper–Pearson – it’s “exact”\n\n| a | b |\n|---|---|\n`x--y` $a--b$ {cite}`k`\n---\n"
    )
    assert smarten(smarten(text)) == smarten(text)


def test_build_book_reads_the_number_of_processes(monkeypatch):
    tool = _tool("build_book")
    monkeypatch.delenv("CVBOOK_BUILD_JOBS", raising=False)
    assert tool.jobs_from_env() == 2
    monkeypatch.setenv("CVBOOK_BUILD_JOBS", "1")
    assert tool.jobs_from_env() == 1
    for bad in ("0", "two", "-3"):
        monkeypatch.setenv("CVBOOK_BUILD_JOBS", bad)
        with pytest.raises(SystemExit, match="CVBOOK_BUILD_JOBS"):
            tool.jobs_from_env()


def test_the_extensions_declared_parallel_safe_are_silent_on_it():
    """_ext/cvbook_site.py marks two of jupyter-book's extensions parallel-read safe; it
    must do so only while they say nothing themselves (a later release that declares
    them unsafe wins, and then this test says the list is stale)."""
    import importlib

    import sphinx.application

    sys_path = str(ROOT / "_ext")
    import sys

    sys.path.insert(0, sys_path)
    try:
        site = importlib.import_module("cvbook_site")
    finally:
        sys.path.remove(sys_path)
    for name in site.PARALLEL_SAFE_FOR_HTML:
        module = importlib.import_module(name)

        class FakeApp:
            def __getattr__(self, attr):
                return lambda *a, **k: None

        metadata = module.setup(FakeApp()) or {}
        assert "parallel_read_safe" not in metadata, (name, metadata)
    assert sphinx.application  # the attribute Sphinx reads is Extension.parallel_read_safe
    from sphinx.extension import Extension

    assert Extension("x", None).parallel_read_safe is None


def test_chapters_that_print_markdown_tables_render_them_as_myst():
    """myst-nb renders a text/markdown output as CommonMark by default, which has no
    tables: a chapter that prints one sets ``mystnb.render_markdown_format: myst``."""
    for nb_path in chapter_notebooks():
        nb = nbformat.read(nb_path, as_version=4)
        tables = any(
            "|---" in "".join(out.get("data", {}).get("text/markdown", ""))
            for cell in nb.cells
            if cell.cell_type == "code"
            for out in cell.get("outputs", [])
        )
        fmt = nb.metadata.get("mystnb", {}).get("render_markdown_format")
        assert not tables or fmt == "myst", f"{nb_path.name} prints a table as {fmt!r}"


# --- claims (cvbook.claims): every comparison is a claim, every Moral bullet cites one --

#: An assert that compares a magnitude with a bound ("no difference": |z| < 4) belongs in a
#: claim with a stated margin (Claims.within), never in a bare assert.
_ABS_ASSERT = re.compile(r"^\s*assert\b[^\n]*\b(?:abs|np\.abs|np\.absolute|math\.fabs)\(", re.M)
_CHAINED_Z = re.compile(r"^\s*assert\s+-\s*\d+(?:\.\d+)?\s*<[^\n]*<\s*\d", re.M)


def _committed_claims(nb) -> dict | None:
    from cvbook.claims import CLAIMS_MIME

    found = None
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            found = output.get("data", {}).get(CLAIMS_MIME, found)
    return found


def _moral_bullets(nb) -> list[str]:
    """The bullets of the chapter's Moral, continuation lines joined to their bullet; a
    Moral written without bullets counts each of its paragraphs as one."""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        lines = cell.source.splitlines()
        heads = [i for i, line in enumerate(lines) if re.match(r"#+ .*moral", line, re.I)]
        if not heads:
            continue
        body: list[str] = []
        for line in lines[heads[0] + 1 :]:
            if line.startswith("#"):
                break
            if not re.match(r"\s*(```|:class:)", line):
                body.append(line)
        bullets: list[str] = []
        for line in body:
            if re.match(r"\s{0,3}(?:[-*]|\d+\.)\s", line):
                bullets.append(line.strip())
            elif bullets and line.strip():
                bullets[-1] += " " + line.strip()
        if bullets:
            return bullets
        paragraphs = re.split(r"\n\s*\n", "\n".join(body))
        return [p.replace("\n", " ").strip() for p in paragraphs if p.strip()]
    return []


def test_the_assert_checks_flag_what_they_should():
    assert _ABS_ASSERT.search("x = 1\nassert abs(z) < 4, 'unbiased'\n")
    assert _ABS_ASSERT.search("    assert np.abs(d).max() < 0.01\n")
    assert _CHAINED_Z.search("assert -4 < z < 4\n")
    assert not _ABS_ASSERT.search("assert np.isclose(a, b)\nclaims.within('x', abs(z))\n")
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "## Moral\n\n- one {eval}`N.ch0_a` and\n  more\n- two, no number\n\n## Next"
        )
    ]
    assert _moral_bullets(nb) == ["- one {eval}`N.ch0_a` and more", "- two, no number"]
    nb.cells = [
        nbformat.v4.new_markdown_cell("## Moral\n\n```{admonition} Moral\nA\nb.\n\nC.\n```")
    ]
    assert _moral_bullets(nb) == ["A b.", "C."]


@pytest.mark.parametrize("nb_path", chapter_notebooks(), ids=lambda p: p.stem)
def test_no_chapter_asserts_a_magnitude_outside_a_claim(nb_path):
    nb = nbformat.read(nb_path, as_version=4)
    found = [
        m.group(0).strip()
        for c in nb.cells
        if c.cell_type == "code"
        for pattern in (_ABS_ASSERT, _CHAINED_Z)
        for m in pattern.finditer(c.source)
    ]
    assert not found, f"{nb_path.name}: make these claims (cvbook.claims): {found}"


@pytest.mark.parametrize("nb_path", chapter_notebooks(), ids=lambda p: p.stem)
def test_every_claim_of_the_committed_run_is_shown(nb_path):
    nb = nbformat.read(nb_path, as_version=4)
    found = _committed_claims(nb)
    assert found, f"{nb_path.name}: no claim table (end the chapter with claims.show())"
    assert found["strict"], f"{nb_path.name}: committed from a run at other than default sizes"
    not_shown = [c["id"] for c in found["claims"] if c["verdict"] != "shown"]
    assert found["claims"] and not not_shown, f"{nb_path.name}: not shown: {not_shown}"


@pytest.mark.parametrize("nb_path", chapter_notebooks(), ids=lambda p: p.stem)
def test_every_moral_bullet_cites_a_claim(nb_path):
    nb = nbformat.read(nb_path, as_version=4)
    found = _committed_claims(nb) or {"claims": []}
    ids = {c["id"] for c in found["claims"]}
    bullets = _moral_bullets(nb)
    assert bullets, f"{nb_path.name}: the Moral has no bullets"
    bare = [
        b[:70]
        for b in bullets
        if not any(
            name == i or (name.startswith(i + "_") and name[len(i) + 1 :] in ("z", "verdict"))
            for name in re.findall(r"\{eval\}`N\.(\w+)`", b)
            for i in ids
        )
    ]
    assert not bare, f"{nb_path.name}: Moral bullets citing no claim's number: {bare}"


def test_the_ledger_lists_every_claim_of_every_chapter():
    text = (ROOT / "ledger.md").read_text(encoding="utf-8")
    for nb_path in chapter_notebooks():
        found = _committed_claims(nbformat.read(nb_path, as_version=4)) or {"claims": []}
        for c in found["claims"]:
            assert f"(`{c['id']}`)" in text, f"ledger.md misses {c['id']}: run tools/ledger.py"


def test_strip_notebooks_joins_a_stream_printed_in_pieces(tmp_path):
    """A print the kernel flushed in two pieces is one output after the strip tool, and
    its --check names it (a re-stored chapter then diffs only where its text changed)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("strip_nb", ROOT / "tools/strip_notebooks.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    piece = {"output_type": "stream", "name": "stdout"}
    cell = {
        "cell_type": "code",
        "metadata": {},
        "source": "print()",
        "outputs": [
            {**piece, "text": ["a\n", "b"]},
            {**piece, "text": "c\n"},
            {"output_type": "stream", "name": "stderr", "text": ["w\n"]},
            {**piece, "text": ["d\n"]},
        ],
    }
    nb = {"metadata": {"kernelspec": dict(tool.KERNELSPEC)}, "cells": [cell]}
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert tool.main(["--check", str(path)]) == 1
    assert tool.main([str(path)]) == 0
    outputs = json.loads(path.read_text(encoding="utf-8"))["cells"][0]["outputs"]
    assert [o["name"] for o in outputs] == ["stdout", "stderr", "stdout"]
    assert outputs[0]["text"] == ["a\n", "bc\n"]
    assert tool.main(["--check", str(path)]) == 0
