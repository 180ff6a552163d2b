// Stage form: show only the parameter group of the chosen stipulation type. Without
// JavaScript every group stays visible and only the chosen type's fields are used.
(function () {
  "use strict";
  var select = document.getElementById("id_stipulation_kind");
  if (!select) { return; }
  function update() {
    document.querySelectorAll("[data-stipulation]").forEach(function (group) {
      var kinds = group.getAttribute("data-stipulation").split(" ");
      group.hidden = select.value !== "" && kinds.indexOf(select.value) === -1;
    });
  }
  select.addEventListener("change", update);
  update();
})();
