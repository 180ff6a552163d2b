// Copy buttons (the organiser's players: each private link; a player's calendar feed). A
// button[data-copy] copies the text of the element whose id it names; the buttons are
// hidden in the HTML and shown here, so without JavaScript there is none that does
// nothing, and the text itself can still be selected (one tap selects it whole:
// .private-link). Where the browser refuses to write to the clipboard (a page served over
// plain http on the venue's network), the text is selected instead, for the device's own
// Copy. The words shown come from the closest data-copied and data-copy-failed (translated
// by the page); #copy-status says them to screen readers.
(function () {
  "use strict";
  var buttons = document.querySelectorAll("button[data-copy]");
  if (!buttons.length) { return; }
  buttons.forEach(function (button) { button.hidden = false; });
  var status = document.getElementById("copy-status");

  function select(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copyBySelecting(node) {
    select(node);
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  function tell(button, key) {
    var holder = button.closest("[data-copied]");
    var words = holder ? holder.getAttribute(key) : "";
    if (!words) { return; }
    if (!button.hasAttribute("data-label")) {
      button.setAttribute("data-label", button.textContent);
    }
    button.textContent = words;
    if (status) { status.textContent = words; }
    window.clearTimeout(button.copyTimer);
    button.copyTimer = window.setTimeout(function () {
      button.textContent = button.getAttribute("data-label");
      if (status) { status.textContent = ""; }
    }, 4000);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) { return; }
    var node = document.getElementById(button.getAttribute("data-copy"));
    if (!node) { return; }
    var text = node.textContent.trim();
    function copied() { tell(button, "data-copied"); }
    function fallBack() {
      if (copyBySelecting(node)) {
        copied();
      } else {
        select(node);
        tell(button, "data-copy-failed");
      }
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(copied, fallBack);
    } else {
      fallBack();
    }
  });
})();
