"""Chapters as a reader meets them in JupyterLab: Run All, then every figure and number shows.

The test starts a JupyterLab server on 127.0.0.1 (from the venv, with jupyterlab-myst)
over a temporary copy of one chapter, opens it in Debian's headless Chromium (driven by
Playwright, which never downloads a browser here), runs all cells from the menu, and
asserts that

* every cell ran, none with an error;
* every figure the chapter makes is shown (one image per figure cell), with its numbered
  caption under it ("Figure 3.2: ...", the ``lab-caption`` cell that
  ``tools/lab_captions.py`` writes from the figure's metadata; the website leaves that
  cell out and captions the figure itself);
* every ``{eval}`` number of the prose was evaluated and shown (jupyterlab-myst asks the
  kernel for it after the run), and no raw role text (``{eval}``, ``{glue``,
  ``{numref}``, ``{cite}``, ``:::``) is visible.

and that the prose reads as prose:

* every number sits in its sentence, on the line of the words before it (or starting the
  next line when the sentence wraps there), never as a block of its own;
* no unresolved-reference marker is visible (jupyterlab-myst's warning icon, titled
  "Cross Reference Not Found" or "Citation Not Found"), except ``{cite}``, which
  jupyterlab-myst 2.7 cannot resolve at all (it has no bibliography support:
  ``addCiteChildrenTransform`` marks every citation as an error) and is therefore
  counted, not failed. A ``{numref}`` of a figure resolves to the caption cell under it
  (a ``{figure}`` directive with the figure's label), an ``{eq}`` to the equation,
  numbered as on the website (the chapter's ``lab-numbering`` front matter): every
  labelled equation shows its number, (3.1), (3.2), ...;
* no ``--`` in the prose (the website's Sphinx turns it into a dash; JupyterLab does
  not, so the source writes the dash itself).

Chapters 1 and 5 are run (``CVBOOK_LAB_CHAPTERS``, comma-separated, picks others).
Chapters 7 and 10 (``CVBOOK_LAB_OPENED``) are opened and not run, as a reader first meets
them: the committed notebook's stored outputs and prose numbers (the ``user_expressions``
that ``tools/store_values.py`` asked the kernel for, as jupyterlab-myst does after a run)
must pass the same checks, every code cell showing its stored run. Their execution is
nbval's, in the same kernel; their Run All here costs 70-80 s each (the chapter's run,
with the browser rendering beside it), about 13 s opened.
Screenshots go to ``_build/screenshots/lab_<chapter>.png`` (the end, as the run leaves it)
and ``lab_<chapter>_top.png``. ``CVBOOK_REQUIRE_SITE=1`` (set by ``make browser``) turns a
missing browser into a failure; a plain ``pytest`` run skips.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from cvbook.stored_values import EVAL_ROLE

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = os.environ.get("CVBOOK_LAB_CHAPTERS", "01_risk_and_test_error,05_ckcv").split(",")
#: Chapters opened and checked as committed, without Run All (see the module docstring).
_OPENED = os.environ.get("CVBOOK_LAB_OPENED", "07_intervals,10_which_is_better")
OPENED = [c for c in _OPENED.split(",") if c]
REQUIRE = os.environ.get("CVBOOK_REQUIRE_SITE", "") not in ("", "0")
CHROMIUM = os.environ.get("CVBOOK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = ROOT / "_build" / "screenshots"
#: Run All must finish within this (CVBOOK_LAB_TIMEOUT); chapter 5 took over 300 s at load 28.
RUN_TIMEOUT_S = int(os.environ.get("CVBOOK_LAB_TIMEOUT", "900"))
#: Where the rendered prose is: jupyterlab-myst renders a Markdown cell into ``div.myst``
#: (JupyterLab's own renderer, without the extension, uses ``.jp-MarkdownOutput``).
PROSE = ".jp-MarkdownCell .lm-Widget.myst, .jp-MarkdownOutput"
#: Prose checks a chapter is known to fail until the lead applies the edit listed for it
#: (``tools/typography.py``). A listed check that passes fails too: the list only shrinks.
LAB_PENDING: dict[str, set[str]] = {}
RAW_ROLE = re.compile(r"\{(eval|glue|numref|cite|ref|eq|py:[a-z]+)[:}]|(^|\n)\s*:::")


def _unavailable(reason: str):
    if REQUIRE:
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server over a copy of the chapters; yields its base URL."""
    if not Path(CHROMIUM).exists():
        _unavailable(f"no browser at {CHROMIUM}: `apt-get install chromium` (make chromium)")
    try:
        import jupyterlab_myst  # noqa: F401
    except ImportError:
        _unavailable("jupyterlab-myst is not installed (pip install -e '.[book]')")
    work = tmp_path_factory.mktemp("lab")
    for chapter in {*CHAPTERS, *OPENED}:
        shutil.copy(ROOT / "chapters" / f"{chapter}.ipynb", work / f"{chapter}.ipynb")
    home = tmp_path_factory.mktemp("lab_home")
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
    }
    # Render every cell (JupyterLab 4 otherwise only renders the cells in view, and the
    # test reads the whole notebook), and no news pop-up over the page.
    for plugin, settings in {
        "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
        "@jupyterlab/apputils-extension/notification": {
            "fetchNews": "false",
            "checkForUpdates": False,
        },
    }.items():
        path = home / "settings" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))
    port = _free_port()
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--allow-root",
        f"--port={port}",
        "--ip=127.0.0.1",
        "--ServerApp.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        f"--ServerApp.root_dir={work}",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    log = open(home / "lab.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(url + "api/status", timeout=1)
                break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not start:\n" + (home / "lab.log").read_text())
        if proc.poll() is not None:
            pytest.fail("JupyterLab exited:\n" + (home / "lab.log").read_text())
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


