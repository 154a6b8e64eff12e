// "Tick all" and "Tick none" beside a list of checkboxes (the roster's entrants, a stage's
// players): each button of a `.select-all` paragraph ticks or unticks every checkbox of its
// fieldset. Without scripts the paragraph stays hidden and the boxes are ticked one by one
// (the pages also offer a button that posts every player shown).
for (const row of document.querySelectorAll(".select-all")) {
  const box = row.closest("fieldset");
  if (!box) continue;
  for (const button of row.querySelectorAll("button[data-select]")) {
    button.addEventListener("click", () => {
      const ticked = button.dataset.select === "all";
      for (const input of box.querySelectorAll('input[type="checkbox"]')) input.checked = ticked;
    });
  }
  row.hidden = false;
}
