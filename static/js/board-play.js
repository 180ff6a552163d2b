// The touch board (table/board.html) and the spectators' view (table/watch.html).
//
// Live: every view of a game polls its stamp (table:stamp) and, when it changed, fetches
// again each part marked data-live-url (the board, the log) and brings the forms' version
// fields up to the new step.
// Play (the judge's page only): tap a marine and the squares it may reach light up (from
// the engine, table:reachable); tap one and the move form below is filled and sent. Attack
// lights the legal targets with the exact chance to destroy them (table:targets); tapping
// one lists its attacks, and choosing one opens the attack form with it chosen. The closed
// doors a selected marine stands in front of light up too; tapping one (or Enter on it)
// fills and sends the open-a-door form. A crewed Tarantula's lit squares are where its
// front may end; a square it may face several ways there lists them as buttons. The
// special-equipment actions a selected marine (or vehicle) may take now (board, leave,
// pick up) are buttons too, each filling and sending the special-equipment form. A move
// that ends on a docking claw takes the marine out of play: the judge confirms it first,
// tapped or typed. An attack's own figures in the way (a blast's friendly fire) are
// outlined on their squares. Line of sight: tap where from, then what. Arrow keys move a
// cursor over the board, Enter or Space taps the square under it, Escape cancels. The
// banner above the tools says what the last step did (the server's, fetched again with the
// board); the status line below them says what to do next, or answers the last tap. The
// coordinate rulers of a zoomed board stay in sight as it scrolls. A refused step's answer
// puts the board's address back in the address bar. Without JavaScript the forms do all
// of it. Once the session's result is saved (#play[data-closed]) the board is followed only.
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var POLL_MS = 2500;
  var ZOOMS = 4;
  // The board's width at each zoom step, as bob.css sets it (100%, 150%, 220%, 320%).
  var ZOOM_WIDTHS = [1, 1.5, 2.2, 3.2];
  // On a touch screen no zoom step shows squares smaller than a fingertip's minimum target.
  var MIN_SQUARE_PX = 24;
  // A fingertip's comfortable target (WCAG 2.5.5), for the lit doors' tap targets.
  var FINGERTIP_PX = 44;

  function text(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_all, key) {
      return values[key] === undefined ? "" : String(values[key]);
    });
  }

  // A request of the board's own that got no answer (status 0) or a server error, said at
  // the foot of the screen (static/js/page-actions.js); one answered takes that away.
  function failed(status, polled) {
    if (window.bobRequestFailed) { window.bobRequestFailed(status, polled); }
    throw new Error("request failed: " + status);
  }

  function answered() {
    if (window.bobRequestAnswered) { window.bobRequestAnswered(); }
  }

  // Fetch an htmx partial and put each of its elements in place of the page's element with
  // the same id (also on a 4xx answer: a form with its errors is a partial too); answer the
  // new element of id ``id``. Without an answer, or on a server error, nothing is replaced
  // and the promise is rejected, once the failure is said (``polled``: asked by the page
  // following the game, not by a tap).
  function swap(url, id, polled) {
    return fetch(url, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "HX-Request": "true" },
    }).then(function (response) {
      if (response.status >= 500) { failed(response.status); }
      answered();
      return response.text().then(function (html) {
        var parts = document.createElement("template");
        parts.innerHTML = html;
        Array.prototype.slice.call(parts.content.children).forEach(function (part) {
          var old = part.id && document.getElementById(part.id);
          if (!old) { return; }
          old.replaceWith(part);
          if (window.htmx) { window.htmx.process(part); }
        });
        return document.getElementById(id);
      });
    }, function () { failed(0, polled); });
  }

  // --- live updates ----------------------------------------------------------------------

  function refresh(step) {
    var parts = Array.prototype.slice.call(document.querySelectorAll("[data-live-url]"));
    return Promise.all(parts.map(function (part) {
      return swap(part.getAttribute("data-live-url"), part.id, true);
    })).then(function () {
      var versions = document.querySelectorAll('input[name="version"], input[name$="-version"]');
      versions.forEach(function (input) { input.value = step; });
      document.querySelectorAll(".undo-last input[name='number']").forEach(function (input) {
        input.value = step - 1;
      });
      document.dispatchEvent(new CustomEvent("bob:board-refreshed", { detail: { step: step } }));
    });
  }

  function follow(root) {
    var url = root.getAttribute("data-stamp-url");
    var busy = false;
    setInterval(function () {
      if (busy || document.hidden) { return; }
      busy = true;
      fetch(url, { credentials: "same-origin", cache: "no-store" })
        .then(function (response) {
          if (response.status >= 500) { failed(response.status); }
          answered();
          return response.ok ? response.json() : null;
        }, function () { failed(0, true); })
        .then(function (data) {
          if (!data || data.stamp === root.getAttribute("data-stamp")) { return null; }
          root.setAttribute("data-stamp", data.stamp);
          return refresh(data.step);
        })
        .catch(function () { return null; })
        .then(function () { busy = false; });
    }, POLL_MS);
  }

  // --- the touch board -------------------------------------------------------------------

  function board(play) {
    var tools = play.querySelector(".play-tools");
    var scroller = play.querySelector(".board-scroll");
    var status = document.getElementById("play-status");
    var options = document.getElementById("play-options");
    var note = play.querySelector(".play-moves");
    var attackButton = tools.querySelector('[data-play="attack"]');
    var sightButton = tools.querySelector('[data-play="sight"]');
    var texts = tools.dataset;
    var state = {
      figure: null, reach: {}, facings: {}, mode: "move", targets: {}, from: null, cursor: null,
      friendly: {}, agreed: null, permits: {}, permitted: null,
    };

    tools.hidden = false;
    scroller.tabIndex = 0;

    function svg() { return scroller.querySelector("svg.board"); }
    function grid() {
      var data = svg().dataset;
      return { cell: +data.cell, margin: +data.margin, columns: +data.columns, rows: +data.rows };
    }
    // A group the script draws in, under the coordinate rulers (drawn over everything).
    function layer(name) {
      var picture = svg();
      var group = picture.querySelector("g." + name);
      if (!group) {
        group = document.createElementNS(SVGNS, "g");
        group.setAttribute("class", name);
        picture.insertBefore(group, picture.querySelector("g.ruler"));
      }
      return group;
    }
    function say(message) {
      status.textContent = message || "";
      status.hidden = !message;
    }
    function mark(square, kind, label) {
      var g = grid();
      var rect = document.createElementNS(SVGNS, "rect");
      rect.setAttribute("x", g.margin + square[0] * g.cell + 1.5);
      rect.setAttribute("y", g.margin + square[1] * g.cell + 1.5);
      rect.setAttribute("width", g.cell - 3);
      rect.setAttribute("height", g.cell - 3);
      rect.setAttribute("class", "mark mark-" + kind);
      rect.setAttribute("data-mark", square.join(","));
      layer("play-marks").appendChild(rect);
      if (label !== undefined) {
        var caption = document.createElementNS(SVGNS, "text");
        caption.setAttribute("x", g.margin + square[0] * g.cell + g.cell - 3);
        caption.setAttribute("y", g.margin + square[1] * g.cell + 8);
        caption.setAttribute("class", "mark-label mark-label-" + kind);
        caption.setAttribute("text-anchor", "end");
        caption.textContent = label;
        layer("play-marks").appendChild(caption);
      }
    }
    // A bar centred on (cx, cy), ``long`` along the edge and ``thick`` across it.
    function bar(cx, cy, across, long, thick, kind) {
      var rect = document.createElementNS(SVGNS, "rect");
      rect.setAttribute("x", cx - (across ? long : thick) / 2);
      rect.setAttribute("y", cy - (across ? thick : long) / 2);
      rect.setAttribute("width", across ? long : thick);
      rect.setAttribute("height", across ? thick : long);
      rect.setAttribute("class", kind);
      return rect;
    }
    // A lit door: a bar across the edge between its two squares, inside a button focusable
    // for the keyboard whose unseen target takes a fingertip's tap (the bar alone was 17 px
    // wide on a phone): at least a square long and 45% of a square into each side, and as
    // long and deep as a fingertip's 44 px where the squares are smaller (a phone's zoom),
    // but never more than a square into a side, and only as far as the bar into a square
    // lit as a move: a tap there moves the marine through the door, which the move opens.
    function markDoor(between) {
      var g = grid();
      var a = between[0];
      var b = between[1];
      var across = a[0] === b[0];  // the door lies along a row edge: a horizontal bar
      var cx = g.margin + (Math.min(a[0], b[0]) + (across ? 0.5 : 1)) * g.cell;
      var cy = g.margin + (Math.min(a[1], b[1]) + (across ? 1 : 0.5)) * g.cell;
      var low = a[across ? 1 : 0] < b[across ? 1 : 0] ? a : b;  // the square above or left
      var high = low === a ? b : a;
      var tip = fingertip();
      var edge = g.cell * 0.2;
      var lit = function (square) { return state.reach[square.join(",")] !== undefined; };
      var reach = function (square, other) {
        if (lit(square)) { return edge; }
        var wanted = lit(other) ? tip - edge : tip / 2;
        return Math.min(g.cell, Math.max(g.cell * 0.45, wanted));
      };
      var before = reach(low, high);
      var after = reach(high, low);
      var button = document.createElementNS(SVGNS, "g");
      var door = a.join(",") + " " + b.join(",");
      button.setAttribute("class", "mark-door-button");
      button.setAttribute("data-door", door);
      button.setAttribute("tabindex", "0");
      button.setAttribute("role", "button");
      button.setAttribute("aria-label", text(texts.tDoor, { a: a.join(","), b: b.join(",") }));
      var shift = (after - before) / 2;
      button.appendChild(bar(cx + (across ? 0 : shift), cy + (across ? shift : 0), across,
        Math.max(g.cell, tip), before + after, "mark-door-target"));
      button.appendChild(bar(cx, cy, across, g.cell * 0.9, g.cell * 0.4, "mark mark-door"));
      layer("play-doors").appendChild(button);
    }
    function openDoor(door) {
      var form = document.getElementById("open-door");
      form.querySelector('[name="door-figure"]').value = state.figure;
      form.querySelector('[name="door-door"]').value = door;
      var ends = door.split(" ");
      say(text(texts.tOpening, { figure: nameOf(state.figure), a: ends[0], b: ends[1] }));
      form.requestSubmit();
    }
    function unmark() {
      layer("play-marks").textContent = "";
      layer("play-doors").textContent = "";
      options.textContent = "";
    }
    function drawCursor() {
      var group = layer("play-cursor");
      group.textContent = "";
      if (!state.cursor) { return; }
      var g = grid();
      var rect = document.createElementNS(SVGNS, "rect");
      rect.setAttribute("x", g.margin + state.cursor[0] * g.cell + 0.5);
      rect.setAttribute("y", g.margin + state.cursor[1] * g.cell + 0.5);
      rect.setAttribute("width", g.cell - 1);
      rect.setAttribute("height", g.cell - 1);
      rect.setAttribute("class", "cursor");
      group.appendChild(rect);
      if (rect.scrollIntoView) { rect.scrollIntoView({ block: "nearest", inline: "nearest" }); }
    }
    function setMode(mode) {
      state.mode = mode;
      sightButton.setAttribute("aria-pressed", mode === "sight" ? "true" : "false");
      attackButton.setAttribute("aria-pressed", mode === "attack" ? "true" : "false");
    }
    // What to do next, as the server says it with the last step (never repeating it).
    function hint() {
      var outcome = document.getElementById("step-outcome");
      return outcome ? outcome.getAttribute("data-hint") || "" : "";
    }
    function cancel(message) {
      state.figure = null;
      state.reach = {};
      state.facings = {};
      state.targets = {};
      state.friendly = {};
      state.agreed = null;
      state.permits = {};
      state.permitted = null;
      state.from = null;
      setMode("move");
      attackButton.disabled = true;
      note.hidden = true;
      unmark();
      say(message === undefined ? hint() : message);
    }
    function getJson(url) {
      return fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
        return r.json();
      });
    }
    function figureAt(square, target) {
      var found = target && target.closest ? target.closest("g.figure") : null;
      return found || svg().querySelector('g.figure[data-square="' + square.join(",") + '"]');
    }
    // What the texts call a figure: the name the step log gives it (``data-name``).
    function nameOf(id) {
      var found = id && svg().querySelector('g.figure[data-figure="' + id + '"]');
      return (found && found.getAttribute("data-name")) || id;
    }

    function select(figure) {
      cancel("");
      state.figure = figure;
      var url = play.dataset.reachableUrl + "?figure=" + encodeURIComponent(figure);
      return getJson(url).then(function (data) {
        if (data.error) { say(data.error); return; }
        state.left = data.moves_left;
        state.refusal = data.refusal;
        mark(data.from, "selected");
        data.squares.forEach(function (entry) {
          var key = entry.square.join(",");
          state.reach[key] = entry.steps;
          if (entry.facings) { state.facings[key] = entry.facings; }
          // Reached only through other players' figures: lit apart, asked before it moves.
          if (entry.permission !== undefined) { state.permits[key] = entry.permission; }
          var kind = entry.permission !== undefined ? "permit" : "reach";
          mark(entry.square, kind, entry.facings ? entry.facings.join("") : String(entry.steps));
        });
        (data.doors || []).forEach(function (door) { markDoor(door.between); });
        equipmentButtons(data.equipment || []);
        attackButton.disabled = false;
        note.hidden = false;
        state.cursor = state.cursor || data.from;
        var said = data.squares.length ? text(texts.tSelected, { figure: nameOf(figure) })
          : refused(data.refusal) || text(texts.tStuck, { figure: nameOf(figure) });
        if (data.doors && data.doors.length) { said += " " + texts.tDoors; }
        if (Object.keys(state.permits).length) { said += " " + texts.tPermits; }
        say(data.equipment && data.equipment.length ? said + " " + texts.tEquipment : said);
      });
    }

    // The engine's refusal of a move, and what the judge may do instead.
    function refused(refusal) {
      if (!refusal) { return ""; }
      var stop = /[.!?]$/.test(refusal) ? " " : ". ";  // the engine's ends on "(rule: ...)"
      return (refusal + stop + (texts.tRefusedNext || "")).trim();
    }

    function equipmentButtons(actions) {
      actions.forEach(function (action) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "secondary";
        button.setAttribute("data-equipment", action.action);
        button.setAttribute("data-equipment-figure", action.figure);
        button.setAttribute("data-equipment-vehicle", action.vehicle || "");
        button.setAttribute("data-equipment-square", action.square || "");
        button.textContent = action.label;
        options.appendChild(button);
      });
    }

    function useEquipment(button) {
      var form = document.getElementById("equipment");
      form.querySelector('[name="equip-figure"]').value = button.getAttribute("data-equipment-figure");
      form.querySelector('[name="equip-action"]').value = button.getAttribute("data-equipment");
      form.querySelector('[name="equip-vehicle"]').value = button.getAttribute("data-equipment-vehicle");
      form.querySelector('[name="equip-square"]').value = button.getAttribute("data-equipment-square");
      say(button.textContent + "…");
      form.requestSubmit();
    }

    function moveTo(key, facing) {
      var form = document.getElementById("move");
      var facings = state.facings[key];
      if (facings && !facing) {
        if (facings.length === 1) { facing = facings[0]; } else { chooseFacing(key, facings); return; }
      }
      var through = state.permits[key];
      if (through !== undefined && state.permitted !== key) { askPermission(key, through); return; }
      var claw = state.agreed === key ? null : leavesThrough(state.figure, key, facing);
      if (claw) { askToLeave(key, claw); return; }
      state.agreed = key;  // asked, or nothing to ask: the move form does not ask (below)
      // The form's own box, as a judge ticks it: the same move the engine makes from it.
      form.querySelector('[name="move-pass_through"]').checked = through !== undefined;
      form.querySelector('[name="move-figure"]').value = state.figure;
      form.querySelector('[name="move-square"]').value = key;
      form.querySelector('[name="move-facing"]').value = facing || "";
      say(text(texts.tMoving, { figure: nameOf(state.figure), square: key }));
      form.requestSubmit();
    }

    // A Tarantula's front may end on ``key`` facing several ways: one button for each.
    function chooseFacing(key, facings) {
      var select = document.getElementById("move").querySelector('[name="move-facing"]');
      options.textContent = "";
      facings.forEach(function (facing) {
        var option = select.querySelector('option[value="' + facing + '"]');
        var button = document.createElement("button");
        button.type = "button";
        button.className = "secondary";
        button.setAttribute("data-facing", facing);
        button.setAttribute("data-square", key);
        button.textContent = option ? option.textContent : facing;
        options.appendChild(button);
      });
      say(text(texts.tFacing, { figure: nameOf(state.figure), square: key }));
      options.querySelector("button").focus();
    }

    // A docking claw's number where ``key`` lies in one (board_svg.py marks its squares).
    function clawAt(key) {
      var cell = svg().querySelector('rect.claw[data-square="' + key + '"]');
      return cell ? cell.getAttribute("data-claw") : null;
    }
    // The claw through which marine ``figure`` leaves play if its move ends on ``key``, as
    // the engine rules it (a move *into* a claw); a Tarantula's move (with a facing) never
    // leaves play.
    function leavesThrough(figure, key, facing) {
      var piece = figure &&
        svg().querySelector('g.figure[data-figure="' + CSS.escape(figure) + '"]');
      if (facing || !piece || piece.getAttribute("data-side") !== "marine") { return null; }
      return clawAt(piece.getAttribute("data-square")) ? null : clawAt(key);
    }
    // The tapped square is in a docking claw: the marine would leave play. Ask first, as
    // page-actions.js asks a form marked data-confirm: "Yes" the dangerous choice, taking
    // no tap for a moment (window.bobSettle), "No" the way back, which gives the focus
    // back to where the judge asked from (stayPut).
    var askedFrom = null;
    function askToLeave(key, claw) {
      // The button short, as the board labels the marine; the question names it in full.
      var yes = ask(
        "data-leave", key, text(texts.tClawYes, { figure: state.figure, claw: claw }),
        texts.tClawNo, text(texts.tClawAsk, { figure: nameOf(state.figure), square: key, claw: claw })
      );
      yes.className = "danger";
      window.bobSettle(yes);
    }

    // The tapped square is reached only through other players' figures (RULES: passing
    // through them needs their permission): the judge asks them, "Yes" moves through.
    function askPermission(key, players) {
      ask(
        "data-permit", key, text(texts.tPermitYes, { figure: state.figure, players: players }),
        texts.tPermitNo,
        text(texts.tPermitAsk, { figure: nameOf(state.figure), square: key, players: players })
      );
    }

    // The question and its two buttons in the options: "Yes" (marked ``yesAttr`` with the
    // square) and "No", which takes the focus; returns "Yes".
    function ask(yesAttr, key, yesText, noText, question) {
      var active = document.activeElement;
      askedFrom = active && active !== document.body && !options.contains(active) ? active : null;
      options.textContent = "";
      var yes = document.createElement("button");
      yes.type = "button";
      yes.setAttribute(yesAttr, key);
      yes.textContent = yesText;
      var no = document.createElement("button");
      no.type = "button";
      no.className = "secondary";
      no.setAttribute("data-stay", "");
      no.textContent = noText;
      options.appendChild(yes);
      options.appendChild(no);
      say(question);
      no.focus();
      return yes;
    }

    // "No": the marine stays selected, and the focus goes back to the control the judge
    // asked from (the board, its cursor still on the square; or a lit door on it), not to
    // the page the removed "No" would leave it on. The board when that control is gone.
    function stayPut() {
      options.textContent = "";
      say(text(texts.tSelected, { figure: nameOf(state.figure) }));
      var back = askedFrom && askedFrom.isConnected ? askedFrom : scroller;
      askedFrom = null;
      back.focus();
    }

    function attack() {
      if (!state.figure) { return; }
      var figure = state.figure;
      var url = play.dataset.targetsUrl + "?attacker=" + encodeURIComponent(figure);
      getJson(url).then(function (data) {
        unmark();
        state.reach = {};
        if (data.error) { say(data.error); return; }
        if (!data.options.length) {
          say(data.refusal || text(texts.tNoAttack, { figure: figure }));
          return;
        }
        setMode("attack");
        var best = {};
        state.targets = {};
        data.options.forEach(function (option) {
          // Each square that chooses the option: one, or (an assault cannon's split, which
          // shares its dice among them) every target's, each lit with its own odds.
          (option.squares || (option.square ? [option.square] : [])).forEach(function (square) {
            var key = square.join(",");
            // The figure on the tapped square, else (a blast aimed at an empty square) the
            // enemy it is likeliest to destroy.
            var there = option.targets.filter(function (t) {
              return t.squares.some(function (sq) { return sq.join(",") === key; });
            })[0];
            var hit = there || option.targets.filter(function (t) { return !t.friendly; })
              .sort(function (a, b) { return b.percent - a.percent; })[0];
            (state.targets[key] = state.targets[key] || []).push({ option: option, hit: hit });
            var seen = best[key] || { percent: 0, aim: true };
            best[key] = {
              percent: Math.max(seen.percent, hit ? hit.percent : 0),
              aim: seen.aim && !there,
            };
          });
        });
        Object.keys(best).forEach(function (key) {
          mark(key.split(",").map(Number), best[key].aim ? "aim" : "target",
            Math.round(best[key].percent) + "%");
        });
        markFriendly(data.options);
        var own = Object.keys(state.friendly).length ? " " + texts.tFriendlyMarked : "";
        say(text(texts.tAttack, { figure: figure }) + own);
      });
    }

    // The own figures in the way of those of ``attacks`` the server warns of (a blast's
    // friendly fire; a hand-to-hand fight's own fighter is no warning), outlined on their
    // squares: their ids by square.
    function markFriendly(attacks) {
      var marks = layer("play-marks");
      marks.querySelectorAll(".mark-friendly").forEach(function (old) { old.remove(); });
      state.friendly = {};
      attacks.forEach(function (option) {
        if (!option.friendly) { return; }
        option.targets.forEach(function (target) {
          if (!target.friendly) { return; }
          target.squares.forEach(function (square) {
            var key = square.join(",");
            var ids = state.friendly[key] = state.friendly[key] || [];
            if (ids.indexOf(target.key) < 0) { ids.push(target.key); }
          });
        });
      });
      Object.keys(state.friendly).forEach(function (key) {
        mark(key.split(",").map(Number), "friendly");
      });
    }
    function ownInTheWay(option) {
      var ids = [];
      Object.keys(state.friendly).forEach(function (key) {
        state.friendly[key].forEach(function (id) {
          var hit = option.targets.some(function (t) { return t.key === id; });
          if (hit && ids.indexOf(id) < 0) { ids.push(id); }
        });
      });
      return ids;
    }

    // The odds an attack's button gives: the tapped target's first, then (an attack that
    // may hit several, as a split or a blast does) every other enemy's, each its own (the
    // own figures in the way are named by the warning).
    function oddsText(choice) {
      var hit = choice.hit;
      var others = choice.option.targets.filter(function (t) {
        return !t.friendly && (!hit || t.key !== hit.key);
      });
      var all = (hit ? [hit] : []).concat(others);
      if (!all.length) { return ""; }
      return " — " + all.map(function (t) {
        return text(texts.tOdds, { target: t.name, percent: t.chance });
      }).join("; ");
    }

    function chooseTarget(key) {
      var choices = state.targets[key];
      options.textContent = "";
      if (!choices) { say(texts.tNotTarget); return; }
      markFriendly(choices.map(function (choice) { return choice.option; }));
      choices.forEach(function (choice) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "secondary";
        button.setAttribute("data-choice", choice.option.index);
        var odds = oddsText(choice);
        var own = choice.option.friendly ? ownInTheWay(choice.option) : [];
        var warning = choice.option.friendly
          ? " — ⚠ " + texts.tFriendly + (own.length ? ": " + own.join(", ") : "") : "";
        button.textContent = choice.option.description + odds + warning;
        if (choice.hit) { button.title = text(texts.tExact, { fraction: choice.hit.kill }); }
        options.appendChild(button);
      });
      say(texts.tChoose);
      options.querySelector("button").focus();
    }

    function openAttack(index) {
      var attacker = document.getElementById("attacker-select");
      if (attacker) { attacker.value = state.figure; }
      var url = play.dataset.attackPanelUrl + "?attacker=" + encodeURIComponent(state.figure) +
        "&choice=" + index;
      swap(url, "odds").then(function (odds) {
        var drawer = document.getElementById("drawer");
        if (drawer) { drawer.open = true; }
        var chosen = odds && odds.querySelector("input[type=radio]:checked");
        document.getElementById("attack").scrollIntoView({ block: "start" });
        if (chosen) { chosen.focus(); }
      }).catch(function () { return null; });
    }

    function sight(square, figure) {
      var point = figure ? figure.getAttribute("data-figure") : square.join(",");
      if (!state.from) {
        unmark();
        state.from = point;
        mark(square, "sight");
        say(text(texts.tSightTo, { from: point }));
        return;
      }
      mark(square, "sight");
      var url = play.dataset.sightUrl + "?los-a=" + encodeURIComponent(state.from) +
        "&los-b=" + encodeURIComponent(point);
      state.from = null;
      setMode("move");
      swap(url, "sight").then(function (panel) {
        var answer = panel && panel.querySelector("[role=status], .errorlist, .problems");
        say(answer ? answer.textContent.replace(/\s+/g, " ").trim() : "");
      }).catch(function () { return null; });
    }

    function act(square, target) {
      var key = square.join(",");
      state.cursor = square;
      drawCursor();
      if (state.mode === "sight") { sight(square, figureAt(square, target)); return; }
      if (state.mode === "attack") { chooseTarget(key); return; }
      if (state.figure && state.reach[key] !== undefined) { moveTo(key); return; }
      var figure = figureAt(square, target);
      if (state.figure && !figure) { say(outOfReach(key)); return; }
      if (figure && figure.getAttribute("data-side") === "marine") {
        select(figure.getAttribute("data-figure"));
      } else if (figure) {
        cancel(text(texts.tAlien, { figure: nameOf(figure.getAttribute("data-figure")) }));
      } else {
        cancel();
      }
    }

    // Why the selected marine cannot end its move on ``key`` (it stays selected).
    function outOfReach(key) {
      if (!state.left) {
        return refused(state.refusal) || text(texts.tStuck, { figure: nameOf(state.figure) });
      }
      return text(texts.tTooFar, { figure: nameOf(state.figure), square: key, left: state.left });
    }

    function squareOf(event) {
      var picture = svg();
      var point = picture.createSVGPoint();
      point.x = event.clientX;
      point.y = event.clientY;
      var at = point.matrixTransform(picture.getScreenCTM().inverse());
      var g = grid();
      var x = Math.floor((at.x - g.margin) / g.cell);
      var y = Math.floor((at.y - g.margin) / g.cell);
      return x >= 0 && y >= 0 && x < g.columns && y < g.rows ? [x, y] : null;
    }

    function describe(square) {
      var key = square.join(",");
      var figure = figureAt(square, null);
      var parts = [key];
      if (figure) { parts.push(nameOf(figure.getAttribute("data-figure"))); }
      if (state.reach[key] !== undefined) { parts.push(text(texts.tReach, { steps: state.reach[key] })); }
      if (state.targets[key]) { parts.push(texts.tTarget); }
      if (state.friendly[key]) { parts.push(texts.tFriendlyHere); }
      if (clawAt(key)) { parts.push(text(texts.tClawHere, { claw: clawAt(key) })); }
      say(parts.join(" · "));
    }

    // Where the finger touched: a tap's click lands where Chromium's touch adjustment
    // snapped it, onto a tap target near the finger (a lit door), and a tap inside a lit
    // square must move there however close a door is.
    var touched = null;
    scroller.addEventListener("pointerdown", function (event) {
      touched = { clientX: event.clientX, clientY: event.clientY, target: event.target };
    });
    function doorAt(point) {
      var found = null;
      layer("play-doors").querySelectorAll(".mark-door-target").forEach(function (target) {
        var box = target.getBoundingClientRect();
        if (point.clientX >= box.left && point.clientX <= box.right &&
            point.clientY >= box.top && point.clientY <= box.bottom) {
          found = target.closest("[data-door]");
        }
      });
      return found;
    }

    scroller.addEventListener("click", function (event) {
      if (!svg() || !svg().contains(event.target)) { return; }
      var point = touched || event;
      touched = null;
      var square = squareOf(point);
      var door = state.figure ? doorAt(point) : null;
      if (!door && square && state.mode === "move" && state.reach[square.join(",")] !== undefined) {
        act(square, point.target);
        return;
      }
      door = door || (event.target.closest && event.target.closest("[data-door]"));
      if (door && state.figure) { openDoor(door.getAttribute("data-door")); return; }
      if (square) { act(square, point.target); }
    });

    var STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    scroller.addEventListener("keydown", function (event) {
      var g = grid();
      var door = event.target.closest && event.target.closest("[data-door]");
      if (door && state.figure && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        openDoor(door.getAttribute("data-door"));
        return;
      }
      if (STEPS[event.key]) {
        event.preventDefault();
        var at = state.cursor || [0, 0];
        var step = STEPS[event.key];
        state.cursor = [
          Math.min(g.columns - 1, Math.max(0, at[0] + step[0])),
          Math.min(g.rows - 1, Math.max(0, at[1] + step[1])),
        ];
        drawCursor();
        describe(state.cursor);
      } else if ((event.key === "Enter" || event.key === " ") && state.cursor) {
        event.preventDefault();
        act(state.cursor, null);
      } else if (event.key === "Escape") {
        cancel();
      }
    });

    options.addEventListener("click", function (event) {
      var button = event.target.closest("[data-choice]");
      if (button) { openAttack(button.getAttribute("data-choice")); return; }
      var turn = event.target.closest("[data-facing]");
      if (turn) { moveTo(turn.getAttribute("data-square"), turn.getAttribute("data-facing")); return; }
      var equipment = event.target.closest("[data-equipment]");
      if (equipment) { useEquipment(equipment); return; }
      var permit = event.target.closest("[data-permit]");
      if (permit) {
        state.permitted = permit.getAttribute("data-permit");
        moveTo(state.permitted);
        return;
      }
      var leave = event.target.closest("[data-leave]");
      if (leave) {
        state.agreed = leave.getAttribute("data-leave");
        moveTo(state.agreed);
        return;
      }
      if (event.target.closest("[data-stay]")) { stayPut(); }
    });

    // A move typed in the form asks too, at the form's button (page-actions.js holds a
    // form marked data-confirm); one confirmed by a tap does not ask again.
    var moveForm = document.getElementById("move");
    if (moveForm) {
      moveForm.addEventListener("submit", function () {
        var field = function (name) {
          return moveForm.querySelector('[name="move-' + name + '"]');
        };
        var figure = field("figure").value;
        // As the server reads it: "04,4" is 4,4.
        var key = field("square").value.replace(/[\s()]/g, "").split(",").map(Number).join(",");
        var facing = field("facing") ? field("facing").value : "";
        var claw = state.agreed === key ? null : leavesThrough(figure, key, facing);
        if (!claw) { moveForm.removeAttribute("data-confirm"); return; }
        var values = { figure: nameOf(figure), square: key, claw: claw };
        moveForm.setAttribute("data-confirm", text(texts.tClawAsk, values));
        var short = { figure: figure, claw: claw };  // the button as the board labels it
        moveForm.setAttribute("data-confirm-label", text(texts.tClawYes, short));
        moveForm.setAttribute("data-confirm-cancel", texts.tClawNo);
      });
    }

    tools.addEventListener("click", function (event) {
      var button = event.target.closest("button, a");
      if (!button) { return; }
      if (button.dataset.play === "alien-turn") { return; }  // a link to its form
      if (button.hasAttribute("data-zoom")) {
        zoomTo((+scroller.dataset.zoom || 0) + +button.dataset.zoom);
        sessionStorage.setItem("bob-board-zoom", scroller.dataset.zoom);
      } else if (button.dataset.play === "attack") {
        attack();
      } else if (button.dataset.play === "sight") {
        cancel(texts.tSightFrom);
        setMode("sight");
      } else if (button.dataset.play === "cancel") {
        cancel();
      }
    });

    // The lowest zoom step: on a touch screen, the first whose squares are a fingertip's
    // minimum target wide (the whole board, squares of 17 px on a phone, is not).
    var coarse = window.matchMedia("(pointer: coarse)").matches;
    function minZoom() {
      var picture = svg();
      if (!coarse || !picture || !picture.viewBox.baseVal.width) { return 0; }
      var square = scroller.clientWidth * grid().cell / picture.viewBox.baseVal.width;
      for (var zoom = 0; zoom < ZOOMS - 1; zoom++) {
        if (square * ZOOM_WIDTHS[zoom] >= MIN_SQUARE_PX) { return zoom; }
      }
      return ZOOMS - 1;
    }
    // How many of the board's units a fingertip's target takes at the zoom shown.
    function fingertip() {
      var picture = svg();
      if (!picture) { return 0; }
      var scale = picture.getBoundingClientRect().width / picture.viewBox.baseVal.width;
      return scale ? FINGERTIP_PX / scale : 0;
    }

    function zoomTo(zoom) {
      var lowest = minZoom();
      zoom = Math.min(ZOOMS - 1, Math.max(lowest, zoom));
      scroller.dataset.zoom = zoom;
      tools.querySelector('[data-zoom="-1"]').disabled = zoom <= lowest;
      tools.querySelector('[data-zoom="1"]').disabled = zoom >= ZOOMS - 1;
      stickRulers();
    }

    // The coordinate rulers follow the scroll of a zoomed board (and of the page), so that
    // the judge always reads the row and column of a square, as the status and log name it.
    function stickRulers() {
      var picture = svg();
      var columns = picture && picture.querySelector("g.ruler-columns");
      var rows = picture && picture.querySelector("g.ruler-rows");
      if (!columns || !rows) { return; }
      var box = picture.getBoundingClientRect();
      var view = scroller.getBoundingClientRect();
      var scale = box.width / picture.viewBox.baseVal.width;
      if (!scale) { return; }
      var g = grid();
      var down = Math.max(0, Math.max(view.top, 0) - box.top) / scale;
      var across = Math.max(0, view.left - box.left) / scale;
      down = Math.min(down, g.rows * g.cell - g.margin);
      across = Math.min(across, g.columns * g.cell - g.margin);
      columns.setAttribute("transform", "translate(0 " + down.toFixed(1) + ")");
      rows.setAttribute("transform", "translate(" + across.toFixed(1) + " 0)");
      var corner = picture.querySelector("g.ruler-corner");
      if (corner) {
        corner.setAttribute("transform", "translate(" + across.toFixed(1) + " " + down.toFixed(1) + ")");
      }
    }
    var sticking = false;
    function stickSoon() {
      if (sticking) { return; }
      sticking = true;
      window.requestAnimationFrame(function () { sticking = false; stickRulers(); });
    }
    scroller.addEventListener("scroll", stickSoon, { passive: true });
    window.addEventListener("scroll", stickSoon, { passive: true });
    window.addEventListener("resize", function () { zoomTo(+scroller.dataset.zoom || 0); });

    // The judge keeps the dice of the last attack as they fell: the offer is put away
    // (any other step ends it anyway) until the game changes.
    var declined = "bob-reroll-declined:" + location.pathname;
    function rerollPanel() {
      var form = document.getElementById("reroll");
      var decline = form && form.querySelector("[data-reroll-decline]");
      if (!decline) { return; }
      var step = form.querySelector('[name="reroll-version"]');
      decline.hidden = false;
      form.hidden = !!step && sessionStorage.getItem(declined) === step.value;
    }
    document.addEventListener("click", function (event) {
      var decline = event.target.closest && event.target.closest("[data-reroll-decline]");
      if (!decline) { return; }
      var form = decline.closest("form");
      var step = form.querySelector('[name="reroll-version"]');
      if (step) { sessionStorage.setItem(declined, step.value); }
      form.hidden = true;
      say(texts.tRerollDeclined);
    });

    document.addEventListener("bob:board-refreshed", function () {
      cancel();
      drawCursor();
      rerollPanel();
      stickRulers();
    });

    // A phone starts zoomed in (a square about a fingertip wide) with the log and the
    // forms folded away, unless they hold an error to read.
    var phone = window.matchMedia("(max-width: 700px)").matches;
    zoomTo(+(sessionStorage.getItem("bob-board-zoom") || (phone ? "2" : "0")));
    var drawer = document.getElementById("drawer");
    var troubled = drawer && drawer.querySelector(".problems, .errorlist, [aria-invalid=true]");
    if (drawer && !troubled && phone) { drawer.open = false; }
    // Each action loads the page again: the board's own scroll (a phone shows part of a
    // zoomed board) comes back where the judge left it, and a refused action shows its
    // reason, wherever on the page its form is.
    var place = "bob-board-scroll:" + location.pathname;
    window.addEventListener("pagehide", function () {
      sessionStorage.setItem(place, scroller.scrollLeft + "," + scroller.scrollTop);
    });
    var kept = (sessionStorage.getItem(place) || "").split(",");
    if (kept.length === 2) { scroller.scrollLeft = +kept[0]; scroller.scrollTop = +kept[1]; }
    stickRulers();
    var problem = document.querySelector("main .problems, main .errorlist");
    if (problem) { problem.scrollIntoView({ block: "center" }); }
    cancel();
    rerollPanel();
    // The last attack may roll a die again (a chapter card): say so before anything else.
    var offer = document.querySelector("#reroll [data-reroll-die]");
    if (offer && !document.getElementById("reroll").hidden) { say(texts.tReroll); }
  }

  // A step the board refused answers its form again, with its errors and what the judge
  // typed, at the step's own address, which takes only a POST: put the board's address in
  // the address bar instead, so reopening or reloading it comes back to the board.
  function stayOnTheBoard(play) {
    var address = play.dataset.boardAddress;
    if (!address || location.pathname === address || !window.history.replaceState) { return; }
    window.history.replaceState(window.history.state, "", address + location.hash);
  }

  function start() {
    var play = document.getElementById("play");
    // A board whose session has a saved result takes no more steps: it is only followed.
    if (play) { stayOnTheBoard(play); if (!("closed" in play.dataset)) { board(play); } }
    var live = play || document.getElementById("watch");
    if (live) { follow(live); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
