// The phone scorekeeping page (/matches/<id>/score/): enter each roll or throw by tapping,
// see what the rules make of it (POST preview/), and submit the turn through the API like any
// client (POST turns/). A turn not yet confirmed stays on the page and in sessionStorage with
// its Idempotency-Key, and is sent again with the same key, so nothing is lost or counted twice.
(function () {
  "use strict";

  var RETRY_SECONDS = 3;
  var YARDZEE_DICE = 5;
  var YARDKLE_DICE = 6;
  var MAX_ROLLS = 3;

  var root = document.getElementById("scorer");
  var message = document.getElementById("score-message");

  function say(text, kind) {
    if (!message) {
      return;
    }
    message.textContent = text;
    message.className = "score-message" + (kind ? " " + kind : "");
  }

  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();
    }
    var bytes = new Uint8Array(16);
    if (window.crypto && window.crypto.getRandomValues) {
      window.crypto.getRandomValues(bytes);
    } else {
      for (var i = 0; i < bytes.length; i++) {
        bytes[i] = Math.floor(Math.random() * 256);
      }
    }
    return Array.prototype.map
      .call(bytes, function (b) {
        return ("0" + b.toString(16)).slice(-2);
      })
      .join("");
  }

  function headers(csrf, scoreKey) {
    var h = { "Content-Type": "application/json", Accept: "application/json" };
    if (csrf) {
      h["X-CSRFToken"] = csrf;
    }
    if (scoreKey) {
      h["X-Score-Key"] = scoreKey;
    }
    return h;
  }

  function errorText(status, body) {
    if (body && body.message) {
      return body.message;
    }
    return "The server answered " + status + ".";
  }

  function readJson(response) {
    return response.text().then(function (text) {
      try {
        return text ? JSON.parse(text) : null;
      } catch (e) {
        return null;
      }
    });
  }

  // --- Undo (organizers) ------------------------------------------------------------------------
  var undoButton = document.getElementById("undo");
  if (undoButton) {
    undoButton.addEventListener("click", function () {
      if (!window.confirm("Undo the last turn of this match? It is removed from the scorecard.")) {
        return;
      }
      undoButton.disabled = true;
      say("Undoing the last turn…");
      fetch(undoButton.getAttribute("data-api") + "undo/", {
        method: "POST",
        credentials: "same-origin",
        headers: headers(undoButton.getAttribute("data-csrf"), ""),
      })
        .then(function (response) {
          return readJson(response).then(function (body) {
            if (response.ok) {
              say("The last turn was undone.", "ok");
              window.location.reload();
            } else {
              undoButton.disabled = false;
              say(errorText(response.status, body), "error");
            }
          });
        })
        .catch(function () {
          undoButton.disabled = false;
          say("No connection: the turn was not undone. Try again.", "error");
        });
    });
  }

  if (!root) {
    return;
  }

  var matchId = root.getAttribute("data-match");
  var game = root.getAttribute("data-game");
  var player = Number(root.getAttribute("data-player"));
  var turnNumber = Number(root.getAttribute("data-turn-number"));
  var scoreKey = root.getAttribute("data-score-key") || "";
  var csrf = root.getAttribute("data-csrf") || "";
  var api = root.getAttribute("data-api");
  var storeKey = "yardleague-score-" + matchId;

  var tray = document.getElementById("tray");
  var faces = root.querySelectorAll(".face");
  var clearButton = document.getElementById("clear-dice");

  // --- The pending turn: its Idempotency-Key, and its body while unconfirmed -------------------
  function loadPending() {
    try {
      var stored = JSON.parse(window.sessionStorage.getItem(storeKey) || "null");
      return stored && stored.turn_number === turnNumber ? stored : null;
    } catch (e) {
      return null;
    }
  }

  function savePending(pending) {
    try {
      window.sessionStorage.setItem(storeKey, JSON.stringify(pending));
    } catch (e) {
      // storage full or disabled: the key still lives in memory for this page
    }
  }

  function dropPending() {
    try {
      window.sessionStorage.removeItem(storeKey);
    } catch (e) {
      // nothing to drop
    }
  }

  var pending = loadPending() || { turn_number: turnNumber, key: newKey(), body: null };
  if (!pending.body) {
    savePending(pending);
  }
  var sending = false;
  var retryTimer = null;

  function busy() {
    return sending || Boolean(pending.body);
  }

  function setBusy(busy) {
    root.setAttribute("aria-busy", busy ? "true" : "false");
    root.classList.toggle("busy", busy);
  }

  function submit(body) {
    if (busy()) {
      return;
    }
    body.player = player;
    body.turn_number = turnNumber;
    pending.body = body;
    savePending(pending);
    send();
  }

  function scheduleRetry() {
    if (retryTimer) {
      window.clearTimeout(retryTimer);
    }
    retryTimer = window.setTimeout(function () {
      retryTimer = null;
      send();
    }, RETRY_SECONDS * 1000);
  }

  function send() {
    if (sending || !pending.body) {
      return;
    }
    sending = true;
    setBusy(true);
    say("Sending the turn…");
    enable();
    var h = headers(csrf, scoreKey);
    h["Idempotency-Key"] = pending.key;
    fetch(api + "turns/", {
      method: "POST",
      credentials: "same-origin",
      headers: h,
      body: JSON.stringify(pending.body),
    })
      .then(function (response) {
        return readJson(response).then(function (answer) {
          sending = false;
          if (response.status === 201) {
            dropPending();
            setBusy(false);
            say("Turn " + turnNumber + " saved.", "ok");
            window.location.reload();
            return;
          }
          if (response.status >= 500 || response.status === 429 || response.status === 408) {
            // Not refused: the server could not take it now. Same key, same body, later.
            say(errorText(response.status, answer) + " The turn is kept and sent again.", "error");
            scheduleRetry();
            return;
          }
          // Refused (422, 409, 403, ...): nothing was stored. Keep what was entered and the key.
          pending.body = null;
          savePending(pending);
          setBusy(false);
          say(errorText(response.status, answer), "error");
          enable();
        });
      })
      .catch(function () {
        sending = false;
        say(
          "No connection: the turn is kept on this page and sent again in " +
            RETRY_SECONDS +
            " s (same Idempotency-Key, so it counts once).",
          "error"
        );
        enable();
        scheduleRetry();
      });
  }

  window.addEventListener("online", function () {
    if (pending.body && !sending) {
      send();
    }
  });

  // --- Preview: what the rules make of the dice so far ------------------------------------------
  var previewSeq = 0;

  function preview(payload, onAnswer) {
    var seq = ++previewSeq;
    fetch(api + "preview/", {
      method: "POST",
      credentials: "same-origin",
      headers: headers(csrf, scoreKey),
      body: JSON.stringify(payload),
    })
      .then(function (response) {
        return readJson(response).then(function (answer) {
          if (seq !== previewSeq) {
            return; // a newer preview is on its way
          }
          if (!response.ok) {
            say(errorText(response.status, answer), "error");
            onAnswer(null);
            return;
          }
          onAnswer(answer);
        });
      })
      .catch(function () {
        if (seq === previewSeq) {
          say("No connection: cannot check the dice. Tap a die again to retry.", "error");
          onAnswer(null);
        }
      });
  }

  // --- The dice tray ----------------------------------------------------------------------------
  var dice = []; // values or null, one per slot
  var marked = []; // kept (Yardzee) or set aside (Yardkle)
  var locked = []; // Yardzee: kept from the previous roll, not re-entered

  function complete() {
    return dice.length > 0 && dice.every(function (d) {
      return d !== null;
    });
  }

  function values(which) {
    var out = [];
    dice.forEach(function (d, i) {
      if (which(i)) {
        out.push(d);
      }
    });
    return out;
  }

  function sorted(list) {
    return list.slice().sort(function (a, b) {
      return a - b;
    });
  }

  function sameDice(a, b) {
    return a.length === b.length && sorted(a).join() === sorted(b).join();
  }

  function drawTray() {
    tray.innerHTML = "";
    dice.forEach(function (d, i) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "slot" + (d === null ? " blank" : "") + (marked[i] ? " marked" : "");
      button.setAttribute("data-index", String(i));
      button.textContent = d === null ? "·" : String(d);
      var what = game === "yardzee" ? "kept" : "set aside";
      var label = "Die " + (i + 1) + ": " + (d === null ? "not entered" : d);
      if (d !== null && marked[i]) {
        label += ", " + what;
      }
      button.setAttribute("aria-label", label);
      if (d !== null && complete()) {
        button.setAttribute("aria-pressed", marked[i] ? "true" : "false");
      }
      button.disabled = !slotTappable(i);
      tray.appendChild(button);
    });
  }

  function slotTappable(i) {
    if (busy() || dice[i] === null) {
      return false;
    }
    if (!complete()) {
      return !locked[i]; // tap an entered die to take it back
    }
    return game === "yardzee" ? rollCount() < MAX_ROLLS : true;
  }

  tray.addEventListener("click", function (event) {
    var button = event.target.closest("button.slot");
    if (!button || button.disabled) {
      return;
    }
    var i = Number(button.getAttribute("data-index"));
    if (!complete()) {
      dice[i] = null;
      changed();
      return;
    }
    marked[i] = !marked[i];
    changed(true);
  });

  faces.forEach(function (button) {
    button.addEventListener("click", function () {
      var i = dice.indexOf(null);
      if (i < 0 || busy()) {
        return;
      }
      dice[i] = Number(button.getAttribute("data-face"));
      changed();
    });
  });

  clearButton.addEventListener("click", function () {
    dice.forEach(function (d, i) {
      if (!locked[i]) {
        dice[i] = null;
        marked[i] = false;
      }
    });
    changed();
  });

  // --- Yardzee --------------------------------------------------------------------------------
  var rolls = []; // rolls already made this turn, as the turn JSON has them
  var boxButtons = root.querySelectorAll("button.box");
  var nextRoll = document.getElementById("next-roll");
  var options = null;

  function rollCount() {
    return rolls.length + 1;
  }

  function currentRoll() {
    var roll = { dice: values(function () {
      return true;
    }) };
    if (rolls.length > 0) {
      roll.keep = values(function (i) {
        return locked[i];
      });
    }
    return roll;
  }

  function zeeEnable() {
    document.getElementById("roll-count").textContent = String(rollCount());
    nextRoll.disabled = busy() || !complete() || rollCount() >= MAX_ROLLS;
    boxButtons.forEach(function (button) {
      var name = button.getAttribute("data-box");
      var points = button.querySelector("[data-points]");
      var value = options ? options[name] : undefined;
      var label = button.querySelector(".box-name").textContent;
      button.classList.toggle("forbidden", value === null);
      if (value === undefined) {
        points.textContent = "–";
        button.disabled = true;
        button.setAttribute("aria-label", label);
      } else if (value === null) {
        points.textContent = "not allowed";
        button.disabled = true;
        button.setAttribute("aria-label", label + ": not allowed by the joker rule");
      } else {
        points.textContent = String(value);
        button.disabled = busy();
        button.setAttribute("aria-label", label + ": " + value + " points");
      }
    });
  }

  function zeeChanged(onlyMarks) {
    if (onlyMarks) {
      return; // keeping dice changes nothing the rules score
    }
    options = null;
    document.getElementById("bonus-note").textContent = "";
    if (!complete()) {
      return;
    }
    var shown = values(function () {
      return true;
    });
    preview({ dice: shown }, function (answer) {
      if (!answer || !complete() || !sameDice(shown, currentRoll().dice)) {
        return;
      }
      options = answer.options;
      document.getElementById("bonus-note").textContent = answer.yardzee_bonus
        ? "+" + answer.yardzee_bonus + " Yardzee bonus"
        : "";
      enable();
    });
  }

  function zeeStart() {
    dice = [];
    marked = [];
    locked = [];
    for (var i = 0; i < YARDZEE_DICE; i++) {
      dice.push(null);
      marked.push(false);
      locked.push(false);
    }
    nextRoll.addEventListener("click", function () {
      if (!complete() || rollCount() >= MAX_ROLLS) {
        return;
      }
      rolls.push(currentRoll());
      dice = dice.map(function (d, i) {
        return marked[i] ? d : null;
      });
      locked = marked.slice();
      changed();
      say("Roll " + rollCount() + ": enter the dice thrown again.");
    });
    boxButtons.forEach(function (button) {
      button.addEventListener("click", function () {
        var name = button.getAttribute("data-box");
        if (!options || options[name] === null || options[name] === undefined) {
          return;
        }
        submit({ rolls: rolls.concat([currentRoll()]), category: name, points: options[name] });
      });
    });
  }

  // --- Yardkle --------------------------------------------------------------------------------
  var throws = []; // throws already made this turn, with their set-aside
  var throwAgain = document.getElementById("throw-again");
  var bankButton = document.getElementById("bank");
  var yardkleButton = document.getElementById("yardkle");
  var kleBefore = null; // preview of the throws so far and the dice showing
  var kleAfter = null; // preview including the current throw's set-aside, when legal
  var diceToThrow = YARDKLE_DICE;

  function selection() {
    return values(function (i) {
      return marked[i];
    });
  }

  function legalSelection() {
    if (!kleBefore || !kleBefore.set_aside_options) {
      return null;
    }
    var chosen = selection();
    if (!chosen.length) {
      return null;
    }
    for (var k = 0; k < kleBefore.set_aside_options.length; k++) {
      var option = kleBefore.set_aside_options[k];
      if (sameDice(option.dice, chosen)) {
        return option;
      }
    }
    return null;
  }

  function thrownNow(setAside) {
    return { dice: values(function () {
      return true;
    }), set_aside: setAside };
  }

  function kleEnable() {
    var option = legalSelection();
    var ready = complete() && kleBefore !== null;
    document.getElementById("throw-count").textContent = String(throws.length + 1);
    document.getElementById("dice-left").textContent = String(diceToThrow);
    var total = kleAfter ? kleAfter.turn_total : kleBefore ? kleBefore.turn_total : turnTotalSoFar;
    document.getElementById("turn-total").textContent = String(total);
    document.getElementById("selection-points").textContent = option
      ? option.points + " points"
      : selection().length && ready
        ? "not a scoring set"
        : "–";
    var yardkle = ready && kleBefore.has_points === false;
    yardkleButton.disabled = busy() || !yardkle;
    bankButton.disabled = busy() || !(option && kleAfter && kleAfter.can_bank);
    throwAgain.disabled = busy() || !(option && kleAfter);
  }

  var turnTotalSoFar = 0;

  function kleChanged(onlyMarks) {
    kleAfter = null;
    if (!onlyMarks) {
      kleBefore = null;
    }
    if (!complete()) {
      return;
    }
    var shown = values(function () {
      return true;
    });
    if (!onlyMarks) {
      preview({ throws: throws, dice: shown }, function (answer) {
        if (!answer || !complete() || !sameDice(shown, thrownNow([]).dice)) {
          return;
        }
        kleBefore = answer;
        if (answer.has_points === false) {
          say("No scoring dice: this throw is a Yardkle.", "error");
        }
        kleChanged(true);
        enable();
      });
      return;
    }
    var option = legalSelection();
    if (!option) {
      return;
    }
    var chosen = selection();
    preview({ throws: throws.concat([thrownNow(chosen)]) }, function (answer) {
      if (!answer || !sameDice(chosen, selection())) {
        return;
      }
      kleAfter = answer;
      if (answer.hot_dice) {
        say("Hot dice: all six dice scored, throw all six again.", "ok");
      }
      enable();
    });
  }

  function kleTray(count) {
    dice = [];
    marked = [];
    locked = [];
    for (var i = 0; i < count; i++) {
      dice.push(null);
      marked.push(false);
      locked.push(false);
    }
  }

  function kleStart() {
    kleTray(YARDKLE_DICE);
    throwAgain.addEventListener("click", function () {
      if (!legalSelection() || !kleAfter) {
        return;
      }
      throws.push(thrownNow(selection()));
      turnTotalSoFar = kleAfter.turn_total;
      diceToThrow = kleAfter.dice_to_throw;
      kleBefore = null;
      kleAfter = null;
      kleTray(diceToThrow);
      changed();
      say("Throw " + (throws.length + 1) + ": enter the " + diceToThrow + " dice thrown.");
    });
    bankButton.addEventListener("click", function () {
      if (!legalSelection() || !kleAfter || !kleAfter.can_bank) {
        return;
      }
      submit({
        throws: throws.concat([thrownNow(selection())]),
        end: "bank",
        points: kleAfter.turn_total,
      });
    });
    yardkleButton.addEventListener("click", function () {
      if (!kleBefore || kleBefore.has_points !== false) {
        return;
      }
      submit({ throws: throws.concat([thrownNow([])]), end: "yardkle", points: 0 });
    });
  }

  // --- Wiring -----------------------------------------------------------------------------------
  function enable() {
    faces.forEach(function (button) {
      button.disabled = busy() || complete();
    });
    clearButton.disabled = busy();
    if (game === "yardzee") {
      zeeEnable();
    } else {
      kleEnable();
    }
    drawTray();
  }

  function changed(onlyMarks) {
    if (!onlyMarks && message && message.classList.contains("error")) {
      say("");
    }
    if (game === "yardzee") {
      zeeChanged(onlyMarks);
    } else {
      kleChanged(onlyMarks);
    }
    enable();
  }

  if (game === "yardzee") {
    zeeStart();
  } else {
    kleStart();
  }
  enable();

  if (pending.body) {
    // This turn was sent but never confirmed (the page was closed or reloaded): send it again.
    say("Turn " + turnNumber + " was not confirmed yet: sending it again.");
    send();
  }
})();
