// The phone scorekeeping page (games/score.html): enter each roll or throw by tapping, see what
// the rules make of it (the match's preview URL), confirm, and submit the turn through the API
// like any client (its turns URL). A turn not yet confirmed by the server stays on the page and
// in sessionStorage with its Idempotency-Key, and is sent again with the same key, so nothing
// is lost or counted twice. The scorekeeper who sent the last turn may take it back until the
// next player starts; a match changed elsewhere refreshes the page, which says what changed.
//
// This module reads the page: every URL comes from a data-*-url attribute the template renders
// with {% url %}. It wires the parts, which share nothing but the objects passed to them:
// message.js (the status line), resync.js (changes made elsewhere), confirm.js (the question
// before a turn is saved), takeback.js ("Undo my last turn"), pending.js (the turn being
// submitted), tray.js (the dice entered), yardzee.js / yardkle.js (what each game does).
import { createPreview } from "./api.js";
import { createConfirm } from "./confirm.js";
import { createMessage } from "./message.js";
import { createPendingTurn } from "./pending.js";
import { createResync, readLastSaved } from "./resync.js";
import { createTakeBack, rememberSent } from "./takeback.js";
import { anyEntered, canChange, createTray, drawTray, isComplete, wireTray } from "./tray.js";
import { createYardkle } from "./yardkle.js";
import { createYardzee } from "./yardzee.js";

function startScorer(root, message, resync) {
  const auth = {
    csrf: root.getAttribute("data-csrf") || "",
    scoreKey: root.getAttribute("data-score-key") || "",
  };
  const isYardzee = root.getAttribute("data-game") === "yardzee";
  const turnNumber = Number(root.getAttribute("data-turn-number"));
  const playerName = document.getElementById("player-name").textContent;
  const trayElement = document.getElementById("tray");
  const faces = root.querySelectorAll(".face");
  const clearButton = document.getElementById("clear-dice");
  const changeButton = document.getElementById("change-die");
  const tray = createTray();
  // Set below: the parts need refresh(), which needs them.
  const parts = { game: null, pending: null, confirm: null, takeBack: null };

  function busy() {
    return parts.pending.busy() || parts.confirm.isOpen();
  }

  // The player whose turn it is has begun: a die entered, or a roll or throw behind them.
  function started() {
    return anyEntered(tray) || parts.game.started();
  }

  // Every button and the tray drawn again from the state. The page renders the buttons
  // disabled, so that no tap is lost before this module has run.
  function refresh() {
    const isBusy = busy();
    faces.forEach(function (button) {
      button.disabled = isBusy || isComplete(tray);
    });
    clearButton.disabled = isBusy;
    changeButton.disabled = isBusy || !(tray.editing || canChange(tray));
    changeButton.setAttribute("aria-pressed", tray.editing ? "true" : "false");
    parts.game.refresh();
    parts.takeBack.refresh(started());
    drawTray(trayElement, tray, {
      busy: busy,
      canMark: parts.game.canMark,
      markWord: parts.game.markWord,
    });
  }

  // The dice changed (onlyMarks: only which are kept or set aside): the game looks again.
  function changed(onlyMarks) {
    if (!onlyMarks && message.showsError()) {
      message.say("");
    }
    parts.game.changed(onlyMarks);
    refresh();
  }

  // what: how the turn ends ("Full house, 25", "banked 450"); body: the turn's JSON.
  function confirmTurn(what, body, opener) {
    const question = "Save turn " + turnNumber + ": " + playerName + ", " + what + "?";
    parts.confirm.ask(
      question,
      function () {
        parts.pending.submit(body);
      },
      opener
    );
  }

  parts.pending = createPendingTurn({
    matchId: root.getAttribute("data-match"),
    player: Number(root.getAttribute("data-player")),
    turnNumber: turnNumber,
    url: root.getAttribute("data-turns-url"),
    auth,
    say: message.say,
    onBusy: function (isBusy) {
      root.setAttribute("aria-busy", isBusy ? "true" : "false");
      root.classList.toggle("busy", isBusy);
    },
    onChange: refresh,
    onSaved: function (number) {
      rememberSent(root.getAttribute("data-match"), number);
    },
    onStale: function () {
      resync.reload();
    },
  });
  parts.confirm = createConfirm({
    panel: document.getElementById("confirm-turn"),
    text: document.getElementById("confirm-text"),
    save: document.getElementById("confirm-save"),
    back: document.getElementById("confirm-back"),
    onChange: refresh,
  });
  parts.takeBack = createTakeBack({
    root,
    last: readLastSaved(),
    auth,
    say: message.say,
    onTakenBack: function (text) {
      resync.reload(text);
    },
  });
  const preview = createPreview({
    url: root.getAttribute("data-preview-url"),
    auth,
    say: message.say,
  });
  const scorer = { root, tray, busy, preview, say: message.say, refresh, changed, confirmTurn };
  parts.game = isYardzee ? createYardzee(scorer) : createYardkle(scorer);
  wireTray(scorer, { element: trayElement, faces, clearButton, changeButton });

  refresh();
  parts.pending.resume();
  return { busy, started };
}

function start() {
  const message = createMessage(document.getElementById("score-message"));
  const root = document.getElementById("scorer");
  const page = document.getElementById("score-page");
  // The scorer, once started: whether a turn is on its way, and whether dice were entered.
  const scorer = { busy: null, started: null };
  const resync = createResync({
    page,
    say: message.say,
    busy: function () {
      return scorer.busy ? scorer.busy() : false;
    },
    entered: function () {
      return scorer.started ? scorer.started() : false;
    },
  });
  resync.start();
  if (root) {
    Object.assign(scorer, startScorer(root, message, resync));
  }
}

start();
