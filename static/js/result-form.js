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

// "Points each" of an alien-token row takes the tournament's value of the chosen alien (the
// section's data-token-values), unless the judge typed another one. Without the script the
// form fills an empty value the same way when it is saved.
(function () {
  "use strict";

  function prefill(event) {
    var select = event.target;
    if (!select.name || !/-type$/.test(select.name)) {
      return;
    }
    var section = select.closest("[data-token-values]");
    var input = section && section.querySelector(
      'input[name="' + select.name.replace(/-type$/, "-value") + '"]'
    );
    if (!input) {
      return;
    }
    var values = JSON.parse(section.getAttribute("data-token-values"));
    if (input.value === "" || input.getAttribute("data-prefilled") === input.value) {
      var value = values[select.value] === undefined ? "" : String(values[select.value]);
      input.value = value;
      input.setAttribute("data-prefilled", value);
    }
  }

  document.addEventListener("change", prefill);
})();
