// Projector view: show one panel at a time, cycling every 12 seconds; the panels' content is
// refreshed by htmx, so the current panel index is re-applied after every swap.
(function () {
  "use strict";
  var index = 0;
  var paused = false;
  var container = document.getElementById("projector-panels");
  var pause = document.getElementById("projector-pause");

  function show() {
    var panels = container.querySelectorAll(".panel");
    if (!panels.length) { return; }
    index = index % panels.length;
    panels.forEach(function (panel, position) { panel.hidden = position !== index; });
  }

  setInterval(function () {
    if (!paused) { index += 1; show(); }
  }, 12000);
  container.addEventListener("htmx:afterSwap", show);
  pause.addEventListener("click", function () {
    paused = !paused;
    pause.setAttribute("aria-pressed", paused ? "true" : "false");
  });
  show();
})();
