// Wide tables scroll sideways inside their .table-wrap box on a phone. A keyboard user can
// only scroll a box that takes focus (WCAG 2.1.1), so every box that does scroll becomes a
// focusable, named region (named by the table's caption or the nearest heading before it);
// a box that fits again loses the extra tab stop. Each box is re-checked whenever its size
// changes (window resized, panel shown) and after every htmx swap.
(function () {
  "use strict";
  var counter = 0;

  function nearestHeading(element) {
    for (var node = element; node && node !== document.body; node = node.parentElement) {
      for (var sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
        if (/^H[1-6]$/.test(sibling.tagName)) { return sibling; }
        var inner = sibling.querySelectorAll("h1, h2, h3, h4, h5, h6");
        if (inner.length) { return inner[inner.length - 1]; }
      }
    }
    return null;
  }

  function name(wrap) {
    if (wrap.hasAttribute("aria-label") || wrap.hasAttribute("aria-labelledby")) { return; }
    var label = wrap.querySelector("caption") || nearestHeading(wrap);
    if (!label) { return; }
    if (!label.id) { counter += 1; label.id = "scroll-region-label-" + counter; }
    wrap.setAttribute("aria-labelledby", label.id);
  }

  function check(wrap) {
    if (wrap.scrollWidth > wrap.clientWidth + 1) {
      name(wrap);
      wrap.setAttribute("role", "region");
      wrap.tabIndex = 0;
      wrap.dataset.scrollRegion = "on";
    } else if (wrap.dataset.scrollRegion === "on") {
      delete wrap.dataset.scrollRegion;
      wrap.removeAttribute("role");
      wrap.removeAttribute("tabindex");
    }
  }

  var observer = new ResizeObserver(function (entries) {
    entries.forEach(function (entry) { check(entry.target); });
  });

  function scan() {
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      observer.observe(wrap);
      check(wrap);
    });
  }

  document.addEventListener("htmx:afterSettle", scan);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", scan);
  } else {
    scan();
  }
})();
