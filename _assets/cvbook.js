// cvbook: what the reader's hands need from the theme (pydata-sphinx-theme 0.17,
// sphinx-book-theme 1.3) that it does not do. tests/test_site.py checks each at 390 px.

// 1. Every navigation toggle opens its drawer.
// The theme binds its click handlers to the *first* ".primary-toggle" /
// ".secondary-toggle" of the page only (querySelector). On a phone that one is hidden
// and the visible toggles ("Toggle primary sidebar" in the header, "Contents" in the
// article header) did nothing. Each other toggle forwards its click to the first, whose
// handlers then do what the theme intends at that width (open the drawer on a phone,
// fold the sidebar on a desktop). Remove when the theme binds every toggle
// (pydata-sphinx-theme >= 0.18 uses querySelectorAll).
document.addEventListener("DOMContentLoaded", () => {
  for (const kind of ["primary", "secondary"]) {
    const toggles = Array.from(document.querySelectorAll(`.${kind}-toggle`));
    const first = toggles[0];
    for (const toggle of toggles.slice(1)) {
      toggle.addEventListener("click", (event) => {
        event.preventDefault();
        event.stopPropagation();
        first.click();
      });
    }
  }
});

// 2. A drawer closes once the reader has chosen where to go.
// A link of the page's contents (or any link to a place on this page) scrolled the page
// under the open drawer, which stayed open. The drawer now closes, then the page goes to
// the section (after the theme, on closing, has put the focus back on the toggle, which
// would otherwise scroll the page back to it). The toggle's tooltip ("Toggle secondary
// sidebar") then stayed over the toolbar: after a tap or a click the focus leaves the
// toggle and its tooltip is hidden; after Escape the focus stays, for keyboard readers.
document.addEventListener("DOMContentLoaded", () => {
  const hideTooltips = () => {
    const tip = window.bootstrap && window.bootstrap.Tooltip;
    for (const el of document.querySelectorAll('[data-bs-toggle="tooltip"]')) {
      const instance = tip && tip.getInstance(el);
      if (instance) instance.hide();
    }
  };
  for (const dialog of document.querySelectorAll("dialog[id$='-sidebar-modal']")) {
    let byPointer = false;
    dialog.addEventListener("pointerdown", () => {
      byPointer = true;
    });
    dialog.addEventListener("keydown", () => {
      byPointer = false;
    });
    dialog.addEventListener("click", (event) => {
      const link = event.target.closest && event.target.closest("a[href]");
      if (!link || !dialog.open) return;
      const here = new URL(window.location.href);
      const there = new URL(link.href, here);
      if (there.pathname !== here.pathname || !there.hash) return;
      event.preventDefault();
      dialog.close();
      setTimeout(() => {
        const id = decodeURIComponent(there.hash.slice(1));
        const target = document.getElementById(id);
        if (window.location.hash !== there.hash) window.location.hash = there.hash;
        if (target) target.scrollIntoView();
      }, 0);
    });
    dialog.addEventListener("close", () => {
      // after the theme's own "close" handler has given the focus back
      setTimeout(() => {
        const active = document.activeElement;
        if (byPointer && active && active.matches(".sidebar-toggle")) active.blur();
        hideTooltips();
        byPointer = false;
      }, 0);
    });
  }
});

// 3. A box that scrolls sideways says so.
// Display equations, code, tables and outputs wider than a phone's screen scroll inside
// their box; the box's hidden edge fades out (cvbook.css, data-cvbook-scroll), so the
// reader sees that there is more, and the fade leaves once the end is reached.
(() => {
  const boxes = new Set();
  // a few pixels of overhang (an italic letter of inline math) are not "more to read"
  const SLACK = 6;
  // How far the content reaches past the box. MathJax keeps a hidden copy of each formula
  // for screen readers (mjx-assistive-mml), wider than the formula drawn, which inflates
  // scrollWidth: a formula's box is measured by the formula drawn (mjx-math).
  const overflow = (el) => {
    const more = el.scrollWidth - el.clientWidth;
    const math = el.querySelector(":scope > mjx-math, :scope > mjx-container > mjx-math");
    if (!math) return more;
    return Math.min(more, math.getBoundingClientRect().width - el.clientWidth);
  };
  const mark = (el) => {
    const more = overflow(el);
    if (more <= SLACK) {
      el.removeAttribute("data-cvbook-scroll");
      return;
    }
    const left = el.scrollLeft > SLACK;
    const right = el.scrollLeft < more - SLACK;
    el.setAttribute("data-cvbook-scroll", left && right ? "both" : right ? "right" : "left");
  };
  const scan = () => {
    window.cvbookScrollScans = (window.cvbookScrollScans || 0) + 1; // read by the test
    const article = document.querySelector(".bd-article");
    if (!article) return;
    for (const el of article.querySelectorAll("*")) {
      const style = getComputedStyle(el);
      // an inline box (inline math) does not scroll, whatever its overflow says
      if (style.overflowX !== "auto" && style.overflowX !== "scroll") continue;
      if (style.display === "inline") continue;
      if (!boxes.has(el)) {
        boxes.add(el);
        el.addEventListener("scroll", () => mark(el), { passive: true });
      }
      mark(el);
    }
  };
  let pending = null;
  const later = () => {
    clearTimeout(pending);
    pending = setTimeout(scan, 150);
  };
  window.addEventListener("load", () => {
    scan();
    // MathJax typesets after the load event: scan again once it is done
    const start = window.MathJax && window.MathJax.startup;
    if (start && start.promise) start.promise.then(scan);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(scan);
    setTimeout(scan, 2000);
  });
  window.addEventListener("resize", later);
})();

// 4. A figure opens at full size.
// Figures fit the width of the screen (cvbook.css); on a phone that makes their labels
// small. A tap on a figure opens the image itself, at full resolution, to zoom into.
document.addEventListener("DOMContentLoaded", () => {
  for (const img of document.querySelectorAll(".bd-article figure img")) {
    if (img.closest("a")) continue;
    const link = document.createElement("a");
    link.href = img.getAttribute("src");
    link.className = "cvbook-figure-zoom";
    link.title = "Open the figure at full size";
    img.replaceWith(link);
    link.appendChild(img);
  }
});
