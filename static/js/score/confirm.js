// A turn is saved only once confirmed: the box tap (Yardzee), Bank or Yardkle opens the panel
// #confirm-turn with what will be saved ("Save turn 12: Ana, Full house, 25?"), its "Save
// turn" button focused, and "Back" (or Escape) to choose again. While it is open the dice and
// boxes wait (busy), so the turn confirmed is the turn shown.

// panel, text, save, back: the elements of #confirm-turn. onChange(): redraw the page.
export function createConfirm({ panel, text, save, back, onChange }) {
  const state = { onSave: null, opener: null };

  function isOpen() {
    return !panel.hidden;
  }

  function close() {
    state.onSave = null;
    panel.hidden = true;
    onChange();
  }

  // message: the question; onSave(): what saving does; opener: the button tapped, focused
  // again after "Back".
  function ask(message, onSave, opener) {
    state.onSave = onSave;
    state.opener = opener || null;
    text.textContent = message;
    panel.hidden = false;
    onChange();
    save.focus();
    if (panel.scrollIntoView) {
      panel.scrollIntoView({ block: "nearest" });
    }
  }

  save.addEventListener("click", function () {
    const onSave = state.onSave;
    close();
    if (onSave) {
      onSave();
    }
  });

  function goBack() {
    const opener = state.opener;
    close();
    if (opener && !opener.disabled) {
      opener.focus();
    }
  }

  back.addEventListener("click", goBack);
  panel.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      goBack();
    }
  });

  return { ask, isOpen, close };
}
