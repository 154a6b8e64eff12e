// The round sheet's "Print this sheet" button: shown only where scripts run, it opens the
// browser's print dialog (the page's print styles lay out one block per table).
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
