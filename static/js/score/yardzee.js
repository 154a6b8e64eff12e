// Yardzee: up to three rolls of five dice. Once five dice show, the preview gives every open
// box of the current player with its points (null where the joker rule forbids it) and any
// Yardzee bonus. Dice tapped are kept for "Next roll"; tapping a box asks to confirm the turn
// ("Save turn 12: Ana, Full house, 25?"), then submits it ({rolls, category, points}).
import { diceLocked, diceMarked, diceShowing, isComplete, refill, sameDice } from "./tray.js";

const YARDZEE_DICE = 5;
const MAX_ROLLS = 3;
const ALL_KEPT = "All five kept: a roll throws at least one die again. Score them, or keep fewer.";

// scorer: { root, tray, busy(), preview, say, refresh(), changed(onlyMarks),
// confirmTurn(what, body, opener) } (see main.js)
export function createYardzee(scorer) {
  const { root, tray, preview, say } = scorer;
  const rolls = []; // rolls already made this turn, as the turn JSON has them
  const boxButtons = root.querySelectorAll("button.box");
  const nextRoll = document.getElementById("next-roll");
  const rollCount = document.getElementById("roll-count");
  const bonusNote = document.getElementById("bonus-note");
  let options = null; // the preview's points of each open box, for the dice showing

  function rollNumber() {
    return rolls.length + 1;
  }

  // RULES.md, "Turn": a further roll re-throws at least one die, so not all five are kept.
  function keepsAll() {
    return diceMarked(tray).length === YARDZEE_DICE;
  }

  function saidAllKept() {
    const line = document.getElementById("score-message");
    return line !== null && line.textContent === ALL_KEPT;
  }

  function canRollAgain() {
    return isComplete(tray) && rollNumber() < MAX_ROLLS && !keepsAll();
  }

  function currentRoll() {
    const roll = { dice: diceShowing(tray) };
    if (rolls.length > 0) {
      roll.keep = diceLocked(tray);
    }
    return roll;
  }

  function refresh() {
    const busy = scorer.busy();
    rollCount.textContent = String(rollNumber());
    nextRoll.disabled = busy || !canRollAgain();
    boxButtons.forEach(function (button) {
      const name = button.getAttribute("data-box");
      const points = button.querySelector("[data-points]");
      const value = options ? options[name] : undefined;
      const label = button.querySelector(".box-name").textContent;
      button.classList.toggle("forbidden", value === null);
      if (value === undefined) {
        points.textContent = "–";
        button.disabled = true;
        button.setAttribute("aria-label", label);
      } else if (value === null) {
        points.textContent = "not allowed";
        button.disabled = true;
        button.setAttribute("aria-label", label + ": not allowed by the joker rule");
      } else {
        points.textContent = String(value);
        button.disabled = busy;
        button.setAttribute("aria-label", label + ": " + value + " points");
      }
    });
  }

  function changed(onlyMarks) {
    if (onlyMarks) {
      // Keeping dice changes nothing the rules score; all five kept rule out another roll.
      if (keepsAll()) {
        say(ALL_KEPT, "hint");
      } else if (saidAllKept()) {
        say("");
      }
      return;
    }
    options = null;
    bonusNote.textContent = "";
    if (!isComplete(tray)) {
      return;
    }
    const shown = diceShowing(tray);
    preview({ dice: shown }, function (answer) {
      if (!answer || !isComplete(tray) || !sameDice(shown, currentRoll().dice)) {
        return;
      }
      options = answer.options;
      bonusNote.textContent = answer.yardzee_bonus
        ? "+" + answer.yardzee_bonus + " Yardzee bonus"
        : "";
      scorer.refresh();
    });
  }

  refill(tray, YARDZEE_DICE);

  nextRoll.addEventListener("click", function () {
    if (!canRollAgain()) {
      return;
    }
    rolls.push(currentRoll());
    tray.dice = tray.dice.map(function (d, i) {
      return tray.marked[i] ? d : null;
    });
    tray.locked = tray.marked.slice();
    scorer.changed(false);
    say("Roll " + rollNumber() + ": enter the dice thrown again.");
  });

  boxButtons.forEach(function (button) {
    button.addEventListener("click", function () {
      const name = button.getAttribute("data-box");
      if (!options || options[name] === null || options[name] === undefined || scorer.busy()) {
        return;
      }
      const body = { rolls: rolls.concat([currentRoll()]), category: name, points: options[name] };
      const label = button.querySelector(".box-name").textContent;
      const bonus = bonusNote.textContent ? " " + bonusNote.textContent : "";
      scorer.confirmTurn(label + ", " + options[name] + bonus, body, button);
    });
  });

  return {
    markWord: "kept",
    // The player has started their turn: a roll is behind them.
    started: function () {
      return rolls.length > 0;
    },
    canMark: function () {
      return rollNumber() < MAX_ROLLS;
    },
    refresh,
    changed,
  };
}
