"""Every chapter re-runs with new parameters through papermill, and no parameter is ignored.

Each chapter's notebook metadata ``cvbook`` declares

* ``smoke``: parameters for a fast run;
* ``changes_result``: for each parameter, a value which, set on top of ``smoke``,
  must change at least one glued number (a parameter that changes nothing is
  silently ignored, which is a bug);
* ``keeps_result``: parameters that must *not* change any glued number
  (``n_jobs``: results do not depend on the number of workers).

Every parameter of the ``parameters`` cell must appear in one of the two.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import nbformat
import papermill as pm
import pytest

from booktoc import chapter_notebooks

NOTEBOOKS = chapter_notebooks()
RECORD = "application/papermill.record/"


def _meta(nb_path: Path) -> dict:
    nb = nbformat.read(nb_path, as_version=4)
    meta = nb.metadata.get("cvbook")
    assert meta is not None, f"{nb_path.name}: notebook metadata has no 'cvbook' entry"
    return meta


def glued_values(nb: nbformat.NotebookNode) -> dict[str, str]:
    """Name -> text of every value glued (myst_nb.glue) in an executed notebook."""
    values: dict[str, str] = {}
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            name = out.get("metadata", {}).get("scrapbook", {}).get("name")
            if name is None:
                continue
            text = out.get("data", {}).get(RECORD + "text/plain")
            if text is not None and not text.startswith("<Figure"):
                values[name] = text
    return values


@functools.lru_cache(maxsize=None)
def _run(nb_path: Path, params_json: str, out_dir: str) -> dict[str, str]:
    params = json.loads(params_json)
    out = Path(out_dir) / f"{nb_path.stem}-{abs(hash(params_json))}.ipynb"
    pm.execute_notebook(str(nb_path), str(out), parameters=params, cwd=str(nb_path.parent),
                        progress_bar=False, log_output=False)
    return glued_values(nbformat.read(out, as_version=4))


@pytest.fixture(scope="session")
def out_dir(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("papermill"))


def test_every_chapter_is_checked():
    assert NOTEBOOKS, "no chapter notebook is listed in _toc.yml"


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_parameters_cell_is_declared(nb_path: Path):
    nb = nbformat.read(nb_path, as_version=4)
    tagged = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1, f"{nb_path.name}: {len(tagged)} cells tagged 'parameters', need exactly 1"
    assert tagged[0].cell_type == "code"
    params = set(pm.inspect_notebook(str(nb_path)))
    meta = _meta(nb_path)
    declared = set(meta.get("changes_result", {})) | set(meta.get("keeps_result", {}))
    assert params, f"{nb_path.name}: the parameters cell defines no parameter"
    assert params <= declared, (f"{nb_path.name}: parameters {sorted(params - declared)} are not "
                                "checked: list them in metadata cvbook.changes_result or keeps_result")
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
def test_parameter_takes_effect(nb_path: Path, name: str, value, must_change: bool, out_dir: str):
    smoke = _meta(nb_path).get("smoke", {})
    base = _run(nb_path, json.dumps(smoke, sort_keys=True), out_dir)
    assert base, f"{nb_path.name}: the smoke run glued no value to compare"
    assert smoke.get(name) != value, f"{nb_path.name}: {name}={value!r} is the smoke value itself"
    changed = _run(nb_path, json.dumps({**smoke, name: value}, sort_keys=True), out_dir)
    assert changed.keys() == base.keys()
    differing = sorted(k for k in base if base[k] != changed[k])
    if must_change:
        assert differing, f"{nb_path.name}: setting {name}={value!r} changed no glued value"
    else:
        assert not differing, f"{nb_path.name}: setting {name}={value!r} changed {differing}"
