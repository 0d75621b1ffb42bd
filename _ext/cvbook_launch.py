"""Sphinx extension: a "JupyterLab (local)" entry in every chapter's launch menu.

sphinx-book-theme builds the Binder button from the one setting ``repository.url`` of
``_config.yml``. A reader who cloned the book and ran ``make lab`` has a JupyterLab
server on this machine already; this entry opens the page's notebook there. Its address
is the Sphinx option ``cvbook_local_lab_url`` (``_config.yml``, ``sphinx.config``),
the server ``make lab`` starts, whose root is ``chapters/``.
"""

from __future__ import annotations

from typing import Any

DEFAULT_LAB_URL = "http://localhost:8888/lab/tree/"


def add_local_lab(app, pagename: str, templatename: str, context: dict[str, Any],
                  doctree) -> None:
    """Append the local JupyterLab link to the launch menu of a chapter page."""
    if not pagename.startswith("chapters/"):
        return
    for group in context.get("header_buttons", []):
        if isinstance(group, dict) and group.get("label") == "launch-buttons":
            base = app.config.cvbook_local_lab_url.rstrip("/") + "/"
            group["buttons"].append({
                "type": "link",
                "text": "JupyterLab (local)",
                "tooltip": "Open in your own JupyterLab (started by make lab)",
                "icon": "fas fa-laptop-code",
                "url": base + pagename[len("chapters/"):] + ".ipynb",
            })


def setup(app) -> dict[str, Any]:
    app.add_config_value("cvbook_local_lab_url", DEFAULT_LAB_URL, "html")
    app.connect("html-page-context", add_local_lab, priority=502)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
