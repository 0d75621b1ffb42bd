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

How each run is made (a third of a papermill run is starting a kernel and importing
scikit-learn, so the runs that only compare published numbers share one kernel per
chapter):

* **through papermill, in a fresh kernel**, as a reader re-runs a chapter: one *random
  legal draw* of every parameter, the seed included (``tools/draw_parameters.py``: each
  value drawn from the range the check cell accepts, sizes no larger than the smoke
  run's). It must run to the end, and its output's prose must carry its own numbers. The
  draw is picked by ``CVBOOK_DRAW_SEED`` (``make papermill`` draws a fresh one and
  prints it; each chapter's own seed is derived from it), and a failure prints the
  chapter's seed, the drawn values and the command that re-runs them. One value of the
  wrong kind also goes through papermill (see below).
* **in one kernel per chapter** (nbclient, the notebook parameterised by papermill's
  own ``parameterize_notebook``, the kernel's namespace reset and the published numbers
  cleared before each run): the smoke run, then every ``changes_result`` value (``seed``
  included) and every ``keeps_result`` value but ``n_jobs`` on top of it, a misspelt
  parameter name (which must stop the check cell, naming it: ``check_parameter_names``
  reads the kernel's input history, as in a papermill run), and last the random draw
  again, with another ``n_jobs``. That last run must publish exactly what the papermill
  run of the draw published, so state left by earlier runs in the shared kernel, or a
  result that depends on the number of workers, would fail the test (one run for what
  were two: the ``n_jobs`` run on top of the smoke run is not made).
* **in this process**: every other bad value. The notebook's cells up to the check cell
  (the cell after the parameters) run as Python, with the assignments papermill would
  inject; a real papermill run of one bad value per chapter must fail with exactly the
  error the in-process run of that value reports, so the two paths are checked against
  each other.

``make papermill`` runs two pytest processes, each on half of the chapters
(``CVBOOK_PAPERMILL_SHARD``, see :func:`_shard`); a chapter's runs are made once, when
its first test asks, and their total time is written to ``_build/costs/`` (then into
``tests/chapter_costs.json`` by ``python tests/booktoc.py --record``).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sys
import time
import zlib
from contextlib import contextmanager
from pathlib import Path

import nbformat
import papermill as pm
import pytest
from booktoc import balanced_shards, chapter_notebooks, heaviest_first
from IPython.core.inputtransformer2 import TransformerManager
from nbclient import NotebookClient
from papermill.parameterize import parameterize_notebook

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import draw_parameters  # tools/ is not a package

NOTEBOOKS = chapter_notebooks()
ROOT = Path(__file__).resolve().parents[1]


def _shard(notebooks: list[Path]) -> list[Path]:
    """The chapters this process tests: ``CVBOOK_PAPERMILL_SHARD=k/n`` takes the k-th of
    ``n`` lists of about equal measured cost (:func:`booktoc.balanced_shards`), so that
    ``n`` processes (``make papermill`` runs two) finish together. Unset: every chapter.

    pytest-xdist's ``--dist loadgroup`` would keep a chapter's tests on one worker, but
    with pytest 9 it no longer does (the group suffix it writes into ``item._nodeid`` is
    not read back), so each worker made every chapter's runs: twice the work.
    """
    spec = os.environ.get("CVBOOK_PAPERMILL_SHARD", "")
    if not spec:
        return heaviest_first(notebooks, "papermill")
    try:
        k, n = (int(part) for part in spec.split("/"))
        if not 0 <= k < n:
            raise ValueError
    except ValueError:
        raise pytest.UsageError(
            f"CVBOOK_PAPERMILL_SHARD must be k/n with 0 <= k < n, got {spec!r}"
        ) from None
    return balanced_shards(notebooks, "papermill", n)[k]


#: The chapters this process runs, the heavier ones first.
ORDER = _shard(NOTEBOOKS)
MARKER = "CVBOOK-PUBLISHED "
REPORT_CELL = (
    "import json as _json\nfrom cvbook.book import published as _published\n"
    f"print({MARKER!r} + _json.dumps(_published()))"
)
#: Run before each run in a shared kernel: an empty namespace, no published number.
RESET_CELL = "%reset -f\nfrom cvbook.book import clear_published\nclear_published()"

#: The draw of this session: ``CVBOOK_DRAW_SEED`` (``make papermill`` sets a fresh one and
#: prints it), else a fresh one. Each chapter's draw has its own seed, derived from it.
DRAW_SEED = int(os.environ.get("CVBOOK_DRAW_SEED") or secrets.randbelow(2**32))
_DRAWS: dict[str, dict] = {}


def _draw_seed(nb_path: Path) -> int:
    return (DRAW_SEED + zlib.crc32(nb_path.stem.encode())) % 2**32


def _draw(nb_path: Path) -> dict:
    """The chapter's random legal draw (cached): every parameter the check cell names."""
    if str(nb_path) not in _DRAWS:
        _DRAWS[str(nb_path)] = draw_parameters.draw(nb_path, _draw_seed(nb_path))
    return _DRAWS[str(nb_path)]


def _draw_text(nb_path: Path) -> str:
    """What a failing draw prints: its seed, its values, and the command that re-runs it."""
    seed = _draw_seed(nb_path)
    return (
        f"random draw (CVBOOK_DRAW_SEED={DRAW_SEED}; this chapter's seed {seed}): "
        f"{json.dumps(_draw(nb_path))}\n  re-run it: python tools/draw_parameters.py "
        f"{nb_path.relative_to(ROOT)} --seed {seed} --run /tmp/{nb_path.stem}-draw.ipynb"
    )


def _meta(nb_path: Path) -> dict:
    nb = nbformat.read(nb_path, as_version=4)
    meta = nb.metadata.get("cvbook")
    assert meta is not None, f"{nb_path.name}: notebook metadata has no 'cvbook' entry"
    return meta


def _smoke(nb_path: Path) -> dict:
    return _meta(nb_path).get("smoke", {})


def published_values(nb: nbformat.NotebookNode) -> dict[str, str]:
    """Name -> text of every number the executed notebook published."""
    for out in nb.cells[-1].get("outputs", []):
        for line in out.get("text", "").splitlines():
            if line.startswith(MARKER):
                return json.loads(line[len(MARKER) :])
    raise AssertionError("the run printed no published numbers")


def _key(params: dict) -> str:
    return json.dumps(params, sort_keys=True)


def _with_report(nb_path: Path) -> nbformat.NotebookNode:
    nb = nbformat.read(nb_path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(REPORT_CELL))
    return _as_papermill_loads(nb)


def _as_papermill_loads(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """What papermill's loader adds before it parameterises: tags on every cell, and a
    ``papermill`` metadata entry."""
    for cell in nb.cells:
        cell.metadata.setdefault("tags", [])
    nb.metadata.setdefault("papermill", {})
    return nb


# --------------------------------------------------------------------------- three ways to run


def stored_numbers(nb: nbformat.NotebookNode) -> dict[str, tuple[str, str | None]]:
    """Expression -> (status, text) of every value stored in the Markdown cells."""
    out = {}
    for cell in nb.cells:
        for entry in cell.get("metadata", {}).get("user_expressions", []):
            result = entry.get("result", {})
            text = result.get("data", {}).get("text/plain", result.get("evalue"))
            out[entry["expression"]] = (result.get("status"), text)
    return out


def _papermill(nb_path: Path, params_json: str, out_dir: str):
    """Run one notebook with papermill (engine ``cvbook``) in a fresh kernel; return what
    it published and the values stored in its Markdown cells."""
    digest = hashlib.sha1(params_json.encode()).hexdigest()[:12]
    out = Path(out_dir) / f"{nb_path.stem}-{digest}.ipynb"
    source = Path(out_dir) / "src" / f"{digest}-{nb_path.name}"
    source.parent.mkdir(exist_ok=True)
    nbformat.write(_with_report(nb_path), source)
    _execute(source, out, params_json, nb_path.parent)
    nb = nbformat.read(out, as_version=4)
    return published_values(nb), stored_numbers(nb)


def _execute(source: Path, out: Path, params_json: str, cwd: Path) -> None:
    """``papermill --engine cvbook`` quietly, with the parameters given as JSON: papermill's
    own engine, which also stores the prose's numbers (``cvbook.stored_values``)."""
    pm.execute_notebook(
        str(source),
        str(out),
        parameters=json.loads(params_json),
        engine_name="cvbook",
        cwd=str(cwd),
        progress_bar=False,
        log_output=False,
    )


def _papermill_bad(nb_path: Path, params_json: str, out_dir: str):
    """Run through papermill a notebook that must fail; return (error name, message,
    index of the failing code cell, index of the check cell) or None when it ran to the end."""
    digest = hashlib.sha1(params_json.encode()).hexdigest()[:12]
    out = Path(out_dir) / f"bad-{nb_path.stem}-{digest}.ipynb"
    try:
        _execute(nb_path, out, params_json, nb_path.parent)
    except pm.PapermillExecutionError as err:
        nb = nbformat.read(out, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        failed = [
            i
            for i, c in enumerate(code)
            if any(o.get("output_type") == "error" for o in c.get("outputs", []))
        ]
        injected = next(
            i for i, c in enumerate(code) if "injected-parameters" in c.metadata.get("tags", [])
        )
        return err.ename, err.evalue, failed[0] if failed else -1, injected + 1
    return None


@contextmanager
def _shared_kernel(nb_path: Path):
    """``run(params) -> published numbers`` and ``run_bad(params) -> (error name, message,
    index of the failing code cell, index of the check cell) or None``: runs of one
    chapter in one kernel."""
    from nbclient.exceptions import CellExecutionError

    client = NotebookClient(
        _with_report(nb_path),
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(nb_path.parent)}},
    )

    def execute(params: dict) -> nbformat.NotebookNode:
        reset = nbformat.v4.new_code_cell(RESET_CELL)
        client.execute_cell(reset, 0, store_history=False)
        nb = parameterize_notebook(_with_report(nb_path), params)
        client.nb = nb
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
        return nb

    def run(params: dict) -> dict[str, str]:
        return published_values(execute(params))

    def run_bad(params: dict):
        try:
            execute(params)
        except CellExecutionError as err:
            code = [c for c in client.nb.cells if c.cell_type == "code"]
            failed = [
                i
                for i, c in enumerate(code)
                if any(o.get("output_type") == "error" for o in c.get("outputs", []))
            ]
            injected = next(
                i for i, c in enumerate(code) if "injected-parameters" in c.metadata.get("tags", [])
            )
            return err.ename, err.evalue, failed[0] if failed else -1, injected + 1
        return None

    with client.setup_kernel():
        yield run, run_bad


def _in_process_check(nb_path: Path, params: dict):
    """Run, in this process, the code cells up to the check cell with the parameters
    papermill would inject; return (error name, message, 'check' or 'cell N') or None."""
    nb = parameterize_notebook(_as_papermill_loads(nbformat.read(nb_path, as_version=4)), params)
    code = [c for c in nb.cells if c.cell_type == "code"]
    injected = next(
        i for i, c in enumerate(code) if "injected-parameters" in c.metadata.get("tags", [])
    )
    namespace: dict = {"__name__": "__main__"}
    transform = TransformerManager().transform_cell
    here = Path.cwd()
    os.chdir(nb_path.parent)
    try:
        for i, cell in enumerate(code[: injected + 2]):
            try:
                exec(
                    compile(transform(cell.source), f"<{nb_path.name} cell {i}>", "exec"), namespace
                )
            except Exception as err:
                return type(err).__name__, str(err), "check" if i == injected + 1 else f"cell {i}"
    finally:
        os.chdir(here)
    return None


# --------------------------------------------------------------------------- the runs of a chapter


def _kept(nb_path: Path) -> dict:
    """The ``keeps_result`` values the shared kernel runs on top of the smoke run: all
    but ``n_jobs``, which the draw's second run varies (:func:`_draw_again`)."""
    return {k: v for k, v in _meta(nb_path).get("keeps_result", {}).items() if k != "n_jobs"}


def _draw_again(nb_path: Path) -> dict:
    """The draw as the shared kernel runs it, last: with another ``n_jobs`` when the
    chapter declares that ``n_jobs`` keeps its results (``keeps_result``).

    One run checks two things that each needed a run of their own: nothing leaks between
    the runs that share a kernel, and the number of workers changes no published number
    (it must publish what the papermill run of the draw published)."""
    drawn = _draw(nb_path)
    if "n_jobs" not in _meta(nb_path).get("keeps_result", {}):
        return drawn
    current = drawn.get("n_jobs", _default(pm.inspect_notebook(str(nb_path))["n_jobs"]))
    kept = _meta(nb_path)["keeps_result"]["n_jobs"]
    other = next(v for v in (kept, _smoke(nb_path).get("n_jobs"), 1, 2) if v not in (None, current))
    return {**drawn, "n_jobs": other}


def _first_kind_case(nb_path: Path) -> tuple[str, object] | None:
    """The bad value that also goes through papermill: the first wrong-kind value."""
    for name, info in pm.inspect_notebook(str(nb_path)).items():
        bad = _wrong_kind(_default(info))
        if bad is not None:
            return name, bad
    return None


#: The runs each chapter has made in this process (one worker holds whole chapters).
_RUNS: dict[str, dict] = {}
#: Where each chapter's total time in this stage is written (``booktoc.py --record``).
COSTS = ROOT / "_build" / "costs"


#: The wall time of each run of the chapter being made (``_make_runs``), in order:
#: ``[what, parameters, seconds]``; written beside the chapter's total in ``COSTS``.
_RUN_TIMES: list[list] = []


def _guarded(run, *args):
    start = time.perf_counter()
    try:
        return run(*args)
    except Exception as exc:  # reported by the test that needs this run
        return exc
    finally:
        what = getattr(run, "__name__", "run").lstrip("_")
        params = args[1] if what.startswith("papermill") else args[0]
        params = params.name if isinstance(params, Path) else params
        _RUN_TIMES.append([what, params, round(time.perf_counter() - start, 1)])


def _make_runs(nb_path: Path, out_dir: str) -> dict:
    """Every run the tests of one chapter compare (see the module's docstring)."""
    results: dict = {}
    smoke = _smoke(nb_path)
    drawn = _guarded(_draw, nb_path)
    if isinstance(drawn, Exception):
        results["draw"] = drawn
    else:
        run = _guarded(_papermill, nb_path, _key(drawn), out_dir)
        failed = isinstance(run, Exception)
        results["papermill", _key(drawn)] = run if failed else run[0]
        results["stored", _key(drawn)] = run if failed else run[1]
    kind = _first_kind_case(nb_path)
    if kind is not None:
        params = _key({kind[0]: kind[1]})
        results["papermill-bad", params] = _guarded(_papermill_bad, nb_path, params, out_dir)
    # the shared kernel: the smoke run first (every change is compared with it), the
    # draw last (it must publish what the papermill run of the draw did)
    meta = _meta(nb_path)
    order = [_key(smoke)]
    for name, value in {**meta.get("changes_result", {}), **_kept(nb_path)}.items():
        order.append(_key({**smoke, name: value}))
    if not isinstance(drawn, Exception):
        order.append(_key(_draw_again(nb_path)))
    misspelt = _key({**smoke, _misspelt_name(nb_path): 3})
    try:
        with _shared_kernel(nb_path) as (run, run_bad):
            for params in order[:-1]:
                results["shared", params] = _guarded(run, json.loads(params))
            results["shared-bad", misspelt] = _guarded(run_bad, json.loads(misspelt))
            results["shared", order[-1]] = _guarded(run, json.loads(order[-1]))
    except Exception as exc:
        for key in [("shared", p) for p in order] + [("shared-bad", misspelt)]:
            results.setdefault(key, exc)
    return results


@pytest.fixture
def chapter_runs(tmp_path_factory):
    """``chapter_runs(nb_path)``: every run of that chapter, made the first time a test of
    the chapter asks (results cached for the process); their time goes to ``COSTS``."""

    def runs_of(nb_path: Path) -> dict:
        if str(nb_path) not in _RUNS:
            out_dir = str(tmp_path_factory.mktemp(f"papermill-{nb_path.stem}"))
            start = time.perf_counter()
            _RUN_TIMES.clear()
            _RUNS[str(nb_path)] = _make_runs(nb_path, out_dir)
            COSTS.mkdir(parents=True, exist_ok=True)
            (COSTS / f"papermill-{nb_path.stem}.json").write_text(
                json.dumps(
                    {
                        "chapter": nb_path.stem,
                        "wall_s": time.perf_counter() - start,
                        "runs": _RUN_TIMES[:],
                    },
                    indent=1,
                )
            )
        return _RUNS[str(nb_path)]

    return runs_of


def _get(runs: dict, kind: str, nb_path: Path, params: dict):
    result = runs[kind, _key(params)]
    if isinstance(result, Exception):
        raise AssertionError(f"{nb_path.name} failed ({kind}) with parameters {params}: {result}")
    return result


def _get_draw(runs: dict, kind: str, nb_path: Path):
    """A run of the chapter's random draw; a failure names the seed and the values."""
    if isinstance(runs.get("draw"), Exception):
        raise AssertionError(f"{nb_path.name}: no legal draw: {runs['draw']}")
    result = runs[kind, _key(_draw(nb_path))]
    if isinstance(result, Exception):
        raise AssertionError(
            f"{nb_path.name} failed ({kind}) under a {_draw_text(nb_path)}\n{result}"
        )
    return result


def _by_chapter(nb_path: Path, *values, id: str):
    return pytest.param(nb_path, *values, id=id, marks=pytest.mark.xdist_group(nb_path.stem))


def test_every_chapter_is_checked():
    assert NOTEBOOKS, "no chapter notebook is listed in _toc.yml"


@pytest.mark.parametrize("nb_path", ORDER, ids=lambda p: p.stem)
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


@pytest.mark.parametrize("nb_path", ORDER, ids=lambda p: p.stem)
def test_the_draw_reads_every_numeric_parameters_range(nb_path: Path):
    """Every number, list or choice of the parameters cell is drawn from the range its
    check call states: a check written with a function ``tools/draw_parameters.py`` does
    not know would leave the parameter at its default, silently."""
    kept = {
        name: value for name, value in draw_parameters.undrawn(nb_path).items() if value is not None
    }
    assert not kept, (
        f"{nb_path.name}: the check cell names no range for {sorted(kept)} that "
        f"tools/draw_parameters.py reads (its CHECKS: {sorted(draw_parameters.CHECKS)})"
    )


@pytest.mark.parametrize("nb_path", [_by_chapter(p, id=p.stem) for p in ORDER])
def test_a_random_legal_draw_runs_to_the_end(nb_path: Path, chapter_runs):
    """Any value the check cell accepts must run: the chapter runs through papermill to
    the end under a random draw of every parameter, and publishes numbers."""
    assert _get_draw(chapter_runs(nb_path), "papermill", nb_path), (
        f"{nb_path.name} published nothing under a {_draw_text(nb_path)}"
    )


@pytest.mark.parametrize("nb_path", [_by_chapter(p, id=p.stem) for p in ORDER])
def test_shared_kernel_reproduces_the_papermill_run(nb_path: Path, chapter_runs):
    """The draw in the shared kernel, made after every other run there and with another
    ``n_jobs`` (:func:`_draw_again`), publishes exactly what the papermill run in a
    fresh kernel published: nothing leaks between the runs that share a kernel, and the
    number of workers changes no published number."""
    runs = chapter_runs(nb_path)
    fresh = _get_draw(runs, "papermill", nb_path)
    again = _draw_again(nb_path)
    shared = runs["shared", _key(again)]
    if isinstance(shared, Exception):
        raise AssertionError(f"{nb_path.name} failed (shared) with {again}: {shared}")
    differing = sorted(k for k in fresh if fresh[k] != shared.get(k))
    assert shared.keys() == fresh.keys() and not differing, (
        f"{nb_path.name}: the shared kernel's run of the draw with n_jobs="
        f"{again.get('n_jobs')} published other numbers than the papermill run "
        f"({differing}): state left by an earlier run, or results that depend on the "
        f"number of workers\n{_draw_text(nb_path)}"
    )


def _cases():
    for nb_path in ORDER:
        meta = _meta(nb_path)
        for name, value in meta.get("changes_result", {}).items():
            yield _by_chapter(nb_path, name, value, True, id=f"{nb_path.stem}-{name}")
        for name, value in _kept(nb_path).items():  # n_jobs: see _draw_again
            yield _by_chapter(nb_path, name, value, False, id=f"{nb_path.stem}-{name}-invariant")


@pytest.mark.parametrize("nb_path, name, value, must_change", list(_cases()))
def test_parameter_takes_effect(nb_path: Path, name: str, value, must_change: bool, chapter_runs):
    runs = chapter_runs(nb_path)
    smoke = _smoke(nb_path)
    base = _get(runs, "shared", nb_path, smoke)
    assert base, f"{nb_path.name}: the smoke run published no value to compare"
    assert smoke.get(name) != value, f"{nb_path.name}: {name}={value!r} is the smoke value itself"
    changed = _get(runs, "shared", nb_path, {**smoke, name: value})
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


def _default(info: dict):
    try:
        return eval(info["default"], {})  # literal defaults of the parameters cell
    except Exception:
        return None


def _bad_cases():
    """One wrong-kind value per parameter, and the chapter's out-of-range values
    (metadata ``cvbook.bad_values``: parameter -> list of values)."""
    for nb_path in ORDER:
        params = pm.inspect_notebook(str(nb_path))
        meta = _meta(nb_path)
        for name, info in params.items():
            bad = _wrong_kind(_default(info))
            if bad is not None:
                yield _by_chapter(nb_path, name, bad, id=f"{nb_path.stem}-{name}-kind")
        for name, values in meta.get("bad_values", {}).items():
            for i, value in enumerate(values):
                yield _by_chapter(nb_path, name, value, id=f"{nb_path.stem}-{name}-range{i}")


@pytest.mark.parametrize("nb_path, name, bad", list(_bad_cases()))
def test_bad_value_fails_at_once_naming_the_parameter(nb_path: Path, name: str, bad):
    """A bad value fails in the cell right after the injected parameters, with one
    ParameterError line that names the parameter (a ParameterTypeError, a subclass that
    is also a TypeError, for a value of the wrong kind)."""
    result = _in_process_check(nb_path, {name: bad})
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


@pytest.mark.parametrize(
    "nb_path", [_by_chapter(p, id=p.stem) for p in ORDER if _first_kind_case(p) is not None]
)
def test_bad_value_through_papermill_fails_as_checked_in_process(nb_path: Path, chapter_runs):
    """The in-process check of the bad values is faithful: a real papermill run of one
    of them fails in the check cell with exactly the error the in-process run reports."""
    name, bad = _first_kind_case(nb_path)
    result = _get(chapter_runs(nb_path), "papermill-bad", nb_path, {name: bad})
    assert result is not None, f"{nb_path.name}: {name}={bad!r} ran to the end in papermill"
    ename, evalue, index, check = result
    assert index == check, f"{nb_path.name}: failed in code cell {index}, not {check}"
    assert _in_process_check(nb_path, {name: bad}) == (ename, evalue, "check")


def _misspelt(name: str, known) -> str:
    for candidate in (name + "s", name[:-1], name + "_"):
        if candidate not in known and candidate.isidentifier():
            return candidate
    raise AssertionError(name)  # pragma: no cover


def _misspelt_name(nb_path: Path) -> str:
    """A misspelling of the chapter's first parameter."""
    params = pm.inspect_notebook(str(nb_path))
    return _misspelt(next(iter(params)), params)


def _misspelt_cases():
    for nb_path in ORDER:
        yield _by_chapter(nb_path, _misspelt_name(nb_path), 3, id=f"{nb_path.stem}-misspelt")


@pytest.mark.parametrize("nb_path, misspelt, value", list(_misspelt_cases()))
def test_a_misspelt_parameter_fails_at_once_naming_it(
    nb_path: Path, misspelt: str, value, chapter_runs
):
    """``papermill -p <misspelt name> ...`` stops in the check cell, naming the unknown
    parameter and listing the chapter's (papermill itself only warns). Run in the shared
    kernel, with papermill's own parameterisation: the check reads the kernel's input
    history, exactly as in a papermill run."""
    smoke = _smoke(nb_path)
    result = _get(chapter_runs(nb_path), "shared-bad", nb_path, {**smoke, misspelt: value})
    assert result is not None, f"{nb_path.name}: -p {misspelt} {value} ran to the end"
    ename, evalue, index, check_cell = result
    assert ename == "ParameterError", f"{nb_path.name}: {ename}: {evalue}"
    assert f"unknown parameter '{misspelt}'" in evalue, evalue
    assert all(p in evalue for p in pm.inspect_notebook(str(nb_path))), evalue
    assert index == check_cell, f"{nb_path.name}: failed in cell {index}, not {check_cell}"


@pytest.mark.parametrize("nb_path", ORDER, ids=lambda p: p.stem)
def test_help_notebook_shows_each_parameters_type(nb_path: Path):
    """``papermill --help-notebook`` reads the annotations of the parameters cell
    (``m: int = 40  # help``); without them it prints "Unknown type"
    (``python tools/annotate_parameters.py chapters/NN.ipynb`` adds them)."""
    params = pm.inspect_notebook(str(nb_path))
    untyped = [n for n, info in params.items() if info["inferred_type_name"] in ("None", "")]
    assert not untyped, f"{nb_path.name}: parameters without a type annotation: {untyped}"


# --------------------------------------------------------------------------- the draw's prose


@pytest.mark.parametrize("nb_path", [_by_chapter(p, id=p.stem) for p in ORDER])
def test_papermill_output_shows_its_own_numbers(nb_path: Path, chapter_runs):
    """``papermill --engine cvbook`` leaves in the output's Markdown cells the numbers of
    that run (what JupyterLab shows before any kernel runs), every one of them: under the
    random draw each expression ``N.name`` equals what the run published, and the values
    differ from the committed notebook's (which papermill's default engine leaves)."""
    runs = chapter_runs(nb_path)
    published = _get_draw(runs, "papermill", nb_path)
    stored = _get_draw(runs, "stored", nb_path)
    committed = stored_numbers(nbformat.read(nb_path, as_version=4))
    assert stored.keys() == committed.keys(), (
        f"{nb_path.name}: values stored for {sorted(set(stored) ^ set(committed))} "
        f"in one notebook only ({_draw_text(nb_path)})"
    )
    failed = {expr: text for expr, (status, text) in stored.items() if status != "ok"}
    assert not failed, f"{nb_path.name}: expressions without a value: {failed}"
    wrong = {
        expr: (text, published[expr[2:]])
        for expr, (_, text) in stored.items()
        if expr.startswith("N.") and expr[2:] in published and text != published[expr[2:]]
    }
    assert not wrong, f"{nb_path.name}: stored value != published value: {wrong}"
    assert stored != committed, f"{nb_path.name}: the output shows the committed run's numbers"
