// The dice tray (#tray): one slot per die of the current roll or throw, filled one by one with
// the face buttons. Before the roll is complete, tapping an entered die takes it back; once it
// is complete, tapping marks it (kept in Yardzee, set aside in Yardkle). "Change a die" (one
// wrong die in a complete roll): the next tap empties that die alone, for the face buttons to
// fill again; the others and what is marked stay. "Clear dice" empties every slot not locked.
//
// The tray's state is a plain object the games read and refill:
//   { dice: [value or null, one per slot], marked: [bool], locked: [bool], editing: bool }
// locked: Yardzee's dice kept from the previous roll, which are not entered again.
// editing: "Change a die" is on.

export function createTray() {
  return { dice: [], marked: [], locked: [], editing: false };
}

export function refill(tray, count) {
  tray.dice = [];
  tray.marked = [];
  tray.locked = [];
  tray.editing = false;
  for (let i = 0; i < count; i++) {
    tray.dice.push(null);
    tray.marked.push(false);
    tray.locked.push(false);
  }
}

export function isComplete(tray) {
  return (
    tray.dice.length > 0 &&
    tray.dice.every(function (d) {
      return d !== null;
    })
  );
}

function diceWhere(tray, flags) {
  return tray.dice.filter(function (d, i) {
    return flags[i];
  });
}

// Whether any die of this roll or throw has been entered.
export function anyEntered(tray) {
  return tray.dice.some(function (d, i) {
    return d !== null && !tray.locked[i];
  });
}

// "Change a die" applies to a complete roll with a die not kept from the roll before.
export function canChange(tray) {
  return isComplete(tray) && tray.locked.some(function (locked) {
    return !locked;
  });
}

export function diceShowing(tray) {
  return tray.dice.slice();
}

export function diceMarked(tray) {
  return diceWhere(tray, tray.marked);
}

export function diceLocked(tray) {
  return diceWhere(tray, tray.locked);
}

function sorted(list) {
  return list.slice().sort(function (a, b) {
    return a - b;
  });
}

// The same dice, in any order.
export function sameDice(a, b) {
  return a.length === b.length && sorted(a).join() === sorted(b).join();
}

// view: { busy(), canMark(): marking allowed now, markWord: "kept" or "set aside" }
function tappable(tray, i, view) {
  if (view.busy() || tray.dice[i] === null) {
    return false;
  }
  if (tray.editing || !isComplete(tray)) {
    return !tray.locked[i]; // tap an entered die to take it back
  }
  return view.canMark();
}

export function drawTray(element, tray, view) {
  element.innerHTML = "";
  const complete = isComplete(tray);
  tray.dice.forEach(function (d, i) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "slot" + (d === null ? " blank" : "") + (tray.marked[i] ? " marked" : "");
    button.setAttribute("data-index", String(i));
    button.textContent = d === null ? "·" : String(d);
    let label = "Die " + (i + 1) + ": " + (d === null ? "not entered" : d);
    if (d !== null && tray.marked[i]) {
      label += ", " + view.markWord;
    }
    if (d !== null && tray.editing && !tray.locked[i]) {
      label += ", tap to change";
    }
    button.setAttribute("aria-label", label);
    if (d !== null && complete && !tray.editing) {
      button.setAttribute("aria-pressed", tray.marked[i] ? "true" : "false");
    }
    button.disabled = !tappable(tray, i, view);
    element.appendChild(button);
  });
}

// scorer (main.js): its tray, busy(), changed(onlyMarks): the game looks at the dice again
// (onlyMarks: only what is marked moved), refresh(): the buttons drawn again, nothing else
// changed, say(text): the status line. element, faces, clearButton, changeButton: the tray's.
export function wireTray(scorer, { element, faces, clearButton, changeButton }) {
  const { tray, busy, changed, refresh, say } = scorer;
  element.addEventListener("click", function (event) {
    const button = event.target.closest("button.slot");
    if (!button || button.disabled) {
      return;
    }
    const i = Number(button.getAttribute("data-index"));
    if (tray.editing) {
      tray.dice[i] = null;
      tray.marked[i] = false;
      tray.editing = false;
      changed(false);
      say("Die " + (i + 1) + " cleared: enter the right one.", "hint");
      return;
    }
    if (!isComplete(tray)) {
      tray.dice[i] = null;
      changed(false);
      return;
    }
    tray.marked[i] = !tray.marked[i];
    changed(true);
  });

  faces.forEach(function (button) {
    button.addEventListener("click", function () {
      const i = tray.dice.indexOf(null);
      if (i < 0 || busy()) {
        return;
      }
      tray.dice[i] = Number(button.getAttribute("data-face"));
      changed(false);
    });
  });

  clearButton.addEventListener("click", function () {
    tray.dice.forEach(function (d, i) {
      if (!tray.locked[i]) {
        tray.dice[i] = null;
        tray.marked[i] = false;
      }
    });
    tray.editing = false;
    changed(false);
  });

  changeButton.addEventListener("click", function () {
    if (busy() || (!tray.editing && !canChange(tray))) {
      return;
    }
    tray.editing = !tray.editing;
    say(tray.editing ? "Tap the die to change." : "", "hint");
    refresh();
  });
}
