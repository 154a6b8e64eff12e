// The turn being submitted (the match's turns URL), so that nothing is lost or counted twice.
// Each turn gets one Idempotency-Key, kept in sessionStorage with the turn's body until the
// server accepts it. A refusal (422, 409, 403) drops the body and keeps what was entered; no
// answer (connection lost, 5xx, 429, 408) keeps both and sends the same request again, every
// RETRY_SECONDS and when the browser is back online; a reload sends an unconfirmed turn again.
// A refusal because the match moved on (another turn came first, an organizer undid the turn
// or closed the match: STALE) drops the key too and lets the page refresh itself (onStale).
import { errorText, postJson, readJson } from "./api.js";

const RETRY_SECONDS = 3;
const STALE = ["turn_number_mismatch", "turn_undone", "match_closed", "event_closed"];

export function newIdempotencyKey() {
  if (window.crypto && typeof window.crypto.randomUUID === "function") {
    return window.crypto.randomUUID();
  }
  // randomUUID needs a secure context; a phone on the club's Wi-Fi may have plain HTTP.
  const bytes = new Uint8Array(16);
  if (window.crypto && window.crypto.getRandomValues) {
    window.crypto.getRandomValues(bytes);
  } else {
    for (let i = 0; i < bytes.length; i++) {
      bytes[i] = Math.floor(Math.random() * 256);
    }
  }
  return Array.prototype.map
    .call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    })
    .join("");
}

// matchId, player, turnNumber: from the page. url: the turns URL. auth: { csrf, scoreKey }.
// onBusy(flag): show that a turn is on its way. onChange(): the page redraws its buttons.
// onSaved(turnNumber): the server stored the turn. onStale(code): the match moved on.
export function createPendingTurn({
  matchId,
  player,
  turnNumber,
  url,
  auth,
  say,
  onBusy,
  onChange,
  onSaved,
  onStale,
}) {
  const storeKey = "yardleague-score-" + matchId;

  function load() {
    try {
      const stored = JSON.parse(window.sessionStorage.getItem(storeKey) || "null");
      // A turn stored for another turn number was dealt with: the server shows a later turn.
      return stored && stored.turn_number === turnNumber ? stored : null;
    } catch (e) {
      return null;
    }
  }

  function save(turn) {
    try {
      window.sessionStorage.setItem(storeKey, JSON.stringify(turn));
    } catch (e) {
      // storage full or disabled: the key still lives in memory for this page
    }
  }

  function drop() {
    try {
      window.sessionStorage.removeItem(storeKey);
    } catch (e) {
      // nothing to drop
    }
  }

  const turn = load() || { turn_number: turnNumber, key: newIdempotencyKey(), body: null };
  if (!turn.body) {
    save(turn);
  }
  let sending = false;
  let retryTimer = null;

  // No new entry while a turn is on its way or waiting to be sent again.
  function busy() {
    return sending || Boolean(turn.body);
  }

  function submit(body) {
    if (busy()) {
      return;
    }
    body.player = player;
    body.turn_number = turnNumber;
    turn.body = body;
    save(turn);
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
    if (sending || !turn.body) {
      return;
    }
    sending = true;
    onBusy(true);
    say("Sending the turn…");
    onChange();
    postJson(url, auth, turn.body, { "Idempotency-Key": turn.key })
      .then(function (response) {
        return readJson(response).then(function (answer) {
          sending = false;
          if (response.status === 201) {
            drop();
            onSaved(turnNumber);
            onBusy(false);
            say("Turn " + turnNumber + " saved.", "ok");
            window.location.reload();
            return;
          }
          if (response.status === 409 && answer && STALE.indexOf(answer.code) >= 0) {
            // Nothing was stored, and this key's turn will not be sent again.
            drop();
            turn.body = null;
            onBusy(false);
            onStale(answer.code);
            return;
          }
          if (response.status >= 500 || response.status === 429 || response.status === 408) {
            // Not refused: the server could not take it now. Same key, same body, later.
            say(errorText(response.status, answer) + " The turn is kept and sent again.", "error");
            scheduleRetry();
            return;
          }
          // Refused (422, 409, 403, ...): nothing was stored. Keep what was entered and the key.
          turn.body = null;
          save(turn);
          onBusy(false);
          say(errorText(response.status, answer), "error");
          onChange();
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
        onChange();
        scheduleRetry();
      });
  }

  window.addEventListener("online", function () {
    if (turn.body && !sending) {
      send();
    }
  });

  // Once the page is drawn: a turn sent but never confirmed (the page was closed or reloaded)
  // is sent again.
  function resume() {
    if (turn.body) {
      say("Turn " + turnNumber + " was not confirmed yet: sending it again.");
      send();
    }
  }

  return { busy, submit, resume };
}
