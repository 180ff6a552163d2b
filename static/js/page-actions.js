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

// A field typed in before htmx took over the page (a quick hand, a slow connection at the
// venue) sent its input event to no one: once htmx listens, that event is sent again, so a
// live preview or check follows what the field already holds.
(function () {
  "use strict";

  function edited(field) {
    if (field.type === "checkbox" || field.type === "radio") {
      return field.checked !== field.defaultChecked;
    }
    if (field.tagName === "SELECT") {
      return Array.prototype.some.call(field.options, function (option) {
        return option.selected !== option.defaultSelected;
      });
    }
    return field.value !== field.defaultValue;
  }

  function replayEarlyInput() {
    if (!window.htmx) { return; }
    document.querySelectorAll("[hx-trigger]").forEach(function (owner) {
      var fields = owner.querySelectorAll("input:not([type=hidden]), select, textarea");
      var field = Array.prototype.find.call(fields, edited);
      if (field) { field.dispatchEvent(new Event("input", { bubbles: true })); }
    });
  }

  // htmx (an earlier deferred script) takes over the page on DOMContentLoaded: this
  // listener, added after its own, runs once it has.
  if (document.readyState === "complete") {
    replayEarlyInput();
  } else {
    document.addEventListener("DOMContentLoaded", replayEarlyInput);
  }
})();
