// Organizers' "Undo the last turn" (#undo, also on a finished match, which it reopens). The
// button carries its URL (data-undo-url) and the CSRF token (data-csrf); the page renders it
// disabled, so that no tap is lost before this module has run.
import { errorText, postJson, readJson } from "./api.js";

export function wireUndo(button, say) {
  const url = button.getAttribute("data-undo-url");
  const auth = { csrf: button.getAttribute("data-csrf") || "", scoreKey: "" };
  button.addEventListener("click", function () {
    if (!window.confirm("Undo the last turn of this match? It is removed from the scorecard.")) {
      return;
    }
    button.disabled = true;
    say("Undoing the last turn…");
    postJson(url, auth)
      .then(function (response) {
        return readJson(response).then(function (body) {
          if (response.ok) {
            say("The last turn was undone.", "ok");
            window.location.reload();
          } else {
            button.disabled = false;
            say(errorText(response.status, body), "error");
          }
        });
      })
      .catch(function () {
        button.disabled = false;
        say("No connection: the turn was not undone. Try again.", "error");
      });
  });
  button.disabled = false;
}
