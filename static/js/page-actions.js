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

// A confirmation's button takes no tap for a moment after it appears, so a double tap does
// not confirm at once: window.bobSettle(button) (the board's own questions use it too,
// static/js/board-play.js). The button stays focusable meanwhile (aria-disabled, not
// disabled, which would drop a keyboard's focus); a click on it, or Enter, is ignored.
(function () {
  "use strict";
  var SETTLE_MS = 600;

  window.bobSettle = function (button) {
    button.setAttribute("aria-disabled", "true");
    setTimeout(function () { button.removeAttribute("aria-disabled"); }, SETTLE_MS);
  };

  document.addEventListener("click", function (event) {
    var waiting = event.target.closest && event.target.closest('button[aria-disabled="true"]');
    if (waiting) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
})();

// A form marked data-confirm asks before it is sent, for what cannot simply be taken back
// (the board's undo, a marine leaving play through a docking claw): the first tap holds
// the form, says data-confirm above its button (which describes the button) and turns the
// button into the confirmation (data-confirm-label, styled as the dangerous choice), with a
// button beside it that keeps things as they are (data-confirm-cancel) and gives the focus
// back to the first button, or to the field named by data-confirm-refocus (the typed
// move's square, to be typed again); the second tap sends it, once. One form asks at a time.
// Changing the form, or the game under it (bob:board-refreshed), asks again. Without
// JavaScript the form is sent at once.
(function () {
  "use strict";
  var asked = 0;  // numbers the questions' ids

  function disarm(form) {
    if (!form.hasAttribute("data-confirm-armed")) { return null; }
    form.removeAttribute("data-confirm-armed");
    var button = form.querySelector("[data-confirm-was]");
    var choices = form.querySelector(".confirm-choices");
    var focused = choices && choices.contains(document.activeElement);
    if (button && choices) { choices.parentNode.insertBefore(button, choices); }
    form.querySelectorAll(".confirm-ask, .confirm-choices").forEach(function (part) {
      part.remove();
    });
    if (!button) { return null; }
    button.textContent = button.getAttribute("data-confirm-was");
    button.className = button.getAttribute("data-confirm-class");
    ["data-confirm-was", "data-confirm-class", "aria-describedby", "aria-disabled"].forEach(
      function (name) { button.removeAttribute(name); }
    );
    button.disabled = false;
    if (focused) { button.focus(); }
    return button;
  }

  function disarmAll() {
    document.querySelectorAll("form[data-confirm-armed]").forEach(disarm);
  }

  function arm(form, button) {
    disarmAll();  // one question at a time
    form.setAttribute("data-confirm-armed", "");
    var focused = document.activeElement === button;
    var ask = document.createElement("p");
    ask.className = "confirm-ask";
    ask.id = "confirm-ask-" + (asked += 1);
    ask.setAttribute("role", "alert");
    ask.textContent = form.getAttribute("data-confirm");
    var choices = document.createElement("div");
    choices.className = "confirm-choices";
    button.parentNode.insertBefore(ask, button);
    button.parentNode.insertBefore(choices, button);
    choices.appendChild(button);  // moved: it loses the focus, given back below
    var keep = document.createElement("button");
    keep.type = "button";
    keep.className = "secondary";
    keep.setAttribute("data-confirm-keep", "");
    keep.textContent = form.getAttribute("data-confirm-cancel");
    choices.appendChild(keep);
    button.setAttribute("data-confirm-was", button.textContent);
    button.setAttribute("data-confirm-class", button.className);
    button.classList.remove("secondary");
    button.classList.add("danger");
    button.textContent = form.getAttribute("data-confirm-label") || button.textContent;
    button.setAttribute("aria-describedby", ask.id);
    window.bobSettle(button);
    if (focused) { button.focus(); }
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute("data-confirm")) { return; }
    if (form.hasAttribute("data-confirm-armed")) {
      // Confirmed: sent once. Neither choice takes a tap again, once the form has read its
      // fields (a button disabled during this event would be left out of them).
      setTimeout(function () {
        form.querySelectorAll(".confirm-choices button").forEach(function (button) {
          button.disabled = true;
        });
      });
      return;
    }
    var button = event.submitter || form.querySelector("button[type=submit], button:not([type])");
    if (!button) { return; }
    event.preventDefault();
    arm(form, button);
  });

  document.addEventListener("click", function (event) {
    var keep = event.target.closest && event.target.closest("[data-confirm-keep]");
    if (!keep) { return; }
    var form = keep.form;
    var button = disarm(form);
    var field = document.getElementById(form.getAttribute("data-confirm-refocus") || "");
    if (field) { field.focus(); } else if (button) { button.focus(); }
  });

  ["input", "change"].forEach(function (kind) {
    document.addEventListener(kind, function (event) {
      var form = event.target.form;
      if (form) { disarm(form); }
    });
  });

  document.addEventListener("bob:board-refreshed", disarmAll);
  // A page brought back by the browser's Back button asks again, its buttons enabled.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { disarmAll(); }
  });
})();

// A request sent from the page without leaving it (htmx, the board's panels) that gets no
// answer, or an error the page cannot show in place, is said in a notice at the foot of
// the screen (#request-failed, texts from the template in the reader's language): without
// it a tap at the venue on a failing connection did nothing visible. A page's own polling
// (hx-trigger "every …", the board following the game) that gets no answer says the page
// may be out of date instead. The next request that succeeds takes the notice away.
// window.bobRequestFailed(status, polled) says it (status 0: no answer) for the scripts
// that send their own requests.
(function () {
  "use strict";
  var notice = document.getElementById("request-failed");
  if (!notice) { return; }

  function say(status, polled) {
    var template = status === 0 ? (polled ? notice.dataset.stale : notice.dataset.offline)
      : status >= 500 ? notice.dataset.server : notice.dataset.refused;
    notice.querySelector("p").textContent = template.replace("{status}", String(status));
    notice.hidden = false;
  }

  window.bobRequestFailed = say;
  window.bobRequestAnswered = function () { notice.hidden = true; };

  function polled(event) {
    return /\bevery\b/.test(event.detail.elt.getAttribute("hx-trigger") || "");
  }

  document.addEventListener("htmx:sendError", function (event) { say(0, polled(event)); });
  document.addEventListener("htmx:timeout", function (event) { say(0, polled(event)); });
  document.addEventListener("htmx:responseError", function (event) {
    say(event.detail.xhr.status);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) { notice.hidden = true; }
  });
  notice.querySelector("[data-dismiss]").addEventListener("click", function () {
    notice.hidden = true;
  });
})();
