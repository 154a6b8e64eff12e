// "Undo my last turn" (#take-back): the scorekeeper who just sent a turn may take it back
// themselves (the match's take-back URL, data-take-back-url) while the next player has not
// started (no die entered on this page) and within the server's window
// (data-take-back-seconds). This page knows it sent the last turn from sessionStorage, where
// pending.js's onSaved put the turn's number and when it was sent; the server checks the rest
// (the same key or account, the last turn, not a finished match).
import { errorText, postJson, readJson } from "./api.js";

const SENT = "yardleague-sent-";
// The offer ends this long before the server's window does: a tap at the last second would
// be refused on arrival.
const MARGIN_SECONDS = 3;

export function rememberSent(matchId, sequence) {
  try {
    window.sessionStorage.setItem(
      SENT + matchId,
      JSON.stringify({ sequence: sequence, at: Date.now() })
    );
  } catch (e) {
    // storage disabled: no offer after the reload
  }
}

function loadSent(matchId) {
  try {
    return JSON.parse(window.sessionStorage.getItem(SENT + matchId) || "null");
  } catch (e) {
    return null;
  }
}

function forgetSent(matchId) {
  try {
    window.sessionStorage.removeItem(SENT + matchId);
  } catch (e) {
    // nothing to forget
  }
}

// root: #scorer. last: { sequence, text } of the turn saved last (#last-saved). auth: as
// api.js. say(text, kind): the status line. onTakenBack(text): the page reloads saying it.
export function createTakeBack({ root, last, auth, say, onTakenBack }) {
  const matchId = root.getAttribute("data-match");
  const url = root.getAttribute("data-take-back-url");
  const seconds = Number(root.getAttribute("data-take-back-seconds")) || 0;
  const offer = document.getElementById("take-back-offer");
  const button = document.getElementById("take-back");
  const sent = loadSent(matchId);
  const left =
    sent && last.sequence > 0 && sent.sequence === last.sequence
      ? (seconds - MARGIN_SECONDS) * 1000 - (Date.now() - sent.at)
      : 0;
  const state = { open: left > 0, sending: false, started: false };

  function refresh(started) {
    state.started = started;
    if (!offer || !button) {
      return;
    }
    offer.hidden = !state.open || started;
    button.disabled = !state.open || started || state.sending;
  }

  function end() {
    state.open = false;
    refresh(state.started);
  }

  if (!state.open) {
    if (sent && sent.sequence !== last.sequence) {
      forgetSent(matchId); // the turn it sent is not the last one any more
    }
    return { refresh };
  }
  window.setTimeout(end, left);

  button.addEventListener("click", function () {
    if (!state.open || state.sending || state.started) {
      return;
    }
    state.sending = true;
    refresh(state.started);
    say("Taking back turn " + last.sequence + "…");
    postJson(url, auth, { turn_number: last.sequence })
      .then(function (response) {
        return readJson(response).then(function (body) {
          state.sending = false;
          if (response.ok) {
            forgetSent(matchId);
            onTakenBack("You took back " + last.text + ".");
            return;
          }
          // Too late, not the last turn any more, or not this scorekeeper's: say why.
          forgetSent(matchId);
          end();
          say(errorText(response.status, body), "error");
        });
      })
      .catch(function () {
        state.sending = false;
        refresh(state.started);
        say("No connection: the turn was not taken back. Try again.", "error");
      });
  });
  button.disabled = false;
  refresh(false);
  return { refresh };
}
