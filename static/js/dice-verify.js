// Dice page, "verify": hash the seed and roll the recorded dice again in the browser, as
// the app's seeded dice do (rules/engine/dice.py, SeededDice): the bytes of
// SHA-256("<seed>:<counter>") for counter 0, 1, 2..., each die taking the next byte below
// the rejection limit of its number of faces. SHA-256 is written out here because
// crypto.subtle is missing on pages served over plain http at a venue.
(function () {
  "use strict";
  var form = document.getElementById("dice-verify");
  if (!form) { return; }

  var K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  ];

  function rotr(x, n) { return (x >>> n) | (x << (32 - n)); }

  // SHA-256 of an ASCII text, as an array of 32 byte values.
  function sha256(text) {
    var bytes = [];
    for (var i = 0; i < text.length; i++) { bytes.push(text.charCodeAt(i) & 0xff); }
    var bitLength = bytes.length * 8;
    bytes.push(0x80);
    while (bytes.length % 64 !== 56) { bytes.push(0); }
    for (var shift = 56; shift >= 0; shift -= 8) {
      bytes.push(shift >= 32 ? Math.floor(bitLength / Math.pow(2, shift)) & 0xff : (bitLength >>> shift) & 0xff);
    }
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var w = new Array(64);
    for (var offset = 0; offset < bytes.length; offset += 64) {
      for (var t = 0; t < 16; t++) {
        var p = offset + t * 4;
        w[t] = ((bytes[p] << 24) | (bytes[p + 1] << 16) | (bytes[p + 2] << 8) | bytes[p + 3]) >>> 0;
      }
      for (t = 16; t < 64; t++) {
        var s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
        var s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) >>> 0;
      }
      var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
      for (t = 0; t < 64; t++) {
        var S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        var ch = (e & f) ^ (~e & g);
        var temp1 = (k + S1 + ch + K[t] + w[t]) >>> 0;
        var S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        var maj = (a & b) ^ (a & c) ^ (b & c);
        var temp2 = (S0 + maj) >>> 0;
        k = g; g = f; f = e; e = (d + temp1) >>> 0;
        d = c; c = b; b = a; a = (temp1 + temp2) >>> 0;
      }
      h = [(h[0] + a) >>> 0, (h[1] + b) >>> 0, (h[2] + c) >>> 0, (h[3] + d) >>> 0,
           (h[4] + e) >>> 0, (h[5] + f) >>> 0, (h[6] + g) >>> 0, (h[7] + k) >>> 0];
    }
    var digest = [];
    h.forEach(function (word) {
      digest.push(word >>> 24, (word >>> 16) & 0xff, (word >>> 8) & 0xff, word & 0xff);
    });
    return digest;
  }

  function hex(digest) {
    return digest.map(function (value) { return (value < 16 ? "0" : "") + value.toString(16); }).join("");
  }

  var FACES = {
    d3: [1, 1, 2, 2, 3, 3],
    d6: [1, 2, 3, 4, 5, 6],
    d12: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    white: [0, 0, 0, 0, 1, 2],
    red: [0, 0, 0, 1, 2, 3]
  };

  function SeededDice(seed) {
    var counter = 0;
    var pool = [];
    function below(n) {
      var limit = 256 - (256 % n);
      for (;;) {
        if (!pool.length) { pool = sha256(seed + ":" + counter); counter += 1; }
        var value = pool.shift();
        if (value < limit) { return value % n; }
      }
    }
    return {
      roll: function (kind, count) {
        var faces = FACES[kind];
        var values = [];
        for (var i = 0; i < count; i++) { values.push(faces[below(faces.length)]); }
        return values;
      }
    };
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var status = document.getElementById("verify-result");
    var text = form.elements.seed.value.trim();
    if (!/^-?\d+$/.test(text)) { status.textContent = status.getAttribute("data-bad-seed"); return; }
    var seed = text.replace(/^(-?)0+(?=\d)/, "$1");
    var hashOk = hex(sha256(seed)) === form.getAttribute("data-commitment");
    var dice = SeededDice(seed);
    var rollsOk = true;
    document.querySelectorAll("#verify-rolls tbody tr").forEach(function (row) {
      var recorded = row.getAttribute("data-values").split(" ").map(Number);
      var replayed = dice.roll(row.getAttribute("data-kind"), recorded.length);
      var same = replayed.join(" ") === recorded.join(" ");
      rollsOk = rollsOk && same;
      var cell = row.querySelector("[data-replayed]");
      cell.textContent = replayed.join(" ") + (same ? " ✓" : " ✗");
      row.classList.toggle("differs", !same);
    });
    status.textContent = status.getAttribute(
      !hashOk ? "data-bad-hash" : (rollsOk ? "data-ok" : "data-bad-roll"));
    status.classList.toggle("verified", hashOk && rollsOk);
  });
  // The button waits for this script: a tap before it would send the form to the server,
  // which replays nothing.
  form.querySelector("button[type=submit]").disabled = false;
})();
