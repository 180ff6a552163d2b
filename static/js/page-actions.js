// Small page behaviours kept out of the HTML (the Content-Security-Policy allows no inline
// script): a [data-print] button prints the page; a form reloaded with errors brings the
// reader back to it, focusing the field named by data-focus-on-load or scrolling to a form
// marked data-scroll-on-load.
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-print]");
    if (button) { window.print(); }
  });

  function bringBack() {
    var focus = document.querySelector("[data-focus-on-load]");
    if (focus) {
      var field = document.getElementById(focus.getAttribute("data-focus-on-load"));
      if (field) { field.focus(); return; }
    }
    var form = document.querySelector("[data-scroll-on-load]");
    if (form) { form.scrollIntoView(); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", bringBack);
  } else {
    bringBack();
  }
})();