#: Where a number of the prose sits against the words before it (see the module docstring).
_INLINE = r"""
(PROSE) => {
  const bad = [];
  const skip = 'mjx-container, .katex, code, a, em, strong, b, i, sup, sub, img, svg, br';
  const blocks = PROSE.split(', ').map(p => `${p} p, ${p} li`).join(', ');
  for (const block of document.querySelectorAll(blocks)) {
    const box = block.getBoundingClientRect();
    for (const el of block.children) {
      // a number: jupyterlab-myst's text/plain <span>, or its block renderer for other types
      const number = el.matches('span:not([class])') && !el.children.length ||
                     el.matches('.not-prose, .myst-RenderedExpression');
      if (!number || el.matches(skip) || el.querySelector('.katex')) continue;
      const text = el.textContent.trim();
      if (!text) continue;
      const shape = getComputedStyle(el).display;
      const inner = [...el.querySelectorAll('*')].some(
        e => ['block', 'flex', 'grid', 'table'].includes(getComputedStyle(e).display));
      let prev = el.previousSibling;
      while (prev && prev.nodeType === 3 && !prev.textContent.trim()) prev = prev.previousSibling;
      const rects = el.getClientRects();
      if (!rects.length) continue;
      const first = rects[0];
      let ok = !['block', 'flex', 'grid', 'table'].includes(shape) && !inner;
      if (ok && prev && prev.nodeType === 3) {
        const range = document.createRange();
        const end = prev.textContent.replace(/\s+$/, '').length;
        range.setStart(prev, Math.max(0, end - 1));
        range.setEnd(prev, end);
        const r = range.getBoundingClientRect();
        const sameLine = first.top < r.bottom - 1 && first.bottom > r.top + 1;
        const wrapped = first.top >= r.bottom - 2 && first.left <= box.left + 2 &&
                        first.top - r.bottom < r.height;
        ok = sameLine || wrapped;
      }
      const before = (prev ? prev.textContent : '').trim().slice(-30);
      if (!ok) bad.push(`"${before}" | ${text.slice(0, 20)}`);
    }
  }
  return bad;
}
"""

#: jupyterlab-myst's marks of a reference it cannot resolve (a citation key, a label).
_UNRESOLVED = r"""
(PROSE) => {
  const marks = [];
  const sel = ['[title*="not found" i]', '[title*="unresolved" i]']
    .map(s => `${PROSE.split(', ').map(p => p + ' ' + s).join(', ')}`).join(', ');
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.width && r.height)
      marks.push({title: el.getAttribute('title') || '', label: el.textContent.trim()});
  }
  return marks;
}
"""

#: Two hyphens in the prose, outside code (Sphinx makes them a dash; JupyterLab does not).
_DOUBLE_HYPHEN = r"""
(PROSE) => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (!p || !p.closest(PROSE) || p.closest('code, pre, mjx-container, .katex')) continue;
    const m = n.textContent.match(/(^|[^-])--(?!-)/);
    if (m) found.push(n.textContent.slice(Math.max(0, m.index - 20), m.index + 20).trim());
  }
  return found;
}
"""


