// The "start a lesson" form: show only the chosen game's options and the chosen way of seating.
const form = document.getElementById("start-form");
const game = form.querySelector("select[name=game]");

function update() {
  for (const fieldset of form.querySelectorAll("[data-game-options]")) {
    fieldset.hidden = fieldset.dataset.gameOptions !== game.value;
  }
  const seating = form.querySelector("input[name=seating]:checked")?.value || "auto";
  for (const part of form.querySelectorAll("[data-seating]")) part.hidden = part.dataset.seating !== seating;
}

form.addEventListener("change", update);
update();
