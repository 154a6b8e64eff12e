// The correction form of match control (organize/matches/_correct.html) entered by tapping, as
// the scoring page is: each roll's or throw's dice with the face buttons into a dice tray
// (score/tray.js, the scoring page's own), the dice kept or set aside by tapping them, the box
// or how a Yardkle turn ended from buttons. The form's own fields stay in the form, hidden, and
// each tap writes them as typing would ("3 3 5 2 6"): the server reads the same fields, and the
// form works without this script. A field is written only once its row is tapped, so a row left
// alone posts what the page rendered.
//
// Yardzee: roll N's tray is the dice showing after roll N (dice_N); tapping dice marks those
// kept from roll N-1 (keep_N; roll 1 keeps none). Yardkle: throw N's tray is the dice thrown
// (dice_N); tapping marks those set aside (set_aside_N). A throw has the dice the throw before
// left (six again after hot dice).
//
// htmx swaps the form after "Check what it does" (hx-target: its .match-control-step), so the
// form is set up again on each htmx:load, as well as on page load.
import {
  anyEntered,
  canChange,
  createTray,
  drawTray,
  isComplete,
  refill,
  wireTray,
} from "./score/tray.js";

const FACES = [1, 2, 3, 4, 5, 6];
const YARDZEE_DICE = 5;
const YARDKLE_DICE = 6;

function digits(text) {
  return (text.match(/[1-6]/g) || []).map(Number);
}

function spaced(dice) {
  return dice.join(" ");
}

function make(tag, className, text) {
  const element = document.createElement(tag);
  if (className) {
    element.className = className;
  }
  if (text !== undefined) {
    element.textContent = text;
  }
  return element;
}

function button(className, text) {
  const element = make("button", className, text);
  element.type = "button";
  return element;
}

// The field's paragraph (organize/_field.html) hidden; its error, if any, stays in view.
// Not required either: the browser would refuse to send a form whose required field it hides,
// without a word; the server says what is missing, on the form.
function hideField(input, errors) {
  const field = input.closest(".field") || input;
  field.hidden = true;
  input.required = false;
  const error = field.querySelector(".error");
  if (error) {
    errors.appendChild(make("p", "error", error.textContent));
  }
}

// The tray's dice from the field's text, and the marks from the other field's (each marked
// die matched to an unmarked one of the same face).
function load(tray, count, diceText, markText) {
  const dice = digits(diceText);
  refill(tray, Math.max(count, dice.length));
  dice.forEach(function (d, i) {
    tray.dice[i] = d;
  });
  digits(markText).forEach(function (d) {
    const i = tray.dice.findIndex(function (value, j) {
      return value === d && !tray.marked[j];
    });
    if (i >= 0) {
      tray.marked[i] = true;
    }
  });
}

// A row's tray with room for `count` dice: the dice entered kept (as many as fit), in order.
function resize(tray, count) {
  if (tray.dice.length === count) {
    return;
  }
  const entered = [];
  tray.dice.forEach(function (d, i) {
    if (d !== null) {
      entered.push({ d: d, marked: tray.marked[i] });
    }
  });
  refill(tray, count);
  entered.slice(0, count).forEach(function (die, i) {
    tray.dice[i] = die.d;
    tray.marked[i] = die.marked;
  });
}

function markedDice(tray) {
  return tray.dice.filter(function (d, i) {
    return d !== null && tray.marked[i];
  });
}

function enteredDice(tray) {
  return tray.dice.filter(function (d) {
    return d !== null;
  });
}

