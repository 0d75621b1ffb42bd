"""Sphinx extension: write the API reference of ``cvbook`` at build time.

It also registers the bibliography style ``cvbook`` (author-year labels), removes
a duplicated script tag from every page (``_dedupe_scripts``), and lets
``{glue:text}`` format NumPy scalars (``_accept_numpy_scalars_in_glue``).

The page ``api/index.md`` holds the marker line ``<!-- cvbook-api -->``. When Sphinx
reads that page, the marker is replaced by one section per module of the package:
a heading, then ``automodule`` with an explicit list of the members *defined* in
that module (names in ``__all__`` that the module assigns, defines or declares itself).
Names a package only re-exports (``cvbook.datasets.TwoGaussians``) are documented
once, in the module that defines them, so autodoc never describes an object twice.

Modules are listed in reading order (``MODULES``); any other public module found in
the package is appended. A module of ``MODULES`` that does not exist yet gets a
short note instead of a section, so that the book builds while it is being
written; the browser test (``tests/test_site.py``) fails while such a note is left.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import re
from pathlib import Path

MARKER = "<!-- cvbook-api -->"
API_DOCNAME = "api/index"

#: Modules in the order a reader meets them, with the chapters that use them.
MODULES: list[tuple[str, str]] = [
    ("cvbook.risk", "chapter 1"),
    ("cvbook.bounds", "chapters 1 and 5"),
    ("cvbook.datasets", "every chapter"),
    ("cvbook.datasets.synthetic", "every chapter"),
    ("cvbook.datasets.raetsch", "chapters 5 and 6"),
    ("cvbook.simulation", "every chapter"),
    ("cvbook.holdout", "chapter 2"),
    ("cvbook.kfold", "chapter 3"),
    ("cvbook.loo", "chapter 4"),
    ("cvbook.ckcv", "chapter 5"),
    ("cvbook.coverage", "chapter 6"),
    ("cvbook.plotting", "every chapter"),
]

#: Text of the note left where a module is missing (the browser test looks for it).
MISSING_NOTE = "is not written yet"


def _defined_names(module) -> set[str]:
    """Top-level names a module binds itself (def, class, assignment), not imports."""
    source = Path(module.__file__).read_text(encoding="utf-8")
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names.add(target.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _members(module) -> list[str]:
    """Public members documented under ``module``: its ``__all__`` (or public names),
    restricted to what the module defines, in ``__all__`` order."""
    defined = _defined_names(module)
    public = getattr(module, "__all__", None)
    if public is None:
        public = sorted(n for n in defined if not n.startswith("_"))
    return [name for name in public if name in defined]


def _all_modules() -> list[str]:
    """Reading-order modules, then any other public module of the package."""
    names = [name for name, _ in MODULES]
    try:
        package = importlib.import_module("cvbook")
    except ImportError:  # pragma: no cover - the build fails elsewhere anyway
        return names
    for info in pkgutil.walk_packages(package.__path__, prefix="cvbook."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        if info.name not in names:
            names.append(info.name)
    return names


def _exists(modname: str) -> bool:
    try:
        return importlib.util.find_spec(modname) is not None
    except ModuleNotFoundError:  # the parent package is missing
        return False


def api_markdown() -> str:
    """The MyST text that replaces the marker: one section per module."""
    used_in = dict(MODULES)
    parts: list[str] = []
    for modname in _all_modules():
        anchor = "api-" + modname.replace(".", "-")
        heading = f"({anchor})=\n## `{modname}`\n"
        if not _exists(modname):
            parts.append(
                f"{heading}\n```{{note}}\n`{modname}` {MISSING_NOTE}.\n```\n"
            )
            continue
        # Any other import error is real: let autodoc report it (a warning, so -W fails).
        try:
            module = importlib.import_module(modname)
            members = _members(module)
        except Exception:  # noqa: BLE001 - autodoc will show the actual error
            members = []
        where = used_in.get(modname)
        lines = [heading]
        if where:
            lines.append(f"*Used in {where}.*\n")
        # autodoc writes reStructuredText: parse it as such, not as MyST.
        lines.append("```{eval-rst}")
        lines.append(f".. automodule:: {modname}")
        if members:
            lines.append(f"   :members: {', '.join(members)}")
        lines.append("```\n")
        parts.append("\n".join(lines))
    return "\n".join(parts)


def _source_read(app, docname: str, source: list[str]) -> None:
    if docname == API_DOCNAME and MARKER in source[0]:
        source[0] = source[0].replace(MARKER, api_markdown())


def _skip_foreign_members(app, what, name, obj, skip, options):
    """Skip members of cvbook classes that another library generates or defines
    (scikit-learn adds ``set_fit_request`` and the like to every estimator), so
    that the reference shows cvbook's own API and their docstrings' cross-references
    into scikit-learn's documentation do not break the build."""
    module = getattr(obj, "__module__", None)
    if what == "class" and isinstance(module, str) and not module.startswith("cvbook"):
        return True
    return None


