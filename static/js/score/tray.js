// The dice tray (#tray): one slot per die of the current roll or throw, filled one by one with
// the face buttons. Before the roll is complete, tapping an entered die takes it back; once it
// is complete, tapping marks it (kept in Yardzee, set aside in Yardkle). "Clear dice" empties
// every slot not locked.
//
// The tray's state is a plain object the games read and refill:
//   { dice: [value or null, one per slot], marked: [bool], locked: [bool] }
// locked: Yardzee's dice kept from the previous roll, which are not entered again.

export function createTray() {
  return { dice: [], marked: [], locked: [] };
}

export function refill(tray, count) {
  tray.dice = [];
  tray.marked = [];
  tray.locked = [];
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
  if (!isComplete(tray)) {
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
    button.setAttribute("aria-label", label);
    if (d !== null && complete) {
      button.setAttribute("aria-pressed", tray.marked[i] ? "true" : "false");
    }
    button.disabled = !tappable(tray, i, view);
    element.appendChild(button);
  });
}

// changed(onlyMarks): the game looks at the dice again (onlyMarks: only what is marked moved).
export function wireTray({ element, faces, clearButton, tray, busy, changed }) {
  element.addEventListener("click", function (event) {
    const button = event.target.closest("button.slot");
    if (!button || button.disabled) {
      return;
    }
    const i = Number(button.getAttribute("data-index"));
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
    changed(false);
  });
}