@pytest.mark.parametrize(
    "chapter, run_all",
    [pytest.param(c, True, id=c) for c in CHAPTERS]
    + [pytest.param(c, False, id=f"{c}-opened") for c in OPENED],
)
def test_run_all_shows_figures_and_numbers(lab: str, chapter: str, run_all: bool) -> None:
    """Run All (``run_all``), or the chapter only opened: every cell shows its run, every
    figure its caption, every number its value, in line (the module docstring)."""
    from playwright.sync_api import sync_playwright

    notebook = json.loads((ROOT / "chapters" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    code_cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    figure_cells = [c for c in code_cells if c.get("metadata", {}).get("mystnb", {}).get("figure")]
    prose_source = "\n".join(
        "".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown"
    )
    n_equations = len(re.findall(r"\$\$[ \t]*\([\w-]+\)", prose_source))
    prefix = re.search(r"equation:\s+enumerator: (\d+)\.%s", prose_source)
    equation_numbers = [f"({prefix.group(1)}.{i})" for i in range(1, n_equations + 1)]
    n_evals = sum(
        len(EVAL_ROLE.findall("".join(c["source"])))
        for c in notebook["cells"]
        if c["cell_type"] == "markdown"
    )

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60_000)
            # a workspace of its own (and reset): JupyterLab would otherwise restore the
            # previous test's notebook beside this one, and the page would hold both
            page.goto(f"{lab}lab/workspaces/{chapter}/tree/{chapter}.ipynb?reset")
            page.wait_for_selector(".jp-Notebook .jp-Cell")
            page.wait_for_selector(".jp-Notebook-ExecutionIndicator, .jp-Toolbar-kernelName")
            page.wait_for_timeout(2000)  # the kernel starts
            # opened and untouched, the chapter is not marked modified: JupyterLab writes
            # the running kernel's spec and language into the notebook, and they must be
            # what the chapter already holds (tools/strip_notebooks.py writes the spec)
            same_python = notebook["metadata"].get("language_info", {}).get("version") == ".".join(
                map(str, sys.version_info[:3])
            )
            page.wait_for_timeout(3000)
            dirty_on_open = page.locator(".lm-TabBar-tab.jp-mod-current.jp-mod-dirty").count()
            page.keyboard.press("Escape")
            if run_all:
                page.click(".lm-MenuBar-itemLabel:text-is('Run')")
                page.click(".lm-Menu-itemLabel:text-is('Run All Cells')")

            deadline = time.monotonic() + (RUN_TIMEOUT_S if run_all else 60)
            prompts: list[str] = []
            idle = 0  # seconds with no cell queued or running: Run All has stopped
            while time.monotonic() < deadline:
                prompts = page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
                done = [p for p in prompts if re.fullmatch(r"\[\d+\]:", p.strip())]
                if len(done) == len(code_cells):
                    break
                idle = 0 if any("*" in p for p in prompts) else idle + 1
                if done and idle >= (20 if run_all else 5):  # stopped (an error): report it
                    break
                page.wait_for_timeout(1000)
            # the Markdown cells ask the kernel for their numbers after the run: wait (up to
            # a minute on a busy machine) until no {eval} is left showing its expression
            pending_js = (
                "(prose) => [...document.querySelectorAll(prose.split(', ').map(p => p + "
                "' code').join(', '))].filter(c => /^N\\.\\w+$/.test(c.textContent)).length"
            )
            for _ in range(60):
                if page.evaluate(pending_js, PROSE) == 0:
                    break
                page.wait_for_timeout(1000)
            page.wait_for_timeout(1000)
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            shot = SCREENSHOTS / f"lab_{chapter}.png"
            page.screenshot(path=str(shot))  # the end of the notebook, as the run leaves it
            scroller = page.locator(".jp-WindowedPanel-outer, .jp-Notebook").first
            scroller.evaluate("el => { el.scrollTop = 0; }")
            page.wait_for_timeout(500)
            page.screenshot(path=str(SCREENSHOTS / f"lab_{chapter}_top.png"))
            # the rendered notebook, for reading a failure
            (SCREENSHOTS / f"lab_{chapter}.html").write_text(page.content(), encoding="utf-8")

            problems = []
            if dirty_on_open and same_python:
                problems.append(
                    "opened untouched, the chapter was marked modified (closing it would "
                    "ask 'Save changes?'): compare its metadata with what JupyterLab saves"
                )
            if len(done) != len(code_cells):
                problems.append(
                    f"{len(done)} of {len(code_cells)} cells ran in {RUN_TIMEOUT_S} s: {prompts}"
                    if run_all
                    else f"{len(done)} of {len(code_cells)} cells show a stored run: {prompts}"
                )
            errors = page.locator(
                ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']"
            )
            if errors.count():
                problems.append("error output: " + errors.first.inner_text()[:500])
            images = page.locator(".jp-OutputArea-output img").count()
            if images < len(figure_cells):
                problems.append(f"{images} images shown for {len(figure_cells)} figure cells")
            markdown = "\n".join(page.locator(PROSE).all_inner_texts())
            if not markdown.strip():
                problems.append(f"no rendered prose found ({PROSE})")
            missing = [n for n in equation_numbers if n not in markdown]
            if missing:
                problems.append(f"equations not numbered as on the website: {missing}")
            captions = re.findall(r"(?m)^Figure\s\d+\.\d+:", markdown)
            if len(captions) != len(figure_cells):
                problems.append(
                    f"{len(captions)} figure captions shown for {len(figure_cells)} figures"
                )
            raw = [m.group(0) for m in RAW_ROLE.finditer(markdown)]
            if raw:
                problems.append(f"raw role text visible: {sorted(set(raw))}")
            unevaluated = re.findall(r"\bN\.[a-z0-9_]+", markdown)
            if unevaluated:
                problems.append(f"numbers not evaluated: {sorted(set(unevaluated))[:10]}")
            if n_evals == 0:
                problems.append("the chapter's prose shows no {eval} number")
            off_line = page.evaluate(_INLINE, PROSE)
            if off_line:
                problems.append(f"{len(off_line)} numbers off their line, e.g. {off_line[:3]}")
            marks = page.evaluate(_UNRESOLVED, PROSE)
            beyond = [  # what jupyterlab-myst could resolve, and did not
                m for m in marks if not m["title"].lower().startswith("citation")
            ]
            if beyond:
                problems.append(f"{len(beyond)} unresolved references: {beyond[:5]}")
            pending = LAB_PENDING.get(chapter, set())
            hyphens = page.evaluate(_DOUBLE_HYPHEN, PROSE)
            if bool(hyphens) != ("--" in pending):
                problems.append(
                    f"{len(hyphens)} '--' in the prose, e.g. {hyphens[:3]}"
                    if hyphens
                    else "no '--' left: remove it from LAB_PENDING"
                )
            print(
                f"{chapter}: {len(done)} cells, {images} images, {n_evals} numbers; "
                f"{len(marks) - len(beyond)} citations unresolvable "
                f"in JupyterLab; screenshot {shot.relative_to(ROOT)}"
            )
            assert not problems, f"{chapter}:\n  " + "\n  ".join(problems)
        finally:
            browser.close()


def test_chapters_carry_the_kernel_spec_jupyterlab_writes() -> None:
    """JupyterLab writes the running kernel's spec into a notebook when the kernel starts;
    a chapter that holds another one (``"display_name": "Python 3"``) is marked modified
    as soon as it is opened. ``tools/strip_notebooks.py`` writes :data:`KERNELSPEC` into
    every chapter; it must be the installed ``python3`` kernel's own."""
    import importlib.util

    from jupyter_client.kernelspec import KernelSpecManager

    spec = importlib.util.spec_from_file_location("strip", ROOT / "tools" / "strip_notebooks.py")
    strip = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(strip)
    installed = KernelSpecManager().get_kernel_spec("python3")
    assert {
        "display_name": installed.display_name,
        "language": installed.language,
        "name": "python3",
    } == strip.KERNELSPEC
    wrong = [
        p.name
        for p in sorted((ROOT / "chapters").glob("*.ipynb"))
        if json.loads(p.read_text(encoding="utf-8"))["metadata"].get("kernelspec")
        != strip.KERNELSPEC
    ]
    assert not wrong, f"kernelspec not as JupyterLab writes it (strip_notebooks.py): {wrong}"
