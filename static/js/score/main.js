// The phone scorekeeping page (games/score.html): enter each roll or throw by tapping, see what
// the rules make of it (the match's preview URL), and submit the turn through the API like any
// client (its turns URL). A turn not yet confirmed stays on the page and in sessionStorage with
// its Idempotency-Key, and is sent again with the same key, so nothing is lost or counted twice.
//
// This module reads the page: every URL comes from a data-*-url attribute the template renders
// with {% url %}. It wires the parts, which share nothing but the objects passed to them:
// message.js (the status line), undo.js (organizers), pending.js (the turn being submitted),
// tray.js (the dice entered), yardzee.js / yardkle.js (what each game does with them).
import { createPreview } from "./api.js";
import { createMessage } from "./message.js";
import { createPendingTurn } from "./pending.js";
import { createTray, drawTray, isComplete, wireTray } from "./tray.js";
import { wireUndo } from "./undo.js";
import { createYardkle } from "./yardkle.js";
import { createYardzee } from "./yardzee.js";

function startScorer(root, message) {
  const auth = {
    csrf: root.getAttribute("data-csrf") || "",
    scoreKey: root.getAttribute("data-score-key") || "",
  };
  const isYardzee = root.getAttribute("data-game") === "yardzee";
  const trayElement = document.getElementById("tray");
  const faces = root.querySelectorAll(".face");
  const clearButton = document.getElementById("clear-dice");
  const tray = createTray();
  let game = null; // set below: the game needs refresh() and changed(), which need the game

  // Every button and the tray drawn again from the state. The page renders the buttons
  // disabled, so that no tap is lost before this module has run.
  function refresh() {
    const busy = pending.busy();
    faces.forEach(function (button) {
      button.disabled = busy || isComplete(tray);
    });
    clearButton.disabled = busy;
    game.refresh();
    drawTray(trayElement, tray, {
      busy: pending.busy,
      canMark: game.canMark,
      markWord: game.markWord,
    });
  }

  // The dice changed (onlyMarks: only which are kept or set aside): the game looks again.
  function changed(onlyMarks) {
    if (!onlyMarks && message.showsError()) {
      message.say("");
    }
    game.changed(onlyMarks);
    refresh();
  }

  const pending = createPendingTurn({
    matchId: root.getAttribute("data-match"),
    player: Number(root.getAttribute("data-player")),
    turnNumber: Number(root.getAttribute("data-turn-number")),
    url: root.getAttribute("data-turns-url"),
    auth,
    say: message.say,
    onBusy: function (busy) {
      root.setAttribute("aria-busy", busy ? "true" : "false");
      root.classList.toggle("busy", busy);
    },
    onChange: refresh,
  });
  const preview = createPreview({
    url: root.getAttribute("data-preview-url"),
    auth,
    say: message.say,
  });
  const scorer = { root, tray, pending, preview, say: message.say, refresh, changed };
  game = isYardzee ? createYardzee(scorer) : createYardkle(scorer);
  wireTray({ element: trayElement, faces, clearButton, tray, busy: pending.busy, changed });

  refresh();
  pending.resume();
}

function start() {
  const message = createMessage(document.getElementById("score-message"));
  const undoButton = document.getElementById("undo");
  if (undoButton) {
    wireUndo(undoButton, message.say);
  }
  const root = document.getElementById("scorer");
  if (root) {
    startScorer(root, message);
  }
}

start();
