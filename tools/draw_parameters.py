"""Draw every parameter of a chapter at random from its legal range, and run the draw.

A chapter's check cell (the code cell after its ``parameters`` cell) is its contract:
any value it accepts must run to the end. This tool reads that contract from the check
cell's source (``ast``: the calls of ``check_int_parameter``, ``check_float_parameter``,
``check_choice``, ``check_seed``, ``check_int_list`` and ``check_float_list`` that name a
parameter), draws a value for every parameter, and checks the draw with the check cell
itself (a draw that some other rule of the cell refuses, such as chapter 6's
``n - 2 (n // k) >= 40``, is drawn again, from the same random stream).

How each value is drawn (``seed`` picks the whole draw; the same seed gives the same draw):

* a seed (``check_seed``): uniformly in ``[0, 2**32)``;
* a choice: uniformly among the choices;
* an integer ``[low, high]`` whose whole range lies at or below the default (``1..10``):
  uniformly over the range;
* any other integer is a size: log-uniformly in ``[low, cap]``, where ``cap`` is the
  chapter's smoke value for it (metadata ``cvbook.smoke``) or else its default. That
  bounds the cost: no size exceeds the smoke run's (only a list may be longer than the
  smoke run's, up to the default's length), so a draw costs about as much as the smoke
  run at most, and usually much less (the sizes are spread evenly on a log scale from
  the smallest legal one);
* a number ``[low, high]``: uniformly, the open ends excluded; when the range spans
  more than three decades (``alpha`` in ``(0, 1e6]``) or is unbounded, log-uniformly
  between 1/100 and 100 times the default, within the range;
* a list: from one element up to the default's length, each element as above (the
  largest element of the smoke value, else of the default, is the cap of a size); a
  non-number the default list holds (``"m"`` in chapter 3's ``ks``) is kept with
  probability 1/2.

A choice that needs data from outside the repository (chapter 5b's
``live_source = "raetsch"``: the Rätsch benchmarks, and a fit whose cost is the data
set's) is left out unless ``--with-data FOLDER`` gives that data (then ``data_home`` is
set to it). A parameter no check call names keeps its default.

Usage::

    python tools/draw_parameters.py chapters/04_loo.ipynb               # a fresh draw
    python tools/draw_parameters.py chapters/04_loo.ipynb --seed 1234   # that draw again
    python tools/draw_parameters.py chapters/04_loo.ipynb --seed 1234 --run /tmp/ch4.ipynb

``--run`` executes the draw with ``papermill --engine cvbook`` (the prose of the output
carries the run's own numbers) and says whether it ran to the end. ``make papermill``
runs one such draw per chapter (``tests/test_papermill.py``); a failure there prints the
seed and the drawn values, and this command re-runs it.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import secrets
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CHECKS = {
    "check_int_parameter",
    "check_float_parameter",
    "check_choice",
    "check_seed",
    "check_int_list",
    "check_float_list",
}
#: Choices that need data from outside the repository: (chapter, parameter, value) ->
#: the parameter that must then point at the data.
NEEDS_DATA = {("05b_table1", "live_source", "raetsch"): "data_home"}
MAX_ATTEMPTS = 200


def _cells(nb_path: Path):
    import nbformat

    nb = nbformat.read(nb_path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    index = next(i for i, c in enumerate(code) if "parameters" in c.metadata.get("tags", []))
    return nb, code, index


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def contract(check_source: str, names: list[str]) -> list[tuple[str, str, ast.Call]]:
    """The check calls of a check cell, in order: ``(function, parameter, call)``.

    Examples
    --------
    >>> src = 'm = check_int_parameter(m, "m", low=10)\\nk = check_int_parameter(k, "k", 2, m)'
    >>> [(f, n) for f, n, _ in contract(src, ["m", "k"])]
    [('check_int_parameter', 'm'), ('check_int_parameter', 'k')]
    """
    found = []
    for statement in ast.parse(check_source).body:
        for node in ast.walk(statement):
            if not (isinstance(node, ast.Call) and _call_name(node) in CHECKS and node.args):
                continue
            first = node.args[1] if len(node.args) > 1 else None
            if isinstance(first, ast.Constant) and first.value in names:
                found.append((_call_name(node), first.value, node))
    return found


def _arguments(func: str, call: ast.Call, namespace: dict) -> dict[str, Any]:
    """The check's bounds, evaluated with the parameters drawn so far."""
    positional = {
        "check_int_parameter": ["value", "name", "low", "high"],
        "check_float_parameter": ["value", "name", "low", "high"],
        "check_choice": ["value", "name", "choices"],
        "check_seed": ["value", "name"],
        "check_int_list": ["value", "name", "low", "high"],
        "check_float_list": ["value", "name", "low", "high"],
    }[func]
    args: dict[str, Any] = {}
    for key, node in zip(positional, call.args, strict=False):
        if key not in ("name", "value"):
            args[key] = eval(compile(ast.Expression(node), "<check>", "eval"), namespace)
    for kw in call.keywords:
        args[kw.arg] = eval(compile(ast.Expression(kw.value), "<check>", "eval"), namespace)
    return args


