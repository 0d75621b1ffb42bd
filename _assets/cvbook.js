// cvbook: every navigation toggle opens its drawer.
// pydata-sphinx-theme 0.17 and sphinx-book-theme 1.3 bind their click handlers to the
// *first* ".primary-toggle" / ".secondary-toggle" of the page only (querySelector). On a
// phone that one is hidden and the visible toggles ("Toggle primary sidebar" in the
// header, "Contents" in the article header) did nothing. Each other toggle forwards its
// click to the first, whose handlers then do what the theme intends at that width (open
// the drawer on a phone, fold the sidebar on a desktop). Remove when the theme binds
// every toggle (pydata-sphinx-theme >= 0.18 uses querySelectorAll).
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
