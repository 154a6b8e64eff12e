// A page whose match changed elsewhere refreshes itself and says what changed: an organizer
// undid or corrected a turn, voided the match, or another phone entered the next turn. It
// asks the match (the API's match URL, data-match-url) every few seconds, compares it with
// the page's version (data-version: turns played, status, the last turn's points and bonus,
// as the server rendered them) and reloads when they differ; a turn refused because the
// match moved on (409) reloads at once. Before reloading it keeps in sessionStorage what the
// page showed (the turn saved last, whether dice were entered); the new page compares that
// with its own "Last saved" line and says what changed.

const NOTE = "yardleague-note-";
const RELOADED = "yardleague-reloaded-";
const OPEN_SECONDS = 10;
const CLOSED_SECONDS = 30;

// The "Last saved" line (#last-saved) as the server rendered it.
export function readLastSaved() {
  const line = document.getElementById("last-saved");
  const text = document.getElementById("last-saved-text");
  return {
    sequence: line ? Number(line.getAttribute("data-sequence")) || 0 : 0,
    text: text ? text.textContent : "",
  };
}

function statusOf(version) {
  return String(version || "").split(":")[1] || "";
}

// "Turn 12: Ana, Full house, 25" -> "Ana, Full house, 25"
function what(text) {
  const cut = text.indexOf(": ");
  return cut < 0 ? text : text.slice(cut + 2);
}

// What changed between the page before the reload (note) and this one.
export function describeChange(note, now, version) {
  const before = note.last || { sequence: 0, text: "" };
  let text;
  if (note.text) {
    text = note.text;
  } else if (statusOf(version) === "void" && statusOf(note.version) !== "void") {
    text = "An organizer voided this match: it takes no more turns.";
  } else if (now.sequence < before.sequence) {
    text =
      before.sequence - now.sequence === 1
        ? "Turn " + before.sequence + " (" + what(before.text) + ") was undone."
        : "Turns " + (now.sequence + 1) + " to " + before.sequence + " were undone.";
    text += now.sequence ? " Last saved now: " + now.text + "." : " No turn is saved now.";
  } else if (now.sequence > before.sequence) {
    text =
      now.sequence - before.sequence === 1
        ? "Turn " + now.sequence + " was entered on another device: " + now.text + "."
        : "Turns " + (before.sequence + 1) + " to " + now.sequence +
          " were entered on another device; the last: " + now.text + ".";
  } else if (now.text !== before.text) {
    text = "Turn " + now.sequence + " was corrected: " + now.text + ".";
  } else {
    text = "The match changed on another device.";
  }
  return (
    text +
    " The page was refreshed" +
    (note.entered ? "; the dice you had entered were cleared." : ".")
  );
}

// page: #score-page. say(text, kind): the status line. busy(): a turn is being sent (no
// reload then). entered(): dice were entered on this page.
export function createResync({ page, say, busy, entered }) {
  const matchId = page.getAttribute("data-match");
  const url = page.getAttribute("data-match-url");
  const version = page.getAttribute("data-version");
  const seconds = page.getAttribute("data-open") === "true" ? OPEN_SECONDS : CLOSED_SECONDS;

  function store(key, value) {
    try {
      window.sessionStorage.setItem(key + matchId, JSON.stringify(value));
    } catch (e) {
      // storage disabled: the page still reloads, without saying what changed
    }
  }

  function take(key) {
    try {
      const value = JSON.parse(window.sessionStorage.getItem(key + matchId) || "null");
      window.sessionStorage.removeItem(key + matchId);
      return value;
    } catch (e) {
      return null;
    }
  }

  // Reload, saying afterwards what changed (or `text`, when this page did it).
  function reload(text, seen) {
    store(NOTE, { last: readLastSaved(), version: version, entered: entered(), text: text || "" });
    store(RELOADED, { from: version, to: seen || "" });
    window.location.reload();
  }

  function versionOf(match) {
    const turns = match.turns || [];
    const last = turns.length ? turns[turns.length - 1] : null;
    return (
      match.turns_played + ":" + match.status + ":" + (last ? last.points + "/" + last.bonus : "")
    );
  }

  function check() {
    if (document.hidden || busy()) {
      return;
    }
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (match) {
        if (!match || busy()) {
          return;
        }
        const seen = versionOf(match);
        if (seen === version) {
          return;
        }
        // Reloaded for this very change already, and still not matching: do not loop.
        const last = take(RELOADED);
        if (last && last.from === version && last.to === seen) {
          store(RELOADED, last);
          return;
        }
        reload("", seen);
      })
      .catch(function () {
        // offline: the next check tries again
      });
  }

  // Once the page is drawn: say what changed, if this page was reloaded for a change.
  function start() {
    const note = take(NOTE);
    if (note) {
      say(describeChange(note, readLastSaved(), version), note.text ? "ok" : "changed");
    }
    window.setInterval(check, seconds * 1000);
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) {
        check();
      }
    });
  }

  return { start, reload, check };
}
