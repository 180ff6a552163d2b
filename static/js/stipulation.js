// Stipulation forms (stage, session): show only the parameter groups of the chosen type,
// and none until a type is chosen (a line then says to choose one). Without JavaScript
// every group stays visible under a line saying that only the chosen type's are used.
(function () {
  "use strict";
  var select = document.getElementById("id_stipulation_kind");
  if (!select) { return; }
  var allHelp = document.querySelector("[data-stipulation-help='all']");
  var chooseHelp = document.querySelector("[data-stipulation-help='none']");
  function update() {
    document.querySelectorAll("[data-stipulation]").forEach(function (group) {
      var kinds = group.getAttribute("data-stipulation").split(" ");
      group.hidden = kinds.indexOf(select.value) === -1;
    });
    if (allHelp) { allHelp.hidden = true; }
    if (chooseHelp) { chooseHelp.hidden = select.value !== ""; }
  }
  select.addEventListener("change", update);
  update();
})();
