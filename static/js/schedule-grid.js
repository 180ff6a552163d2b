// Schedule grid: drag a session onto a cell to place it there. Dropping only fills the
// cell's own form (the same one a tap submits) and sends it, so the page works the same
// without JavaScript; the server checks clashes either way.
(function () {
  "use strict";
  var chips = document.querySelectorAll("[data-session]");
  var cells = document.querySelectorAll("[data-drop]");
  if (!chips.length || !cells.length) { return; }
  chips.forEach(function (chip) {
    chip.addEventListener("dragstart", function (event) {
      event.dataTransfer.setData("text/plain", chip.getAttribute("data-session"));
      event.dataTransfer.effectAllowed = "move";
    });
  });
  cells.forEach(function (cell) {
    cell.addEventListener("dragover", function (event) {
      event.preventDefault();
      cell.classList.add("drop-target");
    });
    cell.addEventListener("dragleave", function () {
      cell.classList.remove("drop-target");
    });
    cell.addEventListener("drop", function (event) {
      event.preventDefault();
      cell.classList.remove("drop-target");
      var form = cell.querySelector("form");
      var session = event.dataTransfer.getData("text/plain");
      if (!form || !session) { return; }
      form.elements.session.value = session;
      form.requestSubmit();
    });
  });
})();
