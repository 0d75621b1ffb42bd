"""Every chapter re-runs with new parameters through papermill, and no parameter is ignored.

Each chapter's notebook metadata ``cvbook`` declares

* ``smoke``: parameters for a fast run;
* ``changes_result``: for each parameter, a value which, set on top of ``smoke``,
  must change at least one published number (a parameter that changes nothing is
  silently ignored, which is a bug);
* ``keeps_result``: parameters that must *not* change any published number
  (``n_jobs``: results do not depend on the number of workers);
* ``bad_values`` (optional): out-of-range values of a parameter, each of which must
  stop the run in the check cell right after the parameters.

Every parameter of the ``parameters`` cell must appear in ``changes_result`` or
``keeps_result``. The published numbers of a run (``cvbook.book.published()``) are read
from one cell the test appends to the notebook it executes.

Speed (the stage is the longest of ``make test``; most of a run is starting a kernel and
importing scikit-learn): the tests of one chapter form one ``xdist_group``, so
``pytest -n 2 --dist loadgroup`` (``make papermill``) gives each core whole chapters,
and a chapter's runs are made once, by the worker that holds it, when its first test asks.
Every bad value and misspelt name goes through a real papermill run.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import nbformat
import papermill as pm
import pytest
from booktoc import chapter_notebooks

NOTEBOOKS = chapter_notebooks()
MARKER = "CVBOOK-PUBLISHED "
REPORT_CELL = (
    "import json as _json\nfrom cvbook.book import published as _published\n"
    f"print({MARKER!r} + _json.dumps(_published()))"
)


def _meta(nb_path: Path) -> dict:
    nb = nbformat.read(nb_path, as_version=4)
    meta = nb.metadata.get("cvbook")
    assert meta is not None, f"{nb_path.name}: notebook metadata has no 'cvbook' entry"
    return meta


def published_values(nb: nbformat.NotebookNode) -> dict[str, str]:
    """Name -> text of every number the executed notebook published."""
    for out in nb.cells[-1].get("outputs", []):
        for line in out.get("text", "").splitlines():
            if line.startswith(MARKER):
                return json.loads(line[len(MARKER) :])
    raise AssertionError("the run printed no published numbers")


def _execute(nb_path: str, params_json: str, out_dir: str) -> dict[str, str]:
    """Run one notebook with papermill (in a worker process); return what it published."""
    digest = hashlib.sha1(params_json.encode()).hexdigest()[:12]
    out = Path(out_dir) / f"{Path(nb_path).stem}-{digest}.ipynb"
    source = Path(out_dir) / "src" / f"{digest}-{Path(nb_path).name}"
    source.parent.mkdir(exist_ok=True)
    nb = nbformat.read(nb_path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(REPORT_CELL))
    nbformat.write(nb, source)
    pm.execute_notebook(
        str(source),
        str(out),
        parameters=json.loads(params_json),
        cwd=str(Path(nb_path).parent),
        progress_bar=False,
        log_output=False,
    )
    return published_values(nbformat.read(out, as_version=4))


def _key(params: dict) -> str:
    return json.dumps(params, sort_keys=True)


#: The runs each chapter has made in this process (one worker holds whole chapters).
_RUNS: dict[str, dict] = {}


def _needed(session, nb_path: Path) -> tuple[set, set, set]:
    """The runs the selected tests of one chapter need: (normal, bad-value, misspelt)."""
    ok, bad, misspelt = set(), set(), set()
    smoke = _meta(nb_path).get("smoke", {})
    for item in session.items:
        spec = getattr(item, "callspec", None)
        if spec is None or str(spec.params.get("nb_path")) != str(nb_path):
            continue
        params = spec.params
        if "must_change" in params:
            ok.add(_key(smoke))
            ok.add(_key({**smoke, params["name"]: params["value"]}))
        if "fresh_seed" in params:
            ok.add(_key({**smoke, "seed": params["fresh_seed"]}))
        if "bad" in params:
            bad.add(_key({params["name"]: params["bad"]}))
        if "misspelt" in params:
            misspelt.add(_key({**smoke, params["misspelt"]: params["value"]}))
    return ok, bad, misspelt


@pytest.fixture
def chapter_runs(request, tmp_path_factory):
    """``chapter_runs(nb_path)``: every run the selected tests of that chapter need, made
    the first time a test of the chapter asks (results cached for the worker)."""

    def runs_of(nb_path: Path) -> dict:
        if str(nb_path) not in _RUNS:
            ok, bad, misspelt = _needed(request.session, nb_path)
            out_dir = str(tmp_path_factory.mktemp(f"papermill-{nb_path.stem}"))
            results: dict = {}
            for params in sorted(ok):
                try:
                    results["ok", params] = _execute(str(nb_path), params, out_dir)
                except Exception as exc:  # reported by the test that needs this run
                    results["ok", params] = exc
            for params in sorted(misspelt):
                try:
                    results["misspelt", params] = _execute_bad(str(nb_path), params, out_dir)
                except Exception as exc:
                    results["misspelt", params] = exc
            if bad:
                try:
                    for params, result in _try_bad_values(nb_path, sorted(bad), out_dir).items():
                        results["bad", params] = result
                except Exception as exc:
                    results.update({("bad", params): exc for params in bad})
            _RUNS[str(nb_path)] = results
        return _RUNS[str(nb_path)]

    return runs_of


def _get(runs: dict, kind: str, nb_path: Path, params: dict):
    result = runs[kind, _key(params)]
    if isinstance(result, Exception):
        raise AssertionError(f"{nb_path.name} failed with parameters {params}: {result}")
    return result


def _by_chapter(nb_path: Path, *values, id: str):
    return pytest.param(nb_path, *values, id=id, marks=pytest.mark.xdist_group(nb_path.stem))


def test_every_chapter_is_checked():
    assert NOTEBOOKS, "no chapter notebook is listed in _toc.yml"


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_parameters_cell_is_declared(nb_path: Path):
    nb = nbformat.read(nb_path, as_version=4)
    tagged = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1, (
        f"{nb_path.name}: {len(tagged)} cells tagged 'parameters', need exactly 1"
    )
    assert tagged[0].cell_type == "code"
    params = set(pm.inspect_notebook(str(nb_path)))
    meta = _meta(nb_path)
    declared = set(meta.get("changes_result", {})) | set(meta.get("keeps_result", {}))
    assert params, f"{nb_path.name}: the parameters cell defines no parameter"
    assert params <= declared, (
        f"{nb_path.name}: parameters {sorted(params - declared)} are not "
        "checked: list them in metadata cvbook.changes_result or keeps_result"
    )
    unknown = (declared | set(meta.get("smoke", {}))) - params
    assert not unknown, f"{nb_path.name}: metadata names unknown parameters {sorted(unknown)}"
    assert "seed" in meta.get("changes_result", {}) or "seed" not in params


def _cases():
    for nb_path in NOTEBOOKS:
        meta = _meta(nb_path)
        for name, value in meta.get("changes_result", {}).items():
            yield _by_chapter(nb_path, name, value, True, id=f"{nb_path.stem}-{name}")
        for name, value in meta.get("keeps_result", {}).items():
            yield _by_chapter(nb_path, name, value, False, id=f"{nb_path.stem}-{name}-invariant")


@pytest.mark.parametrize("nb_path, name, value, must_change", list(_cases()))
def test_parameter_takes_effect(nb_path: Path, name: str, value, must_change: bool, chapter_runs):
    runs = chapter_runs(nb_path)
    smoke = _meta(nb_path).get("smoke", {})
    base = _get(runs, "ok", nb_path, smoke)
    assert base, f"{nb_path.name}: the smoke run published no value to compare"
    assert smoke.get(name) != value, f"{nb_path.name}: {name}={value!r} is the smoke value itself"
    changed = _get(runs, "ok", nb_path, {**smoke, name: value})
    assert changed.keys() == base.keys()
    differing = sorted(k for k in base if base[k] != changed[k])
    if must_change:
        assert differing, f"{nb_path.name}: setting {name}={value!r} changed no published value"
    else:
        assert not differing, f"{nb_path.name}: setting {name}={value!r} changed {differing}"


# --------------------------------------------------------------------------- bad values


#: A value of the wrong kind for a parameter, by the kind of its default value.
def _wrong_kind(default):
    if isinstance(default, bool):
        return "abc"
    if isinstance(default, (int, float)):
        return "abc"
    if isinstance(default, str):
        return 12345
    if isinstance(default, list):
        return "abc"
    return None  # None or another kind: only the chapter's own bad_values apply


def _bad_cases():
    """One wrong-kind value per parameter, and the chapter's out-of-range values
    (metadata ``cvbook.bad_values``: parameter -> list of values)."""
    for nb_path in NOTEBOOKS:
        params = pm.inspect_notebook(str(nb_path))
        meta = _meta(nb_path)
        for name, info in params.items():
            try:
                default = eval(info["default"], {})  # literal defaults of the parameters cell
            except Exception:
                default = None
            bad = _wrong_kind(default)
            if bad is not None:
                yield _by_chapter(nb_path, name, bad, id=f"{nb_path.stem}-{name}-kind")
        for name, values in meta.get("bad_values", {}).items():
            for i, value in enumerate(values):
                yield _by_chapter(nb_path, name, value, id=f"{nb_path.stem}-{name}-range{i}")


def _execute_bad(nb_path: str, params_json: str, out_dir: str) -> tuple[str, str, int, int] | None:
    """Run a notebook that must fail; return (error name, message, index of the failing
    cell, index of the check cell) or None when it ran to the end."""
    digest = hashlib.sha1(params_json.encode()).hexdigest()[:12]
    out = Path(out_dir) / f"bad-{Path(nb_path).stem}-{digest}.ipynb"
    try:
        pm.execute_notebook(
            nb_path,
            str(out),
            parameters=json.loads(params_json),
            cwd=str(Path(nb_path).parent),
            progress_bar=False,
            log_output=False,
        )
    except pm.PapermillExecutionError as err:
        nb = nbformat.read(out, as_version=4)
        code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
        failed = [
            i
            for i in code
            if any(o.get("output_type") == "error" for o in nb.cells[i].get("outputs", []))
        ]
        injected = next(
            i for i in code if "injected-parameters" in nb.cells[i].metadata.get("tags", [])
        )
        check = next(i for i in code if i > injected)
        return err.ename, err.evalue, failed[0] if failed else -1, check
    return None


def _try_bad_values(nb_path: Path, keys: list[str], out_dir: str) -> dict:
    """Run the chapter with each bad value through papermill; return, per value, (error
    name, message, where it failed: 'check' or 'cell N') or None when it ran to the end."""
    results: dict = {}
    for key in keys:
        found = _execute_bad(str(nb_path), key, out_dir)
        if found is None:
            results[key] = None
            continue
        ename, evalue, index, check = found
        results[key] = (ename, evalue, "check" if index == check else f"cell {index}")
    return results


@pytest.mark.parametrize("nb_path, name, bad", list(_bad_cases()))
def test_bad_value_fails_at_once_naming_the_parameter(nb_path: Path, name: str, bad, chapter_runs):
    """A bad value fails in the cell right after the injected parameters, with one
    ParameterError line that names the parameter (a ParameterTypeError, a subclass that
    is also a TypeError, for a value of the wrong kind)."""
    result = _get(chapter_runs(nb_path), "bad", nb_path, {name: bad})
    assert result is not None, f"{nb_path.name}: {name}={bad!r} passed the check cell"
    ename, evalue, where = result
    assert ename in {"ParameterError", "ParameterTypeError"}, (
        f"{nb_path.name}: {name}={bad!r} raised {ename}: {evalue}"
    )
    assert f"'{name}'" in evalue and "\n" not in evalue.strip(), evalue
    assert where == "check", (
        f"{nb_path.name}: {name}={bad!r} failed in {where}, "
        "not in the check right after the parameters"
    )


def _misspelt(name: str, known) -> str:
    for candidate in (name + "s", name[:-1], name + "_"):
        if candidate not in known and candidate.isidentifier():
            return candidate
    raise AssertionError(name)  # pragma: no cover


def _misspelt_cases():
    for nb_path in NOTEBOOKS:
        params = pm.inspect_notebook(str(nb_path))
        name = next(iter(params))
        yield _by_chapter(nb_path, _misspelt(name, params), 3, id=f"{nb_path.stem}-misspelt")


@pytest.mark.parametrize("nb_path, misspelt, value", list(_misspelt_cases()))
def test_a_misspelt_parameter_fails_at_once_naming_it(
    nb_path: Path, misspelt: str, value, chapter_runs
):
    """``papermill -p <misspelt name> ...`` stops in the check cell, naming the unknown
    parameter and listing the chapter's (papermill itself only warns)."""
    smoke = _meta(nb_path).get("smoke", {})
    result = _get(chapter_runs(nb_path), "misspelt", nb_path, {**smoke, misspelt: value})
    assert result is not None, f"{nb_path.name}: -p {misspelt} {value} ran to the end"
    ename, evalue, index, check_cell = result
    assert ename == "ParameterError", f"{nb_path.name}: {ename}: {evalue}"
    assert f"unknown parameter '{misspelt}'" in evalue, evalue
    assert all(p in evalue for p in pm.inspect_notebook(str(nb_path))), evalue
    assert index == check_cell, f"{nb_path.name}: failed in cell {index}, not {check_cell}"


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_help_notebook_shows_each_parameters_type(nb_path: Path):
    """``papermill --help-notebook`` reads the annotations of the parameters cell
    (``m: int = 40  # help``); without them it prints "Unknown type"
    (``python tools/annotate_parameters.py chapters/NN.ipynb`` adds them)."""
    params = pm.inspect_notebook(str(nb_path))
    untyped = [n for n, info in params.items() if info["inferred_type_name"] in ("None", "")]
    assert not untyped, f"{nb_path.name}: parameters without a type annotation: {untyped}"


# --------------------------------------------------------------------------- other seeds

#: Seeds used nowhere else in the book or its tests: every chapter's smoke run must
#: finish under each (degenerate draws are handled by design, never by luck).
FRESH_SEEDS = (611953, 7368787, 98765431, 1000000007, 2147483629)


def _seed_cases():
    for nb_path in NOTEBOOKS:
        if "seed" not in pm.inspect_notebook(str(nb_path)):
            continue
        for seed in FRESH_SEEDS:
            yield _by_chapter(nb_path, seed, id=f"{nb_path.stem}-seed{seed}")


@pytest.mark.parametrize("nb_path, fresh_seed", list(_seed_cases()))
def test_smoke_run_finishes_under_a_fresh_seed(nb_path: Path, fresh_seed: int, chapter_runs):
    smoke = _meta(nb_path).get("smoke", {})
    result = chapter_runs(nb_path)["ok", _key({**smoke, "seed": fresh_seed})]
    if isinstance(result, Exception):
        raise AssertionError(f"{nb_path.name} failed with seed={fresh_seed}: {result}")
    assert result, f"{nb_path.name}: the run under seed={fresh_seed} published nothing"
