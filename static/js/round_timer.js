// The round timer: counts down from the state the server gives (what is left, running or
// paused) and asks for that state again every few seconds, so a start or a pause made by the
// organiser shows on every open screen. The countdown uses this browser's clock only between
// two reads, so screens whose clocks differ still agree.
(function () {
  "use strict";
  var POLL_MS = 5000;
  var timer = document.getElementById("round-timer");
  if (!timer) { return; }
  var clock = timer.querySelector(".round-timer-clock");
  var stateLabel = timer.querySelector(".round-timer-state");
  var running = timer.dataset.running === "true";
  var deadline = Date.now() + Number(timer.dataset.remaining) * 1000;
  var remaining = Number(timer.dataset.remaining);

  function pad(number) { return number < 10 ? "0" + number : String(number); }

  function format(seconds) {
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    return hours + ":" + pad(minutes) + ":" + pad(seconds % 60);
  }

  function render() {
    var left = running ? Math.max(0, Math.ceil((deadline - Date.now()) / 1000)) : remaining;
    var isRunning = running && left > 0;
    clock.textContent = format(left);
    timer.classList.toggle("running", isRunning);
    timer.classList.toggle("finished", left === 0);
    stateLabel.textContent = isRunning ? timer.dataset.runningLabel
      : left === 0 ? timer.dataset.finishedLabel : timer.dataset.pausedLabel;
  }

  function apply(state) {
    running = state.running;
    remaining = state.remaining;
    deadline = Date.now() + state.remaining * 1000;
    render();
  }

  function poll() {
    fetch(timer.dataset.stateUrl, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) { if (state) { apply(state); } })
      .catch(function () { /* keep counting; the next read catches up */ });
  }

  setInterval(render, 1000);
  setInterval(poll, POLL_MS);
  render();
  poll();  // the page may come from the cache, its state up to a minute old
})();