def _dedupe_scripts(app, pagename, templatename, context, doctree) -> None:
    """Drop a script tag that a page would otherwise carry twice.

    sphinx-thebe registers an inline ``const THEBE_JS_URL = ...`` script when the
    environment is read; with Sphinx 7.4 it reaches every page twice (once as
    ``None``, once as ``""`` filename, which Sphinx does not see as equal), and the
    second ``const`` is a SyntaxError in the reader's console on every page.
    """
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for js in scripts:
        key = (str(getattr(js, "filename", js) or ""),
               tuple(sorted((k, str(v)) for k, v in getattr(js, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            unique.append(js)
    context["script_files"] = unique


def _find_object(target: str):
    """Import ``cvbook.a.b.name`` (a module, or an attribute of the longest
    importable module prefix); None when it does not exist."""
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def _resolve_reexport(app, env, node, contnode):
    """Let a chapter link a re-exported name (``cvbook.datasets.TwoGaussians``):
    it resolves to the entry of the module that defines the object
    (``cvbook.datasets.synthetic.TwoGaussians``), where the API page documents it."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if not target.startswith("cvbook."):
        return None
    obj = _find_object(target)
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if not (isinstance(module, str) and isinstance(qualname, str)):
        return None
    canonical = f"{module}.{qualname}"
    if canonical == target or not canonical.startswith("cvbook."):
        return None
    return env.get_domain("py").resolve_xref(
        env, node["refdoc"], app.builder, node["reftype"], canonical, node, contnode)


def _register_bibliography_style() -> None:
    """``bibtex_default_style: cvbook``: pybtex's plain style, with entries labelled
    as the text cites them, [Clopper and Pearson, 1934] rather than [7]."""
    from pybtex.plugin import register_plugin
    from pybtex.richtext import Text
    from pybtex.style.formatting.plain import Style as PlainStyle
    from pybtex.style.labels import BaseLabelStyle

    def last_name(person) -> str:
        return Text.from_latex(" ".join(person.prelast_names + person.last_names)).render_as("text")

    class AuthorYearLabels(BaseLabelStyle):
        def format_labels(self, sorted_entries):
            labels = []
            for entry in sorted_entries:
                people = entry.persons.get("author") or entry.persons.get("editor") or []
                names = [last_name(p) for p in people]
                if not names:  # cited by its title, as the text cites it
                    who = Text.from_latex(entry.fields.get("title", entry.key)).render_as("text")
                elif len(names) == 1:
                    who = names[0]
                elif len(names) == 2:
                    who = f"{names[0]} and {names[1]}"
                else:
                    who = f"{names[0]} et al."
                labels.append(f"{who}, {entry.fields.get('year', 'n.d.')}")
            for i, label in enumerate(labels):  # 2012a, 2012b when two coincide
                same = [j for j, other in enumerate(labels) if other == label]
                if len(same) > 1:
                    labels[i] = label + "abcdefghij"[same.index(i)]
            yield from labels

    class Style(PlainStyle):
        default_label_style = "cvbook_author_year"

    register_plugin("pybtex.style.labels", "cvbook_author_year", AuthorYearLabels)
    register_plugin("pybtex.style.formatting", "cvbook", Style)


_NUMPY_SCALAR_REPR = re.compile(r"^np\.[a-z_]+\d*\((.*)\)$", re.S)


def _accept_numpy_scalars_in_glue() -> None:
    """``{glue:text}`key:.3f``` of a value glued as a NumPy scalar.

    With NumPy 2 the text glued for ``np.float64(0.18)`` is its repr,
    ``"np.float64(0.18)"``, which myst-nb cannot read back as a number: every such
    role is a build warning ("could not convert string to float"). Read the number
    inside the repr instead. (Gluing ``float(x)`` in the chapter avoids it as well.)
    """
    from myst_nb.core import variables
    from myst_nb.ext.glue import crossref, roles

    original = variables.format_plain_text
    if getattr(original, "cvbook_patched", False):
        return

    def format_plain_text(text: str, fmt_spec: str) -> str:
        match = _NUMPY_SCALAR_REPR.match(text.strip())
        return original(match.group(1) if match else text, fmt_spec)

    format_plain_text.cvbook_patched = True
    for module in (variables, crossref, roles):
        module.format_plain_text = format_plain_text


def setup(app):
    _register_bibliography_style()
    _accept_numpy_scalars_in_glue()
    app.connect("missing-reference", _resolve_reexport)
    app.connect("source-read", _source_read)
    app.connect("autodoc-skip-member", _skip_foreign_members)
    app.connect("html-page-context", _dedupe_scripts)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
