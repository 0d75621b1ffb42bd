"""Sphinx extension: what the book's website needs and no library does.

* the bibliography style ``cvbook``: pybtex's plain style with entries labelled as the
  text cites them, [Clopper and Pearson, 1934] rather than [7], and an entry without
  author labelled by its title;
* the API reference (``api/index.md``, plain ``automodule`` directives) shows cvbook's
  own members only (``_skip_foreign_members``), and a chapter may link a re-exported
  name such as ``cvbook.datasets.TwoGaussians`` (``_resolve_reexport``);
* a script tag that sphinx-thebe would put twice on every page is dropped
  (``_dedupe_scripts``);
* a "JupyterLab (local)" entry in every chapter's launch menu (``add_local_lab``): the
  Binder button is built by sphinx-book-theme from the one setting ``repository.url``
  of ``_config.yml``; a reader who cloned the book and ran ``make lab`` has a JupyterLab
  server on this machine already, at ``cvbook_local_lab_url`` (``sphinx.config``), whose
  root is ``chapters/``;
* while ``repository.url`` is still the placeholder ``cvbook_placeholder_repository``
  (the repository is not yet published), the buttons built from it -- Binder and the
  repository link -- are left out (``hide_unpublished``): they would lead nowhere;
* ``cvbook.js`` (``_assets/``): the phone's navigation toggles open their drawers (the
  theme, pydata-sphinx-theme 0.17, binds only the first of each kind, hidden on phones),
  and the contents drawer closes after a jump;
* ``cvbook_page_numbering`` (set by ``tools/page.py`` only): a one-chapter site numbers
  its figures and equations as the book does, 9.1 rather than 1 (``_number_as_book``).
"""

from __future__ import annotations

import importlib
from typing import Any


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
        key = (
            str(getattr(js, "filename", js) or ""),
            tuple(sorted((k, str(v)) for k, v in getattr(js, "attributes", {}).items())),
        )
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
        env, node["refdoc"], app.builder, node["reftype"], canonical, node, contnode
    )


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


DEFAULT_LAB_URL = "http://localhost:8888/lab/tree/"


def add_local_lab(app, pagename: str, templatename: str, context: dict[str, Any], doctree) -> None:
    """Append the local JupyterLab link to the launch menu of a chapter page."""
    if not pagename.startswith("chapters/"):
        return
    for group in context.get("header_buttons", []):
        if isinstance(group, dict) and group.get("label") == "launch-buttons":
            base = app.config.cvbook_local_lab_url.rstrip("/") + "/"
            group["buttons"].append(
                {
                    "type": "link",
                    "text": "JupyterLab (local)",
                    "tooltip": "Open in your own JupyterLab (started by make lab)",
                    "icon": "fas fa-laptop-code",
                    "url": base + pagename[len("chapters/") :] + ".ipynb",
                }
            )


PLACEHOLDER_REPOSITORY = "https://github.com/cvbook/cvbook"


def _repository_path(url: str) -> str:
    """``https://github.com/org/repo`` -> ``org/repo`` (what Binder's URL carries)."""
    return "/".join(url.rstrip("/").split("/")[-2:])


def hide_unpublished(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Drop the buttons that point at the placeholder repository (Binder, repository)."""
    placeholder = app.config.cvbook_placeholder_repository
    repository = (app.config.html_theme_options or {}).get("repository_url", "") or ""
    if not placeholder or repository.rstrip("/") != placeholder.rstrip("/"):
        return
    path = _repository_path(placeholder)

    def dead(button) -> bool:
        url = str(button.get("url", "")) if isinstance(button, dict) else ""
        return url.startswith(placeholder) or f"/{path}/" in url or url.endswith(f"/{path}")

    def prune(buttons: list) -> list:
        kept = []
        for button in buttons:
            if isinstance(button, dict) and isinstance(button.get("buttons"), list):
                button["buttons"] = prune(button["buttons"])
                if not button["buttons"]:
                    continue
            elif dead(button):
                continue
            kept.append(button)
        return kept

    if isinstance(context.get("header_buttons"), list):
        context["header_buttons"] = prune(context["header_buttons"])


#: Extensions jupyter-book loads that declare nothing about parallel reading, and why
#: each is safe to read in parallel for the HTML builder. Sphinx then reads, hence
#: executes, two chapters at a time (``tools/build_book.py`` asks for two processes).
PARALLEL_SAFE_FOR_HTML = {
    # loaded by sphinx-external-toc: it only replaces
    # TocTreeCollector.assign_section_numbers, which Sphinx calls in the main process
    # after the workers' environments are merged; no per-page state
    "sphinx_multitoc_numbering",
    # its transforms and builder-inited handler act only under the LaTeX builder
    "sphinx_jupyterbook_latex",
}


def _declare_parallel_safe(app) -> None:
    """Mark the extensions of :data:`PARALLEL_SAFE_FOR_HTML` parallel-read safe (HTML
    builders only, and only where the extension itself is silent on the matter)."""
    if app.builder is None or app.builder.format != "html":
        return
    for name in PARALLEL_SAFE_FOR_HTML:
        ext = app.extensions.get(name)
        if ext is not None and getattr(ext, "parallel_read_safe", None) is None:
            ext.parallel_read_safe = True


def _number_as_book(app, env) -> list[str]:
    """Number every figure, table and equation as the whole book does.

    ``cvbook_page_numbering`` is ``{"figure": [chapter, first], "displaymath": [chapter,
    first]}``: the chapter is the site's root, so Sphinx numbers its figures 1, 2, ...;
    they become (chapter, first - 1 + n), what the website shows (Fig. 9.1, or 5.4 for
    chapter 5b, whose figures continue chapter 5's). Runs after Sphinx has assigned the
    numbers (``env-get-updated``, priority 900), before any page is written.
    """
    numbering = app.config.cvbook_page_numbering or {}
    if not numbering:
        return []
    chapter = next(iter(numbering.values()))[0]
    for kinds in env.toc_fignumbers.values():
        for kind, numbers in kinds.items():
            chapter_of, first = numbering.get(kind, [chapter, 1])
            for ident, number in list(numbers.items()):
                numbers[ident] = (int(chapter_of), int(first) - 1 + int(number[-1]))
    return []


def setup(app) -> dict[str, Any]:
    _register_bibliography_style()
    app.connect("builder-inited", _declare_parallel_safe)
    app.add_config_value("cvbook_local_lab_url", DEFAULT_LAB_URL, "html")
    app.add_config_value("cvbook_placeholder_repository", PLACEHOLDER_REPOSITORY, "html")
    app.add_config_value("cvbook_page_numbering", {}, "env")
    app.connect("env-get-updated", _number_as_book, priority=900)
    app.add_js_file("cvbook.js", loading_method="defer")
    app.connect("missing-reference", _resolve_reexport)
    app.connect("autodoc-skip-member", _skip_foreign_members)
    app.connect("html-page-context", _dedupe_scripts)
    app.connect("html-page-context", add_local_lab, priority=502)
    app.connect("html-page-context", hide_unpublished, priority=503)
    return {"version": "2.0", "parallel_read_safe": True, "parallel_write_safe": True}
