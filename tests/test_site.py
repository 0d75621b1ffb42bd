"""The built website as a reader sees it, in a real browser (headless Chromium).

The test serves the built site (``_build/html``) on 127.0.0.1 and opens every page
in Debian's Chromium, driven by Playwright for Python (Playwright never downloads a
browser here: ``executable_path`` is the system's ``chromium``). For each page:

* no JavaScript console error and no uncaught exception;
* MathJax typeset every equation: no raw ``$$``, ``$…$``, ``\\begin{``, ``\\(`` or ``\\[``
  left in the visible text outside code, and no MathJax error box;
* no raw MyST left in the visible text: no Markdown table (``| a | b |``), no ``{glue``,
  ``{eval``, ``{numref``, ``{cite``, other ``{role}`` text, and no ``:::`` fence;
* no page scrolls horizontally at 1,400 px;
* every image loaded (``naturalWidth > 0``);
* every internal link resolves: the target file exists, and so does its ``#anchor``;
* no request leaves the local server: MathJax is bundled into the site (``make mathjax``
  copies it into the site's ``_static/mathjax/``), so the pages render offline.

At 390 px (a phone) every content page is opened again: nothing is wider than the
window except inside a box that scrolls, no display equation is cut or overwritten by
its number, and the visible toggles open the chapter list and the page's contents
(screenshots of chapters 1 and 7 with the navigation open). Every page is scanned for a
negative zero, a standard error printed as zero and a NumPy repr.

It also checks that the search page finds "Clopper", that chapter pages offer the
local-JupyterLab launch entry and the ``.ipynb`` download (Binder once the repository
is published), that every plot
of a chapter is a numbered figure with a caption, that the execution-time table lists
every chapter as executed, that the API reference documents every module, and it saves
a screenshot of each page under ``_build/screenshots/`` (the whole page for the landing
page and the chapters, the first screen otherwise).


Environment variables:

``CVBOOK_SITE_DIR``
    The built site (default ``_build/html``).
``CVBOOK_REQUIRE_SITE=1``
    A missing site, browser or MathJax copy fails the test instead of skipping it
    (``make browser`` sets it; a plain ``pytest`` run skips).
``CVBOOK_SCREENSHOT_DIR``
    Where screenshots go (default: ``screenshots/`` next to the site's ``html/``).
``CVBOOK_CHROMIUM``
    The browser (default ``/usr/bin/chromium``).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(os.environ.get("CVBOOK_SITE_DIR", ROOT / "_build" / "html")).resolve()
REQUIRE = os.environ.get("CVBOOK_REQUIRE_SITE", "") not in ("", "0")
SCREENSHOTS = Path(os.environ.get("CVBOOK_SCREENSHOT_DIR", SITE.parent / "screenshots"))
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
#: The bundled MathJax, as the pages load it (``mathjax_path`` in ``_config.yml``).
MATHJAX_BUNDLED = "_static/mathjax/tex-mml-chtml.js"
#: The reader's window width at which no page may scroll horizontally.
VIEWPORT = {"width": 1400, "height": 900}
#: Pages Sphinx generates, not written by us: checked, but not screenshotted.
GENERATED = {"genindex.html", "py-modindex.html", "search.html", "index.html"}
PAGE_TIMEOUT_MS = 30_000


def _unavailable(reason: str):
    """Skip on a developer's plain ``pytest`` run; fail under ``make browser``."""
    if REQUIRE:
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def _pages() -> list[str]:
    """Every HTML page of the site, relative to its root, in a stable order."""
    if not (SITE / "index.html").is_file():
        return []
    skip_dirs = {"_static", "_sources", "_images", "_sphinx_design_static"}
    return sorted(
        p.relative_to(SITE).as_posix()
        for p in SITE.rglob("*.html")
        if not skip_dirs.intersection(p.relative_to(SITE).parts)
    )


PAGES = _pages()


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def site() -> Path:
    if not PAGES:
        _unavailable(f"no built site at {SITE}: run `make build` (or jupyter-book build .) first")
    return SITE


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep pytest's output clean
        pass


