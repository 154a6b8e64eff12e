// The "Print this sheet" button of the round sheet and of the paper pads: shown only where
// scripts run, it opens the browser's print dialog (the page's print styles lay it out).
(function () {
  "use strict";

  var button = document.getElementById("print-sheet");
  if (!button) {
    return;
  }
  button.hidden = false;
  button.addEventListener("click", function () {
    window.print();
  });
})();
