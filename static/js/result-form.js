// The judge's result form: the live-points line sticks to the bottom of a wide window. CSS
// (scroll-padding) keeps a field focused by Tab above it; this keeps any focused control
// above it too, whatever moved the focus (a script, a click near the bottom edge), so the
// line never covers what the judge is typing in (WCAG 2.4.11).
(function () {
  "use strict";

  function uncover(event) {
    var bar = document.getElementById("live-bar");
    var target = event.target;
    if (!bar || !target || bar.contains(target) || getComputedStyle(bar).position !== "sticky") {
      return;
    }
    var box = target.getBoundingClientRect();
    var line = bar.getBoundingClientRect();
    if (box.bottom > line.top && box.top < line.bottom) {
      window.scrollBy(0, box.bottom - line.top + 8);
    }
  }

  document.addEventListener("focusin", uncover);
})();