@pytest.fixture(scope="module")
def base_url(site: Path):
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser(site: Path):
    if not Path(CHROMIUM).exists():
        _unavailable(f"no browser at {CHROMIUM}: `apt-get install chromium` (make chromium)")
    if not (site / MATHJAX_BUNDLED).is_file():
        pytest.fail(
            f"the site has no bundled MathJax ({MATHJAX_BUNDLED}): build it with "
            "`make build`, which runs `make mathjax` first",
            pytrace=False,
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is in the [test] extra
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class PageRecord:
    """What one page did while loading: console errors, uncaught exceptions,
    requests that tried to leave the local server, failed local requests."""

    def __init__(self) -> None:
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.external: list[str] = []
        self.failed: list[str] = []


@pytest.fixture
def open_page(browser, base_url):
    """Open a page of the site in a fresh tab; returns (page, record)."""
    context = browser.new_context(viewport=VIEWPORT, service_workers="block")
    opened = []

    def _open(rel: str, query: str = ""):
        record = PageRecord()
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        page.on(
            "console",
            lambda m: (
                record.console_errors.append(
                    f"{m.text} ({m.location.get('url', '')}:{m.location.get('lineNumber', '')})"
                )
                if m.type == "error"
                else None
            ),
        )
        page.on("pageerror", lambda e: record.page_errors.append(str(e)))
        page.on(
            "requestfailed",
            lambda r: (
                record.failed.append(f"{r.url}: {r.failure}")
                if r.url.startswith(base_url)
                else None
            ),
        )

        def _route(route) -> None:
            url = route.request.url
            if url.startswith(base_url) or url.startswith(("data:", "blob:")):
                route.continue_()
            else:
                record.external.append(url)
                route.abort()

        page.route("**/*", _route)
        page.goto(base_url + rel + query, wait_until="load")
        opened.append(page)
        return page, record

    yield _open
    context.close()


# --------------------------------------------------------------------------- helpers

_WAIT_MATHJAX = """
async () => {
  const script = document.querySelector('script[src*="mathjax"]');
  if (!script) return "no-mathjax";
  const t0 = Date.now();
  while (!(window.MathJax && window.MathJax.startup && window.MathJax.startup.promise)) {
    if (Date.now() - t0 > 20000) return "MathJax did not start";
    await new Promise(r => setTimeout(r, 50));
  }
  await window.MathJax.startup.promise;
  return "typeset";
}
"""

_RAW_MATH = r"""
() => {
  const skip = 'pre, code, .highlight, script, style, textarea, mjx-container, ' +
               'mjx-assistive-mml, .MathJax, .bd-search, #pst-search-dialog';
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const patterns = ['$$', '\\begin{', '\\(', '\\['];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip)) continue;
    const text = node.textContent;
    for (const p of patterns) {
      const i = text.indexOf(p);
      if (i >= 0) { found.push(text.slice(Math.max(0, i - 30), i + 50).trim()); break; }
    }
  }
  const errors = [...document.querySelectorAll('mjx-merror, .MathJax_Error')]
    .map(e => e.getAttribute('data-mjx-error') || e.textContent);
  // a glued NumPy scalar shown as its repr ("np.float64(0.18)") in the prose
  const reprs = [];
  const walker2 = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker2.nextNode(); node; node = walker2.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('pre, code, .highlight, script, style, .cell_output')) continue;
    const m = node.textContent.match(/np\.[a-z_]+\d*\([^)]*\)/);
    if (m) reprs.push(m[0]);
  }
  // raw MyST: a Markdown table, a role, a colon fence, inline $...$ math
  const myst = [];
  const rawRes = [/(^|\n)\s*\|[^\n]*\|\s*(\n|$)/,
                  /\{(glue|eval|numref|cite|ref|eq|doc|py:[a-z]+|term|download)[:}]/,
                  /(^|\n)\s*:::/, /(^|[^\\$])\$[^$\s][^$]*[^$\s\\]\$(?!\$)/];
  const walker3 = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker3.nextNode(); node; node = walker3.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip + ', .cell_output pre, .bd-search')) continue;
    const text = node.textContent;
    for (const re of rawRes) {
      const m = text.match(re);
      if (m) { myst.push(text.slice(Math.max(0, m.index - 20), m.index + 60).trim()); break; }
    }
  }
  // a page that scrolls horizontally, or a main container wider than its box
  const doc = document.documentElement;
  const wide = [];
  if (doc.scrollWidth > window.innerWidth + 1) wide.push(`page ${doc.scrollWidth} px`);
  const boxes = '.bd-main, .bd-article-container, article.bd-article';
  for (const el of document.querySelectorAll(boxes)) {
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'hidden')
      wide.push(`${el.className.split(' ')[0]} ${el.scrollWidth} > ${el.clientWidth} px`);
  }
  return {raw: found, errors: errors, reprs: reprs, myst: myst, wide: wide};
}
"""

_IMAGES = """
async () => {
  const imgs = [...document.images];
  imgs.forEach(img => { img.loading = 'eager'; });
  await Promise.all(imgs.map(img => img.complete ? null :
      new Promise(r => { img.addEventListener('load', r); img.addEventListener('error', r);
                         setTimeout(r, 10000); })));
  return imgs.map(img => ({src: img.currentSrc || img.src, w: img.naturalWidth}));
}
"""

_LINKS = """
() => [...document.querySelectorAll('a[href]')].map(a => a.href)
"""


@functools.cache
def _ids(path: Path) -> frozenset[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    return frozenset(re.findall(r'\sid="([^"]+)"', text)) | frozenset(
        re.findall(r'\sname="([^"]+)"', text)
    )


def _broken_links(hrefs: list[str], base_url: str, page_rel: str) -> list[str]:
    broken = []
    for href in sorted(set(hrefs)):
        if not href.startswith(base_url):
            continue  # external: not followed (no network)
        parts = urlsplit(href)
        rel = unquote(parts.path)[len(urlsplit(base_url).path) :]
        target = SITE / rel
        if rel == "" or rel.endswith("/"):
            target = target / "index.html"
        if not target.is_file():
            broken.append(f"{href} (no file {target.relative_to(SITE)})")
            continue
        fragment = unquote(parts.fragment)
        if fragment and target.suffix == ".html" and fragment not in _ids(target):
            broken.append(f"{href} (no anchor #{fragment} in {target.relative_to(SITE)})")
    return broken


def _source_suffix(rel: str) -> str | None:
    """The suffix of the page's source in ``_sources`` (``.ipynb`` for a notebook)."""
    stem = rel[: -len(".html")]
    for suffix in (".ipynb", ".md", ".rst"):
        if (SITE / "_sources" / f"{stem}{suffix}").is_file():
            return suffix
    return None


def _screenshot(page, rel: str) -> None:
    """The whole page (up to 12,000 px) for the landing page and the chapters, what a
    reader sees first (one screen) for the appendix pages; full-page shots are slow."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = rel[: -len(".html")].replace("/", "__") + ".png"
    if rel.startswith("chapters/") or rel == "intro.html":
        height = page.evaluate("document.documentElement.scrollHeight")
        page.screenshot(
            path=str(SCREENSHOTS / name),
            full_page=True,
            clip={"x": 0, "y": 0, "width": 1280, "height": min(height, 12000)},
        )
    else:
        page.screenshot(path=str(SCREENSHOTS / name))


# --------------------------------------------------------------------------- tests


@pytest.mark.parametrize("rel", PAGES or ["<no site>"])
def test_page(rel: str, site: Path, base_url: str, open_page) -> None:
    """One page: console, MathJax, images, links, external requests, screenshot."""
    html = (site / rel).read_text(encoding="utf-8", errors="replace")
    refresh = re.search(r'http-equiv="refresh" content="\d+;\s*url=([^"]+)"', html, re.I)
    if refresh:  # index.html: a redirect to the landing page, tested as its own page
        target = (site / rel).parent / refresh.group(1)
        assert target.is_file(), f"{rel} redirects to a missing page: {refresh.group(1)}"
        return
    page, record = open_page(rel)
    problems: list[str] = []

    state = page.evaluate(_WAIT_MATHJAX)
    if state not in ("typeset", "no-mathjax"):
        problems.append(state)
    math = page.evaluate(_RAW_MATH)
    problems += [f"raw TeX left in the text: {s!r}" for s in math["raw"]]
    problems += [f"MathJax error: {e!r}" for e in math["errors"]]
    problems += [f"NumPy repr in the text (publish a Python scalar): {r!r}" for r in math["reprs"]]
    problems += [f"raw MyST left in the text: {t!r}" for t in math["myst"]]
    problems += [f"scrolls horizontally at {VIEWPORT['width']} px: {w}" for w in math["wide"]]

    images = page.evaluate(_IMAGES)
    problems += [f"image not loaded: {img['src']}" for img in images if not img["w"]]

    problems += [f"broken link: {b}" for b in _broken_links(page.evaluate(_LINKS), base_url, rel)]

    if rel not in GENERATED:
        _screenshot(page, rel)
    page.wait_for_timeout(200)  # late console messages
    problems += [f"console error: {e}" for e in record.console_errors]
    problems += [f"uncaught exception: {e}" for e in record.page_errors]
    problems += [f"failed request: {f}" for f in record.failed]
    problems += [f"request left the site: {u}" for u in sorted(set(record.external))]

    assert not problems, f"{rel}:\n  " + "\n  ".join(problems)


def test_search_finds_clopper(site: Path, open_page) -> None:
    page, record = open_page("search.html", "?q=Clopper")
    page.wait_for_function(
        "() => { const s = document.querySelector('#search-results .search-summary, "
        "#search-results p'); return s && s.textContent.trim().length > 0 "
        "&& !/Preparing search|Searching/.test(s.textContent); }"
    )
    results = page.locator("#search-results ul.search li")
    titles = [t.strip() for t in results.all_inner_texts()]
    assert results.count() > 0, "the search page found nothing for 'Clopper'"
    assert not record.console_errors and not record.page_errors, (
        record.console_errors + record.page_errors
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "search_Clopper.png"))
    print(f"search 'Clopper': {len(titles)} results: " + "; ".join(t[:60] for t in titles))


def _repository_url() -> str:
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    return str(config.get("repository", {}).get("url", "")).rstrip("/")


#: The repository address of ``_config.yml`` until the repository is published
#: (``cvbook_placeholder_repository``, ``_ext/cvbook_site.py``).
PLACEHOLDER_REPOSITORY = "https://github.com/cvbook/cvbook"


def test_chapters_offer_binder_and_ipynb(site: Path) -> None:
    """Every notebook page has a local-JupyterLab launch entry (the server ``make lab``
    starts) and an .ipynb download; a Binder launch button (JupyterLab) and a repository
    link once ``repository.url`` is set, and neither while it is the placeholder (they
    would lead nowhere)."""
    notebooks = [rel for rel in PAGES if _source_suffix(rel) == ".ipynb"]
    if not notebooks:
        _unavailable("the site has no notebook page")
    published = _repository_url() != PLACEHOLDER_REPOSITORY
    missing = []
    for rel in notebooks:
        html = (SITE / rel).read_text(encoding="utf-8")
        binder = re.search(r'href="https://mybinder\.org/v2/[^"]*"', html)
        if published and not binder:
            missing.append(f"{rel}: no Binder launch button")
        elif published and "urlpath=lab" not in binder.group(0):
            missing.append(f"{rel}: Binder does not open JupyterLab ({binder.group(0)})")
        elif not published and (binder or f'href="{PLACEHOLDER_REPOSITORY}' in html):
            missing.append(f"{rel}: a button points at the placeholder repository")
        stem = rel[: -len(".html")]
        local = f'href="http://localhost:8888/lab/tree/{stem.split("/", 1)[-1]}.ipynb"'
        if local not in html:
            missing.append(f"{rel}: no local JupyterLab launch entry ({local})")
        if not re.search(rf'href="[^"]*_sources/{re.escape(stem)}\.ipynb"', html):
            missing.append(f"{rel}: no .ipynb download button")
        if not (SITE / "_sources" / f"{stem}.ipynb").is_file():
            missing.append(f"{rel}: _sources/{stem}.ipynb is missing")
    assert not missing, "\n".join(missing)


def test_api_reference_documents_every_module(site: Path) -> None:
    html = (SITE / "api" / "index.html").read_text(encoding="utf-8")
    package = ROOT / "cvbook"
    modules = [
        "cvbook." + ".".join(p.relative_to(package).with_suffix("").parts)
        for p in sorted(package.rglob("*.py"))
        if not any(part.startswith("_") for part in p.relative_to(package).parts)
    ] + ["cvbook.datasets", "cvbook.runs"]
    absent = [m for m in modules if f'id="module-{m}"' not in html]
    assert not absent, f"modules without a section in the API reference: {absent}"
    for target in ("cvbook.bounds.clopper_pearson_upper",):
        assert f'id="{target}"' in html, f"{target} is not documented"


def test_execution_table_lists_every_chapter(site: Path) -> None:
    """The execution-time page ({nb-exec-table}) has a row per chapter, each executed
    at build time and successful (a site built with execution off fails here)."""
    notebooks = [rel[: -len(".html")] for rel in PAGES if _source_suffix(rel) == ".ipynb"]
    html = (SITE / "exec_times.html").read_text(encoding="utf-8")
    rows = {
        doc: cells
        for doc, cells in re.findall(
            r'<span class="doc">([^<]+)</span></a></p></td>(.*?)</tr>', html, re.S
        )
    }
    problems = []
    for doc in notebooks:
        if doc not in rows:
            problems.append(f"{doc}: no row in the execution table")
            continue
        cells = re.findall(r"<td><p>(.*?)</p></td>", rows[doc], re.S)
        if "✅" not in cells[-1:]:
            problems.append(f"{doc}: status {cells[-1:]} in the execution table")
        else:
            print(f"{doc}: executed in {cells[2] if len(cells) > 2 else '?'} s")
    assert not problems, "\n".join(problems)


def test_chapter_figures_have_captions(site: Path) -> None:
    """Every plot in a chapter is a numbered figure with a caption ({glue:figure} or
    {figure}), so that the text can refer to it by number."""
    problems = []
    for rel in PAGES:
        if _source_suffix(rel) != ".ipynb":
            continue
        html = (SITE / rel).read_text(encoding="utf-8")
        html = html[html.find('id="main-content"') :]
        figures = re.findall(r"<figure.*?</figure>", html, re.S)
        in_figures = sum(f.count("<img ") for f in figures)
        plots = len(re.findall(r'<img [^>]*src="[^"]*_images/', html))
        if plots > in_figures:
            problems.append(f"{rel}: {plots - in_figures} of {plots} plots are not in a figure")
        uncaptioned = [f for f in figures if "<figcaption" not in f]
        if uncaptioned:
            problems.append(f"{rel}: {len(uncaptioned)} figure(s) without a caption")
        unnumbered = [
            f for f in figures if "<figcaption" in f and 'class="caption-number"' not in f
        ]
        if unnumbered:
            problems.append(f"{rel}: {len(unnumbered)} caption(s) without a figure number")
    assert not problems, "\n".join(problems)


def test_lab_captions_carry_the_site_figure_numbers(site: Path) -> None:
    """The caption cells JupyterLab shows under each figure (``tools/lab_captions.py``)
    number the figures as the website does: the chapter's front matter gives the prefix
    and the first number (5b's figures continue chapter 5's), the cells count on."""
    import nbformat

    problems = []
    for rel in PAGES:
        if _source_suffix(rel) != ".ipynb":
            continue
        html = (SITE / rel).read_text(encoding="utf-8")
        found = re.findall(r'class="caption-number">([^<]*)<', html)
        site_numbers = [n.strip() for n in found if n.strip().startswith("Fig.")]
        nb = nbformat.read(ROOT / rel.replace(".html", ".ipynb"), as_version=4)
        tagged = [c for c in nb.cells if c.cell_type == "markdown" and c.metadata.get("tags")]
        front = [c.source for c in tagged if "lab-numbering" in c.metadata["tags"]]
        n_captions = sum("lab-caption" in c.metadata["tags"] for c in tagged)
        lab_numbers = []
        if front:  # numbering: figure: enumerator N.%s, start k
            prefix = re.search(r"figure:\s+enumerator: (\d+)\.%s", front[0]).group(1)
            start = int(re.search(r"start: (\d+)", front[0]).group(1))
            lab_numbers = [f"Fig. {prefix}.{start + i}" for i in range(n_captions)]
        if lab_numbers != site_numbers:
            problems.append(f"{rel}: site {site_numbers}, JupyterLab {lab_numbers}")
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------- on a phone

#: A phone held upright (an iPhone 12-15 is 390 px wide in CSS pixels).
PHONE = {"width": 390, "height": 844}

_PHONE_LAYOUT = r"""
() => {
  const vw = document.documentElement.clientWidth;
  const scrollBox = (el) => {
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if ((o === 'auto' || o === 'scroll') && a.getBoundingClientRect().right <= vw + 1)
        return true;  // a box that scrolls, itself within the window
    }
    return false;
  };
  const name = (el) => {
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/) : [];
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
      (cls[0] ? '.' + cls.slice(0, 2).join('.') : '');
  };
  const wide = [];
  for (const el of document.querySelectorAll('.bd-container *')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if ((r.right > vw + 1 || r.left < -1) && !scrollBox(el)) {
      const parent = el.parentElement;
      const pr = parent ? parent.getBoundingClientRect() : null;
      // report the outermost only
      if (pr && (pr.right > vw + 1 || pr.left < -1) && !scrollBox(parent)) continue;
      const text = (el.textContent || '').trim().slice(0, 40);
      wide.push(`${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)} px: "${text}"`);
    }
  }
  const clipped = [];
  for (const eq of document.querySelectorAll('mjx-container[display="true"]')) {
    for (let a = eq; a && a !== document.body; a = a.parentElement) {
      if (a.scrollWidth > a.clientWidth + 1) {
        const o = getComputedStyle(a).overflowX;
        if (o === 'hidden' || o === 'clip')
          clipped.push(`${name(a)}: ${a.scrollWidth} px of formula in ${a.clientWidth} px, cut`);
        break;
      }
    }
    const number = eq.parentElement && eq.parentElement.querySelector(':scope > span.eqno');
    if (number) {
      const n = number.getBoundingClientRect();
      const box = eq.getBoundingClientRect();
      const formula = eq.firstElementChild ? eq.firstElementChild.getBoundingClientRect() : box;
      const right = Math.min(box.right, formula.right);
      const across = n.left < right - 1 && n.right > box.left + 1;
      if (across && n.top < box.bottom - 1 && n.bottom > box.top + 1)
        clipped.push(`equation number ${number.textContent.trim()} drawn over its formula`);
    }
  }
  // a box that scrolls sideways must say so (cvbook.js + cvbook.css fade its hidden side);
  // a formula's box is measured by the formula drawn (MathJax's hidden copy for screen
  // readers, mjx-assistive-mml, is wider and inflates scrollWidth)
  const masked = (el) => {
    const s = getComputedStyle(el);
    return (s.maskImage && s.maskImage !== 'none') ||
           (s.webkitMaskImage && s.webkitMaskImage !== 'none');
  };
  const uncued = [];
  for (const el of document.querySelectorAll('.bd-article *')) {
    const s = getComputedStyle(el);
    if ((s.overflowX !== 'auto' && s.overflowX !== 'scroll') || s.display === 'inline') continue;
    let more = el.scrollWidth - el.clientWidth;
    const math = el.querySelector(':scope > mjx-math, :scope > mjx-container > mjx-math');
    if (math) more = Math.min(more, math.getBoundingClientRect().width - el.clientWidth);
    if (more > 6 && el.scrollLeft < more - 6 && !masked(el))
      uncued.push(`${name(el)} hides ${Math.round(more)} px on its right with no sign ` +
                  `that it scrolls: "${(el.textContent || '').trim().slice(0, 30)}"`);
  }
  // every figure ends within the screen, or sits in a box that says it scrolls
  const figures = [];
  const imgs = '.bd-article figure img, .bd-article .cell_output img';
  for (const img of document.querySelectorAll(imgs)) {
    const r = img.getBoundingClientRect();
    if (!r.width || r.right <= vw + 1) continue;
    let cued = false;
    for (let a = img.parentElement; a && a !== document.body; a = a.parentElement)
      if (masked(a)) { cued = true; break; }
    if (!cued) {
      const fig = img.closest('figure');
      const number = fig && fig.querySelector('.caption-number');
      figures.push(`${number ? number.textContent.trim() : name(img)} ends at ` +
                   `${Math.round(r.right)} px, off the ${vw} px screen, ` +
                   'with no sign that it scrolls');
    }
  }
  const width = document.documentElement.scrollWidth;
  return {wide: wide.slice(0, 15), clipped: clipped, page: width > vw + 1 ? width : 0,
          uncued: uncued.slice(0, 10), figures: figures};
}
"""

_VISIBLE = """
(selector) => [...document.querySelectorAll(selector)].filter(el => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
}).length
"""

#: Pages whose navigation drawers are screenshotted open at 390 px.
PHONE_SHOTS = ("chapters/01_risk_and_test_error.html", "chapters/07_intervals.html")
CONTENT_PAGES = [rel for rel in PAGES if rel not in GENERATED]


@pytest.fixture
def open_phone_page(browser, base_url):
    context = browser.new_context(viewport=PHONE, service_workers="block", device_scale_factor=2)
    context.route(
        "**/*",
        lambda route: (
            route.continue_() if route.request.url.startswith(base_url) else route.abort()
        ),
    )

    def _open(rel: str):
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base_url + rel, wait_until="load")
        page.evaluate(_WAIT_MATHJAX)
        page.evaluate(_IMAGES)
        page.evaluate("document.fonts.ready.then(() => true)")  # widths with the real fonts
        # cvbook.js marks the boxes that scroll once the page is typeset (twice: at load
        # and after MathJax); a page without the script fails the layout checks instead
        with contextlib.suppress(Exception):
            page.wait_for_function("() => (window.cvbookScrollScans || 0) >= 2", timeout=5000)
        page.wait_for_timeout(300)
        return page, errors

    yield _open
    context.close()


def _open_drawer(page, kind: str) -> str | None:
    """Click the visible toggle of a drawer; None when it opened, else what went wrong."""
    toggles = page.locator(f".{kind}-toggle:visible")
    if toggles.count() == 0:
        return f"no visible {kind} toggle"
    toggles.first.click()
    dialog = page.locator(f"#pst-{kind}-sidebar-modal")
    try:
        dialog.wait_for(state="visible", timeout=5000)
    except Exception:
        return f"the visible {kind} toggle did not open the navigation"
    if page.evaluate(_VISIBLE, f"#pst-{kind}-sidebar-modal a") == 0:
        return f"the {kind} navigation opened with no visible link"
    return None


@pytest.mark.parametrize("rel", CONTENT_PAGES or ["<no site>"])
def test_page_on_a_phone(rel: str, site: Path, open_phone_page) -> None:
    """At 390 px: nothing wider than the window except inside a box that scrolls, no
    display equation cut or overwritten by its number, and the visible toggles open the
    chapter list (and, where the page has one, its table of contents)."""
    page, errors = open_phone_page(rel)
    layout = page.evaluate(_PHONE_LAYOUT)
    problems = []
    if layout["page"]:
        problems.append(f"the page scrolls sideways: {layout['page']} px wide at 390 px")
    problems += [f"wider than the window, not in a scroll box: {w}" for w in layout["wide"]]
    problems += [f"equation: {c}" for c in layout["clipped"]]
    problems += [f"cut at the screen's edge: {f}" for f in layout["figures"]]
    problems += [f"a box scrolls unseen: {u}" for u in layout["uncued"]]
    name = rel[: -len(".html")].replace("/", "__")
    if rel in PHONE_SHOTS:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"phone_{name}.png"))
    problem = _open_drawer(page, "primary")
    if problem:
        problems.append(problem)
    elif rel in PHONE_SHOTS:
        page.screenshot(path=str(SCREENSHOTS / f"phone_{name}_nav_open.png"))
    page.keyboard.press("Escape")
    page.wait_for_timeout(200)
    if page.locator(".secondary-toggle").count():  # pages with a table of contents
        problem = _open_drawer(page, "secondary")
        if problem:
            problems.append(problem)
        elif rel in PHONE_SHOTS:
            page.screenshot(path=str(SCREENSHOTS / f"phone_{name}_contents_open.png"))
    problems += [f"uncaught exception: {e}" for e in errors]
    assert not problems, f"{rel} at 390 px:\n  " + "\n  ".join(problems)


#: Chapters whose contents drawer is tried on a phone: a jump closes it.
JUMP_PAGES = [rel for rel in PHONE_SHOTS if rel in PAGES]


@pytest.mark.parametrize("rel", JUMP_PAGES or ["<no site>"])
def test_a_jump_from_the_contents_closes_the_drawer(rel: str, site: Path, open_phone_page) -> None:
    """At 390 px, a tap on a section in the page's contents drawer closes the drawer and
    shows that section at the top of the screen, with no tooltip left over the toolbar
    (the theme gives the focus back to the toggle, whose tooltip stayed)."""
    if rel not in PAGES:
        _unavailable(f"no page {rel} in the site")
    page, errors = open_phone_page(rel)
    problem = _open_drawer(page, "secondary")
    assert problem is None, f"{rel}: {problem}"
    links = page.locator("#pst-secondary-sidebar-modal a[href*='#']")
    assert links.count() >= 2, f"{rel}: the contents drawer lists {links.count()} sections"
    link = links.nth(links.count() // 2)
    target = link.get_attribute("href").split("#", 1)[1]
    link.click()
    page.wait_for_timeout(1000)
    name = rel[: -len(".html")].replace("/", "__")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"phone_{name}_after_jump.png"))
    state = page.evaluate(
        """(id) => {
          const d = document.getElementById('pst-secondary-sidebar-modal');
          const t = document.getElementById(decodeURIComponent(id));
          const tips = [...document.querySelectorAll('.tooltip')].filter(e => {
            const r = e.getBoundingClientRect();
            return r.width && r.height && getComputedStyle(e).visibility !== 'hidden'
                   && getComputedStyle(e).opacity !== '0';
          }).map(e => e.textContent.trim());
          return {open: d.open, top: t ? Math.round(t.getBoundingClientRect().top) : null,
                  height: window.innerHeight, tips: tips};
        }""",
        target,
    )
    problems = []
    if state["open"]:
        problems.append("the drawer is still open after the jump")
    if state["top"] is None:
        problems.append(f"no element #{target} to jump to")
    elif not 0 <= state["top"] < state["height"] / 2:
        problems.append(f"#{target} is at {state['top']} px, not at the top of the screen")
    if state["tips"]:
        problems.append(f"a tooltip is left on the screen: {state['tips']}")
    problems += [f"uncaught exception: {e}" for e in errors]
    assert not problems, f"{rel} at 390 px:\n  " + "\n  ".join(problems)


def test_the_book_title_heads_the_desktop_sidebar(site: Path, open_page) -> None:
    """On a desktop (1,280 x 720), the book's title is the first thing at the top left:
    no search bar above it or over it (the theme's header repeated the sidebar's search
    field above the title)."""
    chapter = next((rel for rel in PHONE_SHOTS if rel in PAGES), None)
    if chapter is None:
        _unavailable("no chapter page in the site")
    page, _ = open_page(chapter)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.wait_for_timeout(300)
    state = page.evaluate(
        """() => {
          const brand = document.querySelector('.bd-sidebar-primary .navbar-brand');
          if (!brand) return {brand: null};
          const b = brand.getBoundingClientRect();
          const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
          const above = [...document.querySelectorAll('.search-button-field, form.bd-search')]
            .filter(e => { const r = e.getBoundingClientRect();
              return r.width && r.height && r.bottom <= b.top + 1 && r.left < b.right; })
            .map(e => Math.round(e.getBoundingClientRect().top));
          return {brand: brand.textContent.trim(), top: Math.round(b.top),
                  covered: !(hit && brand.contains(hit)), above: above};
        }"""
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "desktop_1280_title.png"))
    assert state["brand"], "the sidebar shows no book title"
    assert not state["covered"], f"the title {state['brand']!r} is covered"
    assert not state["above"], f"a search field sits above the title (at {state['above']} px)"
    assert state["top"] < 100, f"the title starts {state['top']} px down the page"


# --------------------------------------------------------------------------- honest numbers

#: What no page may print: a zero shown with a minus sign, a standard error shown as zero
#: (cvbook.book.format_pm gives it enough digits), a NumPy repr (np.int64(-1)).
DISHONEST = {
    "negative zero": re.compile(r"(?<![\w.])[-−]0\.0+(?![0-9])"),
    "zero standard error": re.compile(r"(?<![\d.])0\.0+ ± 0\.0+(?![0-9])"),
    "NumPy repr": re.compile(r"\bnp\.(?:int|uint|float|complex|bool|str|bytes)[0-9]*_?\("),
}

#: Findings known and not yet fixed (none: every table goes through cvbook.book.format_pm
#: or format_number). A listed finding that is gone fails too, so that this list only
#: shrinks.
PENDING: dict[str, set[str]] = {}


def _page_text(path: Path) -> str:
    html = path.read_text(encoding="utf-8", errors="replace")
    html = html[html.find('id="main-content"') :]
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    # the code itself (input cells, examples, inline code), not what it printed
    html = re.sub(r'<code class="[^"]*\bliteral\b.*?</code>', " ", html, flags=re.S)
    html = re.sub(
        r'<div class="[^"]*\bhighlight-(?:ipython3|python|default|pycon)\b.*?</pre></div>\s*</div>',
        " ",
        html,
        flags=re.S,
    )
    text = re.sub(r"<[^>]+>", "", html)
    return re.sub(r"&minus;", "−", text.replace("&#177;", "±").replace("&plusmn;", "±"))


@pytest.mark.parametrize("rel", CONTENT_PAGES or ["<no site>"])
def test_page_prints_honest_numbers(rel: str, site: Path) -> None:
    text = _page_text(site / rel)
    found = {
        kind: sorted({m.group(0) for m in pattern.finditer(text)})
        for kind, pattern in DISHONEST.items()
    }
    found = {kind: hits for kind, hits in found.items() if hits}
    expected = PENDING.get(rel, set())
    new = {kind: hits for kind, hits in found.items() if kind not in expected}
    gone = sorted(expected - set(found))
    assert not new, f"{rel}: {new}"
    assert not gone, f"{rel}: {gone} no longer found: remove them from PENDING"


def test_buttons_to_the_placeholder_repository_are_left_out():
    """_ext/cvbook_site.hide_unpublished drops Binder and the repository link while
    repository.url is the placeholder, and keeps every button once it is not."""
    import importlib.util
    import types

    spec = importlib.util.spec_from_file_location("cvbook_site", ROOT / "_ext" / "cvbook_site.py")
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)

    def context():
        return {
            "header_buttons": [
                {"label": "source-repository-button", "url": PLACEHOLDER_REPOSITORY},
                {
                    "label": "launch-buttons",
                    "buttons": [
                        {"text": "Binder", "url": "https://mybinder.org/v2/gh/cvbook/cvbook/main"},
                        {"text": "JupyterLab (local)", "url": "http://localhost:8888/lab/tree/x"},
                    ],
                },
                {"label": "download-buttons", "buttons": [{"url": "../_sources/x.ipynb"}]},
            ]
        }

    def app(url):
        config = types.SimpleNamespace(
            cvbook_placeholder_repository=PLACEHOLDER_REPOSITORY,
            html_theme_options={"repository_url": url},
        )
        return types.SimpleNamespace(config=config)

    ctx = context()
    ext.hide_unpublished(app(PLACEHOLDER_REPOSITORY), "chapters/x", "page.html", ctx, None)
    urls = str(ctx["header_buttons"])
    assert "mybinder" not in urls and PLACEHOLDER_REPOSITORY not in urls
    assert "localhost:8888" in urls and "_sources/x.ipynb" in urls
    ctx = context()
    ext.hide_unpublished(app("https://github.com/someone/cvbook"), "chapters/x", "p", ctx, None)
    assert ctx == context()


def _load_tool(name: str, path: Path):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_page_shows_the_run_as_it_is_and_says_what_made_it(tmp_path: Path) -> None:
    """tools/page.py (``make page``): a papermill output whose prose carries its own
    stored numbers is shown as it is (no second run), with the parameters that differ from
    the chapter's defaults at the top and the book's figure numbers; a copy whose numbers
    are the committed chapter's although parameters differ (papermill's default engine)
    is executed again, and the tool says why."""
    import copy

    page = _load_tool("page", ROOT / "tools" / "page.py")
    chapter = ROOT / "chapters" / "01_risk_and_test_error.ipynb"
    committed = json.loads(chapter.read_text(encoding="utf-8"))
    run = copy.deepcopy(committed)
    run["metadata"]["papermill"] = {
        "parameters": {"seed": 3, "n_jobs": 1},
        "input_path": "chapters/01_risk_and_test_error.ipynb",
        "end_time": "2026-11-27T08:16:40.1",
        "duration": 66.2,
    }
    defaults = page.defaults(run)
    assert defaults["seed"] == 0 and "n_jobs" in defaults
    changed = page.changed_parameters(run)
    assert changed["seed"] == (3, 0) and ("n_jobs" in changed) == (defaults["n_jobs"] != 1)
    # papermill's default engine: the paragraphs hold the committed run's numbers
    reason = page.why_execute(run, tmp_path / "out.ipynb")
    assert reason and "default engine" in reason
    # --engine cvbook: this run's numbers are stored, so they are shown as they are
    stored = [c for c in run["cells"] if c["metadata"].get("user_expressions")]
    entry = stored[0]["metadata"]["user_expressions"][0]
    entry["result"]["data"]["text/plain"] = "*0.5*_[x]"
    assert page.why_execute(run, tmp_path / "out.ipynb") is None
    # a stored number missing: the chapter runs again, and the tool names the number
    gap = copy.deepcopy(run)
    del [c for c in gap["cells"] if c["metadata"].get("user_expressions")][1]["metadata"][
        "user_expressions"
    ]
    assert "no stored value" in page.why_execute(gap, tmp_path / "out.ipynb")
    page.fill_values(run)
    text = "".join(stored[0]["source"])
    assert "{eval}" not in text and r"\*0.5\*\_\[x\]" in text
    assert page.numbering(run) == {"displaymath": [1, 1], "figure": [1, 1]}
    box = page.provenance_cell(run)["source"]
    assert "| `seed` | `3` | `0` |" in box and "66 s" in box


def test_a_one_chapter_site_numbers_figures_as_the_book() -> None:
    """_ext/cvbook_site.py: with ``cvbook_page_numbering`` (set by tools/page.py), the
    root chapter's figures and equations 1, 2, ... become 5.4, 5.5, ... and (5.1)."""
    import types

    ext = _load_tool("cvbook_site_numbering", ROOT / "_ext" / "cvbook_site.py")
    env = types.SimpleNamespace(
        toc_fignumbers={
            "chapters/x": {
                "figure": {"fig-a": (1,), "fig-b": (2,)},
                "displaymath": {"eq-a": (1,)},
                "table": {"t": (1,)},
            }
        }
    )
    config = types.SimpleNamespace(cvbook_page_numbering={"figure": [5, 4], "displaymath": [5, 1]})
    assert ext._number_as_book(types.SimpleNamespace(config=config), env) == []
    numbers = env.toc_fignumbers["chapters/x"]
    assert numbers["figure"] == {"fig-a": (5, 4), "fig-b": (5, 5)}
    assert numbers["displaymath"] == {"eq-a": (5, 1)} and numbers["table"] == {"t": (5, 1)}
    config.cvbook_page_numbering = {}
    assert ext._number_as_book(types.SimpleNamespace(config=config), env) == []
    assert numbers["figure"] == {"fig-a": (5, 4), "fig-b": (5, 5)}  # the book: untouched
