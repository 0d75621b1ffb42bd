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
"""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import ProcessPoolExecutor
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


@pytest.fixture(scope="session")
def runs(request, tmp_path_factory) -> dict:
    """Every papermill run the selected tests need, executed up front in parallel.

    Each chapter runs once with its ``smoke`` parameters and once per perturbed
    parameter; the runs are independent, so two worker processes (one per core)
    halve the wall time. ``CVBOOK_PAPERMILL_WORKERS`` changes the number.
    """
    out_dir = str(tmp_path_factory.mktemp("papermill"))
    wanted: set[tuple[str, str]] = set()
    for item in request.session.items:
        spec = getattr(item, "callspec", None)
        if spec is None or "must_change" not in spec.params:
            continue
        nb_path, name, value = spec.params["nb_path"], spec.params["name"], spec.params["value"]
        smoke = _meta(nb_path).get("smoke", {})
        wanted.add((str(nb_path), _key(smoke)))
        wanted.add((str(nb_path), _key({**smoke, name: value})))
    workers = int(os.environ.get("CVBOOK_PAPERMILL_WORKERS", "2"))
    results: dict = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {
            pool.submit(_execute, nb, params, out_dir): (nb, params)
            for nb, params in sorted(wanted)
        }
        for future, key in futures.items():
            try:
                results[key] = future.result()
            except Exception as exc:  # reported by the test that needs this run
                results[key] = exc
    return results


def _get(runs: dict, nb_path: Path, params: dict) -> dict[str, str]:
    result = runs[(str(nb_path), _key(params))]
    if isinstance(result, Exception):
        raise AssertionError(f"{nb_path.name} failed with parameters {params}: {result}")
    return result


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
            yield pytest.param(nb_path, name, value, True, id=f"{nb_path.stem}-{name}")
        for name, value in meta.get("keeps_result", {}).items():
            yield pytest.param(nb_path, name, value, False, id=f"{nb_path.stem}-{name}-invariant")


@pytest.mark.parametrize("nb_path, name, value, must_change", list(_cases()))
def test_parameter_takes_effect(nb_path: Path, name: str, value, must_change: bool, runs: dict):
    smoke = _meta(nb_path).get("smoke", {})
    base = _get(runs, nb_path, smoke)
    assert base, f"{nb_path.name}: the smoke run published no value to compare"
    assert smoke.get(name) != value, f"{nb_path.name}: {name}={value!r} is the smoke value itself"
    changed = _get(runs, nb_path, {**smoke, name: value})
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
                yield pytest.param(nb_path, name, bad, id=f"{nb_path.stem}-{name}-kind")
        for name, values in meta.get("bad_values", {}).items():
            for i, value in enumerate(values):
                yield pytest.param(nb_path, name, value, id=f"{nb_path.stem}-{name}-range{i}")


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


@pytest.fixture(scope="session")
def bad_runs(request, tmp_path_factory) -> dict:
    out_dir = str(tmp_path_factory.mktemp("papermill_bad"))
    wanted = set()
    for item in request.session.items:
        spec = getattr(item, "callspec", None)
        if spec is None or "bad" not in spec.params:
            continue
        wanted.add((str(spec.params["nb_path"]), _key({spec.params["name"]: spec.params["bad"]})))
    workers = int(os.environ.get("CVBOOK_PAPERMILL_WORKERS", "2"))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {key: pool.submit(_execute_bad, key[0], key[1], out_dir) for key in wanted}
        return {key: f.result() for key, f in futures.items()}


@pytest.mark.parametrize("nb_path, name, bad", list(_bad_cases()))
def test_bad_value_fails_at_once_naming_the_parameter(
    nb_path: Path, name: str, bad, bad_runs: dict
):
    """A bad value fails in the cell right after the injected parameters, with one
    ParameterError line that names the parameter."""
    result = bad_runs[(str(nb_path), _key({name: bad}))]
    assert result is not None, f"{nb_path.name}: {name}={bad!r} ran to the end"
    ename, evalue, index, check_cell = result  # the first code cell after the injected one
    assert ename == "ParameterError", f"{nb_path.name}: {name}={bad!r} raised {ename}: {evalue}"
    assert f"'{name}'" in evalue and "\n" not in evalue.strip(), evalue
    assert index == check_cell, (
        f"{nb_path.name}: {name}={bad!r} failed in cell {index}, "
        f"not in the check right after the parameters ({check_cell})"
    )


# --------------------------------------------------------------------------- other seeds

#: Seeds used nowhere else in the book or its tests: every chapter's smoke run must
#: finish under each (degenerate draws are handled by design, never by luck).
FRESH_SEEDS = (611953, 7368787, 98765431, 1000000007, 2147483629)


def _seed_cases():
    for nb_path in NOTEBOOKS:
        if "seed" not in pm.inspect_notebook(str(nb_path)):
            continue
        for seed in FRESH_SEEDS:
            yield pytest.param(nb_path, seed, id=f"{nb_path.stem}-seed{seed}")


@pytest.fixture(scope="session")
def seed_runs(request, tmp_path_factory) -> dict:
    out_dir = str(tmp_path_factory.mktemp("papermill_seeds"))
    wanted = set()
    for item in request.session.items:
        spec = getattr(item, "callspec", None)
        if spec is None or "fresh_seed" not in spec.params:
            continue
        nb_path = spec.params["nb_path"]
        smoke = _meta(nb_path).get("smoke", {})
        wanted.add((str(nb_path), _key({**smoke, "seed": spec.params["fresh_seed"]})))
    workers = int(os.environ.get("CVBOOK_PAPERMILL_WORKERS", "2"))
    results = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {key: pool.submit(_execute, key[0], key[1], out_dir) for key in wanted}
        for key, future in futures.items():
            try:
                results[key] = future.result()
            except Exception as exc:  # reported by its test
                results[key] = exc
    return results


@pytest.mark.parametrize("nb_path, fresh_seed", list(_seed_cases()))
def test_smoke_run_finishes_under_a_fresh_seed(nb_path: Path, fresh_seed: int, seed_runs: dict):
    smoke = _meta(nb_path).get("smoke", {})
    result = seed_runs[(str(nb_path), _key({**smoke, "seed": fresh_seed}))]
    if isinstance(result, Exception):
        raise AssertionError(f"{nb_path.name} failed with seed={fresh_seed}: {result}")
    assert result, f"{nb_path.name}: the run under seed={fresh_seed} published nothing"
