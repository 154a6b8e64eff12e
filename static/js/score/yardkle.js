// Yardkle: throws of six dice, then of those not set aside. Once a throw's dice are in, the
// preview says whether the throw scores and which set-asides are legal; the dice tapped to set
// aside show their points, and a second preview including them gives the running turn total,
// the dice left to throw (hot dice: six again) and whether banking is allowed. "Throw again",
// "Bank" ({throws, end: "bank", points}) and "Yardkle" (a throw with no scoring dice) follow.
import { diceMarked, diceShowing, isComplete, refill, sameDice } from "./tray.js";

const YARDKLE_DICE = 6;

// scorer: { tray, busy(), preview, say, refresh(), changed(onlyMarks),
// confirmTurn(what, body, opener) } (see main.js)
export function createYardkle(scorer) {
  const { tray, preview, say } = scorer;
  const throws = []; // throws already made this turn, with their set-aside
  const throwAgain = document.getElementById("throw-again");
  const bankButton = document.getElementById("bank");
  const yardkleButton = document.getElementById("yardkle");
  const throwCount = document.getElementById("throw-count");
  const diceLeft = document.getElementById("dice-left");
  const turnTotal = document.getElementById("turn-total");
  const selectionPoints = document.getElementById("selection-points");
  let before = null; // preview of the throws so far and the dice showing
  let after = null; // preview including the current throw's set-aside, when legal
  let diceToThrow = YARDKLE_DICE;
  let turnTotalSoFar = 0;

  function legalSelection() {
    if (!before || !before.set_aside_options) {
      return null;
    }
    const chosen = diceMarked(tray);
    if (!chosen.length) {
      return null;
    }
    for (const option of before.set_aside_options) {
      if (sameDice(option.dice, chosen)) {
        return option;
      }
    }
    return null;
  }

  function thrownNow(setAside) {
    return { dice: diceShowing(tray), set_aside: setAside };
  }

  function refresh() {
    const busy = scorer.busy();
    const option = legalSelection();
    const ready = isComplete(tray) && before !== null;
    throwCount.textContent = String(throws.length + 1);
    // With a legal set-aside previewed, the dice it leaves (six again on hot dice), as the
    // total; otherwise the dice this throw has.
    diceLeft.textContent = String(after ? after.dice_to_throw : diceToThrow);
    const total = after ? after.turn_total : before ? before.turn_total : turnTotalSoFar;
    turnTotal.textContent = String(total);
    selectionPoints.textContent = option
      ? option.points + " points"
      : diceMarked(tray).length && ready
        ? "not a scoring set"
        : "–";
    const yardkle = ready && before.has_points === false;
    yardkleButton.disabled = busy || !yardkle;
    bankButton.disabled = busy || !(option && after && after.can_bank);
    throwAgain.disabled = busy || !(option && after);
  }

  function changed(onlyMarks) {
    after = null;
    if (!onlyMarks) {
      before = null;
    }
    if (!isComplete(tray)) {
      return;
    }
    const shown = diceShowing(tray);
    if (!onlyMarks) {
      preview({ throws: throws, dice: shown }, function (answer) {
        if (!answer || !isComplete(tray) || !sameDice(shown, thrownNow([]).dice)) {
          return;
        }
        before = answer;
        if (answer.has_points === false) {
          say("No scoring dice: this throw is a Yardkle.", "error");
        }
        changed(true);
        scorer.refresh();
      });
      return;
    }
    const option = legalSelection();
    if (!option) {
      return;
    }
    const chosen = diceMarked(tray);
    preview({ throws: throws.concat([thrownNow(chosen)]) }, function (answer) {
      if (!answer || !sameDice(chosen, diceMarked(tray))) {
        return;
      }
      after = answer;
      if (answer.hot_dice) {
        say("Hot dice: all six dice scored, throw all six again.", "ok");
      }
      scorer.refresh();
    });
  }

  refill(tray, YARDKLE_DICE);

  throwAgain.addEventListener("click", function () {
    if (!legalSelection() || !after) {
      return;
    }
    throws.push(thrownNow(diceMarked(tray)));
    turnTotalSoFar = after.turn_total;
    diceToThrow = after.dice_to_throw;
    before = null;
    after = null;
    refill(tray, diceToThrow);
    scorer.changed(false);
    say("Throw " + (throws.length + 1) + ": enter the " + diceToThrow + " dice thrown.");
  });

  bankButton.addEventListener("click", function () {
    if (!legalSelection() || !after || !after.can_bank || scorer.busy()) {
      return;
    }
    const body = {
      throws: throws.concat([thrownNow(diceMarked(tray))]),
      end: "bank",
      points: after.turn_total,
    };
    scorer.confirmTurn("banked " + after.turn_total.toLocaleString("en"), body, bankButton);
  });

  yardkleButton.addEventListener("click", function () {
    if (!before || before.has_points !== false || scorer.busy()) {
      return;
    }
    const body = { throws: throws.concat([thrownNow([])]), end: "yardkle", points: 0 };
    scorer.confirmTurn("Yardkle", body, yardkleButton);
  });

  return {
    markWord: "set aside",
    started: function () {
      return throws.length > 0;
    },
    canMark: function () {
      return true;
    },
    refresh,
    changed,
  };
}
