// Talking to the match's API as any client does: JSON in and out, the CSRF token (signed in)
// or the scoring key (private link) in a header, and the rule's message when a request fails.

// auth: { csrf, scoreKey }, either may be empty.
export function jsonHeaders(auth) {
  const headers = { "Content-Type": "application/json", Accept: "application/json" };
  if (auth.csrf) {
    headers["X-CSRFToken"] = auth.csrf;
  }
  if (auth.scoreKey) {
    headers["X-Score-Key"] = auth.scoreKey;
  }
  return headers;
}

export function postJson(url, auth, body, extraHeaders) {
  return fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: Object.assign(jsonHeaders(auth), extraHeaders || {}),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

// The body of an answer, or null when it is empty or not JSON (a proxy's error page).
export function readJson(response) {
  return response.text().then(function (text) {
    try {
      return text ? JSON.parse(text) : null;
    } catch (e) {
      return null;
    }
  });
}

export function errorText(status, body) {
  if (body && body.message) {
    return body.message;
  }
  return "The server answered " + status + ".";
}

// What the rules make of the dice so far (the match's preview URL). Only the answer to the
// latest request is passed on: an older one arriving late describes dice no longer showing.
export function createPreview({ url, auth, say }) {
  let latest = 0;
  return function preview(payload, onAnswer) {
    const seq = ++latest;
    postJson(url, auth, payload)
      .then(function (response) {
        return readJson(response).then(function (answer) {
          if (seq !== latest) {
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
        if (seq === latest) {
          say("No connection: cannot check the dice. Tap a die again to retry.", "error");
          onAnswer(null);
        }
      });
  };
}
