"""The package plan (issue 26): floors, no import upwards, no cycle, each name defined once.

Every module of ``cvbook`` has a floor below; a module imports only from its own floor or
a lower one -- function-level imports included -- and the import graph has no cycle.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cvbook"

# package map: begin (written by tools/package_map.py; edit the modules' docstrings, not this)
#: The floor of every module (tools/package_map.py).
FLOORS: dict[str, int] = {
    "cvbook": 0,
    "cvbook.book": 1,
    "cvbook.claims": 1,
    "cvbook.provenance": 1,
    "cvbook.records": 1,
    "cvbook.stored_values": 1,
    "cvbook.validation": 1,
    "cvbook.bounds": 2,
    "cvbook.risk": 2,
    "cvbook.datasets": 2,
    "cvbook.datasets.raetsch": 2,
    "cvbook.datasets.synthetic": 2,
    "cvbook.plotting": 2,
    "cvbook.simulation": 2,
    "cvbook.stats": 2,
    "cvbook.holdout": 3,
    "cvbook.kfold": 3,
    "cvbook.loo": 3,
    "cvbook.ckcv": 3,
    "cvbook._ckcv_libsvm": 3,
    "cvbook.learners": 3,
    "cvbook.compare": 3,
    "cvbook.intervals": 3,
    "cvbook.dependence": 3,
    "cvbook.bootstrap": 3,
    "cvbook.paired_cv": 3,
    "cvbook.ranking": 3,
    "cvbook.studies": 4,
    "cvbook.studies.split_sizes": 4,
    "cvbook.studies.learning_curve": 4,
    "cvbook.studies.selection": 4,
    "cvbook.studies.bias_variance": 4,
    "cvbook.studies.loo_pitfalls": 4,
    "cvbook.studies.ckcv_averaging": 4,
    "cvbook.studies.table1_replication": 4,
    "cvbook.studies.bound_coverage": 4,
    "cvbook.studies.interval_coverage": 4,
    "cvbook.studies.learner_comparison": 4,
    "cvbook.studies.nested_cv_bias": 4,
    "cvbook.studies.dependent_data": 4,
    "cvbook.studies.bootstrap_vs_cv": 4,
    "cvbook.studies.across_datasets": 4,
    "cvbook.studies.which_is_better": 4,
    "cvbook.runs": 5,
    "cvbook.runs.coverage": 5,
    "cvbook.runs.intervals": 5,
    "cvbook.runs.which_is_better": 5,
    "cvbook.runs.dependence": 5,
    "cvbook.runs.bootstrap": 5,
    "cvbook.runs.cli": 5,
    "cvbook.runs.table1": 5,
}
# package map: end


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
TREES: dict[str, ast.Module] = {
    m: ast.parse(p.read_text(encoding="utf-8")) for m, p in MODULES.items()
}


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    is_package = MODULES[module].name == "__init__.py"
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _owner(target: str) -> str:
    """The cvbook module a dotted import target lives in (a name imported from a package)."""
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target


def imports_of(module: str) -> set[str]:
    """Every cvbook module ``module`` imports, at any depth of its code."""
    out = set()
    for node in ast.walk(TREES[module]):
        targets = []
        if isinstance(node, ast.ImportFrom):
            base = _resolve(module, node)
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
            # ``from cvbook import x`` names a submodule x, or a name of the package
            targets = [t for t in targets if _owner(t)]
            if any(f"{base}.{a.name}" in MODULES for a in node.names):
                targets = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES]
            else:
                targets = [base]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        for t in targets:
            owner = _owner(t)
            if owner.startswith("cvbook") and owner != module:
                out.add(owner)
    return out


def test_every_module_has_a_floor():
    assert set(MODULES) == set(FLOORS), (
        f"without a floor: {sorted(set(MODULES) - set(FLOORS))}; "
        f"gone: {sorted(set(FLOORS) - set(MODULES))}"
    )
    doc = ast.get_docstring(TREES["cvbook"]) or ""
    for module, floor in FLOORS.items():
        if floor in (1, 2, 3) and "." in module and module.count(".") == 1:
            assert re.search(rf"^{floor}\s+:mod:`{re.escape(module)}`", doc, re.M), module


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_from_a_higher_floor(module):
    up = {m: FLOORS[m] for m in imports_of(module) if FLOORS[m] > FLOORS[module]}
    assert not up, f"{module} (floor {FLOORS[module]}) imports from above: {up}"


def test_no_import_cycle():
    graph = {m: imports_of(m) - {"cvbook"} for m in MODULES}
    state: dict[str, int] = {}

    def visit(m, path):
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                raise AssertionError("import cycle: " + " -> ".join([*path, m, n]))
            if n not in state:
                visit(n, [*path, m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


def _definitions(tree: ast.Module) -> dict[str, ast.AST]:
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            out[node.name] = node
        elif isinstance(node, ast.Assign):
            out.update({t.id: node for t in node.targets if isinstance(t, ast.Name)})
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
    return out


#: Names allowed in two modules, with the reason (none: ``cvbook.book``'s parameter checks
#: are ``check_int_parameter``/``check_float_parameter``, so that ``check_int`` always means
#: ``cvbook.validation``'s argument check, in its ``(value, name)`` order).
TWICE_ALLOWED: dict[str, set[str]] = {}


def test_each_public_name_is_defined_once():
    seen: dict[str, list[str]] = {}
    for module, tree in TREES.items():
        for name in _definitions(tree):
            if not name.startswith("_") and name not in ("main", "COMMAND"):
                seen.setdefault(name, []).append(module)
    twice = {n: ms for n, ms in seen.items() if len(ms) > 1 and set(ms) != TWICE_ALLOWED.get(n)}
    assert not twice, f"public names defined in more than one module: {twice}"


def test_experiments_live_in_studies_and_runs():
    misplaced = []
    for module, tree in TREES.items():
        if module.startswith(("cvbook.studies", "cvbook.runs")):
            continue
        for name in _definitions(tree):
            if re.fullmatch(r"\w+_trial|\w+_study|run_\w+", name):
                misplaced.append(f"{module}.{name}")
    assert not misplaced, f"experiments outside cvbook.studies: {misplaced}"


def test_runs_are_command_lines_only():
    for module, tree in TREES.items():
        if not module.startswith("cvbook.runs"):
            continue
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                methods = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
                assert "fit" not in methods, f"{module}.{node.name} is a model: move it to a study"


def test_no_module_getattr_main_block_private_import_or_e402():
    for module, tree in TREES.items():
        text = MODULES[module].read_text(encoding="utf-8")
        assert "__getattr__" not in _definitions(tree), f"{module}: module-level __getattr__"
        assert "E402" not in text, f"{module}: an E402 waiver"
        assert "__all__ +=" not in text, f"{module}: __all__ grown after the fact"
        if not module.startswith("cvbook.runs"):
            assert "__main__" not in text, f"{module}: a __main__ block outside cvbook.runs"
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and _resolve(module, node).startswith("cvbook"):
                private = [a.name for a in node.names if a.name.startswith("_")]
                private = [p for p in private if p != "__version__"]
                assert not private, f"{module} imports private names {private}"


def test_the_checker_sees_a_function_level_import_from_above(monkeypatch):
    """The floor test can fail: an import hidden in a function is found."""
    fake = "def f():\n    from .studies.bound_coverage import summarize\n    return summarize\n"
    monkeypatch.setitem(TREES, "cvbook.kfold", ast.parse(fake))
    assert "cvbook.studies.bound_coverage" in imports_of("cvbook.kfold")
    with pytest.raises(AssertionError, match="imports from above"):
        test_no_import_from_a_higher_floor("cvbook.kfold")