def _log_uniform_int(rng, low: int, high: int) -> int:
    low = max(int(low), 1) if high >= 1 else int(low)
    if high <= low:
        return int(low)
    value = math.exp(rng.uniform(math.log(low), math.log(high + 1)))
    return int(min(max(math.floor(value), low), high))


def _draw_int(rng, low, high, default, cap) -> int:
    low = 0 if low is None else int(low)
    if high is not None and default is not None and high <= default:
        return int(rng.integers(low, high + 1))  # a small index-like range: all of it
    top = max(low, int(cap if cap is not None else (default if default is not None else low)))
    if high is not None:
        top = min(top, int(high))
    return _log_uniform_int(rng, low, top)


def _draw_float(rng, low, high, default, open_low=False, open_high=False) -> float:
    default = 1.0 if not isinstance(default, (int, float)) or default <= 0 else float(default)
    finite = low is not None and high is not None
    wide = not finite or (low >= 0 and high / max(low, default) > 1000)
    for _ in range(1000):
        if wide:
            lo = max(low if low is not None else -math.inf, default / 100)
            hi = min(high if high is not None else math.inf, default * 100)
            value = math.exp(rng.uniform(math.log(lo if lo > 0 else default / 100), math.log(hi)))
        else:
            value = float(rng.uniform(low, high))
        if (low is None or (value > low if open_low else value >= low)) and (
            high is None or (value < high if open_high else value <= high)
        ):
            return float(value)
    raise ValueError(f"no number drawn in ({low}, {high})")  # pragma: no cover


def _draw_one(rng, func, args, default, smoke, chapter, name, with_data):
    if func == "check_seed":
        return int(rng.integers(0, 2**32))
    if func == "check_choice":
        choices = list(args["choices"])
        if with_data is None:
            choices = [c for c in choices if (chapter, name, c) not in NEEDS_DATA] or choices
        return choices[int(rng.integers(len(choices)))]
    low, high = args.get("low"), args.get("high")
    if func == "check_int_parameter":
        return _draw_int(rng, low, high, default, smoke)
    if func == "check_float_parameter":
        open_ = args.get("open_low", False), args.get("open_high", False)
        return _draw_float(rng, low, high, default, *open_)

    # a list: its length, then each element
    def numbers(values) -> list:
        values = values if isinstance(values, list) else []
        return [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]

    given = default if isinstance(default, list) else []
    others = [v for v in given if v not in numbers(given)]
    min_len = max(int(args.get("min_len", 1)), 1)
    length = int(rng.integers(min_len, max(min_len, len(numbers(given))) + 1))
    sizes = numbers(smoke) or numbers(given)  # the cap: the smoke run's, else the default's
    biggest = max(sizes) if sizes else None
    if func == "check_int_list":
        values = [_draw_int(rng, low, high, biggest, biggest) for _ in range(length)]
    else:
        open_ = args.get("open_low", False), args.get("open_high", False)
        values = [_draw_float(rng, low, high, biggest, *open_) for _ in range(length)]
    return values + [v for v in others if rng.uniform() < 0.5]


def _preamble(nb_path: Path, code, index) -> dict:
    """The namespace of the cells before the parameters (imports: names a check uses)."""
    from IPython.core.inputtransformer2 import TransformerManager

    namespace: dict = {"__name__": "__main__"}
    transform = TransformerManager().transform_cell
    here = Path.cwd()
    os.chdir(nb_path.parent)
    try:
        for cell in code[:index]:
            exec(compile(transform(cell.source), f"<{nb_path.name}>", "exec"), namespace)
    finally:
        os.chdir(here)
    return namespace


def _accepted(nb_path: Path, code, index, namespace: dict, params: dict) -> str | None:
    """Run the parameters cell, the draw and the check cell; None, or why it was refused."""
    from IPython.core.inputtransformer2 import TransformerManager

    transform = TransformerManager().transform_cell
    ns = dict(namespace)
    here = Path.cwd()
    os.chdir(nb_path.parent)
    try:
        exec(compile(transform(code[index].source), "<parameters>", "exec"), ns)
        ns.update(json.loads(json.dumps(params)))
        exec(compile(transform(code[index + 1].source), "<check>", "exec"), ns)
    except Exception as err:
        return f"{type(err).__name__}: {err}"
    finally:
        os.chdir(here)
    return None


