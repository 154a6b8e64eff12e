// The page's one status line (#score-message, aria-live): what happened, and whether it is an
// error or a hint ("Tap the die to change.") that the next entry clears.

export function createMessage(element) {
  function say(text, kind) {
    if (!element) {
      return;
    }
    element.textContent = text;
    element.className = "score-message" + (kind ? " " + kind : "");
  }

  function showsError() {
    return (
      Boolean(element) &&
      (element.classList.contains("error") || element.classList.contains("hint"))
    );
  }

  return { say, showsError };
}