// One roll or throw: its fieldset gets a tray, face buttons, "Change a die" and "Clear dice".
function createRow(form, fieldset, game, onChange) {
  const number = Number(fieldset.getAttribute("data-row"));
  const rowWord = game === "yardzee" ? "Roll" : "Throw";
  const diceInput = form.querySelector('input[name="dice_' + number + '"]');
  const markName = game === "yardzee" ? "keep_" + number : "set_aside_" + number;
  const markInput = form.querySelector('input[name="' + markName + '"]');
  if (!diceInput) {
    return null;
  }
  const tray = createTray();
  const canMark = markInput !== null;
  const markWord = game === "yardzee" ? "kept from roll " + (number - 1) : "set aside";

  const errors = make("div", "tray-errors");
  hideField(diceInput, errors);
  if (markInput) {
    hideField(markInput, errors);
  }
  const element = make("div", "tray");
  element.setAttribute("role", "group");
  element.setAttribute("aria-label", rowWord + " " + number + ": dice");
  const faces = make("div", "faces");
  faces.setAttribute("role", "group");
  faces.setAttribute("aria-label", rowWord + " " + number + ": enter a die");
  const faceButtons = FACES.map(function (face) {
    const faceButton = button("face", String(face));
    faceButton.setAttribute("data-face", String(face));
    faceButton.setAttribute("aria-label", rowWord + " " + number + ": enter a " + face);
    faces.appendChild(faceButton);
    return faceButton;
  });
  const actions = make("div", "actions");
  const changeButton = button("change-die", "Change a die");
  changeButton.setAttribute("aria-pressed", "false");
  const clearButton = button("clear-dice", "Clear dice");
  actions.append(changeButton, clearButton);
  const hint = make(
    "p",
    "hint",
    game === "yardzee"
      ? number === 1
        ? "Tap the five dice showing after roll 1."
        : "Tap the dice showing after roll " +
            number +
            ", then tap those kept from roll " +
            (number - 1) +
            ". Leave it empty if there was no roll " +
            number +
            "."
      : "Tap the dice thrown, then tap those set aside." +
          (number > 1 ? " Leave it empty if there was no throw " + number + "." : ""),
  );
  const status = make("p", "hint tray-status");
  status.setAttribute("role", "status");
  fieldset.append(element, hint, faces, actions, status, errors);

  const row = {
    number: number,
    tray: tray,
    // How many dice this row throws (set by the form from the rows before it).
    count: game === "yardzee" ? YARDZEE_DICE : YARDKLE_DICE,
    marked: function () {
      return markedDice(tray);
    },
    // The tray drawn again, and the buttons enabled as the state allows.
    refresh: function () {
      faceButtons.forEach(function (faceButton) {
        faceButton.disabled = isComplete(tray);
      });
      clearButton.disabled = !anyEntered(tray);
      changeButton.disabled = !(tray.editing || canChange(tray));
      changeButton.setAttribute("aria-pressed", tray.editing ? "true" : "false");
      drawTray(element, tray, {
        busy: function () {
          return false;
        },
        canMark: function () {
          return canMark;
        },
        markWord: markWord,
      });
    },
    // The form's fields written from the tray, as typing them would.
    write: function () {
      diceInput.value = spaced(enteredDice(tray));
      if (markInput) {
        markInput.value = spaced(markedDice(tray));
      }
    },
    resize: function (count) {
      row.count = count;
      if (!anyEntered(tray)) {
        refill(tray, count);
      } else {
        resize(tray, count);
      }
    },
  };
  load(tray, row.count, diceInput.value, markInput ? markInput.value : "");

  wireTray(
    {
      tray: tray,
      busy: function () {
        return false;
      },
      changed: function () {
        if (!tray.editing) {
          status.textContent = "";
        }
        if (!anyEntered(tray) && tray.dice.length !== row.count) {
          refill(tray, row.count);
        }
        row.write();
        onChange(row);
      },
      refresh: row.refresh,
      say: function (text) {
        status.textContent = text;
      },
    },
    { element: element, faces: faceButtons, clearButton: clearButton, changeButton: changeButton },
  );
  return row;
}

// The box, or how a Yardkle turn ended, from buttons: one per option of the form's select,
// pressed for the option chosen.
function choiceButtons(select, label) {
  const field = select.closest(".field") || select;
  const errors = make("div", "tray-errors");
  hideField(select, errors);
  const title = make("p", "choice-title", label);
  title.id = "choose-" + select.name;
  const list = make("ul", "boxes choices");
  list.setAttribute("aria-labelledby", title.id);
  const buttons = [];
  function draw() {
    buttons.forEach(function (choice) {
      choice.setAttribute("aria-pressed", choice.value === select.value ? "true" : "false");
    });
  }
  Array.from(select.options).forEach(function (option) {
    if (!option.value) {
      return;
    }
    const choice = button("box choice", option.textContent);
    choice.value = option.value;
    choice.setAttribute("data-choice", option.value);
    choice.addEventListener("click", function () {
      select.value = option.value;
      draw();
    });
    const item = make("li");
    item.appendChild(choice);
    list.appendChild(item);
    buttons.push(choice);
  });
  field.after(title, list, errors);
  draw();
}

function setUp(form) {
  if (form.getAttribute("data-tapping") === "on") {
    return;
  }
  form.setAttribute("data-tapping", "on");
  const game = form.getAttribute("data-game");
  const rows = [];

  // Yardkle: each throw has the dice the throw before left, six again after hot dice.
  function recount() {
    if (game !== "yardkle") {
      return;
    }
    let count = YARDKLE_DICE;
    rows.forEach(function (row) {
      if (row.count !== count) {
        row.resize(count);
        row.write();
      }
      row.refresh();
      const left = count - row.marked().length;
      count = left > 0 ? left : YARDKLE_DICE;
    });
  }

  function changed(row) {
    row.refresh();
    recount();
  }

  form.querySelectorAll("fieldset.dice-row[data-row]").forEach(function (fieldset) {
    const row = createRow(form, fieldset, game, changed);
    if (row) {
      rows.push(row);
    }
  });
  // Sizes as the stored turn has them, without writing a row that was not tapped.
  if (game === "yardkle") {
    let count = YARDKLE_DICE;
    rows.forEach(function (row) {
      row.count = count;
      if (enteredDice(row.tray).length <= count) {
        resize(row.tray, count);
      }
      const left = count - row.marked().length;
      count = left > 0 ? left : YARDKLE_DICE;
    });
  }
  rows.forEach(function (row) {
    row.refresh();
  });
  const box = form.querySelector('select[name="category"]');
  if (box) {
    choiceButtons(box, "Box");
  }
  const end = form.querySelector('select[name="end"]');
  if (end) {
    choiceButtons(end, "The turn ended");
  }
}

function setUpWithin(root) {
  if (root.matches && root.matches("form.correction")) {
    setUp(root);
  }
  root.querySelectorAll("form.correction").forEach(setUp);
}

setUpWithin(document);
// htmx swaps the form in after "Check what it does": each new one is set up too.
document.addEventListener("htmx:load", function (event) {
  if (event.target instanceof Element) {
    setUpWithin(event.target);
  }
});