def draw(nb_path: Path, seed: int, *, with_data: str | None = None) -> dict[str, Any]:
    """A draw of every parameter of the chapter that the check cell accepts.

    Parameters
    ----------
    nb_path : Path
        The chapter notebook.
    seed : int
        Picks the draw; the same seed draws the same values.
    with_data : str, optional
        A folder with the data a choice needs (:data:`NEEDS_DATA`); without it, those
        choices are not drawn.

    Returns
    -------
    dict
        Parameter -> value, ready for ``papermill -p`` (every parameter the check cell
        names; the others keep their defaults and are not listed).

    Raises
    ------
    ValueError
        No accepted draw in :data:`MAX_ATTEMPTS` attempts (the last refusal is given).
    """
    nb, code, index = _cells(nb_path)
    defaults = {}
    for name, info in _papermill_parameters(nb_path).items():
        try:
            defaults[name] = ast.literal_eval(info["default"])
        except (ValueError, SyntaxError):
            defaults[name] = None
    smoke = nb.metadata.get("cvbook", {}).get("smoke", {})
    checks = contract(code[index + 1].source, list(defaults))
    namespace = _preamble(nb_path, code, index)
    rng = np.random.default_rng(seed)
    why = "no attempt"
    for _ in range(MAX_ATTEMPTS):
        params: dict[str, Any] = {}
        ns = {**namespace, **defaults}
        for func, name, call in checks:
            if name in params:
                continue
            args = _arguments(func, call, ns)
            value = _draw_one(
                rng, func, args, defaults.get(name), smoke.get(name), nb_path.stem, name, with_data
            )
            params[name] = value
            ns[name] = value
        for (chapter, name, value), folder_param in NEEDS_DATA.items():
            if chapter == nb_path.stem and params.get(name) == value and with_data:
                params[folder_param] = str(with_data)
        why = _accepted(nb_path, code, index, namespace, params)
        if why is None:
            return params
    raise ValueError(f"{nb_path.name}: no draw accepted in {MAX_ATTEMPTS} attempts: {why}")


def undrawn(nb_path: Path) -> dict[str, Any]:
    """The parameters no recognised check call names, with their defaults: they keep
    their default in every draw (chapter 5b's ``data_home``, checked by its own code)."""
    _, code, index = _cells(nb_path)
    params = _papermill_parameters(nb_path)
    named = {name for _, name, _ in contract(code[index + 1].source, list(params))}
    out = {}
    for name, info in params.items():
        if name not in named:
            try:
                out[name] = ast.literal_eval(info["default"])
            except (ValueError, SyntaxError):
                out[name] = info["default"]
    return out


def _papermill_parameters(nb_path: Path) -> dict:
    import papermill as pm

    return pm.inspect_notebook(str(nb_path))


def as_command(nb_path: Path, params: dict, out: str = "out.ipynb") -> str:
    """The ``papermill`` command line of a draw."""
    parts = [f"papermill --engine cvbook {nb_path} {out} --cwd {nb_path.parent}"]
    for name, value in params.items():
        if isinstance(value, (list, dict)) or value is None:
            parts.append(f"-y '{name}: {json.dumps(value)}'")
        else:
            parts.append(f"-p {name} {json.dumps(value) if isinstance(value, str) else value}")
    return " ".join(parts)


def run(nb_path: Path, params: dict, out: Path) -> str | None:
    """Execute the draw through papermill (engine ``cvbook``); None, or the error."""
    import papermill as pm

    try:
        pm.execute_notebook(
            str(nb_path),
            str(out),
            parameters=params,
            engine_name="cvbook",
            cwd=str(nb_path.parent),
            progress_bar=False,
        )
    except pm.PapermillExecutionError as err:
        return f"{err.ename}: {err.evalue} (cell {err.exec_count})"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--seed", type=int, help="the draw to make (default: a fresh one)")
    parser.add_argument("--run", type=Path, metavar="OUT", help="run it with papermill into OUT")
    parser.add_argument("--with-data", metavar="FOLDER", help="data for choices that need it")
    args = parser.parse_args(argv)
    seed = secrets.randbelow(2**32) if args.seed is None else args.seed
    params = draw(args.notebook, seed, with_data=args.with_data)
    print(f"{args.notebook}: draw --seed {seed}")
    print(json.dumps(params))
    print(as_command(args.notebook, params, str(args.run or "out.ipynb")))
    if args.run is None:
        return 0
    error = run(args.notebook, params, args.run)
    if error is None:
        print(f"ran to the end: {args.run}")
        return 0
    print(f"FAILED: {error}\nthe executed notebook, up to the failing cell: {args.run}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
